"""Writes the fixture of the everyday tasks into DIR: jwks.json (a test network's public keys, as
a network serves them at /.well-known/jwks.json) and token (an ES256 ekl-access+jwt valid for five
minutes from now). Test scaffolding, not one of the tasks: python fixture.py DIR"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import ekl_evidence as ekl

out = Path(sys.argv[1])
jwks, (key,) = ekl.jwks_from_seed("42" * 32, ["net-1"])
now = int(time.time())
claims = {"iss": "https://net.example", "aud": "agt_c", "sub": "agt_c", "iat": now, "exp": now + 300}
(out / "jwks.json").write_text(jwks.to_json())
(out / "token").write_text(ekl.sign_jws("ekl-access+jwt", claims, key))

"""Writes the fixture of the everyday tasks into DIR: jwks.json (a test network's public keys, as
a network serves them at /.well-known/jwks.json), token (an ES256 ekl-access+jwt valid for five
minutes from now) and credential (an ES256 ekl-platform-call+jwt for agent agt_p, purpose
validation, living 60 s from now: the longest §3 allows). Test scaffolding, not one of the tasks:
python fixture.py DIR"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import ekl_evidence as ekl

out = Path(sys.argv[1])
jwks, (key,) = ekl.jwks_from_seed("42" * 32, ["net-1"])
now = int(time.time())
claims = {"iss": "https://net.example", "aud": "agt_c", "sub": "agt_c", "iat": now, "exp": now + 300}
credential = {"iss": "https://net.example", "aud": "agt_p", "iat": now, "exp": now + 60,
              "jti": f"pcc_{now}", "purpose": "validation"}
(out / "jwks.json").write_text(jwks.to_json())
(out / "token").write_text(ekl.sign_jws("ekl-access+jwt", claims, key))
(out / "credential").write_text(ekl.sign_jws("ekl-platform-call+jwt", credential, key))

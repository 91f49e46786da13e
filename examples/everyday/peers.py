"""The six everyday tasks with PyJWT + rfc8785 and the standard library, for comparison with
ours.py (docs/everyday-tasks.md): what a Python developer writes without ekl_evidence.

Run: EVERYDAY_JWKS_URL=... EVERYDAY_TOKEN=... EVERYDAY_CREDENTIAL=... EVERYDAY_SALT=... python peers.py
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time
from datetime import datetime, timezone
from typing import Any, Dict, Tuple

import jwt
import rfc8785

SALT = os.environ["EVERYDAY_SALT"]
SECRET = "rs_example-secret"
CALL_INPUT: Dict[str, Any] = {"area_ref": "loc:ca:dublin", "min_beds": 3}
TOOL_RESULT: Dict[str, Any] = {"structuredContent": {"total": 41.0, "city": "Dublin"},
                               "content": [{"type": "text", "text": "41 in Dublin"}], "isError": False}
CALL = {"execution_id": "ex_1", "collaboration_id": "col_1", "capability_id": "cap_1",
        "requester_agent_id": "agt_c", "provider_agent_id": "agt_p"}

# 1. canonicalise (RFC 8785: no refusal of duplicate keys, integers beyond 2^53, depth > 64)
# (mypy: rfc8785.dumps takes its own _Value type, which a literal of mixed members, inferred as
# dict[str, object], is not: the annotation is the workaround)
value: Dict[str, Any] = {"b": 1.0, "a": [True, None, "é"], "n": 1e21}
canonical = rfc8785.dumps(value).decode()
# 2. commit (no 256 KB limit of PROTOCOL §2.5)
commitment = {"alg": "sha-256", "canon": "ekl-json-1",
              "digest": hashlib.sha256(rfc8785.dumps(CALL_INPUT)).hexdigest()}
# 3. fingerprint an MCP tool result (§15.3: structuredContent, else content; null counts as absent)
structured = TOOL_RESULT.get("structuredContent")
body = structured if structured is not None else TOOL_RESULT["content"]
output_fingerprint = hashlib.sha256(bytes.fromhex(SALT) + rfc8785.dumps(body)).hexdigest()


# 4. sign and verify a MAC receipt (§9.5: the receipt key and the tag, by hand)
def mac(secret: str, key_id: str, fields: Dict[str, Any]) -> str:
    key = hmac.new(secret.encode(), b"ekl-receipt-1.1\x00" + key_id.encode(), hashlib.sha256).digest()
    return hmac.new(key, rfc8785.dumps(fields), hashlib.sha256).hexdigest()


fields: Dict[str, Any] = {
    "receipt_version": "1.1", "receipt_id": "r1", "execution_kind": "trial", **CALL,
    "connection_id": "con_1", "capability_version": "1.0", "rel_ver_at_admission": 1, "dsc_ver": 1,
    "terms_hash": hashlib.sha256(rfc8785.dumps({"price": "0"})).hexdigest(),
    "input_commitment": commitment,
    "output_commitment": {"alg": "sha-256", "canon": "ekl-json-1", "digest": hashlib.sha256(
        rfc8785.dumps(TOOL_RESULT["structuredContent"])).hexdigest()},
    "status": "succeeded",
    "issued_at": datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "key_id": "rk-1", "auth_profile": "ekl-evidence-mac-1.1",
}
receipt = {**fields, "auth_tag": mac(SECRET, "rk-1", fields)}
unsigned = {k: v for k, v in receipt.items() if k != "auth_tag"}
accepted = (
    hmac.compare_digest(mac(SECRET, receipt["key_id"], unsigned), receipt["auth_tag"])
    and all(receipt[k] == v for k, v in CALL.items())
    and receipt["input_commitment"] == commitment
)
receipt_digest = hashlib.sha256(rfc8785.dumps(receipt)).hexdigest()
# 5. verify a JWS against a fetched JWKS
token = os.environ["EVERYDAY_TOKEN"]
jwks = jwt.PyJWKClient(os.environ["EVERYDAY_JWKS_URL"])
if jwt.get_unverified_header(token).get("typ") != "ekl-access+jwt":
    raise ValueError("not an ekl-access+jwt")
claims = jwt.decode(token, jwks.get_signing_key_from_jwt(token).key, algorithms=["ES256"],
                    issuer="https://net.example", audience="agt_c")
# 6. verify a platform call credential once (§3, §4: single use): the type's rules by hand
# (docs/decisions.md JWS 3 and 10: aud exactly the string or a one-element array, exp - iat <= 60 s,
# jti and purpose required, 60 s skew), and a single-use set kept until exp + 60 s, unbounded
used: Dict[Tuple[str, str, str], int] = {}


def present(credential: str) -> Dict[str, Any]:
    if jwt.get_unverified_header(credential).get("typ") != "ekl-platform-call+jwt":
        raise ValueError("not an ekl-platform-call+jwt")
    claims = jwt.decode(credential, jwks.get_signing_key_from_jwt(credential).key, algorithms=["ES256"],
                        issuer="https://net.example", leeway=60,
                        options={"require": ["iss", "iat", "exp", "jti", "purpose"], "verify_aud": False})
    if claims.get("aud") not in ("agt_p", ["agt_p"]):
        raise ValueError("aud is not agt_p")
    if not 0 <= claims["exp"] - claims["iat"] <= 60:
        raise ValueError("lifetime over 60 s")
    if claims["purpose"] != "validation" or not isinstance(claims["jti"], str) or not claims["jti"]:
        raise ValueError("purpose or jti")
    now = time.time()
    for k in [k for k, until in used.items() if until <= now]:
        del used[k]
    key = (claims["iss"], "agt_p", claims["jti"])
    if key in used:
        return {"accepted": False, "code": "CREDENTIAL_REPLAY"}
    used[key] = claims["exp"] + 60
    return {"accepted": True, "jti": claims["jti"], "purpose": claims["purpose"]}


credential = os.environ["EVERYDAY_CREDENTIAL"]
platform_call = [present(credential), present(credential)]

print(json.dumps({
    "canonical": canonical,
    "commitment": commitment["digest"],
    "output_fingerprint": output_fingerprint,
    "auth_tag": receipt["auth_tag"],
    "receipt_accepted": accepted,
    "receipt_digest": receipt_digest,
    "jws_sub": claims["sub"],
    "platform_call": platform_call,
}, sort_keys=True))

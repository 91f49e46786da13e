"""The six everyday tasks with ekl_evidence, written from the README alone (docs/everyday-tasks.md).

Run: EVERYDAY_JWKS_URL=... EVERYDAY_TOKEN=... EVERYDAY_CREDENTIAL=... EVERYDAY_SALT=... python ours.py
(scripts/test/46-everyday.sh serves the JWKS and compares the output with peers.py, ours.ts, peers.ts)
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from typing import Dict, Union

import ekl_evidence as ekl
from ekl_evidence.replay import MemoryStore, ReplayGuard

SALT = os.environ["EVERYDAY_SALT"]
SECRET = "rs_example-secret"
CALL_INPUT = {"area_ref": "loc:ca:dublin", "min_beds": 3}
TOOL_RESULT = {"structuredContent": {"total": 41.0, "city": "Dublin"},
               "content": [{"type": "text", "text": "41 in Dublin"}], "isError": False}
CALL: ekl.ReceiptCall = {"execution_id": "ex_1", "collaboration_id": "col_1", "capability_id": "cap_1",
                        "requester_agent_id": "agt_c", "provider_agent_id": "agt_p"}

# 1. canonicalise
canonical = ekl.canonicalize_value({"b": 1.0, "a": [True, None, "é"], "n": 1e21}).decode()
# 2. commit
commitment = ekl.input_commitment(CALL_INPUT)
# 3. fingerprint an MCP tool result
output_fingerprint = ekl.output_fingerprint(SALT, TOOL_RESULT)
# 4. sign and verify a MAC receipt
receipt = ekl.sign_receipt({
    "receipt_version": "1.1", "receipt_id": "r1", "execution_kind": "trial", **CALL,
    "connection_id": "con_1", "capability_version": "1.0", "rel_ver_at_admission": 1, "dsc_ver": 1,
    "terms_hash": ekl.terms_hash({"price": "0"}), "input_commitment": commitment,
    "output_commitment": ekl.commitment(TOOL_RESULT["structuredContent"]), "status": "succeeded",
    "issued_at": datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc), "key_id": "rk-1",
    "auth_profile": "ekl-evidence-mac-1.1",
}, SECRET)
verdict = ekl.verify_receipt(receipt, SECRET, CALL, input_commitment=ekl.input_commitment(CALL_INPUT))
# 5. verify a JWS against a fetched JWKS
token = os.environ["EVERYDAY_TOKEN"]
jwks = ekl.RemoteJwks(os.environ["EVERYDAY_JWKS_URL"])
verified = ekl.verify_jws(token, "ekl-access+jwt", jwks.jwks_for(token),
                          issuer="https://net.example", audience="agt_c")
# 6. verify a platform call credential once (§3, §4: single use)
guard = ReplayGuard(MemoryStore())  # SqliteStore(path) across restarts, RedisStore(client) across replicas


def present(credential: str) -> Dict[str, Union[bool, str]]:
    try:
        checked = ekl.verify_platform_call(credential, jwks.jwks_for(credential), "https://net.example",
                                           "validation", audience="agt_p")
        guard.consume_platform_call(checked["iss"], "agt_p", checked["jti"], iat=checked["iat"], exp=checked["exp"])
        return {"accepted": True, "jti": checked["jti"], "purpose": checked["purpose"]}
    except ekl.EklError as e:
        return {"accepted": False, "code": e.code}


credential = os.environ["EVERYDAY_CREDENTIAL"]
platform_call = [present(credential), present(credential)]

print(json.dumps({
    "canonical": canonical,
    "commitment": commitment["digest"],
    "output_fingerprint": output_fingerprint,
    "auth_tag": receipt["auth_tag"],
    "receipt_accepted": verdict.accepted,
    "receipt_digest": verdict.receipt_digest,
    "jws_sub": verified["claims"]["sub"],
    "platform_call": platform_call,
}, sort_keys=True))

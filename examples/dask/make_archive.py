"""A deterministic receipt archive for the tests: network-signed receipts (as objects and as
compact JWS), MAC receipts, some that fail a check and some that cannot be read at all."""

from __future__ import annotations

import json
from typing import Dict, List, Tuple

import ekl_evidence as ekl

SEED = "5a" * 32
KID = "net-2026-12"
AGENT = "agt_consumer"
ISSUER = "https://network.test"
SECRET = "rs_dask-test-secret"
IAT = 1795977605  # 2026-11-29T18:40:05Z
ISSUED_AT = "2026-11-29T18:40:05Z"
FP = "ab" * 32


def archive(n: int) -> Tuple[List[str], Dict[str, str]]:
    """``n`` archive lines and the shared context: {"jwks", "keys", "agent", "issuer"} (texts)."""
    jwks, keys = ekl.jwks_from_seed(SEED, [KID])
    key = keys[0]
    ring = [{"key_id": "rk-1", "secret": SECRET, "valid_from": "2026-01-01T00:00:00Z"}]
    lines: List[str] = []
    for i in range(n):
        kind = i % 3
        exe, cap, prov = f"ex_{i:06d}", "cap_invoice_extract", "agt_provider"
        if i % 97 == 13:
            lines.append("not json" if i % 2 else '{"call": {}}')
            continue
        if kind < 2:
            fields = {
                "receipt_version": "1.2", "receipt_id": f"rcpt_{i:06d}", "execution_id": exe,
                "provider_agent_id": prov, "requester_agent_id": AGENT, "capability_id": cap,
                "input_fingerprint": FP, "status": "succeeded", "issued_at": ISSUED_AT,
            }
            obj = ekl.issue_receipt(fields, key, ISSUER, AGENT)
            call = {"execution_id": exe, "provider_agent_id": prov, "capability_id": cap,
                    "input_fingerprint": FP if i % 7 else "cd" * 32,
                    "sent_at": IAT - 2, "received_at": IAT + 1}
            item = {"receipt": obj, "call": call} if kind == 0 else {"receipt_jws": obj["receipt_jws"], "call": call}
        else:
            receipt = {
                "receipt_version": "1.1", "receipt_id": f"rcpt_{i:06d}", "execution_kind": "trial",
                "requester_agent_id": AGENT, "provider_agent_id": prov, "collaboration_id": "col_1",
                "connection_id": "con_1", "execution_id": exe, "capability_id": cap,
                "capability_version": "1.0.0", "rel_ver_at_admission": 1, "dsc_ver": 1, "terms_hash": "t",
                "input_commitment": ekl.commitment({"q": i}), "output_commitment": ekl.commitment({"a": i}),
                "status": "succeeded", "issued_at": ISSUED_AT, "key_id": "rk-1",
                "auth_profile": "ekl-evidence-mac-1.1",
            }
            signed = ekl.sign_receipt(receipt, SECRET)
            call = {"execution_id": exe, "collaboration_id": "col_1", "capability_id": cap,
                    "provider_agent_id": prov if i % 7 else "agt_someone_else"}
            item = {"receipt": signed, "call": call, "label": f"mac {i}"}
        lines.append(json.dumps(item, separators=(",", ":")))
    context = {"jwks": jwks.to_json(), "keys": json.dumps(ring), "agent": AGENT, "issuer": ISSUER}
    return lines, context

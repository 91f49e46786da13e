"""Agent-side evidence with ekl_evidence (EKP 1.2).

The consumer agent calls a provider's capability and keeps evidence of the call:

1. before sending, it commits to the call's ``input`` (§9.5, 256 KB limit of §2.5) and takes the
   salted input fingerprint (§15.3);
2. on the answer, it commits to the ``result``, takes the output fingerprint over
   ``structuredContent`` (or the ``content`` array), and the upstream fingerprint of the tools it
   offered (§5.1);
3. it checks the provider's MAC receipt and the network-signed receipt against its own
   commitments, and prints the receipt digest it would report in ``collaboration_report``.
   The network-signed receipt (ekl-evidence-sig-1.2) is checked against the network's JWKS.

Run: python examples/python/agent.py   (prints one JSON object; the Node example prints the same)
"""

from __future__ import annotations

import json
from typing import Any, Dict

import ekl_evidence as ekl

# A fixed salt so the output is reproducible (an agent draws 32 random bytes per call).
SALT = "00112233445566778899aabbccddeeff" * 2

CALL_INPUT: Dict[str, Any] = {"area_ref": "loc:ca:dublin", "min_beds": 3}
TOOL_RESULT: Dict[str, Any] = {
    "structuredContent": {
        "listings": [{"address": "4252 Escudo Ct", "price": "1349000.00"}],
        "next_cursor": None,
    },
    "content": [{"type": "text", "text": "{...}"}],
    "isError": False,
    "_meta": {"ekl": {"outcome": "succeeded"}},
}
TOOLS_LIST: Dict[str, Any] = {
    "tools": [
        {
            "name": "search_listings",
            "description": "Search homes for sale.",
            "inputSchema": {"type": "object", "properties": {"area_ref": {"type": "string"}}},
        },
        {"name": "internal_debug", "description": "Not offered to the network."},
    ]
}


# The provider's MAC receipt for this call (profile ekl-evidence-mac-1.1). Here the example makes
# it itself with a test secret, as a provider would; an agent receives it in _meta.ekl.receipt.
REGISTRATION_SECRET = "rs_example-secret-not-a-real-one"
CALL: ekl.ReceiptCall = {
    "execution_id": "ex_19c4",
    "collaboration_id": "col_c3c7b453aa7e",
    "capability_id": "cap_search_listings",
    "requester_agent_id": "agt_c0ns7m3r4a",
    "provider_agent_id": "agt_pr0v1d3r9b",
    "execution_kind": "trial",
}


def provider_receipt() -> ekl.Receipt:
    unsigned = {
        "receipt_version": "1.1",
        "receipt_id": "rcpt_example",
        "execution_kind": "trial",
        "requester_agent_id": CALL["requester_agent_id"],
        "provider_agent_id": CALL["provider_agent_id"],
        "collaboration_id": CALL["collaboration_id"],
        "connection_id": "con_5f0e2b9a11d4",
        "execution_id": CALL["execution_id"],
        "capability_id": CALL["capability_id"],
        "capability_version": "1.0.0",
        "rel_ver_at_admission": 1,
        "dsc_ver": 1,
        "terms_hash": ekl.terms_hash({"price_per_call": "0.00", "currency": "USD"}),
        "input_commitment": ekl.input_commitment(CALL_INPUT),
        "output_commitment": ekl.commitment(TOOL_RESULT),
        "status": "succeeded",
        "issued_at": "2026-11-29T18:40:05.250Z",
        "key_id": "rk-1",
        "auth_profile": "ekl-evidence-mac-1.1",
    }
    return ekl.sign_receipt(unsigned, REGISTRATION_SECRET)


# The network's key set and its signed receipt for the call. Here the example plays the network
# with a key derived from a test seed; an agent fetches /.well-known/jwks.json instead.
NETWORK_ISSUER = "https://network.example"
NETWORK_SEED = "6e6574776f726b2d6578616d706c652d736565642d6e6f742d612d7265616c21"
SENT_AT, RECEIVED_AT = 1795970000, 1795970002  # the agent's clock around the call


def network_signed_receipt(key: ekl.SigningKey) -> ekl.SignedReceipt:
    fields = {
        "receipt_version": "1.2",
        "receipt_id": "rcp_example",
        "execution_kind": "trial",
        "requester_agent_id": CALL["requester_agent_id"],
        "provider_agent_id": CALL["provider_agent_id"],
        "collaboration_id": CALL["collaboration_id"],
        "connection_id": "con_5f0e2b9a11d4",
        "execution_id": CALL["execution_id"],
        "capability_id": CALL["capability_id"],
        "capability_version": "1.0.0",
        "input_fingerprint": ekl.fingerprint(SALT, CALL_INPUT),
        "output_fingerprint": ekl.output_fingerprint(SALT, TOOL_RESULT),
        "status": "succeeded",
        "issued_at": "2026-11-29T16:33:21Z",
        "auth_profile": "ekl-evidence-sig-1.2",
    }
    return ekl.issue_receipt(fields, key, NETWORK_ISSUER, CALL["requester_agent_id"])


def main() -> Dict[str, Any]:
    report: Dict[str, Any] = {}
    try:
        # 1. before sending the call
        report["input_commitment"] = ekl.input_commitment(CALL_INPUT)
        report["input_fingerprint"] = ekl.fingerprint(SALT, CALL_INPUT)
        # 2. on the answer
        report["output_commitment"] = ekl.commitment(TOOL_RESULT)
        report["output_fingerprint_over"] = ekl.select_result_body(TOOL_RESULT)["member"]
        report["output_fingerprint"] = ekl.output_fingerprint(SALT, TOOL_RESULT)
        report["upstream_fingerprint"] = ekl.upstream_fingerprint(TOOLS_LIST, offered=["search_listings"])
        # 3. the provider's MAC receipt, checked against the call and our own commitments
        # the key ring: the registration secret alone (key rk-1), or a list of
        # {"key_id", "secret", "valid_from", "valid_until"?} once keys rotate
        verdict = ekl.verify_receipt(
            provider_receipt(),
            REGISTRATION_SECRET,
            CALL,
            input_commitment=report["input_commitment"],
            output_commitment=report["output_commitment"],
        )
        report["mac_receipt"] = {
            "accepted": verdict.accepted,
            "not_passed": verdict.failed(),
            "disputed": verdict.disputed,
        }
        if verdict.accepted or verdict.disputed:
            # the digest to put in collaboration_report (or abuse_report for a dispute)
            report["receipt_digest"] = verdict.receipt_digest
        # 4. the network-signed receipt, checked against the network's key set and the call
        jwks, keys = ekl.jwks_from_seed(NETWORK_SEED, ["net-example-1"])
        signed = network_signed_receipt(keys[0])
        context: ekl.SignedReceiptCall = {
            "execution_id": CALL["execution_id"],
            "provider_agent_id": CALL["provider_agent_id"],
            "requester_agent_id": CALL["requester_agent_id"],
            "capability_id": CALL["capability_id"],
            "input_fingerprint": report["input_fingerprint"],
            "own_agent_id": CALL["requester_agent_id"],
            "network_issuer": NETWORK_ISSUER,
            "sent_at": SENT_AT,
            "received_at": RECEIVED_AT,
        }
        sig_verdict = ekl.verify_signed_receipt(signed, jwks, context)
        report["network_receipt"] = {
            "accepted": sig_verdict.accepted,
            "not_passed": sig_verdict.failed(),
            # SHA-256 of the compact JWS: what the agent reports for a network-signed receipt
            "receipt_digest": sig_verdict.receipt_digest,
        }
    except ekl.EklError as e:
        # a refusal is data for the report, not a crash: the code says which rule was broken
        report["refused"] = {"code": e.code, "message": e.message}
    return report


if __name__ == "__main__":
    print(json.dumps(main(), indent=2, sort_keys=True))

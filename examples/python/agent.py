"""Agent-side evidence with ekl_evidence (EKP 1.2).

The consumer agent calls a provider's capability and keeps evidence of the call:

1. before sending, it commits to the call's ``input`` (§9.5, 256 KB limit of §2.5) and takes the
   salted input fingerprint (§15.3);
2. on the answer, it commits to the ``result``, takes the output fingerprint over
   ``structuredContent`` (or the ``content`` array), and the upstream fingerprint of the tools it
   offered (§5.1);
3. it checks the provider's MAC receipt and the network-signed receipt against its own
   commitments, and prints the receipt digest it would report in ``collaboration_report``.
   (Step 3 follows as the receipt and JWS operations land in the core.)

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


def main() -> Dict[str, Any]:
    report: Dict[str, Any] = {}
    try:
        # 1. before sending the call
        report["input_commitment"] = ekl.input_commitment(CALL_INPUT)
        report["input_fingerprint"] = ekl.fingerprint(SALT, CALL_INPUT)
        # 2. on the answer
        report["output_commitment"] = ekl.commitment(TOOL_RESULT)
        body, _ = ekl.select_result_body(TOOL_RESULT)
        report["output_fingerprint_over"] = body
        report["output_fingerprint"] = ekl.output_fingerprint(SALT, TOOL_RESULT)
        report["upstream_fingerprint"] = ekl.upstream_fingerprint(TOOLS_LIST, ["search_listings"])
    except ekl.EklError as e:
        # a refusal is data for the report, not a crash: the code says which rule was broken
        report["refused"] = {"code": e.code, "message": e.message}
    return report


if __name__ == "__main__":
    print(json.dumps(main(), indent=2, sort_keys=True))

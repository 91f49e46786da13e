"""The two fingerprints of a wiretap.py log computed without ekl-evidence: the standard library's
hashlib and json plus PyPI ``rfc8785`` (an RFC 8785 implementation no one here wrote), following
PROTOCOL §5.1 and §15.3 as written.

    python independent.py SALT LOG [OFFERED,...]

prints {"upstream_fingerprint": ..., "output_fingerprint": ...} for the last tools/list (every
page: the responses to the last tools/list request without a cursor and to every tools/list
request after it) and the last tools/call of LOG (OFFERED: the tools offered, by default
search_listings; output_fingerprint is null when LOG holds no tools/call, as for `ekl mcp`). §5.1: the offered tools of every page of the tools/list result, sorted by name in UTF-16 code
units, each projected to exactly name, description, inputSchema, outputSchema and annotations (a
member left out written as null), SHA-256 of their canonical JSON, no salt. §15.3: SHA-256 of the
salt's 32 bytes followed by the canonical JSON of structuredContent, or else of the content array.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any, Dict, List, Optional, Set

import rfc8785

OFFERED = {"search_listings"}
PROJECTION = ("name", "description", "inputSchema", "outputSchema", "annotations")


def response(lines: List[str], method: str) -> Dict[str, Any]:
    sent = [json.loads(x[2:]) for x in lines if x.startswith("> ")]
    want = [m["id"] for m in sent if m.get("method") == method and "id" in m][-1]
    for x in lines:
        if x.startswith("< "):
            msg = json.loads(x[2:])
            if msg.get("id") == want and "result" in msg:
                result: Dict[str, Any] = msg["result"]
                return result
    raise SystemExit(f"no response to {method}")


def pages(lines: List[str]) -> List[Dict[str, Any]]:
    sent: List[Dict[str, Any]] = [json.loads(x[2:]) for x in lines if x.startswith("> ")]
    lists = [m for m in sent if m.get("method") == "tools/list" and "id" in m]
    params: List[Dict[str, Any]] = [m.get("params") or {} for m in lists]
    first = max(i for i, p in enumerate(params) if p.get("cursor") is None)
    received: List[Dict[str, Any]] = [json.loads(x[2:]) for x in lines if x.startswith("< ")]
    out: List[Dict[str, Any]] = []
    for m in lists[first:]:
        out += [msg["result"] for msg in received if msg.get("id") == m["id"] and "result" in msg]
    return out


def main(salt: str, log: str, offered: Set[str]) -> None:
    with open(log, encoding="utf-8") as f:
        lines = f.read().split("\n")
    tools = [t for page in pages(lines) for t in page["tools"] if t["name"] in offered]
    tools.sort(key=lambda t: t["name"].encode("utf-16-be"))
    projected = [{k: t.get(k) for k in PROJECTION} for t in tools]
    upstream = hashlib.sha256(rfc8785.dumps(projected)).hexdigest()
    output: Optional[str] = None
    if any(x.startswith("> ") and json.loads(x[2:]).get("method") == "tools/call" for x in lines):
        result = response(lines, "tools/call")
        body = result["structuredContent"] if result.get("structuredContent") is not None else result["content"]
        output = hashlib.sha256(bytes.fromhex(salt) + rfc8785.dumps(body)).hexdigest()
    print(json.dumps({"upstream_fingerprint": upstream, "output_fingerprint": output}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], set(sys.argv[3].split(",")) if len(sys.argv) > 3 else OFFERED)

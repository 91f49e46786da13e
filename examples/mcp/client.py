"""An MCP client over stdio with the official Python SDK (PyPI ``mcp``) that keeps EKP evidence of
what the server answered (PROTOCOL §5.1, §15.3): the upstream fingerprint of ``tools/list`` (the
tools offered: here ``search_listings``) and the salted output fingerprint of a ``tools/call``
result (structuredContent, else content).

Both are computed over the messages exactly as they crossed the wire: the server runs behind
wiretap.py, which records every JSON-RPC line before passing it on; the client finds the response
to its own request by id and fingerprints that text (through ``canonicalize``, which reads it with
every ekl-json-1 rule: a duplicate key or an integer beyond 2^53 is refused, never silently
changed). The same two fingerprints from the SDK's parsed (pydantic) objects are
computed too, and compared.

    python client.py [--salt HEX] LOG -- SERVER_COMMAND [ARG...]

prints one JSON object (scripts/test/45-mcp.sh runs it against server.py and server.ts).
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any, Dict, List

import ekl_evidence as ekl
from mcp import Client
from mcp.client.stdio import StdioServerParameters

OFFERED = ["search_listings"]
WIRETAP = str(Path(__file__).with_name("wiretap.py"))


def wire_result(log: str, method: str) -> Any:
    """The result of the JSON-RPC response to the request ``method`` sent last, as it crossed the
    wire."""
    lines = Path(log).read_text(encoding="utf-8").split("\n")
    sent = [json.loads(line[2:]) for line in lines if line.startswith("> ")]
    ids = [m["id"] for m in sent if m.get("method") == method and "id" in m]
    for line in lines:
        if not line.startswith("< "):
            continue
        # canonicalize reads the wire text with every ekl-json-1 rule; its output (no duplicate
        # keys, integers within 2^53) parses back to the same value with json.loads.
        msg: Dict[str, Any] = json.loads(ekl.canonicalize(line[2:]))
        if ids and msg.get("id") == ids[-1] and "result" in msg:
            return msg["result"]
    raise SystemExit(f"no response to {method} in {log}")


async def main(argv: List[str]) -> None:
    salt = ekl.new_salt()  # a fresh salt per call, as an agent draws it
    if argv[:1] == ["--salt"]:
        salt, argv = argv[1], argv[2:]
    if len(argv) < 3 or argv[1] != "--":
        raise SystemExit("usage: client.py [--salt HEX] LOG -- SERVER_COMMAND [ARG...]")
    log, command = argv[0], argv[2:]
    server = StdioServerParameters(command=sys.executable, args=[WIRETAP, log, "--", *command])
    async with Client(server) as client:
        tools = await client.list_tools()
        result = await client.call_tool(
            "search_listings", {"area_ref": "loc:ca:dublin", "min_beds": 3}
        )

    # The SDK's objects are pydantic models: their JSON form by wire names (aliases), with what
    # the server did not send left out.
    sdk_tools = tools.model_dump(mode="json", by_alias=True, exclude_unset=True)
    sdk_result = result.model_dump(mode="json", by_alias=True, exclude_unset=True)
    sdk = {
        "upstream_fingerprint": ekl.upstream_fingerprint(sdk_tools, offered=OFFERED),
        "output_fingerprint": ekl.output_fingerprint(salt, sdk_result),
    }
    wire = {
        "upstream_fingerprint": ekl.upstream_fingerprint(
            wire_result(log, "tools/list"), offered=OFFERED
        ),
        "output_fingerprint": ekl.output_fingerprint(salt, wire_result(log, "tools/call")),
    }
    out: Dict[str, Any] = {"client": "py", "salt": salt, **wire}
    out["sdk_agrees_with_wire"] = sdk == wire
    out["sdk"] = sdk
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))

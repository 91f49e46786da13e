"""MCP evidence with ``ekl_evidence.mcp`` (the package's module over the official Python SDK): every
page of ``tools/list`` and one ``tools/call``, fingerprinted as they crossed the wire.

    python evidence.py --salt HEX --offered A,B --call NAME ARGS_JSON --log OUT -- SERVER_COMMAND [ARG...]
    python evidence.py --salt HEX --offered A,B --call NAME ARGS_JSON --log OUT --url URL

prints one JSON object and writes the recorded wire to OUT (``> `` sent, ``< `` received, one
message a line: the format independent.py reads). scripts/test/45-mcp.sh runs it against every
server, over stdio and Streamable HTTP.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Dict, List, Union

from mcp import StdioServerParameters

from ekl_evidence import mcp as ekl_mcp


async def main(argv: List[str]) -> None:
    opts: Dict[str, str] = {}
    while argv and argv[0] in ("--salt", "--offered", "--log", "--url", "--call"):
        if argv[0] == "--call":
            opts["tool"], opts["args"], argv = argv[1], argv[2], argv[3:]
        else:
            opts[argv[0][2:]], argv = argv[1], argv[2:]
    server: Union[StdioServerParameters, str]
    if "url" in opts:
        server = opts["url"]
    elif argv[:1] == ["--"] and len(argv) > 1:
        server = StdioServerParameters(command=argv[1], args=argv[2:])
    else:
        raise SystemExit(__doc__)
    offered = opts["offered"].split(",")
    async with ekl_mcp.connect(server) as session:
        listing = await session.list_tools()
        call = await session.call_tool(opts["tool"], json.loads(opts["args"]))
        wire = session.wire
    with open(opts["log"], "w", encoding="utf-8") as f:
        for m in wire:
            f.write(("> " if m.direction == "sent" else "< ") + m.text + "\n")
    out: Dict[str, Any] = {
        "client": "py",
        "upstream_fingerprint": listing.upstream_fingerprint(offered),
        "output_fingerprint": call.output_fingerprint(opts["salt"]),
        "pages": len(listing.texts),
        "tools": [t["name"] for t in listing.tools],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))

"""The official Python SDK's objects given to the fingerprint operations, against the wire
(docs/decisions.md, B10; issue 25): each case either gives the wire's fingerprint or is refused
with a message naming the right call, never a different fingerprint silently.

    python sdk_objects.py -- SERVER_COMMAND [ARG...]

prints one line a case and exits 1 when a case gives a fingerprint other than the wire's, or a
refusal without the right call named (scripts/test/45-mcp.sh runs it against every server).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, Callable, Dict, List

import ekl_evidence as ekl
from ekl_evidence import mcp as ekl_mcp
from mcp import StdioServerParameters

SALT = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
CALLS: Dict[str, Dict[str, Any]] = {"search_listings": {"area_ref": "loc:ca:dublin", "min_beds": 3}, "get_quote": {"listing_id": "l1"}}


async def main(argv: List[str]) -> int:
    server = StdioServerParameters(command=argv[1], args=argv[2:])
    async with ekl_mcp.connect(server) as s:
        listing = await s.list_tools()
        name = next(n for n in CALLS if any(t["name"] == n for t in listing.tools))
        call = await s.call_tool(name, CALLS[name])
    wire_up, wire_out = listing.upstream_fingerprint(), call.output_fingerprint(SALT)
    pages, result = listing.sdk, call.result
    bad = 0

    def case(label: str, want: str, f: Callable[[], Any]) -> None:
        nonlocal bad
        try:
            got, ok = f(), None
            ok = got == want
            verdict = "wire fingerprint" if ok else f"DIFFERENT fingerprint {got[:16]}.."
        except ekl.EklError as e:
            ok = "ekl_evidence.mcp" in e.message and "by_alias=True" in e.message
            verdict = f"refused {e.code}" + (" naming the right call" if ok else f" WITHOUT the right call: {e.message}")
        bad += not ok
        print(f"  {label:58} {verdict}")

    def tools(**kw: Any) -> Any:
        return {"tools": [t for p in pages for t in p.model_dump(**kw)["tools"]]}

    print(f"{argv[1:]}: {len(pages)} page(s), tool {name}")
    case("output_fingerprint(salt, result)", wire_out, lambda: ekl.output_fingerprint(SALT, result))
    case("output_fingerprint(salt, result.model_dump())", wire_out, lambda: ekl.output_fingerprint(SALT, result.model_dump()))
    case("output_fingerprint(salt, result.model_dump(mode='json'))", wire_out,
         lambda: ekl.output_fingerprint(SALT, result.model_dump(mode="json")))
    case("output_fingerprint(salt, model_dump(json, by_alias, exclude_unset))", wire_out,
         lambda: ekl.output_fingerprint(SALT, result.model_dump(mode="json", by_alias=True, exclude_unset=True)))
    if len(pages) == 1:
        case("upstream_fingerprint(page)", wire_up, lambda: ekl.upstream_fingerprint(pages[0]))
    case("upstream_fingerprint(page.tools)", wire_up, lambda: ekl.upstream_fingerprint([t for p in pages for t in p.tools]))
    case("upstream_fingerprint(page.model_dump())", wire_up, lambda: ekl.upstream_fingerprint(tools()))
    case("upstream_fingerprint(model_dump(json, by_alias, exclude_unset))", wire_up,
         lambda: ekl.upstream_fingerprint(tools(mode="json", by_alias=True, exclude_unset=True)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))

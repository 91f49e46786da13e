"""The edges of ``ekl_evidence.mcp``'s wire recording, against edge_server.py (a server written by
hand): a log kept across two sessions whose servers list different tools, a server's own
requests numbered like the client's call, concurrent calls on one session, ``offered`` given as
one string, and a relative log with the server in another working directory. edges.mjs checks
the same of ``ekl-evidence/mcp``. Run by scripts/test/45-mcp.sh; prints one line a check.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, List, Optional

from mcp import StdioServerParameters

from ekl_evidence import mcp as ekl_mcp

HERE = Path(__file__).resolve().parent


def server(tag: str, cwd: Optional[str] = None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[str(HERE / "edge_server.py"), tag], cwd=cwd)


def check(ok: bool, what: str, got: Any) -> None:
    if not ok:
        raise SystemExit(f"FAILED: {what}: got {got!r}")
    print(f"ok: {what}")


def text_of(call: ekl_mcp.ToolCall) -> Any:
    return call.wire_result["content"][0]["text"]


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "kept.log")
        names: List[List[str]] = []
        for tag in ("a", "b"):
            async with ekl_mcp.connect(server(tag), log=log) as s:
                names.append([t["name"] for t in (await s.list_tools()).tools])
        check(names == [["echo", "tool_a"], ["echo", "tool_b"]], "a kept log: each session reads its own answers", names)

        async with ekl_mcp.connect(server("a")) as s:
            one = await s.call_tool("echo", {"text": "one"})
            check(text_of(one) == "one", "the server's own requests, numbered like the call, are not its answer", text_of(one))
            calls = await asyncio.gather(*(s.call_tool("echo", {"text": t}) for t in ("x", "y", "z")))
            texts = [text_of(c) for c in calls]
            check(texts == ["x", "y", "z"], "concurrent calls on one session: each gets its own answer", texts)
            listing = await s.list_tools()
            try:
                listing.upstream_fingerprint("echo")  # a str is a Sequence[str]: refused at run time
                refused: Any = None
            except TypeError as e:
                refused = e
            check(refused is not None, "offered given as one str is a TypeError", refused)
            check(
                listing.upstream_fingerprint(["echo"]) == (await s.upstream_fingerprint(("echo",))),
                "offered as a list or a tuple: the same fingerprint",
                None,
            )

        elsewhere = os.path.join(tmp, "elsewhere")
        os.mkdir(elsewhere)
        before = os.getcwd()
        os.chdir(tmp)
        try:
            async with ekl_mcp.connect(server("a", cwd=elsewhere), log="relative.log") as s:
                listed = [t["name"] for t in (await s.list_tools()).tools]
        finally:
            os.chdir(before)
        check(
            listed == ["echo", "tool_a"] and os.path.exists(os.path.join(tmp, "relative.log")),
            "a relative log is the client's, whatever the server's working directory",
            listed,
        )


if __name__ == "__main__":
    asyncio.run(main())

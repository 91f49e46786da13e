"""The edges of ``ekl_evidence.mcp``'s wire recording, against edge_server.py (a server written by
hand): a log kept across two sessions whose servers list different tools, a server's own
requests numbered like the client's call, concurrent calls on one session, ``offered`` given as
one string, and a relative log with the server in another working directory; and (issue 41) a
listing's refusal failing the session, ``timeout`` on the handshake and on a call, and the
recorded answer read by the SDK's types (the tap's id rule switched off, so that only that check
stands between the module and a decoy). edges.mjs checks the same of ``ekl-evidence/mcp``. Run
by scripts/test/45-mcp.sh; prints one line a check.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, List, Optional

from mcp import StdioServerParameters

from ekl_evidence import EklError
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


async def code_of(f: Callable[[], Awaitable[Any]]) -> Optional[str]:
    try:
        await f()
    except EklError as e:
        return e.code
    return None


async def issue_41() -> None:
    """A listing's refusal fails the session; the timeouts; the SDK's reading decides."""
    hostile = StdioServerParameters(command=sys.executable, args=[str(HERE / "hostile_server.py"), "loop-cursor"])
    async with ekl_mcp.connect(hostile) as s:
        first = await code_of(s.list_tools)
        later = await code_of(lambda: s.call_tool("real", {}))
    check(first == later == "MCP_BAD_CURSOR", "a listing's MCP_BAD_CURSOR fails the session (M2)", (first, later))

    start = time.monotonic()
    async with ekl_mcp.connect(server("a"), timeout=1) as s:
        slow = await code_of(lambda: s.call_tool("sleep", {}))
        took = time.monotonic() - start
        after = await code_of(lambda: s.call_tool("echo", {"text": "x"}))
    check(slow == after == "MCP_TIMEOUT" and took < 8, "a call past timeout: MCP_TIMEOUT, and the session refuses the next", (slow, after, round(took, 1)))

    start = time.monotonic()
    handshake = await code_of(lambda: ekl_mcp.connect(server("mute"), timeout=1).__aenter__())
    took = time.monotonic() - start
    check(handshake == "MCP_TIMEOUT" and took < 8, "a handshake past timeout: MCP_TIMEOUT", (handshake, round(took, 1)))
    try:
        async with ekl_mcp.connect(server("a"), timeout=0):
            pass
        bad: Any = None
    except ValueError as e:
        bad = e
    check(bad is not None, "timeout=0 is a ValueError", bad)

    # The tap's id rule off: the SDK takes `real` (another id, rewritten), the tap records `decoy`;
    # the recorded answer, read by the SDK's types, is not what the SDK returned.
    with socket_port() as port:
        p = subprocess.Popen([sys.executable, str(HERE / "hostile_server.py"), "id-rewrite", "--http", str(port)], stdout=subprocess.PIPE)
        try:
            assert p.stdout is not None
            url = p.stdout.readline().decode().split()[1]
            rule = ekl_mcp._Stream.check  # pyright: ignore[reportPrivateUsage]
            ekl_mcp._Stream.check = lambda self, raw, seen: None  # type: ignore[method-assign]  # pyright: ignore[reportPrivateUsage]
            try:
                async with ekl_mcp.connect(url) as s:
                    try:
                        await s.list_tools()
                        got: Any = None
                    except EklError as e:
                        got = (e.code, str(e))
                    check(
                        got is not None and got[0] == "MCP_AMBIGUOUS_ANSWER" and "not the one the SDK delivered" in got[1] and s.wire == [],
                        "a recorded answer the SDK did not deliver: MCP_AMBIGUOUS_ANSWER, nothing kept",
                        got,
                    )
            finally:
                ekl_mcp._Stream.check = rule  # type: ignore[method-assign]  # pyright: ignore[reportPrivateUsage]
        finally:
            p.kill()
            p.wait()


class socket_port:
    """A free port on 127.0.0.1 (for the hostile server's own bind)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    def __exit__(self, *_: Any) -> None:
        pass


async def main() -> None:
    await issue_41()
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

"""The hostile MCP server suite (hostile_server.py) against one surface: the Python module
(``ekl_evidence.mcp``), the JS module (``ekl-evidence/mcp``, through hostile.mjs) or ``ekl mcp``,
over stdio and Streamable HTTP. Each scenario runs in a process of its own, whose peak memory is
measured; each must either fingerprint exactly what the SDK handed the caller (the tool ``real``,
never ``decoy``) or refuse with the code expected, within its deadline and under 300 MB.

    python hostile.py py|js|cli [--ekl PATH] [SCENARIO...]
    python hostile.py --one stdio|http SCENARIO      (a child: the Python module, one JSON line)
    python hostile.py --hold MARKER                  (a child: connected until killed)

With every scenario (no SCENARIO named), the py and js surfaces are also killed (SIGKILL) while
connected to a server that never ends: no relay nor server may be left running.

Run by scripts/test/45-mcp.sh; prints a table, exits 1 on any other outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

HERE = Path(__file__).resolve().parent
SERVER = str(HERE / "hostile_server.py")
REAL = "real"
PEAK_MB = 300
DEADLINE_S = int(os.environ.get("EKL_HOSTILE_DEADLINE", "90"))

Accepted = Union[Tuple[str, ...], Dict[str, Tuple[str, ...]]]
#: scenario -> (transports, the outcomes accepted: "real" (the real tool fingerprinted) or codes;
#: or, where the surfaces differ, by "surface/transport", "surface" or "transport")
SCENARIOS: Dict[str, Tuple[Tuple[str, ...], Accepted]] = {
    "plain": (("stdio", "http"), ("real",)),
    "decoy-version": (("stdio", "http"), ("MCP_INVALID_MESSAGE",)),
    "decoy-none": (("stdio", "http"), ("MCP_INVALID_MESSAGE",)),
    "decoy-batch": (("stdio", "http"), ("MCP_INVALID_MESSAGE",)),
    "decoy-string-id": (("stdio", "http"), ("MCP_AMBIGUOUS_ANSWER",)),
    "decoy-extra": (("stdio", "http"), ("MCP_INVALID_MESSAGE",)),
    # the SDK takes the first answer: that one, or a refusal when the second is seen in time
    "decoy-second": (("stdio", "http"), ("real", "MCP_AMBIGUOUS_ANSWER")),
    "flood-notes": (("stdio", "http"), ("real",)),
    "flood-requests": (("stdio", "http"), ("real",)),
    "deaf": (("stdio",), ("TIMEOUT",)),
    "endless": (("stdio",), ("BODY_TOO_LARGE",)),
    # over HTTP the Python SDK's own bound on an event may trip first: refused all the same
    "oversized": (("stdio", "http"), ("BODY_TOO_LARGE", "SDK_REFUSED")),
    "invalid-utf8": (("stdio", "http"), ("INVALID_UTF8",)),
    "loop-cursor": (("stdio", "http"), ("MCP_BAD_CURSOR",)),
    "changing-cursor": (("stdio", "http"), ("MCP_BAD_CURSOR",)),
    # issue 41: the SDK's reading decides (docs/decisions/mcp.md#mcp-sdk-reading)
    "id-rewrite": (("http",), ("MCP_AMBIGUOUS_ANSWER",)),
    # the Python module reads what httpx2 decodes (the SDK stops at the first answer); the JS
    # module what fetch decodes (the SDK reads on: a second answer); ekl mcp does not decode
    "deflate": (("http",), {"py": ("real",), "js": ("real", "MCP_AMBIGUOUS_ANSWER"), "cli": ("MCP_UNSUPPORTED_ENCODING",)}),
    "gzip": (("http",), {"py": ("real",), "js": ("real", "MCP_AMBIGUOUS_ANSWER"), "cli": ("MCP_UNSUPPORTED_ENCODING",)}),
    "utf-16-le": (("http",), ("MCP_UNSUPPORTED_ENCODING",)),
    "iso-8859-1": (("http",), ("MCP_UNSUPPORTED_ENCODING",)),
    # over HTTP each module reads the mark as its SDK does and meets an answer whose id is not
    # the request's; ekl mcp refuses the mark (the SDKs differ); over stdio no SDK parses the line
    "bom": (("stdio", "http"), {"stdio": ("INVALID_JSON",), "http": ("MCP_AMBIGUOUS_ANSWER",), "cli/http": ("MCP_UNSUPPORTED_ENCODING",)}),
    # ekl mcp opens no GET stream: it meets the answer with another id on the POST's stream
    "get-decoy": (("stdio", "http"), {"*": ("MCP_INVALID_MESSAGE",), "cli/http": ("MCP_AMBIGUOUS_ANSWER",)}),
}
#: what only `ekl mcp` can be held to: its --timeout covers writes (the modules' SDKs have none)
CLI_ONLY = {"deaf"}


async def one(transport: str, scenario: str, url: Optional[str]) -> Dict[str, Any]:
    """The Python module against the server: tools/list and one tools/call."""
    from mcp import StdioServerParameters

    from ekl_evidence import EklError
    from ekl_evidence import mcp as ekl_mcp

    target: Any = url if transport == "http" else StdioServerParameters(command=sys.executable, args=[SERVER, scenario])
    try:
        async with ekl_mcp.connect(target) as s:
            listing = await s.list_tools()
            call = await s.call_tool(REAL, {})
            names = [t["name"] for t in listing.tools]
            return {"tools": names, "text": call.wire_result["content"][0]["text"], "fingerprint": listing.upstream_fingerprint()}
    except EklError as e:
        return {"code": e.code}
    except Exception as e:  # the SDK's own failure, unwrapped
        inner: BaseException = e
        while True:
            subs: Any = getattr(inner, "exceptions", ())
            if len(subs) != 1:
                break
            inner = subs[0]
        if isinstance(inner, EklError):
            return {"code": inner.code}
        return {"error": f"{type(inner).__name__}: {inner}"}


async def hold(marker: str) -> None:
    """The Python module connected to a server that never ends, until this process is killed."""
    from mcp import StdioServerParameters

    from ekl_evidence import mcp as ekl_mcp

    async with ekl_mcp.connect(StdioServerParameters(command=sys.executable, args=[SERVER, "stubborn", marker])) as s:
        await s.list_tools()
        print("connected", flush=True)
        await asyncio.sleep(3600)


def left_behind(marker: str) -> List[int]:
    """The processes whose command line holds ``marker``."""
    pids: List[int] = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        pids.append(int(d))
            except OSError:
                pass
    return pids


def killed_client(surface: str) -> Tuple[str, float, float]:
    """The client killed (SIGKILL) while connected over stdio to a server that never ends: the
    relay must end the server within a few seconds ("gone"), leaving nothing behind."""
    marker = f"ekl-hostile-{os.getpid()}-{surface}"
    if surface == "py":
        cmd = [sys.executable, __file__, "--hold", marker]
    else:
        cmd = ["node", "--preserve-symlinks", str(HERE / "hostile.mjs"), "hold", marker]
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, env=dict(os.environ, EKL_PYTHON=sys.executable))
    assert p.stdout is not None
    line = p.stdout.readline()
    if b"connected" not in line:
        p.kill()
        p.wait()
        return f"not connected: {line[:100]!r}", time.monotonic() - start, 0.0
    p.kill()
    p.wait()
    until = time.monotonic() + 10
    while left_behind(marker) and time.monotonic() < until:
        time.sleep(0.2)
    left = left_behind(marker)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, 9)
    return ("gone" if not left else f"left running: {len(left)}"), time.monotonic() - start, 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_http(scenario: str) -> Tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    p = subprocess.Popen([sys.executable, SERVER, scenario, "--http", str(port)], stdout=subprocess.PIPE)
    assert p.stdout is not None
    line = p.stdout.readline().decode()
    return p, line.split()[1]


def run_child(cmd: List[str], env: Optional[Dict[str, str]] = None) -> Tuple[int, str, str, float, float]:
    """Runs a child to its end (killed past the deadline): status, stdout, stderr, seconds, peak MB."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        out, err = p.communicate(timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    took = time.monotonic() - start
    # the peak of this child: wait4 already reaped it; RUSAGE_CHILDREN holds the largest so far,
    # so each scenario runs in a fresh driver process (see main)
    import resource

    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), took, peak


def accepted_for(spec: Accepted, surface: str, transport: str) -> Tuple[str, ...]:
    """The outcomes a scenario accepts on one surface and transport."""
    if isinstance(spec, tuple):
        return spec
    for key in (f"{surface}/{transport}", surface, transport, "*"):
        if key in spec:
            return spec[key]
    raise KeyError(f"no outcome for {surface}/{transport}")


def outcome_of(surface: str, status: int, out: str, err: str) -> str:
    if surface == "cli":
        if status == 0:
            names = [t["name"] for t in json.loads(out)["projection"]]
            return "real" if names == [REAL] else f"tools {names}"
        if status == 75:
            return "TIMEOUT"
        m = re.search(r"^ekl: ([A-Z0-9_]+): ", err, re.M)
        return m.group(1) if m else f"exit {status}: {err.strip()[-200:]}"
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        return f"exit {status}: {err.strip()[-300:]}"
    r = json.loads(lines[-1])
    if "code" in r:
        return str(r["code"])
    if "tools" in r:
        return "real" if r["tools"] == [REAL] and r["text"] == REAL else f"tools {r['tools']} text {r['text']}"
    return "SDK_REFUSED"  # the SDK's own failure (r["error"]): nothing fingerprinted


def scenario(surface: str, transport: str, name: str, ekl: str) -> Tuple[str, float, float]:
    """One scenario on one surface: (outcome, seconds, peak MB of the client)."""
    server = None
    url = None
    if transport == "http":
        server, url = start_http(name)
    try:
        if surface == "py":
            cmd = [sys.executable, __file__, "--one", transport, name] + ([url] if url else [])
        elif surface == "js":
            cmd = ["node", "--preserve-symlinks", str(HERE / "hostile.mjs"), transport, name, url or ""]
        else:
            cmd = [ekl, "mcp", "--timeout", "20"] + (["--url", url] if url else ["--", sys.executable, SERVER, name])
        env = dict(os.environ, EKL_PYTHON=sys.executable)
        status, out, err, took, peak = run_child(cmd, env)
        return outcome_of(surface, status, out, err), took, peak
    finally:
        if server is not None:
            server.kill()
            server.wait()


def main(argv: List[str]) -> int:
    if argv[:1] == ["--one"]:
        transport, name = argv[1], argv[2]
        url = argv[3] if len(argv) > 3 else None
        print(json.dumps(asyncio.run(one(transport, name, url))), flush=True)
        return 0
    if argv[:1] == ["--hold"]:
        asyncio.run(hold(argv[1]))
        return 0
    if argv[:1] == ["--scenario"]:  # a fresh driver per scenario: its RUSAGE_CHILDREN is that child's
        surface, transport, name, ekl = argv[1:5]
        got, took, peak = scenario(surface, transport, name, ekl)
        print(json.dumps({"outcome": got, "seconds": round(took, 1), "peak_mb": round(peak)}))
        return 0
    surface = argv[0]
    ekl = ""
    rest = argv[1:]
    if rest[:1] == ["--ekl"]:
        ekl, rest = rest[1], rest[2:]
    names = rest or list(SCENARIOS)
    ok = True
    print(f"{surface:4} {'scenario':16} {'transport':9} {'outcome':22} {'s':>5} {'peak MB':>7}")
    for name in names:
        transports, spec = SCENARIOS[name]
        if name in CLI_ONLY and surface != "cli":
            continue
        for transport in transports:
            accepted = accepted_for(spec, surface, transport)
            r = json.loads(subprocess.run(
                [sys.executable, __file__, "--scenario", surface, transport, name, ekl],
                check=True, capture_output=True, text=True,
            ).stdout)
            good = r["outcome"] in accepted and r["seconds"] < DEADLINE_S and r["peak_mb"] < PEAK_MB
            ok &= good
            print(f"{surface:4} {name:16} {transport:9} {r['outcome'][:60]:22} {r['seconds']:5} {r['peak_mb']:7} {'ok' if good else 'WRONG (want ' + ' or '.join(accepted) + ')'}")
    if surface in ("py", "js") and not rest:
        got, took, _ = killed_client(surface)
        good = got == "gone"
        ok &= good
        print(f"{surface:4} {'killed-client':16} {'stdio':9} {got[:60]:22} {round(took, 1):5} {'-':>7} {'ok' if good else 'WRONG (want gone)'}")
    if not ok:
        print("the hostile suite found a wrong outcome", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A stdio relay that hands every JSON-RPC message to ``ekl_evidence.mcp`` as it crosses the wire.

    python -m ekl_evidence._mcp_relay SOCKET [--log LOG] -- COMMAND [ARG...]

Runs COMMAND (an MCP server over stdio), passes the client's stdin to it and its stdout back, byte
for byte, and sends each line to the Unix socket SOCKET *before* passing it on: ``> `` + the line
for client -> server, ``< `` + the line for server -> client (``!`` alone for a line beyond 64 MiB,
which is dropped: the module refuses it, ``BODY_TOO_LARGE``, and the SDK never buffers it). MCP's stdio transport frames one JSON-RPC message
per line. With ``--log`` the same records are appended to LOG (the caller's file: it grows with the
traffic). When the client's stdin ends, or the relay is asked to stop, the server's stdin is closed
and the server ended after 2 s at most: a client that dies does not leave the server running. The
SDK's transport never sees this relay (it speaks to it as to the server). Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from typing import IO, Any, Optional

MAX_LINE = 64 * 1024 * 1024


def main(argv: list[str]) -> int:
    log_path: Optional[str] = None
    if len(argv) >= 3 and argv[1] == "--log":
        log_path = argv[2]
        argv = [argv[0], *argv[3:]]
    if len(argv) < 3 or argv[1] != "--":
        print(__doc__, file=sys.stderr)
        return 64
    sink = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sink.connect(argv[0])
    log = open(log_path, "ab", buffering=0) if log_path is not None else None
    lock = threading.Lock()
    child = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None

    def record(data: bytes) -> None:
        with lock:  # the record is sent before the message is passed on
            try:
                sink.sendall(data)
            except OSError:
                stop()  # the client is gone
            if log is not None:
                log.write(data)

    def stop(*_: Any) -> None:
        """Closes the server's stdin, gives it 2 s, ends it, and ends the relay."""
        with contextlib.suppress(OSError):
            child.stdin.close()  # type: ignore[union-attr]
        try:
            child.wait(2)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        os._exit(1)

    def pump(src: IO[bytes], dst: IO[bytes], prefix: bytes) -> None:
        while True:
            line = src.readline(MAX_LINE + 1)
            if not line:
                break
            if line.endswith(b"\n") or len(line) <= MAX_LINE:
                record(prefix + (line if line.endswith(b"\n") else line + b"\n"))
            else:
                record(b"!\n")  # beyond the bound: dropped to its end, never held whole
                while line and not line.endswith(b"\n"):
                    line = src.readline(1 << 20)
                continue
            try:
                dst.write(line)
                dst.flush()
            except OSError:
                break
        try:
            dst.close()
        except OSError:
            pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def upstream() -> None:
        pump(sys.stdin.buffer, child.stdin, b"> ")  # type: ignore[arg-type]
        # The client closed its end (MCP's stdio shutdown) or died: the server gets 2 s.
        try:
            child.wait(2)
        except subprocess.TimeoutExpired:
            child.kill()

    threading.Thread(target=upstream, daemon=True).start()
    pump(child.stdout, sys.stdout.buffer, b"< ")
    # The server's output ended (it exits), or the client's end of it broke (the client is gone:
    # a server that neither reads nor ends is ended after 2 s).
    try:
        return child.wait(2)
    except subprocess.TimeoutExpired:
        child.kill()
        return child.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

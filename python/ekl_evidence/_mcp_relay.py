"""A stdio relay that records every JSON-RPC message exactly as it crosses the wire (used by
``ekl_evidence.mcp``; the same design as examples/mcp/wiretap.py).

    python -m ekl_evidence._mcp_relay LOG -- COMMAND [ARG...]

Runs COMMAND (an MCP server over stdio), passes the client's stdin to it and its stdout back, byte
for byte, and appends each line to LOG *before* passing it on: ``> `` + the line for client ->
server, ``< `` + the line for server -> client. MCP's stdio transport frames one JSON-RPC message
per line, so each LOG line after its two-character prefix is one message's text as sent. The SDK's
transport never sees this relay (it speaks to it as to the server). Standard library only.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import IO


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print(__doc__, file=sys.stderr)
        return 64
    log = open(argv[0], "ab", buffering=0)
    lock = threading.Lock()
    child = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None

    def pump(src: IO[bytes], dst: IO[bytes], prefix: bytes) -> None:
        while True:
            line = src.readline()
            if not line:
                break
            with lock:  # the record is written before the message is passed on
                log.write(prefix + (line if line.endswith(b"\n") else line + b"\n"))
            try:
                dst.write(line)
                dst.flush()
            except OSError:
                break
        try:
            dst.close()
        except OSError:
            pass

    up = threading.Thread(target=pump, args=(sys.stdin.buffer, child.stdin, b"> "), daemon=True)
    up.start()
    pump(child.stdout, sys.stdout.buffer, b"< ")
    return child.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A stdio relay that records every JSON-RPC message exactly as it crosses the wire.

    python wiretap.py LOG -- COMMAND [ARG...]

Runs COMMAND (an MCP server over stdio), passes the client's stdin to it and its stdout back,
byte for byte, and appends each line to LOG first: ``> `` + the line for client -> server, ``< ``
+ the line for server -> client. The MCP stdio transport frames one JSON-RPC message per line
(no embedded newlines), so each LOG line after its two-character prefix is one message's text as
sent. The clients of this folder read LOG to fingerprint what crossed the wire; the SDKs never
see this relay (they speak to it as to the server). Standard library only.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import IO


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 64
    log = open(sys.argv[1], "ab", buffering=0)
    lock = threading.Lock()
    child = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None

    def pump(src: IO[bytes], dst: IO[bytes], prefix: bytes) -> None:
        while True:
            line = src.readline()
            if not line:
                break
            with lock:  # the record is written before the message is passed on
                log.write(prefix + (line if line.endswith(b"\n") else line + b"\n"))
            dst.write(line)
            dst.flush()
        try:
            dst.close()
        except OSError:
            pass

    up = threading.Thread(target=pump, args=(sys.stdin.buffer, child.stdin, b"> "), daemon=True)
    up.start()
    pump(child.stdout, sys.stdout.buffer, b"< ")
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())

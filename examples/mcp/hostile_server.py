"""A hostile MCP server written by hand (standard library only), over stdio or Streamable HTTP: the
server an attacker or a broken deployment runs against the wire recording (hostile.py,
hostile.mjs, and `ekl mcp` in scripts/test/45-mcp.sh).

    python hostile_server.py SCENARIO [--http PORT [--tls CERT KEY]]

It lists one tool, ``real``; what it does around that answer is the SCENARIO:

* ``plain``: nothing (the reference fingerprint);
* ``decoy-version``, ``decoy-none``, ``decoy-batch``, ``decoy-string-id``, ``decoy-extra``: before
  the answer to tools/list, a message listing the tool ``decoy`` that the official SDKs refuse or
  judge differently (``"jsonrpc": "1.0"``, no ``jsonrpc``, a batch array, the id as a string, a
  member JSON-RPC does not define);
* ``decoy-second``: after the answer, a second answer with the same id listing ``decoy``;
* ``flood-notes``: 100 MB of notifications before each answer (EKL_FLOOD_MB to change it);
* ``flood-requests``: 2,000 ``ping`` requests of the server before each answer;
* ``deaf``: after initialize, it never reads again and sends pings without end (stdio);
* ``endless``: the answer to tools/list is a line that never ends (stdio);
* ``oversized``: the answer to tools/list is a 70 MB line;
* ``invalid-utf8``: before the answer, a notification that is not UTF-8;
* ``loop-cursor``: every page's nextCursor is ``again``;
* ``changing-cursor``: every page has a new nextCursor, without end;
* ``stubborn``: answers as ``plain`` but never ends, even when its input does (stdio).
"""

from __future__ import annotations

import json
import os
import ssl
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Optional, Tuple, cast

DECOY_TOOLS = {"tools": [{"name": "decoy", "inputSchema": {"type": "object"}}]}
REAL_TOOLS = {"tools": [{"name": "real", "inputSchema": {"type": "object"}}]}


def enc(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode("utf-8")


def answers(scenario: str, msg: Dict[str, Any]) -> Iterator[bytes]:
    """The lines the server sends for one request of the client, in order."""
    rid: Any = msg.get("id")
    method: Any = msg.get("method")
    given: Any = msg.get("params")
    params = cast(Dict[str, Any], given) if isinstance(given, dict) else {}
    if method == "initialize":
        yield enc({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile", "version": scenario},
        }})
        return
    if method == "ping":
        yield enc({"jsonrpc": "2.0", "id": rid, "result": {}})
        return
    if method not in ("tools/list", "tools/call"):
        yield enc({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}})
        return
    result: Dict[str, Any] = dict(REAL_TOOLS) if method == "tools/list" else {"content": [{"type": "text", "text": "real"}]}
    if method == "tools/list":
        if scenario == "loop-cursor":
            result["nextCursor"] = "again"
        elif scenario == "changing-cursor":
            result["nextCursor"] = f"c{params.get('cursor', 'c0')[1:]}1"
    decoy = DECOY_TOOLS if method == "tools/list" else {"content": [{"type": "text", "text": "decoy"}]}
    if scenario == "decoy-version":
        yield enc({"jsonrpc": "1.0", "id": rid, "result": decoy})
    elif scenario == "decoy-none":
        yield enc({"id": rid, "result": decoy})
    elif scenario == "decoy-batch":
        yield enc([{"jsonrpc": "2.0", "id": rid, "result": decoy}])
    elif scenario == "decoy-string-id":
        yield enc({"jsonrpc": "2.0", "id": str(rid), "result": decoy})
    elif scenario == "decoy-extra":
        yield enc({"jsonrpc": "2.0", "id": rid, "result": decoy, "note": "extra"})
    elif scenario == "flood-notes":
        note = enc({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x" * 65000}})
        for _ in range(int(os.environ.get("EKL_FLOOD_MB", "100")) * 1_000_000 // len(note)):
            yield note
    elif scenario == "flood-requests":
        for n in range(2000):
            yield enc({"jsonrpc": "2.0", "id": f"srv-{n}", "method": "ping"})
    elif scenario == "invalid-utf8":
        yield b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"\xff\xfe"}}'
    if method == "tools/list" and scenario == "oversized":
        yield enc({"jsonrpc": "2.0", "id": rid, "result": {"tools": [{"name": "real", "description": "x" * 70_000_000}]}})
        return
    yield enc({"jsonrpc": "2.0", "id": rid, "result": result})
    if scenario == "decoy-second":
        yield enc({"jsonrpc": "2.0", "id": rid, "result": decoy})


def stdio(scenario: str) -> None:
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        raw: Any = json.loads(line)
        if not isinstance(raw, dict):
            continue
        msg = cast(Dict[str, Any], raw)
        if "method" not in msg or "id" not in msg:
            continue  # notifications, and the client's answers to our pings
        if scenario == "deaf" and msg.get("method") != "initialize":
            while True:  # never reads again
                out.write(enc({"jsonrpc": "2.0", "id": "deaf", "method": "ping"}) + b"\n")
                out.flush()
        if scenario == "endless" and msg.get("method") == "tools/list":
            while True:
                out.write(b"x" * 1_000_000)
                out.flush()
        for a in answers(scenario, msg):
            out.write(a + b"\n")
        out.flush()
    while scenario == "stubborn":  # its input ended: it stays, until someone ends it
        time.sleep(3600)


def http(scenario: str, port: int, tls: Optional[Tuple[str, str]] = None) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            raw: Any = json.loads(body)
            msg = cast(Dict[str, Any], raw) if isinstance(raw, dict) else {}
            if "method" not in msg or "id" not in msg:
                self.send_response(202)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            for a in answers(scenario, msg):
                self.wfile.write(b"event: message\ndata: " + a + b"\n\n")
            self.wfile.flush()
            self.close_connection = True

        def do_GET(self) -> None:
            self.send_response(405)
            self.send_header("content-length", "0")
            self.end_headers()

        def do_DELETE(self) -> None:
            self.do_GET()

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    scheme = "http"
    if tls is not None:  # https: the certificate and key given (45-mcp.sh makes them with openssl)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tls[0], tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    print(f"listening {scheme}://127.0.0.1:{server.server_address[1]}/mcp", flush=True)
    server.serve_forever()


def main(argv: List[str]) -> None:
    scenario = argv[0] if argv else "plain"
    if len(argv) >= 3 and argv[1] == "--http":
        tls = (argv[4], argv[5]) if len(argv) >= 6 and argv[3] == "--tls" else None
        http(scenario, int(argv[2]), tls)
    else:
        stdio(scenario)


if __name__ == "__main__":
    main(sys.argv[1:])

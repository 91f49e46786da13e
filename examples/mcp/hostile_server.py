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

Where the SDKs' reading of a response differs from a tap's (issue 41; over HTTP, the answers to
tools/list and tools/call; docs/decisions/mcp.md#mcp-sdk-reading):

* ``id-rewrite``: on the POST's event stream, ``real`` with another id, then ``decoy`` with the
  request's (the Python SDK takes the first answer on the stream as the request's);
* ``deflate``, ``gzip``: the event stream in that ``Content-Encoding`` (one stored block), whose
  first line read undecoded hides ``data: real``: decoded, ``real`` then ``decoy``; undecoded,
  ``decoy`` alone;
* ``utf-16-le``: ``charset=utf-16-le``: decoded so, ``real`` and a comment; read as UTF-8,
  ``decoy`` alone;
* ``iso-8859-1``: ``charset=iso-8859-1`` over the UTF-8 of the tool ``réal``;
* ``bom``: a byte-order mark, then ``decoy`` and ``real`` (another id): the Python SDK's parser
  keeps the mark (its first line's field is unknown), the TypeScript SDK's decoder drops it;
  over stdio, a line with the mark before the answer;
* ``get-decoy``: ``decoy`` whose id is written ``N.0`` (an integer to the TypeScript SDK, none to
  the Python SDK), on the GET stream (over stdio: a line before the answer), then ``real`` with
  another id on the POST's stream.
"""

from __future__ import annotations

import json
import os
import queue
import random
import ssl
import struct
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Optional, Tuple, cast

DECOY_TOOLS = {"tools": [{"name": "decoy", "inputSchema": {"type": "object"}}]}
REAL_TOOLS = {"tools": [{"name": "real", "inputSchema": {"type": "object"}}]}


def enc(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode("utf-8")


#: the scenarios of issue 41 that shape the answers to tools/list and tools/call over HTTP
READING = ("id-rewrite", "deflate", "gzip", "utf-16-le", "iso-8859-1", "bom", "get-decoy")


def answer_of(method: str, rid: Any, tool: str) -> bytes:
    """The answer to tools/list (the tool ``tool``) or tools/call (the text ``tool``)."""
    result: Dict[str, Any] = (
        {"tools": [{"name": tool, "inputSchema": {"type": "object"}}]}
        if method == "tools/list"
        else {"content": [{"type": "text", "text": tool}]}
    )
    return enc({"jsonrpc": "2.0", "id": rid, "result": result})


def stored(plain: bytes) -> bytes:
    """One final stored deflate block of ``plain`` (at most 65535 bytes)."""
    n = len(plain)
    return bytes([1]) + struct.pack("<HH", n, n ^ 0xFFFF) + plain


def encoded_stream(scenario: str, method: str, rid: Any) -> bytes:
    """The body of a deflate or gzip event stream: ``real`` then ``decoy`` decoded; the first
    line (``data: real``, with no ``event`` line before it) follows the framing's header bytes,
    so read undecoded it is a field no parser knows, and ``decoy`` is the only event. The length
    is chosen so that the block's LEN and NLEN bytes are valid UTF-8 (0x4030: ``0@`` and
    ``\u07CF``) and the trailer is tuned (a padding comment) to be ASCII."""
    head = b"data: " + answer_of(method, rid, "real") + b"\n\nevent: message\ndata: " + answer_of(method, rid, "decoy") + b"\n\n:"
    for tweak in range(100_000):
        rng = random.Random(tweak)
        plain = head + bytes(rng.randrange(0x61, 0x7B) for _ in range(0x4030 - len(head) - 1)) + b"\n"
        if scenario == "deflate":
            body = b"\x78\x01" + stored(plain) + struct.pack(">I", zlib.adler32(plain))
            trailer = body[-4:]
        else:
            body = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + stored(plain) + struct.pack("<II", zlib.crc32(plain), len(plain))
            trailer = body[-8:-4]
        if all(0x20 <= b < 0x7F for b in trailer):
            return body
    raise RuntimeError("no ASCII trailer")


def utf16_stream(method: str, rid: Any) -> bytes:
    """UTF-16-LE text whose bytes, read as UTF-8, are another event stream: ``real`` then a
    comment whose code units are the ASCII pairs of ``\ndata: decoy\n\n``."""
    hidden = b"\ndata: " + answer_of(method, rid, "decoy") + b"\n\n"
    if len(hidden) % 2:
        hidden = hidden[:-2] + b" \n\n"
    comment = "".join(chr(hidden[i] | hidden[i + 1] << 8) for i in range(0, len(hidden), 2))
    text = "data: " + answer_of(method, rid, "real").decode() + "\n\n:" + comment + "\n\n"
    return text.encode("utf-16-le")


def event(message: bytes) -> bytes:
    """One ``message`` event."""
    return b"event: message\ndata: " + message + b"\n\n"


def reading_body(scenario: str, method: str, rid: Any) -> Tuple[bytes, List[Tuple[str, str]]]:
    """The event stream (and its extra headers) of a READING scenario's answer over HTTP."""
    if scenario == "id-rewrite":
        return event(answer_of(method, rid + 1000, "real")) + event(answer_of(method, rid, "decoy")), []
    if scenario in ("deflate", "gzip"):
        return encoded_stream(scenario, method, rid), [("content-encoding", scenario)]
    if scenario == "utf-16-le":
        return utf16_stream(method, rid), [("content-type", "text/event-stream; charset=utf-16-le")]
    if scenario == "iso-8859-1":
        return event(answer_of(method, rid, "r\u00e9al")), [("content-type", "text/event-stream; charset=iso-8859-1")]
    if scenario == "bom":
        return b"\xef\xbb\xbfdata: " + answer_of(method, rid, "decoy") + b"\n\n" + event(answer_of(method, rid + 1000, "real")), []
    # get-decoy: the decoy went to the GET stream first
    return event(answer_of(method, rid + 1000, "real")), []


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
    elif scenario == "bom":
        yield b"\xef\xbb\xbf" + enc({"jsonrpc": "2.0", "id": rid, "result": decoy})
    elif scenario == "get-decoy":
        yield float_id(enc({"jsonrpc": "2.0", "id": rid, "result": decoy}))
    if method == "tools/list" and scenario == "oversized":
        yield enc({"jsonrpc": "2.0", "id": rid, "result": {"tools": [{"name": "real", "description": "x" * 70_000_000}]}})
        return
    yield enc({"jsonrpc": "2.0", "id": rid, "result": result})
    if scenario == "decoy-second":
        yield enc({"jsonrpc": "2.0", "id": rid, "result": decoy})


def float_id(message: bytes) -> bytes:
    """The message with its integer id written ``N.0``."""
    head, sep, rest = message.partition(b'"id":')
    digits = len(rest) - len(rest.lstrip(b"-0123456789"))
    return head + sep + rest[:digits] + b".0" + rest[digits:]


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
    get_stream: "queue.Queue[bytes]" = queue.Queue()
    get_open = threading.Event()

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
            method = msg.get("method")
            headers = [("content-type", "text/event-stream")]
            if scenario in READING and method in ("tools/list", "tools/call") and isinstance(msg["id"], int):
                if scenario == "get-decoy":  # the decoy on the GET stream first, then the answer
                    get_open.wait(5)
                    get_stream.put(b"event: message\ndata: " + float_id(answer_of(method, msg["id"], "decoy")) + b"\n\n")
                    time.sleep(0.5)
                body, extra = reading_body(scenario, method, msg["id"])
                headers = [h for h in headers if h[0] not in {k for k, _ in extra}] + extra
            else:
                body = b"".join(b"event: message\ndata: " + a + b"\n\n" for a in answers(scenario, msg))
            self.send_response(200)
            for k, v in headers:
                self.send_header(k, v)
            if scenario == "get-decoy" and method == "initialize":
                self.send_header("mcp-session-id", "hostile")  # the Python SDK opens its GET stream only then
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            self.close_connection = True

        def do_GET(self) -> None:
            if scenario != "get-decoy":
                self.send_response(405)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.end_headers()
            self.wfile.write(b": open\n\n")
            self.wfile.flush()
            get_open.set()
            until = time.monotonic() + 60
            while time.monotonic() < until:
                try:
                    event = get_stream.get(timeout=0.5)
                except queue.Empty:
                    continue
                try:
                    self.wfile.write(event)
                    self.wfile.flush()
                except OSError:
                    return
            self.close_connection = True

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

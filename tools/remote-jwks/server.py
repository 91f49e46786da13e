#!/usr/bin/env python3
"""The one scripted HTTP server of the RemoteJwks scenarios (tools/remote-jwks/scenarios.json).

Both test suites start it (python/tests/test_remote_jwks_scenarios.py and
node/test/remote-jwks-scenarios.test.js) and run every scenario against their RemoteJwks.
It listens on 127.0.0.1 three times: plain HTTP, a second plain HTTP port (another origin) and
HTTPS with a self-signed certificate made by `openssl` at start (the clients trust it through
SSL_CERT_FILE / NODE_EXTRA_CA_CERTS). It prints one JSON line when ready:
{"http": PORT, "other": PORT, "https": PORT, "cert": PATH}, then serves until stdin closes.

A request to /s/NAME/... gets the scenario NAME's next response (responses[i], the last one
repeated): a key set of the file, a raw body (in an `encoding`), arrays nested `nest` deep, a
status, Cache-Control, a delay, a redirect (same origin, same origin with a user name and password,
another origin, https to http), a close without an answer, or one part (status line, headers, body) drip-fed a byte at a time. GET /hits/NAME answers how many requests the
scenario got, on any port. Standard library only.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import socketserver
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILE = json.loads((HERE / "scenarios.json").read_text())
SCENARIOS = {s["name"]: s for s in FILE["scenarios"]}
SETS = FILE["sets"]
hits: dict = {}
lock = threading.Lock()
ports: dict = {}


def body_of(r: dict) -> bytes:
    if "set" in r:
        body = json.dumps(SETS[r["set"]]).encode()
    elif "nest" in r:
        body = b"[" * r["nest"] + b"]" * r["nest"]
    else:
        body = r.get("body", "").encode(r.get("encoding", "utf-8"))
    return b" " * r.get("pad", 0) + body


def location(r: dict, name: str, port: int) -> str:
    kind = r["redirect"]
    path = f"/s/{urllib.parse.quote(name)}/moved"
    if kind == "same":
        return path  # relative: the same origin, whatever the scheme
    if kind == "userinfo":
        return f"//user:pass@127.0.0.1:{port}{path}"  # the same origin, with a user name and password
    if kind == "other":
        return f"http://127.0.0.1:{ports['other']}{path}"
    if kind == "http":
        return f"http://127.0.0.1:{ports['http']}{path}"  # the plain port serves the set: following it would succeed
    raise ValueError(kind)


class Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        try:
            self.serve()
        except OSError:
            pass  # the client gave up (a deadline): nothing to do

    def serve(self) -> None:
        line = self.rfile.readline(65537).decode("latin-1")
        while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
            pass
        parts = line.split()
        path = urllib.parse.unquote((parts[1] if len(parts) > 1 else "/").split("?", 1)[0])
        if path.startswith("/hits/"):
            name = path[len("/hits/"):]
            with lock:
                n = hits.get(name, 0)
            self.send(b"HTTP/1.1 200 OK\r\n", b"Content-Type: application/json\r\nConnection: close\r\n",
                      json.dumps({"hits": n}).encode(), {})
            return
        name = path.split("/")[2] if path.startswith("/s/") else ""
        scenario = SCENARIOS.get(name)
        if scenario is None:
            self.send(b"HTTP/1.1 404 Not Found\r\n", b"Connection: close\r\n", b"", {})
            return
        with lock:
            i = hits.get(name, 0)
            hits[name] = i + 1
        responses = scenario["responses"]
        r = responses[min(i, len(responses) - 1)]
        if r.get("delay"):
            time.sleep(r["delay"])
        if r.get("close"):
            return
        status = r.get("status", 302 if "redirect" in r else 200)
        reason = {200: "OK", 302: "Found", 500: "Internal Server Error"}.get(status, "Status")
        head = "Content-Type: application/json\r\nConnection: close\r\n"
        if r.get("cacheControl"):
            head += f"Cache-Control: {r['cacheControl']}\r\n"
        if "redirect" in r:
            head += f"Location: {location(r, name, self.server.server_address[1])}\r\n"
        body = body_of(r)
        if not r.get("noLength"):
            head += f"Content-Length: {len(body)}\r\n"
        self.send(f"HTTP/1.1 {status} {reason}\r\n".encode(), head.encode(), body, r)

    def send(self, status: bytes, head: bytes, body: bytes, r: dict) -> None:
        drip = r.get("drip")
        for part, data in (("status", status), ("headers", head + b"\r\n"), ("body", body)):
            if drip == part:
                for k in range(len(data)):
                    self.wfile.write(data[k:k + 1])
                    self.wfile.flush()
                    time.sleep(r.get("dripDelay", 0.25))
            else:
                self.wfile.write(data)
                self.wfile.flush()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class TlsServer(Server):
    def __init__(self, address, handler, context: ssl.SSLContext) -> None:
        super().__init__(address, handler)
        self.context = context

    def get_request(self):
        sock, addr = super().get_request()
        sock.settimeout(10)
        try:
            return self.context.wrap_socket(sock, server_side=True), addr
        except (OSError, ssl.SSLError):
            sock.close()
            raise


def make_cert(folder: str) -> tuple:
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", key, "-out", cert],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return cert, key


def main() -> None:
    folder = tempfile.mkdtemp(prefix="ekl-remote-jwks-")
    cert, key = make_cert(folder)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    servers = {
        "http": Server(("127.0.0.1", 0), Handler),
        "other": Server(("127.0.0.1", 0), Handler),
        "https": TlsServer(("127.0.0.1", 0), Handler, context),
    }
    for kind, server in servers.items():
        ports[kind] = server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({**ports, "cert": cert}), flush=True)
    sys.stdin.read()  # until the test suite closes it (or exits)
    for server in servers.values():
        server.shutdown()
    shutil.rmtree(folder, ignore_errors=True)  # the certificate's folder: this run's own


if __name__ == "__main__":
    main()

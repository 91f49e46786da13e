"""RemoteJwks against a local HTTP server that serves, rotates keys, slows down and fails."""

from __future__ import annotations

import http.server
import json
import threading
import time

import pytest

import ekl_evidence as ekl
from ekl_evidence import EklError
from ekl_evidence._remote import RemoteJwks

SEED = "11" * 32
TYP = "ekl-screening-rules+jwt"


class Server:
    """A JWKS server whose next answers the test sets: body, status, headers, delay."""

    def __init__(self):
        self.body = b"{}"
        self.status = 200
        self.headers = {"Content-Type": "application/json"}
        self.delay = 0.0
        self.hits = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                outer.hits += 1
                if outer.delay:
                    time.sleep(outer.delay)
                self.send_response(outer.status)
                for k, v in outer.headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(outer.body)))
                self.end_headers()
                try:
                    self.wfile.write(outer.body)
                except OSError:
                    pass

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]:d}/.well-known/jwks.json"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def serve(self, jwks, cache_control=None):
        self.body = json.dumps(jwks).encode()
        self.status = 200
        self.headers = {"Content-Type": "application/json"}
        if cache_control:
            self.headers["Cache-Control"] = cache_control


@pytest.fixture
def server():
    s = Server()
    yield s
    s.httpd.shutdown()


def keys(*kids):
    jwks, signing = ekl.jwks_from_seed(SEED, list(kids))
    return json.loads(jwks.to_json()), dict(zip(kids, signing))


def token(key):
    now = int(time.time())
    claims = {"iss": "https://net.example", "iat": now, "exp": now + 3600, "rules_version": "1", "rules": []}
    return ekl.sign_jws(TYP, claims, key)


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def verify(tok, jwks):
    return ekl.verify_jws(tok, TYP, jwks, now=int(time.time()), issuer="https://net.example")


def test_fetch_once_then_cache_then_max_age(server):
    body, signing = keys("k1")
    server.serve(body, "public, max-age=60")
    clock = Clock()
    remote = RemoteJwks(server.url, clock=clock)
    tok = token(signing["k1"])
    verify(tok, remote.jwks_for(tok))
    verify(tok, remote.jwks_for(tok))
    assert server.hits == 1
    clock.t += 61
    remote.jwks()
    assert server.hits == 2


def test_rotation_refetches_once_per_cooldown(server):
    body, signing = keys("k1")
    server.serve(body)
    clock = Clock()
    remote = RemoteJwks(server.url, clock=clock, cooldown=30)
    remote.jwks()
    rotated, new = keys("k1", "k2")
    server.serve(rotated)
    tok = token(new["k2"])
    verify(tok, remote.jwks_for(tok))  # unknown kid: one refetch, then it verifies
    assert server.hits == 2
    # Random kids within the cooldown: no more fetches; UNKNOWN_KID says when the next may happen.
    other = token(ekl.signing_key("22" * 32, "k9"))
    clock.t += 10
    with pytest.raises(EklError) as e:
        verify(other, remote.jwks_for(other))
    assert e.value.code == "UNKNOWN_KID"
    assert "refetched for an unknown kid 10 s ago; the next refetch may happen in 20 s" in e.value.message
    assert "fetch the key set again" not in e.value.message
    assert server.hits == 2
    clock.t += 21
    with pytest.raises(EklError) as e:
        remote.jwks_for(other)
    assert e.value.message.endswith("refetched just now; the next refetch may happen in 30 s")
    assert server.hits == 3


def test_failures_keep_the_last_good_set(server):
    body, signing = keys("k1")
    server.serve(body, "max-age=0")
    clock = Clock()
    remote = RemoteJwks(server.url, clock=clock, cooldown=10)
    first = remote.jwks()
    server.status = 500
    clock.t += 11  # max-age=0: cached for the cooldown (the floor)
    assert remote.jwks() is first  # stale, the refetch failed: the last good set serves
    assert server.hits == 2
    clock.t += 1
    remote.jwks()  # within the cooldown after a failure: no new attempt
    assert server.hits == 2
    tok = token(signing["k1"])
    verify(tok, remote.jwks_for(tok))


@pytest.mark.parametrize(
    "breakage",
    ["status", "not_json", "not_jwks", "too_large", "slow"],
)
def test_no_good_set_is_jwks_unavailable(server, breakage):
    body, _ = keys("k1")
    server.serve(body)
    kwargs = {}
    if breakage == "status":
        server.status = 503
    elif breakage == "not_json":
        server.body = b"<html>"
    elif breakage == "not_jwks":
        server.body = b'{"keys":[{"kty":"RSA","kid":"r","n":"AQAB","e":"AQAB"}]}'
    elif breakage == "too_large":
        server.body = b" " * 2048 + server.body
        kwargs["max_bytes"] = 1024
    elif breakage == "slow":
        server.delay = 2.0
        kwargs["timeout"] = 0.3
    remote = RemoteJwks(server.url, **kwargs)
    t0 = time.monotonic()
    with pytest.raises(EklError) as e:
        remote.jwks()
    assert e.value.code == "JWKS_UNAVAILABLE"
    assert server.url not in str(e.value)
    assert time.monotonic() - t0 < 1.5


def test_mixed_sets_from_the_wild_are_used(server):
    body, signing = keys("k1")
    body["keys"].insert(0, {"kty": "RSA", "kid": "rsa-1", "n": "AQAB", "e": "AQAB"})
    server.serve(body)
    remote = RemoteJwks(server.url)
    tok = token(signing["k1"])
    verify(tok, remote.jwks_for(tok))


def _fresh_for(cache_control):
    """How long the core's policy (RemoteJwksPolicy) keeps a set fetched with this Cache-Control
    (no cooldown): the first whole second at which it asks for a fetch again."""
    body, _ = keys("k1")
    policy = ekl.RemoteJwksPolicy("https://net.example/j", scheme="https", host="net.example", cooldown=0)
    policy.body(0, json.dumps(body), cache_control=cache_control)
    t = 0
    while policy.need(t)["action"] == "serve":
        t += 1
    return t


def test_cache_control_parsing():
    assert _fresh_for(None) == 300
    assert _fresh_for("public, max-age=120") == 120
    assert _fresh_for("max-age=99999999") == 86400
    assert _fresh_for("no-store") == 0
    assert _fresh_for("private") == 300
    assert _fresh_for("s-maxage=5") == 300


def test_url_must_be_http():
    with pytest.raises(EklError) as e:
        RemoteJwks("file:///etc/passwd")
    assert e.value.code == "INVALID_ARGUMENT"


def test_url_with_credentials_is_refused():
    for url in ("https://user:pw@net.example/jwks.json", "https://user@net.example/jwks.json"):
        with pytest.raises(EklError) as e:
            RemoteJwks(url)
        assert e.value.code == "INVALID_ARGUMENT" and "pw" not in e.value.message


def test_a_token_header_is_read_by_the_core():
    """The kid of a token's header is read as the verifier reads it (the core's strict reader):
    a header nested past the bound, with a duplicate member, a BOM or NaN has no kid, and the set
    is served without a refetch (the verifier refuses the token)."""
    import base64

    jwks, _ = keys("k1")

    def action(raw: bytes) -> str:
        # a kid seen unknown is refetched once per cooldown: a fresh policy per question
        policy = ekl.RemoteJwksPolicy("https://net.example/j", scheme="https", host="net.example")
        assert policy.body(0, json.dumps(jwks)).kids() == ["k1"]
        head = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        return policy.kid(1, token=head + ".e30.c2ln")["action"]

    assert action(b'{"kid":"k2"}') == "fetch"
    assert action(b'{"kid":"k1"}') == "serve"
    for raw in (b"[" * 5000, b'{"kid":"k2","kid":"k1"}', b'\xef\xbb\xbf{"kid":"k2"}', b'{"kid":"k2","x":NaN}',
                '{"kid":"k2"}'.encode("utf-16")):
        assert action(raw) == "serve", raw


def test_the_connection_gets_an_explicit_port_and_an_encoded_target(monkeypatch):
    """http.client would read an IPv6 address's last group as the port when none is given, and
    sends a path as written: both as a WHATWG URL (the JS package) does."""
    import http.client

    seen = []

    class Refused(http.client.HTTPConnection):
        def __init__(self, host, port=None, **kw):
            seen.append((host, port))
            super().__init__(host, port, **kw)

        def request(self, method, target, *a, **kw):
            seen.append(target)
            raise OSError("refused")

    monkeypatch.setattr(http.client, "HTTPSConnection", Refused)
    monkeypatch.setattr(http.client, "HTTPConnection", Refused)
    for url, host, port, target in (
        ("https://[::1]/jwks.json", "::1", 443, "/jwks.json"),
        ("http://[2001:db8::1]/a b/é.json?q=a b", "2001:db8::1", 80, "/a%20b/%C3%A9.json?q=a%20b"),
        ("https://BÜCHER.example:8443/k", "xn--bcher-kva.example", 8443, "/k"),
    ):
        seen.clear()
        with pytest.raises(EklError) as e:
            RemoteJwks(url, clock=Clock()).jwks()
        assert e.value.code == "JWKS_UNAVAILABLE"
        assert seen == [(host, port), target]


def test_a_socket_timeout_reads_as_the_deadline(monkeypatch):
    """The socket's own timeout (the time left at connect) may fire in the fetching thread before
    the caller's wait ends the flight: that is the deadline too (issue 36: under load the scenario
    "slow answer" got "the key set could not be fetched")."""
    import http.client
    import socket

    class TimesOut(http.client.HTTPConnection):
        def request(self, *args, **kwargs):
            raise socket.timeout("timed out")

    monkeypatch.setattr(http.client, "HTTPConnection", TimesOut)
    with pytest.raises(EklError) as e:
        RemoteJwks("http://127.0.0.1:9/jwks.json", timeout=60, clock=Clock()).jwks()
    assert (e.value.code, e.value.message) == ("JWKS_UNAVAILABLE", "the key set timed out")


def test_a_clock_that_fails_leaves_no_caller_waiting(server):
    """The clock raising while a fetch ends: the callers get an answer, none waits forever."""
    jwks, _ = keys("k1")
    server.serve(jwks)
    calls = [0]

    def clock():
        calls[0] += 1
        if calls[0] >= 2:
            raise RuntimeError("clock broken")
        return 1000.0

    remote = RemoteJwks(server.url, clock=clock, timeout=1)
    t0 = time.monotonic()
    with pytest.raises((RuntimeError, EklError)):
        remote.jwks()
    assert time.monotonic() - t0 < 3


def test_an_unknown_kid_within_the_cooldown_after_a_failure_is_not_refetched(server):
    jwks, _ = keys("k1")
    server.serve(jwks, "max-age=60")
    clock = Clock()
    remote = RemoteJwks(server.url, clock=clock)
    assert remote.jwks().kids() == ["k1"]
    server.status = 500
    clock.t += 61
    assert remote.jwks().kids() == ["k1"]  # the fetch failed: the last good set serves
    assert server.hits == 2
    clock.t += 5
    newer, signing = keys("k2")
    with pytest.raises(EklError) as e:
        remote.jwks_for(token(signing["k2"]))
    assert e.value.code == "UNKNOWN_KID"
    assert e.value.message == "kid is not in the key set, and the last fetch failed 5 s ago; the next refetch may happen in 25 s"
    assert server.hits == 2

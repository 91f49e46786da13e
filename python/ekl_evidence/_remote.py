"""A network's key set fetched over HTTPS and cached (docs/decisions.md#remote-jwks).

The cache policy is the core's: the registry's handle ``RemoteJwksPolicy`` (ekl_core::remote_jwks;
docs/decisions/handles.md), which the JS package drives too (tools/remote-jwks/scenarios.json runs
against both). It holds every rule and its state: the options' defaults and bounds, the URL rules,
freshness from ``Cache-Control``, the cooldown after a failure, ``max_stale``, the refetch for an
unknown ``kid``, the redirect rules, the body's bound and its reading by the core's strict JSON
reader (a duplicate member is ``DUPLICATE_KEY``), the last good set, and every message. This
module only does the I/O, with the standard library: it asks the policy (``need``, ``kid``), does
what it names (``http.client`` within one deadline over the whole fetch, in a daemon thread; at
the deadline its socket is shut down; the URL parsed by ``urllib.parse`` and requested as a WHATWG
URL is) and reports (``response``, ``body``, ``failed``); and the threads: a short lock guards the
fetch in progress and is never held across network I/O; callers that need a fetch share the one
in progress (single flight), each until its deadline.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Optional

from ._api import RemoteJwksPolicy
from ._errors import EklError

if TYPE_CHECKING:
    from ._native import Jwks
    from ._types import RemoteJwksCause

    #: Why a download failed, and the policy's refusal when it refused a response.
    _Failure = tuple[RemoteJwksCause, Optional[str]]

__all__ = ["RemoteJwks"]


def _raise(decision: Any) -> EklError:
    return EklError(decision["error"]["code"], decision["error"]["message"])


def _host(url: urllib.parse.SplitResult) -> str:
    """The URL's host as the request connects to it: lowercase, an international name in its
    ASCII (IDNA) form, as WHATWG URLs write it."""
    host = (url.hostname or "").lower()
    return host if host.isascii() else host.encode("idna").decode("ascii")


def _parts(url: Optional[str]) -> dict[str, Any]:
    """The URL as ``urllib.parse`` reads it, as the policy's URL arguments; none when it cannot."""
    if url is None:
        return {}
    try:
        p = urllib.parse.urlsplit(url)
        port = p.port  # ValueError for a bad port
        host = _host(p)  # UnicodeError (a ValueError) for a name IDNA cannot write
    except ValueError:
        return {}
    return {"scheme": p.scheme, "host": host, "port": port,
            "credentials": p.username is not None or p.password is not None}


# The characters a WHATWG URL writes as they are in a path and in a query (the rest, spaces and
# non-ASCII among them, percent-encoded as UTF-8), so a URL is requested as the JS package does.
_PATH_SAFE = "/%!$&'()*+,;=:@-._~[]|^`{}"
_QUERY_SAFE = "/%!$&'()*+,;=:@-._~[]|^`{}?\\"


def _target(url: urllib.parse.SplitResult) -> str:
    """The request target: the path and query, percent-encoded as a WHATWG URL does."""
    path = urllib.parse.quote(url.path or "/", safe=_PATH_SAFE)
    return path + ("?" + urllib.parse.quote(url.query, safe=_QUERY_SAFE) if url.query else "")


class _Refused(Exception):
    """A response the policy refused (its ``fail``), with the refusal's message."""


class _Flight:
    """One fetch in progress, shared by every caller that needs it."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.done = threading.Event()
        self.result: Optional[Jwks] = None
        self.error: Optional[EklError] = None
        self.aborted = False
        self.conn: Optional[http.client.HTTPConnection] = None
        self.guard = threading.Lock()

    def use(self, conn: http.client.HTTPConnection) -> None:
        with self.guard:
            if self.aborted:
                raise TimeoutError
            self.conn = conn

    def abort(self) -> None:
        """Ends the download: the blocked read in the worker returns at once."""
        with self.guard:
            self.aborted = True
            conn = self.conn
        sock = getattr(conn, "sock", None) if conn is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class RemoteJwks:
    """A network's JWKS at ``url``, fetched when needed and cached.

    Options (seconds unless said; ``None`` or left out: the default; the defaults and bounds are
    the core's, the manifest's ``remote_jwks`` constant): ``timeout`` the whole fetch's deadline,
    in (0, 600] (default 5); ``max_bytes`` the largest body, an int in [1, 64 MiB] (default 1 MiB);
    ``cooldown`` between refetches for unknown kids and after a failure, and the least time a set
    is cached, in [0, 86400] (default 30); ``default_max_age`` without Cache-Control max-age, in
    [0, 86400] (default 300); ``max_stale`` how long past its freshness the last good set serves
    while refetches fail, in [0, 31536000] (default 86400); ``clock`` a monotonic clock in seconds
    (tests). Options out of range or not numbers, and a URL that is not http(s) or holds a user
    name or password, are ``INVALID_ARGUMENT``.

    >>> remote = RemoteJwks("https://network.example/.well-known/jwks.json")  # doctest: +SKIP
    >>> verify_jws(token, "ekl-access+jwt", remote.jwks_for(token), issuer=...)  # doctest: +SKIP
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: Optional[float] = None,
        max_bytes: Optional[int] = None,
        cooldown: Optional[float] = None,
        default_max_age: Optional[float] = None,
        max_stale: Optional[float] = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        given = url if isinstance(url, str) else ""
        self._policy = RemoteJwksPolicy(
            given, **_parts(given), timeout=timeout, max_bytes=max_bytes, cooldown=cooldown,
            default_max_age=default_max_age, max_stale=max_stale)
        if not callable(clock):
            raise EklError("INVALID_ARGUMENT", "RemoteJwks: clock must be a function")
        self._url = url
        self._clock = clock
        self._lock = threading.Lock()  # short: never held across network I/O
        self._jwks: Optional[Jwks] = None  # the set the policy holds, as its last body() gave it
        self._flight: Optional[_Flight] = None
        #: Number of fetches attempted (for tests and metrics).
        self.fetches = 0

    def __repr__(self) -> str:
        kids: list[str] = self._jwks.kids() if self._jwks is not None else []
        return f"RemoteJwks({self._url.split('?', 1)[0]!r}, kids={kids!r})"

    # -- the download (in a worker thread, no lock held) ------------------------------------

    def _download(self, flight: _Flight) -> tuple[bytes, bool, Optional[str]]:
        """The body as read, whether it was longer than the policy reads, and the Cache-Control
        header; each response handed to the policy (redirects, statuses)."""
        url, hops = self._url, 0
        while True:
            parts = urllib.parse.urlsplit(url)
            remaining = flight.deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            https = parts.scheme.lower() == "https"
            cls = http.client.HTTPSConnection if https else http.client.HTTPConnection
            # the port always given: http.client would read an IPv6 address's last group as one
            conn = cls(_host(parts), parts.port or (443 if https else 80), timeout=remaining)
            flight.use(conn)
            try:
                conn.request("GET", _target(parts), headers={"Accept": "application/json", "Connection": "close"})
                response = conn.getresponse()
                location = response.getheader("Location")
                try:
                    nxt = urllib.parse.urljoin(url, location.strip()) if location else None
                except ValueError:
                    nxt = None
                hop = self._policy.response(response.status, hops, location=location, **_parts(nxt))
                if hop["action"] == "follow" and nxt:
                    url, hops = nxt, hops + 1
                    continue
                if hop["action"] == "fail":
                    raise _Refused(hop["error"]["message"])
                limit: int = hop["max_bytes"]
                chunks, total = [], 0
                while total <= limit:
                    chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
                    if not chunk:
                        break
                    total += len(chunk)
                    chunks.append(chunk)
                longer = total > limit
                return (b"" if longer else b"".join(chunks)), longer, response.getheader("Cache-Control")
            finally:
                conn.close()

    def _run(self, flight: _Flight) -> None:
        """The worker: one download, then reported to the policy (under the short lock)."""
        try:
            got = self._download(flight)
            self._finish(flight, got, None)
        except _Refused as e:
            self._finish(flight, None, ("refused", str(e)))
        except Exception as e:  # noqa: BLE001 (a worker must always finish its flight: network, HTTP or URL errors)
            # The socket's own timeout (the time left at connect) may fire before the caller's
            # wait ends the flight: that is the deadline too (issue 36: under load the worker won
            # that race and said "could not be fetched").
            timed_out = flight.aborted or isinstance(e, socket.timeout) or time.monotonic() >= flight.deadline
            self._finish(flight, None, ("timeout" if timed_out else "network", None))

    def _finish(self, flight: _Flight, got: Optional[tuple[bytes, bool, Optional[str]]],
                failure: Optional[_Failure]) -> None:
        """The flight's outcome reported to the policy: the body (the policy reads it once, keeps
        the set and returns it, or records why it is not usable) or the failure."""
        with self._lock:
            if self._flight is not flight:  # already ended by its deadline
                return
            self._flight = None
            try:
                now = self._clock()
                if got is not None:
                    try:
                        self._jwks = flight.result = self._policy.body(now, got[0], longer=got[1], cache_control=got[2])
                    except EklError as e:
                        flight.error = e
                    return
                if failure is not None:
                    flight.error = _raise(self._policy.failed(now, failure[0], message=failure[1]))
            finally:  # whatever the clock does, no caller waits on this flight forever
                if flight.result is None and flight.error is None:
                    flight.error = EklError("JWKS_UNAVAILABLE", "the key set could not be fetched (the clock failed)")
                flight.done.set()

    def _fetch(self, timeout: float) -> Jwks:
        """The fetch in progress, or a new one; its set, or EklError JWKS_UNAVAILABLE."""
        with self._lock:
            flight = self._flight
            if flight is None:
                flight = self._flight = _Flight(time.monotonic() + timeout)
                self.fetches += 1
                threading.Thread(target=self._run, args=(flight,), name="ekl-remote-jwks", daemon=True).start()
        flight.done.wait(max(0.0, flight.deadline - time.monotonic()))
        if not flight.done.is_set():
            self._finish(flight, None, ("timeout", None))
            flight.abort()
            flight.done.wait()  # set by whoever finished it
        if flight.result is not None:
            return flight.result
        assert flight.error is not None
        raise flight.error

    # -- the public API: ask the policy, do what it names -----------------------------------

    def _serve(self) -> Jwks:
        assert self._jwks is not None  # the policy serves only when a body gave it a set
        return self._jwks

    def jwks(self) -> Jwks:
        """The key set: the cached one while fresh, else fetched again; after a failed fetch the
        last good set keeps serving for up to ``max_stale`` past its freshness; raises EklError
        JWKS_UNAVAILABLE when there is none to serve."""
        with self._lock:
            decision = self._policy.need(self._clock())
            if decision["action"] == "serve":
                return self._serve()
            if decision["action"] == "fail":
                raise _raise(decision)
        try:
            return self._fetch(decision["timeout"])
        except EklError:
            with self._lock:
                decision = self._policy.need_failed(self._clock())
                if decision["action"] == "serve":
                    return self._serve()
            raise _raise(decision) from None

    def jwks_for(self, token: str) -> Jwks:
        """The key set to verify ``token`` with: as :meth:`jwks`, fetched again once (at most once
        per cooldown) when it does not hold the token's ``kid``; raises EklError UNKNOWN_KID when
        the kid is still unknown or the refetch is declined (the message says when the set was
        refetched and when the next refetch may happen)."""
        self.jwks()
        tok = token if isinstance(token, str) else None
        with self._lock:
            decision = self._policy.kid(self._clock(), token=tok)
            if decision["action"] == "serve":
                return self._serve()
        if decision["action"] == "fail":
            raise _raise(decision)
        try:
            jwks = self._fetch(decision["timeout"])
        except EklError:
            raise _raise(self._policy.kid_failed()) from None
        decision = self._policy.kid_fetched(token=tok)
        if decision["action"] == "serve":
            return jwks
        raise _raise(decision)

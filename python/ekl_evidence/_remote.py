"""A network's key set fetched over HTTPS and cached (docs/decisions.md#remote-jwks).

The cache policy is the core's: ``remote_jwks_step`` (ekl_core::remote_jwks), a sans-I/O state
machine the JS package drives too (tools/remote-jwks/scenarios.json runs against both). It holds
every rule: the options' bounds, the URL rules, freshness from ``Cache-Control``, the cooldown
after a failure, ``max_stale``, the refetch for an unknown ``kid``, the redirect rules, the
body's bound and its reading by the core's strict JSON reader (a duplicate member is
``DUPLICATE_KEY``), and every message. This module only does the I/O, with the standard
library: ``http.client`` within one deadline over the whole fetch (a daemon thread; at the
deadline its socket is shut down), the URL parsed by ``urllib.parse`` and requested as a WHATWG
URL is, and the threads: a short lock guards the state and is never held across network I/O;
callers that need a fetch share the one in progress (single flight), each until its deadline.
"""

from __future__ import annotations

import http.client
import math
import socket
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Optional

from ._errors import EklError

if TYPE_CHECKING:
    from ._native import Jwks

__all__ = ["RemoteJwks"]


def _step(event: dict[str, Any], state: Any = None, **more: Any) -> dict[str, Any]:
    """One step of the core's policy (``remote_jwks_step``)."""
    from ._api import remote_jwks_step  # built at import from the registry

    return dict(remote_jwks_step(event, state=state, **more))


def _raise(step: dict[str, Any]) -> EklError:
    return EklError(step["error"]["code"], step["error"]["message"])


def _option(value: Any) -> Any:
    """An option as JSON holds it: a non-finite number as its name, another type by its name (the
    core refuses both with the option's bounds)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 1 << 53:
        return "Infinity"
    return value if value is None or isinstance(value, (bool, int, float, str)) else type(value).__name__


def _host(url: urllib.parse.SplitResult) -> str:
    """The URL's host as the request connects to it: lowercase, an international name in its
    ASCII (IDNA) form, as WHATWG URLs write it."""
    host = (url.hostname or "").lower()
    return host if host.isascii() else host.encode("idna").decode("ascii")


def _parts(url: str) -> Optional[dict[str, Any]]:
    """The URL as ``urllib.parse`` reads it, for the core's URL rules; None when it cannot."""
    try:
        p = urllib.parse.urlsplit(url)
        port = p.port  # ValueError for a bad port
        host = _host(p)  # UnicodeError (a ValueError) for a name IDNA cannot write
    except ValueError:
        return None
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

    Options (seconds unless said): ``timeout`` the whole fetch's deadline, in (0, 600] (default
    5); ``max_bytes`` the largest body, an int in [1, 64 MiB] (default 1 MiB); ``cooldown``
    between refetches for unknown kids and after a failure, and the least time a set is cached,
    in [0, 86400] (default 30); ``default_max_age`` without Cache-Control max-age, in [0, 86400]
    (default 300); ``max_stale`` how long past its freshness the last good set serves while
    refetches fail, in [0, 31536000] (default 86400); ``clock`` a monotonic clock in seconds
    (tests). Options out of range or of the wrong type, and a URL that is not http(s) or holds a
    user name or password, are ``INVALID_ARGUMENT``.

    >>> remote = RemoteJwks("https://network.example/.well-known/jwks.json")  # doctest: +SKIP
    >>> verify_jws(token, "ekl-access+jwt", remote.jwks_for(token), issuer=...)  # doctest: +SKIP
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 5.0,
        max_bytes: int = 1 << 20,
        cooldown: float = 30.0,
        default_max_age: float = 300.0,
        max_stale: float = 86400.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        options = {"timeout": timeout, "max_bytes": max_bytes, "cooldown": cooldown,
                   "default_max_age": default_max_age, "max_stale": max_stale}
        given = url if isinstance(url, str) else ""
        event = {"on": "new", "url": given, "parts": _parts(given),
                 "options": {k: _option(v) for k, v in options.items()}}
        self._state: Any = _step(event)["state"]
        if not callable(clock):
            raise EklError("INVALID_ARGUMENT", "RemoteJwks: clock must be a function")
        self._url = url
        self._clock = clock
        self._lock = threading.Lock()  # short: never held across network I/O
        self._jwks: Optional[Jwks] = None  # the last good set
        self._flight: Optional[_Flight] = None
        #: Number of fetches attempted (for tests and metrics).
        self.fetches = 0

    def __repr__(self) -> str:
        kids: list[str] = self._jwks.kids() if self._jwks is not None else []
        return f"RemoteJwks({self._url.split('?', 1)[0]!r}, kids={kids!r})"

    # -- the download (in a worker thread, no lock held) ------------------------------------

    def _download(self, flight: _Flight, state: Any) -> tuple[Any, Optional[str]]:
        """The set as the core read it and the Cache-Control header, redirects checked."""
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
                hop = _step({"on": "response", "status": response.status, "location": location,
                             "next": _parts(nxt) if nxt else None, "hops": hops}, state)
                if hop["action"] == "follow" and nxt:
                    url, hops = nxt, hops + 1
                    continue
                if hop["action"] == "fail":
                    raise _raise(hop)
                limit: int = hop["max_bytes"]
                chunks, total = [], 0
                while total <= limit:
                    chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
                    if not chunk:
                        break
                    total += len(chunk)
                    chunks.append(chunk)
                longer = total > limit
                body = _step({"on": "body", "longer": longer}, state, body=b"" if longer else b"".join(chunks))
                if body["action"] == "fail":
                    raise _raise(body)
                return body["set"], response.getheader("Cache-Control")
            finally:
                conn.close()

    def _run(self, flight: _Flight, state: Any) -> None:
        """The worker: one download, then the state updated (under the short lock)."""
        try:
            got = self._download(flight, state)
            self._finish(flight, got, {})
        except EklError as e:
            self._finish(flight, None, {"cause": "refused", "error": {"code": e.code, "message": e.message}})
        except Exception as e:  # noqa: BLE001 (a worker must always finish its flight: network, HTTP or URL errors)
            # The socket's own timeout (the time left at connect) may fire before the caller's
            # wait ends the flight: that is the deadline too (issue 36: under load the worker won
            # that race and said "could not be fetched").
            timed_out = flight.aborted or isinstance(e, socket.timeout) or time.monotonic() >= flight.deadline
            self._finish(flight, None, {"cause": "timeout" if timed_out else "network"})

    def _finish(self, flight: _Flight, got: Optional[tuple[Any, Optional[str]]], failure: dict[str, Any]) -> None:
        from . import Jwks as JwksClass  # the package's class (imported late: no import cycle)

        with self._lock:
            if self._flight is not flight:  # already ended by its deadline
                return
            self._flight = None
            try:
                now = self._clock()
                if got is not None:
                    try:
                        jwks = JwksClass(got[0])  # the set as the core read it
                    except EklError as e:
                        failure = {"cause": "refused", "error": {"code": e.code, "message": e.message}}
                    else:
                        self._state = _step({"on": "fetched", "now": now, "cache_control": got[1]}, self._state)["state"]
                        self._jwks = flight.result = jwks
                        return
                step = _step({"on": "failed", "now": now, **failure}, self._state)
                self._state = step["state"]
                flight.error = _raise(step)
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
                threading.Thread(target=self._run, args=(flight, self._state), name="ekl-remote-jwks", daemon=True).start()
        flight.done.wait(max(0.0, flight.deadline - time.monotonic()))
        if not flight.done.is_set():
            self._finish(flight, None, {"cause": "timeout"})
            flight.abort()
            flight.done.wait()  # set by whoever finished it
        if flight.result is not None:
            return flight.result
        assert flight.error is not None
        raise flight.error

    # -- the public API ---------------------------------------------------------------------

    def _serve(self) -> Jwks:
        assert self._jwks is not None  # the core serves only when a set was fetched
        return self._jwks

    def jwks(self) -> Jwks:
        """The key set: the cached one while fresh, else fetched again; after a failed fetch the
        last good set keeps serving for up to ``max_stale`` past its freshness; raises EklError
        JWKS_UNAVAILABLE when there is none to serve."""
        with self._lock:
            step = _step({"on": "need", "now": self._clock()}, self._state)
            if step["action"] == "serve":
                return self._serve()
            if step["action"] == "fail":
                raise _raise(step)
        try:
            return self._fetch(step["timeout"])
        except EklError as e:
            with self._lock:
                error = {"code": e.code, "message": e.message}
                step = _step({"on": "need_failed", "now": self._clock(), "error": error}, self._state)
                if step["action"] == "serve":
                    return self._serve()
            raise _raise(step) from None

    def jwks_for(self, token: str) -> Jwks:
        """The key set to verify ``token`` with: as :meth:`jwks`, fetched again once (at most once
        per cooldown) when it does not hold the token's ``kid``; raises EklError UNKNOWN_KID when
        the kid is still unknown or the refetch is declined (the message says when the set was
        refetched and when the next refetch may happen)."""
        jwks = self.jwks()
        tok = token if isinstance(token, str) else None
        with self._lock:
            step = _step({"on": "kid", "now": self._clock()}, self._state, jwks=jwks, token=tok)
            self._state = step["state"]
        if step["action"] == "serve":
            return jwks
        if step["action"] == "fail":
            raise _raise(step)
        try:
            jwks = self._fetch(step["timeout"])
        except EklError as e:
            raise _raise(_step({"on": "kid_failed", "error": {"code": e.code, "message": e.message}}, self._state)) from None
        step = _step({"on": "kid_fetched"}, self._state, jwks=jwks, token=tok)
        if step["action"] == "serve":
            return jwks
        raise _raise(step)

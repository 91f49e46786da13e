"""A network's key set fetched over HTTPS and cached (docs/decisions.md#remote-jwks).

Standard library only (``http.client``). The rules, the same as the JS package's ``RemoteJwks``
(one scenario file, tools/remote-jwks/scenarios.json, runs against both):

* the set is fetched on first use and cached for the response's ``Cache-Control: max-age``
  (``no-store``/``no-cache`` mean 0; without one, ``default_max_age``), clamped to
  [``cooldown``, 1 day]: the cooldown is the floor, so a server saying ``no-store`` cannot make
  every verification a fetch;
* a token whose ``kid`` the cached set does not hold triggers one refetch, at most once per
  ``cooldown`` seconds; when the kid is still unknown, or the refetch is declined,
  :meth:`RemoteJwks.jwks_for` raises :class:`EklError` ``UNKNOWN_KID`` saying when the set was
  refetched and when the next refetch may happen;
* one fetch is bounded by ``timeout`` seconds in all (a deadline over connect, status line,
  headers, redirects and body, however slowly the server sends them) and ``max_bytes``; a larger
  body, a non-2xx status, a redirect to another origin (https to http included), a network error
  or a body that is not a usable JWKS is a failed fetch; same-origin redirects are followed (at
  most 5);
* after a failed fetch no new attempt is made within ``cooldown``; the last good set keeps serving
  for at most ``max_stale`` seconds past its freshness (default 1 day), then, as when there is no
  good set, the call raises :class:`EklError` ``JWKS_UNAVAILABLE`` (messages name neither the
  URL's query nor the body);
* the body and a token's header are read as JSON does in JS: strict UTF-8 (one leading byte-order
  mark skipped), no ``NaN``/``Infinity``, nesting beyond what the key set allows is unusable;
* options out of range or of the wrong type, and a URL holding a user name or password, are
  ``INVALID_ARGUMENT`` at construction.

Thread-safe: a short lock guards the cache and is never held across network I/O. A fetch runs in
a daemon thread; concurrent callers that need a fetch wait for the one in progress (single flight),
each until its deadline; a caller with a fresh set never waits.
"""

from __future__ import annotations

import base64
import http.client
import json
import math
import re
import socket
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Optional

from ._errors import EklError

if TYPE_CHECKING:
    from ._native import Jwks

__all__ = ["RemoteJwks"]

_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:,|$)", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|=|$)", re.IGNORECASE)
_ONE_DAY = 86400.0
_MAX_REDIRECTS = 5
_REDIRECTS = (301, 302, 303, 307, 308)


def _max_age(cache_control: Optional[str], default: float) -> float:
    """The response's max-age in seconds (before the floor): 0 for no-store/no-cache, at most
    1 day, ``default`` without one."""
    if not cache_control:
        return default
    if _NO_CACHE.search(cache_control):
        return 0.0
    m = _MAX_AGE.search(cache_control)
    if not m:
        return default
    return min(float(m.group(1)), _ONE_DAY)


def _kids(jwks: Any) -> list[str]:
    kids = jwks.kids
    return list(kids() if callable(kids) else kids)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json(data: bytes) -> Any:
    """JSON as JS's ``JSON.parse(new TextDecoder('utf-8', {fatal: true}).decode(data))`` reads it:
    strict UTF-8, one leading byte-order mark skipped, no ``NaN``/``Infinity``. ValueError when it
    is not; RecursionError when it nests beyond the interpreter's limit."""
    return json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant)


def _token_kid(token: str) -> Optional[str]:
    """The ``kid`` of a compact JWS header, or None when it cannot be read (the verifier refuses)."""
    if not isinstance(token, str):
        return None
    head = token.split(".", 1)[0]
    if len(head) > 8192 or not re.fullmatch(r"[A-Za-z0-9_-]*", head):
        return None
    try:
        header = _json(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    kid = header.get("kid") if isinstance(header, dict) else None
    return kid if isinstance(kid, str) else None


def _number(name: str, value: Any, low: float, high: float, *, low_open: bool = False) -> float:
    """A finite real number in [low, high] (or (low, high]); bools and other types refused."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EklError("INVALID_ARGUMENT", f"RemoteJwks: {name} must be a number")
    try:
        v = float(value)
    except OverflowError:
        v = math.inf
    if not math.isfinite(v) or v > high or v < low or (low_open and v == low):
        where = f"({low:.0f}, {high:.0f}]" if low_open else f"[{low:.0f}, {high:.0f}]"
        raise EklError("INVALID_ARGUMENT", f"RemoteJwks: {name} must be a finite number in {where}")
    return v


def _port(url: urllib.parse.SplitResult) -> int:
    """The URL's port, defaulted by its scheme (always given to ``http.client``, which would
    otherwise read an IPv6 address's last group as the port)."""
    return url.port or (443 if url.scheme.lower() == "https" else 80)


def _host(url: urllib.parse.SplitResult) -> str:
    """The URL's host as the request connects to it: lowercase, an international name in its
    ASCII (IDNA) form, as WHATWG URLs write it."""
    host = (url.hostname or "").lower()
    return host if host.isascii() else host.encode("idna").decode("ascii")


def _origin(url: urllib.parse.SplitResult) -> tuple[str, str, int]:
    return (url.scheme.lower(), _host(url), _port(url))


# The characters a WHATWG URL writes as they are in a path and in a query (the rest, spaces and
# non-ASCII among them, percent-encoded as UTF-8), so a URL is requested as the JS package does.
_PATH_SAFE = "/%!$&'()*+,;=:@-._~[]|^`{}"
_QUERY_SAFE = "/%!$&'()*+,;=:@-._~[]|^`{}?\\"


def _target(url: urllib.parse.SplitResult) -> str:
    """The request target: the path and query, percent-encoded as a WHATWG URL does."""
    path = urllib.parse.quote(url.path or "/", safe=_PATH_SAFE)
    return path + ("?" + urllib.parse.quote(url.query, safe=_QUERY_SAFE) if url.query else "")


def _split(url: str) -> urllib.parse.SplitResult:
    parts = urllib.parse.urlsplit(url)
    parts.port  # noqa: B018 (raises ValueError for a bad port)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError("not an http(s) URL")
    _host(parts)  # raises UnicodeError (a ValueError) for a name IDNA cannot write
    return parts


def _unavailable(why: str) -> EklError:
    return EklError("JWKS_UNAVAILABLE", why)


class _Flight:
    """One fetch in progress, shared by every caller that needs it."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.done = threading.Event()
        self.result: Optional[tuple[Jwks, frozenset[str], Optional[str]]] = None
        self.error: Optional[EklError] = None
        self.aborted = False
        self.conn: Optional[http.client.HTTPConnection] = None
        self.guard = threading.Lock()

    def use(self, conn: http.client.HTTPConnection) -> None:
        with self.guard:
            if self.aborted:
                raise _unavailable("the key set timed out")
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
    (tests).

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
        if not isinstance(url, str) or not url.startswith(("https://", "http://")):
            raise EklError("INVALID_ARGUMENT", "url must be an http(s) URL (https in production)")
        try:
            parts = _split(url)
        except ValueError:
            raise EklError("INVALID_ARGUMENT", "url must be an http(s) URL (https in production)") from None
        if parts.username is not None or parts.password is not None:
            raise EklError("INVALID_ARGUMENT", "url must not hold a user name or password")
        self._timeout = _number("timeout", timeout, 0.0, 600.0, low_open=True)
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
            raise EklError("INVALID_ARGUMENT", "RemoteJwks: max_bytes must be an integer")
        if not 1 <= max_bytes <= 1 << 26:
            raise EklError("INVALID_ARGUMENT", "RemoteJwks: max_bytes must be an integer in [1, 67108864]")
        self._max_bytes = max_bytes
        self._cooldown = _number("cooldown", cooldown, 0.0, _ONE_DAY)
        self._default_max_age = _number("default_max_age", default_max_age, 0.0, _ONE_DAY)
        self._max_stale = _number("max_stale", max_stale, 0.0, 365 * _ONE_DAY)
        if not callable(clock):
            raise EklError("INVALID_ARGUMENT", "RemoteJwks: clock must be a function")
        self._url = url
        self._clock = clock
        self._lock = threading.Lock()  # short: never held across network I/O
        self._jwks: Optional[Jwks] = None  # the last good set
        self._all_kids: frozenset[str] = frozenset()  # every kid of its body, skipped keys too
        self._fresh_until = float("-inf")
        self._last_failure = float("-inf")
        self._last_error: Optional[EklError] = None
        self._last_kid_refetch = float("-inf")
        self._flight: Optional[_Flight] = None
        #: Number of fetches attempted (for tests and metrics).
        self.fetches = 0

    def __repr__(self) -> str:
        kids: list[str] = _kids(self._jwks) if self._jwks is not None else []
        return f"RemoteJwks({self._url.split('?', 1)[0]!r}, kids={kids!r})"

    # -- the download (in a worker thread, no lock held) ------------------------------------

    def _download(self, flight: _Flight) -> tuple[bytes, Optional[str]]:
        url = self._url
        first = _origin(_split(url))
        for _ in range(_MAX_REDIRECTS + 1):
            parts = _split(url)
            remaining = flight.deadline - time.monotonic()
            if remaining <= 0:
                raise _unavailable("the key set timed out")
            cls = http.client.HTTPSConnection if parts.scheme.lower() == "https" else http.client.HTTPConnection
            conn = cls(_host(parts), _port(parts), timeout=remaining)
            flight.use(conn)
            try:
                conn.request("GET", _target(parts), headers={"Accept": "application/json", "Connection": "close"})
                response = conn.getresponse()
                status = response.status
                if status in _REDIRECTS:
                    location = response.getheader("Location")
                    if not location:
                        raise _unavailable(f"the key set's server answered {status} without a Location")
                    try:
                        url = urllib.parse.urljoin(url, location.strip())
                        nxt = _origin(_split(url))
                    except ValueError:
                        raise _unavailable("the key set's server redirected to a URL that is not http(s)") from None
                    if first[0] == "https" and nxt[0] == "http":
                        raise _unavailable("the key set's server redirected from https to http (refused)")
                    if nxt != first:
                        raise _unavailable("the key set's server redirected to another origin (refused)")
                    continue
                if not 200 <= status < 300:
                    raise _unavailable(f"the key set's server answered {status}")
                cache_control = response.getheader("Cache-Control")
                chunks = []
                total = 0
                while True:
                    chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
                    if not chunk:
                        break
                    total += len(chunk)
                    if total > self._max_bytes:
                        raise _unavailable(f"the key set is larger than {self._max_bytes} bytes")
                    chunks.append(chunk)
                return b"".join(chunks), cache_control
            finally:
                conn.close()
        raise _unavailable(f"the key set's server redirected more than {_MAX_REDIRECTS} times")

    def _run(self, flight: _Flight) -> None:
        """The worker: one download, then the cache updated (under the short lock)."""
        from . import Jwks as JwksClass  # the package's class (imported late: no import cycle)

        result: Optional[tuple[Jwks, frozenset[str], Optional[str]]] = None
        error: Optional[EklError] = None
        try:
            body, cache_control = self._download(flight)
            try:
                value = _json(body)
            except ValueError:
                raise _unavailable("the fetched key set is not JSON") from None
            except RecursionError:  # deeper than the interpreter parses: far beyond the set's bound
                raise _unavailable("the fetched key set is not usable (INPUT_TOO_DEEP)") from None
            try:
                jwks = JwksClass(value)
            except EklError as e:
                raise _unavailable(f"the fetched key set is not usable ({e.code})") from None
            keys = value.get("keys") if isinstance(value, dict) else None
            every = frozenset(
                k["kid"] for k in (keys if isinstance(keys, list) else [])
                if isinstance(k, dict) and isinstance(k.get("kid"), str)
            )
            result = (jwks, every, cache_control)
        except EklError as e:
            error = e
        except (OSError, http.client.HTTPException, ValueError) as e:
            # The socket's own timeout (the time left at connect) may fire here before the caller's
            # wait ends the flight: that is the deadline too, and reads as such (issue 36: under
            # load the worker won that race and said "could not be fetched").
            timed_out = flight.aborted or isinstance(e, socket.timeout) or time.monotonic() >= flight.deadline
            error = _unavailable("the key set timed out" if timed_out else "the key set could not be fetched")
        except Exception:  # noqa: BLE001 (a worker must always finish its flight)
            error = _unavailable("the key set could not be fetched")
        try:
            self._finish(flight, result, error)
        except Exception:  # noqa: BLE001 (the clock failed: the flight ended all the same, and the callers' own clock calls raise it)
            pass

    def _finish(
        self,
        flight: _Flight,
        result: Optional[tuple[Jwks, frozenset[str], Optional[str]]],
        error: Optional[EklError],
    ) -> None:
        with self._lock:
            if self._flight is not flight:  # already ended by its deadline
                return
            self._flight = None
            try:
                now = self._clock()
                if result is not None:
                    jwks, every, cache_control = result
                    self._jwks = jwks
                    self._all_kids = every
                    age = max(self._cooldown, _max_age(cache_control, self._default_max_age))
                    self._fresh_until = now + age
                    self._last_failure = float("-inf")
                    self._last_error = None
                    flight.result = result
                else:
                    self._last_failure = now
                    self._last_error = error
            finally:  # whatever the clock does, no caller waits on this flight forever
                if flight.result is None:
                    flight.error = error or _unavailable("the key set could not be fetched")
                flight.done.set()

    def _fetch(self) -> Jwks:
        """The fetch in progress, or a new one; its set, or EklError JWKS_UNAVAILABLE."""
        with self._lock:
            flight = self._flight
            if flight is None:
                flight = self._flight = _Flight(time.monotonic() + self._timeout)
                self.fetches += 1
                threading.Thread(target=self._run, args=(flight,), name="ekl-remote-jwks", daemon=True).start()
        flight.done.wait(max(0.0, flight.deadline - time.monotonic()))
        if not flight.done.is_set():
            self._finish(flight, None, _unavailable("the key set timed out"))
            flight.abort()
            flight.done.wait()  # set by whoever finished it
        if flight.result is not None:
            return flight.result[0]
        assert flight.error is not None
        raise flight.error

    # -- the public API ---------------------------------------------------------------------

    def _usable(self, now: float) -> bool:
        return self._jwks is not None and now - self._fresh_until <= self._max_stale

    def _held_back(self, now: float) -> EklError:
        """Why no set is served within the cooldown after a failure."""
        base = self._last_error.message if self._last_error is not None else "the key set could not be fetched"
        wait = math.ceil(self._last_failure + self._cooldown - now)
        stale = " (the last good set is older than max_stale)" if self._jwks is not None else ""
        return _unavailable(f"{base}{stale}; the next attempt may happen in {wait} s")

    def jwks(self) -> Jwks:
        """The key set: the cached one while fresh, else fetched again; after a failed fetch the
        last good set keeps serving for up to ``max_stale`` past its freshness; raises EklError
        JWKS_UNAVAILABLE when there is none to serve."""
        with self._lock:
            now = self._clock()
            if self._jwks is not None and now < self._fresh_until:
                return self._jwks
            if now - self._last_failure < self._cooldown:  # no new attempt within the cooldown
                if self._usable(now):
                    assert self._jwks is not None
                    return self._jwks
                raise self._held_back(now)
        try:
            return self._fetch()
        except EklError as e:
            with self._lock:
                now = self._clock()
                if self._usable(now):
                    assert self._jwks is not None
                    return self._jwks
                if self._jwks is not None:
                    raise _unavailable(f"{e.message} (the last good set is older than max_stale)") from None
            raise

    def jwks_for(self, token: str) -> Jwks:
        """The key set to verify ``token`` with: as :meth:`jwks`, fetched again once (at most once
        per cooldown) when it does not hold the token's ``kid``; raises EklError UNKNOWN_KID when
        the kid is still unknown or the refetch is declined (the message says when the set was
        refetched and when the next refetch may happen)."""
        jwks = self.jwks()
        kid = _token_kid(token)
        if kid is None or kid in _kids(jwks):
            return jwks
        with self._lock:
            if kid in self._all_kids:  # a key of another kind: the verifier says UNSUPPORTED_KEY
                return jwks
            now = self._clock()
            if now - self._last_failure < self._cooldown:  # no new attempt within the cooldown
                raise EklError(
                    "UNKNOWN_KID",
                    f"kid is not in the key set, and the last fetch failed {math.floor(now - self._last_failure)} s ago; "
                    f"the next refetch may happen in {math.ceil(self._last_failure + self._cooldown - now)} s",
                )
            last = self._last_kid_refetch
            if now - last < self._cooldown:
                ago = math.floor(now - last)
                wait = math.ceil(last + self._cooldown - now)
                raise EklError(
                    "UNKNOWN_KID",
                    f"kid is not in the key set, refetched for an unknown kid {ago} s ago; "
                    f"the next refetch may happen in {wait} s",
                )
            self._last_kid_refetch = now
        try:
            jwks = self._fetch()
        except EklError as e:
            raise EklError(
                "UNKNOWN_KID",
                f"kid is not in the key set, and refetching it failed ({e.message}); "
                f"the next refetch may happen in {math.ceil(self._cooldown)} s",
            ) from None
        if kid in _kids(jwks) or kid in self._all_kids:
            return jwks
        raise EklError(
            "UNKNOWN_KID",
            f"kid is not in the key set, refetched just now; the next refetch may happen in {math.ceil(self._cooldown)} s",
        )

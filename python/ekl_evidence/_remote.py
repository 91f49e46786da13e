"""A network's key set fetched over HTTPS and cached (docs/decisions.md#remote-jwks).

Standard library only (``urllib.request``). The rules, the same as the JS package's
``RemoteJwks``:

* the set is fetched on first use and cached for the response's ``Cache-Control: max-age``
  (clamped to [0, 1 day]; ``no-store``/``no-cache`` mean 0; without one, ``default_max_age``);
* a token whose ``kid`` the cached set does not hold triggers one refetch, at most once per
  ``cooldown`` seconds (an attacker sending random kids cannot make it hammer the network);
* a response is read up to ``max_bytes`` (default 1 MiB) within ``timeout`` seconds; a larger
  body, a non-2xx status, a timeout, a network error or a body that is not a usable JWKS is a
  failed fetch;
* after a failed fetch the last good set keeps serving; with no good set yet the call raises
  :class:`EklError` ``JWKS_UNAVAILABLE`` (the message names neither the URL's query nor the body).

Thread-safe: one lock guards the cache and the fetch (fetches are rare and bounded by
``timeout``), so concurrent callers wait for the one fetch in progress instead of starting more.
"""

from __future__ import annotations

import base64
import json
import re
import threading
import time
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any, Callable, List, Optional

from ._errors import EklError

if TYPE_CHECKING:
    from ._native import Jwks

__all__ = ["RemoteJwks"]

_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:,|$)", re.IGNORECASE)
_NO_CACHE = re.compile(r"(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|=|$)", re.IGNORECASE)
_ONE_DAY = 86400.0


def _max_age(cache_control: Optional[str], default: float) -> float:
    if not cache_control:
        return default
    if _NO_CACHE.search(cache_control):
        return 0.0
    m = _MAX_AGE.search(cache_control)
    if not m:
        return default
    return min(float(m.group(1)), _ONE_DAY)


def _kids(jwks: Any) -> List[str]:
    kids = jwks.kids
    return list(kids() if callable(kids) else kids)


def _token_kid(token: str) -> Optional[str]:
    """The ``kid`` of a compact JWS header, or None when it cannot be read (the verifier refuses)."""
    if not isinstance(token, str):
        return None
    head = token.split(".", 1)[0]
    if len(head) > 8192:
        return None
    try:
        header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (ValueError, UnicodeDecodeError):
        return None
    kid = header.get("kid") if isinstance(header, dict) else None
    return kid if isinstance(kid, str) else None


class RemoteJwks:
    """A network's JWKS at ``url``, fetched when needed and cached.

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
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not isinstance(url, str) or not url.startswith(("https://", "http://")):
            raise EklError("INVALID_ARGUMENT", "url must be an http(s) URL (https in production)")
        self._url = url
        self._timeout = float(timeout)
        self._max_bytes = int(max_bytes)
        self._cooldown = float(cooldown)
        self._default_max_age = float(default_max_age)
        self._clock = clock
        self._lock = threading.Lock()
        self._jwks: Optional[Jwks] = None  # the last good set
        self._fresh_until = float("-inf")
        self._last_failure = float("-inf")
        self._last_kid_refetch = float("-inf")
        #: Number of fetches attempted (for tests and metrics).
        self.fetches = 0

    def __repr__(self) -> str:
        kids: List[str] = _kids(self._jwks) if self._jwks is not None else []
        return f"RemoteJwks({self._url.split('?', 1)[0]!r}, kids={kids!r})"

    def _fetch(self) -> "Jwks":
        """One fetch; on success the cache is replaced, on failure it is kept (EklError raised)."""
        from . import Jwks as JwksClass  # the package's class (imported late: no import cycle)

        self.fetches += 1
        request = urllib.request.Request(self._url, headers={"Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:
                status = getattr(response, "status", 200)
                if not 200 <= status < 300:
                    raise EklError("JWKS_UNAVAILABLE", f"the key set's server answered {status}")
                body = response.read(self._max_bytes + 1)
                cache_control = response.headers.get("Cache-Control")
        except EklError:
            raise
        except urllib.error.HTTPError as e:
            raise EklError("JWKS_UNAVAILABLE", f"the key set's server answered {e.code}") from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            kind = "timed out" if "timed out" in str(e) else "could not be fetched"
            raise EklError("JWKS_UNAVAILABLE", f"the key set {kind}") from None
        if len(body) > self._max_bytes:
            raise EklError("JWKS_UNAVAILABLE", f"the key set is larger than {self._max_bytes} bytes")
        try:
            jwks = JwksClass(json.loads(body))
        except EklError as e:
            raise EklError("JWKS_UNAVAILABLE", f"the fetched key set is not usable ({e.code})") from None
        except ValueError:
            raise EklError("JWKS_UNAVAILABLE", "the fetched key set is not JSON") from None
        self._jwks = jwks
        self._fresh_until = self._clock() + _max_age(cache_control, self._default_max_age)
        return jwks

    def _serve(self, error: EklError) -> "Jwks":
        if self._jwks is None:
            raise error
        return self._jwks

    def jwks(self) -> "Jwks":
        """The key set: the cached one while fresh, else fetched again (the last good set keeps
        serving when the fetch fails; raises EklError JWKS_UNAVAILABLE when there is none)."""
        with self._lock:
            now = self._clock()
            if self._jwks is not None and now < self._fresh_until:
                return self._jwks
            # A stale set whose refetch failed: retried at most once per cooldown.
            if self._jwks is not None and now - self._last_failure < self._cooldown:
                return self._jwks
            try:
                return self._fetch()
            except EklError as e:
                self._last_failure = self._clock()
                return self._serve(e)

    def jwks_for(self, token: str) -> "Jwks":
        """The key set to verify ``token`` with: as :meth:`jwks`, and fetched again once (at most
        once per cooldown) when it does not hold the token's ``kid``."""
        jwks = self.jwks()
        kid = _token_kid(token)
        if kid is None or kid in _kids(jwks):
            return jwks
        with self._lock:
            now = self._clock()
            if now - self._last_kid_refetch < self._cooldown:
                return self._jwks or jwks
            self._last_kid_refetch = now
            try:
                return self._fetch()
            except EklError:
                self._last_failure = self._clock()  # the last good set serves; UNKNOWN_KID
                return self._jwks or jwks

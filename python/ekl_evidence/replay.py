"""Single use of signed credentials: the replay guard and its stores (PROTOCOL §9.2, §3, §4).

A relationship assertion is single use: the provider "consumes ``jti`` atomically in shared
durable state keyed (issuer, token_endpoint, jti) and kept through ``exp`` + skew, across restarts
and replicas; a reuse is ``ASSERTION_REPLAY``" (§9.2). The platform call credential is single use
too (§3). The core keeps no state, so this module holds that state for Python hosts; the JS
package's ``ekl-evidence/replay`` has the same rules and codes (one scenario file,
tools/replay/scenarios.json, runs against both; docs/decisions.md#replay-guard)::

    guard = ReplayGuard(SqliteStore("replay.db"))
    guard.consume_assertion(claims["iss"], token_endpoint, claims["jti"],
                            iat=claims["iat"], exp=claims["exp"])

Call it after the credential verified (signature, ``aud``, times). A :class:`ReplayGuard`:

* keys each credential by SHA-256 of the canonical JSON array ``["ekl-replay-1", kind, issuer,
  audience, jti]`` (:func:`replay_key`): unambiguous, fixed length, the same in both languages;
* keeps it until ``exp`` + skew (60 s): the verifier refuses the token from then on;
* refuses a reuse with :class:`EklError` ``ASSERTION_REPLAY`` (relationship assertion) or
  ``CREDENTIAL_REPLAY`` (platform call credential); refuses, without consuming, a credential
  that is already expired (``TOKEN_EXPIRED``), issued in the future (``TOKEN_NOT_YET_VALID``) or
  living longer than its type allows (``LIFETIME_TOO_LONG``: 120 s, 60 s), so no entry is kept
  longer than 120 s + 2 × skew;
* after :meth:`ReplayGuard.record_restore` (a restore from an older backup was detected), for
  240 s (assertion lifetime plus twice the skew) refuses every credential whose ``iat`` is
  earlier than that moment plus the skew (§9.2): the moment is kept in the store, so the rule
  holds across restarts and on every replica sharing it;
* fails closed: a store that cannot answer is ``REPLAY_STORE_UNAVAILABLE`` (the cause chained),
  a full :class:`MemoryStore` is ``REPLAY_STORE_FULL``.

Stores: :class:`MemoryStore` (one process, bounded), :class:`SqliteStore` (durable across
restarts: the embedded default, standard library only), :class:`RedisStore` (shared by replicas:
one ``SET key 1 NX PX ttl``, over a redis-py client). Any object with the three methods of
:class:`ReplayStore` serves. All are thread-safe.
"""

from __future__ import annotations

import datetime
import heapq
import inspect
import math
import sqlite3
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Union

from ._api import canonicalize_value, sha256_hex
from ._errors import EklError, ErrorCode

if TYPE_CHECKING:
    import os

__all__ = [
    "ASSERTION_MAX_LIFETIME",
    "PLATFORM_CALL_MAX_LIFETIME",
    "RESTORE_WINDOW",
    "SKEW",
    "MemoryStore",
    "RedisStore",
    "ReplayGuard",
    "ReplayStore",
    "SqliteStore",
    "replay_key",
]

#: The clock skew EKP allows (§9.2), seconds: an entry is kept until ``exp`` + this.
SKEW = 60
#: The longest a relationship assertion may live (``exp - iat``, §9.1), seconds.
ASSERTION_MAX_LIFETIME = 120
#: The longest a platform call credential may live (§3), seconds.
PLATFORM_CALL_MAX_LIFETIME = 60
#: How long after a detected restore old credentials are refused (assertion lifetime plus twice
#: the skew, §9.2), seconds, with the default skew.
RESTORE_WINDOW = ASSERTION_MAX_LIFETIME + 2 * SKEW

#: The kinds of single-use credential: (key name, lifetime bound, the code of a reuse).
_KINDS: dict[str, tuple[int, ErrorCode]] = {
    "relationship_assertion": (ASSERTION_MAX_LIFETIME, "ASSERTION_REPLAY"),
    "platform_call": (PLATFORM_CALL_MAX_LIFETIME, "CREDENTIAL_REPLAY"),
}
_KEY_VERSION = "ekl-replay-1"
_MAX_TIME = 2**53
#: Times from here on are milliseconds given as seconds (the bound of every surface's ``now``).
_MILLISECONDS_FROM = 10**11


class ReplayStore(Protocol):
    """What a store does for :class:`ReplayGuard` (times are integer milliseconds).

    ``add`` must be atomic: of concurrent calls for one key, at most one returns True while an
    earlier entry is unexpired, across every process sharing the store.
    """

    def add(self, key: str, expires_at: int, now: int) -> bool:
        """Records ``key`` until ``expires_at`` (exclusive) and returns True, unless it is
        already recorded and unexpired (``expires_at > now``): then False, nothing changed."""
        ...

    def restore_moment(self, now: int) -> Optional[int]:
        """The latest restore moment recorded and still kept at ``now``, or None."""
        ...

    def record_restore(self, at: int, until: int, now: int) -> None:
        """Records a restore detected at ``at``, kept until ``until``; a later moment already
        recorded stays (the latest wins)."""
        ...


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if not value:
        raise EklError("INVALID_ARGUMENT", f"{name} must not be empty")
    return value


def _time(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int (seconds since the epoch), not {type(value).__name__}")
    if not -_MAX_TIME <= value <= _MAX_TIME:
        raise EklError("INVALID_ARGUMENT", f"{name} must be within ±2^53")
    return value


def _now(value: Any, clock: Callable[[], float]) -> float:
    """``now`` in seconds since the epoch (the clock's for None; an aware datetime's timestamp),
    as a float: the guard keeps milliseconds. Milliseconds given as seconds are refused, as on
    every surface (10^11 s is the year 5138)."""
    if value is None:
        value = clock()
    if isinstance(value, datetime.datetime):
        if value.utcoffset() is None:
            raise EklError("INVALID_ARGUMENT", "now is a naive datetime (give it a tzinfo, e.g. UTC)")
        value = value.timestamp()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"now must be a number of seconds or an aware datetime, not {type(value).__name__}")
    if (isinstance(value, float) and not math.isfinite(value)) or not -_MAX_TIME <= value <= _MAX_TIME:
        raise EklError("INVALID_ARGUMENT", "now must be a finite number of seconds within ±2^53")
    if abs(value) >= _MILLISECONDS_FROM:
        raise EklError("INVALID_ARGUMENT", "now must be seconds since the epoch, not milliseconds (time.time())")
    return float(value)


def replay_key(kind: str, issuer: str, audience: str, jti: str) -> str:
    """The store key of a credential: lowercase hex SHA-256 of the ekl-json-1 array
    ``["ekl-replay-1", kind, issuer, audience, jti]``. ``kind`` is ``relationship_assertion``
    or ``platform_call``. A lone surrogate is ``LONE_SURROGATE``, as everywhere."""
    if kind not in _KINDS:
        raise EklError("INVALID_ARGUMENT", "kind must be relationship_assertion or platform_call")
    parts = [_text("issuer", issuer), _text("audience", audience), _text("jti", jti)]
    return sha256_hex(canonicalize_value([_KEY_VERSION, kind, *parts]))


class ReplayGuard:
    """Consumes single-use credentials in a :class:`ReplayStore` (module docs).

    Arguments:
        store: where consumed ``jti`` are kept (:class:`MemoryStore`, :class:`SqliteStore`,
            :class:`RedisStore` or your own).
        skew: the clock skew in seconds, an int in [0, 300] (default 60, §9.2); every replica
            sharing a store must use the same.
        clock: seconds since the epoch (default ``time.time``), used when ``now`` is left out.
    """

    def __init__(self, store: ReplayStore, *, skew: int = SKEW, clock: Callable[[], float] = time.time) -> None:
        for method in ("add", "restore_moment", "record_restore"):
            if not callable(getattr(store, method, None)):
                raise TypeError(f"store must have a method {method}()")
        if isinstance(skew, bool) or not isinstance(skew, int):
            raise TypeError("skew must be an int (seconds)")
        if not 0 <= skew <= 300:
            raise EklError("INVALID_ARGUMENT", "skew must be in [0, 300] seconds")
        if not callable(clock):
            raise TypeError("clock must be callable")
        self._store = store
        self._skew = skew
        self._clock = clock

    @property
    def restore_window(self) -> int:
        """Seconds after a detected restore during which old credentials are refused:
        120 + 2 × skew (240 with the default skew)."""
        return ASSERTION_MAX_LIFETIME + 2 * self._skew

    def consume_assertion(
        self, issuer: str, token_endpoint: str, jti: str, *, iat: int, exp: int, now: Union[float, datetime.datetime, None] = None
    ) -> None:
        """Consumes a verified relationship assertion (§9.2), keyed (issuer, token_endpoint, jti).

        Raises:
            EklError: ``ASSERTION_REPLAY`` for a reuse, or for an assertion issued before a
                recorded restore (within the window); ``TOKEN_EXPIRED``, ``TOKEN_NOT_YET_VALID``,
                ``LIFETIME_TOO_LONG`` (over 120 s), ``INVALID_ARGUMENT``, ``LONE_SURROGATE``;
                ``REPLAY_STORE_FULL``, ``REPLAY_STORE_UNAVAILABLE``. A refused assertion that was
                not a reuse is not consumed.
            TypeError: an argument of the wrong type.
        """
        self._consume("relationship_assertion", issuer, token_endpoint, jti, iat, exp, now)

    def consume_platform_call(
        self, issuer: str, audience: str, jti: str, *, iat: int, exp: int, now: Union[float, datetime.datetime, None] = None
    ) -> None:
        """Consumes a verified platform call credential (§3, §4), keyed (issuer, audience, jti):
        ``audience`` is the credential's ``aud`` you checked, or your agent's own endpoint.

        Raises:
            EklError: ``CREDENTIAL_REPLAY`` for a reuse, or for a credential issued before a
                recorded restore (within the window); otherwise as :meth:`consume_assertion`
                (``LIFETIME_TOO_LONG`` over 60 s).
            TypeError: an argument of the wrong type.
        """
        self._consume("platform_call", issuer, audience, jti, iat, exp, now)

    def record_restore(self, *, now: Union[float, datetime.datetime, None] = None) -> None:
        """Records that this provider's state was restored from an older backup, detected at
        ``now`` (default: the clock). For :attr:`restore_window` seconds after it every
        credential whose ``iat`` is earlier than ``now`` + skew is refused, on every guard
        sharing the store, across restarts.

        Raises:
            EklError: ``REPLAY_STORE_UNAVAILABLE`` when the store cannot record it.
        """
        t = _now(now, self._clock)
        at = math.floor(t * 1000)
        self._call(self._store.record_restore, at, at + self.restore_window * 1000, at)

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        try:
            answer = method(*args)
        except EklError:
            raise
        except Exception as e:  # noqa: BLE001 (any failure of the store: fail closed)
            raise EklError("REPLAY_STORE_UNAVAILABLE", f"the replay store failed ({type(e).__name__})") from e
        if inspect.isawaitable(answer):  # an async store: its answer is not known here (fail closed)
            close = getattr(answer, "close", None)
            if callable(close):
                close()
            raise EklError(
                "REPLAY_STORE_UNAVAILABLE", "the replay store answered with an awaitable: ReplayGuard needs a synchronous store"
            )
        return answer

    def _consume(self, kind: str, issuer: Any, audience: Any, jti: Any, iat: Any, exp: Any, now: Any) -> None:
        max_lifetime, replay = _KINDS[kind]
        key = replay_key(kind, issuer, audience, jti)
        iat = _time("iat", iat)
        exp = _time("exp", exp)
        t = _now(now, self._clock)
        skew = self._skew
        if exp < iat:
            raise EklError("INVALID_ARGUMENT", "exp must not be before iat")
        if t >= exp + skew:
            raise EklError("TOKEN_EXPIRED", "the token expired: nothing to consume")
        if iat > t + skew:
            raise EklError("TOKEN_NOT_YET_VALID", "iat is in the future beyond the skew")
        if exp - iat > max_lifetime:
            raise EklError("LIFETIME_TOO_LONG", f"exp - iat exceeds {max_lifetime} s")
        now_ms = math.floor(t * 1000)
        restored = self._call(self._store.restore_moment, now_ms)
        if restored is not None and now_ms < restored + self.restore_window * 1000 and iat * 1000 < restored + skew * 1000:
            raise EklError(replay, "issued before a restore from backup: refused for the window after it")
        if not self._call(self._store.add, key, (exp + skew) * 1000, now_ms):
            raise EklError(replay, "this jti was already used")


class MemoryStore:
    """Consumed ``jti`` in this process's memory: for one process, lost at exit.

    Bounded: at most ``max_entries`` unexpired entries (default 100 000, about 25 MB in CPython:
    each key is 64 hex characters whatever the token). Expired entries are purged on every
    ``add``; when the store still holds ``max_entries`` unexpired entries, a new credential is
    refused with ``REPLAY_STORE_FULL`` and not consumed (fail closed: an unexpired ``jti`` is
    never forgotten, which would allow a replay). Thread-safe.
    """

    def __init__(self, max_entries: int = 100_000) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int):
            raise TypeError("max_entries must be an int")
        if not 1 <= max_entries <= 100_000_000:
            raise EklError("INVALID_ARGUMENT", "max_entries must be in [1, 100000000]")
        self.max_entries = max_entries
        self._entries: dict[str, int] = {}
        self._expiries: list[tuple[int, str]] = []
        self._restore: Optional[tuple[int, int]] = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """The entries held (expired ones not yet purged included)."""
        return len(self._entries)

    def _purge(self, now: int) -> None:
        while self._expiries and self._expiries[0][0] <= now:
            expires, key = heapq.heappop(self._expiries)
            if self._entries.get(key) == expires:
                del self._entries[key]

    def add(self, key: str, expires_at: int, now: int) -> bool:
        with self._lock:
            self._purge(now)
            if key in self._entries:  # unexpired: the purge removed every expired entry
                return False
            if len(self._entries) >= self.max_entries:
                raise EklError(
                    "REPLAY_STORE_FULL", f"the memory store holds {self.max_entries} unexpired entries (max_entries)"
                )
            self._entries[key] = expires_at
            heapq.heappush(self._expiries, (expires_at, key))
            return True

    def restore_moment(self, now: int) -> Optional[int]:
        with self._lock:
            r = self._restore
            return r[0] if r is not None and r[1] > now else None

    def record_restore(self, at: int, until: int, now: int) -> None:
        with self._lock:
            r = self._restore
            self._restore = (at, until) if r is None or r[1] <= now else (max(r[0], at), max(r[1], until))


class SqliteStore:
    """Consumed ``jti`` in an SQLite file (standard library ``sqlite3``): durable across
    restarts, shared by the processes of one host that open the same file.

    One table ``ekl_replay(key PRIMARY KEY, expires_at)``; ``add`` is one atomic statement
    (``INSERT … ON CONFLICT(key) DO UPDATE … WHERE expires_at <= now``: inserts, or takes over an
    expired entry, or changes nothing). WAL journal, ``synchronous=FULL`` (a consumed ``jti``
    survives a crash once ``add`` returned), ``busy_timeout`` of ``timeout`` seconds. Expired
    rows are purged at most once a minute. Thread-safe (one connection behind a lock).
    """

    _SCHEMA = (
        "CREATE TABLE IF NOT EXISTS ekl_replay (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE INDEX IF NOT EXISTS ekl_replay_expires ON ekl_replay (expires_at)",
        "CREATE TABLE IF NOT EXISTS ekl_replay_restore "
        "(id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL, until INTEGER NOT NULL)",
    )
    _ADD = (
        "INSERT INTO ekl_replay (key, expires_at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE "
        "SET expires_at = excluded.expires_at WHERE ekl_replay.expires_at <= ?"
    )
    _RECORD = (
        "INSERT INTO ekl_replay_restore (id, at, until) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE "
        "SET at = CASE WHEN ekl_replay_restore.until <= ? THEN excluded.at ELSE max(ekl_replay_restore.at, excluded.at) END, "
        "until = CASE WHEN ekl_replay_restore.until <= ? THEN excluded.until ELSE max(ekl_replay_restore.until, excluded.until) END"
    )

    def __init__(self, path: Union[str, os.PathLike[str]], *, timeout: float = 5.0) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number of seconds")
        if not 0 <= timeout <= 600:
            raise EklError("INVALID_ARGUMENT", "timeout must be in [0, 600] seconds")
        try:
            conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise EklError("REPLAY_STORE_UNAVAILABLE", "cannot open the SQLite replay store") from e
        self._conn = conn
        self._lock = threading.Lock()
        self._purged_at: Optional[int] = None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            for statement in self._SCHEMA:
                conn.execute(statement)
        except sqlite3.Error as e:
            conn.close()
            raise EklError("REPLAY_STORE_UNAVAILABLE", "cannot prepare the SQLite replay store") from e

    def add(self, key: str, expires_at: int, now: int) -> bool:
        with self._lock:
            if self._purged_at is None or now - self._purged_at >= 60_000 or now < self._purged_at:
                self._conn.execute("DELETE FROM ekl_replay WHERE expires_at <= ?", (now,))
                self._purged_at = now
            return self._conn.execute(self._ADD, (key, expires_at, now)).rowcount == 1

    def restore_moment(self, now: int) -> Optional[int]:
        with self._lock:
            row = self._conn.execute("SELECT at, until FROM ekl_replay_restore WHERE id = 1").fetchone()
        return int(row[0]) if row is not None and row[1] > now else None

    def record_restore(self, at: int, until: int, now: int) -> None:
        with self._lock:
            self._conn.execute(self._RECORD, (at, until, now, now))

    def close(self) -> None:
        """Closes the connection (later calls are ``REPLAY_STORE_UNAVAILABLE``)."""
        with self._lock:
            self._conn.close()


class RedisStore:
    """Consumed ``jti`` in Redis: shared by every replica that uses the same server.

    ``add`` is one command, ``SET prefix+key 1 NX PX ttl`` (set if absent, with its expiry, in
    one step: Redis drops the key at ``exp`` + skew). The restore moment is the key
    ``prefix + "restore"``. ``client`` is a redis-py ``Redis`` (or anything with its ``set(name,
    value, nx=, px=)`` and ``get(name)``; ``pip install "ekl-evidence[redis]"``). Give it a
    ``socket_timeout``: a store that does not answer is ``REPLAY_STORE_UNAVAILABLE`` only once
    the client gives up. For durability across a Redis restart, run Redis with ``appendonly yes``
    and ``appendfsync always``.
    """

    def __init__(self, client: Any, *, prefix: str = "ekl:replay:") -> None:
        for method in ("set", "get"):
            if not callable(getattr(client, method, None)):
                raise TypeError(f"client must have a method {method}() (a redis-py client)")
        if not isinstance(prefix, str):
            raise TypeError("prefix must be a str")
        self._client = client
        self.prefix = prefix

    def add(self, key: str, expires_at: int, now: int) -> bool:
        ttl = expires_at - now
        if ttl <= 0:
            return True  # already expired: nothing to keep (the guard never asks this)
        return bool(self._client.set(self.prefix + key, b"1", nx=True, px=ttl))

    def restore_moment(self, now: int) -> Optional[int]:
        value = self._client.get(self.prefix + "restore")
        if value is None:
            return None
        return int(value.decode("ascii") if isinstance(value, (bytes, bytearray)) else value)

    def record_restore(self, at: int, until: int, now: int) -> None:
        current = self.restore_moment(now)
        if current is not None and current >= at:
            return
        ttl = until - now
        if ttl > 0:
            self._client.set(self.prefix + "restore", str(at).encode("ascii"), px=ttl)

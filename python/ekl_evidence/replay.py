"""Single use of signed credentials: the replay guard and its stores (PROTOCOL §9.2, §3, §4).

A relationship assertion is single use (§9.2: ``jti`` consumed atomically in shared durable state
keyed (issuer, token_endpoint, jti), kept through ``exp`` + skew; a reuse is
``ASSERTION_REPLAY``), and so is the platform call credential (§3: ``CREDENTIAL_REPLAY``). The
rules are the core's, the same on every surface (``ekl_core::replay`` through the registry's
``replay_admit``, ``replay_answer``, ``replay_restore``, ``replay_key``; the SQL and Redis
commands are the manifest's constant ``replay``). This module only drives them: the clock and
the stores (docs/decisions.md#replay-guard)::

    guard = ReplayGuard(SqliteStore("replay.db"))
    guard.consume_assertion(claims["iss"], token_endpoint, claims["jti"],
                            iat=claims["iat"], exp=claims["exp"])

Call it after the credential verified. A refused credential that is not a reuse is not consumed;
:meth:`ReplayGuard.record_restore` records a restore from an older backup in the store (§9.2);
a store that cannot answer within its deadline is ``REPLAY_STORE_UNAVAILABLE`` (fail closed).
Stores: :class:`MemoryStore` (one process, bounded), :class:`SqliteStore` (durable, the embedded
default), :class:`RedisStore` (shared by replicas), or any object with the methods of
:class:`ReplayStore`. All are thread-safe.
"""

from __future__ import annotations

import datetime
import heapq
import inspect
import json
import math
import sqlite3
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Union

from . import _native
from ._api import replay_admit, replay_answer, replay_key, replay_restore
from ._errors import EklError

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

#: The manifest's constant ``replay`` (ekl_core::replay::constants): bounds, SQL, Redis commands.
_C: dict[str, Any] = next(c["value"] for c in json.loads(_native.operations())["constants"] if c["name"] == "replay")
_SQL: dict[str, Any] = _C["sqlite"]
_REDIS: dict[str, Any] = _C["redis"]

#: The clock skew EKP allows (§9.2), seconds: an entry is kept until ``exp`` + this.
SKEW: int = _C["skew"]
#: The longest a relationship assertion may live (``exp - iat``, §9.1), seconds.
ASSERTION_MAX_LIFETIME: int = _C["assertion_max_lifetime"]
#: The longest a platform call credential may live (§3), seconds.
PLATFORM_CALL_MAX_LIFETIME: int = _C["platform_call_max_lifetime"]
#: How long after a detected restore old credentials are refused (assertion lifetime plus twice
#: the skew, §9.2), seconds, with the default skew.
RESTORE_WINDOW: int = _C["restore_window"]


class ReplayStore(Protocol):
    """What a store does for :class:`ReplayGuard` (times are integer milliseconds; the contract
    of ``ekl_core::replay``): ``add`` is atomic across every process sharing the store, and an
    entry expires against the store's high-water mark, not one call's ``now``. Optional: a method
    ``reset_mark(now)`` setting the mark (and the previous ``now``) to ``now``, which
    :meth:`ReplayGuard.reset_mark` needs (the package's stores have it)."""

    def add(self, key: str, expires_at: int, now: int) -> bool:
        """Records ``key`` until ``expires_at`` (exclusive): True, unless it is recorded and
        unexpired or ``expires_at`` is not after the latest ``now`` seen (False, no change)."""
        ...

    def restore_moment(self, now: int) -> Optional[int]:
        """The latest restore moment recorded and still kept at ``now``, or None."""
        ...

    def record_restore(self, at: int, until: int, now: int) -> None:
        """Records a restore detected at ``at``, kept until ``until`` (the latest moment wins)."""
        ...


def _ms(value: Any, clock: Callable[[], float]) -> int:
    """``now`` (seconds or an aware datetime; None: the clock) as the core's integer
    milliseconds (NaN and ±inf have none; the other rules on it are the core's)."""
    if value is None:
        value = clock()
    if isinstance(value, datetime.datetime):
        if value.utcoffset() is None:
            raise EklError("INVALID_ARGUMENT", "now is a naive datetime (give it a tzinfo, e.g. UTC)")
        value = value.timestamp()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"now must be a number of seconds or an aware datetime, not {type(value).__name__}")
    if isinstance(value, int):
        return value * 1000
    if not math.isfinite(value):
        raise EklError("INVALID_ARGUMENT", "now must be a finite number of seconds")
    return math.floor(value * 1000)


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
        if not callable(clock):
            raise TypeError("clock must be callable")
        self._window: int = replay_restore(0, skew=skew)["window"]  # the core checks the skew
        self._store = store
        self._skew = skew
        self._clock = clock

    @property
    def restore_window(self) -> int:
        """Seconds after a detected restore during which old credentials are refused:
        120 + 2 × skew (240 with the default skew)."""
        return self._window

    def consume_assertion(
        self, issuer: str, token_endpoint: str, jti: str, *, iat: int, exp: int, now: Union[float, datetime.datetime, None] = None
    ) -> None:
        """Consumes a verified relationship assertion (§9.2), keyed (issuer, token_endpoint, jti).

        Raises:
            EklError: ``ASSERTION_REPLAY`` (a reuse, or issued before a recorded restore within
                its window), ``TOKEN_EXPIRED``, ``TOKEN_NOT_YET_VALID``, ``LIFETIME_TOO_LONG``,
                ``INVALID_ARGUMENT``, ``LONE_SURROGATE``, ``REPLAY_STORE_FULL``,
                ``REPLAY_STORE_UNAVAILABLE``.
            TypeError: an argument of the wrong type.
        """
        self._consume("relationship_assertion", issuer, token_endpoint, jti, iat, exp, now)

    def consume_platform_call(
        self, issuer: str, audience: str, jti: str, *, iat: int, exp: int, now: Union[float, datetime.datetime, None] = None
    ) -> None:
        """Consumes a verified platform call credential (§3, §4), keyed (issuer, audience, jti)
        (``audience``: the ``aud`` you checked, or your agent's endpoint). Raises as
        :meth:`consume_assertion`, a reuse being ``CREDENTIAL_REPLAY``."""
        self._consume("platform_call", issuer, audience, jti, iat, exp, now)

    def record_restore(self, *, now: Union[float, datetime.datetime, None] = None) -> None:
        """Records a restore of this provider's state from an older backup, detected at ``now``
        (default: the clock): for :attr:`restore_window` seconds every credential whose ``iat``
        is before ``now`` + skew is refused, by every guard sharing the store. Raises
        ``INVALID_ARGUMENT`` (a bad ``now``), ``REPLAY_STORE_UNAVAILABLE``."""
        r = replay_restore(_ms(now, self._clock), skew=self._skew)
        self._call(self._store.record_restore, r["at_ms"], r["until_ms"], r["now_ms"])

    def reset_mark(self, *, now: Union[float, datetime.datetime, None] = None) -> None:
        """Resets the store's high-water mark to ``now`` (default: the clock), after a wrong clock
        moved it ahead (every credential then refused with the replay code until the real clock
        reaches it). The entries the wrong mark purged are lost, so a restore is recorded at
        ``now`` too (:meth:`record_restore`): for :attr:`restore_window` seconds every credential
        issued before ``now`` + skew is refused, then the store is as before the wrong clock.
        Run it once, from a replica whose clock is right. Raises ``INVALID_ARGUMENT`` (a bad
        ``now``), ``REPLAY_STORE_UNAVAILABLE``; TypeError when the store has no ``reset_mark``."""
        reset = getattr(self._store, "reset_mark", None)
        if not callable(reset):
            raise TypeError("store must have a method reset_mark() to be reset")
        r = replay_restore(_ms(now, self._clock), skew=self._skew)
        self._call(reset, r["now_ms"])
        self._call(self._store.record_restore, r["at_ms"], r["until_ms"], r["now_ms"])

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
        # The core's machine: admitted (or refused, not consumed), then the store's restore
        # moment, then its add, each answer judged by the core.
        a = replay_admit(kind, issuer, audience, jti, iat, exp, _ms(now, self._clock), skew=self._skew)
        replay_answer(a, restore_moment=self._call(self._store.restore_moment, a["now_ms"]))
        replay_answer(a, added=bool(self._call(self._store.add, a["key"], a["expires_at_ms"], a["now_ms"])))


class MemoryStore:
    """Consumed ``jti`` in this process's memory (lost at exit), at most ``max_entries``
    unexpired ones (default 100 000, about 25 MB): past it a new credential is
    ``REPLAY_STORE_FULL`` and not consumed (an unexpired ``jti`` is never evicted). Entries
    expired at the high-water mark (the latest ``now`` seen, one ``now`` moving it at most
    ``mark_step_ms`` past the previous one: the core's rule) are purged on every ``add``."""

    def __init__(self, max_entries: int = _C["memory_max_entries"]) -> None:
        if isinstance(max_entries, bool) or not isinstance(max_entries, int):
            raise TypeError("max_entries must be an int")
        if not 1 <= max_entries <= _C["memory_max_entries_limit"]:
            raise EklError("INVALID_ARGUMENT", f"max_entries must be in [1, {_C['memory_max_entries_limit']}]")
        self.max_entries = max_entries
        self._entries: dict[str, int] = {}
        self._expiries: list[tuple[int, str]] = []
        self._seen: Optional[int] = None  # the high-water mark (ekl_core::replay::raise_mark)
        self._last: Optional[int] = None  # the previous now given to add
        self._restore: Optional[tuple[int, int]] = None
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """The entries held (expired ones not yet purged included)."""
        return len(self._entries)

    def add(self, key: str, expires_at: int, now: int) -> bool:
        with self._lock:
            if self._seen is None or self._last is None:
                seen = now
            else:
                seen = max(self._seen, min(now, self._last + _C["mark_step_ms"]))
            self._seen, self._last = seen, now
            while self._expiries and self._expiries[0][0] <= seen:
                expires, k = heapq.heappop(self._expiries)
                if self._entries.get(k) == expires:
                    del self._entries[k]
            if key in self._entries or expires_at <= seen:
                return False
            if len(self._entries) >= self.max_entries:
                raise EklError("REPLAY_STORE_FULL", f"the memory store holds {self.max_entries} unexpired entries (max_entries)")
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

    def reset_mark(self, now: int) -> None:
        with self._lock:
            self._seen = self._last = now


class SqliteStore:
    """Consumed ``jti`` in an SQLite file (standard library ``sqlite3``): durable, shared by
    the processes (Python or Node) that open it. The core's schema and statements (the
    manifest's ``replay.sqlite``: WAL, ``synchronous=FULL``, one atomic statement per ``add``);
    ``timeout`` seconds of ``busy_timeout`` is each call's deadline. One connection behind a lock."""

    def __init__(self, path: Union[str, os.PathLike[str]], *, timeout: float = _C["timeout_ms"] / 1000) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number of seconds")
        if not 0 <= timeout <= _C["timeout_ms_limit"] / 1000:
            raise EklError("INVALID_ARGUMENT", "timeout must be in [0, 600] seconds")
        try:
            conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise EklError("REPLAY_STORE_UNAVAILABLE", "cannot open the SQLite replay store") from e
        self._conn = conn
        self._lock = threading.Lock()
        self._purged_at: Optional[int] = None
        try:
            for statement in [f"PRAGMA busy_timeout = {int(timeout * 1000)}", *_SQL["pragmas"], *_SQL["schema"]]:
                conn.execute(statement)
        except sqlite3.Error as e:
            conn.close()
            raise EklError("REPLAY_STORE_UNAVAILABLE", "cannot prepare the SQLite replay store") from e

    def _run(self, name: str, **values: Any) -> sqlite3.Cursor:
        statement = _SQL[name]
        return self._conn.execute(statement["sql"], [values[p] for p in statement["params"]])

    def add(self, key: str, expires_at: int, now: int) -> bool:
        with self._lock:
            self._run("see", now=now)
            self._run("last", now=now)
            if self._purged_at is None or not 0 <= now - self._purged_at < _C["purge_every_ms"]:
                self._run("purge")
                self._purged_at = now
            return self._run("add", key=key, expires_at=expires_at, now=now).rowcount == 1

    def restore_moment(self, now: int) -> Optional[int]:
        with self._lock:
            row = self._run("restore_read", now=now).fetchone()
        return None if row is None else int(row[0])

    def record_restore(self, at: int, until: int, now: int) -> None:
        with self._lock:
            self._run("restore_record", at=at, until=until, now=now)

    def reset_mark(self, now: int) -> None:
        with self._lock:
            self._run("reset_mark", now=now)
            self._run("reset_last", now=now)

    def close(self) -> None:
        """Closes the connection (later calls are ``REPLAY_STORE_UNAVAILABLE``)."""
        with self._lock:
            self._conn.close()


#: Store calls waiting on a worker thread at most (a hung server holds them).
_WAITING = threading.BoundedSemaphore(64)


def _within(timeout: float, f: Callable[[], Any]) -> Any:
    """``f()`` on a daemon thread, within ``timeout`` seconds or ``REPLAY_STORE_UNAVAILABLE``
    (a redis-py client without ``socket_timeout`` waits forever on a stopped server)."""
    if not _WAITING.acquire(blocking=False):
        raise EklError("REPLAY_STORE_UNAVAILABLE", "too many replay store calls are waiting for an answer")
    done = threading.Event()
    out: list[Any] = []

    def run() -> None:
        try:
            out.append((True, f()))
        except BaseException as e:  # noqa: BLE001 (handed to the caller)
            out.append((False, e))
        finally:
            _WAITING.release()
            done.set()

    threading.Thread(target=run, name="ekl-replay-store", daemon=True).start()
    if not done.wait(timeout):
        raise EklError("REPLAY_STORE_UNAVAILABLE", f"the replay store did not answer within {timeout} s")
    ok, value = out[0]
    if not ok:
        raise value
    return value


class RedisStore:
    """Consumed ``jti`` in Redis, shared by replicas: the core's commands (the manifest's
    ``replay.redis``: one script per ``add``, ``EVAL``, keeping the entries in the sorted set
    ``prefix + "entries"`` and the high-water mark in the hash ``prefix + "clock"``, so that no
    clock shortens an entry; a Redis Cluster needs a hash tag in the prefix, e.g.
    ``"{ekl:replay}:"``) sent with ``client.execute_command`` of a redis-py client
    (``pip install "ekl-evidence[redis]"``), each within ``timeout`` seconds (default 5) or
    ``REPLAY_STORE_UNAVAILABLE``; give the client a ``socket_timeout`` too. Only the status reply
    ``OK`` counts as added. Durable across a crash with ``appendonly yes``, ``appendfsync always``."""

    def __init__(self, client: Any, *, prefix: str = "ekl:replay:", timeout: float = _C["timeout_ms"] / 1000) -> None:
        if not callable(getattr(client, "execute_command", None)):
            raise TypeError("client must have a method execute_command() (a redis-py client)")
        if not isinstance(prefix, str):
            raise TypeError("prefix must be a str")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number of seconds")
        if not 0 < timeout <= _C["timeout_ms_limit"] / 1000:
            raise EklError("INVALID_ARGUMENT", "timeout must be in (0, 600] seconds")
        self._client = client
        self.prefix = prefix
        self.timeout = timeout

    def _command(self, command: list[str], **values: Any) -> Any:
        args = [str(values[part[1:-1]]) if part.startswith("{") else part for part in command]
        return _within(self.timeout, lambda: self._client.execute_command(*args))

    def add(self, key: str, expires_at: int, now: int) -> bool:
        reply = self._command(_REDIS["add"], entries=self.prefix + _REDIS["entries_key"],
                              clock=self.prefix + _REDIS["clock_key"], key=key, expires_at=expires_at, now=now)
        # Exactly the status OK: a pipeline's "QUEUED", a "0" or any other truthy reply is no add.
        return type(reply) in (bytes, str) and reply in (b"OK", "OK")

    def reset_mark(self, now: int) -> None:
        self._command(_REDIS["reset"], clock=self.prefix + _REDIS["clock_key"], now=now)

    def restore_moment(self, now: int) -> Optional[int]:
        value = self._command(_REDIS["restore_read"], key=self.prefix + _REDIS["restore_key"])
        if value is None:
            return None
        return int(value.decode("ascii") if isinstance(value, (bytes, bytearray)) else value)

    def record_restore(self, at: int, until: int, now: int) -> None:
        current = self.restore_moment(now)
        if (current is None or current < at) and until > now:
            self._command(_REDIS["restore_record"], key=self.prefix + _REDIS["restore_key"], at=at, ttl_ms=until - now)

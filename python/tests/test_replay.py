"""The replay guard (ekl_evidence.replay) over its three stores, the real things: a MemoryStore, an
SQLite file (reopened to simulate a restart) and a Redis server started here on a Unix socket in
its own folder, with persistence (appendonly, appendfsync always), killed with SIGKILL and started again to simulate a
crash. Every scenario of tools/replay/scenarios.json runs against each store it names;
node/test/replay.test.js runs the same file against the JS guard. Outcomes are written to
target/replay/python.json.

Without a redis-server binary the Redis cases are skipped with a message, unless
EKL_REQUIRE_REDIS=1 (set by scripts/test/30-python.sh, which installs Debian's redis-server):
then they fail."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

from ekl_evidence import EklError
from ekl_evidence.replay import (
    RESTORE_WINDOW,
    MemoryStore,
    RedisStore,
    ReplayGuard,
    SqliteStore,
    replay_key,
)

REPO = Path(__file__).resolve().parents[2]
FILE = json.loads((REPO / "tools" / "replay" / "scenarios.json").read_text(encoding="utf-8"))
STORES = ("memory", "sqlite", "redis")
OUTCOMES: dict[str, list[str]] = {}
T = 1_800_000_000


# --- a real Redis server -----------------------------------------------------------------------


class RedisServer:
    """redis-server in its own folder, listening on a Unix socket there (no TCP port: nothing
    another test or process could take or share), with the append-only file fsynced on every
    write; `crash_and_restart` kills it with SIGKILL and starts it again on the same files."""

    def __init__(self, folder: Path) -> None:
        self.binary = shutil.which("redis-server")
        assert self.binary is not None
        self.folder = folder
        self.socket = str(folder / "redis.sock")
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.start()

    def start(self) -> None:
        args = [
            str(self.binary), "--port", "0", "--unixsocket", self.socket, "--unixsocketperm", "700",
            "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
            "--daemonize", "no", "--logfile", str(self.folder / "redis.log"),
        ]  # fmt: skip
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.settimeout(1)
                    s.connect(self.socket)
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                log = (self.folder / "redis.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"redis-server did not start: {log}")
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def crash_and_restart(self) -> None:
        self.kill()
        self.start()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def client(self) -> Any:
        import redis

        return redis.Redis(unix_socket_path=self.socket, socket_timeout=5, socket_connect_timeout=5)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    missing = []
    if shutil.which("redis-server") is None:
        missing.append("the redis-server binary (apt-get install -y redis-server)")
    try:
        import redis  # noqa: F401
    except ImportError:
        missing.append("the redis-py client (pip install redis)")
    if missing:
        why = "Redis store not tested: no " + " and no ".join(missing)
        if os.environ.get("EKL_REQUIRE_REDIS") == "1":
            pytest.fail(why + " (EKL_REQUIRE_REDIS=1)")
        pytest.skip(why)
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


def _wait_ready(client: Any) -> None:
    """Until the client's pool reconnected to a restarted server."""
    deadline = time.monotonic() + 10
    while True:
        try:
            if client.ping():
                return
        except Exception:  # noqa: BLE001 (reconnecting)
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


# --- one harness for the three stores -----------------------------------------------------------


class Harness:
    """Two guards (replicas) sharing one fresh store of a kind; `restart` as the kind allows."""

    def __init__(self, kind: str, name: str, folder: Path, scenario: dict[str, Any], request: Any) -> None:
        self.kind = kind
        self.skew = int(scenario.get("skew", 60))
        self.folder = folder
        self.closers: list[Callable[[], None]] = []
        if kind == "memory":
            store = MemoryStore(max_entries=int(scenario.get("maxEntries", 100_000)))
            self.guards = [ReplayGuard(store, skew=self.skew), ReplayGuard(store, skew=self.skew)]
        elif kind == "sqlite":
            self.path = folder / "replay.db"
            self._open_sqlite()
        else:
            self.server: RedisServer = request.getfixturevalue("redis_server")
            self.clients = [self.server.client(), self.server.client()]
            prefix = f"test:{name}:{time.monotonic_ns()}:"
            self.guards = [ReplayGuard(RedisStore(c, prefix=prefix), skew=self.skew) for c in self.clients]
            self.closers += [c.close for c in self.clients]

    def _open_sqlite(self) -> None:
        stores = [SqliteStore(self.path), SqliteStore(self.path)]
        self.guards = [ReplayGuard(s, skew=self.skew) for s in stores]
        self.closers = [s.close for s in stores]

    def restart(self) -> None:
        if self.kind == "sqlite":
            for close in self.closers:
                close()
            self._open_sqlite()
        elif self.kind == "redis":
            self.server.crash_and_restart()
            for c in self.clients:
                _wait_ready(c)
        else:
            raise AssertionError("a memory store has no restart")

    def close(self) -> None:
        for close in self.closers:
            close()


def outcome(f: Callable[[], None]) -> str:
    try:
        f()
        return "ok"
    except EklError as e:
        return e.code


def play(h: Harness, scenario: dict[str, Any]) -> list[str]:
    got = []
    for step in scenario["steps"]:
        guard = h.guards[step.get("guard", 0)]
        if "restore" in step:
            done = outcome(lambda guard=guard, at=step["restore"]: guard.record_restore(now=at))
            got.append("restore" if done == "ok" else done)
        elif "restart" in step:
            h.restart()
            got.append("restart")
        elif "reset" in step:
            done = outcome(lambda guard=guard, at=step["reset"]: guard.reset_mark(now=at))
            got.append("reset" if done == "ok" else done)
        else:
            kind = step["consume"]
            consume = guard.consume_assertion if kind == "assertion" else guard.consume_platform_call
            args = (step.get("iss", FILE["iss"]), step.get("aud", FILE["aud"]), step["jti"])
            got.append(outcome(lambda consume=consume, args=args, step=step: consume(*args, iat=step["iat"], exp=step["exp"], now=step["now"])))
    return got


CASES = [
    pytest.param(kind, s, id=f"{kind}-{s['name']}")
    for s in FILE["scenarios"]
    for kind in s.get("stores", STORES)
]


@pytest.fixture(scope="module", autouse=True)
def _write_outcomes() -> Iterator[None]:
    yield
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # one worker of a parallel run (scripts/stress.sh) played only some scenarios
    out = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "replay" / "python.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(OUTCOMES, indent=1, sort_keys=True) + "\n")


@pytest.mark.parametrize("kind,scenario", CASES)
def test_scenario(kind: str, scenario: dict[str, Any], tmp_path: Path, request: Any) -> None:
    h = Harness(kind, scenario["name"], tmp_path, scenario, request)
    try:
        got = play(h, scenario)
    finally:
        h.close()
    want = [
        s.get("expect", "restore") if "restore" in s else "restart" if "restart" in s else "reset" if "reset" in s else s["expect"]
        for s in scenario["steps"]
    ]
    OUTCOMES[f"{kind}/{scenario['name']}"] = got
    assert got == want


def test_every_scenario_runs_on_some_store_and_expects_a_known_code() -> None:
    from ekl_evidence import ERROR_CODES

    for s in FILE["scenarios"]:
        assert set(s.get("stores", STORES)) <= set(STORES), s["name"]
        for step in s["steps"]:
            if "consume" in step:
                assert step["expect"] == "ok" or step["expect"] in ERROR_CODES, step


# --- the key ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", FILE["keys"], ids=lambda c: c["key"][:12])
def test_key_is_sha256_of_the_canonical_array(case: dict[str, str]) -> None:
    # re-derived with the standard library (for these strings json.dumps without ASCII escapes
    # writes the RFC 8785 form)
    text = json.dumps(["ekl-replay-1", case["kind"], case["iss"], case["aud"], case["jti"]], separators=(",", ":"), ensure_ascii=False)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == case["key"]
    assert replay_key(case["kind"], case["iss"], case["aud"], case["jti"]) == case["key"]


def test_key_refusals() -> None:
    with pytest.raises(EklError) as e:
        replay_key("access_token", "i", "a", "j")
    assert e.value.code == "INVALID_ARGUMENT"
    with pytest.raises(EklError) as e:
        replay_key("platform_call", "i", "a", "j\ud800")
    assert e.value.code == "LONE_SURROGATE"


# --- concurrency: exactly one of N -----------------------------------------------------------------


def _race(guards: list[ReplayGuard], jti: str) -> list[str]:
    """Every guard consumes `jti` at once (one thread each); their outcomes."""
    barrier = threading.Barrier(len(guards))
    results: list[str] = [""] * len(guards)
    now = time.time()

    def run(i: int) -> None:
        barrier.wait()
        results[i] = outcome(
            lambda: guards[i].consume_assertion(FILE["iss"], FILE["aud"], jti, iat=int(now), exp=int(now) + 120)
        )

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(guards))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def _exactly_one(guards: list[ReplayGuard], rounds: int) -> None:
    for r in range(rounds):
        results = _race(guards, f"race-{r}-{time.monotonic_ns()}")
        assert sorted(results) == ["ASSERTION_REPLAY"] * (len(guards) - 1) + ["ok"], results


def test_concurrent_memory() -> None:
    store = MemoryStore()
    _exactly_one([ReplayGuard(store) for _ in range(16)], rounds=20)


def test_concurrent_sqlite(tmp_path: Path) -> None:
    # one connection per thread: the file's locks decide, as between processes
    stores = [SqliteStore(tmp_path / "race.db") for _ in range(8)]
    try:
        _exactly_one([ReplayGuard(s) for s in stores], rounds=10)
        shared = SqliteStore(tmp_path / "race.db")  # and one connection shared by 8 threads
        _exactly_one([ReplayGuard(shared) for _ in range(8)], rounds=5)
        shared.close()
    finally:
        for s in stores:
            s.close()


def test_concurrent_sqlite_processes(tmp_path: Path) -> None:
    """Separate processes on one file (replicas on one host): exactly one consumes."""
    code = (
        "import sys, time\n"
        "from ekl_evidence.replay import ReplayGuard, SqliteStore\n"
        "g = ReplayGuard(SqliteStore(sys.argv[1]))\n"
        "time.sleep(max(0.0, float(sys.argv[2]) - time.time()))\n"
        "try:\n"
        "    g.consume_assertion('i', 'a', 'one-jti', iat=int(time.time()), exp=int(time.time()) + 60)\n"
        "    print('ok')\n"
        "except Exception as e:\n"
        "    print(getattr(e, 'code', repr(e)))\n"
    )
    start = time.time() + 1.5
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "p.db"), str(start)], stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    outs = sorted(p.communicate(timeout=60)[0].strip() for p in procs)
    assert outs == ["ASSERTION_REPLAY"] * 5 + ["ok"], outs


def test_concurrent_redis(redis_server: RedisServer) -> None:
    clients = [redis_server.client() for _ in range(16)]
    try:
        _exactly_one([ReplayGuard(RedisStore(c, prefix="race:")) for c in clients], rounds=20)
    finally:
        for c in clients:
            c.close()


# --- the stores' own properties ----------------------------------------------------------------------


def test_redis_entries_and_mark_live_in_redis_without_a_ttl(redis_server: RedisServer) -> None:
    """Issue 41: the entry is the sorted set's member (score exp + skew, in ms) and the mark the
    hash's: no TTL, so no replica's clock (nor the server's) shortens it; it leaves when the mark
    passes its expiry."""
    client = redis_server.client()
    guard = ReplayGuard(RedisStore(client, prefix="ttl:"), skew=0)
    guard.consume_platform_call("i", "a", "short", iat=T - 58, exp=T + 2, now=T)
    key = replay_key("platform_call", "i", "a", "short")
    assert client.zscore("ttl:entries", key) == (T + 2) * 1000
    assert client.hgetall("ttl:clock") == {b"mark": str(T * 1000).encode(), b"last": str(T * 1000).encode()}
    assert client.pttl("ttl:entries") == -1 and client.pttl("ttl:clock") == -1
    guard.consume_platform_call("i", "a", "next", iat=T + 2, exp=T + 62, now=T + 2)
    assert client.zscore("ttl:entries", key) is None  # expired at the mark: dropped
    assert client.zcard("ttl:entries") == 1
    client.close()


class _Replies:
    """A client whose every reply to the add is `reply` (a pipeline's "QUEUED", a "0", ...); no
    restore kept."""

    def __init__(self, reply: Any) -> None:
        self.reply = reply

    def execute_command(self, *args: Any) -> Any:
        return None if args[0] == "GET" else self.reply


@pytest.mark.parametrize("reply", [b"QUEUED", "QUEUED", b"0", "0", 1, True, [b"OK"], b"ok", b"OK ", None, 0])
def test_redis_only_the_reply_ok_is_an_add(reply: Any) -> None:
    """Issue 41: any truthy reply counted as added (a pipeline client's "QUEUED", "0": a jti
    accepted twice); only the status OK does, as in JS."""
    guard = ReplayGuard(RedisStore(_Replies(reply)))
    assert outcome(lambda: guard.consume_assertion("i", "a", "j", iat=T, exp=T + 120, now=T)) == "ASSERTION_REPLAY"
    for ok in (b"OK", "OK"):
        ReplayGuard(RedisStore(_Replies(ok))).consume_assertion("i", "a", "j", iat=T, exp=T + 120, now=T)


def test_a_store_without_reset_mark_cannot_be_reset() -> None:
    class Old:
        def add(self, key: str, expires_at: int, now: int) -> bool:
            return True

        def restore_moment(self, now: int) -> Optional[int]:
            return None

        def record_restore(self, at: int, until: int, now: int) -> None:
            raise AssertionError("not reached")

    with pytest.raises(TypeError, match="reset_mark"):
        ReplayGuard(Old()).reset_mark(now=T)
    with pytest.raises(EklError) as e:
        ReplayGuard(MemoryStore()).reset_mark(now=T * 1000)
    assert e.value.code == "INVALID_ARGUMENT"


# --- replicas whose clocks differ (issue 41) -------------------------------------------------------


def _replica_stores(kind: str, tmp_path: Path, request: Any) -> tuple[list[Any], list[Callable[[], None]]]:
    if kind == "memory":
        store = MemoryStore()
        return [store, store], []
    if kind == "sqlite":
        stores = [SqliteStore(tmp_path / "replicas.db"), SqliteStore(tmp_path / "replicas.db")]
        return stores, [s.close for s in stores]
    server: RedisServer = request.getfixturevalue("redis_server")
    clients = [server.client(), server.client()]
    prefix = f"replicas:{time.monotonic_ns()}:"
    return [RedisStore(c, prefix=prefix) for c in clients], [c.close for c in clients]


@pytest.mark.parametrize("ahead", [5, 170])
@pytest.mark.parametrize("kind", STORES)
def test_replicas_whose_clocks_differ_accept_each_jti_once(kind: str, ahead: int, tmp_path: Path, request: Any) -> None:
    """Two replicas on one store, one's clock `ahead` seconds ahead of the other's (the real
    clock), each consuming every jti. Before issue 41 Redis kept the entry for `exp + skew -
    now` of the replica ahead: the key was gone 2 s later and the other replica, whose verifier
    still accepts the token, accepted it again (memory and SQLite already refused)."""
    stores, closers = _replica_stores(kind, tmp_path, request)
    try:
        right = ReplayGuard(stores[0])
        fast = ReplayGuard(stores[1], clock=lambda: time.time() + ahead)
        start = int(time.time())
        # exp + skew is 3 s after the fast replica's clock: a TTL of 2 to 3 s there before issue 41
        exp = start + ahead + 3 - 60
        tokens = {f"{kind}-{ahead}-{i}": (exp - 120 if ahead < 120 else start, exp) for i in range(8)}
        outcomes: dict[str, list[str]] = {jti: [] for jti in tokens}
        for jti, (iat, e) in tokens.items():
            outcomes[jti].append(outcome(lambda jti=jti, iat=iat, e=e: fast.consume_assertion("i", "a", jti, iat=iat, exp=e)))
        # that TTL has passed at start + 3; the right replica's verifier still accepts the token
        time.sleep(max(0.0, start + 3.3 - time.time()))
        for jti, (iat, e) in tokens.items():
            outcomes[jti].append(outcome(lambda jti=jti, iat=iat, e=e: right.consume_assertion("i", "a", jti, iat=iat, exp=e)))
        for jti, got in outcomes.items():
            assert got == ["ok", "ASSERTION_REPLAY"], (jti, got)
        # and the other way round: the right replica first, then the fast one
        for i in range(4):
            jti = f"{kind}-{ahead}-r{i}"
            assert outcome(lambda jti=jti: right.consume_assertion("i", "a", jti, iat=start, exp=start + 120)) == "ok"
            assert outcome(lambda jti=jti: fast.consume_assertion("i", "a", jti, iat=start, exp=start + 120)) == "ASSERTION_REPLAY"
    finally:
        for close in closers:
            close()


def test_redis_unavailable_fails_closed(redis_server: RedisServer, tmp_path: Path) -> None:
    import redis

    # A socket no server listens on (in this test's own folder: nothing else can start one there).
    dead = redis.Redis(unix_socket_path=str(tmp_path / "none.sock"), socket_timeout=1, socket_connect_timeout=1)
    guard = ReplayGuard(RedisStore(dead))
    with pytest.raises(EklError) as e:
        guard.consume_assertion("i", "a", "j", iat=T, exp=T + 120, now=T)
    assert e.value.code == "REPLAY_STORE_UNAVAILABLE"
    assert isinstance(e.value.__cause__, redis.exceptions.ConnectionError)
    with pytest.raises(EklError) as e:
        guard.record_restore(now=T)
    assert e.value.code == "REPLAY_STORE_UNAVAILABLE"


def test_redis_a_server_that_never_answers_is_unavailable_within_the_deadline() -> None:
    """A default redis-py client (no socket_timeout) on a server that accepts and never answers
    (a stopped server): each store call has its deadline (``timeout``), then it is
    REPLAY_STORE_UNAVAILABLE; before, the call waited forever."""
    try:
        import redis
    except ImportError:
        if os.environ.get("EKL_REQUIRE_REDIS") == "1":
            pytest.fail("no redis-py client (EKL_REQUIRE_REDIS=1)")
        pytest.skip("no redis-py client")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)  # connections complete in the backlog; nothing is ever read or sent
        client = redis.Redis(host="127.0.0.1", port=listener.getsockname()[1])
        assert RedisStore(client).timeout == 5
        guard = ReplayGuard(RedisStore(client, timeout=0.5))
        got: list[str] = []
        calls = [
            lambda: guard.consume_assertion("i", "a", "j", iat=T, exp=T + 120, now=T),
            lambda: guard.record_restore(now=T),
        ]
        t0 = time.monotonic()
        worker = threading.Thread(target=lambda: got.extend(outcome(f) for f in calls), daemon=True)
        worker.start()
        worker.join(timeout=20)
        assert got == ["REPLAY_STORE_UNAVAILABLE"] * 2, "a store call did not end within its deadline"
        assert time.monotonic() - t0 < 5
    with pytest.raises(EklError) as e:
        RedisStore(client, timeout=0)
    assert e.value.code == "INVALID_ARGUMENT"


def test_redis_keeps_a_jti_through_a_crash_of_another_process(redis_server: RedisServer) -> None:
    """A guard in another process consumes and the server is SIGKILLed: still consumed after."""
    code = (
        "import sys, redis\n"
        "from ekl_evidence.replay import ReplayGuard, RedisStore\n"
        "g = ReplayGuard(RedisStore(redis.Redis(unix_socket_path=sys.argv[1]), prefix='crash:'))\n"
        f"g.consume_assertion('i', 'a', 'j', iat={T}, exp={T + 120}, now={T})\n"
    )
    subprocess.run([sys.executable, "-c", code, redis_server.socket], check=True, timeout=60)
    redis_server.crash_and_restart()
    client = redis_server.client()
    _wait_ready(client)
    guard = ReplayGuard(RedisStore(client, prefix="crash:"))
    with pytest.raises(EklError) as e:
        guard.consume_assertion("i", "a", "j", iat=T, exp=T + 120, now=T + 1)
    assert e.value.code == "ASSERTION_REPLAY"
    client.close()


def test_sqlite_survives_the_process(tmp_path: Path) -> None:
    path = tmp_path / "exit.db"
    code = (
        "import sys\n"
        "from ekl_evidence.replay import ReplayGuard, SqliteStore\n"
        "g = ReplayGuard(SqliteStore(sys.argv[1]))\n"
        f"g.consume_assertion('i', 'a', 'j', iat={T}, exp={T + 120}, now={T})\n"
        f"g.record_restore(now={T + 5})\n"
        "import os; os._exit(0)\n"  # no close, no cleanup
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=60)
    guard = ReplayGuard(SqliteStore(path))
    assert outcome(lambda: guard.consume_assertion("i", "a", "j", iat=T, exp=T + 120, now=T + 10)) == "ASSERTION_REPLAY"
    assert outcome(lambda: guard.consume_assertion("i", "a", "k", iat=T + 10, exp=T + 130, now=T + 10)) == "ASSERTION_REPLAY"
    assert outcome(lambda: guard.consume_assertion("i", "a", "k", iat=T + 65, exp=T + 185, now=T + 65)) == "ok"


def test_sqlite_purges_expired_rows(tmp_path: Path) -> None:
    import sqlite3

    store = SqliteStore(tmp_path / "purge.db")
    guard = ReplayGuard(store)
    for i in range(50):
        guard.consume_assertion("i", "a", f"j{i}", iat=T, exp=T + 120, now=T)
    rows = lambda: sqlite3.connect(tmp_path / "purge.db").execute("SELECT count(*) FROM ekl_replay").fetchone()[0]  # noqa: E731
    assert rows() == 50
    # one now moves the mark at most 60 s past the previous now (issue 41): T + 160, then T + 200
    guard.consume_assertion("i", "a", "late", iat=T + 100, exp=T + 200, now=T + 100)
    guard.consume_assertion("i", "a", "later", iat=T + 200, exp=T + 300, now=T + 200)
    assert rows() == 52
    guard.consume_assertion("i", "a", "last", iat=T + 230, exp=T + 300, now=T + 230)
    assert rows() == 53  # purged at most once a minute
    guard.consume_assertion("i", "a", "latest", iat=T + 290, exp=T + 400, now=T + 290)
    assert rows() == 3  # the 50 and "late" (expired at T + 260) went at T + 290
    store.close()
    with pytest.raises(EklError) as e:
        guard.consume_assertion("i", "a", "closed", iat=T + 200, exp=T + 300, now=T + 200)
    assert e.value.code == "REPLAY_STORE_UNAVAILABLE"


def test_memory_purges_expired_entries() -> None:
    store = MemoryStore(max_entries=101)
    guard = ReplayGuard(store)
    for i in range(100):
        guard.consume_assertion("i", "a", f"j{i}", iat=T + i, exp=T + 60 + i, now=T + 40)
    assert len(store) == 100
    # one now moves the mark at most 60 s past the previous now (issue 41): T + 95, then T + 150
    guard.consume_assertion("i", "a", "w", iat=T + 95, exp=T + 140, now=T + 95)
    assert len(store) == 101
    guard.consume_assertion("i", "a", "x", iat=T + 150, exp=T + 200, now=T + 150)
    assert len(store) == 101 - 31 + 1  # exp + 60 <= T + 150 for i <= 30


def test_memory_bound_holds_and_an_entry_is_small() -> None:
    n = 20_000
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    store = MemoryStore(max_entries=n)
    guard = ReplayGuard(store)
    for i in range(n):
        guard.consume_assertion("i", "a", f"jti-{i}-" + "x" * 200, iat=T, exp=T + 120, now=T)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    # the documented bound: about 25 MB per 100 000 entries, whatever the jti's length
    assert used / n < 300, used / n
    with pytest.raises(EklError) as e:
        guard.consume_assertion("i", "a", "one-more", iat=T, exp=T + 120, now=T)
    assert e.value.code == "REPLAY_STORE_FULL"
    assert len(store) == n


# --- arguments ------------------------------------------------------------------------------------------


def test_wrong_types_are_type_errors() -> None:
    guard = ReplayGuard(MemoryStore())
    for args, kw in [
        ((1, "a", "j"), {"iat": T, "exp": T + 1, "now": T}),
        (("i", None, "j"), {"iat": T, "exp": T + 1, "now": T}),
        (("i", "a", b"j"), {"iat": T, "exp": T + 1, "now": T}),
        (("i", "a", "j"), {"iat": float(T), "exp": T + 1, "now": T}),
        (("i", "a", "j"), {"iat": T, "exp": True, "now": T}),
        (("i", "a", "j"), {"iat": T, "exp": T + 1, "now": "now"}),
    ]:
        with pytest.raises(TypeError):
            guard.consume_assertion(*args, **kw)
    with pytest.raises(TypeError):
        ReplayGuard(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        RedisStore(object())
    for bad in (-1, 301):
        with pytest.raises(EklError) as e:
            ReplayGuard(MemoryStore(), skew=bad)
        assert e.value.code == "INVALID_ARGUMENT"
    with pytest.raises(EklError) as e:
        MemoryStore(max_entries=0)
    assert e.value.code == "INVALID_ARGUMENT"
    for bad_now in (float("nan"), float("inf"), float("-inf"), -1, -0.001):
        with pytest.raises(EklError) as e:
            guard.consume_assertion("i", "a", "j", iat=T, exp=T + 1, now=bad_now)
        assert e.value.code == "INVALID_ARGUMENT"
        with pytest.raises(EklError) as e:
            guard.record_restore(now=bad_now)
        assert e.value.code == "INVALID_ARGUMENT"


def test_a_failing_store_is_unavailable_and_the_clock_is_used() -> None:
    class Broken:
        def add(self, key: str, expires_at: int, now: int) -> bool:
            raise OSError("disk")

        def restore_moment(self, now: int) -> Optional[int]:
            return None

        def record_restore(self, at: int, until: int, now: int) -> None:
            raise OSError("disk")

    guard = ReplayGuard(Broken())
    with pytest.raises(EklError) as e:
        guard.consume_platform_call("i", "a", "j", iat=int(time.time()), exp=int(time.time()) + 60)
    assert e.value.code == "REPLAY_STORE_UNAVAILABLE" and isinstance(e.value.__cause__, OSError)
    assert "disk" not in str(e.value)
    # the clock, when `now` is left out
    clock_guard = ReplayGuard(MemoryStore(), clock=lambda: T + 500.0)
    assert outcome(lambda: clock_guard.consume_assertion("i", "a", "j", iat=T, exp=T + 120)) == "TOKEN_EXPIRED"
    assert outcome(lambda: clock_guard.consume_assertion("i", "a", "j", iat=T + 450, exp=T + 570)) == "ok"
    assert RESTORE_WINDOW == 240 and clock_guard.restore_window == 240


def test_an_async_store_fails_closed() -> None:
    """A store whose add is a coroutine: its answer is not known to a synchronous guard, so the
    credential is refused (it was accepted twice when the coroutine counted as True)."""

    class Async(MemoryStore):
        async def add(self, key: str, expires_at: int, now: int) -> bool:  # type: ignore[override]
            return False

    guard = ReplayGuard(Async())
    for _ in range(2):
        with pytest.raises(EklError) as e:
            guard.consume_assertion("i", "a", "j", iat=T, exp=T + 60, now=T)
        assert e.value.code == "REPLAY_STORE_UNAVAILABLE"


def test_now_past_any_float_is_refused_and_a_datetime_is_accepted() -> None:
    import datetime

    guard = ReplayGuard(MemoryStore())
    for bad in (10**400, -(10**400), 2**53 + 1):
        with pytest.raises(EklError) as e:
            guard.consume_assertion("i", "a", "j", iat=T, exp=T + 60, now=bad)
        assert e.value.code == "INVALID_ARGUMENT"
        with pytest.raises(EklError) as e:
            guard.record_restore(now=bad)
        assert e.value.code == "INVALID_ARGUMENT"
    with pytest.raises(EklError) as e:
        guard.record_restore(now=time.time() * 1000)
    assert e.value.code == "INVALID_ARGUMENT" and "milliseconds" in e.value.message
    with pytest.raises(EklError) as e:
        guard.consume_assertion("i", "a", "j", iat=T, exp=T + 60, now=datetime.datetime(2027, 1, 1))
    assert e.value.code == "INVALID_ARGUMENT"
    aware = datetime.datetime.fromtimestamp(T + 1, datetime.timezone.utc)
    assert outcome(lambda: guard.consume_assertion("i", "a", "j", iat=T, exp=T + 60, now=aware)) == "ok"
    assert outcome(lambda: guard.consume_assertion("i", "a", "j", iat=T, exp=T + 60, now=aware)) == "ASSERTION_REPLAY"

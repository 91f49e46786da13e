"""Many threads at once: same results as one thread, no crash, the GIL released on large work."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import ekl_evidence as ekl

SALT = "00112233445566778899aabbccddeeff" * 2


def _doc(i: int) -> dict:
    return {"id": i, "items": [{"k": f"v{j}", "n": j * 0.5, "ok": j % 2 == 0} for j in range(50)]}


def test_many_threads_agree_with_one() -> None:
    docs = [_doc(i) for i in range(200)]
    expected = [(ekl.canonicalize_value(d), ekl.fingerprint(SALT, d)) for d in docs]
    texts = [json.dumps(d) for d in docs]

    def work(i: int) -> None:
        d = docs[i % len(docs)]
        assert ekl.canonicalize_value(d) == expected[i % len(docs)][0]
        assert ekl.canonicalize(texts[i % len(docs)]) == expected[i % len(docs)][0]
        assert ekl.fingerprint(SALT, d) == expected[i % len(docs)][1]
        try:
            ekl.canonicalize("[" * 65 + "]" * 65)
        except ekl.EklError as e:
            assert e.code == "INPUT_TOO_DEEP"

    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(work, range(4000)))


def test_shared_value_mutated_by_another_thread() -> None:
    # One thread keeps changing a dict while others canonicalise it: every result is a valid
    # canonical form of some state (no crash, no torn value), or a clean refusal.
    shared: dict = {"a": [1, 2, 3]}
    stop = threading.Event()

    def mutate() -> None:
        n = 0
        while not stop.is_set():
            shared[f"k{n % 50}"] = list(range(n % 7))
            if n % 3 == 0:
                shared.pop(f"k{(n + 25) % 50}", None)
            n += 1

    t = threading.Thread(target=mutate)
    t.start()
    try:
        for _ in range(3000):
            try:
                out = ekl.canonicalize_value(shared)
            except RuntimeError:
                continue  # "dictionary changed size during iteration", should another thread win
            assert json.loads(out)["a"] == [1, 2, 3]
    finally:
        stop.set()
        t.join()


def test_large_work_releases_the_gil() -> None:
    big = json.dumps([_doc(i) for i in range(3000)]).encode()  # ~ 5 MB
    assert len(big) > 1_000_000
    ticks = 0
    done = threading.Event()

    def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        time.sleep(0.01)
        before = ticks
        for _ in range(5):
            ekl.canonicalize(big)
        during = ticks - before
    finally:
        done.set()
        t.join()
    # with the GIL held for the whole call, the ticker would barely run
    assert during > 50, during

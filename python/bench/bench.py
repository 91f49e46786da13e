"""Speed of ekl_evidence against the Python RFC 8785 / canonical JSON packages, one run, one corpus.

    python python/bench/bench.py [--quick] [--json OUT] [--receipts DIR]

Text path: JSON text in, canonical bytes out (peers: json.loads + their encoder, as their users
do; json.loads cannot see duplicate keys). Value path: a dict in, canonical bytes out. Each peer's
output is compared with ekl's on the corpus and on RFC 8785 edge cases first, and the table says
which peers are not RFC 8785-correct. Peers that are not installed are skipped. jcs-admit
(the Python package of the Rust crate) takes bytes only: its text path is `admit(bytes)` (no
json.loads), its value path `admit(json.dumps(value).encode())`.

--receipts DIR (the shared corpus's `small/` folder, target/bench-corpus/small) adds issue 28's
rows: for each document's text, `canonicalize_value(json.loads(text))` and `canonicalize(text)`
against `jcs_admit.admit(text)`, five runs alternated, CPU time, each run's ratio printed and the
worst of the five recorded; and json.loads alone, the ceiling of the first ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import ekl_evidence as ekl

Encoder = Callable[[Any], bytes]

#: Peers that read JSON text themselves (bytes in): their text path skips json.loads.
TEXT_PEERS: Dict[str, Callable[[bytes], bytes]] = {}


def _peers() -> Dict[str, Encoder]:
    peers: Dict[str, Encoder] = {}
    try:
        import rfc8785

        peers["rfc8785"] = rfc8785.dumps
    except ImportError:
        pass
    try:
        import jcs

        peers["jcs"] = jcs.canonicalize
    except ImportError:
        pass
    try:
        import canonicaljson

        peers["canonicaljson"] = canonicaljson.encode_canonical_json
    except ImportError:
        pass
    try:
        import jcs_admit

        admit: Callable[[bytes], bytes] = jcs_admit.admit
        peers["jcs-admit"] = lambda v: admit(json.dumps(v, ensure_ascii=False).encode("utf-8"))
        TEXT_PEERS["jcs-admit"] = admit
    except ImportError:
        pass
    return peers


# --- corpus ------------------------------------------------------------------------------------

WORDS = ["listing", "área", "price", "Dublin", "€", "😀", "ｱ", "\ue000", "a/b", 'q"t', "tab\t", "x"]


def _value(rng: random.Random, depth: int) -> Any:
    r = rng.random()
    if depth >= 5 or r < 0.5:
        k = rng.randrange(6)
        if k == 0:
            return rng.randint(-(2**53), 2**53)
        if k == 1:
            return rng.uniform(-1e6, 1e6)
        if k == 2:
            return rng.choice([True, False, None])
        return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 6)))
    if r < 0.7:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))]
    return {
        rng.choice(WORDS) + str(i): _value(rng, depth + 1) for i in range(rng.randrange(1, 8))
    }


def _doc(rng: random.Random, target: int) -> Dict[str, Any]:
    doc: Dict[str, Any] = {}
    i = 0
    while len(json.dumps(doc)) < target:
        doc[f"item{i:05d}"] = {"id": i, "name": rng.choice(WORDS), "data": _value(rng, 0)}
        i += 1
    return doc


def corpus() -> List[Tuple[str, Any]]:
    rng = random.Random(8785)
    small = {
        "area_ref": "loc:ca:dublin",
        "min_beds": 3,
        "max_price": 1349000.5,
        "features": ["garage", "garden", "área"],
        "filters": {"pets": True, "since": "2026-11-01", "radius_km": 2.5, "note": None},
    }
    docs = [small, _doc(rng, 20_000), _doc(rng, 1_000_000)]
    out = []
    for doc in docs:
        size = len(json.dumps(doc, ensure_ascii=False).encode("utf-8"))
        out.append((f"{size / 1024:.1f} KB" if size >= 1024 else f"{size} B", doc))
    return out


# --- correctness -------------------------------------------------------------------------------

EDGES: List[Tuple[str, Any]] = [
    ("numbers", [1.0, -0.0, 1e21, 1e-7, 0.000001, 333333333.3333333, 5e-324, 1e300]),
    ("UTF-16 key order", {"\U0001f600": 1, "\uff71": 2, "\ue000": 3, "é": 4}),
    ("escapes", ["\u2028\u2029", "\x7f", "\x1f", "/", "é"]),
]
#: Not RFC 8785 questions but ekl-json-1 decisions: reported as notes, not as errors.
NOTES: List[Tuple[str, Any]] = [
    ("integers at ±2^53 (ekl-json-1 accepts them)", [2**53, -(2**53)]),
]


def _compare(enc: Encoder, cases: List[Tuple[str, Any]]) -> List[str]:
    problems = []
    for label, value in cases:
        try:
            ok = enc(value) == ekl.canonicalize_value(value)
        except Exception as e:  # noqa: BLE001 - a peer's refusal is a finding too
            problems.append(f"{label}: raised {type(e).__name__}")
            continue
        if not ok:
            problems.append(f"{label}: different bytes")
    return problems


def correctness(
    peers: Dict[str, Encoder], docs: List[Tuple[str, Any]]
) -> Tuple[Dict[str, List[str]], Dict[str, List[str]]]:
    wrong = {name: _compare(enc, EDGES + docs) for name, enc in peers.items()}
    notes = {name: _compare(enc, NOTES) for name, enc in peers.items()}
    return wrong, notes


# --- timing ------------------------------------------------------------------------------------


CLOCK: Callable[[], float] = time.process_time


def _time(fn: Callable[[], Any], budget: float) -> float:
    """Best seconds per call over 3 rounds of about budget/3 each (CPU time of the process by
    default: this machine is shared, and CPU time is what the load does not inflate; --wall
    for wall-clock time)."""
    fn()
    n, t = 1, 0.0
    while True:
        t0 = CLOCK()
        for _ in range(n):
            fn()
        t = CLOCK() - t0
        if t > budget / 10:
            break
        n *= 4
    best = t / n
    per_round = max(1, int(n * (budget / 3) / max(t, 1e-9)))
    for _ in range(3):
        t0 = CLOCK()
        for _ in range(per_round):
            fn()
        best = min(best, (CLOCK() - t0) / per_round)
    return best


def _bench_receipts(folder: str, runs: int) -> List[Dict[str, Any]]:
    """Issue 28's Python rows on the shared corpus (the receipts documents of the Rust, Node and
    wasm benches): CPU microseconds a document over the whole folder, our two paths and
    jcs-admit's `admit(text)` alternated run by run, each run's ratio printed; the row records
    the median time and the worst run's ratio ("in every run")."""
    texts = [open(os.path.join(folder, f), "rb").read() for f in sorted(os.listdir(folder))]
    try:
        import jcs_admit
    except ImportError:
        print(f"  (jcs-admit not installed: the receipts rows of {folder} skipped)")
        return []
    for t in texts:
        if ekl.canonicalize(t) != jcs_admit.admit(t):
            raise SystemExit("jcs-admit and ekl_evidence disagree on a receipts document")
    loads, value, text = json.loads, ekl.canonicalize_value, ekl.canonicalize
    fns: List[Tuple[str, str, Callable[[bytes], Any]]] = [
        ("loads+value", "ekl_evidence", lambda t: value(loads(t))),
        ("text", "ekl_evidence", text),
        ("peer", "jcs-admit", jcs_admit.admit),
        ("loads", "json.loads", loads),
    ]
    times: Dict[str, List[float]] = {path: [] for path, _, _ in fns}
    for _ in range(runs):
        for path, _, fn in fns:
            best = float("inf")
            for _ in range(3):
                t0 = CLOCK()
                for t in texts:
                    fn(t)
                best = min(best, (CLOCK() - t0) / len(texts))
            times[path].append(best)
    size = sum(len(t) for t in texts) / len(texts)
    label = f"receipts ({len(texts)} docs, {size:.0f} B)"
    peer = times["peer"]
    rows = []
    for path in ("loads+value", "text"):
        ratios = [p / o for p, o in zip(peer, times[path])]
        ours = sorted(times[path])[len(times[path]) // 2]
        theirs = sorted(peer)[len(peer) // 2]
        print(f"{label}: {path:<11} ekl_evidence {ours * 1e6:.2f} us, jcs-admit admit(text) "
              f"{theirs * 1e6:.2f} us; ratio by run: " + ", ".join(f"{r:.2f}x" for r in ratios))
        rows.append({"corpus": label, "path": path, "library": "ekl_evidence", "us_per_call": ours * 1e6,
                     "mb_per_s": size / ours / 1e6, "ekl_speedup": 1.0, "bytes": size})
        rows.append({"corpus": label, "path": path, "library": "jcs-admit", "us_per_call": theirs * 1e6,
                     "mb_per_s": size / theirs / 1e6, "ekl_speedup": min(ratios), "bytes": size})
    alone = sorted(times["loads"])[len(times["loads"]) // 2]
    print(f"{label}: json.loads alone {alone * 1e6:.2f} us = {alone / theirs:.2f} of jcs-admit's time: "
          f"the loads+value ratio cannot pass {theirs / alone:.2f}x")
    return rows


def _bench_es256(budget: float) -> List[Dict[str, Any]]:
    """ES256 verification of one token: ekl's verify_jws (header, typ, kid, signature, claims)
    against cryptography (the signature alone, OpenSSL) and PyJWT (decode with claims)."""
    import base64

    jwks, keys = ekl.jwks_from_seed("42" * 32, ["k1"])
    claims = {"iss": "https://net.example", "aud": "agt_1", "iat": 1000, "exp": 1060,
              "execution_id": "exe_1", "input_fingerprint": "ab" * 32}
    token = ekl.sign_jws("ekl-receipt+jwt", claims, keys[0])

    def ekl_fn() -> None:
        ekl.verify_jws(token, "ekl-receipt+jwt", jwks, now=1030, issuer="https://net.example",
                       audience="agt_1")

    results: List[Tuple[str, float]] = [("ekl_evidence", _time(ekl_fn, budget))]

    def b64(s: str) -> bytes:
        return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))

    jwk = json.loads(jwks.to_json())["keys"][0]
    head, payload, sig = token.split(".")
    signing_input = f"{head}.{payload}".encode()
    raw = b64(sig)
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

        pub = ec.EllipticCurvePublicNumbers(
            int.from_bytes(b64(jwk["x"]), "big"), int.from_bytes(b64(jwk["y"]), "big"), ec.SECP256R1()
        ).public_key()
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        pub.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
        results.append(("cryptography", _time(lambda: pub.verify(der, signing_input, ec.ECDSA(hashes.SHA256())), budget)))
        try:
            import jwt

            opts = {"verify_exp": False, "verify_iat": False}
            jwt.decode(token, pub, algorithms=["ES256"], audience="agt_1", issuer="https://net.example", options=opts)
            results.append(("PyJWT", _time(lambda: jwt.decode(
                token, pub, algorithms=["ES256"], audience="agt_1", issuer="https://net.example",
                options=opts), budget)))
        except ImportError:
            pass
    except ImportError:
        print("  (cryptography not installed: ES256 comparison skipped)")
    t_ekl = results[0][1]
    rows = []
    for name, t in results:
        ratio = t / t_ekl
        print(f"{'ES256':<10} {'verify':<6} {name:<14} {t * 1e6:>11.1f} {'':>9} "
              f"{'' if name == 'ekl_evidence' else f'{ratio:>12.2f}x'}")
        rows.append({"corpus": "ES256 token", "path": "verify", "library": name,
                     "us_per_call": t * 1e6, "ekl_speedup": ratio})
    return rows


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="shorter timing budget")
    ap.add_argument("--json", help="also write the figures as JSON here")
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    ap.add_argument("--receipts", help="the shared corpus's small/ folder: issue 28's rows")
    args = ap.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    budget = 0.3 if args.quick else 1.0
    peers = _peers()
    docs = corpus()

    clock = "wall-clock" if args.wall else "CPU"
    print(f"ekl_evidence {ekl.__version__}, Python {platform.python_version()}, {platform.machine()}, "
          f"{clock} time, best of 3 rounds")
    wrong, notes = correctness(peers, docs)
    for name in peers:
        verdict = "RFC 8785-correct on this corpus" if not wrong[name] else "NOT RFC 8785-correct"
        print(f"  {name}: {verdict}" + ("".join(f"\n    - {p}" for p in wrong[name][:4])))
        for n in notes[name]:
            print(f"    note: {n}")
    missing = {"rfc8785", "jcs", "canonicaljson", "jcs-admit"} - set(peers)
    if missing:
        print(f"  (not installed, skipped: {', '.join(sorted(missing))})")

    rows: List[Dict[str, Any]] = []
    print()
    print(f"{'corpus':<10} {'path':<6} {'library':<14} {'us/call':>11} {'MB/s':>9} {'ekl speed-up':>13}")
    for label, doc in docs:
        text = json.dumps(doc, ensure_ascii=False, indent=1)
        size = len(text.encode("utf-8"))
        raw = text.encode("utf-8")
        for path in ("text", "value"):
            if path == "text":
                ekl_fn: Callable[[], Any] = lambda raw=raw: ekl.canonicalize(raw)  # noqa: E731
            else:
                ekl_fn = lambda doc=doc: ekl.canonicalize_value(doc)  # noqa: E731
            t_ekl = _time(ekl_fn, budget)
            results = [("ekl_evidence", t_ekl)]
            for name, enc in peers.items():
                if path == "text" and name in TEXT_PEERS:
                    fn: Callable[[], Any] = lambda f=TEXT_PEERS[name], raw=raw: f(raw)  # noqa: E731
                elif path == "text":
                    fn = lambda enc=enc, text=text: enc(json.loads(text))  # noqa: E731
                else:
                    fn = lambda enc=enc, doc=doc: enc(doc)  # noqa: E731
                results.append((name, _time(fn, budget)))
            for name, t in results:
                ratio = t / t_ekl
                print(
                    f"{label:<10} {path:<6} {name:<14} {t * 1e6:>11.1f} {size / t / 1e6:>9.1f} "
                    f"{'' if name == 'ekl_evidence' else f'{ratio:>12.1f}x'}"
                )
                rows.append({"corpus": label, "path": path, "library": name, "us_per_call": t * 1e6,
                             "mb_per_s": size / t / 1e6, "ekl_speedup": ratio, "bytes": size})
    if args.receipts:
        rows.extend(_bench_receipts(args.receipts, 1 if args.quick else 5))
    es256 = _bench_es256(budget)
    rows.extend(es256)
    # targets of issue 4
    print()

    def speedup(path: str, peer: str) -> Optional[float]:
        vals = [r["ekl_speedup"] for r in rows if r["path"] == path and r["library"] == peer]
        return min(vals) if vals else None

    for path, peer, target in (("text", "rfc8785", 15), ("text", "canonicaljson", 3),
                               ("value", "canonicaljson", 2), ("loads+value", "jcs-admit", 1.5)):
        s = speedup(path, peer)
        if s is None:
            continue
        mark = "ok" if s >= target else "BELOW TARGET"
        print(f"target {path} path >= {target}x {peer}: worst case {s:.1f}x  {mark}")
    crypto = [r for r in es256 if r["library"] == "cryptography"]
    if crypto:
        ratio = crypto[0]["ekl_speedup"]
        mark = "ok" if ratio >= 0.5 else "BELOW TARGET"
        print(f"target ES256 verify within 2x of cryptography: ekl takes {1 / ratio:.2f}x its time  {mark}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": rows, "not_rfc8785_correct": {k: v for k, v in wrong.items() if v}}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

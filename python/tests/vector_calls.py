"""vectors/calls.jsonl through the installed package (vectors/README.md#calls), without pytest
(scripts/dist/run_vectors.py runs it under interpreters that have only the standard library):
each line's `call` request, dispatched generically from the package's manifest by the conformance
adapter (examples/conformance/python_adapter.py), gives the value its vector file holds at its
pointer; the value changed does not. And the one part of vectors/ that is not a list of cases: the
ECMAScript number file of RFC 8785's test data, generated and hashed with the standard library."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# EKL_VECTORS_DIR is for trying a vector file from a branch that has not landed yet.
VECTORS = Path(os.environ.get("EKL_VECTORS_DIR") or REPO / "vectors")
CALLS = VECTORS / "calls.jsonl"
_MISSING = object()


def adapter() -> Any:
    """The conformance adapter of the Python package (examples/conformance/python_adapter.py)."""
    spec = importlib.util.spec_from_file_location(
        "python_adapter", REPO / "examples" / "conformance" / "python_adapter.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def at(v: Any, pointer: str) -> Any:
    """The value at JSON pointer `pointer` (RFC 6901) of `v`, or _MISSING."""
    if pointer == "":
        return v
    for raw in pointer[1:].split("/"):
        k = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(v, list) and k.isdigit() and int(k) < len(v):
            v = v[int(k)]
        elif isinstance(v, dict) and k in v:
            v = v[k]
        else:
            return _MISSING
    return v


def verdict_step(step: str, v: Any) -> Any:
    """`checks` {name: check}, `not_pass` {name: outcome} of the checks that did not pass,
    `outcomes` {name: outcome}, `verdict` {accepted, checks: outcomes, receipt_digest} (the digest
    only when not null; a refusal's outcome passes through)."""
    if step == "verdict" and isinstance(v, dict) and "error" in v:
        return v
    if not isinstance(v, dict) or not isinstance(v.get("checks"), list):
        return _MISSING
    out = {}
    for c in v["checks"]:
        if step == "checks":
            out[c["name"]] = c
        elif step != "not_pass" or c["outcome"] != "pass":
            out[c["name"]] = c["outcome"]
    if step != "verdict":
        return out
    verdict = {"accepted": v["accepted"], "checks": out}
    if v.get("receipt_digest") is not None:
        verdict["receipt_digest"] = v["receipt_digest"]
    return verdict


def taken(answer: dict[str, Any], take: list[str]) -> Any:
    """`take` of an answer ({"ok": text} or {"error": CODE}); _MISSING where a step finds nothing."""
    if take[:1] == ["text"]:  # the answer's own text instead of its parsed value
        v: Any = answer.get("ok", _MISSING)
        take = take[1:]
    elif "ok" in answer:
        try:
            v = json.loads(answer["ok"])
        except ValueError:  # a legacy operation's answer that is not JSON (a hex digest)
            return _MISSING
    else:
        v = {"error": answer["error"]}
    for step in take:
        if step in ("length", "sha256"):
            if not isinstance(v, str):
                return _MISSING
            data = v.encode("utf-8")
            v = len(data) if step == "length" else hashlib.sha256(data).hexdigest()
        elif step in ("checks", "not_pass", "outcomes", "verdict"):
            v = verdict_step(step, v)
        elif step == "code":  # a refusal's {"error": CODE} as CODE
            if isinstance(v, dict) and list(v) == ["error"]:
                v = v["error"]
        else:
            v = at(v, step)
        if v is _MISSING:
            return _MISSING
    return v


def expand(request: dict[str, Any]) -> dict[str, Any]:
    """The request with each {"$generated": {prefix, repeat, count, inner, close, suffix}} member
    written out: prefix + repeat * count + inner + close * count + suffix."""
    out = dict(request)
    for k, v in request.items():
        if isinstance(v, dict) and "$generated" in v:
            g = v["$generated"]
            n = g["count"]
            out[k] = (
                g.get("prefix", "")
                + g.get("repeat", "") * n
                + g.get("inner", "")
                + g.get("close", "") * n
                + g.get("suffix", "")
            )
    return out


def same(a: Any, b: Any) -> bool:
    """The same JSON value (True is not 1, member order does not count)."""
    if a is _MISSING or b is _MISSING:
        return False
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def tamper(x: Any) -> Any:
    """Another value of the same type (the meta-test's change)."""
    if isinstance(x, str):
        return x[:-1] + ("1" if x.endswith("0") else "0")
    if isinstance(x, bool):
        return not x
    if isinstance(x, (int, float)):
        return x + 1
    if x is None:
        return 0
    return {"tampered": x}


def lines() -> list[dict[str, Any]]:
    """The lines of vectors/calls.jsonl (split on \\n only: a canonical line may hold U+2028)."""
    if not CALLS.is_file():
        return []
    return [json.loads(line) for line in CALLS.read_text("utf-8").split("\n") if line]


def run(lines: list[dict[str, Any]], vectors: Path = VECTORS) -> tuple[list[Any], list[Any]]:
    """Runs `lines` against the vector files of `vectors`; returns (the lines whose value differs,
    the lines a changed expected value would pass)."""
    conformance = adapter()
    files: dict[str, Any] = {}
    failed, blind = [], []
    for line in lines:
        file, pointer = line["file"], line["pointer"]
        if line.get("as") == "text":  # the file's whole text (RFC 8785's outputs)
            want = (vectors / file).read_bytes().decode("utf-8")
        else:
            if file not in files:
                files[file] = json.loads((vectors / file).read_text("utf-8"))
            want = at(files[file], pointer)
        request = {**expand(line["request"]), "id": 1}
        got = taken(conformance.answer(json.dumps(request)), line["take"])
        if not same(got, want):
            failed.append((file, pointer, got, want))
        if same(got, tamper(want)):
            blind.append((file, pointer))
    return failed, blind


#: How many lines of the ES6 number file the Python check reaches (the Rust tests go further).
ES6_MAX_LINES = 100_000
RFC = VECTORS / "rfc8785-testdata"


def _es6_bits(static: list[int]) -> Iterator[int]:
    """The bit patterns of es6testfile100m.txt in order (rfc8785-testdata/README.md)."""
    yield from static
    for i in range(2000):
        yield 0x0010000000000000 + i
    block = bytes(32)
    while True:
        block = hashlib.sha256(block).digest()
        for k in range(4):
            chunk = block[8 * k : 8 * k + 8]
            x = struct.unpack("<d", chunk)[0]
            if x != 0 and math.isfinite(x):
                yield struct.unpack("<Q", chunk)[0]


def es6_published() -> dict[int, str]:
    """{lines: published SHA-256} of es6-hashes.tsv within ES6_MAX_LINES."""
    want = {}
    for line in (RFC / "es6-hashes.tsv").read_text(encoding="utf-8").split("\n"):
        if "\t" in line:
            n, h = line.split("\t", 1)
            if int(n) <= ES6_MAX_LINES:
                want[int(n)] = h.strip()
    return want


def es6_hashes(ns: list[int]) -> dict[int, str]:
    """{n: SHA-256 of the first n lines} of the number file, each number written by the package."""
    import ekl_evidence as ekl

    static = [int(x, 16) for x in (RFC / "numgen-static.txt").read_text(encoding="utf-8").split()]
    h = hashlib.sha256()
    out = {}
    for n, bits in enumerate(_es6_bits(static), start=1):
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
        h.update(f"{bits:x},".encode() + ekl.canonicalize_value(x) + b"\n")
        if n in ns:
            out[n] = h.copy().hexdigest()
        if n >= max(ns):
            break
    return out

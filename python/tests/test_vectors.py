"""vectors/ through the installed package: every line of vectors/calls.jsonl (vector_calls.py,
vectors/README.md#calls) and the ECMAScript number file of RFC 8785's test data."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from vector_calls import CALLS, VECTORS, es6_hashes, es6_published, lines, run, tamper

LINES = lines()


def test_calls_file_is_present() -> None:
    if not VECTORS.is_dir():
        pytest.skip(f"no vectors/ folder in this checkout ({VECTORS})")
    assert LINES, f"{CALLS} holds no line"


def test_every_line_gives_its_vector_file_value() -> None:
    failed, blind = run(LINES)
    assert failed == []
    assert blind == [], "a changed expected value passes"


def test_meta_a_changed_expected_value_fails(tmp_path: Path) -> None:
    """The runner on a copy of fingerprints.json with the first line's expected value changed."""
    line = next(x for x in LINES if x["file"] == "fingerprints.json")
    doc = json.loads((VECTORS / "fingerprints.json").read_text("utf-8"))
    *path, last = line["pointer"][1:].split("/")
    holder = doc
    for k in path:
        holder = holder[int(k)] if isinstance(holder, list) else holder[k]
    holder[last] = tamper(holder[last])
    (tmp_path / "fingerprints.json").write_text(json.dumps(doc), "utf-8")
    assert run([line])[0] == []
    assert len(run([line], tmp_path)[0]) == 1


def test_es6_number_file() -> None:
    want = es6_published()
    assert len(want) >= 3, "es6-hashes.tsv holds the 10^3 to 10^5 rows"
    assert es6_hashes(sorted(want)) == want


def test_meta_a_changed_published_hash_fails() -> None:
    n, h = min(es6_published().items())
    assert es6_hashes([n])[n] == h
    assert es6_hashes([n])[n] != tamper(h)


def test_runner_reads_the_repository_copy() -> None:
    if os.environ.get("EKL_VECTORS_DIR"):
        pytest.skip("EKL_VECTORS_DIR overrides the folder")
    assert VECTORS == Path(__file__).resolve().parents[2] / "vectors"

"""Every file of vectors/, read in place, through the installed package."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from vector_runners import (
    FOLDER_RUNNERS,
    MUTATIONS,
    RUNNERS,
    VECTORS,
    Check,
    load,
    run_rfc8785_testdata,
    vector_files,
    vector_folders,
)

from ekl_evidence import EklError


def _all_checks() -> list[tuple[str, Check]]:
    out = []
    for path in vector_files():
        runner = RUNNERS.get(path.name)
        if runner is None:
            continue
        for check in runner(load(path)):
            out.append((path.name, check))
    for folder in vector_folders():
        folder_runner = FOLDER_RUNNERS.get(folder.name)
        if folder_runner is not None:
            for check in folder_runner(folder):
                out.append((folder.name, check))
    return out


CHECKS = _all_checks()


def test_vectors_are_present() -> None:
    if not VECTORS.is_dir():
        pytest.skip(f"no vectors/ folder in this checkout ({VECTORS})")
    present = {p.name for p in vector_files()}
    assert "fingerprints.json" in present, present


def _pinned() -> set[str]:
    """The files checked through vectors/calls.jsonl (test_vector_calls.py)."""
    calls = VECTORS / "calls.jsonl"
    if not calls.is_file():
        return set()
    return {json.loads(line)["file"] for line in calls.read_text("utf-8").split("\n") if line}


def test_a_file_is_checked_through_calls_or_by_a_runner_not_both() -> None:
    assert _pinned() & set(RUNNERS) == set()


def test_every_vector_file_has_a_runner() -> None:
    pinned = _pinned()
    missing = [p.name for p in vector_files() if p.name not in RUNNERS and p.name not in pinned]
    missing += [p.name + "/" for p in vector_folders() if p.name not in FOLDER_RUNNERS]
    if missing:
        pytest.skip(f"vector files without a Python runner yet: {missing}")


@pytest.mark.parametrize(
    "file,check", CHECKS, ids=[f"{f}::{c[0]}" for f, c in CHECKS] or None
)
def test_vector(file: str, check: Check) -> None:
    check[1]()


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_meta_a_changed_expected_value_fails(name: str) -> None:
    path = VECTORS / name
    if not path.is_file():
        pytest.skip(f"{name} is not in this checkout")
    data = load(path)
    section, index, member = MUTATIONS[name]
    changed: Any = copy.deepcopy(data)
    case = changed[section][index] if section else changed
    *inside, member = member.split(".")
    for part in inside:
        case = case[part]
    original = case[member]
    if isinstance(original, int):
        case[member] = original + 10**7
    else:
        case[member] = original[:-1] + ("0" if original[-1:] != "0" else "1")
    failures = 0
    for _, thunk in RUNNERS[name](changed):
        try:
            thunk()
        except (AssertionError, EklError):
            failures += 1
    assert failures >= 1, f"changing {section}[{index}].{member} of {name} was not noticed"
    # and the unchanged file passes, so the failure above came from the change
    for _, thunk in RUNNERS[name](data):
        thunk()


def test_runner_reads_the_repository_copy() -> None:
    if os.environ.get("EKL_VECTORS_DIR"):
        pytest.skip("EKL_VECTORS_DIR overrides the folder")
    assert VECTORS == Path(__file__).resolve().parents[2] / "vectors"


def test_meta_rfc8785_testdata_runner_fails_on_a_changed_output(tmp_path: Path) -> None:
    src = VECTORS / "rfc8785-testdata"
    if not src.is_dir():
        pytest.skip("rfc8785-testdata is not in this checkout")
    import shutil

    copy_dir = tmp_path / "rfc8785-testdata"
    shutil.copytree(src, copy_dir)
    out = copy_dir / "output" / "values.json"
    out.write_bytes(out.read_bytes().replace(b"1e+30", b"1e+31"))
    tsv = copy_dir / "es6-hashes.tsv"
    tsv.write_text(tsv.read_text().replace("\t", "\t0", 1))
    failed = []
    for name, thunk in run_rfc8785_testdata(copy_dir):
        try:
            thunk()
        except AssertionError:
            failed.append(name)
    assert "input/values.json" in failed and "es6 number file" in failed, failed

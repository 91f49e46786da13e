"""vectors/calls.jsonl through the installed package (vectors/README.md#calls): each line's `call`
request, dispatched generically from the package's manifest (the conformance adapter,
examples/conformance/python_adapter.py), gives the value its vector file holds at its pointer;
the value changed does not (the meta-test, per line)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "vectors"
CALLS = VECTORS / "calls.jsonl"
_MISSING = object()


def _adapter() -> Any:
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


def taken(answer: dict[str, Any], take: list[str]) -> Any:
    """`take` of an answer ({"ok": text} or {"error": CODE}); _MISSING where a step finds nothing."""
    if take[:1] == ["json"]:  # the answer's own canonical JSON text instead of its value
        v: Any = answer.get("ok", _MISSING)
        take = take[1:]
    else:
        v = json.loads(answer["ok"]) if "ok" in answer else {"error": answer["error"]}
    for step in take:
        if step in ("length", "sha256"):
            if not isinstance(v, str):
                return _MISSING
            data = v.encode("utf-8")
            v = len(data) if step == "length" else hashlib.sha256(data).hexdigest()
        else:
            v = at(v, step)
        if v is _MISSING:
            return _MISSING
    return v


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


def _lines() -> list[dict[str, Any]]:
    if not CALLS.is_file():
        return []
    return [json.loads(line) for line in CALLS.read_text("utf-8").split("\n") if line]


LINES = _lines()


def test_calls_file_is_present() -> None:
    if not VECTORS.is_dir():
        pytest.skip(f"no vectors/ folder in this checkout ({VECTORS})")
    assert LINES, "vectors/calls.jsonl holds no line"


def test_every_line_gives_its_vector_file_value() -> None:
    adapter = _adapter()
    files: dict[str, Any] = {}
    failed, blind = [], []
    for line in LINES:
        file, pointer = line["file"], line["pointer"]
        if file not in files:
            files[file] = json.loads((VECTORS / file).read_text("utf-8"))
        want = at(files[file], pointer)
        got = taken(adapter.answer(json.dumps({**line["request"], "id": 1})), line["take"])
        if not same(got, want):
            failed.append((file, pointer, got, want))
        if same(got, tamper(want)):
            blind.append((file, pointer))
    assert failed == []
    assert blind == [], "a changed expected value passes"

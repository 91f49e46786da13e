"""Fuzz target (atheris): the Python host conversion against the text path (issue 14).

A Python value is built from the fuzzer's bytes (dicts, lists, tuples, str with lone surrogates,
ints beyond 2^53, floats with NaN/inf/-0.0, bools, None, deep nesting). Then
`canonicalize_value(value)` (the strict host conversion) must agree with
`canonicalize(json.dumps(value))` (the core's text path, fed by the standard library's JSON
writer): the same bytes, or the same refusal code. Any other exception, a panic surfaced as
INTERNAL_ERROR, or a disagreement is a finding.

Run: python fuzz_convert.py -max_total_time=600 (scripts/fuzz.sh runs it after the cargo targets).
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import atheris

with atheris.instrument_imports():
    import ekl_evidence as ekl

# The generator and the oracle are Python code: instrumented, so the fuzzer has coverage to follow
# (the Rust inside the extension is fuzzed by the cargo targets).

SPECIAL_FLOATS = [0.0, -0.0, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, math.nan, math.inf, -math.inf]
SPECIAL_INTS = [0, -1, 2**53, -(2**53), 2**53 + 1, -(2**53) - 1, 2**64, True, False]


@atheris.instrument_func
def build(fdp: atheris.FuzzedDataProvider, depth: int = 0) -> Any:
    kind = fdp.ConsumeIntInRange(0, 9 if depth < 70 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return fdp.ConsumeBool()
    if kind == 2:
        return fdp.PickValueInList(SPECIAL_INTS) if fdp.ConsumeBool() else fdp.ConsumeInt(8)
    if kind == 3:
        return fdp.PickValueInList(SPECIAL_FLOATS) if fdp.ConsumeBool() else fdp.ConsumeRegularFloat()
    if kind in (4, 5):
        # Code points include lone surrogates (U+D800..U+DFFF), which have no UTF-8 form.
        return "".join(chr(fdp.ConsumeIntInRange(0, 0x10FFFF)) for _ in range(fdp.ConsumeIntInRange(0, 6)))
    if kind in (6, 7):
        items = [build(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
        return tuple(items) if kind == 7 and fdp.ConsumeBool() else items
    obj: dict[str, Any] = {}
    for _ in range(fdp.ConsumeIntInRange(0, 4)):
        key = "".join(chr(fdp.ConsumeIntInRange(0, 0x10FFFF)) for _ in range(fdp.ConsumeIntInRange(0, 3)))
        obj[key] = build(fdp, depth + 1)
    return obj


@atheris.instrument_func
def outcome(fn: Any, arg: Any) -> tuple[str, Any]:
    try:
        return ("ok", fn(arg))
    except ekl.EklError as e:
        assert e.code != "INTERNAL_ERROR", "a panic reached Python"
        return ("error", e.code)


@atheris.instrument_func
def test_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    value = build(fdp)
    host = outcome(ekl.canonicalize_value, value)
    try:
        text = json.dumps(value, ensure_ascii=True, allow_nan=True)
    except (ValueError, RecursionError):
        return
    via_text = outcome(ekl.canonicalize, text)
    if host != via_text:
        raise AssertionError(f"host path {host!r} != text path {via_text!r} for {text[:200]!r}")
    if host[0] == "ok":
        # A canonical form is a fixed point and reads back to an equal value.
        assert ekl.canonicalize(host[1]) == host[1]


def main() -> None:
    atheris.Setup(sys.argv, test_one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

"""Resource bounds of the Python surface (docs/decisions.md#limits, issue 14.3).

Every oversized or explosive input is refused with a stable code, in bounded time and memory,
and the library keeps serving. Peak memory is measured in a child process (the kernel's VmHWM, reset
before the refused call), so the figure is the whole interpreter's, not a guess.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest

import ekl_evidence as ekl
from ekl_evidence import EklError

MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_VALUE_BYTES = 8 * 1024 * 1024
CAPABILITY_INPUT_MAX_BYTES = 256 * 1024

# Peak resident memory (MiB) that a refused input may cost the whole process, over the baseline
# of an interpreter that imported the package. Measured 2026-12: see docs/decisions.md#limits.
PEAK_BUDGET_MIB = 100


def code(fn: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EklError) as info:
        fn(*args, **kwargs)
    return info.value.code


def dag(levels: int) -> Any:
    """28 lists, each holding the previous one twice: 2^28 leaves once expanded."""
    value: Any = [0]
    for _ in range(levels):
        value = [value, value]
    return value


def test_shared_reference_graph_is_refused_early() -> None:
    graph = dag(28)
    t0 = time.monotonic()
    assert code(ekl.canonicalize_value, graph) == "BODY_TOO_LARGE"
    assert code(ekl.input_commitment, graph) == "BODY_TOO_LARGE"
    assert code(ekl.commitment, graph) == "BODY_TOO_LARGE"
    assert code(ekl.fingerprint, "00" * 32, graph) == "BODY_TOO_LARGE"
    assert time.monotonic() - t0 < 30, "the refusals stop as soon as the bound is passed"
    # Still serving, and a small DAG is fine (shared references are not cycles).
    assert ekl.canonicalize_value(dag(3)) == json.dumps(dag(3), separators=(",", ":")).encode()


def test_input_commitment_stops_at_its_own_limit() -> None:
    # The 256 KB limit of §2.5 applies during the conversion: a 1 MiB string is refused at once.
    assert code(ekl.input_commitment, {"a": "x" * (1 << 20)}) == "BODY_TOO_LARGE"
    # At the limit exactly (canonical form 262,144 bytes) it is accepted; one more byte is not.
    filler = CAPABILITY_INPUT_MAX_BYTES - len('{"a":""}')
    assert ekl.input_commitment({"a": "x" * filler})["alg"] == "sha-256"
    assert code(ekl.input_commitment, {"a": "x" * (filler + 1)}) == "BODY_TOO_LARGE"
    # The bound is found where the conversion passes it, before a later refusal, as in JS.
    assert code(ekl.input_commitment, {"big": "x" * 300_000, "n": float("nan")}) == "BODY_TOO_LARGE"
    assert code(ekl.input_commitment, {"n": float("nan"), "big": "x" * 300_000}) == "NON_FINITE_NUMBER"
    # max_bytes of canonicalize_value bounds the conversion the same way.
    assert code(ekl.canonicalize_value, ["y" * 100], max_bytes=50) == "BODY_TOO_LARGE"
    assert ekl.canonicalize_value(["y" * 10], max_bytes=50) == b'["yyyyyyyyyy"]'


def test_value_bound() -> None:
    # Just under the value bound is converted; past it, refused.
    under = "z" * (MAX_VALUE_BYTES - 2)
    assert len(ekl.canonicalize_value(under)) == MAX_VALUE_BYTES
    assert code(ekl.canonicalize_value, under + "z") == "BODY_TOO_LARGE"
    wide = [0] * (MAX_VALUE_BYTES + 1)
    assert code(ekl.canonicalize_value, wide) == "BODY_TOO_LARGE"


def test_text_bound() -> None:
    at_limit = b'"' + b"a" * (MAX_INPUT_BYTES - 2) + b'"'
    assert len(ekl.canonicalize(at_limit)) == MAX_INPUT_BYTES
    over = at_limit + b" "
    for form in (over, bytearray(over), memoryview(over), over.decode()):
        assert code(ekl.canonicalize, form) == "BODY_TOO_LARGE"
    assert code(ekl.JsonText, over) == "BODY_TOO_LARGE"
    # The same bound on every operation that takes bytes, hashing included (as in JS and wasm).
    assert code(ekl.sha256_hex, over) == "BODY_TOO_LARGE"
    assert len(ekl.sha256_hex(at_limit)) == 64


def peak_mib(body: str) -> tuple[float, float, str]:
    """Runs `body` in a fresh interpreter; returns (resident MiB before the refused call, peak
    resident MiB during it, what it printed). The peak is the kernel's VmHWM, reset just before
    the call (`clear_refs` 5), so the figure is the call's own high-water mark."""
    script = textwrap.dedent(
        """
        import ekl_evidence as ekl

        def status(field):
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        return int(line.split()[1]) / 1024

        def measure():
            global base
            base = status("VmRSS")
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        """
    ) + textwrap.dedent(body) + textwrap.dedent(
        """
        print(base, status("VmHWM"))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    ).stdout.split()
    return float(out[-2]), float(out[-1]), " ".join(out[:-2])


@pytest.mark.parametrize(
    "name,body",
    [
        (
            "dag-28",
            """
            v = [0]
            for _ in range(28):
                v = [v, v]
            measure()
            try:
                ekl.input_commitment(v)
            except ekl.EklError as e:
                print(e.code)
            """,
        ),
        (
            "wide-list",
            """
            v = [None] * 20_000_000
            measure()
            try:
                ekl.canonicalize_value(v)
            except ekl.EklError as e:
                print(e.code)
            """,
        ),
        (
            "deep-text",
            """
            t = b"[" * 60_000_000
            measure()
            try:
                ekl.canonicalize(t)
            except ekl.EklError as e:
                print(e.code)
            """,
        ),
        (
            "oversized-text",
            """
            t = b"1" * (65 * 1024 * 1024)
            measure()
            try:
                ekl.canonicalize(t)
            except ekl.EklError as e:
                print(e.code)
            """,
        ),
    ],
)
def test_peak_memory_of_refusals(name: str, body: str) -> None:
    base, peak, printed = peak_mib(body)
    assert printed in ("BODY_TOO_LARGE", "INPUT_TOO_DEEP"), (name, printed)
    assert peak - base < PEAK_BUDGET_MIB, f"{name}: peak {peak:.0f} MiB over a base of {base:.0f}"
    print(f"{name}: {printed}, peak {peak:.0f} MiB, base {base:.0f} MiB")


def test_peak_measure_sees_an_allocation() -> None:
    # The meta-test of the measure: a 300 MiB allocation after the reset shows in the peak.
    base, peak, _ = peak_mib(
        """
        measure()
        blob = bytearray(300 * 1024 * 1024)
        del blob
        """
    )
    assert peak - base > 250

"""One exception class with stable codes, kept in step with the Rust enum; no panic escapes."""

from __future__ import annotations

import importlib.util
import json
import pickle
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import ekl_evidence as ekl
from ekl_evidence import ERROR_CODES, EklError
from ekl_evidence._native import error_codes

REPO = Path(__file__).resolve().parents[2]
ERRORS_JSON = REPO / "docs" / "errors.json"
GEN_STUBS = REPO / "python" / "tools" / "gen_stubs.py"


def _corrected_block(codes: list[str]) -> str:
    return "ErrorCode = Literal[\n" + "".join(f'    "{c}",\n' for c in codes) + "]"


def test_literal_matches_the_compiled_enum() -> None:
    native = error_codes()
    if list(ERROR_CODES) != native:
        pytest.fail(
            "ekl_evidence/_errors.py drifted from ekl_core::ErrorCode::ALL; replace its block with:\n"
            + _corrected_block(native)
        )


def _gen_stubs() -> ModuleType:
    if not GEN_STUBS.is_file() or not ERRORS_JSON.is_file():
        pytest.skip("python/tools/gen_stubs.py and docs/errors.json are not beside these tests")
    spec = importlib.util.spec_from_file_location("gen_stubs", GEN_STUBS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_errors_json_is_the_compiled_enum() -> None:
    if not ERRORS_JSON.is_file():
        pytest.skip("docs/errors.json is not beside these tests")
    listed = [c["code"] for c in json.loads(ERRORS_JSON.read_text(encoding="utf-8"))["codes"]]
    assert listed == error_codes(), "rebuild the extension, or bless docs/errors.json (CONTRIBUTING.md)"


def test_literal_is_generated_from_docs_errors_json() -> None:
    gen = _gen_stubs()
    errors = json.loads(ERRORS_JSON.read_text(encoding="utf-8"))
    module = gen.ERRORS.read_text(encoding="utf-8")
    assert gen.error_codes(errors, module) == module, "stale: run python3 python/tools/gen_stubs.py"
    # The generator notices a code added to the core's table (the same check --check makes).
    more = dict(errors, codes=errors["codes"] + [{"code": "NEW_CODE"}])
    assert '    "NEW_CODE",\n]\n# end\n' in gen.error_codes(more, module)
    assert gen.error_codes(more, module) != module


def test_drift_check_would_fail() -> None:
    # meta-test: the comparison above notices one changed code
    changed = list(ERROR_CODES)
    changed[0] = changed[0] + "X"
    assert changed != error_codes()


def test_error_shape() -> None:
    with pytest.raises(EklError) as info:
        ekl.canonicalize("[1,]")
    e = info.value
    assert isinstance(e, ValueError)
    assert e.code == "INVALID_JSON"
    assert e.code in ERROR_CODES
    assert isinstance(e.message, str) and e.message
    assert str(e).startswith("INVALID_JSON: ")
    again = pickle.loads(pickle.dumps(e))
    assert type(again) is EklError and again.code == e.code and again.message == e.message
    assert type(e) is ekl.EklError


def test_messages_do_not_echo_secrets() -> None:
    secret = "sEcReT-" + "z" * 20
    for call in (
        lambda: ekl.fingerprint(secret, {}),
        lambda: ekl.challenge_proof_v2(secret, "c", "e"),
        lambda: ekl.canonicalize('{"' + secret + '": 1, "' + secret + '": 2}'),
        lambda: ekl.canonicalize('"' + secret + "\\ud800" + '"'),
    ):
        with pytest.raises(EklError) as info:
            call()
        assert secret not in str(info.value) and "sEcReT" not in repr(info.value)


def test_argument_type_errors_are_type_errors() -> None:
    with pytest.raises(TypeError):
        ekl.fingerprint(b"00" * 32, {})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ekl.proof_key(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ekl.upstream_fingerprint([], offered="name")


def _hostile_texts(seed: int, n: int) -> list[bytes]:
    rng = random.Random(seed)
    alphabet = b'{}[]":,.-+eE0123456789 \t\r\n\\/ubfnrtaxlsNIy\x00\x7f\xc3\xa9\xed\xa0\x80\xf0\x9f\x98\x80\xff'
    out = [
        b"[" * 100_000,
        b"{" * 100_000,
        b'{"a":' * 70_000,
        b"[" * 64 + b"]" * 64,
        b'"\\ud800\\udc00\\ud800"',
        b"1e99999999999999999999",
        b"-" + b"9" * 5000,
        b"0." + b"0" * 5000 + b"1",
        b"\xef\xbb\xbf{}",
        b"",
    ]
    for _ in range(n):
        size = rng.randrange(0, 64)
        out.append(bytes(rng.choice(alphabet) for _ in range(size)))
    return out


def test_hostile_texts_never_panic() -> None:
    ok = refused = 0
    for text in _hostile_texts(20261129, 20_000):
        try:
            ekl.canonicalize(text)
            ok += 1
        except EklError as e:
            assert e.code in ERROR_CODES and e.code != "INTERNAL_ERROR", e
            refused += 1
        # BaseException subclasses (PanicException) would propagate and fail the test
    assert refused > 0 and ok > 0


RING = "s"  # a key ring: the registration secret alone
CALL = {k: "x" for k in ("execution_id", "collaboration_id", "capability_id",
                         "requester_agent_id", "provider_agent_id")}


def test_hostile_values_never_panic() -> None:
    rng = random.Random(7)
    leaves: list[Any] = [
        None, True, 2**53, -(2**53) - 1, 1e308, float("nan"), -0.0, "\ud800", "x", b"x", {1}, 10**30,
    ]
    for _ in range(3000):
        value: Any = rng.choice(leaves)
        for _ in range(rng.randrange(0, 70)):
            value = rng.choice([[value], {"k": value}, (value, 1), {"a": value, 1: 2}])
        for fn in (
            ekl.canonicalize_value,
            ekl.value_digest,
            ekl.terms_hash,
            ekl.upstream_fingerprint,
            ekl.receipt_digest,
            ekl.screen,
            lambda v: ekl.verify_receipt(v, RING, CALL),
            ekl.screening_rules,
        ):
            try:
                fn(value)
            except EklError as e:
                assert e.code in ERROR_CODES and e.code != "INTERNAL_ERROR", e

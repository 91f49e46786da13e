"""Every rule of the strict conversion of Python values (docs/decisions.md#python)."""

from __future__ import annotations

import array
import collections
import datetime
import decimal
import enum
import fractions
import json
import sys
import uuid
from typing import Any, NamedTuple

import pytest

import ekl_evidence as ekl
from ekl_evidence import EklError, JsonText
from ekl_evidence._native import roundtrip

canon = ekl.canonicalize_value


def code_of(value: Any) -> str:
    with pytest.raises(EklError) as info:
        canon(value)
    return info.value.code


def nest(depth: int, kind: str = "list") -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


# --- scalars -----------------------------------------------------------------------------------


def test_none_bool_before_int() -> None:
    assert canon(None) == b"null"
    assert canon(True) == b"true"
    assert canon(False) == b"false"
    assert canon([True, 1, False, 0]) == b"[true,1,false,0]"
    # a dict where True and 1 would collide if bool were read as int
    assert canon({"a": True, "b": 1}) == b'{"a":true,"b":1}'


@pytest.mark.parametrize(
    "n,ok",
    [
        (2**53, True),
        (-(2**53), True),
        (2**53 - 1, True),
        (2**53 + 1, False),
        (-(2**53) - 1, False),
        (2**63 - 1, False),
        (2**63, False),
        (-(2**63), False),
        (2**64, False),
        (10**400, False),
        (-(10**400), False),
    ],
)
def test_int_bounds(n: int, ok: bool) -> None:
    if ok:
        assert canon(n) == str(n).encode()
        assert canon(n) == ekl.canonicalize(str(n))
    else:
        assert code_of(n) == "INTEGER_OUT_OF_RANGE"
        assert code_of([{"x": n}]) == "INTEGER_OUT_OF_RANGE"
        with pytest.raises(EklError) as text:
            ekl.canonicalize(str(n))
        assert text.value.code == "INTEGER_OUT_OF_RANGE"


def test_floats() -> None:
    assert canon(-0.0) == b"0"
    assert canon([-0.0, 0.0]) == b"[0,0]"
    assert canon(1.0) == b"1"
    assert canon(1e21) == b"1e+21"
    assert canon(1e-7) == b"1e-7"
    assert canon(0.1) == b"0.1"
    assert canon(2.0**60) == b"1152921504606847000"  # a float is not an integer literal
    assert canon(5e-324) == b"5e-324"
    for bad in (float("nan"), float("inf"), float("-inf")):
        assert code_of(bad) == "NON_FINITE_NUMBER"
        assert code_of({"x": [bad]}) == "NON_FINITE_NUMBER"


def test_strings() -> None:
    assert canon("é\u2028/\x7f") == '"é\u2028/\x7f"'.encode()
    assert canon("\x00\x1f\"\\") == b'"\\u0000\\u001f\\"\\\\"'
    assert canon("\U0001f600") == '"\U0001f600"'.encode()


@pytest.mark.parametrize("s", ["\ud800", "\udc00", "a\ud83d", "\ude00x", "\udbff\udbff"])
def test_lone_surrogate_in_a_python_str(s: str) -> None:
    assert code_of(s) == "LONE_SURROGATE"
    assert code_of([s]) == "LONE_SURROGATE"
    assert code_of({s: 1}) == "LONE_SURROGATE"  # as a key too
    # the same code as the escape in text
    escaped = json.dumps(s)  # ensure_ascii writes the lone surrogate as \udxxx
    with pytest.raises(EklError) as info:
        ekl.canonicalize(escaped)
    assert info.value.code == "LONE_SURROGATE"
    # and as JSON text holding the raw character (no UTF-8 form)
    with pytest.raises(EklError) as info:
        ekl.canonicalize('"' + s + '"')
    assert info.value.code == "LONE_SURROGATE"


def test_a_surrogate_pair_built_from_halves_is_one_character() -> None:
    # Python joins nothing: "\ud83d" + "\ude00" stays two lone surrogates
    assert code_of("\ud83d" + "\ude00") == "LONE_SURROGATE"
    assert canon("\U0001f600") == ekl.canonicalize('"\\ud83d\\ude00"')


# --- containers --------------------------------------------------------------------------------


def test_dict_keys_must_be_str() -> None:
    for key in (1, 1.5, True, None, (1,), b"k"):
        assert code_of({key: 1}) == "NON_STRING_KEY", key
        assert code_of([{"ok": {key: 1}}]) == "NON_STRING_KEY", key


def test_tuple_is_an_array() -> None:
    assert canon((1, "a", (None,))) == b'[1,"a",[null]]'
    assert canon(()) == b"[]"


@pytest.mark.parametrize("kind", ["list", "dict"])
def test_depth_64_accepted_65_refused(kind: str) -> None:
    # nest(n) has n containers around the 0
    assert canon(nest(64, kind)) == ekl.canonicalize(json.dumps(nest(64, kind)))
    assert code_of(nest(65, kind)) == "INPUT_TOO_DEEP"
    assert code_of(nest(10_000, kind)) == "INPUT_TOO_DEEP"


def test_very_deep_value_does_not_overflow() -> None:
    value: Any = []
    for _ in range(200_000):
        value = [value]
    assert code_of(value) == "INPUT_TOO_DEEP"


def test_cycles() -> None:
    a: list = []
    a.append(a)
    assert code_of(a) == "CYCLIC_VALUE"
    d: dict = {}
    d["self"] = d
    assert code_of(d) == "CYCLIC_VALUE"
    outer: dict = {"x": [1, {"y": []}]}
    outer["x"][1]["y"].append(outer)
    assert code_of(outer) == "CYCLIC_VALUE"


def test_shared_references_are_not_cycles() -> None:
    shared = {"a": 1}
    assert canon([shared, shared, {"s": shared}]) == b'[{"a":1},{"a":1},{"s":{"a":1}}]'


def test_duplicate_keys_need_the_text_path() -> None:
    # a dict cannot hold duplicates; JsonText can, and is refused like the text
    with pytest.raises(EklError) as info:
        canon(JsonText('{"a":1,"\\u0061":2}'))
    assert info.value.code == "DUPLICATE_KEY"


# --- subclasses and other types ----------------------------------------------------------------


class Color(enum.IntEnum):
    RED = 1


class Flag(enum.IntFlag):
    A = 4


class Plain(enum.Enum):
    X = "x"


class MyStr(str):
    def __str__(self) -> str:  # not called: the stored text is used
        return "other"


class MyFloat(float):
    def __float__(self) -> float:
        return 99.0


class MyInt(int):
    def __index__(self) -> int:
        return 99


class MyDict(dict):
    def items(self):  # type: ignore[no-untyped-def, override]
        raise AssertionError("items() is not called")

    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("__iter__ is not called")


class MyList(list):
    def __iter__(self):  # type: ignore[no-untyped-def]
        raise AssertionError("__iter__ is not called")


class Point(NamedTuple):
    x: int
    y: int


def test_subclasses_count_as_their_base_value() -> None:
    assert canon(Color.RED) == b"1"
    assert canon(Flag.A) == b"4"
    assert canon({"c": Color.RED}) == b'{"c":1}'
    assert canon(MyStr("s")) == b'"s"'
    assert canon({MyStr("k"): 1}) == b'{"k":1}'
    assert canon(MyFloat(1.5)) == b"1.5"
    assert canon(MyInt(7)) == b"7"
    assert code_of(MyInt(2**53 + 1)) == "INTEGER_OUT_OF_RANGE"
    assert canon(MyDict(b=1, a=2)) == b'{"a":2,"b":1}'
    assert canon(MyList([1, 2])) == b"[1,2]"
    assert canon(collections.OrderedDict([("b", 1), ("a", 2)])) == b'{"a":2,"b":1}'
    dd: collections.defaultdict = collections.defaultdict(list)
    dd["x"].append(1)
    assert canon(dd) == b'{"x":[1]}'
    assert canon(collections.Counter("aab")) == b'{"a":2,"b":1}'
    assert canon(Point(1, 2)) == b"[1,2]"


@pytest.mark.skipif(sys.version_info < (3, 11), reason="StrEnum is new in 3.11")
def test_str_enum() -> None:
    class S(enum.StrEnum):  # type: ignore[name-defined,misc]
        A = "a"

    assert canon({"k": S.A}) == b'{"k":"a"}'


@pytest.mark.parametrize(
    "value",
    [
        {1, 2},
        frozenset(),
        b"bytes",
        bytearray(b"x"),
        memoryview(b"x"),
        decimal.Decimal("1.5"),
        fractions.Fraction(1, 2),
        complex(1, 2),
        datetime.datetime(2026, 1, 1),
        datetime.date(2026, 1, 1),
        uuid.UUID(int=0),
        Plain.X,
        object(),
        len,
        range(3),
        iter([1]),
        (x for x in [1]),
        collections.deque([1]),
        collections.ChainMap({}),
        type("Custom", (), {})(),
        array.array("b", [1]),
        JsonText("1"),  # only as the whole value, not inside a host value
        ...,
        NotImplemented,
        int,
    ],
    ids=lambda v: type(v).__name__,
)
def test_unsupported_types(value: Any) -> None:
    assert code_of([value]) == "UNSUPPORTED_TYPE"
    assert code_of({"k": value}) == "UNSUPPORTED_TYPE"
    if not isinstance(value, JsonText):
        assert code_of(value) == "UNSUPPORTED_TYPE"


def test_mapping_proxy_is_not_a_dict() -> None:
    import types

    assert code_of(types.MappingProxyType({"a": 1})) == "UNSUPPORTED_TYPE"


# --- the conversion is what the core receives ---------------------------------------------------


def test_roundtrip_shows_what_the_core_receives() -> None:
    got = roundtrip({"a": (1, 2.5, -0.0, True, None, Color.RED), "b": MyStr("s")})
    assert got == {"a": [1, 2.5, 0, True, None, 1], "b": "s"}
    assert type(got["a"][3]) is bool
    assert type(got["a"][5]) is int


def test_first_refusal_in_order() -> None:
    # the first refusal met in iteration order is reported
    assert code_of([float("nan"), 2**60]) == "NON_FINITE_NUMBER"
    assert code_of([2**60, float("nan")]) == "INTEGER_OUT_OF_RANGE"


def test_text_inputs_of_every_kind() -> None:
    expected = b'{"a":1}'
    for text in ('{"a":1}', b'{"a":1}', bytearray(b'{"a":1}'), memoryview(b' {"a":1} '),
                 array.array("B", b'{"a":1}'), JsonText('{"a":1}'), JsonText(b'{"a":1}')):
        assert ekl.canonicalize(text) == expected, text
    with pytest.raises(TypeError):
        ekl.canonicalize(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ekl.canonicalize({"a": 1})  # type: ignore[arg-type]


def test_json_text_wrapper() -> None:
    t = JsonText('{"b":2,"a":1}')
    assert t.data == b'{"b":2,"b":1}'.replace(b'"b":1', b'"a":1')
    assert len(t) == 13
    assert t == JsonText(b'{"b":2,"a":1}')
    assert hash(t) == hash(JsonText(b'{"b":2,"a":1}'))
    assert "13 bytes" in repr(t)
    with pytest.raises(EklError) as info:
        JsonText('"\ud800"')
    assert info.value.code == "LONE_SURROGATE"
    # big integers and escapes reach the core as written
    with pytest.raises(EklError) as info:
        ekl.value_digest(JsonText("[9007199254740993]"))
    assert info.value.code == "INTEGER_OUT_OF_RANGE"

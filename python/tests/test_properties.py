"""Canonicalisation invariants (hypothesis) and text path == value path on a seeded corpus."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ekl_evidence as ekl

BOUND = 2**53

# Text without lone surrogates (those are refused, tested elsewhere).
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)
numbers = st.one_of(
    st.integers(min_value=-BOUND, max_value=BOUND),
    st.floats(allow_nan=False, allow_infinity=False),
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, text),
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(text, children, max_size=5),
    ),
    max_leaves=30,
)


def reparsable(out: bytes) -> bool:
    """Canonical bytes read back as the same value, except doubles in (2^53, 1e21) that the
    canonical form writes as an integer literal (refused on re-reading, see the decisions)."""
    try:
        ekl.canonicalize(out)
        return True
    except ekl.EklError as e:
        assert e.code == "INTEGER_OUT_OF_RANGE"
        return False


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_idempotent(value: Any) -> None:
    out = ekl.canonicalize_value(value)
    if reparsable(out):
        assert ekl.canonicalize(out) == out
        assert ekl.canonicalize_value(json.loads(out)) == out


@settings(max_examples=300, deadline=None)
@given(json_values, st.randoms(use_true_random=False), st.sampled_from([None, 0, 1, 2, "\t"]))
def test_independent_of_key_order_and_whitespace(value: Any, rnd: random.Random, indent: Any) -> None:
    expected = ekl.canonicalize_value(value)

    def shuffled(v: Any) -> Any:
        if isinstance(v, dict):
            items = list(v.items())
            rnd.shuffle(items)
            return {k: shuffled(x) for k, x in items}
        if isinstance(v, list):
            return [shuffled(x) for x in v]
        return v

    other = shuffled(value)
    assert ekl.canonicalize_value(other) == expected
    text_form = json.dumps(other, indent=indent, ensure_ascii=rnd.random() < 0.5)
    assert ekl.canonicalize(text_form) == expected
    assert ekl.canonicalize(text_form.encode("utf-8")) == expected


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_digests_follow_the_bytes(value: Any) -> None:
    out = ekl.canonicalize_value(value)
    assert ekl.value_digest(value) == ekl.sha256_hex(out)
    assert ekl.commitment(value)["digest"] == ekl.sha256_hex(out)


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if depth > 6 or r < 0.45:
        kind = rng.randrange(7)
        if kind == 0:
            return None
        if kind == 1:
            return rng.random() < 0.5
        if kind == 2:
            return rng.randint(-BOUND, BOUND)
        if kind == 3:
            return rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 30)
        if kind == 4:
            return rng.choice([0.0, -0.0, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 0.1])
        n = rng.randrange(0, 12)
        return "".join(
            chr(rng.choice([rng.randrange(0, 0x80), rng.randrange(0x80, 0xD800),
                            rng.randrange(0xE000, 0x110000)]))
            for _ in range(n)
        )
    if r < 0.7:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))]
    return {_random_key(rng): _random_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))}


def _random_key(rng: random.Random) -> str:
    pool = ["a", "b", "aa", "é", "€", "\U0001f600", "\uff71", "\ue000", "", "A", "z", "\x00"]
    return "".join(rng.choice(pool) for _ in range(rng.randrange(0, 3)))


def test_text_path_equals_value_path_on_a_seeded_corpus() -> None:
    rng = random.Random(4242)
    for i in range(3000):
        value = _random_value(rng)
        by_value = ekl.canonicalize_value(value)
        for ensure_ascii in (True, False):
            text = json.dumps(value, ensure_ascii=ensure_ascii, indent=i % 3 or None)
            assert ekl.canonicalize(text) == by_value, text
            assert ekl.canonicalize_value(ekl.JsonText(text)) == by_value
        assert ekl.canonicalize_many([text, text.encode()]) == [by_value, by_value]

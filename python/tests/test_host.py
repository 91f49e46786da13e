"""Host helpers: new_salt from the CSPRNG; a value where text is expected points to the value form."""

import re

import pytest

import ekl_evidence as ekl


def test_new_salt_is_a_fresh_salt_every_operation_takes():
    salts = {ekl.new_salt() for _ in range(64)}
    assert len(salts) == 64
    for s in salts:
        assert re.fullmatch(r"[0-9a-f]{64}", s)
    s = ekl.new_salt()
    assert ekl.fingerprint(s, {"a": 1}) == ekl.fingerprint(s, ekl.JsonText('{"a":1}'))
    assert ekl.commitment({"a": 1}, salt=s)["salt"] == s


def test_canonicalize_of_a_dict_points_to_canonicalize_value():
    with pytest.raises(TypeError, match="canonicalize_value"):
        ekl.canonicalize({"a": 1})
    with pytest.raises(TypeError) as e:
        ekl.canonicalize(42)
    assert "canonicalize_value" not in str(e.value)

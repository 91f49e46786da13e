"""Host helpers: new_salt, new_seed and new_signing_key from the CSPRNG; a value where text is expected points to the value form."""

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


def test_time_members_of_issuing_values_take_an_aware_datetime():
    import datetime as dt

    utc = dt.timezone.utc
    at = dt.datetime(2026, 11, 29, 12, 0, 5, 999000, tzinfo=utc)
    mac = {
        "receipt_version": "1.1", "receipt_id": "r1", "execution_kind": "trial",
        "execution_id": "ex_1", "collaboration_id": "col_1", "capability_id": "cap_1",
        "requester_agent_id": "agt_c", "provider_agent_id": "agt_p", "connection_id": "con_1",
        "capability_version": "1.0", "rel_ver_at_admission": 1, "dsc_ver": 1,
        "terms_hash": ekl.terms_hash({"price": "0"}), "input_commitment": ekl.commitment({"q": 1}),
        "output_commitment": ekl.commitment({"a": 2}), "status": "succeeded",
        "issued_at": "2026-11-29T12:00:05Z", "key_id": "rk-1",
        "auth_profile": "ekl-evidence-mac-1.1",
    }
    # a datetime in any zone, with a fraction of a second: the protocol's UTC form, floored
    paris = at.astimezone(dt.timezone(dt.timedelta(hours=1)))
    assert ekl.sign_receipt({**mac, "issued_at": paris}, "s") == ekl.sign_receipt(mac, "s")
    assert list(ekl.sign_receipt({**mac, "issued_at": at}, "s")) == [*mac, "auth_tag"]
    # JWS claims: iat/exp as datetimes give the token of their seconds (ES256 signing is
    # deterministic here: RFC 6979).
    _, (key,) = ekl.jwks_from_seed("42" * 32, ["net-1"])
    secs = {"iss": "https://n.example", "iat": 1780000000, "exp": 1780000060}
    dated = {"iss": "https://n.example",
             "iat": dt.datetime.fromtimestamp(1780000000.5, utc),
             "exp": dt.datetime.fromtimestamp(1780000060, utc)}
    assert ekl.sign_jws("ekl-access+jwt", dated, key) == ekl.sign_jws("ekl-access+jwt", secs, key)
    assert list(dated) == ["iss", "iat", "exp"]  # the caller's dict is not changed
    assert isinstance(dated["iat"], dt.datetime)
    # a naive datetime is refused, naming the member; a datetime elsewhere stays unsupported
    with pytest.raises(ekl.EklError, match=r"claims\['iat'\].*naive") as e2:
        ekl.sign_jws("ekl-access+jwt", {"iat": dt.datetime(2026, 1, 1)}, key)
    assert e2.value.code == "INVALID_ARGUMENT"
    with pytest.raises(ekl.EklError) as e3:
        ekl.sign_jws("ekl-access+jwt", {"iat": 1, "other": at}, key)
    assert e3.value.code == "UNSUPPORTED_TYPE"
    # the issued_at of a network-signed receipt: the same receipt as its wire form
    base = {"receipt_version": "1.2", "receipt_id": "r", "execution_kind": "trial",
            "requester_agent_id": "agt_c", "provider_agent_id": "agt_p", "collaboration_id": "c",
            "connection_id": "n", "execution_id": "e", "capability_id": "x",
            "capability_version": "1.0.0", "input_fingerprint": "ab" * 32,
            "output_fingerprint": "cd" * 32, "status": "succeeded",
            "auth_profile": "ekl-evidence-sig-1.2"}
    one = ekl.issue_receipt({**base, "issued_at": "2026-11-29T12:00:05Z"}, key, "https://n.example", "agt_c")
    two = ekl.issue_receipt({**base, "issued_at": at}, key, "https://n.example", "agt_c")
    assert one == two


def test_operations_list_their_time_members():
    import json

    ops = {op["name"]: op for op in json.loads(ekl._native.operations())["operations"]}
    times = {(o, p["name"]): p["times"] for o, op in ops.items() for p in op["params"] if "times" in p}
    assert times == {
        ("sign_receipt", "receipt"): {"issued_at": "timestamp"},
        ("verify_receipt", "keys"): {"valid_from": "timestamp", "valid_until": "timestamp"},
        ("verify_receipts", "keys"): {"valid_from": "timestamp", "valid_until": "timestamp"},
        ("verify_receipt_lines", "keys"): {"valid_from": "timestamp", "valid_until": "timestamp"},
        ("summarize_receipt_lines", "keys"): {"valid_from": "timestamp", "valid_until": "timestamp"},
        ("verify_archive", "keys"): {"valid_from": "timestamp", "valid_until": "timestamp"},
        ("verify_receipt_jws", "call"): {"sent_at": "seconds", "received_at": "seconds"},
        ("verify_signed_receipt", "call"): {"sent_at": "seconds", "received_at": "seconds"},
        ("sign_jws", "claims"): {"iat": "seconds", "nbf": "seconds", "exp": "seconds"},
        ("issue_receipt", "fields"): {"issued_at": "timestamp"},
        **{
            (op, "claims"): {"iat": "seconds", "nbf": "seconds", "exp": "seconds"}
            for op in (
                "issue_relationship_assertion",
                "issue_platform_call",
                "issue_execution_grant",
                "issue_revocation_feed",
                "issue_access_token",
            )
        },
    }


# The Python side of the rows of docs/host-idioms.md added by issue 44.3 (the JS side:
# node/test/host-idioms.test.js).
_CALL = {
    "execution_id": "ex_1", "collaboration_id": "col_1", "capability_id": "cap_x",
    "requester_agent_id": "agt_c", "provider_agent_id": "agt_p", "execution_kind": "trial",
    "connection_id": "con_1", "capability_version": "1.0.0", "terms_hash": "00" * 32,
}


def test_issue_mac_receipt_takes_its_arguments_by_keyword_as_js_takes_an_object():
    fixed = {"issued_at": 1_780_000_000, "input_salt": "aa" * 32, "output_salt": "bb" * 32, "receipt_id": "rcpt_1"}
    positional = ekl.issue_mac_receipt(_CALL, {"q": 1}, {"a": 2}, "succeeded", 4, 12, "s3cret", **fixed)
    named = ekl.issue_mac_receipt(_CALL, {"q": 1}, {"a": 2}, status="succeeded", rel_ver_at_admission=4,
                                  dsc_ver=12, secret="s3cret", **fixed)
    assert named == positional
    assert "ExecutionStatus" in ekl.__all__
    import typing
    assert typing.get_args(ekl.ExecutionStatus) == (
        "accepted", "running", "succeeded", "failed_before_effect", "cancelled", "outcome_unknown")


def test_verdict_helpers_are_the_ones_js_verdicts_carry():
    receipt = ekl.issue_mac_receipt(_CALL, {"q": 1}, {"a": 2}, "succeeded", 1, 1, "s3cret")
    salt = receipt["output_commitment"]["salt"]
    v = ekl.verify_receipt(receipt, "s3cret", _CALL, output_commitment=ekl.commitment({"a": 3}, salt=salt))
    assert (v.accepted, v.disputed, v.failed()) == (False, True, ["output_commitment"])
    check = v.check("output_commitment")
    assert check is not None and check.outcome == "mismatch"
    assert v.check("no_such_check") is None


def test_eklerror_message_is_the_description_and_str_starts_with_the_code():
    with pytest.raises(ekl.EklError) as e:
        ekl.canonicalize("[NaN]")
    assert e.value.code == "NON_FINITE_NUMBER"
    assert not e.value.message.startswith("NON_FINITE_NUMBER")
    assert str(e.value) == f"NON_FINITE_NUMBER: {e.value.message}"


def test_a_salted_commitment_always_has_its_salt():
    salt = ekl.new_salt()
    salted: ekl.SaltedCommitment = ekl.commitment({"a": 1}, salt=salt)
    assert salted["salt"] == salt
    plain: ekl.Commitment = ekl.commitment({"a": 1})
    assert "salt" not in plain


def test_new_seed_and_new_signing_key_draw_a_fresh_es256_key() -> None:
    seeds = {ekl.new_seed() for _ in range(64)}
    assert len(seeds) == 64
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)
    seed = ekl.new_seed()
    kept = ekl.signing_key(seed, "k1")
    # The seed is the key's secret: the same seed and kid give the same key.
    assert ekl.public_jwk(ekl.signing_key(seed, "k1")) == ekl.public_jwk(kept)
    key = ekl.new_signing_key("k1")
    assert key.kid == "k1"
    other = ekl.new_signing_key("k1")
    assert ekl.public_jwk(key) != ekl.public_jwk(other)
    claims = {"iss": "https://net.example", "aud": "agt_1", "iat": 1000, "exp": 1060}
    token = ekl.sign_jws("ekl-access+jwt", claims, key)
    assert ekl.verify_jws(token, "ekl-access+jwt", key.public_jwks(), now=1030)["kid"] == "k1"
    with pytest.raises(ekl.EklError) as e:
        ekl.verify_jws(token, "ekl-access+jwt", other.public_jwks(), now=1030)
    assert e.value.code == "SIGNATURE_INVALID"
    with pytest.raises(ekl.EklError) as e:
        ekl.new_signing_key("")
    assert e.value.code == "INVALID_KEY"

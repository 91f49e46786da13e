"""Nothing this library signs fails its own verifier (issue 10.4), from Python.

Generated receipts (valid ones, and ones with a member changed to a form the verifier refuses:
timestamps with an offset or in words, unknown statuses and kinds, missing or mistyped members,
customer members on a trial) go to ``sign_receipt``: either it refuses with the code the
verifier's check implies, or the receipt it signs is accepted by ``verify_receipt`` for the call it
names. The Rust property tests
(core/tests/issuing_props.rs) prove the same in the core; this proves the binding adds no path
around it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ekl_evidence as ekl
from ekl_evidence import EklError

SECRET = "rs_prop-secret"
CALL = {
    "execution_id": "ex_1",
    "collaboration_id": "col_1",
    "capability_id": "cap_1",
    "requester_agent_id": "agt_c",
    "provider_agent_id": "agt_p",
}

BASE: dict[str, Any] = {
    "receipt_version": "1.1",
    "receipt_id": "r1",
    "execution_kind": "trial",
    "requester_agent_id": "agt_c",
    "provider_agent_id": "agt_p",
    "collaboration_id": "col_1",
    "connection_id": "con_1",
    "execution_id": "ex_1",
    "capability_id": "cap_1",
    "capability_version": "1.0",
    "rel_ver_at_admission": 1,
    "dsc_ver": 1,
    "terms_hash": "00" * 32,
    "input_commitment": ekl.commitment({"q": 1}),
    "output_commitment": ekl.commitment({"a": 2}),
    "status": "succeeded",
    "issued_at": "2026-11-29T12:00:00Z",
    "key_id": "rk-1",
    "auth_profile": "ekl-evidence-mac-1.1",
}

# Values a member may be changed to: valid and invalid forms alike.
TIMESTAMPS = st.sampled_from(
    [
        "2026-11-29T12:00:00Z",
        "2026-11-29T12:00:00.123456Z",
        "2026-11-29T12:00:00+00:00",  # datetime.isoformat() of an aware UTC datetime
        "2026-11-29 12:00:00Z",
        "yesterday",
        "",
        "2026-02-30T00:00:00Z",
    ]
)
ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=5),
    st.text(max_size=8),
    st.just(""),
    st.just({"alg": "sha-256"}),
)
CHANGES = st.dictionaries(
    st.sampled_from(sorted(BASE) + ["billing_id", "amount_minor", "currency"]),
    st.one_of(
        ANY_VALUE,
        TIMESTAMPS,
        st.sampled_from(["customer", "trial", "validation", "bogus", "succeeded", "failed"]),
        st.just("__absent__"),
    ),
    max_size=3,
)


@settings(max_examples=300, deadline=None)
@given(CHANGES)
def test_signed_receipts_verify(changes: dict[str, Any]) -> None:
    receipt = dict(BASE)
    for k, v in changes.items():
        if v == "__absent__":
            receipt.pop(k, None)
        else:
            receipt[k] = v
    try:
        signed = ekl.sign_receipt(receipt, SECRET)
    except EklError as e:
        assert e.code in ("INVALID_RECEIPT", "INVALID_TIMESTAMP"), e.code
        # The verifier refuses the same receipt when it is tagged without the signer's checks.
        try:
            unchecked = dict(receipt, auth_tag=ekl.auth_tag(receipt, SECRET))
            # With the consumer's own commitments, as a verifier holds them: the verifier checks
            # a commitment's form when it compares it (vectors/call-receipt.json, "malformed
            # commitment").
            verdict = ekl.verify_receipt(
                unchecked,
                SECRET,
                CALL,
                input_commitment=BASE["input_commitment"],
                output_commitment=BASE["output_commitment"],
            )
        except EklError:
            return
        assert not verdict.accepted, changes
        return
    call = {
        k: signed[k]
        for k in (
            "execution_id",
            "collaboration_id",
            "capability_id",
            "requester_agent_id",
            "provider_agent_id",
        )
    }
    ring = [{"key_id": signed["key_id"], "secret": SECRET, "valid_from": "2000-01-01T00:00:00Z"}]
    verdict = ekl.verify_receipt(
        signed,
        ring,
        call,
        input_commitment=signed["input_commitment"],
        output_commitment=signed["output_commitment"],
    )
    assert verdict.accepted, (changes, verdict.failed())


# --- issue_mac_receipt: a receipt from the call answered (issue 25) ----------------------------

ISSUE_CALL: dict[str, Any] = {
    **CALL,
    "execution_kind": "customer",
    "connection_id": "con_1",
    "capability_version": "1.0",
    "terms_hash": "00" * 32,
    "reservation_id": "rsv_1",
    "grant_id": "grt_1",
    "admission_id": "adm_1",
}
INPUT = {"q": "ping", "n": 1}
OUTPUT = {"a": "pong"}


def _issue(**options: Any) -> dict[str, Any]:
    return dict(ekl.issue_mac_receipt(ISSUE_CALL, INPUT, OUTPUT, "succeeded", 3, 7, SECRET, **options))


def _verify(receipt: dict[str, Any], call: dict[str, Any] = ISSUE_CALL) -> ekl.Verdict:
    own_in = ekl.commitment(INPUT, salt=receipt["input_commitment"]["salt"])
    own_out = ekl.commitment(OUTPUT, salt=receipt["output_commitment"]["salt"])
    return ekl.verify_receipt(receipt, SECRET, call, input_commitment=own_in, output_commitment=own_out)


def test_an_issued_receipt_verifies_with_fresh_salts_and_the_clock() -> None:
    import time

    before = int(time.time())
    one, two = _issue(), _issue()
    after = int(time.time())
    for r in (one, two):
        v = _verify(r)
        assert v.accepted, v.failed()
        assert r["auth_profile"] == "ekl-evidence-mac-1.1" and r["key_id"] == "rk-1"
        assert r["reservation_id"] == "rsv_1" and r["rel_ver_at_admission"] == 3 and r["dsc_ver"] == 7
        stamps = {ekl.format_timestamp(t) for t in range(before, after + 1)}
        assert r["issued_at"] in stamps
        assert r["receipt_id"].startswith("rcpt_") and len(r["receipt_id"]) == 37
    # Fresh salts: each commitment its own, each receipt its own (so another id and tag).
    assert one["input_commitment"]["salt"] != two["input_commitment"]["salt"]
    assert one["output_commitment"]["salt"] != two["output_commitment"]["salt"]
    assert one["input_commitment"]["salt"] != one["output_commitment"]["salt"]
    assert one["receipt_id"] != two["receipt_id"] and one["auth_tag"] != two["auth_tag"]


def test_given_salts_and_time_give_the_same_bytes() -> None:
    import datetime

    given = {"issued_at": 1795977605, "input_salt": "1f" * 32, "output_salt": "e0" * 32}
    one = _issue(**given)
    assert one == _issue(**given)
    assert one["issued_at"] == "2026-11-29T18:40:05Z"
    assert one["input_commitment"] == ekl.commitment(INPUT, salt="1f" * 32)
    # An aware datetime is a time too; a float is floored.
    moment = datetime.datetime(2026, 11, 29, 18, 40, 5, 900000, tzinfo=datetime.timezone.utc)
    assert _issue(**{**given, "issued_at": moment}) == one
    assert _issue(**{**given, "issued_at": 1795977605.99}) == one
    # The vectors' bytes (vectors/call-receipt.json "issue", derived with Python's stdlib).
    import json
    from pathlib import Path

    doc = json.loads((Path(__file__).resolve().parents[2] / "vectors" / "call-receipt.json").read_text("utf-8"))
    case = doc["issue"]["cases"][0]
    got = ekl.issue_mac_receipt(
        case["call"], case["input"], case["output"], case["status"], case["rel_ver_at_admission"],
        case["dsc_ver"], case["secret"], issued_at=case["issued_at"], input_salt=case["input_salt"],
        output_salt=case["output_salt"],
    )
    assert got == case["expected"]


def test_issuing_refuses_what_the_verifier_would_refuse() -> None:
    no_kind = {k: v for k, v in ISSUE_CALL.items() if k != "execution_kind"}
    no_grant = {k: v for k, v in ISSUE_CALL.items() if k != "grant_id"}
    trial = {**ISSUE_CALL, "execution_kind": "trial"}
    cases = [
        ((no_kind, INPUT, OUTPUT, "succeeded"), {}, "INVALID_RECEIPT", "execution_kind: "),
        (({**ISSUE_CALL, "execution_kind": "paid"}, INPUT, OUTPUT, "succeeded"), {}, "INVALID_RECEIPT",
         "execution_kind: "),
        ((no_grant, INPUT, OUTPUT, "succeeded"), {}, "INVALID_RECEIPT", "kind_fields: "),
        ((trial, INPUT, OUTPUT, "succeeded"), {}, "INVALID_RECEIPT", "kind_fields: "),
        (({**ISSUE_CALL, "executionId": "x"}, INPUT, OUTPUT, "succeeded"), {}, "INVALID_ARGUMENT", "call"),
        ((ISSUE_CALL, INPUT, OUTPUT, "done"), {}, "INVALID_RECEIPT", "status: "),
        ((ISSUE_CALL, INPUT, OUTPUT, "succeeded"), {"key_id": ""}, "INVALID_RECEIPT", "key_id: empty"),
        ((ISSUE_CALL, ekl.JsonText('{"q": '), OUTPUT, "succeeded"), {}, None, ""),
        ((ISSUE_CALL, INPUT, {"x": float("nan")}, "succeeded"), {}, "NON_FINITE_NUMBER", ""),
        ((ISSUE_CALL, INPUT, OUTPUT, "succeeded"), {"input_salt": "AB" * 32}, "INVALID_SALT", ""),
        ((ISSUE_CALL, INPUT, OUTPUT, "succeeded"), {"issued_at": 1795977605000}, "INVALID_ARGUMENT",
         "issue_mac_receipt: issued_at must be seconds"),
    ]
    for (call, inp, out, status), options, code, start in cases:
        try:
            ekl.issue_mac_receipt(call, inp, out, status, 3, 7, SECRET, **options)
        except EklError as e:
            if code is not None:
                assert e.code == code, (call, options, e)
            assert e.message.startswith(start), e
            assert SECRET not in str(e)
        else:
            raise AssertionError(f"issued: {call} {options}")
    # A negative version is refused by the verifier's rule too.
    try:
        ekl.issue_mac_receipt(ISSUE_CALL, INPUT, OUTPUT, "succeeded", -1, 7, SECRET)
    except EklError as e:
        assert e.code == "INVALID_RECEIPT"
    else:
        raise AssertionError("issued with rel_ver_at_admission -1")

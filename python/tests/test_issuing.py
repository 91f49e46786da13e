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

from typing import Any, Dict

import ekl_evidence as ekl
from ekl_evidence import EklError
from hypothesis import given, settings
from hypothesis import strategies as st

SECRET = "rs_prop-secret"
CALL = {
    "execution_id": "ex_1",
    "collaboration_id": "col_1",
    "capability_id": "cap_1",
    "requester_agent_id": "agt_c",
    "provider_agent_id": "agt_p",
}

BASE: Dict[str, Any] = {
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
def test_signed_receipts_verify(changes: Dict[str, Any]) -> None:
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

"""The whole API: every operation of docs/operations.json, commitments, proofs, batches."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
from pathlib import Path

import pytest

import ekl_evidence as ekl
from ekl_evidence import EklError, JsonText

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.json"
SALT = "00112233445566778899aabbccddeeff" * 2


def test_every_operation_is_bound() -> None:
    if not OPERATIONS.is_file():
        pytest.skip("docs/operations.json is not beside these tests")
    ops = json.loads(OPERATIONS.read_text(encoding="utf-8"))["operations"]
    # a method row (``method_of``) is a method of its handle class (docs/decisions/handles.md)
    def bound(op: dict) -> object:
        owner = getattr(ekl, op["method_of"], None) if op.get("method_of") else ekl
        return getattr(owner, op["python"], None)

    missing = [op["python"] for op in ops if not callable(bound(op))]
    assert not missing, f"operations not in ekl_evidence: {missing}"
    assert set(op["python"] for op in ops if not op.get("method_of")) <= set(ekl.__all__)


def test_all_is_importable() -> None:
    for name in ekl.__all__:
        assert hasattr(ekl, name), name


def test_commitments() -> None:
    value = {"b": [1, 2], "a": "x"}
    canon = ekl.canonicalize_value(value)
    c = ekl.commitment(value)
    assert c == {"alg": "sha-256", "canon": "ekl-json-1", "digest": hashlib.sha256(canon).hexdigest()}
    s = ekl.commitment(value, salt=SALT, salt_id="salt-1")
    assert s["salt"] == SALT and s["salt_id"] == "salt-1"
    assert s["digest"] == hashlib.sha256(bytes.fromhex(SALT) + canon).hexdigest()
    assert ekl.value_digest(value, salt=SALT) == s["digest"]
    assert ekl.input_commitment(value) == c
    assert ekl.commitment(JsonText(canon)) == c
    for bad in (SALT.upper(), SALT[:-2], "zz" * 32, ""):
        with pytest.raises(EklError) as info:
            ekl.commitment(value, salt=bad)
        assert info.value.code == "INVALID_SALT"


def test_input_commitment_limit() -> None:
    limit = ekl.CAPABILITY_INPUT_MAX_BYTES
    assert limit == 262_144
    ok = {"s": "a" * (limit - len('{"s":""}'))}
    assert len(ekl.canonicalize_value(ok)) == limit
    ekl.input_commitment(ok)
    with pytest.raises(EklError) as info:
        ekl.input_commitment({"s": "a" * (limit - len('{"s":""}') + 1)})
    assert info.value.code == "BODY_TOO_LARGE"
    with pytest.raises(EklError) as info:
        ekl.canonicalize_value([1, 2, 3], max_bytes=6)
    assert info.value.code == "BODY_TOO_LARGE"
    assert ekl.canonicalize_value([1, 2, 3], max_bytes=7) == b"[1,2,3]"


def test_terms_hash_ignores_its_own_hash() -> None:
    terms = {"price": "1.00", "currency": "EUR"}
    h = ekl.terms_hash(terms)
    assert h == ekl.sha256_hex(ekl.canonicalize_value(terms))
    assert ekl.terms_hash({**terms, "hash": h}) == h
    with pytest.raises(EklError) as info:
        ekl.terms_hash([1])
    assert info.value.code == "INVALID_SHAPE"


def test_output_fingerprint_and_result_body() -> None:
    sc = {"structuredContent": {"x": 1}, "content": [{"type": "text", "text": "t"}], "isError": False}
    assert ekl.select_result_body(sc) == {"member": "structuredContent", "value": {"x": 1}}
    assert ekl.output_fingerprint(SALT, sc) == ekl.fingerprint(SALT, {"x": 1})
    nul = {"structuredContent": None, "content": [{"type": "text", "text": "t"}]}
    assert ekl.select_result_body(nul) == {"member": "content", "value": [{"type": "text", "text": "t"}]}
    with pytest.raises(EklError) as info:
        ekl.output_fingerprint(SALT, {"isError": True})
    assert info.value.code == "INVALID_SHAPE"


def test_upstream() -> None:
    tools = {"tools": [{"name": "b", "description": "B", "extra": 1}, {"name": "a"}]}
    projected = ekl.upstream_projection(tools)
    assert [t["name"] for t in projected] == ["a", "b"]
    assert set(projected[1]) == {"name", "description", "inputSchema", "outputSchema", "annotations"}
    assert ekl.upstream_fingerprint(tools) == ekl.sha256_hex(ekl.canonicalize_value(projected))
    assert ekl.upstream_fingerprint(tools, offered=["a"]) == ekl.upstream_fingerprint(tools, offered={"a"})
    assert ekl.upstream_fingerprint(tools, offered=[]) == ekl.sha256_hex(b"[]")


def _hmac(key: bytes, msg: bytes) -> str:
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def test_proofs_match_the_spec_formulas() -> None:
    agent_key, challenge, endpoint = "eklp_test", "ab" * 32, "https://mcp.example.com/ekl"
    pk = ekl.proof_key(agent_key)
    assert pk == _hmac(agent_key.encode(), b"ekl-endpoint-proof-v2")
    v1_key = hashlib.sha256(agent_key.encode()).hexdigest().encode()
    assert ekl.challenge_proof_v1(agent_key, challenge, endpoint) == _hmac(
        v1_key, (challenge + endpoint).encode()
    )
    assert ekl.challenge_proof_v2(pk, challenge, endpoint) == _hmac(
        bytes.fromhex(pk), f"ekl-challenge-v2\n{challenge}\n{endpoint}".encode()
    )
    assert ekl.enroll_authority_v1(agent_key, "enr-1", "n-1", endpoint) == _hmac(
        v1_key, f"ekl-enroll-1|enr-1|n-1|{endpoint}".encode()
    )
    assert ekl.enroll_authority_v2(pk, "enr-1", "n-1", endpoint) == _hmac(
        bytes.fromhex(pk), f"ekl-enroll-2|enr-1|n-1|{endpoint}".encode()
    )
    sig = ekl.verify_signature("secret", "agent-1", "enr-1", challenge)
    assert sig == _hmac(b"secret", f"ekl-verify-1.1|agent-1|enr-1|{challenge}".encode())
    assert ekl.check_verify_signature("secret", "agent-1", "enr-1", challenge, sig) is True
    assert ekl.check_verify_signature("secret", "agent-1", "enr-1", challenge, sig.upper()) is False
    assert ekl.check_verify_signature("secret", "agent-1", "enr-2", challenge, sig) is False
    with pytest.raises(EklError) as info:
        ekl.challenge_proof_v2(pk.upper(), challenge, endpoint)
    assert info.value.code == "INVALID_HEX"
    with pytest.raises(EklError) as info:
        ekl.proof_key("\ud800")
    assert info.value.code == "LONE_SURROGATE"


def test_sha256_hex_inputs() -> None:
    assert ekl.sha256_hex(b"abc") == hashlib.sha256(b"abc").hexdigest()
    assert ekl.sha256_hex("é") == hashlib.sha256("é".encode()).hexdigest()
    assert ekl.sha256_hex(bytearray(b"abc")) == ekl.sha256_hex(memoryview(b"abc"))


def test_canonicalize_many() -> None:
    assert ekl.canonicalize_many([]) == []
    texts = ['{"b":1,"a":2}', b"[1.0]", bytearray(b"null")]
    assert ekl.canonicalize_many(texts) == [b'{"a":2,"b":1}', b"[1]", b"null"]
    big = [json.dumps({"i": i, "s": "x" * 100}) for i in range(2000)]
    assert ekl.canonicalize_many(big) == [ekl.canonicalize(t) for t in big]
    with pytest.raises(EklError) as info:
        ekl.canonicalize_many(["1", "[", "2"])
    assert info.value.code == "INVALID_JSON" and "item 1" in info.value.message
    with pytest.raises(TypeError):
        ekl.canonicalize_many("[1]")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ekl.canonicalize_many(b"[1]")  # type: ignore[arg-type]
    assert ekl.canonicalize_many(iter(["1", "2"])) == [b"1", b"2"]


def test_constants() -> None:
    assert ekl.MAX_DEPTH == 64
    assert ekl.MAX_SAFE_INTEGER_BOUND == 2**53
    assert ekl.error_codes() == list(ekl.ERROR_CODES)


# --- receipts, proof verifiers, screening -----------------------------------------------------

SECRET = "rs_test-secret"
CALL = {
    "execution_id": "ex_1",
    "collaboration_id": "col_1",
    "capability_id": "cap_1",
    "requester_agent_id": "agt_c",
    "provider_agent_id": "agt_p",
}


def _receipt(**over: object) -> dict:
    r = {
        "receipt_version": "1.1", "receipt_id": "r1", "execution_kind": "trial",
        "requester_agent_id": "agt_c", "provider_agent_id": "agt_p", "collaboration_id": "col_1",
        "connection_id": "con_1", "execution_id": "ex_1", "capability_id": "cap_1",
        "capability_version": "1.0", "rel_ver_at_admission": 1, "dsc_ver": 1,
        "terms_hash": "00" * 32, "input_commitment": ekl.commitment({"q": 1}),
        "output_commitment": ekl.commitment({"a": 2}), "status": "succeeded",
        "issued_at": "2026-11-29T12:00:00Z", "key_id": "rk-1", "auth_profile": "ekl-evidence-mac-1.1",
    }
    r.update(over)
    return ekl.sign_receipt(r, SECRET)


def test_receipt_round_trip_and_dispute() -> None:
    ring = SECRET  # the registration secret alone: the baseline key rk-1
    signed = _receipt()
    v = ekl.verify_receipt(
        signed, ring, CALL, input_commitment=ekl.commitment({"q": 1}), output_commitment=ekl.commitment({"a": 2})
    )
    assert v.accepted and v.failed() == [] and not v.disputed
    assert v.receipt_digest == ekl.receipt_digest(signed) == ekl.sha256_hex(ekl.canonicalize_value(signed))
    d = ekl.verify_receipt(
        signed, ring, CALL, input_commitment=ekl.commitment({"q": 1}), output_commitment=ekl.commitment({"a": 3})
    )
    assert not d.accepted and d.failed() == ["output_commitment"] and d.disputed
    check = d.check("output_commitment")
    assert check is not None and check.outcome == "mismatch"
    # Expected and received values, as every surface gives them (the core's display texts).
    assert check.expected is not None and ekl.commitment({"a": 3})["digest"] in check.expected
    assert check.received is not None and ekl.commitment({"a": 2})["digest"] in check.received
    other = ekl.verify_receipt(signed, ring, dict(CALL, execution_id="ex_other"))
    ex = other.check("execution_id")
    assert ex is not None and ex.outcome == "fail"
    assert (ex.expected, ex.received) == ('"ex_other"', f'"{signed["execution_id"]}"')
    forged = dict(signed, status="failed")
    f = ekl.verify_receipt(forged, ring, CALL)
    assert "auth_tag" in f.failed() and not f.disputed
    with pytest.raises(EklError) as info:
        ekl.sign_receipt(signed, SECRET)
    assert info.value.code == "INVALID_RECEIPT"


def test_verify_receipts_batch() -> None:
    ring = [{"key_id": "rk-1", "secret": SECRET, "valid_from": "1970-01-01T00:00:00Z"}]
    good = {"receipt": _receipt(), "call": CALL}
    bad = {"receipt": [1, 2], "call": CALL}
    no_call = {"receipt": _receipt()}
    extra = {"receipt": _receipt(), "call": CALL, "own_input_commitment": None}
    out = ekl.verify_receipts([good] * 20 + [bad, no_call, extra, good], SECRET)
    assert all(isinstance(v, ekl.Verdict) and v.accepted for v in out[:20])
    assert [type(x).__name__ for x in out[20:]] == ["EklError", "EklError", "EklError", "Verdict"]
    codes = [x.code for x in out[20:23] if isinstance(x, EklError)]
    assert codes == ["INVALID_RECEIPT", "INVALID_ARGUMENT", "INVALID_ARGUMENT"]
    assert [v.accepted for v in ekl.verify_receipts([good], ring)] == [True]  # type: ignore[union-attr]
    # The batch is one JSON value: a host value with no JSON form is refused as a whole, and
    # JSON text is the whole batch (a receipt with duplicate keys refuses it).
    with pytest.raises(EklError) as info:
        ekl.verify_receipts([good, {"receipt": {"x": {1, 2}}, "call": CALL}], SECRET)
    assert info.value.code == "UNSUPPORTED_TYPE"
    text = JsonText(json.dumps([good, good]))
    assert [v.accepted for v in ekl.verify_receipts(text, SECRET)] == [True, True]  # type: ignore[union-attr]


def test_key_ring_times_take_aware_datetimes() -> None:
    # valid_from / valid_until as aware datetimes give the verdicts of their timestamps, in a
    # list of keys (each key copied, the caller's dicts untouched); a naive one is refused.
    utc = datetime.timezone.utc
    start = datetime.datetime(1970, 1, 1, tzinfo=utc)
    as_text = [{"key_id": "rk-1", "secret": SECRET, "valid_from": "1970-01-01T00:00:00Z"}]
    as_dates = [{"key_id": "rk-1", "secret": SECRET, "valid_from": start}]
    assert ekl.verify_receipt(_receipt(), as_dates, CALL) == ekl.verify_receipt(_receipt(), as_text, CALL)
    assert as_dates[0]["valid_from"] is start
    plus_two = datetime.timezone(datetime.timedelta(hours=2))
    second = datetime.timedelta(seconds=1)
    retired = [
        {"key_id": "rk-0", "secret": "old", "valid_from": start, "valid_until": start + second},
        {
            "key_id": "rk-1",
            "secret": SECRET,
            "valid_from": "1970-01-01T00:00:00Z",
            "valid_until": datetime.datetime(1970, 1, 1, 2, 0, 1, tzinfo=plus_two),
        },
    ]
    verdict = ekl.verify_receipt(_receipt(), retired, CALL)
    assert "key_id" in verdict.failed()
    as_text_retired = [dict(k) for k in retired]
    for k in as_text_retired:
        k["valid_from"] = "1970-01-01T00:00:00Z"
    as_text_retired[0]["valid_until"] = "1970-01-01T00:00:01Z"
    as_text_retired[1]["valid_until"] = "1970-01-01T00:00:01Z"
    assert verdict == ekl.verify_receipt(_receipt(), as_text_retired, CALL)
    batch = ekl.verify_receipts([{"receipt": _receipt(), "call": CALL}], tuple(as_dates))
    assert [v.accepted for v in batch] == [True]  # type: ignore[union-attr]
    naive = [{"key_id": "rk-1", "secret": SECRET, "valid_from": datetime.datetime(1970, 1, 1)}]
    with pytest.raises(EklError) as info:
        ekl.verify_receipt(_receipt(), naive, CALL)
    assert info.value.code == "INVALID_ARGUMENT" and "naive" in str(info.value)


def test_key_ring_and_call_arguments() -> None:
    with pytest.raises(EklError) as info:
        ekl.verify_receipt(_receipt(), [{"key_id": "k", "secret": "s", "valid_from": "yesterday"}], CALL)
    assert info.value.code == "INVALID_TIMESTAMP"
    with pytest.raises(EklError) as info:
        ring_x = [{"key_id": "k", "secret": "s", "valid_from": "2026-01-01T00:00:00Z", "x": "1"}]
        ekl.verify_receipt(_receipt(), ring_x, CALL)
    assert info.value.code == "INVALID_ARGUMENT"
    with pytest.raises(EklError) as info:
        ekl.verify_receipt(_receipt(), SECRET, dict(CALL, unknown="x"))
    assert info.value.code == "INVALID_ARGUMENT"
    ring = SECRET
    with pytest.raises(EklError) as info:
        ekl.verify_receipt(_receipt(), ring, {"execution_id": "ex_1"})
    assert info.value.code == "INVALID_ARGUMENT"
    with pytest.raises(EklError) as info:
        ekl.verify_receipt(_receipt(), ring, CALL, input_commitment={"alg": "md5", "canon": "x", "digest": "00"})
    assert info.value.code == "INVALID_ARGUMENT"


def test_proof_verifiers() -> None:
    agent_key, ch, ep = "eklp_k", "ab" * 32, "https://e.example/mcp"
    pk = ekl.proof_key(agent_key)
    p1 = ekl.challenge_proof_v1(agent_key, ch, ep)
    p2 = ekl.challenge_proof_v2(pk, ch, ep)
    assert ekl.verify_challenge_proof(ch, ep, proof_v2=p2, proof_key=pk) == "v2"
    assert ekl.verify_challenge_proof(ch, ep, proof=p1, credential_hash=ekl.sha256_hex(agent_key)) == "v1"
    for kwargs, code in (({"proof_key": pk}, "PROOF_DOWNGRADE"),):
        with pytest.raises(EklError) as info:
            ekl.verify_challenge_proof(ch, ep, proof=p1, **kwargs)
        assert info.value.code == code
    with pytest.raises(EklError) as info:
        ekl.verify_challenge_proof(ch, ep, proof=p1, proof_v2=p2)  # no state given
    assert info.value.code == "INVALID_ARGUMENT"
    a1 = ekl.enroll_authority_v1(agent_key, "e", "n", ep)
    assert ekl.verify_enroll_authority("v1", agent_key, "e", "n", ep, authority=a1) == "v1"
    with pytest.raises(EklError) as info:
        ekl.verify_enroll_authority("v2", agent_key, "e", "n", ep, authority=a1, authority_version=1)
    assert info.value.code == "PROOF_DOWNGRADE"
    with pytest.raises(TypeError, match="authority_version must be an int"):
        ekl.verify_enroll_authority("v1", agent_key, "e", "n", ep, authority=a1, authority_version=True)
    with pytest.raises(TypeError):
        ekl.verify_enroll_authority("v1", agent_key, "e", "n", ep, a1)  # type: ignore[misc]


def test_screening() -> None:
    rules = ekl.screening_rules({"rules_version": "v1", "rules": [
        {"rule_id": "r1", "category": "spam", "phrases": ["buy now"]}]})
    assert rules == {"rules_version": "v1", "rules": [{"rule_id": "r1", "category": "spam", "phrases": ["buy now"]}]}
    result = {"content": [{"type": "text", "text": "BUY NOW!"}]}
    assert ekl.screen(result, rules=rules) == [{"category": "spam", "rules_version": "v1", "rule_id": "r1"}]
    assert ekl.screen(result) == []
    assert ekl.screening_fold("Straße ＡＢ") == "strasse ab"


def test_agent_example_runs() -> None:
    import runpy

    path = Path(__file__).resolve().parents[2] / "examples" / "python" / "agent.py"
    if not path.is_file():
        pytest.skip("examples/python/agent.py is not beside these tests")
    report = runpy.run_path(str(path))["main"]()
    assert "refused" not in report
    assert report["mac_receipt"] == {"accepted": True, "not_passed": [], "disputed": False}
    assert report["input_fingerprint"] == ekl.fingerprint(SALT, {"area_ref": "loc:ca:dublin", "min_beds": 3})
    assert len(report["receipt_digest"]) == 64
    assert report["network_receipt"]["accepted"] is True, report["network_receipt"]
    assert report["network_receipt"]["not_passed"] == []


def test_credential_verifiers() -> None:
    """The four per-type verifiers (§3, §4, §9.1, §9.3.1, §15.1): typed results, the clock as a
    datetime, the caller's purpose and audience; vectors/credentials-jws.json has the full set."""
    jwks, keys = ekl.jwks_from_seed("22" * 32, ["k1"])
    iss, t0 = "https://net.example", 1_780_000_000
    at = datetime.datetime.fromtimestamp(t0 + 5, datetime.timezone.utc)
    assertion = ekl.sign_jws("ekl-relationship+jwt", {
        "iss": iss, "sub": "agt_c", "aud": "https://p.example/token", "iat": t0, "exp": t0 + 120,
        "jti": "j1", "org": "o1", "auth_profile": "ekl-auth-1.1", "con": "con_1", "rel_ver": 3,
        "dsc_ver": "d7", "caps": [{"id": "cap.a", "ver": 1, "note": "x"}]}, keys[0])
    a: ekl.VerifiedRelationshipAssertion = ekl.verify_relationship_assertion(assertion, jwks, iss, "https://p.example/token", now=at)
    assert (a["jti"], a["rel_ver"], a["dsc_ver"], a["exp"]) == ("j1", 3, "d7", t0 + 120)
    assert a["caps"] == [{"id": "cap.a", "ver": 1}] and a["typ"] == "ekl-relationship+jwt"
    with pytest.raises(EklError) as info:
        ekl.verify_relationship_assertion(assertion, jwks, iss, "https://p.example/mcp", now=at)
    assert info.value.code == "AUDIENCE_MISMATCH"

    call = ekl.sign_jws("ekl-platform-call+jwt", {"iss": iss, "aud": "agt_p", "iat": t0, "exp": t0 + 60, "jti": "j2", "purpose": "deliver"}, keys[0])
    p: ekl.VerifiedPlatformCall = ekl.verify_platform_call(call, jwks, iss, "deliver", audience="agt_p", now=at)
    assert (p["purpose"], p["jti"]) == ("deliver", "j2")
    for purpose, audience, code in (("enroll", None, "PURPOSE_MISMATCH"), ("DELIVER", None, "INVALID_ARGUMENT"), ("deliver", "agt_q", "AUDIENCE_MISMATCH")):
        with pytest.raises(EklError) as info:
            ekl.verify_platform_call(call, jwks, iss, purpose, audience=audience, now=at)
        assert info.value.code == code, purpose

    feed = ekl.sign_jws("ekl-revocation-feed+jwt", {"iss": iss, "aud": "agt_p", "iat": t0, "items": []}, keys[0])
    f: ekl.VerifiedRevocationFeed = ekl.verify_revocation_feed(feed, jwks, iss, "agt_p", now=t0 + 86_400 * 365)
    assert f["exp"] is None and f["claims"]["items"] == []

    token = ekl.sign_jws("ekl-access+jwt", {"iss": iss, "aud": "ekl:agent:agt_p", "iat": t0, "exp": t0 + 901}, keys[0])
    with pytest.raises(EklError) as info:
        ekl.verify_access_token(token, jwks, iss, "agt_p", now=at)
    assert info.value.code == "LIFETIME_TOO_LONG"
    token = ekl.sign_jws("ekl-access+jwt", {"iss": iss, "aud": "ekl:agent:agt_p", "iat": t0, "exp": t0 + 900}, keys[0])
    t: ekl.VerifiedAccessToken = ekl.verify_access_token(token, jwks, iss, "agt_p", now=at)
    assert t == {**ekl.verify_jws(token, "ekl-access+jwt", jwks, now=at), "iss": iss, "iat": t0, "exp": t0 + 900}


def test_jws_round_trip() -> None:
    jwks, keys = ekl.jwks_from_seed("11" * 32, ["k1", "k2"])
    assert jwks.kids() == ["k1", "k2"] and keys[1].kid == "k2" and "11" not in repr(keys[0])
    claims = {"iss": "https://net.example", "aud": "agt_1", "iat": 1000, "exp": 1060}
    token = ekl.sign_jws("ekl-access+jwt", claims, keys[0])
    got = ekl.verify_jws(token, "ekl-access+jwt", jwks, now=1030, issuer="https://net.example", audience="agt_1")
    assert got["claims"] == claims and got["kid"] == "k1" and got["token_sha256"] == ekl.sha256_hex(token)
    for typ, now, code in (("ekl-receipt+jwt", 1030, "TYP_MISMATCH"), ("ekl-access+jwt", 2000, "TOKEN_EXPIRED")):
        with pytest.raises(EklError) as info:
            ekl.verify_jws(token, typ, jwks, now=now)
        assert info.value.code == code
    with pytest.raises(EklError) as info:
        ekl.verify_jws(token, "ekl-access+jwt", keys[1].public_jwks(), now=1030)
    assert info.value.code == "UNKNOWN_KID"
    with pytest.raises(EklError) as info:
        ekl.sign_jws("application/jwt", claims, keys[0])
    assert info.value.code == "INVALID_ARGUMENT"
    assert ekl.Jwks(jwks.to_json()).kids() == ["k1", "k2"]


def test_edges_of_the_argument_forms():
    """A review of the edges users hold (2026-12-03): the same forms as in JS."""
    # a list of strings keeps its order; a set has none of its own: taken in code point order,
    # so the kids do not change from run to run with the strings' hashes
    jwks, _ = ekl.jwks_from_seed("11" * 32, ("b", "a"))
    assert jwks.kids() == ["b", "a"]
    for kids in ({"b", "é", "a", "B"}, frozenset({"b", "é", "a", "B"})):
        jwks, _ = ekl.jwks_from_seed("11" * 32, kids)
        assert jwks.kids() == ["B", "a", "b", "é"]
    # integers within ±2^53 (2^53 itself included), as the bridge checks on every surface
    assert ekl.canonicalize_value(1, max_bytes=2**53) == b"1"
    for call in (
        lambda: ekl.canonicalize_value(1, max_bytes=2**53 + 1),
        lambda: ekl.verify_archive("{}\n", keys="s", first_line=2**62),
    ):
        with pytest.raises(ekl.EklError) as e:
            call()
        assert e.value.code == "INVALID_ARGUMENT"

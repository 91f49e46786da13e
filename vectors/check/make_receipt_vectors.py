"""Writes vectors/call-receipt.json and vectors/endpoint-proof-v2.json with Python's stdlib only
(hashlib, hmac, json, base64) and the guide's canonical.py: nothing here uses the Rust core.

Run from the repository root: python3 vectors/check/make_receipt_vectors.py
The expected verdicts are written by hand below (each case names only the checks that do not pass);
check_receipts.py re-derives them with an independent verifier, and the Rust runner must agree."""
import base64
import copy
import hashlib
import hmac
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "guide"))
from canonical import canonical  # noqa: E402


def canon(value) -> bytes:
    return canonical(json.dumps(value)).encode()


def sha256_hex(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def commitment(value, salt_hex=None, salt_id=None):
    prefix = bytes.fromhex(salt_hex) if salt_hex else b""
    c = {"alg": "sha-256", "canon": "ekl-json-1", "digest": sha256_hex(prefix + canon(value))}
    if salt_id is not None:
        c["salt_id"] = salt_id
    if salt_hex is not None:
        c["salt"] = salt_hex
    return c


def receipt_key(secret: str, key_id: str) -> bytes:
    return hmac.new(secret.encode(), b"ekl-receipt-1.1\x00" + key_id.encode(), hashlib.sha256).digest()


def tag(receipt: dict, secret: str) -> str:
    body = {k: v for k, v in receipt.items() if k != "auth_tag"}
    return hmac.new(receipt_key(secret, body["key_id"]), canon(body), hashlib.sha256).hexdigest()


def signed(receipt: dict, secret: str) -> dict:
    return {**receipt, "auth_tag": tag(receipt, secret)}


# ---------------------------------------------------------------- call-receipt.json
SECRET = "rs_9QmV4c2KfX7tLw0pHjR3sN8yBdE6aZ1u"
INPUT = {"invoice_text": "INVOICE 2026-118 \u2026 Gr\u00fc\u00dfe, total 41.00 \u20ac", "currency": "EUR"}
RESULT = {"invoice_number": "2026-118", "total": 41.0, "currency": "EUR", "lines": [{"qty": 2, "unit": 20.5}]}
TERMS = {"capability_id": "cap_invoice_extract", "price_per_call": "0.05", "currency": "USD", "version": 3}

RECEIPT = {
    "receipt_version": "1.1",
    "receipt_id": "rcpt_01JDX4W8M2QF",
    "execution_kind": "customer",
    "requester_agent_id": "agt_c0ns7m3r4a",
    "provider_agent_id": "agt_pr0v1d3r9b",
    "collaboration_id": "col_c3c7b453aa7e",
    "connection_id": "con_5f0e2b9a11d4",
    "execution_id": "ex_19c4",
    "capability_id": "cap_invoice_extract",
    "capability_version": "2.3.1",
    "rel_ver_at_admission": 4,
    "dsc_ver": 12,
    "terms_hash": sha256_hex(canon(TERMS)),
    "reservation_id": "rsv_8d1c0e",
    "grant_id": "grt_2b7e44",
    "admission_id": "adm_61f0a9",
    "input_commitment": commitment(INPUT),
    "output_commitment": commitment(RESULT),
    "status": "succeeded",
    "issued_at": "2026-11-29T18:40:05.250Z",
    "key_id": "rk-1",
    "auth_profile": "ekl-evidence-mac-1.1",
}
CALL = {
    "execution_id": "ex_19c4",
    "collaboration_id": "col_c3c7b453aa7e",
    "capability_id": "cap_invoice_extract",
    "requester_agent_id": "agt_c0ns7m3r4a",
    "provider_agent_id": "agt_pr0v1d3r9b",
    "capability_version": "2.3.1",
    "connection_id": "con_5f0e2b9a11d4",
    "terms_hash": RECEIPT["terms_hash"],
    "execution_kind": "customer",
}

# Key rotation: rk-1 (the registration secret) until T, rk-2 (a second secret) from T on.
T = "2026-12-01T00:00:00Z"
SECRET2 = "rs2_Hq8WcZt3LmYv5Pn0Kd7Rb2Xs9Fj4Ge6A"
KEYS = [
    {"key_id": "rk-1", "secret": SECRET, "valid_from": "2026-01-01T00:00:00Z", "valid_until": T},
    {"key_id": "rk-2", "secret": SECRET2, "valid_from": T, "valid_until": None},
]


def ring_case(name, note, key_id, secret, issued_at, expect_fail=None, details=None, **changes):
    r = {**RECEIPT, "key_id": key_id, "issued_at": issued_at, **changes}
    return {
        "name": name,
        "note": note,
        "receipt": signed(r, secret),
        "expected": {"not_pass": expect_fail or {}, "details": details or {}},
    }


KEY_RING_CASES = [
    ring_case("rk-1 before rotation", "issued inside rk-1's window", "rk-1", SECRET, "2026-11-30T23:59:59.999999999Z"),
    ring_case("rk-1 exactly at T", "valid_until is exclusive: at T only rk-2 is valid", "rk-1", SECRET, T,
              {"key_id": "fail", "auth_tag": "fail"}, {"key_id": "key not valid at issued_at"}),
    ring_case("rk-1 after rotation", "a retired key verifies nothing issued after it was retired", "rk-1", SECRET,
              "2026-12-05T10:00:00Z", {"key_id": "fail", "auth_tag": "fail"}, {"key_id": "key not valid at issued_at"}),
    ring_case("rk-2 exactly at T", "valid_from is inclusive", "rk-2", SECRET2, T),
    ring_case("rk-2 after rotation", "the current key", "rk-2", SECRET2, "2027-03-01T08:00:00Z"),
    ring_case("rk-2 before it existed", "a key verifies nothing issued before valid_from", "rk-2", SECRET2,
              "2026-11-29T18:40:05.250Z", {"key_id": "fail", "auth_tag": "fail"},
              {"key_id": "key not valid at issued_at"}),
    ring_case("rk-1 before rotation, verified after", "verification time does not matter, issued_at does",
              "rk-1", SECRET, "2026-06-15T12:00:00Z"),
    ring_case("unknown key id", "a key id the ring does not hold", "rk-9", SECRET, "2026-11-29T18:40:05.250Z",
              {"key_id": "fail", "auth_tag": "fail"}, {"key_id": "unknown key_id"}),
    ring_case("rk-2 tagged with rk-1's secret", "right key id, wrong secret", "rk-2", SECRET,
              "2027-01-10T00:00:00Z", {"auth_tag": "fail"}, {"auth_tag": "does not verify"}),
    ring_case("non-ASCII member under rk-2", "the tag covers UTF-8 bytes, not escapes", "rk-2", SECRET2,
              "2026-12-24T17:30:00Z", receipt_id="rcpt_\u00e9t\u00e9_\u65e5\u672c_\U0001f600"),
]


def mismatch_case(name, note, receipt, not_pass=None, details=None, own_input=INPUT, own_result=RESULT,
                  own_salt=None, call=None):
    case = {"name": name, "note": note, "receipt": receipt, "own_input": own_input, "own_result": own_result,
            "expected": {"not_pass": not_pass or {}, "details": details or {}}}
    if own_salt is not None:
        case["own_salt"] = own_salt
    if call is not None:
        case["call"] = call
    return case


def base(**changes):
    return signed({**RECEIPT, **changes}, SECRET)


def drop(*names):
    return signed({k: v for k, v in RECEIPT.items() if k not in names}, SECRET)


SALT = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
tampered = base()
tampered["status"] = "failed_before_effect"
upper = base()
upper["auth_tag"] = upper["auth_tag"].upper()
trial = {k: v for k, v in RECEIPT.items() if k not in ("reservation_id", "grant_id", "admission_id")}
trial["execution_kind"] = "trial"
trial_call = {**CALL, "execution_kind": "trial"}

MISMATCH_CASES = [
    mismatch_case("all checks pass", "the published receipt against the call it belongs to", base()),
    mismatch_case("output differs", "the consumer received another result: a dispute, not an error", base(),
                  {"output_commitment": "mismatch"},
                  own_result={**RESULT, "total": 41.5}),
    mismatch_case("input differs", "the consumer sent another input", base(), {"input_commitment": "mismatch"},
                  own_input={**INPUT, "currency": "USD"}),
    mismatch_case("both commitments differ", "both reported", base(),
                  {"input_commitment": "mismatch", "output_commitment": "mismatch"},
                  own_input={}, own_result={}),
    mismatch_case("number form does not matter", "41 and 41.0 are one ekl-json-1 value", base(),
                  own_result={**RESULT, "total": 41}),
    mismatch_case("execution_id differs", "an authentic receipt for another call", base(execution_id="ex_19c5"),
                  {"execution_id": "fail"}),
    mismatch_case("provider differs", "a receipt issued by another provider", base(provider_agent_id="agt_0ther"),
                  {"provider_agent_id": "fail"}),
    mismatch_case("requester differs", "a receipt made out to another consumer",
                  base(requester_agent_id="agt_someone"), {"requester_agent_id": "fail"}),
    mismatch_case("collaboration differs", "", base(collaboration_id="col_000000000000"),
                  {"collaboration_id": "fail"}),
    mismatch_case("capability differs", "", base(capability_id="cap_other"), {"capability_id": "fail"}),
    mismatch_case("capability version differs", "", base(capability_version="2.4.0"),
                  {"capability_version": "fail"}),
    mismatch_case("customer receipt without grant_id", "customer receipts carry reservation, grant and admission",
                  drop("grant_id"), {"kind_fields": "fail"}),
    mismatch_case("customer receipt without all three", "", drop("reservation_id", "grant_id", "admission_id"),
                  {"kind_fields": "fail"}),
    mismatch_case("trial receipt", "no customer fields, diagnostic only", signed(trial, SECRET), call=trial_call),
    mismatch_case("trial receipt with reservation_id", "trial and validation receipts must not carry them",
                  signed({**trial, "reservation_id": "rsv_8d1c0e"}, SECRET), {"kind_fields": "fail"},
                  call=trial_call),
    mismatch_case("trial receipt for a customer call", "the kind differs from the call", signed(trial, SECRET),
                  {"execution_kind": "fail"}),
    mismatch_case("unknown execution kind", "", base(execution_kind="rehearsal"),
                  {"execution_kind": "fail", "kind_fields": "fail"}),
    mismatch_case("tampered status", "a member changed after tagging", tampered, {"auth_tag": "fail"},
                  {"auth_tag": "does not verify"}),
    mismatch_case("upper-case auth_tag", "tags are lowercase hex", upper, {"auth_tag": "fail"}),
    mismatch_case("no auth_tag", "", {k: v for k, v in RECEIPT.items()},
                  {"auth_tag": "fail", "required_fields": "fail"}),
    mismatch_case("wrong auth_profile", "a MAC receipt names ekl-evidence-mac-1.1",
                  base(auth_profile="ekl-evidence-sig-1.2"), {"auth_profile": "fail"}),
    mismatch_case("receipt_version as a number", "receipt_version is the string 1.1", base(receipt_version=1.1),
                  {"receipt_version": "fail", "required_fields": "fail"}),
    mismatch_case("issued_at with an offset", "only the Z form is accepted",
                  base(issued_at="2026-11-29T18:40:05.250+00:00"),
                  {"issued_at": "fail", "key_id": "fail", "auth_tag": "fail"}),
    mismatch_case("status not an execution status", "", base(status="done"), {"status": "fail"}),
    mismatch_case("dsc_ver as a string", "versions are integers", base(dsc_ver="12"),
                  {"required_fields": "fail"}),
    mismatch_case("empty receipt_id", "tagged, but an empty id names no receipt (docs/decisions/edges.md#empty)",
                  base(receipt_id=""), {"required_fields": "fail"}),
    mismatch_case("empty connection_id", "every string member of a receipt is non-empty",
                  base(connection_id=""), {"required_fields": "fail", "connection_id": "fail"}),
    mismatch_case("salted commitments, same salt", "the consumer's salted commitments agree",
                  base(input_commitment=commitment(INPUT, SALT, "s1"),
                       output_commitment=commitment(RESULT, SALT, "s1")), own_salt=SALT),
    mismatch_case("salted receipt, unsalted consumer", "a different digest",
                  base(input_commitment=commitment(INPUT, SALT, "s1")), {"input_commitment": "mismatch"}),
    mismatch_case("malformed commitment", "not a sha-256 ekl-json-1 commitment",
                  base(output_commitment={"alg": "sha-1", "canon": "ekl-json-1",
                                          "digest": RECEIPT["output_commitment"]["digest"]}),
                  {"output_commitment": "fail"}),
    mismatch_case("expected digest differs", "the digest a requester acknowledged is not this receipt's", base(),
                  {"receipt_digest": "fail"}, call={**CALL, "receipt_digest": "0" * 64}),
]
# The "expected digest" case passes with the right digest too.
MISMATCH_CASES.append(mismatch_case("expected digest agrees", "", base(),
                                    call={**CALL, "receipt_digest": sha256_hex(canon(base()))}))

# Issuing from the call answered (issue_mac_receipt): the members from the call, the salted
# commitments, issued_at from seconds, the derived receipt id, the tag. Refusal codes by hand from
# docs/decisions.md#issue-from-call.
ISSUE_SALT_IN = "1f" * 32
ISSUE_SALT_OUT = "e0" * 32
ISSUE_CALL = {**CALL, "reservation_id": "rsv_8d1c0e", "grant_id": "grt_2b7e44", "admission_id": "adm_61f0a9"}
ISSUE_TRIAL_CALL = {**CALL, "execution_kind": "trial"}


def issued(case):
    """The receipt issue_mac_receipt gives for a case of the issue section."""
    call = case["call"]
    r = {"receipt_version": "1.1"}
    for f in ["execution_kind", "requester_agent_id", "provider_agent_id", "collaboration_id", "connection_id",
              "execution_id", "capability_id", "capability_version"]:
        r[f] = call[f]
    r["rel_ver_at_admission"] = case["rel_ver_at_admission"]
    r["dsc_ver"] = case["dsc_ver"]
    r["terms_hash"] = call["terms_hash"]
    for f in ["reservation_id", "grant_id", "admission_id"]:
        if f in call:
            r[f] = call[f]
    r["input_commitment"] = commitment(case["input"], case["input_salt"])
    r["output_commitment"] = commitment(case["output"], case["output_salt"])
    r["status"] = case["status"]
    import time
    r["issued_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(case["issued_at"]))
    r["key_id"] = case.get("key_id") or "rk-1"
    r["auth_profile"] = "ekl-evidence-mac-1.1"
    r["receipt_id"] = case.get("receipt_id") or "rcpt_" + sha256_hex(canon(r))[:32]
    return signed(r, case["secret"])


def issue_case(name, note, error=None, **changes):
    case = {"name": name, "note": note, "call": ISSUE_CALL, "input": INPUT, "output": RESULT,
            "status": "succeeded", "rel_ver_at_admission": 4, "dsc_ver": 12, "secret": SECRET,
            "issued_at": 1795977605, "input_salt": ISSUE_SALT_IN, "output_salt": ISSUE_SALT_OUT, **changes}
    if error is None:
        case["expected"] = issued(case)
    else:
        case["error"] = error
    return case


ISSUE_CASES = [
    issue_case("customer call", "every member from the call, salted commitments, derived receipt id"),
    issue_case("trial call", "no reservation, grant or admission", call=ISSUE_TRIAL_CALL, status="failed_before_effect"),
    issue_case("rk-2 and an own receipt_id", "the key id and receipt id given", key_id="rk-2", secret=SECRET2,
               receipt_id="rcpt_\u00e9t\u00e9_\u65e5\u672c"),
    issue_case("other salts", "other salts give other commitments and another receipt id",
               input_salt="ab" * 32, output_salt="cd" * 32),
    issue_case("call without execution_kind", "the kind decides the members",
               call={k: v for k, v in ISSUE_CALL.items() if k != "execution_kind"}, error="INVALID_RECEIPT"),
    issue_case("unknown execution kind", "", call={**ISSUE_CALL, "execution_kind": "paid"}, error="INVALID_RECEIPT"),
    issue_case("customer call without grant_id", "",
               call={k: v for k, v in ISSUE_CALL.items() if k != "grant_id"}, error="INVALID_RECEIPT"),
    issue_case("trial call with reservation_id", "",
               call={**ISSUE_TRIAL_CALL, "reservation_id": "rsv_8d1c0e"}, error="INVALID_RECEIPT"),
    issue_case("call without connection_id", "every receipt carries it",
               call={k: v for k, v in ISSUE_CALL.items() if k != "connection_id"}, error="INVALID_RECEIPT"),
    issue_case("call naming receipt_digest", "a receipt being issued has no digest yet",
               call={**ISSUE_CALL, "receipt_digest": "0" * 64}, error="INVALID_ARGUMENT"),
    issue_case("status not an execution status", "", status="done", error="INVALID_RECEIPT"),
    issue_case("negative dsc_ver", "", dsc_ver=-1, error="INVALID_RECEIPT"),
    issue_case("empty key_id", "no key ring holds it", key_id="", error="INVALID_RECEIPT"),
    issue_case("empty receipt_id", "an empty id names no receipt (docs/decisions/edges.md#empty)", receipt_id="",
               error="INVALID_RECEIPT"),
    issue_case("empty secret", "a MAC under the empty key is one anyone can make", secret="",
               error="INVALID_ARGUMENT"),
    issue_case("call with an empty execution_id", "every id of the call is a non-empty string",
               call={**ISSUE_CALL, "execution_id": ""}, error="INVALID_ARGUMENT"),
    issue_case("upper-case salt", "a salt is 64 lowercase hex", input_salt="1F" * 32, error="INVALID_SALT"),
]

published_tag = tag(RECEIPT, SECRET)
call_receipt = {
    "description": (
        "EKP 1.2 call receipt, profile ekl-evidence-mac-1.1 (PROTOCOL 9.5). The first four members after this "
        "one are in the implementers' guide's shape: receipt key = HMAC-SHA256(receipt_secret, "
        "'ekl-receipt-1.1' || 0x00 || key_id); auth_tag = hex HMAC-SHA256(key, ekl-json-1(receipt)); "
        "receipt_digest = hex SHA-256(ekl-json-1(receipt + auth_tag)). input and result are what the consumer "
        "sent and received (their commitments are in the receipt); call is what the consumer knows of the call. "
        "key_ring: a key is valid from valid_from (inclusive) to valid_until (exclusive) and keeps verifying "
        "receipts issued inside that window; the key is chosen by key_id, then issued_at. mismatch: cases "
        "verified with the baseline ring (receipt_secret as rk-1) against call (or the case's own call), the "
        "consumer's own commitments computed from own_input / own_result (salted with own_salt when given). "
        "expected.not_pass lists the checks that do not pass (every other check run passes); expected.details "
        "pins some failure reasons. Check names: key_id, auth_tag, receipt_version, auth_profile, "
        "execution_kind, required_fields, kind_fields, status, issued_at, execution_id, collaboration_id, "
        "capability_id, requester_agent_id, provider_agent_id, capability_version, connection_id, terms_hash, "
        "input_commitment, output_commitment, receipt_digest (when the call names an expected digest). "
        "issue: receipts issued from the call answered (issue_mac_receipt): the call's members, "
        "rel_ver_at_admission, dsc_ver, status, key_id (absent: rk-1), receipt_id (absent: 'rcpt_' and the first "
        "32 hex of SHA-256 of ekl-json-1 of the receipt without receipt_id and auth_tag), issued_at in seconds "
        "(written YYYY-MM-DDTHH:MM:SSZ), the commitments to input and output salted with input_salt and "
        "output_salt, tagged with secret; expected is the receipt, or error the refusal's code. "
        "Generated by vectors/check/make_receipt_vectors.py (Python stdlib); re-checked by check_receipts.py."
    ),
    "receipt_secret": SECRET,
    "receipt": RECEIPT,
    "auth_tag": published_tag,
    "receipt_digest": sha256_hex(canon({**RECEIPT, "auth_tag": published_tag})),
    "receipt_key": receipt_key(SECRET, "rk-1").hex(),
    "input": INPUT,
    "result": RESULT,
    "terms": TERMS,
    "call": CALL,
    "key_ring": {"keys": KEYS, "call": CALL, "cases": KEY_RING_CASES},
    "mismatch": {"cases": MISMATCH_CASES},
    "issue": {"cases": ISSUE_CASES},
}

# ---------------------------------------------------------------- endpoint-proof-v2.json
AGENT_KEY = "eklp_" + base64.urlsafe_b64encode(hashlib.sha256(b"ekl-core endpoint proof vector").digest()).decode().rstrip("=")
KEY_SHA = sha256_hex(AGENT_KEY.encode())
PROOF_KEY = hmac.new(AGENT_KEY.encode(), b"ekl-endpoint-proof-v2", hashlib.sha256).digest()


def hm(key: bytes, msg: bytes) -> str:
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def proof_v1(challenge, endpoint):
    return hm(KEY_SHA.encode(), (challenge + endpoint).encode())


def proof_v2(challenge, endpoint):
    return hm(PROOF_KEY, b"ekl-challenge-v2\n" + challenge.encode() + b"\n" + endpoint.encode())


def auth_v1(eid, nonce, endpoint):
    return hm(KEY_SHA.encode(), f"ekl-enroll-1|{eid}|{nonce}|{endpoint}".encode())


def auth_v2(eid, nonce, endpoint):
    return hm(PROOF_KEY, f"ekl-enroll-2|{eid}|{nonce}|{endpoint}".encode())


CHALLENGES = [
    ("plain endpoint", hashlib.sha256(b"challenge 1").hexdigest(), "https://invoices.example.com/mcp"),
    ("trailing slash is another endpoint", hashlib.sha256(b"challenge 1").hexdigest(),
     "https://invoices.example.com/mcp/"),
    ("relay address", hashlib.sha256(b"challenge 2").hexdigest(),
     "https://network.example/v1/relay/agt_pr0v1d3r9b/mcp"),
    ("non-ASCII path, UTF-8 bytes", hashlib.sha256(b"challenge 3").hexdigest(),
     "https://agent.example/m\u00fcnchen/mcp"),
]
ENROLL = [
    ("enrollment 1", "enr_7c1d9a", "n_3f2b8e61a0c4", "https://invoices.example.com/mcp"),
    ("enrollment with a port", "enr_0b55e2", "n_aa01", "https://agent.example:8443/mcp"),
]
VERIFY = [
    ("ekl_verify", "rs_9QmV4c2KfX7tLw0pHjR3sN8yBdE6aZ1u", "agt_pr0v1d3r9b", "enr_7c1d9a",
     hashlib.sha256(b"verify challenge").hexdigest()),
    ("ekl_verify non-ASCII secret", "s\u00e9cret-\u00fc", "agt_x", "enr_y", "c"),
]
ch, ep = CHALLENGES[0][1], CHALLENGES[0][2]
eid, nonce, eep = ENROLL[0][1], ENROLL[0][2], ENROLL[0][3]
NETWORK = [
    ("proof key held, valid proof_v2", "proof_key", proof_v1(ch, ep), proof_v2(ch, ep), "v2"),
    ("proof key held, proof_v2 alone", "proof_key", None, proof_v2(ch, ep), "v2"),
    ("proof key held, valid v1 only", "proof_key", proof_v1(ch, ep), None, "PROOF_DOWNGRADE"),
    ("proof key held, valid v1 and wrong proof_v2", "proof_key", proof_v1(ch, ep), proof_v2(ch, ep + "/"),
     "PROOF_INVALID"),
    ("proof key held, nothing", "proof_key", None, None, "PROOF_INVALID"),
    ("proof key held, proof_v2 upper-case", "proof_key", None, proof_v2(ch, ep).upper(), "PROOF_INVALID"),
    ("proof key held, v1 value sent as proof_v2", "proof_key", None, proof_v1(ch, ep), "PROOF_INVALID"),
    ("hash only, valid v1", "credential_hash", proof_v1(ch, ep), None, "v1"),
    ("hash only, valid v1 and any proof_v2", "credential_hash", proof_v1(ch, ep), "00" * 32, "v1"),
    ("hash only, proof_v2 alone", "credential_hash", None, proof_v2(ch, ep), "PROOF_INVALID"),
    ("hash only, wrong v1", "credential_hash", proof_v1(ch, ep + "/"), None, "PROOF_INVALID"),
]
AGENT = [
    ("announced v2, v2 authority", "v2", auth_v2(eid, nonce, eep), 2, "v2"),
    ("announced v2, v1 authority without version", "v2", auth_v1(eid, nonce, eep), None, "PROOF_DOWNGRADE"),
    ("announced v2, v1 authority with version 1", "v2", auth_v1(eid, nonce, eep), 1, "PROOF_DOWNGRADE"),
    ("announced v2, v2 value labelled v1", "v2", auth_v2(eid, nonce, eep), None, "PROOF_DOWNGRADE"),
    ("announced v2, wrong v2 authority", "v2", auth_v2(eid, nonce + "x", eep), 2, "PROOF_INVALID"),
    ("announced v1, v1 authority", "v1", auth_v1(eid, nonce, eep), None, "v1"),
    ("announced v1, v2 authority", "v1", auth_v2(eid, nonce, eep), 2, "v2"),
    ("announced v1, v2 value labelled v1", "v1", auth_v2(eid, nonce, eep), 1, "PROOF_INVALID"),
    ("announced v1, authority for another endpoint", "v1", auth_v1(eid, nonce, eep + "/"), None, "PROOF_INVALID"),
    ("no authority", "v2", None, 2, "PROOF_INVALID"),
    ("authority_version 3", "v1", auth_v2(eid, nonce, eep), 3, "ENROLLMENT_AUTH_REQUIRED"),
    ("authority_version 0 with a valid v1 authority", "v1", auth_v1(eid, nonce, eep), 0, "ENROLLMENT_AUTH_REQUIRED"),
    ("announced v2, authority_version 7 with a valid v2 authority", "v2", auth_v2(eid, nonce, eep), 7,
     "ENROLLMENT_AUTH_REQUIRED"),
    ("authority_version 3 and no authority", "v1", None, 3, "ENROLLMENT_AUTH_REQUIRED"),
]

endpoint_proof = {
    "description": (
        "EKP 1.2 endpoint proof v2 (PROTOCOL 3.1, 4, 15.2). proof_key = HMAC-SHA256(agent_key as UTF-8, "
        "'ekl-endpoint-proof-v2'); challenge proof_v2 = hex HMAC-SHA256(proof_key, 'ekl-challenge-v2\\n' || "
        "challenge || '\\n' || endpoint); v1 proof = hex HMAC-SHA256(ASCII of hex SHA-256(agent_key), challenge "
        "|| endpoint); enroll authority v1 = hex HMAC-SHA256(ASCII of hex SHA-256(agent_key), "
        "'ekl-enroll-1|<enrollment_id>|<nonce>|<endpoint>'), v2 = hex HMAC-SHA256(proof_key, "
        "'ekl-enroll-2|...'); ekl_verify signature = hex HMAC-SHA256(registration_secret, "
        "'ekl-verify-1.1|<agent_id>|<enrollment_id>|<challenge>'). All strings are UTF-8. No downgrade: "
        "downgrade.network cases use challenges[0]; holds proof_key means the network holds the proof key "
        "(a missing proof_v2 with a v1 proof offered is PROOF_DOWNGRADE, any other missing or wrong proof_v2 "
        "PROOF_INVALID, the v1 proof is ignored), credential_hash means it holds only agent_key_sha256 (v1 "
        "must verify, proof_v2 is ignored). downgrade.agent cases use enroll[0]; announced is the "
        "endpoint_proof the agent's announcement answered; authority_version null means absent (v1); once "
        "v2 was announced a v1 authority is PROOF_DOWNGRADE without being computed; an authority_version other than "
        "absent, 1 or 2 is ENROLLMENT_AUTH_REQUIRED (PROTOCOL 4 'otherwise it refuses with ENROLLMENT_AUTH_REQUIRED'), "
        "judged before the authority itself. expected is the accepted "
        "version (v1, v2) or the error code. Generated by vectors/check/make_receipt_vectors.py (Python "
        "stdlib); re-checked by check_receipts.py."
    ),
    "agent_key": AGENT_KEY,
    "agent_key_sha256": KEY_SHA,
    "proof_key": PROOF_KEY.hex(),
    "challenges": [
        {"name": n, "challenge": c, "endpoint": e, "proof": proof_v1(c, e), "proof_v2": proof_v2(c, e)}
        for n, c, e in CHALLENGES
    ],
    "enroll": [
        {"name": n, "enrollment_id": i, "nonce": no, "endpoint": e, "authority_v1": auth_v1(i, no, e),
         "authority_v2": auth_v2(i, no, e)}
        for n, i, no, e in ENROLL
    ],
    "verify_signature": [
        {"name": n, "registration_secret": s, "agent_id": a, "enrollment_id": i, "challenge": c,
         "signature": hm(s.encode(), f"ekl-verify-1.1|{a}|{i}|{c}".encode())}
        for n, s, a, i, c in VERIFY
    ],
    "downgrade": {
        "network": [
            {"name": n, "holds": h, "proof": p1, "proof_v2": p2, "expected": x} for n, h, p1, p2, x in NETWORK
        ],
        "agent": [
            {"name": n, "announced": a, "authority": au, "authority_version": v, "expected": x}
            for n, a, au, v, x in AGENT
        ],
    },
}

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
for name, doc in [("call-receipt.json", call_receipt), ("endpoint-proof-v2.json", endpoint_proof)]:
    with open(os.path.join(root, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("wrote", name)

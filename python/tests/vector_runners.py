"""Runners for the files of vectors/, one per file, read in place.

Each runner turns a file's parsed JSON into a list of checks ``(case name, thunk)``; a thunk
raises ``AssertionError`` when the package disagrees with the file. test_vectors.py runs every
check of every file and the meta-test runs them on a copy with one expected value changed.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
from pathlib import Path
from typing import Any, Callable

import ekl_evidence as ekl

Check = tuple[str, Callable[[], None]]

REPO = Path(__file__).resolve().parents[2]
# EKL_VECTORS_DIR is for trying a vector file from a branch that has not landed yet.
VECTORS = Path(os.environ.get("EKL_VECTORS_DIR") or REPO / "vectors")


def refused(code: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    try:
        got = fn(*args, **kwargs)
    except ekl.EklError as e:
        assert e.code == code, f"expected {code}, got {e.code} ({e.message})"
    else:
        raise AssertionError(f"expected {code}, got a result: {got!r}"[:300])


def _loads_exact(text: str) -> Any:
    """json.loads, but refusing what a Python value cannot carry faithfully (duplicate keys)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate")
        return dict(items)

    return json.loads(text, object_pairs_hook=pairs)


# --- ekl-json-1.json ---------------------------------------------------------------------------


def _generated(case: dict[str, Any]) -> str:
    """prefix + repeat × count + inner + close × count + suffix (a missing part is empty); older
    drafts named the repeated part `open`."""
    n = case["count"]
    repeat = case.get("repeat", case.get("open", ""))
    return (
        case.get("prefix", "")
        + repeat * n
        + case.get("inner", "")
        + case.get("close", "") * n
        + case.get("suffix", "")
    )


def _expect_canonical(case: dict[str, Any], out: bytes) -> None:
    if "canonical" in case:
        assert out == case["canonical"].encode("utf-8"), f"canonical form differs: {out[:200]!r}"
    if "canonical_length" in case:
        assert len(out) == case["canonical_length"], f"length {len(out)}"
    if "sha256" in case:
        assert ekl.sha256_hex(out) == case["sha256"], "sha256 of the canonical form differs"
        assert hashlib.sha256(out).hexdigest() == case["sha256"]


def run_ekl_json_1(data: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    for case in data.get("valid", []):

        def valid(case: dict[str, Any] = case) -> None:
            text = case["input"]
            out = ekl.canonicalize(text)
            _expect_canonical(case, out)
            # every text form gives the same bytes
            raw = text.encode("utf-8")
            assert ekl.canonicalize(raw) == out
            assert ekl.canonicalize(bytearray(raw)) == out
            assert ekl.canonicalize(memoryview(raw)) == out
            assert ekl.canonicalize_value(ekl.JsonText(text)) == out
            # the value path gives the same bytes as the text path
            assert ekl.canonicalize_value(_loads_exact(text)) == out
            # canonical output is a fixed point, except where a double beyond 2^53 is written
            # as an integer literal (1e21 > x > 2^53): that text is refused on re-reading
            try:
                again = ekl.canonicalize(out)
            except ekl.EklError as e:
                assert e.code == "INTEGER_OUT_OF_RANGE", e
            else:
                assert again == out

        checks.append((f"valid: {case['name']}", valid))
    for case in data.get("invalid", []):

        def invalid(case: dict[str, Any] = case) -> None:
            refused(case["code"], ekl.canonicalize, case["input"])
            refused(case["code"], ekl.canonicalize_value, ekl.JsonText(case["input"]))

        checks.append((f"invalid: {case['name']}", invalid))
    for case in data.get("depth", []):

        def depth(case: dict[str, Any] = case) -> None:
            text = _generated(case)
            if "code" in case:
                refused(case["code"], ekl.canonicalize, text)
            else:
                _expect_canonical(case, ekl.canonicalize(text))

        checks.append((f"depth: {case['name']}", depth))
    for case in data.get("invalid_utf8", []):

        def bad_utf8(case: dict[str, Any] = case) -> None:
            raw = bytes.fromhex(case["input_hex"])
            refused(case["code"], ekl.canonicalize, raw)
            refused(case["code"], ekl.canonicalize_value, ekl.JsonText(raw))

        checks.append((f"invalid_utf8: {case['name']}", bad_utf8))
    for case in data.get("size", []):

        def size(case: dict[str, Any] = case) -> None:
            text = _generated(case)
            if "code" in case:
                refused(case["code"], ekl.canonicalize, text, max_bytes=case["max_bytes"])
            else:
                _expect_canonical(case, ekl.canonicalize(text, max_bytes=case["max_bytes"]))

        checks.append((f"size: {case['name']}", size))
    return checks


# --- rfc8785-testdata/ (a folder: input/*.json -> output/*.json, and the ES6 number file) --------


def _es6_bits(static: list[int]) -> Any:
    """The bit patterns of es6testfile100m.txt in order (rfc8785-testdata/README.md)."""
    yield from static
    for i in range(2000):
        yield 0x0010000000000000 + i
    block = bytes(32)
    while True:
        block = hashlib.sha256(block).digest()
        for k in range(4):
            chunk = block[8 * k : 8 * k + 8]
            x = struct.unpack("<d", chunk)[0]
            if x != 0 and math.isfinite(x):
                yield struct.unpack("<Q", chunk)[0]


#: How many lines of the ES6 number file the Python runner checks (the Rust tests go further).
ES6_MAX_LINES = 100_000


def run_rfc8785_testdata(folder: Path) -> list[Check]:
    checks: list[Check] = []
    for inp in sorted((folder / "input").glob("*.json")):

        def pair(inp: Path = inp) -> None:
            expected = (folder / "output" / inp.name).read_bytes()
            raw = inp.read_bytes()
            assert ekl.canonicalize(raw) == expected, f"{inp.name}: canonical form differs"
            assert ekl.canonicalize_value(json.loads(raw)) == expected, f"{inp.name}: value path"

        checks.append((f"input/{inp.name}", pair))
    hashes = folder / "es6-hashes.tsv"
    static = folder / "numgen-static.txt"
    if hashes.is_file() and static.is_file():

        def es6() -> None:
            want = {}
            for line in hashes.read_text(encoding="utf-8").splitlines():
                if "\t" in line:
                    n, h = line.split("\t", 1)
                    if int(n) <= ES6_MAX_LINES:
                        want[int(n)] = h.strip()
            assert want, "no published hash within reach"
            bits_list = [int(x, 16) for x in static.read_text(encoding="utf-8").split()]
            h = hashlib.sha256()
            last = max(want)
            for n, bits in enumerate(_es6_bits(bits_list), start=1):
                x = struct.unpack("<d", struct.pack("<Q", bits))[0]
                h.update(f"{bits:x},".encode() + ekl.canonicalize_value(x) + b"\n")
                if n in want:
                    assert h.copy().hexdigest() == want[n], f"ES6 number file: first {n} lines differ"
                if n >= last:
                    break

        checks.append(("es6 number file", es6))
    return checks


# --- endpoint-proof-v2.json ----------------------------------------------------------------------


def _code_or_value(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except ekl.EklError as e:
        return e.code


def run_endpoint_proof_v2(data: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    agent_key = data["agent_key"]

    def keys() -> None:
        assert ekl.sha256_hex(agent_key) == data["agent_key_sha256"]
        assert ekl.proof_key(agent_key) == data["proof_key"]

    checks.append(("keys", keys))
    pk = data["proof_key"]
    for c in data.get("challenges", []):

        def challenge(c: dict[str, Any] = c) -> None:
            assert ekl.challenge_proof_v1(agent_key, c["challenge"], c["endpoint"]) == c["proof"]
            assert ekl.challenge_proof_v2(pk, c["challenge"], c["endpoint"]) == c["proof_v2"]
            got = ekl.verify_challenge_proof(
                c["challenge"], c["endpoint"], proof=c["proof"], proof_v2=c["proof_v2"], proof_key=pk
            )
            assert got == "v2", got

        checks.append((f"challenges: {c['name']}", challenge))
    for e in data.get("enroll", []):

        def enroll(e: dict[str, Any] = e) -> None:
            args = (e["enrollment_id"], e["nonce"], e["endpoint"])
            assert ekl.enroll_authority_v1(agent_key, *args) == e["authority_v1"]
            assert ekl.enroll_authority_v2(pk, *args) == e["authority_v2"]

        checks.append((f"enroll: {e['name']}", enroll))
    for v in data.get("verify_signature", []):

        def verify(v: dict[str, Any] = v) -> None:
            args = (v["registration_secret"], v["agent_id"], v["enrollment_id"], v["challenge"])
            assert ekl.verify_signature(*args) == v["signature"]
            assert ekl.check_verify_signature(*args, v["signature"]) is True

        checks.append((f"verify_signature: {v['name']}", verify))
    down = data.get("downgrade", {})
    c0 = data["challenges"][0] if data.get("challenges") else None
    for case in down.get("network", []):

        def network(case: dict[str, Any] = case) -> None:
            assert c0 is not None
            holds = (
                {"proof_key": pk}
                if case["holds"] == "proof_key"
                else {"credential_hash": data["agent_key_sha256"]}
            )
            got = _code_or_value(
                lambda: ekl.verify_challenge_proof(
                    c0["challenge"], c0["endpoint"], proof=case["proof"], proof_v2=case["proof_v2"], **holds
                )
            )
            assert got == case["expected"], got

        checks.append((f"downgrade network: {case['name']}", network))
    e0 = data["enroll"][0] if data.get("enroll") else None
    for case in down.get("agent", []):

        def agent(case: dict[str, Any] = case) -> None:
            assert e0 is not None
            got = _code_or_value(
                lambda: ekl.verify_enroll_authority(
                    case["announced"], agent_key, e0["enrollment_id"], e0["nonce"], e0["endpoint"],
                    authority=case["authority"], authority_version=case["authority_version"],
                )
            )
            assert got == case["expected"], got

        checks.append((f"downgrade agent: {case['name']}", agent))
    return checks


# --- call-receipt.json -------------------------------------------------------------------------


def _not_pass(verdict: ekl.Verdict) -> dict[str, str]:
    return {c.name: c.outcome for c in verdict.checks if c.outcome != "pass"}


def _expect_verdict(verdict: ekl.Verdict, expected: dict[str, Any]) -> None:
    assert _not_pass(verdict) == expected.get("not_pass", {}), _not_pass(verdict)
    for name, detail in expected.get("details", {}).items():
        c = verdict.check(name)
        assert c is not None and c.detail == detail, (name, c)
    assert verdict.accepted == (not expected.get("not_pass"))


def run_call_receipt(data: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    secret, receipt = data["receipt_secret"], data["receipt"]
    signed = {**receipt, "auth_tag": data["auth_tag"]}

    def published() -> None:
        key_id = receipt["key_id"]
        assert ekl.receipt_key(secret, key_id) == data["receipt_key"]
        assert ekl.auth_tag(receipt, secret) == data["auth_tag"]
        assert ekl.sign_receipt(receipt, secret) == signed
        assert ekl.receipt_digest(signed) == data["receipt_digest"]
        assert ekl.receipt_digest(ekl.JsonText(json.dumps(signed))) == data["receipt_digest"]
        assert receipt["input_commitment"] == ekl.commitment(data["input"])
        assert receipt["output_commitment"] == ekl.commitment(data["result"])
        assert receipt["terms_hash"] == ekl.terms_hash(data["terms"])
        v = ekl.verify_receipt(
            signed, secret, data["call"],
            input_commitment=ekl.commitment(data["input"]), output_commitment=ekl.commitment(data["result"]),
        )
        assert v.accepted, v.failed()
        assert v.receipt_digest == data["receipt_digest"]

    checks.append(("published receipt", published))
    kr = data.get("key_ring")
    if kr:
        ring = kr["keys"]
        for case in kr.get("cases", []):

            def rotation(case: dict[str, Any] = case) -> None:
                v = ekl.verify_receipt(case["receipt"], ring, kr["call"])
                _expect_verdict(v, case["expected"])

            checks.append((f"key_ring: {case['name']}", rotation))
    mm = data.get("mismatch")
    if mm:
        baseline = secret
        for case in mm.get("cases", []):

            def mismatch(case: dict[str, Any] = case) -> None:
                salt = case.get("own_salt")
                own_in = ekl.commitment(case["own_input"], salt=salt) if "own_input" in case else None
                own_out = ekl.commitment(case["own_result"], salt=salt) if "own_result" in case else None
                call = case.get("call", data["call"])
                v = ekl.verify_receipt(
                    case["receipt"], baseline, call, input_commitment=own_in, output_commitment=own_out
                )
                _expect_verdict(v, case["expected"])
                # the batch gives the same verdict
                batch = ekl.verify_receipts([{
                    "receipt": case["receipt"], "call": call,
                    "input_commitment": own_in, "output_commitment": own_out,
                }], baseline)
                assert batch == [v]

            checks.append((f"mismatch: {case['name']}", mismatch))
    for case in (data.get("issue") or {}).get("cases", []):

        def issue(case: dict[str, Any] = case) -> None:
            options = {k: case[k] for k in ("key_id", "receipt_id") if k in case}
            try:
                got = ekl.issue_mac_receipt(
                    case["call"], case["input"], case["output"], case["status"],
                    case["rel_ver_at_admission"], case["dsc_ver"], case["secret"],
                    issued_at=case["issued_at"], input_salt=case["input_salt"],
                    output_salt=case["output_salt"], **options,
                )
            except ekl.EklError as e:
                assert e.code == case.get("error"), e
                return
            assert "error" not in case, got
            assert got == case["expected"]
            assert ekl.canonicalize_value(got) == ekl.canonicalize_value(case["expected"])

        checks.append((f"issue: {case['name']}", issue))
    return checks


# --- receipt-jws.json ----------------------------------------------


def _verdict_outcomes(v: ekl.Verdict) -> dict[str, str]:
    return {c.name: c.outcome for c in v.checks}


def run_receipt_jws(data: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    jwks = ekl.Jwks(data["jwks"])

    def keys() -> None:
        seed = data.get("key_seed_hex")
        if seed is not None and len(seed) == 64:
            set_, _ = ekl.jwks_from_seed(seed, jwks.kids())
            assert json.loads(set_.to_json()) == json.loads(jwks.to_json())

    checks.append(("jwks", keys))
    for case in data.get("cases", []):

        def receipt(case: dict[str, Any] = case) -> None:
            call = {**data["call"], **case.get("call", {})}
            exp = case["expected"]
            if "receipt_jws" in case:
                fn: Callable[[], ekl.Verdict] = lambda: ekl.verify_receipt_jws(case["receipt_jws"], jwks, call)  # noqa: E731
            else:
                fn = lambda: ekl.verify_signed_receipt(case["receipt"], jwks, call)  # noqa: E731
            if "error" in exp:
                refused(exp["error"], fn)
                return
            v = fn()
            assert v.accepted == exp["accepted"], v.failed()
            assert _verdict_outcomes(v) == exp["checks"], _verdict_outcomes(v)
            assert v.receipt_digest == exp["receipt_digest"]
            if "receipt_jws" in case:
                assert ekl.sha256_hex(case["receipt_jws"]) == exp["receipt_digest"]

        checks.append((f"cases: {case['name']}", receipt))
    return checks


#: The runner of each vector file not checked through vectors/calls.jsonl (test_vector_calls.py,
#: the one format these runners move to: vectors/README.md#calls). A file in vectors/ with
#: neither is reported by test_vectors.py::test_every_vector_file_has_a_runner.
RUNNERS: dict[str, Callable[[dict[str, Any]], list[Check]]] = {
    "ekl-json-1.json": run_ekl_json_1,
    "endpoint-proof-v2.json": run_endpoint_proof_v2,
    "call-receipt.json": run_call_receipt,
    "receipt-jws.json": run_receipt_jws,
}

#: Where the meta-test changes one expected value: (section, case index, member); an empty
#: section names a top-level member, a dotted member one inside it (``expected.jti``).
MUTATIONS: dict[str, tuple[str, int, str]] = {
    "ekl-json-1.json": ("valid", 0, "canonical"),
    "endpoint-proof-v2.json": ("challenges", 0, "proof_v2"),
    "call-receipt.json": ("", 0, "receipt_digest"),  # "": a top-level member
}


#: Runners of folders inside vectors/.
FOLDER_RUNNERS: dict[str, Callable[[Path], list[Check]]] = {
    "rfc8785-testdata": run_rfc8785_testdata,
}


def vector_files() -> list[Path]:
    return sorted(VECTORS.glob("*.json")) if VECTORS.is_dir() else []


def vector_folders() -> list[Path]:
    return sorted(p for p in VECTORS.iterdir() if p.is_dir() and p.name != "check") if VECTORS.is_dir() else []


def load(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data

"""Independent re-check of vectors/call-receipt.json and vectors/endpoint-proof-v2.json (and
vectors/screening-scan.json when present), with Python's stdlib (hashlib, hmac, json, unicodedata) and the
guide's canonical.py (vectors/check/guide/, verbatim) only: nothing here uses the Rust core. Exits non-zero on any failure.

A meta-check runs the same checks on mutated copies (one expected value changed each) and fails unless every
mutation is caught.

Run from anywhere: python3 vectors/check/check_receipts.py [--quiet]"""
import copy
import hashlib
import hmac
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "guide"))  # the guide's canonical.py, verbatim
from canonical import canonical  # noqa: E402

ROOT = os.path.join(HERE, "..")
QUIET = "--quiet" in sys.argv


class Report:
    def __init__(self, quiet):
        self.failures = 0
        self.passes = 0
        self.quiet = quiet

    def __call__(self, ok, what):
        if ok:
            self.passes += 1
        else:
            self.failures += 1
        if not self.quiet or not ok:
            print("PASS" if ok else "FAIL", what)


def canon(value) -> bytes:
    return canonical(json.dumps(value)).encode()


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def hm(key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, hashlib.sha256).digest()


# ------------------------------------------------------------------ receipts

def parse_ts(text):
    """Seconds and nanoseconds of YYYY-MM-DDTHH:MM:SS(.f{1,9})?Z, or None (independent of the Rust parser)."""
    if not isinstance(text, str):
        return None
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z", text, re.ASCII)
    if not m:
        return None
    import datetime
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    if h > 23 or mi > 59 or s > 59:
        return None
    try:
        # date() checks the calendar; year 0 is not representable there, and no vector uses it.
        days = (datetime.date(y, mo, d) - datetime.date(1970, 1, 1)).days
    except ValueError:
        return None
    return (days * 86400 + h * 3600 + mi * 60 + s, int((m.group(7) or "0").ljust(9, "0")))


def commitment(value, salt_hex=None):
    prefix = bytes.fromhex(salt_hex) if salt_hex else b""
    return sha(prefix + canon(value)), salt_hex


HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)
STRINGS = ["receipt_version", "receipt_id", "execution_kind", "requester_agent_id", "provider_agent_id",
           "collaboration_id", "connection_id", "execution_id", "capability_id", "capability_version",
           "terms_hash", "status", "issued_at", "key_id", "auth_profile", "auth_tag"]
STATUSES = {"accepted", "running", "succeeded", "failed_before_effect", "cancelled", "outcome_unknown"}
CUSTOMER = ["reservation_id", "grant_id", "admission_id"]


def verify(receipt, keys, call, own_input, own_output):
    """An independent verifier: returns (checks: name -> outcome, details: name -> reason)."""
    out, det = {}, {}

    def fail(name, why=None):
        out[name] = "fail"
        if why:
            det[name] = why

    issued = parse_ts(receipt.get("issued_at"))
    key = None
    kid = receipt.get("key_id")
    if not isinstance(kid, str):
        fail("key_id", "missing or not a string")
    elif issued is None:
        fail("key_id", "no valid issued_at to choose the key by")
    else:
        entry = next((k for k in keys if k["key_id"] == kid), None)
        if entry is None:
            fail("key_id", "unknown key_id")
        else:
            start = parse_ts(entry["valid_from"])
            end = parse_ts(entry["valid_until"]) if entry.get("valid_until") else None
            if start <= issued and (end is None or issued < end):
                out["key_id"] = "pass"
                key = hm(entry["secret"].encode(), b"ekl-receipt-1.1\x00" + kid.encode())
            else:
                fail("key_id", "key not valid at issued_at")
    t = receipt.get("auth_tag")
    if not isinstance(t, str):
        fail("auth_tag", "missing or not a string")
    elif key is None:
        fail("auth_tag", "no usable key to check it with")
    else:
        body = {k: v for k, v in receipt.items() if k != "auth_tag"}
        ok = hmac.compare_digest(t.encode(), hmac.new(key, canon(body), hashlib.sha256).hexdigest().encode())
        out["auth_tag"] = "pass" if ok else "fail"
        if not ok:
            det["auth_tag"] = (f"does not verify under key_id {json.dumps(kid)}: the receipt changed after "
                               "it was tagged, or it was tagged under another secret")
    out["receipt_version"] = "pass" if receipt.get("receipt_version") == "1.1" else "fail"
    out["auth_profile"] = "pass" if receipt.get("auth_profile") == "ekl-evidence-mac-1.1" else "fail"
    kind = receipt.get("execution_kind")
    kind = kind if kind in ("customer", "trial", "validation") else None
    want_kind = call.get("execution_kind")
    out["execution_kind"] = "pass" if kind and (want_kind is None or kind == want_kind) else "fail"
    # Every string member names something: an empty one is refused like a missing one
    # (docs/decisions/edges.md#empty).
    ok = all(isinstance(receipt.get(f), str) and receipt.get(f) != "" for f in STRINGS)
    for f in ["rel_ver_at_admission", "dsc_ver"]:
        v = receipt.get(f)
        ok = ok and not isinstance(v, bool) and isinstance(v, (int, float)) and v >= 0 and v == int(v)
    ok = ok and all(isinstance(receipt.get(f), dict) for f in ["input_commitment", "output_commitment"])
    out["required_fields"] = "pass" if ok else "fail"
    if kind is None:
        out["kind_fields"] = "fail"
    elif kind == "customer":
        out["kind_fields"] = "pass" if all(isinstance(receipt.get(f), str) and receipt[f] for f in CUSTOMER) \
            else "fail"
    else:
        out["kind_fields"] = "pass" if all(f not in receipt for f in CUSTOMER) else "fail"
    out["status"] = "pass" if receipt.get("status") in STATUSES else "fail"
    out["issued_at"] = "pass" if issued is not None else "fail"
    for f in ["execution_id", "collaboration_id", "capability_id", "requester_agent_id", "provider_agent_id",
              "capability_version", "connection_id", "terms_hash", "reservation_id", "grant_id", "admission_id"]:
        if call.get(f) is not None:
            out[f] = "pass" if receipt.get(f) == call[f] else "fail"
    for f, own in [("input_commitment", own_input), ("output_commitment", own_output)]:
        if own is None:
            continue
        c = receipt.get(f)
        if not (isinstance(c, dict) and c.get("alg") == "sha-256" and c.get("canon") == "ekl-json-1"
                and isinstance(c.get("digest"), str) and HEX64.fullmatch(c["digest"])
                and ("salt" not in c or (isinstance(c["salt"], str) and HEX64.fullmatch(c["salt"])))
                and ("salt_id" not in c or isinstance(c["salt_id"], str))):
            out[f] = "fail"
        else:
            out[f] = "pass" if (c["digest"], c.get("salt")) == own else "mismatch"
    if call.get("receipt_digest") is not None:
        out["receipt_digest"] = "pass" if sha(canon(receipt)) == call["receipt_digest"] else "fail"
    return out, det


def check_expected(report, label, got, det, expected):
    not_pass = {k: v for k, v in got.items() if v != "pass"}
    report(not_pass == expected["not_pass"], f"{label}: verdict {not_pass or 'all pass'}")
    for name, why in expected.get("details", {}).items():
        report(det.get(name) == why, f"{label}: detail of {name}")


def check_call_receipt(doc, report):
    r = doc["receipt"]
    # The guide's own two receipt lines (implementers' guide section 2, check_vectors.py), verbatim.
    key = hmac.new(doc["receipt_secret"].encode(), b"ekl-receipt-1.1\x00" + r["key_id"].encode(),
                   hashlib.sha256).digest()
    tag = hmac.new(key, canonical(json.dumps(r)).encode(), hashlib.sha256).hexdigest()
    digest = hashlib.sha256(canonical(json.dumps({**r, "auth_tag": tag})).encode()).hexdigest()
    report(tag == doc["auth_tag"], "receipt: auth_tag (guide's lines)")
    report(digest == doc["receipt_digest"], "receipt: receipt_digest (guide's lines)")
    report(key.hex() == doc["receipt_key"], "receipt: receipt_key")
    report("auth_tag" not in r, "receipt: published without auth_tag")
    report(r["input_commitment"] == {"alg": "sha-256", "canon": "ekl-json-1", "digest": sha(canon(doc["input"]))},
           "receipt: input_commitment covers input")
    report(r["output_commitment"] == {"alg": "sha-256", "canon": "ekl-json-1",
                                      "digest": sha(canon(doc["result"]))}, "receipt: output_commitment covers result")
    report(r["terms_hash"] == sha(canon(doc["terms"])), "receipt: terms_hash covers terms")
    whole = {**r, "auth_tag": doc["auth_tag"]}
    baseline = [{"key_id": "rk-1", "secret": doc["receipt_secret"], "valid_from": "0001-01-01T00:00:00Z"}]
    got, det = verify(whole, baseline, doc["call"], commitment(doc["input"]), commitment(doc["result"]))
    check_expected(report, "receipt: published receipt", got, det, {"not_pass": {}})
    ring = doc["key_ring"]
    for case in ring["cases"]:
        got, det = verify(case["receipt"], ring["keys"], ring["call"], commitment(doc["input"]),
                          commitment(doc["result"]))
        check_expected(report, f"key_ring: {case['name']}", got, det, case["expected"])
    for case in doc["mismatch"]["cases"]:
        salt = case.get("own_salt")
        got, det = verify(case["receipt"], baseline, case.get("call", doc["call"]),
                          commitment(case["own_input"], salt), commitment(case["own_result"], salt))
        check_expected(report, f"mismatch: {case['name']}", got, det, case["expected"])


def issue_refusal(case):
    """The code issue_mac_receipt refuses a case with, or None (independent of the generator)."""
    call = case["call"]
    # The call's shape first: an empty id is refused as an argument (docs/decisions/edges.md#empty).
    if any(v == "" for v in call.values()):
        return "INVALID_ARGUMENT"
    if call.get("receipt_digest") is not None:
        return "INVALID_ARGUMENT"
    for salt in (case["input_salt"], case["output_salt"]):
        if not HEX64.fullmatch(salt):
            return "INVALID_SALT"
    if case["secret"] == "":  # a MAC under the empty key is one anyone can make
        return "INVALID_ARGUMENT"
    kind = call.get("execution_kind")
    if kind not in ("customer", "trial", "validation"):
        return "INVALID_RECEIPT"
    if any(call.get(f) is None for f in ("connection_id", "capability_version", "terms_hash")):
        return "INVALID_RECEIPT"
    present = [f for f in CUSTOMER if call.get(f) is not None]
    if kind == "customer" and (len(present) != 3 or not all(call[f] for f in CUSTOMER)):
        return "INVALID_RECEIPT"
    if kind != "customer" and present:
        return "INVALID_RECEIPT"
    for f in ("rel_ver_at_admission", "dsc_ver"):
        if not 0 <= case[f] <= 2 ** 53:
            return "INVALID_RECEIPT"
    if case["status"] not in STATUSES or case.get("key_id") == "" or case.get("receipt_id") == "":
        return "INVALID_RECEIPT"
    return None


def issue(case):
    """The receipt of an issue case, derived here: members by name, then the id, then the tag."""
    import datetime
    call = case["call"]
    names = ["execution_kind", "requester_agent_id", "provider_agent_id", "collaboration_id", "connection_id",
             "execution_id", "capability_id", "capability_version", "terms_hash"]
    names += [f for f in CUSTOMER if f in call]
    r = {f: call[f] for f in names}
    when = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=case["issued_at"])
    salted = lambda value, salt: {"alg": "sha-256", "canon": "ekl-json-1", "salt": salt,  # noqa: E731
                                  "digest": sha(bytes.fromhex(salt) + canon(value))}
    r.update({
        "receipt_version": "1.1", "auth_profile": "ekl-evidence-mac-1.1", "status": case["status"],
        "rel_ver_at_admission": case["rel_ver_at_admission"], "dsc_ver": case["dsc_ver"],
        "key_id": case.get("key_id", "rk-1"), "issued_at": when.isoformat() + "Z",
        "input_commitment": salted(case["input"], case["input_salt"]),
        "output_commitment": salted(case["output"], case["output_salt"]),
    })
    r["receipt_id"] = case.get("receipt_id", "rcpt_" + sha(canon(r))[:32])
    key = hm(case["secret"].encode(), b"ekl-receipt-1.1\x00" + r["key_id"].encode())
    r["auth_tag"] = hmac.new(key, canon(r), hashlib.sha256).hexdigest()
    return r


def check_issue(doc, report):
    for case in doc["issue"]["cases"]:
        label = f"issue: {case['name']}"
        refusal = issue_refusal(case)
        if "error" in case:
            report(refusal == case["error"] and "expected" not in case, f"{label}: refused with {case['error']}")
            continue
        report(refusal is None, f"{label}: not refused")
        got = issue(case)
        report(canon(got) == canon(case["expected"]), f"{label}: the receipt re-derived")
        keys = [{"key_id": got["key_id"], "secret": case["secret"], "valid_from": "0001-01-01T00:00:00Z"}]
        own_in = commitment(case["input"], case["input_salt"])
        own_out = commitment(case["output"], case["output_salt"])
        checks, det = verify(case["expected"], keys, case["call"], own_in, own_out)
        check_expected(report, f"{label}: verified", checks, det, {"not_pass": {}})


# ------------------------------------------------------------------ endpoint proofs

def check_endpoint_proof(doc, report):
    ak = doc["agent_key"].encode()
    ksha = sha(ak)
    pk = hm(ak, b"ekl-endpoint-proof-v2")
    report(ksha == doc["agent_key_sha256"], "proof: agent_key_sha256")
    report(pk.hex() == doc["proof_key"], "proof: proof_key")

    def v1(c, e):
        return hm(ksha.encode(), (c + e).encode()).hex()

    def v2(c, e):
        return hm(pk, b"ekl-challenge-v2\n" + c.encode() + b"\n" + e.encode()).hex()

    def a1(i, n, e):
        return hm(ksha.encode(), f"ekl-enroll-1|{i}|{n}|{e}".encode()).hex()

    def a2(i, n, e):
        return hm(pk, f"ekl-enroll-2|{i}|{n}|{e}".encode()).hex()

    for c in doc["challenges"]:
        report(c["proof"] == v1(c["challenge"], c["endpoint"]), f"proof: challenge {c['name']} v1")
        report(c["proof_v2"] == v2(c["challenge"], c["endpoint"]), f"proof: challenge {c['name']} v2")
    for e in doc["enroll"]:
        report(e["authority_v1"] == a1(e["enrollment_id"], e["nonce"], e["endpoint"]), f"proof: enroll {e['name']} v1")
        report(e["authority_v2"] == a2(e["enrollment_id"], e["nonce"], e["endpoint"]), f"proof: enroll {e['name']} v2")
    for s in doc["verify_signature"]:
        msg = f"ekl-verify-1.1|{s['agent_id']}|{s['enrollment_id']}|{s['challenge']}".encode()
        report(s["signature"] == hm(s["registration_secret"].encode(), msg).hex(), f"proof: {s['name']}")

    c0 = doc["challenges"][0]
    for case in doc["downgrade"]["network"]:
        p1, p2 = case["proof"], case["proof_v2"]
        if case["holds"] == "proof_key":
            if p2 is not None:
                got = "v2" if hmac.compare_digest(p2, v2(c0["challenge"], c0["endpoint"])) else "PROOF_INVALID"
            else:
                got = "PROOF_DOWNGRADE" if p1 is not None else "PROOF_INVALID"
        else:
            got = "v1" if p1 is not None and hmac.compare_digest(p1, v1(c0["challenge"], c0["endpoint"])) \
                else "PROOF_INVALID"
        report(got == case["expected"], f"downgrade network: {case['name']} -> {got}")
    e0 = doc["enroll"][0]
    for case in doc["downgrade"]["agent"]:
        ver, au = case["authority_version"], case["authority"]
        if ver not in (None, 1, 2):
            got = "ENROLLMENT_AUTH_REQUIRED"  # PROTOCOL §4: "otherwise it refuses with ENROLLMENT_AUTH_REQUIRED"
        elif au is None:
            got = "PROOF_INVALID"
        elif ver in (None, 1) and case["announced"] == "v2":
            got = "PROOF_DOWNGRADE"
        else:
            want = (a2 if ver == 2 else a1)(e0["enrollment_id"], e0["nonce"], e0["endpoint"])
            got = ("v2" if ver == 2 else "v1") if hmac.compare_digest(au, want) else "PROOF_INVALID"
        report(got == case["expected"], f"downgrade agent: {case['name']} -> {got}")


# ------------------------------------------------------------------ screening scan

def fold(s):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", s).casefold())


B64URL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
PEM = re.compile(r"(?=-----BEGIN ([A-Z0-9 ]{0,64})-----)", re.ASCII)
CRED = re.compile(r"ekl[pa]_[A-Za-z0-9_-]{32}", re.ASCII)


def strings_of(value, with_keys):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                if with_keys:
                    yield k
                stack.append(x)


def scan(rules, result):
    flags = {}
    if rules is not None:
        texts = [fold(s) for s in strings_of(result, False)]
        for rule in rules["rules"]:
            phrases = [fold(p) for p in rule["phrases"]]
            if any(p in t for p in phrases for t in texts):
                flags.setdefault((rule["category"], rules["rules_version"]), rule["rule_id"])
    def pem(s):
        return any("PRIVATE KEY" in m.group(1) for m in PEM.finditer(s))

    if any(pem(s) or CRED.search(s) for s in strings_of(result, True)):
        flags.setdefault(("credential_leak", "local"), None)
    return [{"category": c, "rules_version": v, **({"rule_id": r} if r is not None else {})}
            for (c, v), r in sorted(flags.items())]


def rules_error(claims):
    """The error code an independent validator gives claims, or None when they are accepted."""
    if not isinstance(claims, dict):
        return "INVALID_SHAPE"
    if "rules_version" not in claims or "rules" not in claims:
        return "CLAIM_MISSING"
    v = claims["rules_version"]
    if not isinstance(v, str) or not v or v == "local" or not isinstance(claims["rules"], list):
        return "CLAIM_INVALID"
    seen = set()
    for r in claims["rules"]:
        if not isinstance(r, dict):
            return "CLAIM_INVALID"
        rid, cat, ph = r.get("rule_id"), r.get("category"), r.get("phrases")
        if not (isinstance(rid, str) and rid and rid not in seen and isinstance(cat, str) and cat
                and isinstance(ph, list) and ph and all(isinstance(p, str) and fold(p) for p in ph)):
            return "CLAIM_INVALID"
        seen.add(rid)
    return None


def check_screening(doc, report):
    for name, claims in doc["rules_sets"].items():
        report(rules_error(claims) is None, f"screening: rules set {name} accepted")
    for case in doc["invalid_rules"]:
        got = rules_error(case["claims"])
        report(got == case["error"], f"screening: invalid rules {case['name']} -> {got}")
    for case in doc["cases"]:
        rules = doc["rules_sets"].get(case["rules"]) if case.get("rules") else None
        got = scan(rules, case["result"])
        report(got == case["expected"], f"screening: {case['name']}")


# ------------------------------------------------------------------ main

def run_all(docs, report):
    check_call_receipt(docs["call-receipt.json"], report)
    check_issue(docs["call-receipt.json"], report)
    check_endpoint_proof(docs["endpoint-proof-v2.json"], report)
    if "screening-scan.json" in docs:
        check_screening(docs["screening-scan.json"], report)


def load():
    docs = {}
    for name in ["call-receipt.json", "endpoint-proof-v2.json", "screening-scan.json"]:
        path = os.path.join(ROOT, name)
        if os.path.exists(path) or name != "screening-scan.json":
            with open(path, encoding="utf-8") as f:
                docs[name] = json.load(f)
    return docs


def flip_hex(s):
    return ("1" if s[0] == "0" else "0") + s[1:]


MUTATIONS = [
    ("auth_tag", lambda d: d["call-receipt.json"].__setitem__("auth_tag", flip_hex(d["call-receipt.json"]["auth_tag"]))),
    ("receipt_digest", lambda d: d["call-receipt.json"].__setitem__(
        "receipt_digest", flip_hex(d["call-receipt.json"]["receipt_digest"]))),
    ("receipt field", lambda d: d["call-receipt.json"]["receipt"].__setitem__("dsc_ver", 13)),
    ("key_ring expected", lambda d: d["call-receipt.json"]["key_ring"]["cases"][0]["expected"]["not_pass"]
     .__setitem__("auth_tag", "fail")),
    ("key_ring window", lambda d: d["call-receipt.json"]["key_ring"]["keys"][0].__setitem__(
        "valid_until", "2026-12-01T00:00:00.000000001Z")),
    ("mismatch expected", lambda d: d["call-receipt.json"]["mismatch"]["cases"][1]["expected"].__setitem__(
        "not_pass", {})),
    ("issued receipt", lambda d: d["call-receipt.json"]["issue"]["cases"][0]["expected"].__setitem__(
        "issued_at", "2026-11-29T18:40:06Z")),
    ("issued salt", lambda d: d["call-receipt.json"]["issue"]["cases"][3].__setitem__("output_salt", "cd" * 31 + "ce")),
    ("issue refusal", lambda d: d["call-receipt.json"]["issue"]["cases"][6].__setitem__("error", "INVALID_ARGUMENT")),
    ("proof_key", lambda d: d["endpoint-proof-v2.json"].__setitem__("proof_key", flip_hex(
        d["endpoint-proof-v2.json"]["proof_key"]))),
    ("proof_v2", lambda d: d["endpoint-proof-v2.json"]["challenges"][3].__setitem__("proof_v2", flip_hex(
        d["endpoint-proof-v2.json"]["challenges"][3]["proof_v2"]))),
    ("downgrade expected", lambda d: d["endpoint-proof-v2.json"]["downgrade"]["network"][2].__setitem__(
        "expected", "v1")),
    ("agent downgrade expected", lambda d: d["endpoint-proof-v2.json"]["downgrade"]["agent"][1].__setitem__(
        "expected", "v1")),
    ("agent unknown authority_version", lambda d: d["endpoint-proof-v2.json"]["downgrade"]["agent"][10].__setitem__(
        "expected", "INVALID_ARGUMENT")),
]
SCREENING_MUTATIONS = [
    ("screening expected", lambda d: d["screening-scan.json"]["cases"][1].__setitem__("expected", [])),
    ("screening flag", lambda d: d["screening-scan.json"]["cases"][-1].__setitem__("expected", [])),
    ("screening invalid rules", lambda d: d["screening-scan.json"]["invalid_rules"][0].__setitem__(
        "error", "CLAIM_INVALID")),
]


def main():
    docs = load()
    report = Report(QUIET)
    run_all(docs, report)
    print(f"{report.passes} passed, {report.failures} failure(s)")
    meta_failures = 0
    mutations = MUTATIONS + (SCREENING_MUTATIONS if "screening-scan.json" in docs else [])
    for name, mutate in mutations:
        copy_ = copy.deepcopy(docs)
        mutate(copy_)
        r = Report(True)
        r.quiet = True
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            run_all(copy_, r)
        caught = r.failures > 0
        meta_failures += not caught
        print("PASS" if caught else "FAIL", f"meta: a changed {name} is caught ({r.failures} failure(s))")
    total = report.failures + meta_failures
    print(f"{total} failure(s) in all")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()

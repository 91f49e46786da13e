"""Checks canonical.py against EKP's published vectors and a few cases of our own, and verifies the published
call receipt. Exits non-zero if anything fails, so it can gate a build."""
import hashlib
import hmac
import json
import sys

from canonical import canonical

failures = 0


def report(ok: bool, what: str, detail: str = "") -> None:
    global failures
    failures += not ok
    print("PASS" if ok else "FAIL", what, detail)


vectors = json.load(open("vectors/ekl-json-1.json"))
for v in vectors["valid"]:
    out = canonical(v["input"])
    report(out == v["canonical"] and hashlib.sha256(out.encode()).hexdigest() == v["sha256"], "valid:", v["name"])
for v in vectors["invalid"]:
    try:
        canonical(v["input"])
        report(False, "invalid:", f"{v['name']} (accepted)")
    except ValueError as refused:
        report(True, "invalid:", f"{v['name']} ({refused})")

# Cases of our own. A lone surrogate must be refused in a key too (RFC 8785, section 3.2.2.2). A number with a
# fraction or exponent is read as the nearest double and written as that double, as RFC 8785 requires.
OURS = [('{"\\udc00": 1}', None), ("[9007199254740993.0]", "[9007199254740992]"),
        ('["\\ud83d\\ude00"]', '["\U0001f600"]')]
for text, expected in OURS:
    try:
        out = canonical(text)
        report(out == expected, "ours:", f"{text} -> {out}")
    except ValueError as refused:
        report(expected is None, "ours:", f"{text} refused ({refused})")

r = json.load(open("vectors/call-receipt.json"))
receipt = r["receipt"]
key = hmac.new(r["receipt_secret"].encode(), b"ekl-receipt-1.1\x00" + receipt["key_id"].encode(), hashlib.sha256).digest()
tag = hmac.new(key, canonical(json.dumps(receipt)).encode(), hashlib.sha256).hexdigest()
digest = hashlib.sha256(canonical(json.dumps({**receipt, "auth_tag": tag})).encode()).hexdigest()
report(tag == r["auth_tag"], "receipt:", "auth_tag")
report(digest == r["receipt_digest"], "receipt:", "receipt_digest")

print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)

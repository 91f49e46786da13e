"""Independent check of the vector files: Python standard library only (hashlib, hmac, json), no project code.

It recomputes every sha256 from the stored canonical text, every salted fingerprint from salt + stored jcs
text, the endpoint challenge proof, and re-derives every canonical form, error code and projection with its
own small ekl-json-1 implementation below (written from PROTOCOL.md §9.5 and the project's decisions,
docs/decisions.md#vectors).

    python3 vectors/check/check_vectors.py              # check vectors/ (exit 1 on any failure)
    python3 vectors/check/check_vectors.py --self-test  # also: a changed copy of each file must fail
    python3 vectors/check/check_vectors.py --dir PATH   # check the files in another folder
"""
import copy
import hashlib
import hmac
import json
import os
import shutil
import sys
import tempfile

MAX_DEPTH = 64
BOUND = 2 ** 53
WS = " \t\n\r"


class Refused(Exception):
    """A refusal with the project's error code."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


# ---------------------------------------------------------------------------------------------------
# A small ekl-json-1 implementation: strict parser with an explicit stack, ECMAScript number text.
# ---------------------------------------------------------------------------------------------------
class Obj(list):
    """An object's members in input order, as (key, value) pairs."""


def parse(data):
    """Parses bytes or str. Returns (value, has_duplicate_keys); raises Refused in document order."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("INVALID_UTF8")
    else:
        text = data
    if text.startswith("\ufeff"):
        raise Refused("INVALID_JSON")
    p = _Parser(text)
    value = p.document()
    return value, p.duplicates


class _Parser:
    def __init__(self, text):
        self.s, self.i, self.duplicates = text, 0, False

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in WS:
            self.i += 1

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def document(self):
        stack = []  # [container, pending key or None]
        while True:
            self.ws()
            c = self.peek()
            if c in ("[", "{"):
                if len(stack) >= MAX_DEPTH:
                    raise Refused("INPUT_TOO_DEEP")
                self.i += 1
                self.ws()
                if c == "[":
                    if self.peek() == "]":
                        self.i += 1
                        value = []
                    else:
                        stack.append([[], None])
                        continue
                else:
                    if self.peek() == "}":
                        self.i += 1
                        value = Obj()
                    else:
                        stack.append([Obj(), self.key()])
                        continue
            else:
                value = self.scalar()
            while True:  # a complete value: attach it, closing containers that end
                self.ws()
                if not stack:
                    if self.i != len(self.s):
                        raise Refused("INVALID_JSON")
                    return value
                top = stack[-1]
                if isinstance(top[0], Obj):
                    top[0].append((top[1], value))
                    end = "}"
                else:
                    top[0].append(value)
                    end = "]"
                c = self.peek()
                if c == ",":
                    self.i += 1
                    if end == "}":
                        self.ws()
                        top[1] = self.key()
                    break
                if c != end:
                    raise Refused("INVALID_JSON")
                self.i += 1
                value = stack.pop()[0]
                if end == "}":
                    keys = [k for k, _ in value]
                    self.duplicates |= len(keys) != len(set(keys))

    def key(self):
        if self.peek() != '"':
            raise Refused("INVALID_JSON")
        k = self.string()
        self.ws()
        if self.peek() != ":":
            raise Refused("INVALID_JSON")
        self.i += 1
        return k

    def scalar(self):
        s, i = self.s, self.i
        c = self.peek()
        if c == '"':
            return self.string()
        for word, value in (("true", True), ("false", False), ("null", None)):
            if s.startswith(word, i):
                self.i += len(word)
                return value
        if s.startswith("NaN", i) or s.startswith("Infinity", i) or s.startswith("-Infinity", i):
            raise Refused("NON_FINITE_NUMBER")
        if c == "-" or c.isdigit() and c.isascii():
            return self.number()
        raise Refused("INVALID_JSON")

    def digits(self):
        start = self.i
        while self.i < len(self.s) and "0" <= self.s[self.i] <= "9":
            self.i += 1
        return self.i - start

    def number(self):
        start = self.i
        if self.peek() == "-":
            self.i += 1
        if self.peek() == "0":
            self.i += 1
            if "0" <= self.peek() <= "9" and self.peek():
                raise Refused("INVALID_JSON")
        elif not self.digits():
            raise Refused("INVALID_JSON")
        integer = True
        if self.peek() == ".":
            integer = False
            self.i += 1
            if not self.digits():
                raise Refused("INVALID_JSON")
        if self.peek() in ("e", "E") and self.peek():
            integer = False
            self.i += 1
            if self.peek() in ("+", "-") and self.peek():
                self.i += 1
            if not self.digits():
                raise Refused("INVALID_JSON")
        literal = self.s[start:self.i]
        if integer:
            if len(literal.lstrip("-")) > 16:  # no leading zeros: 17 digits or more is beyond 2^53
                raise Refused("INTEGER_OUT_OF_RANGE")
            n = int(literal)
            if abs(n) > BOUND:
                raise Refused("INTEGER_OUT_OF_RANGE")
            return float(n)
        x = float(literal)
        if x in (float("inf"), float("-inf")):
            raise Refused("NON_FINITE_NUMBER")
        return x

    def hex4(self):
        h = self.s[self.i:self.i + 4]
        if len(h) != 4 or any(c not in "0123456789abcdefABCDEF" for c in h):
            raise Refused("INVALID_JSON")
        self.i += 4
        return int(h, 16)

    def string(self):
        self.i += 1
        out = []
        short = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
        while True:
            if self.i >= len(self.s):
                raise Refused("INVALID_JSON")
            c = self.s[self.i]
            self.i += 1
            if c == '"':
                return "".join(out)
            if c < " ":
                raise Refused("INVALID_JSON")
            if c != "\\":
                out.append(c)
                continue
            e = self.peek()
            self.i += 1
            if e in short and e:
                out.append(short[e])
            elif e == "u":
                u = self.hex4()
                if 0xDC00 <= u <= 0xDFFF:
                    raise Refused("LONE_SURROGATE")
                if 0xD800 <= u <= 0xDBFF:
                    if self.s.startswith("\\u", self.i):
                        self.i += 2
                        low = self.hex4()
                    else:
                        low = 0
                    if not 0xDC00 <= low <= 0xDFFF:
                        raise Refused("LONE_SURROGATE")
                    u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                out.append(chr(u))
            else:
                raise Refused("INVALID_JSON")


def number_text(x):
    """ECMAScript Number.prototype.toString for a finite double."""
    if x == 0:
        return "0"
    r = repr(abs(x))  # shortest round-trip digits
    mantissa, _, exp = r.partition("e")
    whole, _, frac = mantissa.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    point = len(whole) + (int(exp) if exp else 0) - (len(whole + frac) - len((whole + frac).lstrip("0")))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        t = digits + "0" * (n - k)
    elif 0 < n <= 21:
        t = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        t = "0." + "0" * -n + digits
    else:
        t = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if n - 1 > 0 else "-") + str(abs(n - 1))
    return ("-" if x < 0 else "") + t


SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def string_text(s):
    return '"' + "".join(SHORT.get(c) or ("\\u%04x" % ord(c) if c < " " else c) for c in s) + '"'


def write(value):
    """Canonical text of a parsed value (iterative)."""
    out, work = [], [value]
    while work:
        v = work.pop()
        if isinstance(v, _Raw):
            out.append(v.text)
        elif v is None:
            out.append("null")
        elif v is True or v is False:
            out.append("true" if v else "false")
        elif isinstance(v, float):
            out.append(number_text(v))
        elif isinstance(v, str):
            out.append(string_text(v))
        elif isinstance(v, Obj):
            members = sorted(v, key=lambda m: m[0].encode("utf-16-be"))
            seq = [_Raw("{")]
            for j, (k, item) in enumerate(members):
                seq += [_Raw(("," if j else "") + string_text(k) + ":"), item]
            work.extend(reversed(seq + [_Raw("}")]))
        else:
            seq = [_Raw("[")]
            for j, item in enumerate(v):
                seq += ([_Raw(",")] if j else []) + [item]
            work.extend(reversed(seq + [_Raw("]")]))
    return "".join(out)


class _Raw:
    def __init__(self, text):
        self.text = text


def canonical(data, max_bytes=None):
    """Canonical text of JSON text (bytes or str), or Refused with the code the precedence gives."""
    value, duplicates = parse(data)
    if duplicates:
        raise Refused("DUPLICATE_KEY")
    out = write(value)
    if max_bytes is not None and len(out.encode("utf-8")) > max_bytes:
        raise Refused("BODY_TOO_LARGE")
    return out


def canonical_of(value):
    """Canonical text of a value loaded from a vector file (through Python's own JSON text)."""
    return canonical(json.dumps(value, ensure_ascii=False))


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------------
# Checks, one function per file. Each returns the names of the failing cases.
# ---------------------------------------------------------------------------------------------------
class Report:
    def __init__(self, file, verbose=True):
        self.file, self.failures, self.count, self.verbose = file, [], 0, verbose

    def check(self, name, ok, detail=""):
        self.count += 1
        if not ok:
            self.failures.append(name)
        if self.verbose and not ok:
            print(f"FAIL {self.file}: {name} {detail}")


def outcome(f):
    try:
        return "ok", f()
    except Refused as r:
        return "refused", r.code


def check_expectation(rep, name, case, run):
    kind, got = outcome(run)
    if "code" in case:
        rep.check(name, kind == "refused" and got == case["code"], f"expected {case['code']}, got {kind} {got!r:.80}")
        return
    ok = kind == "ok" and sha(got) == case["sha256"]
    if "canonical" in case:
        ok = ok and got == case["canonical"] and sha(case["canonical"]) == case["sha256"]
    if "canonical_length" in case:
        ok = ok and len(got.encode("utf-8")) == case["canonical_length"]
    rep.check(name, ok, f"got {kind} {got!r:.120}")


def generated(v):
    """A generated input: prefix + repeat × count + inner + close × count + suffix (a missing part is empty)."""
    n = v["count"]
    return v.get("prefix", "") + v["repeat"] * n + v.get("inner", "") + v.get("close", "") * n + v.get("suffix", "")


def check_ekl_json_1(path, verbose=True):
    doc = json.load(open(path, encoding="utf-8"))
    rep = Report(os.path.basename(path), verbose)
    known = {"description", "valid", "invalid", "depth", "invalid_utf8", "size"}
    rep.check("sections", set(doc) <= known and bool(doc.get("description")), f"unknown: {set(doc) - known}")
    for v in doc.get("valid", []):
        check_expectation(rep, "valid::" + v["name"], v, lambda: canonical(v["input"].encode("utf-8")))
    for v in doc.get("invalid", []):
        check_expectation(rep, "invalid::" + v["name"], v, lambda: canonical(v["input"].encode("utf-8")))
    for v in doc.get("depth", []):
        text = generated(v)
        check_expectation(rep, "depth::" + v["name"], v, lambda: canonical(text.encode("utf-8")))
    for v in doc.get("invalid_utf8", []):
        check_expectation(rep, "invalid_utf8::" + v["name"], v, lambda: canonical(bytes.fromhex(v["input_hex"])))
    for v in doc.get("size", []):
        text = generated(v)
        check_expectation(rep, "size::" + v["name"], v, lambda: canonical(text.encode("utf-8"), v["max_bytes"]))
    return rep


def check_fingerprints(path, verbose=True):
    doc = json.load(open(path, encoding="utf-8"))
    rep = Report(os.path.basename(path), verbose)
    known = {"description", "algorithm", "cases", "result_selection", "challenge"}
    rep.check("sections", set(doc) <= known and bool(doc.get("description")), f"unknown: {set(doc) - known}")
    for v in doc["cases"]:
        salt = bytes.fromhex(v["salt"])
        kind, got = outcome(lambda: canonical_of(v["value"]))
        ok = len(salt) == 32 and v["salt"] == v["salt"].lower()
        ok = ok and hashlib.sha256(salt + v["jcs"].encode("utf-8")).hexdigest() == v["fingerprint"]
        rep.check("cases::" + v["name"], ok and kind == "ok" and got == v["jcs"], f"got {kind} {got!r:.120}")
    sel = doc.get("result_selection")
    if sel is not None:
        salt = bytes.fromhex(doc["cases"][0]["salt"])  # the section has no salt of its own: the first case's
        result = sel["result"]
        body = "structuredContent" if result.get("structuredContent") is not None else "content"
        kind, got = outcome(lambda: canonical_of(result[body]))
        ok = kind == "ok" and body == sel["fingerprinted"]
        ok = ok and hashlib.sha256(salt + got.encode("utf-8")).hexdigest() == sel["fingerprint"]
        rep.check("result_selection", ok, f"body {body}")
    ch = doc.get("challenge")
    if ch is not None:
        cred_hex = hashlib.sha256(ch["provider_credential"].encode("utf-8")).hexdigest()
        proof = hmac.new(cred_hex.encode("ascii"), (ch["challenge"] + ch["endpoint"]).encode("utf-8"),
                         hashlib.sha256).hexdigest()
        rep.check("challenge", cred_hex == ch["credential_sha256"] and proof == ch["proof"], proof)
    return rep


UPSTREAM_MEMBERS = ["name", "description", "inputSchema", "outputSchema", "annotations"]


def projection(tools, offered):
    if not isinstance(tools, dict) or not isinstance(tools.get("tools"), list):
        raise Refused("INVALID_SHAPE")
    kept = []
    for t in tools["tools"]:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            raise Refused("INVALID_SHAPE")
        if "input_schema" in t and "inputSchema" not in t:  # an SDK object dumped by field names
            raise Refused("INVALID_SHAPE")
        if offered is None or t["name"] in offered:
            kept.append(t)
    names = [t["name"] for t in kept]
    if len(names) != len(set(names)):
        raise Refused("INVALID_SHAPE")
    kept.sort(key=lambda t: t["name"].encode("utf-16-be"))
    return canonical_of([{m: t.get(m) for m in UPSTREAM_MEMBERS} for t in kept])


def check_upstream(path, verbose=True):
    doc = json.load(open(path, encoding="utf-8"))
    rep = Report(os.path.basename(path), verbose)
    known = {"description", "algorithm", "cases", "invalid"}
    rep.check("sections", set(doc) <= known and bool(doc.get("description")), f"unknown: {set(doc) - known}")
    for v in doc.get("cases", []):
        kind, got = outcome(lambda: projection(v["tools"], v["offered"]))
        ok = kind == "ok" and got == v["projection"] and sha(v["projection"]) == v["fingerprint"]
        rep.check("cases::" + v["name"], ok, f"got {kind} {got!r:.120}")
    for v in doc.get("invalid", []):
        kind, got = outcome(lambda: projection(v["tools"], v["offered"]))
        rep.check("invalid::" + v["name"], kind == "refused" and got == v["code"], f"got {kind} {got!r:.80}")
    return rep


def to_py(v):
    """A parsed value (objects as Obj) as plain Python values; the caller refused duplicates first."""
    if isinstance(v, Obj):
        return {k: to_py(x) for k, x in v}
    if isinstance(v, list):
        return [to_py(x) for x in v]
    return v


def read_text(text):
    """JSON text as an operation reads it: parse-time refusals first, then DUPLICATE_KEY anywhere."""
    value, duplicates = parse(text.encode("utf-8"))
    if duplicates:
        raise Refused("DUPLICATE_KEY")
    return to_py(value)


def duplicate_case(doc, case):
    """What the operation of a duplicate-keys.json case gives, from this file's own implementation."""
    op, salt = case["operation"], bytes.fromhex(doc["salt"])
    value = read_text(case["input"])
    if op == "upstream_fingerprint":
        return sha(projection(value, case["offered"]))
    if op in ("output_fingerprint", "select_result_body"):
        if not isinstance(value, dict):
            raise Refused("INVALID_SHAPE")
        member = "structuredContent" if value.get("structuredContent") is not None else "content"
        if member not in value:
            raise Refused("INVALID_SHAPE")
        if op == "select_result_body":
            return member
        return hashlib.sha256(salt + canonical_of(value[member]).encode("utf-8")).hexdigest()
    if op == "terms_hash":
        if not isinstance(value, dict):
            raise Refused("INVALID_SHAPE")
        return sha(canonical_of({k: v for k, v in value.items() if k != "hash"}))
    if op == "fingerprint":
        return hashlib.sha256(salt + canonical_of(value).encode("utf-8")).hexdigest()
    if op in ("value_digest", "receipt_digest"):
        return sha(canonical_of(value))
    if op == "auth_tag":
        key = hmac.new(doc["secret"].encode("utf-8"), b"ekl-receipt-1.1\x00" + value["key_id"].encode("utf-8"),
                       hashlib.sha256).digest()
        body = canonical_of({k: v for k, v in value.items() if k != "auth_tag"})
        return hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()
    if op == "screening_rules":
        return "rules"  # only refusals are listed for this operation
    raise Refused(f"UNKNOWN_OPERATION {op}")


def check_duplicates(path, verbose=True):
    doc = json.load(open(path, encoding="utf-8"))
    rep = Report(os.path.basename(path), verbose)
    known = {"description", "salt", "secret", "cases"}
    rep.check("sections", set(doc) <= known and bool(doc.get("description")), f"unknown: {set(doc) - known}")
    for case in doc["cases"]:
        kind, got = outcome(lambda: duplicate_case(doc, case))
        if "code" in case:
            ok = kind == "refused" and got == case["code"]
        else:
            ok = kind == "ok" and got == case["expected"]
        rep.check("cases::" + case["name"], ok, f"got {kind} {got!r:.120}")
    return rep


FILES = {"ekl-json-1.json": check_ekl_json_1, "fingerprints.json": check_fingerprints,
         "upstream-fingerprint.json": check_upstream, "duplicate-keys.json": check_duplicates}

# (file, path of keys/indexes, new value, the case that must then fail)
MUTATIONS = [
    ("ekl-json-1.json", ["valid", 0, "sha256"], "0" * 64, "valid::numbers"),
    ("ekl-json-1.json", ["valid", 2, "canonical"], '["x"]', "valid::string escapes"),
    ("ekl-json-1.json", ["invalid", 3, "code"], "INVALID_JSON", "invalid::integer beyond 2^53"),
    ("ekl-json-1.json", ["depth", 0, "count"], 65, "depth::64 nested arrays accepted"),
    ("ekl-json-1.json", ["invalid_utf8", 1, "code"], "INVALID_JSON", "invalid_utf8::byte 0xFF"),
    ("ekl-json-1.json", ["size", 0, "sha256"], "f" * 64, "size::canonical form of exactly 262,144 bytes accepted"),
    ("ekl-json-1.json", ["size", 9, "canonical"], '{"amount":0}',
     "size::long literal: 1 behind 655,359 zeros with exponent 655360"),
    ("fingerprints.json", ["cases", 1, "jcs"], "{}", "cases::key order by UTF-16 code units, non-ASCII and a surrogate pair"),
    ("fingerprints.json", ["challenge", "endpoint"], "https://mcp.example.com/ekl/", "challenge"),
    ("fingerprints.json", ["result_selection", "fingerprint"], "0" * 64, "result_selection"),
    ("upstream-fingerprint.json", ["cases", 1, "fingerprint"], "0" * 64, "cases::missing members written as null"),
    ("upstream-fingerprint.json", ["cases", 5, "projection"], "[]",
     "cases::names sorted by UTF-16 code units: 😀 before ｱ"),
    ("upstream-fingerprint.json", ["invalid", 1, "code"], "INVALID_JSON", "invalid::a tool without a name"),
    ("duplicate-keys.json", ["cases", 0, "code"], "INVALID_SHAPE", "cases::upstream: an offered tool with two name members"),
    ("duplicate-keys.json", ["cases", 10, "code"], "INVALID_SHAPE", "cases::output: two content members"),
    ("duplicate-keys.json", ["cases", 17, "code"], "INVALID_SHAPE", "cases::terms: two hash members"),
    ("duplicate-keys.json", ["cases", 14, "expected"], "0" * 64, "cases::output: without the duplicates"),
    ("upstream-fingerprint.json", ["invalid", 6, "tools", "tools", 0, "inputSchema", "maximum"], 2 ** 53,
     "invalid::an integer beyond 2^53 in a schema"),
]


def run(folder, verbose=True):
    failures, total = 0, 0
    for name, check in FILES.items():
        rep = check(os.path.join(folder, name), verbose)
        failures += len(rep.failures)
        total += rep.count
        if verbose:
            print(f"{name}: {rep.count - len(rep.failures)}/{rep.count} passed")
    return failures, total


def self_test(folder):
    """Each mutation, applied to a copy, must make exactly its case fail."""
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for file, keys, new, must_fail in MUTATIONS:
            doc = json.load(open(os.path.join(folder, file), encoding="utf-8"))
            changed = copy.deepcopy(doc)
            slot = changed
            for k in keys[:-1]:
                slot = slot[k]
            assert slot[keys[-1]] != new, (file, keys)
            slot[keys[-1]] = new
            with open(os.path.join(tmp, file), "w", encoding="utf-8") as f:
                json.dump(changed, f, ensure_ascii=False)
            rep = FILES[file](os.path.join(tmp, file), verbose=False)
            ok = rep.failures == [must_fail]
            bad += not ok
            print("PASS" if ok else "FAIL", f"self-test {file} {keys} -> failing {rep.failures}")
    return bad


def main():
    args = sys.argv[1:]
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if "--dir" in args:
        folder = args[args.index("--dir") + 1]
    failures, total = run(folder)
    print(f"{total - failures}/{total} vector checks passed")
    if "--self-test" in args:
        failures += self_test(folder)
    print(f"{failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

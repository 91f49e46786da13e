"""Writes vectors/ekl-json-1.json, vectors/upstream-fingerprint.json and vectors/duplicate-keys.json from
the case lists below.

Expected outputs come from code that is not ours: the guide's canonical.py (vectors/check/guide/) and
Node's JSON.parse + String(x) + default (UTF-16) key sort. Every valid canonical form must be the same
from both, every `invalid` case must be refused by the guide's canonical.py, and the expected error
codes are the project's decisions (docs/decisions.md#vectors). Every surface (vectors/calls.jsonl)
and vectors/check/check_vectors.py then check the files; neither is used here.

    python3 vectors/check/generate.py          # rewrite both files
    python3 vectors/check/generate.py --check  # exit 1 if regenerating would change a byte
"""
import hashlib
import hmac
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VECTORS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "guide"))
from canonical import canonical as guide_canonical  # noqa: E402

NODE_JCS = r"""
const jcs = (v) => {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map(jcs).join(",") + "]";
  return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + jcs(v[k])).join(",") + "}";
};
const inputs = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(inputs.map((t) => jcs(JSON.parse(t)))));
"""


def node_canonical(texts):
    out = subprocess.run(["node", "-e", NODE_JCS], input=json.dumps(texts).encode(), capture_output=True, check=True)
    return json.loads(out.stdout)


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------------
# ekl-json-1
# ---------------------------------------------------------------------------------------------------
VALID = [
    # The guide's named cases.
    ("numbers", "[0, -0, 1, -1, 41.0, 1.5, -1.5, 0.1, 1e21, 1e-7, 0.000001, 333333333.33333329, 1E+2, "
                "9007199254740991, 9007199254740992, -9007199254740992, 5e-324, 1.7976931348623157e308]"),
    ("key order by UTF-16 code units",
     '{"é": 1, "z": 2, "😀": 3, "A": 4, "€": 5, "aa": 6, "a": 7, "ｱ": 8, "\ue000": 9, "": 10}'),
    ("string escapes", r'["\" \\ \/ \b \f \n \r \t \u0000 \u001F \u007f \u2028 \u2029 \u00e9 \ud83d\ude00 / é"]'),
    ("nested invoice", """{
  "invoice": {"number": "INV-2026-0042", "currency": "EUR", "issued": "2026-11-29T19:00:00Z",
    "buyer": {"name": "Łukasz Müller-Øberg", "vat_id": "DE123456789", "address": ["Straße 1", "10115 Berlin"]},
    "lines": [
      {"sku": "A-1", "description": "Widget \\"deluxe\\"", "qty": 3, "unit_price": 19.99, "discount": 0.1},
      {"sku": "B-2", "description": "Service\\tcall", "qty": 1, "unit_price": 1e3, "discount": 0}
    ],
    "total": 1053.97, "paid": false, "notes": null, "tags": []
  }
}"""),
    ("empty", ' { "array" : [ ] , "object" : { } , "string" : "" , "" : null } '),
    # ±2^53 bound (inclusive) and numbers read as the nearest double.
    ("integer 2^53 accepted", "[9007199254740992]"),
    ("integer -2^53 accepted", "[-9007199254740992]"),
    ("integer 2^53-1 accepted", "9007199254740991"),
    ("fraction beyond 2^53 is read as the nearest double", "[9007199254740993.0]"),
    ("exponent form beyond 2^53 is read as the nearest double", "[9007199254740993e0, 9007199254740994.0, 1e300]"),
    ("integer-valued doubles above 2^53 written as ECMAScript does",
     "[1152921504606846976.0, 18446744073709551616.0, 123456789012345678901234567890.0]"),
    ("half-way fraction rounds to even", "[-9007199254740992.5, 9007199254740993.5]"),
    ("333333333.33333329", "[333333333.33333329]"),
    ("1e21 boundary", "[1e21, 1e20, 9.999999999999999e20, 100000000000000000000.0, 1.2345678901234568e20, -1e21]"),
    ("1e-7 boundary", "[1e-7, 1e-6, 0.000001, 0.0000012345, 1.5e-7, 0.00000099999, -1e-7]"),
    ("negative zero", "[-0, -0.0, -0e10, 0e-5, -0.0e+0]"),
    ("exponent letters and signs", "[1E2, 1e+2, 1e-2, 1.0e0, 10e-1, 1E-0, 2.5E+3]"),
    ("underflow to zero", "[1e-400, -1e-400]"),
    ("subnormals", "[5e-324, 4.9406564584124654e-324, 2.5e-324, 2.2250738585072014e-308, 2.225073858507201e-308]"),
    ("largest double", "[1.7976931348623157e308, -1.7976931348623157e308, 1.7976931348623158e308]"),
    ("many digits read as the nearest double",
     "[0.1000000000000000055511151231257827, 0.30000000000000004, 1.0000000000000002, 3.141592653589793238462643]"),
    ("shortest digits: a tie between two goes to the even one",
     "[1000000000000000.25, 2.98023223876953125e-8, -263699920754119.125]"),
    ("top-level number", " 42 "),
    ("top-level string", '"text"'),
    ("top-level literals", "[true, false, null]"),
    ("top-level null", "null"),
    ("JSON whitespace around and inside", '\t\n\r [ 1 ,\n\t{ "a" : 2 }\r\n] \n'),
    # Key order.
    ("key order 😀 before ｱ (UTF-16, not code points)", '{"ｱ": 1, "😀": 2}'),
    ("key order U+E000 after a surrogate pair", '{"\ue000": 1, "𐀀": 2, "\uffff": 3}'),
    ("key order: prefixes and case", '{"aa": 1, "a": 2, "": 3, "B": 4, "b": 5, "ab": 6}'),
    ("keys compared after unescaping", '{"\\u0062": 1, "a": 2, "\\u00e9": 3}'),
    ("nested objects sorted at every level", '{"b": {"y": 1, "x": 2}, "a": [{"d": 1, "c": 2}]}'),
    # Strings.
    ("U+2028, U+2029, U+007F and / left literal (escaped input)", r'["\u2028\u2029\u007f\/"]'),
    ("U+2028, U+2029, U+007F and / left literal (raw input)", '["\u2028\u2029\u007f/"]'),
    ("control characters: short escapes and lowercase \\u00xx",
     r'["\u0000\u0001\b\t\n\u000b\f\r\u000e\u001F\u001a"]'),
    ("escaped ASCII and non-ASCII written literally", r'["\u0041\u00E9\u00c9\u20ac"]'),
    ("surrogate pair escapes joined", r'["\ud83d\ude00", "\uD83D\uDE00", "\ud800\udc00", "\udbff\udfff"]'),
    ("noncharacters and U+FEFF inside a string left literal", r'["\uffff\ufffe\ufeff"]'),
    ("escaped quote and backslash only", r'{"k\"ey": "va\\lue"}'),
    ("nested empty containers", "[[], {}, [[]], [{}], {\"a\": {}}]"),
    ("no Unicode normalisation: composed and decomposed keys are different keys",
     '{"\u00e9": 1, "e\u0301": 2, "\\u00e9x": 3}'),
    ("keys with control characters escaped and sorted", r'{"\n": 1, "\u0000": 2, "\u001f": 3, " ": 4}'),
    ("zero with a huge exponent", "[0e99999, -0E+99999, 0.0e-99999]"),
    ("many fraction digits", "[1." + "0" * 400 + ", 0." + "0" * 400 + "1]"),
    ("fractions and exponents that are whole numbers", "[1.0, 0.1e1, 100e-2, 12.5e1, -2.0e0]"),
    ("exponents of 40 digits", "[0.0e99999999999999999999999999999999999999, "
                               "1e-0000000000000000000000000000000000000000400, -1e-99999999999999999999999999999999999999]"),
]

INVALID = [
    # The guide's named cases.
    ("duplicate keys", '{"a": 1, "a": 2}', "DUPLICATE_KEY"),
    ("NaN", "[NaN]", "NON_FINITE_NUMBER"),
    ("Infinity", "[Infinity]", "NON_FINITE_NUMBER"),
    ("integer beyond 2^53", "[9007199254740993]", "INTEGER_OUT_OF_RANGE"),
    ("overflowing float", "[1e400]", "NON_FINITE_NUMBER"),
    ("lone surrogate", r'["\ud800"]', "LONE_SURROGATE"),
    # Non-finite numbers.
    ("-Infinity", "[-Infinity]", "NON_FINITE_NUMBER"),
    ("NaN at top level", "NaN", "NON_FINITE_NUMBER"),
    ("NaN as a member value", '{"x": NaN}', "NON_FINITE_NUMBER"),
    ("negative overflow", "[-1e400]", "NON_FINITE_NUMBER"),
    ("overflow just above the largest double", "[1.7976931348623159e308]", "NON_FINITE_NUMBER"),
    ("overflow with a fraction", "[1.8e308]", "NON_FINITE_NUMBER"),
    ("lowercase nan is not a literal", "[nan]", "INVALID_JSON"),
    ("-NaN", "[-NaN]", "INVALID_JSON"),
    ("+Infinity", "[+Infinity]", "INVALID_JSON"),
    ("truncated Infinity", "[Infinit]", "INVALID_JSON"),
    # Integer bound.
    ("integer -(2^53+1)", "[-9007199254740993]", "INTEGER_OUT_OF_RANGE"),
    ("integer 2^53+1 at top level", "9007199254740993", "INTEGER_OUT_OF_RANGE"),
    ("integer 1e20 written out", "[100000000000000000000]", "INTEGER_OUT_OF_RANGE"),
    ("integer 2^64 as a member value", '{"n": 18446744073709551616}', "INTEGER_OUT_OF_RANGE"),
    ("integer 9999999999999999", "[9999999999999999]", "INTEGER_OUT_OF_RANGE"),
    ("integer of 400 digits", "[1" + "0" * 399 + "]", "INTEGER_OUT_OF_RANGE"),
    ("huge exponent", "[1e99999]", "NON_FINITE_NUMBER"),
    # Duplicate keys.
    ("escaped duplicate key", '{"a": 1, "\\u0061": 2}', "DUPLICATE_KEY"),
    ("duplicate key with equal values", '{"a": 1, "a": 1}', "DUPLICATE_KEY"),
    ("duplicate empty key", '{"": 1, "": 2}', "DUPLICATE_KEY"),
    ("duplicate key via a surrogate pair escape", '{"😀": 1, "\\ud83d\\ude00": 2}', "DUPLICATE_KEY"),
    ("duplicate key in a nested object", '[{"x": {"k": 1, "j": 0, "k": 2}}]', "DUPLICATE_KEY"),
    ("duplicate keys not adjacent", '{"b": 1, "a": 2, "c": 3, "b": 4}', "DUPLICATE_KEY"),
    # Lone surrogates.
    ("lone low surrogate", r'["\udc00"]', "LONE_SURROGATE"),
    ("high surrogate followed by a non-low escape", r'["\ud800\u0041"]', "LONE_SURROGATE"),
    ("high surrogate followed by another high surrogate", r'["\ud83d\ud83d\ude00"]', "LONE_SURROGATE"),
    ("high surrogate followed by a literal character", r'["\ud83dx"]', "LONE_SURROGATE"),
    ("high surrogate at the end of a string", r'["a\ud83d"]', "LONE_SURROGATE"),
    ("reversed surrogate pair", r'["\ude00\ud83d"]', "LONE_SURROGATE"),
    ("high surrogate followed by a short escape", r'["\ud83d\n"]', "LONE_SURROGATE"),
    ("lone surrogate in a key", r'{"\udc00": 1}', "LONE_SURROGATE"),
    ("lone high surrogate in a key", r'{"k\ud800": 1}', "LONE_SURROGATE"),
    ("high surrogate followed by a malformed escape", r'["\ud800\u12G4"]', "INVALID_JSON"),
    ("high surrogate followed by a truncated escape", r'["\ud800\u"]', "INVALID_JSON"),
    # Not RFC 8259 JSON.
    ("trailing comma in an array", "[1, 2,]", "INVALID_JSON"),
    ("trailing comma in an object", '{"a": 1,}', "INVALID_JSON"),
    ("leading comma", "[,1]", "INVALID_JSON"),
    ("empty element", "[1,,2]", "INVALID_JSON"),
    ("line comment", "[1 // note\n]", "INVALID_JSON"),
    ("block comment", "/* note */ [1]", "INVALID_JSON"),
    ("hash comment", "# note\n[1]", "INVALID_JSON"),
    ("single-quoted string", "['a']", "INVALID_JSON"),
    ("single-quoted key", "{'a': 1}", "INVALID_JSON"),
    ("unquoted key", "{a: 1}", "INVALID_JSON"),
    ("non-string key", "{1: 1}", "INVALID_JSON"),
    ("raw tab in a string", '["a\tb"]', "INVALID_JSON"),
    ("raw line feed in a string", '["a\nb"]', "INVALID_JSON"),
    ("raw NUL in a string", '["a\u0000b"]', "INVALID_JSON"),
    ("raw U+001F in a key", '{"\u001f": 1}', "INVALID_JSON"),
    ("leading zero", "[01]", "INVALID_JSON"),
    ("negative leading zero", "[-01]", "INVALID_JSON"),
    ("double zero", "[00]", "INVALID_JSON"),
    ("leading zero with a fraction", "[00.5]", "INVALID_JSON"),
    ("plus sign", "[+1]", "INVALID_JSON"),
    ("fraction without an integer part", "[.5]", "INVALID_JSON"),
    ("point without a fraction", "[1.]", "INVALID_JSON"),
    ("point then exponent", "[1.e5]", "INVALID_JSON"),
    ("exponent without digits", "[1e]", "INVALID_JSON"),
    ("exponent sign without digits", "[1e+]", "INVALID_JSON"),
    ("minus alone", "[-]", "INVALID_JSON"),
    ("hex number", "[0x10]", "INVALID_JSON"),
    ("digit separator", "[1_000]", "INVALID_JSON"),
    ("trailing point at top level", "1.", "INVALID_JSON"),
    ("trailing garbage", "[1] x", "INVALID_JSON"),
    ("two values", "{} {}", "INVALID_JSON"),
    ("two numbers", "1 2", "INVALID_JSON"),
    ("extra closing bracket", "[1]]", "INVALID_JSON"),
    ("byte-order mark", "\ufeff[1]", "INVALID_JSON"),
    ("byte-order mark after whitespace", " \ufeff[1]", "INVALID_JSON"),
    ("empty input", "", "INVALID_JSON"),
    ("whitespace only", " \t\n\r", "INVALID_JSON"),
    ("no-break space is not JSON whitespace", "\u00a0[1]", "INVALID_JSON"),
    ("form feed is not JSON whitespace", "[1]\u000c", "INVALID_JSON"),
    ("vertical tab is not JSON whitespace", "\u000b[1]", "INVALID_JSON"),
    ("U+2028 is not JSON whitespace", "[1,\u20282]", "INVALID_JSON"),
    ("invalid escape \\x", r'["\x41"]', "INVALID_JSON"),
    ("invalid escape \\a", r'["\a"]', "INVALID_JSON"),
    ("invalid escape \\U", r'["\U0041"]', "INVALID_JSON"),
    ("escaped single quote", r'["\'"]', "INVALID_JSON"),
    ("short \\u escape", r'["\u12"]', "INVALID_JSON"),
    ("non-hex \\u escape", r'["\u12G4"]', "INVALID_JSON"),
    ("unterminated string", '["abc', "INVALID_JSON"),
    ("unterminated array", "[1, 2", "INVALID_JSON"),
    ("unterminated object", '{"a": 1', "INVALID_JSON"),
    ("missing colon", '{"a" 1}', "INVALID_JSON"),
    ("missing value", '{"a": }', "INVALID_JSON"),
    ("missing comma", "[1 2]", "INVALID_JSON"),
    ("capitalised True", "[True]", "INVALID_JSON"),
    ("truncated null", "[nul]", "INVALID_JSON"),
    ("undefined", "[undefined]", "INVALID_JSON"),
    ("mismatched brackets", "[1}", "INVALID_JSON"),
    # Precedence: the first parse-time refusal in document order, then duplicate keys.
    ("precedence: non-finite number before duplicate key", '{"a": 1, "a": 1e400}', "NON_FINITE_NUMBER"),
    ("precedence: syntax error before duplicate key", '{"a": 1, "a": 2,}', "INVALID_JSON"),
    ("precedence: lone surrogate before earlier duplicate key", r'[{"a": 1, "a": 2}, "\ud800"]', "LONE_SURROGATE"),
    ("precedence: integer bound before later NaN", "[9007199254740993, NaN]", "INTEGER_OUT_OF_RANGE"),
    ("precedence: NaN before later integer bound", "[NaN, 9007199254740993]", "NON_FINITE_NUMBER"),
    ("precedence: lone surrogate before later leading zero", r'["\ud800", 01]', "LONE_SURROGATE"),
    ("precedence: leading zero before later lone surrogate", r'[01, "\ud800"]', "INVALID_JSON"),
    ("precedence: lone surrogate keys before their duplication", r'{"\ud800": 1, "\ud800": 2}', "LONE_SURROGATE"),
    ("precedence: overflow before a missing bracket", "[1e400", "NON_FINITE_NUMBER"),
    ("overflow with an exponent of 40 digits", "[1e99999999999999999999999999999999999999]", "NON_FINITE_NUMBER"),
]

# Generated inputs: prefix + repeat * count + inner + close * count + suffix.
DEPTH = [
    ("64 nested arrays accepted", dict(repeat="[", close="]", count=64), None),
    ("65 nested arrays refused", dict(repeat="[", close="]", count=65), "INPUT_TOO_DEEP"),
    ("64 nested objects accepted", dict(repeat='{"a":', inner="null", close="}", count=64), None),
    ("65 nested objects refused", dict(repeat='{"a":', inner="null", close="}", count=65), "INPUT_TOO_DEEP"),
    ("64 levels of arrays and objects with whitespace accepted",
     dict(repeat='[ { "k" : ', inner="1", close=" } ]", count=32), None),
    ("65 levels of arrays and objects refused", dict(repeat='[{"k":', inner="[]", close="}]", count=32),
     "INPUT_TOO_DEEP"),
    ("64 levels inside a wide document accepted",
     dict(prefix='{"z": [1, 2], "a": ', repeat="[", inner='{"y": 1, "x": 2}', close="]", count=62,
          suffix=', "m": {}}'), None),
    ("65 levels after a long shallow start refused",
     dict(prefix="[" + "0," * 1000, repeat="[", close="]", count=64, suffix="]"), "INPUT_TOO_DEEP"),
    ("hostile: 10,000,000 opening brackets", dict(repeat="[", count=10_000_000), "INPUT_TOO_DEEP"),
    ("hostile: 2,000,000 opening object members", dict(repeat='{"a":', count=2_000_000), "INPUT_TOO_DEEP"),
    ("hostile: 1,000,000 balanced brackets", dict(repeat="[", close="]", count=1_000_000), "INPUT_TOO_DEEP"),
    ("precedence: depth refusal before a later syntax error", dict(repeat="[", close="]", count=65, suffix=","),
     "INPUT_TOO_DEEP"),
    ("precedence: depth refusal before an earlier duplicate key",
     dict(prefix='[{"a": 1, "a": 2}, ', repeat="[", close="]", count=64, suffix="]"), "INPUT_TOO_DEEP"),
    ("precedence: earlier leading zero before depth", dict(prefix="[01, ", repeat="[", count=100),
     "INVALID_JSON"),
    ("precedence: earlier overflow before depth", dict(prefix="[1e400, ", repeat="[", count=100),
     "NON_FINITE_NUMBER"),
]

INVALID_UTF8 = [
    ("lone continuation byte", b'["\x80"]'),
    ("byte 0xFF", b'["\xff"]'),
    ("byte 0xFE", b'["\xfe"]'),
    ("byte 0xF5", b'["\xf5\x80\x80\x80"]'),
    ("overlong slash (C0 AF)", b'["\xc0\xaf"]'),
    ("overlong NUL (C0 80)", b'["\xc0\x80"]'),
    ("overlong three-byte form (E0 80 AF)", b'["\xe0\x80\xaf"]'),
    ("truncated two-byte sequence", b'["\xc3"]'),
    ("truncated four-byte sequence", b'["\xf0\x9f\x98"]'),
    ("truncated sequence at the end of input", b'["a"]\xe2\x82'),
    ("UTF-8 encoded surrogate U+D800 (ED A0 80)", b'["\xed\xa0\x80"]'),
    ("CESU-8 surrogate pair for U+1F600", b'["\xed\xa0\xbd\xed\xb8\x80"]'),
    ("code point above U+10FFFF (F4 90 80 80)", b'["\xf4\x90\x80\x80"]'),
    ("Latin-1 e-acute", b'["caf\xe9"]'),
    ("invalid byte in a key", b'{"k\xff": 1}'),
    ("invalid byte outside a string", b'[1]\xff'),
    ("UTF-16LE with its byte-order mark", b'\xff\xfe[\x00]\x00'),
    ("precedence: invalid UTF-8 after a syntax error", b'[01, "\xff"]'),
    ("precedence: invalid UTF-8 after a duplicate key", b'{"a": 1, "a": "\xff"}'),
    ("precedence: invalid UTF-8 after a lone surrogate", b'["\\ud800", "\xff"]'),
]

LIMIT = 262144
SIZE = [
    ("canonical form of exactly 262,144 bytes accepted", dict(prefix='["', repeat="a", count=LIMIT - 4, suffix='"]'),
     LIMIT, None),
    ("canonical form of 262,145 bytes refused", dict(prefix='["', repeat="a", count=LIMIT - 3, suffix='"]'),
     LIMIT, "BODY_TOO_LARGE"),
    ("no limit: the same 262,145 bytes accepted", dict(prefix='["', repeat="a", count=LIMIT - 3, suffix='"]'),
     None, None),
    ("input of 300,004 bytes whose canonical form is 3 bytes accepted",
     dict(prefix="[", repeat=" ", count=300_000, suffix="1 ]"), LIMIT, None),
    ("escapes shrink: 360,004 input bytes, 60,004 canonical bytes accepted",
     dict(prefix='["', repeat="\\u0041", count=60_000, suffix='"]'), LIMIT, None),
    ("numbers grow: 60,003 input bytes, 264,003 canonical bytes refused",
     dict(prefix="[", repeat="1e20,", count=12_000, suffix="0]"), LIMIT, "BODY_TOO_LARGE"),
    ("multi-byte characters counted as UTF-8 bytes: 262,146 bytes refused",
     dict(prefix='["', repeat="é", count=(LIMIT - 2) // 2, suffix='"]'), LIMIT, "BODY_TOO_LARGE"),
    ("precedence: duplicate key before size", dict(prefix='{"a": 1, "a": "', repeat="a", count=300_000, suffix='"}'),
     LIMIT, "DUPLICATE_KEY"),
    ("precedence: syntax error before size", dict(prefix='["', repeat="a", count=300_000, suffix='",]'),
     LIMIT, "INVALID_JSON"),
    # Long number literals (issue 14.1): any length reads as ECMAScript's Number(text) reads it.
    ("long literal: 1 behind 655,359 zeros with exponent 655360",
     dict(prefix='{"amount": 0.', repeat="0", count=655_359, suffix='1e655360}'), None, None),
    ("long literal: 700,000 trailing zeros and exponent -700000",
     dict(prefix="[1", repeat="0", count=700_000, suffix="e-700000]"), None, None),
    ("long literal: 70,000 zeros after the point and exponent +0070002",
     dict(prefix="[-0.", repeat="0", count=70_000, suffix="25e+0070002]"), None, None),
    ("long literal: exponent with 100,000 leading zeros",
     dict(prefix="[1.5e-", repeat="0", count=100_000, suffix="7]"), None, None),
    ("long literal: a megabyte of threes, canonical form under the limit",
     dict(prefix="[0.", repeat="3", count=1 << 20, suffix="]"), LIMIT, None),
    ("long literal: the tie between 1 and its successor broken a megabyte below",
     dict(prefix="[1.00000000000000011102230246251565404236316680908203125", repeat="0", count=1 << 20,
          suffix="1]"), None, None),
    ("long literal: the same tie exact, with a megabyte of zeros, rounds to even",
     dict(prefix="[1.00000000000000011102230246251565404236316680908203125", repeat="0", count=1 << 20,
          suffix="]"), None, None),
    ("long literal: just below the tie, a megabyte of nines",
     dict(prefix="[1.00000000000000011102230246251565404236316680908203124", repeat="9", count=1 << 20,
          suffix="]"), None, None),
    ("long literal: the smallest subnormal behind 100,000 zeros",
     dict(prefix="[0.", repeat="0", count=100_000, suffix="5e99677]"), None, None),
    ("long literal: underflow to zero behind 70,000 trailing zeros",
     dict(prefix="[1", repeat="0", count=70_000, suffix="e-70400]"), None, None),
    ("long literal: overflow behind 70,000 zeros refused",
     dict(prefix="[0.", repeat="0", count=70_000, suffix="1e70310]"), None, "NON_FINITE_NUMBER"),
]


def generated(g):
    """prefix + repeat × count + inner + close × count + suffix (a missing part is empty)."""
    return g.get("prefix", "") + g["repeat"] * g["count"] + g.get("inner", "") + g.get("close", "") * g["count"] \
        + g.get("suffix", "")


def refused_by_guide(text):
    try:
        guide_canonical(text)
    except (ValueError, RecursionError):
        return True
    return False


DESCRIPTION = (
    "ekl-json-1 canonical JSON (PROTOCOL.md §9.5, §2.5): RFC 8785 with EKP's refusals. `valid` cases give the input "
    "text, its canonical form and the SHA-256 (lowercase hex) of the canonical form's UTF-8 bytes; `invalid` cases "
    "give the input text and the error code an implementation of this project reports (other implementations need "
    "only refuse). Decisions this file rests on: (1) integer literals (no fraction, no exponent) are accepted within "
    "±2^53 inclusive, so 9007199254740992 and -9007199254740992 are accepted and ±9007199254740993 refused with "
    "INTEGER_OUT_OF_RANGE (PROTOCOL §9.5 'within ±2^53' wins over ±(2^53−1)); (2) a number with a fraction or an "
    "exponent is read as the nearest double (ties to even) and written as ECMAScript's Number.prototype.toString "
    "writes it, so 9007199254740993.0 → 9007199254740992 and 333333333.33333329 → 333333333.3333333; a literal that "
    "overflows to infinity is refused with NON_FINITE_NUMBER, one that underflows becomes 0; (3) NaN, Infinity and "
    "-Infinity are refused with NON_FINITE_NUMBER, other misspellings (nan, +Infinity) with INVALID_JSON; (4) a UTF-8 "
    "byte-order mark is refused (INVALID_JSON), JSON whitespace is only space, tab, LF and CR; (5) duplicate keys are "
    "compared after unescaping (DUPLICATE_KEY); (6) a lone surrogate escape in a value or a key, including a high "
    "surrogate followed by anything but a low-surrogate escape, is LONE_SURROGATE; (7) keys are sorted by UTF-16 code "
    "units, strings escape only \", \\ and U+0000–U+001F (\\b \\t \\n \\f \\r, else lowercase \\u00xx), everything "
    "else (U+007F, U+2028, U+2029, /, non-ASCII) is written as literal UTF-8; (8) when an input breaks several rules, "
    "the code reported is: invalid UTF-8 anywhere first (INVALID_UTF8); then the first parse-time refusal in document "
    "order (INVALID_JSON, INPUT_TOO_DEEP, NON_FINITE_NUMBER, INTEGER_OUT_OF_RANGE, LONE_SURROGATE); then duplicate keys; "
    "then size (BODY_TOO_LARGE). Sections the guide's check script cannot judge are kept apart: `depth` (every array "
    "or object adds one level, [] is depth 1; 64 accepted, 65 refused with INPUT_TOO_DEEP, checked while parsing and "
    "without recursion), `invalid_utf8` (byte inputs as lowercase hex, refused with INVALID_UTF8) and `size` (the "
    "optional limit on the canonical form's UTF-8 bytes, 262,144 for a capability input, refused with BODY_TOO_LARGE; "
    "max_bytes null means no limit). Generated inputs (depth and size) are "
    "prefix + repeat × count + inner + close × count + suffix, a missing part being empty. "
    "Note: canonical output is a fixed point of ekl-json-1 except for integer-valued doubles beyond 2^53 and below "
    "1e21, which are written as integer literals that ekl-json-1 refuses as input ('1e21 boundary' is valid, 'integer "
    "1e20 written out' invalid). Expected values were computed with the published guide's canonical.py and Node "
    "(JSON.parse, String(x), UTF-16 key sort) and checked by vectors/check/check_vectors.py; see "
    "docs/decisions.md#vectors."
)


def build_ekl_json_1():
    texts = [t for _, t in VALID]
    node = node_canonical(texts)
    valid = []
    for (name, text), from_node in zip(VALID, node):
        ours = guide_canonical(text)
        assert ours == from_node, f"{name}: guide {ours!r} != node {from_node!r}"
        valid.append({"name": name, "input": text, "canonical": ours, "sha256": sha(ours)})
    invalid = []
    for name, text, code in INVALID:
        assert refused_by_guide(text), f"{name}: the guide's canonical.py accepts {text!r}"
        invalid.append({"name": name, "input": text, "code": code})
    depth = []
    for name, g, code in DEPTH:
        case = {"name": name, **g}
        if code is None:
            text = generated(g)
            out = guide_canonical(text)
            assert out == node_canonical([text])[0], name
            case.update(canonical=out, sha256=sha(out))
        else:
            case["code"] = code
        depth.append(case)
    utf8 = []
    for name, raw in INVALID_UTF8:
        try:
            raw.decode("utf-8")
            raise AssertionError(f"{name}: valid UTF-8")
        except UnicodeDecodeError:
            pass
        utf8.append({"name": name, "input_hex": raw.hex(), "code": "INVALID_UTF8"})
    size = []
    for name, g, limit, code in SIZE:
        case = {"name": name, **g, "max_bytes": limit}
        text = generated(g)
        if code is None:
            out = guide_canonical(text)
            assert out == node_canonical([text])[0], name
            assert limit is None or len(out.encode()) <= limit, name
            case.update(canonical_length=len(out.encode()), sha256=sha(out))
            if len(out) <= 64:
                case["canonical"] = out
        else:
            case["code"] = code
            if code == "BODY_TOO_LARGE":
                assert len(guide_canonical(text).encode()) > limit, name
            else:
                assert refused_by_guide(text), name
        size.append(case)
    return {"description": DESCRIPTION, "valid": valid, "invalid": invalid, "depth": depth,
            "invalid_utf8": utf8, "size": size}


# ---------------------------------------------------------------------------------------------------
# upstream fingerprint (§5.1)
# ---------------------------------------------------------------------------------------------------
MEMBERS = ["name", "description", "inputSchema", "outputSchema", "annotations"]

SEARCH = {"name": "search_listings", "description": "Search homes for sale.",
          "inputSchema": {"type": "object", "properties": {"area_ref": {"type": "string"},
                                                           "min_beds": {"type": "integer", "minimum": 0}},
                          "required": ["area_ref"]},
          "outputSchema": {"type": "object", "properties": {"listings": {"type": "array"}}},
          "annotations": {"readOnlyHint": True, "openWorldHint": False}}
QUOTE = {"name": "get_quote", "description": "Price a listing.",
         "inputSchema": {"type": "object", "properties": {"listing_id": {"type": "string"}}}}

UPSTREAM = [
    ("one complete tool", {"tools": [SEARCH]}, None),
    ("missing members written as null", {"tools": [{"name": "ping", "inputSchema": {"type": "object"}}]}, None),
    ("members explicitly null are the same as missing",
     {"tools": [{"name": "ping", "description": None, "inputSchema": {"type": "object"}, "outputSchema": None,
                 "annotations": None}]}, None),
    ("extra members of a tool and of the result are ignored",
     {"tools": [{**QUOTE, "title": "Get a quote", "_meta": {"x": 1}, "icons": [], "execution": {"taskSupport": "no"}}],
      "nextCursor": "abc", "_meta": {"page": 1}}, None),
    ("unsorted tools list sorted by name", {"tools": [SEARCH, QUOTE, {"name": "archive", "inputSchema": {}}]}, None),
    ("names sorted by UTF-16 code units: 😀 before ｱ",
     {"tools": [{"name": "ｱ_tool", "inputSchema": {}}, {"name": "😀_tool", "inputSchema": {}},
                {"name": "\ue000", "inputSchema": {}}, {"name": "zeta", "inputSchema": {}},
                {"name": "Zeta", "inputSchema": {}}, {"name": "é", "inputSchema": {}}]}, None),
    ("offered names filter the list", {"tools": [SEARCH, QUOTE, {"name": "admin_reset", "inputSchema": {}}]},
     ["search_listings", "get_quote"]),
    ("offered names not in the list are ignored", {"tools": [SEARCH, QUOTE]}, ["get_quote", "not_there"]),
    ("offered order does not matter", {"tools": [QUOTE, SEARCH]}, ["search_listings", "get_quote"]),
    ("nothing offered gives the empty array", {"tools": [SEARCH, QUOTE]}, []),
    ("tools with one name that are not offered are ignored",
     {"tools": [QUOTE, {"name": "dup", "inputSchema": {}}, {"name": "dup", "inputSchema": {"type": "object"}}]},
     ["get_quote"]),
    ("empty tools list", {"tools": []}, None),
    ("unicode in descriptions and schemas, keys sorted inside",
     {"tools": [{"name": "traduire", "description": "Traduit un texte — « vite »\u2028ligne 2",
                 "inputSchema": {"type": "object", "properties": {"texte": {"type": "string"}, "ｱ": {}, "😀": {}}},
                 "annotations": {"title": "Übersetzen", "idempotentHint": True}}]}, None),
    ("numbers in schemas written as ECMAScript does",
     {"tools": [{"name": "measure", "inputSchema": {"type": "object", "properties": {"x": {
         "type": "number", "minimum": -0.0, "maximum": 1e21, "multipleOf": 0.000001, "default": 1.50}}}}]}, None),
]

UPSTREAM_INVALID = [
    ("two offered tools share a name", {"tools": [QUOTE, {**QUOTE, "description": "again"}]}, None,
     "INVALID_SHAPE"),
    ("a tool without a name", {"tools": [QUOTE, {"description": "nameless"}]}, None, "INVALID_SHAPE"),
    ("a tool whose name is not a string", {"tools": [{"name": 7}]}, None, "INVALID_SHAPE"),
    ("no tools array", {"nextCursor": None}, None, "INVALID_SHAPE"),
    ("tools is not an array", {"tools": {"name": "ping"}}, None, "INVALID_SHAPE"),
    ("a tool that is not an object", {"tools": ["ping"]}, None, "INVALID_SHAPE"),
    ("an integer beyond 2^53 in a schema", {"tools": [{"name": "big", "inputSchema": {"maximum": 2 ** 64}}]}, None,
     "INTEGER_OUT_OF_RANGE"),
    ("a tool dumped by field names (input_schema, no inputSchema: pydantic model_dump() without aliases)",
     {"tools": [{"name": "get_quote", "title": None, "description": "Price a listing.",
                 "input_schema": {"type": "object"}, "output_schema": None, "annotations": None}],
      "next_cursor": None}, None, "INVALID_SHAPE"),
]

UPSTREAM_DESCRIPTION = (
    "Upstream fingerprint (PROTOCOL.md §5.1): lowercase hex SHA-256, no salt, of the ekl-json-1 bytes of an array "
    "holding the tools of an MCP tools/list result that the agent offers, sorted by name in UTF-16 code units, each "
    "projected to exactly name, description, inputSchema, outputSchema and annotations. Decisions: `tools` is the "
    "tools/list result object and only its `tools` array is read (nextCursor, _meta and any other member ignored); a "
    "member that is missing or explicitly null is written as null; every other member of a tool is ignored; "
    "`offered` null means every listed tool is offered, otherwise only tools whose name is in the list are kept "
    "(names not in the list are ignored, the list's order does not matter, an empty list gives the empty array []); "
    "`projection` is the canonical text that is hashed. Refused with INVALID_SHAPE: a tools/list result without a "
    "tools array, a tool that is not an object with a string name, two kept tools with the same name. Values inside "
    "the projected members follow every ekl-json-1 rule (integers beyond ±2^53 refused)."
)


def project(tools, offered):
    kept = [t for t in tools["tools"] if offered is None or t["name"] in offered]
    kept.sort(key=lambda t: t["name"].encode("utf-16-be"))
    return [{m: t.get(m) for m in MEMBERS} for t in kept]


def build_upstream():
    cases = []
    for name, tools, offered in UPSTREAM:
        projected = guide_canonical(json.dumps(project(tools, offered), ensure_ascii=False))
        assert projected == node_canonical([json.dumps(project(tools, offered))])[0], name
        cases.append({"name": name, "tools": tools, "offered": offered, "projection": projected,
                      "fingerprint": sha(projected)})
    invalid = [{"name": n, "tools": t, "offered": o, "code": c} for n, t, o, c in UPSTREAM_INVALID]
    return {"description": UPSTREAM_DESCRIPTION, "algorithm": "sha-256(ekl-json-1(projection of the offered tools))",
            "cases": cases, "invalid": invalid}


# ---------------------------------------------------------------------------------------------------
# duplicate member names in any JSON text an operation reads (issue 10.5)
# ---------------------------------------------------------------------------------------------------
DUP_SALT = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
DUP_SECRET = "receipt-secret-for-vectors"

# (name, operation, input text, offered, expected code or None for a computed result)
DUPLICATES = [
    ("upstream: an offered tool with two name members", "upstream_fingerprint",
     '{"tools": [{"name": "a", "name": "b"}]}', ["a"], "DUPLICATE_KEY"),
    ("upstream: the same tool, the other name offered", "upstream_fingerprint",
     '{"tools": [{"name": "a", "name": "b"}]}', ["b"], "DUPLICATE_KEY"),
    ("upstream: a duplicate in a tool that is not offered", "upstream_fingerprint",
     '{"tools": [{"name": "a"}, {"name": "b", "title": "x", "title": "y"}]}', ["a"], "DUPLICATE_KEY"),
    ("upstream: a duplicate in a member of the result that is ignored", "upstream_fingerprint",
     '{"tools": [{"name": "a"}], "_meta": {"k": 1, "k": 1}}', None, "DUPLICATE_KEY"),
    ("upstream: two tools members", "upstream_fingerprint",
     '{"tools": [{"name": "a"}], "tools": []}', None, "DUPLICATE_KEY"),
    ("upstream: a duplicate inside a projected schema", "upstream_fingerprint",
     '{"tools": [{"name": "a", "inputSchema": {"type": "object", "type": "string"}}]}', None, "DUPLICATE_KEY"),
    ("upstream: keys equal after unescaping", "upstream_fingerprint",
     '{"tools": [{"name": "a", "n\\u0061me": "b"}]}', ["a"], "DUPLICATE_KEY"),
    ("upstream: without the duplicates", "upstream_fingerprint",
     '{"tools": [{"name": "a"}, {"name": "b", "title": "x"}], "_meta": {"k": 1}}', ["a"], None),
    ("upstream precedence: a syntax error after a duplicate", "upstream_fingerprint",
     '{"tools": [{"name": "a", "name": "b"}],}', None, "INVALID_JSON"),
    ("upstream precedence: a duplicate before a shape error", "upstream_fingerprint",
     '{"x": 1, "x": 2}', None, "DUPLICATE_KEY"),
    ("output: two content members", "output_fingerprint",
     '{"content": [{"type": "text", "text": "a"}], "content": [{"type": "text", "text": "b"}]}', None,
     "DUPLICATE_KEY"),
    ("output: two structuredContent members", "output_fingerprint",
     '{"structuredContent": {"a": 1}, "structuredContent": {"a": 2}, "content": []}', None, "DUPLICATE_KEY"),
    ("output: a duplicate in _meta, which is never fingerprinted", "output_fingerprint",
     '{"content": [{"type": "text", "text": "a"}], "_meta": {"a": 1, "a": 2}}', None, "DUPLICATE_KEY"),
    ("output: a duplicate in isError's neighbour, an unknown member", "output_fingerprint",
     '{"structuredContent": {"a": 1}, "isError": false, "x": {"y": [{"z": 1, "z": 1}]}}', None, "DUPLICATE_KEY"),
    ("output: without the duplicates", "output_fingerprint",
     '{"content": [{"type": "text", "text": "a"}], "_meta": {"a": 1}}', None, None),
    ("result body: two structuredContent members, the first null", "select_result_body",
     '{"structuredContent": null, "structuredContent": {"a": 1}, "content": []}', None, "DUPLICATE_KEY"),
    ("result body: without the duplicate", "select_result_body",
     '{"structuredContent": null, "content": []}', None, None),
    ("terms: two hash members", "terms_hash", '{"price": 1, "hash": "x", "hash": "y"}', None, "DUPLICATE_KEY"),
    ("terms: a duplicate in a nested member", "terms_hash",
     '{"price": {"amount": 1, "amount": 2}, "hash": "x"}', None, "DUPLICATE_KEY"),
    ("terms: without the duplicates", "terms_hash", '{"price": 1, "hash": "x"}', None, None),
    ("fingerprint: a duplicate deep inside", "fingerprint", '{"a": [{"b": {"c": 1, "c": 1}}]}', None,
     "DUPLICATE_KEY"),
    ("fingerprint: without the duplicate", "fingerprint", '{"a": [{"b": {"c": 1}}]}', None, None),
    ("value digest: a duplicate in the second item", "value_digest", '[{"a": 1}, {"a": 1, "a": 1}]', None,
     "DUPLICATE_KEY"),
    ("receipt digest: two auth_tag members", "receipt_digest",
     '{"key_id": "rk-1", "auth_tag": "x", "auth_tag": "y"}', None, "DUPLICATE_KEY"),
    ("receipt digest: without the duplicate", "receipt_digest", '{"key_id": "rk-1", "auth_tag": "x"}', None,
     None),
    ("auth tag: two key_id members", "auth_tag", '{"key_id": "rk-1", "key_id": "rk-2", "a": 1}', None,
     "DUPLICATE_KEY"),
    ("auth tag: a duplicate inside a commitment", "auth_tag",
     '{"key_id": "rk-1", "input_commitment": {"digest": "a", "digest": "b"}}', None, "DUPLICATE_KEY"),
    ("auth tag: without the duplicates", "auth_tag", '{"key_id": "rk-1", "a": 1}', None, None),
    ("screening rules: two phrases members in a rule", "screening_rules",
     '{"rules_version": "v1", "rules": [{"rule_id": "r", "category": "c", "phrases": ["x"], "phrases": ["y"]}]}',
     None, "DUPLICATE_KEY"),
]

DUPLICATES_DESCRIPTION = (
    "Duplicate member names in any JSON text an operation reads (PROTOCOL §9.5 'no duplicate keys'; "
    "docs/decisions.md#duplicates). Every operation that reads JSON text refuses a duplicate member name in any "
    "object of that text with DUPLICATE_KEY (names compared after unescaping), also in parts it ignores or only looks "
    "a member up in, never 'first member wins'; parse-time refusals in document order come first, then duplicates, "
    "then the operation's own shape checks. Each case gives `operation`, `input` (the JSON text, as a string, to "
    "be handed to the operation as text) and either `code` or `expected`: upstream_fingerprint(input, offered), "
    "output_fingerprint(salt, input), select_result_body(input) (expected: the member fingerprinted), "
    "terms_hash(input), fingerprint(salt, input), value_digest(input) (no salt), receipt_digest(input), "
    "auth_tag(input, secret), screening_rules(input). `salt` and `secret` are the file's. Expected values were "
    "computed with the published guide's canonical.py (hashlib, hmac) and Node, and are re-derived by "
    "vectors/check/check_vectors.py."
)


def _no_dup_loads(text):
    def pairs(items):
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate keys")
        return dict(items)

    return json.loads(text, object_pairs_hook=pairs)


def _jcs(value):
    """The guide's canonical text of a value, checked against Node's."""
    text = json.dumps(value, ensure_ascii=False)
    out = guide_canonical(text)
    assert out == node_canonical([text])[0], text
    return out


def duplicate_expected(op, text, offered):
    value = _no_dup_loads(text)
    salt = bytes.fromhex(DUP_SALT)
    if op == "upstream_fingerprint":
        return sha(_jcs(project(value, offered)))
    if op in ("output_fingerprint", "select_result_body"):
        member = "structuredContent" if value.get("structuredContent") is not None else "content"
        if op == "select_result_body":
            return member
        return hashlib.sha256(salt + _jcs(value[member]).encode()).hexdigest()
    if op == "terms_hash":
        return sha(_jcs({k: v for k, v in value.items() if k != "hash"}))
    if op == "fingerprint":
        return hashlib.sha256(salt + _jcs(value).encode()).hexdigest()
    if op in ("value_digest", "receipt_digest"):
        return sha(_jcs(value))
    if op == "auth_tag":
        key = hmac.new(DUP_SECRET.encode(), b"ekl-receipt-1.1\x00" + value["key_id"].encode(), hashlib.sha256).digest()
        body = _jcs({k: v for k, v in value.items() if k != "auth_tag"})
        return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()
    raise AssertionError(f"no expected value for {op}")


def build_duplicates():
    cases = []
    for name, op, text, offered, code in DUPLICATES:
        case = {"name": name, "operation": op, "input": text}
        if op == "upstream_fingerprint":
            case["offered"] = offered
        if code is None:
            case["expected"] = duplicate_expected(op, text, offered)
        else:
            assert refused_by_guide(text), f"{name}: the guide's canonical.py accepts {text!r}"
            if code == "DUPLICATE_KEY":
                # the same text without its duplicate check parses: the duplicate is the only refusal
                json.loads(text)
            case["code"] = code
        cases.append(case)
    return {"description": DUPLICATES_DESCRIPTION, "salt": DUP_SALT, "secret": DUP_SECRET, "cases": cases}


# Characters written as \u escapes in the files so that they stay visible (the JSON value is the same).
VISIBLE = {c: "\\u%04x" % ord(c) for c in "\u007f\u00a0\u2028\u2029\ufeff\ue000\uffff\ufffe"}


def dump(obj):
    text = json.dumps(obj, ensure_ascii=False, indent=2)
    for c, esc in VISIBLE.items():
        text = text.replace(c, esc)
    assert json.loads(text) == obj
    return text + "\n"


def main():
    outputs = {"ekl-json-1.json": dump(build_ekl_json_1()), "upstream-fingerprint.json": dump(build_upstream()),
               "duplicate-keys.json": dump(build_duplicates())}
    check = "--check" in sys.argv[1:]
    stale = []
    for name, text in outputs.items():
        path = os.path.join(VECTORS, name)
        if check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    stale.append(name)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print("wrote", path)
    if stale:
        print("stale (run vectors/check/generate.py):", ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()

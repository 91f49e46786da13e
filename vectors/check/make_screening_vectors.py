"""Writes vectors/screening-scan.json (Python stdlib only). The expected flags are written by hand below;
check_receipts.py re-derives them with an independent scanner (unicodedata NFKC + str.casefold), and the
Rust runner must agree. Run from the repository root: python3 vectors/check/make_screening_vectors.py"""
import json
import os
import sys

CRED = "eklp_" + "q7Z0xV3mR9tK2bW5nH8cJ4fL6dS1gP0aE_yU-iO3rT4"  # 43 base64url chars
RULES = {
    "iss": "https://network.example",
    "iat": 1795970000,
    "exp": 1796056400,
    "rules_version": "2026-11-28.1",
    "rules": [
        {"rule_id": "pc-1", "category": "prohibited_content", "phrases": ["forbidden recipe", "stra\u00dfe der gefahr"]},
        {"rule_id": "pc-2", "category": "prohibited_content", "phrases": ["second rule same category"]},
        {"rule_id": "sp-1", "category": "spam", "phrases": ["\uff37\uff29\uff2e \uff21 \uff26\uff32\uff25\uff25"]},
        {"rule_id": "fr-1", "category": "fraud", "phrases": ["\ufb01nancial guarantee"]},
        {"rule_id": "ha-1", "category": "harassment", "phrases": ["\u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3"]},
        {"rule_id": "fo-1", "category": "food", "phrases": ["caf\u00e9 cr\u00e8me"]},
    ],
}
PC = {"category": "prohibited_content", "rules_version": "2026-11-28.1", "rule_id": "pc-1"}
LEAK = {"category": "credential_leak", "rules_version": "local"}


def flag(category, rule_id):
    return {"category": category, "rules_version": "2026-11-28.1", "rule_id": rule_id}


def text_result(*texts, structured=None):
    r = {"content": [{"type": "text", "text": t} for t in texts], "isError": False}
    if structured is not None:
        r["structuredContent"] = structured
    return r


nested = "forbidden recipe"
for _ in range(50):
    nested = [nested]

CASES = [
    ("no match", "rules", text_result("An ordinary invoice summary."), []),
    ("case-insensitive match", "rules", text_result("This FORBIDDEN Recipe is here."), [PC]),
    ("full case folding: sharp s", "rules", text_result("Die STRASSE DER GEFAHR"), [PC]),
    ("fullwidth result text", "rules", text_result("\uff46\uff4f\uff52\uff42\uff49\uff44\uff44\uff45\uff4e \uff52\uff45\uff43\uff49\uff50\uff45"), [PC]),
    ("fullwidth rule phrase", "rules", text_result("win a free cruise now"), [flag("spam", "sp-1")]),
    ("ligature in the rule", "rules", text_result("A financial guarantee!"), [flag("fraud", "fr-1")]),
    ("ligature in the result", "rules", text_result("A \ufb01nancial GUARANTEE!"), [flag("fraud", "fr-1")]),
    ("final sigma", "rules", text_result("\u03c3\u03af\u03c3\u03c5\u03c6\u03bf\u03c2"), [flag("harassment", "ha-1")]),
    ("combining marks compose under NFKC", "rules", text_result("CAFE\u0301 CRE\u0300ME"), [flag("food", "fo-1")]),
    ("first matching rule of a category", "rules", text_result("second rule same category and forbidden recipe"),
     [PC]),
    ("only the second rule of a category", "rules", text_result("second rule same category"),
     [flag("prohibited_content", "pc-2")]),
    ("several categories, sorted, one flag each", "rules",
     text_result("win a free x", "forbidden recipe", "forbidden recipe again", "-----BEGIN PRIVATE KEY-----\nMIIE"),
     [LEAK, PC, flag("spam", "sp-1")]),
    ("structuredContent and content both scanned", "rules",
     text_result("nothing", structured={"note": {"deep": ["financial guarantee"]}}), [flag("fraud", "fr-1")]),
    ("_meta is scanned too", "rules", {"content": [], "_meta": {"note": "forbidden recipe"}}, [PC]),
    ("phrase split across two strings", "rules", text_result("forbidden", "recipe"), []),
    ("phrase in a key only", "rules", {"structuredContent": {"forbidden recipe": 1}}, []),
    ("numbers and booleans are not text", "rules", {"structuredContent": {"n": 123, "b": True, "z": None}}, []),
    ("deeply nested string", "rules", {"structuredContent": nested}, [PC]),
    ("provider credential in text", "rules", text_result("here is my key: " + CRED), [LEAK]),
    ("agent-operation credential", None, text_result("ekla_" + "A" * 32), [LEAK]),
    ("credential too short", None, text_result("ekla_" + "A" * 31), []),
    ("credential upper-case prefix", None, text_result("EKLP_" + "A" * 40), []),
    ("credential in a key", None, {"structuredContent": {CRED: True}}, [LEAK]),
    ("PEM private key", None, text_result("-----BEGIN RSA PRIVATE KEY-----\nMIIEow"), [LEAK]),
    ("PEM public key is no leak", None, text_result("-----BEGIN PUBLIC KEY-----\nMFkw"), []),
    ("PEM after another header", None, text_result("-----BEGIN X-----BEGIN EC PRIVATE KEY-----"), [LEAK]),
    ("no rules, a phrase", None, text_result("forbidden recipe"), []),
    ("not an object result", "rules", "forbidden recipe", [PC]),
]

BASE = {k: v for k, v in RULES.items() if k != "rules"}
INVALID = [
    ("claims not an object", [], "INVALID_SHAPE"),
    ("rules_version missing", {"rules": []}, "CLAIM_MISSING"),
    ("rules missing", {"rules_version": "1"}, "CLAIM_MISSING"),
    ("rules_version a number", {"rules_version": 3, "rules": []}, "CLAIM_INVALID"),
    ("rules_version empty", {"rules_version": "", "rules": []}, "CLAIM_INVALID"),
    ("rules_version local is reserved", {"rules_version": "local", "rules": []}, "CLAIM_INVALID"),
    ("rules not an array", {"rules_version": "1", "rules": {}}, "CLAIM_INVALID"),
    ("rule not an object", {"rules_version": "1", "rules": ["x"]}, "CLAIM_INVALID"),
    ("rule without phrases", {"rules_version": "1", "rules": [{"rule_id": "a", "category": "c"}]}, "CLAIM_INVALID"),
    ("empty phrases", {"rules_version": "1", "rules": [{"rule_id": "a", "category": "c", "phrases": []}]},
     "CLAIM_INVALID"),
    ("empty phrase", {"rules_version": "1", "rules": [{"rule_id": "a", "category": "c", "phrases": ["x", ""]}]},
     "CLAIM_INVALID"),
    ("phrase not a string", {"rules_version": "1", "rules": [{"rule_id": "a", "category": "c", "phrases": [1]}]},
     "CLAIM_INVALID"),
    ("empty category", {"rules_version": "1", "rules": [{"rule_id": "a", "category": "", "phrases": ["x"]}]},
     "CLAIM_INVALID"),
    ("rule_id missing", {"rules_version": "1", "rules": [{"category": "c", "phrases": ["x"]}]}, "CLAIM_INVALID"),
    ("rule_id repeated", {"rules_version": "1", "rules": [{"rule_id": "a", "category": "c", "phrases": ["x"]},
                                                          {"rule_id": "a", "category": "d", "phrases": ["y"]}]},
     "CLAIM_INVALID"),
]

doc = {
    "description": (
        "Local screening of a tool result (PROTOCOL 15.5). rules_sets holds the claims of verified "
        "ekl-screening-rules+jwt tokens. A rule matches when one of its phrases occurs as a substring of a string "
        "value of the result (object keys are not phrase-matched), both sides compared after "
        "NFKC(casefold(NFKC(s))) with full case folding. Local leak patterns are looked for in every string value "
        "and object key, case-sensitively: a PEM header '-----BEGIN <label>-----' whose label (at most 64 of "
        "A-Z 0-9 space) contains 'PRIVATE KEY', or 'eklp_'/'ekla_' followed by at least 32 base64url characters; "
        "they give {category credential_leak, rules_version local} without rule_id. One flag per (category, "
        "rules_version), keeping the rule_id of the first matching rule in the rules' order; flags sorted by "
        "category then rules_version (code points). The whole result is scanned, _meta included. A case whose "
        "rules is null scans with local patterns only. invalid_rules: claims refused with the given error code. "
        "Generated by vectors/check/make_screening_vectors.py; re-checked by check_receipts.py."
    ),
    "rules_sets": {"rules": RULES},
    "cases": [{"name": n, "rules": r, "result": res, "expected": exp} for n, r, res, exp in CASES],
    "invalid_rules": [{"name": n, "claims": c, "error": e} for n, c, e in INVALID],
}

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
path = os.path.join(root, "screening-scan.json")
with open(path, "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=2, ensure_ascii=False)
    f.write("\n")
print("wrote screening-scan.json")

"""vectors/empty-values.json: every secret and identifier an operation takes, empty, is refused.

Python standard library only, no project code. Writes the file (default) or, with --check, checks
the file without writing it (scripts/test/20-vectors-independent.sh):

* it is what this script writes (the cases below are the record);
* each case names a real operation and only its parameters (docs/operations.json), gives every
  required parameter, and holds exactly one empty string, at the member its `empty` names
  (a parameter, or `parameter.member` inside a value argument), so a refusal can only be that
  member's;
* each code is a code of docs/errors.json;
* --self-test: a copy with one case changed (a second empty member, an unknown parameter, an
  unknown code) must fail the check.

The decision is docs/decisions/edges.md#empty; the generic runners (vectors/calls.jsonl) pin each
case's code on every surface.

    python3 vectors/check/make_empty_vectors.py [--check] [--self-test] [--dir PATH]
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
NAME = "empty-values.json"

SECRET = "rs_9QmV4c2KfX7tLw0pHjR3sN8yBdE6aZ1u"
CALL = {
    "execution_id": "ex_19c4", "collaboration_id": "col_c3c7b453aa7e", "capability_id": "cap_invoice_extract",
    "requester_agent_id": "agt_c0ns7m3r4a", "provider_agent_id": "agt_pr0v1d3r9b",
}
RECEIPT = {"key_id": "rk-1", "issued_at": "2026-11-29T18:40:05Z"}
SALT = "1f" * 32
SEED = "11" * 32
HASH = "ab" * 32
RING = lambda secret: [{"key_id": "rk-1", "secret": secret, "valid_from": "2026-01-01T00:00:00Z"}]  # noqa: E731
COMMITMENT = {"alg": "sha-256", "canon": "ekl-json-1", "digest": "00" * 32, "salt": SALT, "salt_id": ""}


def case(name, operation, empty, code, **args):
    return {"name": name, "operation": operation, "empty": empty, "args": args, "code": code}


CASES = [
    # MAC receipts: the secret and the key ring
    case("receipt_key: empty secret", "receipt_key", "secret", "INVALID_ARGUMENT", secret="", key_id="rk-1"),
    case("receipt_key: empty key_id", "receipt_key", "key_id", "INVALID_ARGUMENT", secret=SECRET, key_id=""),
    case("auth_tag: empty secret", "auth_tag", "secret", "INVALID_ARGUMENT", receipt=RECEIPT, secret=""),
    case("sign_receipt: empty secret", "sign_receipt", "secret", "INVALID_ARGUMENT", receipt=RECEIPT, secret=""),
    case("verify_receipt: the registration secret empty", "verify_receipt", "keys", "INVALID_ARGUMENT",
         receipt=RECEIPT, keys="", call=CALL),
    case("verify_receipt: a key ring key with an empty secret", "verify_receipt", "keys.secret",
         "INVALID_ARGUMENT", receipt=RECEIPT, keys=RING(""), call=CALL),
    case("verify_receipt: a call with an empty execution_id", "verify_receipt", "call.execution_id",
         "INVALID_ARGUMENT", receipt=RECEIPT, keys=SECRET, call={**CALL, "execution_id": ""}),
    case("verify_receipt: a call with an empty optional id", "verify_receipt", "call.connection_id",
         "INVALID_ARGUMENT", receipt=RECEIPT, keys=SECRET, call={**CALL, "connection_id": ""}),
    case("verify_receipt: an own commitment with an empty salt_id", "verify_receipt",
         "input_commitment.salt_id", "INVALID_ARGUMENT", receipt=RECEIPT, keys=SECRET, call=CALL,
         input_commitment=COMMITMENT),
    case("verify_receipts: a key ring key with an empty secret", "verify_receipts", "keys.secret",
         "INVALID_ARGUMENT", items=[], keys=RING("")),
    case("verify_receipt_lines: the registration secret empty", "verify_receipt_lines", "keys",
         "INVALID_ARGUMENT", lines="\n", keys=""),
    # commitments
    case("commitment: empty salt_id", "commitment", "salt_id", "INVALID_ARGUMENT", value={}, salt=SALT,
         salt_id=""),
    case("input_commitment: empty salt_id", "input_commitment", "salt_id", "INVALID_ARGUMENT", input={},
         salt=SALT, salt_id=""),
    # endpoint proofs, enrollment authority, verify signature
    case("proof_key: empty agent_key", "proof_key", "agent_key", "INVALID_ARGUMENT", agent_key=""),
    case("challenge_proof_v1: empty credential", "challenge_proof_v1", "credential", "INVALID_ARGUMENT",
         credential="", challenge="c", endpoint="https://a.example/ekl"),
    case("challenge_proof_v1: empty challenge", "challenge_proof_v1", "challenge", "INVALID_ARGUMENT",
         credential="eklp_x", challenge="", endpoint="https://a.example/ekl"),
    case("challenge_proof_v2: empty endpoint", "challenge_proof_v2", "endpoint", "INVALID_ARGUMENT",
         proof_key=HASH, challenge="c", endpoint=""),
    case("enroll_authority_v1: empty enrollment_id", "enroll_authority_v1", "enrollment_id", "INVALID_ARGUMENT",
         agent_key="eklp_x", enrollment_id="", nonce="n", endpoint="https://a.example/ekl"),
    case("enroll_authority_v2: empty nonce", "enroll_authority_v2", "nonce", "INVALID_ARGUMENT",
         proof_key=HASH, enrollment_id="enr_1", nonce="", endpoint="https://a.example/ekl"),
    case("verify_signature: empty registration_secret", "verify_signature", "registration_secret",
         "INVALID_ARGUMENT", registration_secret="", agent_id="agt_1", enrollment_id="enr_1", challenge="c"),
    case("verify_signature: empty agent_id", "verify_signature", "agent_id", "INVALID_ARGUMENT",
         registration_secret=SECRET, agent_id="", enrollment_id="enr_1", challenge="c"),
    case("check_verify_signature: empty registration_secret", "check_verify_signature", "registration_secret",
         "INVALID_ARGUMENT", registration_secret="", agent_id="agt_1", enrollment_id="enr_1", challenge="c",
         signature=HASH),
    case("verify_challenge_proof: empty challenge", "verify_challenge_proof", "challenge", "INVALID_ARGUMENT",
         challenge="", endpoint="https://a.example/ekl", proof=HASH, credential_hash=HASH),
    case("verify_enroll_authority: empty agent_key", "verify_enroll_authority", "agent_key", "INVALID_ARGUMENT",
         announced="v1", agent_key="", enrollment_id="enr_1", nonce="n", endpoint="https://a.example/ekl",
         authority=HASH),
    # ES256 keys: a kid names a key of the network's key set
    case("signing_key: empty kid", "signing_key", "kid", "INVALID_KEY", seed=SEED, kid=""),
    case("jwks_from_seed: an empty kid", "jwks_from_seed", "kids", "INVALID_KEY", seed=SEED, kids=[""]),
]

DESCRIPTION = (
    "Empty secrets and identifiers (issue 36; docs/decisions/edges.md#empty). Every secret and every identifier "
    "an operation takes is refused when empty, on every surface, with the code each case gives: an empty "
    "receipt secret keys a MAC anyone can compute, and an empty id names nothing the protocol issues. "
    "INVALID_ARGUMENT for arguments and the members of argument shapes (calls, key rings, own commitments), "
    "INVALID_KEY for a kid (as for every other unusable kid). Receipts with an empty member are in "
    "call-receipt.json (issue: INVALID_RECEIPT; verify: the required_fields check fails); tokens with an empty "
    "claim in credentials-jws.json (CLAIM_INVALID). Each case: `operation`, `args` (in the conformance call form: "
    "value arguments as JSON values), `empty` (the one member that is empty: a parameter, or parameter.member), "
    "`code`."
)


def document():
    return {"description": DESCRIPTION, "cases": CASES}


def text():
    return json.dumps(document(), indent=2, ensure_ascii=False) + "\n"


def empties(value, path=""):
    """The paths of every empty string in value (list items share their list's path)."""
    if value == "":
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in empties(v, f"{path}.{k}" if path else k)]
    if isinstance(value, list):
        return [p for v in value for p in empties(v, path)]
    return []


def check(doc, ops, codes):
    """The problems of a document (empty when it passes)."""
    problems = []
    for i, c in enumerate(doc.get("cases", [])):
        where = f"case {i} ({c.get('name')})"
        op = ops.get(c.get("operation"))
        if op is None:
            problems.append(f"{where}: no operation {c.get('operation')}")
            continue
        params = {p["name"]: p for p in op["params"]}
        args = c.get("args", {})
        unknown = [a for a in args if a not in params]
        missing = [p for p, d in params.items() if d.get("required") and p not in args]
        if unknown or missing:
            problems.append(f"{where}: unknown {unknown}, missing {missing}")
        found = empties(args)
        if found != [c.get("empty")]:
            problems.append(f"{where}: empty members {found}, declared {c.get('empty')}")
        if c.get("code") not in codes:
            problems.append(f"{where}: {c.get('code')} is not an error code")
    if not doc.get("cases"):
        problems.append("no cases")
    return problems


def main():
    argv = sys.argv[1:]
    folder = os.path.join(HERE, "..")
    if "--dir" in argv:
        folder = argv[argv.index("--dir") + 1]
    path = os.path.join(folder, NAME)
    if "--check" not in argv and "--self-test" not in argv:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text())
        print(f"wrote {NAME}")
        return 0
    with open(os.path.join(REPO, "docs", "operations.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    ops = {o["name"]: o for o in (manifest["operations"] if isinstance(manifest, dict) else manifest)}
    with open(os.path.join(REPO, "docs", "errors.json"), encoding="utf-8") as f:
        errors = json.load(f)
    codes = {e["code"] for e in (errors["codes"] if isinstance(errors, dict) else errors)}
    with open(path, encoding="utf-8") as f:
        have = f.read()
    if have != text():
        print(f"{NAME} is not what make_empty_vectors.py writes: run it", file=sys.stderr)
        return 1
    problems = check(json.loads(have), ops, codes)
    for p in problems:
        print(f"{NAME}: {p}", file=sys.stderr)
    if problems:
        return 1
    if "--self-test" in argv:
        base = json.loads(have)
        for change in ("second empty", "unknown parameter", "unknown code"):
            doc = copy.deepcopy(base)
            c = doc["cases"][0]
            if change == "second empty":
                c["args"]["key_id"] = ""
            elif change == "unknown parameter":
                c["args"]["no_such"] = "x"
            else:
                c["code"] = "NO_SUCH_CODE"
            if not check(doc, ops, codes):
                print(f"self-test: a copy with {change} passed the check", file=sys.stderr)
                return 1
        print("self-test: each changed copy fails")
    n = len(json.loads(have)['cases'])
    print(f"{NAME}: {n} cases, one empty member each, real operations and codes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

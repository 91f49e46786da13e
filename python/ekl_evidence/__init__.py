"""ekl_evidence: the bytes of EKP 1.2 evidence, from the Rust core ekl-core.

ekl-json-1 canonical JSON (RFC 8785 with EKP's refusals), SHA-256 commitments, salted and
upstream fingerprints, endpoint proofs, MAC and network-signed receipts, ES256 JWS and screening,
byte-identical to the Rust core and to the Node and WebAssembly packages, with the same error
codes. Every operation is one entry of the registry of ekl-bridge (docs/operations.json).

Conventions shared with the JS packages:

* required parameters are positional, optional ones keyword-only; a ``now`` left out is the
  host clock;
* functions that take a JSON *value* take a Python value (strict conversion) or a
  :class:`JsonText` (the text path: duplicate keys, integers beyond 2^53 and ``\\ud800`` escapes
  reach the core as written);
* protocol objects (receipts, calls, key rings, claims, JWKS) keep their wire names, and results
  are wire-shaped dicts; canonical JSON comes back as ``bytes``, digests as lowercase hex ``str``;
* every refusal raises :class:`EklError` (a ``ValueError``) whose ``code`` is one of
  :data:`ErrorCode`; an argument of the wrong Python type raises ``TypeError``.
"""

from __future__ import annotations

from ._api import *  # noqa: F401,F403 (the registry's operations: _api.__all__)
from ._errors import ERROR_CODES, EklError, ErrorCode
from ._host import new_salt, new_seed, new_signing_key
from ._native import (
    CAPABILITY_INPUT_MAX_BYTES,
    CORE_VERSION,
    MAX_DEPTH,
    MAX_SAFE_INTEGER_BOUND,
    JsonText,
    SigningKey,
    canonicalize_many,
    error_codes,
)
from ._remote import RemoteJwks
from ._types import *  # noqa: F401,F403 (the argument types and the result shapes: _types.__all__)
from ._verdict import Check, Outcome, Verdict

__version__ = CORE_VERSION

__all__ = [
    "CAPABILITY_INPUT_MAX_BYTES",
    "CORE_VERSION",
    "ERROR_CODES",
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER_BOUND",
    "Check",
    "EklError",
    "ErrorCode",
    "HostValue",
    "JsonText",
    "JsonValue",
    "KeyRingEntry",
    "Outcome",
    "ReceiptCall",
    "ReceiptKeys",
    "ReceiptToVerify",
    "RemoteJwks",
    "SignedReceiptCall",
    "SigningKey",
    "Verdict",
    "canonicalize_many",
    "new_salt",
    "new_seed",
    "new_signing_key",
    "error_codes",
    # begin: result shapes and refinements (python/tools/gen_stubs.py)
    "ArchiveOutput",
    "AssertionCap",
    "Commitment",
    "ExecutionStatus",
    "FailingCheck",
    "FirstCause",
    "IssuedReceipt",
    "Jwk",
    "JwsTyp",
    "McpListing",
    "McpListingStep",
    "McpWindow",
    "McpWindowStep",
    "PlatformCallPurpose",
    "ProofVersion",
    "Receipt",
    "ReceiptLineSummary",
    "RemoteJwksCause",
    "RemoteJwksDecision",
    "ReplayAdmission",
    "ReplayRestore",
    "ResultBody",
    "SafetyFlag",
    "SaltedCommitment",
    "ScreeningRule",
    "ScreeningRules",
    "ScreeningRulesToken",
    "SignedReceipt",
    "VerifiedAccessToken",
    "VerifiedJws",
    "VerifiedPlatformCall",
    "VerifiedRelationshipAssertion",
    "VerifiedRevocationFeed",
    # end
    # begin: the registry's operations (python/tools/gen_stubs.py writes this block)
    "Jwks",
    "RemoteJwksPolicy",
    "auth_tag",
    "canonicalize",
    "canonicalize_value",
    "challenge_proof_v1",
    "challenge_proof_v2",
    "check_verify_signature",
    "commitment",
    "enroll_authority_v1",
    "enroll_authority_v2",
    "fingerprint",
    "format_timestamp",
    "input_commitment",
    "issue_access_token",
    "issue_execution_grant",
    "issue_mac_receipt",
    "issue_platform_call",
    "issue_receipt",
    "issue_relationship_assertion",
    "issue_revocation_feed",
    "jwks_from_seed",
    "mcp_listing_page",
    "mcp_window",
    "output_fingerprint",
    "proof_key",
    "public_jwk",
    "receipt_digest",
    "receipt_key",
    "replay_admit",
    "replay_answer",
    "replay_key",
    "replay_restore",
    "screen",
    "screening_fold",
    "screening_rules",
    "select_result_body",
    "sha256_hex",
    "sign_jws",
    "sign_receipt",
    "signing_key",
    "signing_key_from_jwk",
    "signing_key_from_pem",
    "summarize_receipt_lines",
    "terms_hash",
    "upstream_fingerprint",
    "upstream_projection",
    "value_digest",
    "verify_access_token",
    "verify_archive",
    "verify_challenge_proof",
    "verify_enroll_authority",
    "verify_execution_grant",
    "verify_jws",
    "verify_platform_call",
    "verify_receipt",
    "verify_receipt_jws",
    "verify_receipt_lines",
    "verify_receipts",
    "verify_relationship_assertion",
    "verify_revocation_feed",
    "verify_screening_rules",
    "verify_signature",
    "verify_signed_receipt",
    # end
]


def __dir__() -> list[str]:
    return sorted(__all__ + ["__version__"])

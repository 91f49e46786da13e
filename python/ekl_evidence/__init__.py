"""ekl_evidence: the bytes of EKP 1.2 evidence, from the Rust core ekl-core.

ekl-json-1 canonical JSON (RFC 8785 with EKP's refusals), SHA-256 commitments, salted and
upstream fingerprints and endpoint proofs, byte-identical to the Rust core and to the Node and
WebAssembly packages, with the same error codes.

Conventions shared with the JS packages:

* functions that take a JSON *value* take a Python value (strict conversion) or a
  :class:`JsonText` (the text path: duplicate keys, integers beyond 2^53 and ``\\ud800`` escapes
  reach the core as written);
* :func:`canonicalize` takes JSON *text* (``str`` or any bytes-like object);
* canonical JSON comes back as ``bytes``, digests as lowercase hex ``str``;
* every refusal raises :class:`EklError` (a ``ValueError``) whose ``code`` is one of
  :data:`ErrorCode`.
"""

from __future__ import annotations

from ._errors import ERROR_CODES, EklError, ErrorCode
from ._native import (
    CAPABILITY_INPUT_MAX_BYTES,
    CORE_VERSION,
    MAX_DEPTH,
    MAX_SAFE_INTEGER_BOUND,
    JsonText,
    canonicalize,
    canonicalize_many,
    canonicalize_value,
    challenge_proof_v1,
    challenge_proof_v2,
    check_verify_signature,
    commitment,
    enroll_authority_v1,
    enroll_authority_v2,
    error_codes,
    fingerprint,
    input_commitment,
    output_fingerprint,
    proof_key,
    select_result_body,
    sha256_hex,
    terms_hash,
    upstream_fingerprint,
    upstream_projection,
    value_digest,
    verify_signature,
)
from ._types import Commitment, HostValue, ResultBody

__version__ = CORE_VERSION

__all__ = [
    "CAPABILITY_INPUT_MAX_BYTES",
    "CORE_VERSION",
    "ERROR_CODES",
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER_BOUND",
    "Commitment",
    "EklError",
    "ErrorCode",
    "HostValue",
    "JsonText",
    "ResultBody",
    "canonicalize",
    "canonicalize_many",
    "canonicalize_value",
    "challenge_proof_v1",
    "challenge_proof_v2",
    "check_verify_signature",
    "commitment",
    "enroll_authority_v1",
    "enroll_authority_v2",
    "error_codes",
    "fingerprint",
    "input_commitment",
    "output_fingerprint",
    "proof_key",
    "select_result_body",
    "sha256_hex",
    "terms_hash",
    "upstream_fingerprint",
    "upstream_projection",
    "value_digest",
    "verify_signature",
]

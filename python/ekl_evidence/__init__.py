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

from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from ._errors import ERROR_CODES, EklError, ErrorCode
from ._native import (
    CAPABILITY_INPUT_MAX_BYTES,
    Jwks,
    SigningKey,
    issue_receipt,
    jwks_from_seed,
    signing_key,
    sign_jws,
    verify_jws,
    verify_screening_rules,
    KeyRing,
    ScreeningRules,
    auth_tag,
    receipt_digest,
    receipt_key,
    screen,
    screening_fold,
    screening_rules,
    sign_receipt,
    verify_challenge_proof,
    verify_enroll_authority,
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
from . import _native
from ._types import Commitment, HostValue, ResultBody
from ._verdict import Check, Outcome, Verdict

__version__ = CORE_VERSION


def verify_receipt(
    receipt: HostValue,
    ring: KeyRing,
    call: Dict[str, str],
    own_input_commitment: Optional[Commitment] = None,
    own_output_commitment: Optional[Commitment] = None,
) -> Verdict:
    """Checks a MAC receipt (profile ekl-evidence-mac-1.1, §9.5) against a :class:`KeyRing`, the
    call the consumer made (``execution_id``, ``collaboration_id``, ``capability_id``,
    ``requester_agent_id``, ``provider_agent_id``, and optionally ``capability_version``,
    ``connection_id``, ``terms_hash``, ``execution_kind``, ``reservation_id``, ``grant_id``,
    ``admission_id``, ``receipt_digest``) and the consumer's own commitments. A receipt that
    can be read always gives a :class:`Verdict`; only one that cannot (not an object, duplicate
    keys, ...) raises :class:`EklError`."""
    return Verdict._from_native(
        _native.verify_receipt(receipt, ring, call, own_input_commitment, own_output_commitment)
    )


def verify_receipt_jws(receipt_jws: str, jwks: Jwks, call: Mapping[str, Any]) -> Verdict:
    """Checks a network-signed receipt's compact JWS (profile ekl-evidence-sig-1.2, §9.5.1) claim
    by claim against the call: ``call`` has ``execution_id``, ``provider_agent_id``,
    ``requester_agent_id``, ``capability_id``, ``input_fingerprint``, ``own_agent_id``,
    ``network_issuer`` (str) and ``sent_at``, ``received_at`` (int seconds, the caller's clock).
    ``receipt_digest`` is the SHA-256 of the compact JWS."""
    return Verdict._from_native(_native.verify_receipt_jws(receipt_jws, jwks, call))


def verify_signed_receipt(receipt: HostValue, jwks: Jwks, call: Mapping[str, Any]) -> Verdict:
    """Checks a network-signed receipt object: its ``signature`` over the ekl-json-1 bytes of its
    other fields, its ``receipt_jws`` (as :func:`verify_receipt_jws`) and that both agree."""
    return Verdict._from_native(_native.verify_signed_receipt(receipt, jwks, call))


def verify_receipts(
    ring: KeyRing, items: Iterable[Mapping[str, Any]]
) -> List[Union[Verdict, EklError]]:
    """Many receipts against one key ring, verified with the GIL released. Each item is a dict
    ``{"receipt", "call", "own_input_commitment"?, "own_output_commitment"?}``; the result has
    one entry per item, in order: its :class:`Verdict`, or the :class:`EklError` of a receipt
    that cannot be read (returned, not raised, so one bad receipt does not hide the others)."""
    out: List[Union[Verdict, EklError]] = []
    for r in _native.verify_receipts(ring, items):
        out.append(r if isinstance(r, EklError) else Verdict._from_native(r))
    return out

__all__ = [
    "CAPABILITY_INPUT_MAX_BYTES",
    "CORE_VERSION",
    "ERROR_CODES",
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER_BOUND",
    "Check",
    "Commitment",
    "EklError",
    "ErrorCode",
    "HostValue",
    "JsonText",
    "Jwks",
    "KeyRing",
    "Outcome",
    "ResultBody",
    "ScreeningRules",
    "SigningKey",
    "Verdict",
    "auth_tag",
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
    "issue_receipt",
    "jwks_from_seed",
    "output_fingerprint",
    "proof_key",
    "receipt_digest",
    "receipt_key",
    "screen",
    "screening_fold",
    "screening_rules",
    "select_result_body",
    "sha256_hex",
    "sign_jws",
    "sign_receipt",
    "signing_key",
    "terms_hash",
    "upstream_fingerprint",
    "upstream_projection",
    "value_digest",
    "verify_challenge_proof",
    "verify_enroll_authority",
    "verify_jws",
    "verify_receipt",
    "verify_receipt_jws",
    "verify_receipts",
    "verify_screening_rules",
    "verify_signature",
    "verify_signed_receipt",
]

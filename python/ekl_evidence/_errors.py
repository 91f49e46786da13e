"""The one exception of ekl_evidence and the codes it carries."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["ERROR_CODES", "EklError", "ErrorCode"]

# The stable codes of ekl_core::ErrorCode, in declaration order: written by
# python/tools/gen_stubs.py from docs/errors.json (generated from core/src/error.rs; the meaning of
# each code is in docs/errors.md). tests/test_errors.py fails when this block is stale.
# fmt: off
# begin: ErrorCode (python/tools/gen_stubs.py writes this block from docs/errors.json)
ErrorCode = Literal[
    "INVALID_JSON",
    "INVALID_UTF8",
    "LONE_SURROGATE",
    "DUPLICATE_KEY",
    "NON_FINITE_NUMBER",
    "INTEGER_OUT_OF_RANGE",
    "INPUT_TOO_DEEP",
    "BODY_TOO_LARGE",
    "UNSUPPORTED_TYPE",
    "NON_STRING_KEY",
    "CYCLIC_VALUE",
    "INVALID_SALT",
    "INVALID_SHAPE",
    "INVALID_HEX",
    "INVALID_RECEIPT",
    "INVALID_TIMESTAMP",
    "INVALID_ARGUMENT",
    "PROOF_DOWNGRADE",
    "PROOF_INVALID",
    "ENROLLMENT_AUTH_REQUIRED",
    "JWS_MALFORMED",
    "INVALID_BASE64URL",
    "ALG_NOT_ALLOWED",
    "TYP_MISMATCH",
    "KID_MISSING",
    "UNKNOWN_KID",
    "UNSUPPORTED_KEY",
    "JWKS_UNAVAILABLE",
    "CRIT_NOT_SUPPORTED",
    "SIGNATURE_INVALID",
    "INVALID_JWKS",
    "INVALID_KEY",
    "CLAIM_MISSING",
    "CLAIM_INVALID",
    "ISSUER_MISMATCH",
    "AUDIENCE_MISMATCH",
    "TOKEN_EXPIRED",
    "TOKEN_NOT_YET_VALID",
    "LIFETIME_TOO_LONG",
    "PURPOSE_MISMATCH",
    "ASSERTION_REPLAY",
    "CREDENTIAL_REPLAY",
    "REPLAY_STORE_FULL",
    "REPLAY_STORE_UNAVAILABLE",
    "MCP_INVALID_MESSAGE",
    "MCP_AMBIGUOUS_ANSWER",
    "MCP_NO_ANSWER",
    "MCP_BAD_CURSOR",
    "MCP_UNSUPPORTED_ENCODING",
    "MCP_TIMEOUT",
    "INTERNAL_ERROR",
]
# end
# fmt: on

#: Every code, as a tuple (the same list as ``ErrorCode``).
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)


class EklError(ValueError):
    """A refusal of ekl-core: ``code`` is the core's stable string, ``message`` a short reason.

    Messages never contain keys, secrets, tags or payloads.
    """

    code: ErrorCode
    message: str

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __repr__(self) -> str:
        return f"EklError({self.code!r}, {self.message!r})"

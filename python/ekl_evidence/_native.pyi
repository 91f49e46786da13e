# Stubs of the compiled module ekl_evidence._native (checked by `python -m mypy.stubtest`).
# The operations themselves are typed in _api.pyi (generated from docs/operations.json).
from collections.abc import Iterable
from typing import Any, Optional, Union, final

__all__ = [
    "CAPABILITY_INPUT_MAX_BYTES",
    "CORE_VERSION",
    "Handle",
    "JsonText",
    "Jwks",
    "MAX_DEPTH",
    "MAX_SAFE_INTEGER_BOUND",
    "SigningKey",
    "call",
    "canonicalize",
    "canonicalize_many",
    "canonicalize_value",
    "error_codes",
    "operations",
    "roundtrip",
]

_Text = Union[str, bytes, bytearray, memoryview, "JsonText"]

MAX_DEPTH: int
"""The deepest nesting accepted (PROTOCOL §2.5): an array or object is one level; 64."""
CAPABILITY_INPUT_MAX_BYTES: int
"""The size limit of a capability call's input as ekl-json-1: 262144 bytes (PROTOCOL §2.5)."""
MAX_SAFE_INTEGER_BOUND: int
"""2^53: the largest magnitude of an integer ekl-json-1 accepts."""
CORE_VERSION: str
"""The version of the Rust core this module was built from."""

@final
class Handle:
    """A machine's handle (docs/decisions/handles.md): the core's machine behind its own lock.
    The package wraps it in the class the manifest's ``handles`` names (``RemoteJwksPolicy``)."""

    @property
    def class_name(self) -> str:
        """The handle's class name."""

@final
class JsonText:
    """JSON text, accepted wherever a value is: the core parses it with every ekl-json-1 rule
    (duplicate keys, integers beyond 2^53, lone surrogate escapes reach it as written)."""

    def __new__(cls, text: Union[str, bytes, bytearray, memoryview]) -> JsonText: ...
    @property
    def data(self) -> bytes:
        """The text's UTF-8 bytes."""
    def __len__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Jwks:
    """A validated JWKS of P-256 keys, parsed once for many verifications. Keys of another kind
    (RSA, other curves, ``use: "enc"``, no ``kid``) are skipped; a malformed P-256 key refuses the
    set (``INVALID_JWKS``)."""

    def __new__(cls, jwks: Any) -> Jwks: ...
    def kids(self) -> list[str]:
        """The key ids, in the set's order."""
    def to_json(self) -> str:
        """The set as JSON text ``{"keys": [...]}`` (the usable keys)."""
    def __len__(self) -> int: ...

@final
class SigningKey:
    """An ES256 signing key (from ``signing_key``, ``signing_key_from_jwk`` or
    ``signing_key_from_pem``); its secret never leaves the core."""

    @staticmethod
    def from_jwk(jwk: _Text) -> SigningKey:
        """A key from a private JWK's text (``d``, with or without ``x`` and ``y``)."""
    @property
    def kid(self) -> str:
        """The key id it signs under."""
    def public_jwks(self) -> Jwks:
        """The key set of its public key alone."""

def call(index: int, args: tuple[Any, ...]) -> Any: ...
def operations() -> str: ...
def canonicalize(text: _Text, *, max_bytes: Optional[int] = None) -> bytes: ...
def canonicalize_value(value: Any, *, max_bytes: Optional[int] = None) -> bytes: ...
def canonicalize_many(texts: Iterable[_Text], *, max_bytes: Optional[int] = None) -> list[bytes]:
    """``canonicalize`` of many JSON texts, with the GIL released; the first refusal raises."""
def error_codes() -> list[str]:
    """Every error code of the core, in declaration order."""
def roundtrip(value: Any) -> Any: ...

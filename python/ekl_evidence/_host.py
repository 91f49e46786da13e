"""Helpers that need the host: randomness (the core never reads a random source)."""

from __future__ import annotations

import secrets

from ._native import SigningKey

__all__ = ["new_salt", "new_seed", "new_signing_key"]


def new_salt() -> str:
    """A fresh salt for commitments and fingerprints (PROTOCOL §15.3): 32 bytes from the
    operating system's CSPRNG (``secrets``), as the 64 lowercase hex characters every ``salt``
    argument takes."""
    return secrets.token_hex(32)


def new_seed() -> str:
    """A fresh seed for ES256 keys: 32 bytes from the operating system's CSPRNG (``secrets``) as
    64 lowercase hex. It is the secret of the keys ``signing_key(seed, kid)`` and
    ``jwks_from_seed(seed, kids)`` derive (one key per kid): keep it as you would keep a private
    key, and derive the key from it at start."""
    return secrets.token_hex(32)


def new_signing_key(kid: str) -> SigningKey:
    """A fresh random ES256 signing key under ``kid``: ``signing_key(new_seed(), kid)``, the seed
    drawn from the operating system's CSPRNG and not kept (the key lives as long as the object;
    its secret never leaves the core). For a key to keep, store ``new_seed()`` and call
    ``signing_key(seed, kid)``; ``key.public_jwks()`` is the key set to publish."""
    from ._api import signing_key  # _api imports this module: at call time

    return signing_key(new_seed(), kid)

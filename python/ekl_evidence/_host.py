"""Helpers that need the host: randomness (the core never reads a random source)."""

from __future__ import annotations

import secrets

__all__ = ["new_salt"]


def new_salt() -> str:
    """A fresh salt for commitments and fingerprints (PROTOCOL §15.3): 32 bytes from the
    operating system's CSPRNG (``secrets``), as the 64 lowercase hex characters every ``salt``
    argument takes."""
    return secrets.token_hex(32)

"""Shapes of the values that go in and the dicts that come out (documented, and typed for mypy)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = ["Commitment", "HostValue", "ResultBody"]

#: A Python value for the strict conversion: None, bool, int, float, str, list, tuple, dict with
#: str keys (and the subclasses named in the README), nested at most 64 deep. Typed as ``Any``
#: because ``dict`` and ``list`` are invariant; the conversion checks every value at run time.
HostValue = Any

#: Which body of an MCP tool result a fingerprint covers.
ResultBody = Literal["structuredContent", "content"]


class _CommitmentRequired(TypedDict):
    alg: Literal["sha-256"]
    canon: Literal["ekl-json-1"]
    digest: str


class Commitment(_CommitmentRequired, total=False):
    """``{"alg": "sha-256", "canon": "ekl-json-1", "digest": hex}``, plus ``salt_id`` and the
    disclosed ``salt`` (64 lowercase hex) when the commitment is salted."""

    salt_id: str
    salt: str

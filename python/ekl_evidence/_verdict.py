"""Typed verdicts of receipt verification (the shape of ekl_core::verdict)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Optional

__all__ = ["Check", "Outcome", "Verdict"]

#: ``pass``: the check holds; ``fail``: it does not, the receipt is refused; ``mismatch``: a
#: commitment differs from the consumer's own (authentic evidence of a dispute, to report).
Outcome = Literal["pass", "fail", "mismatch"]


@dataclass(frozen=True)
class Check:
    """One named check (stable snake_case name) and its outcome; ``detail`` says why it did not
    pass; ``expected`` and ``received`` are display texts of what the verifier expected and what
    the receipt holds (bounded; never a secret, tag, signature or salt; None when there is
    nothing to show); ``reason`` is a failing ``key_id``'s cause (``unknown_key``,
    ``key_not_yet_valid``, ``key_expired``); ``blocked_by`` names the failed check that left this
    one not checked (a knock-on: ``auth_tag`` without a usable key; docs/decisions.md#triage)."""

    name: str
    outcome: Outcome
    detail: Optional[str] = None
    expected: Optional[str] = None
    received: Optional[str] = None
    reason: Optional[str] = None
    blocked_by: Optional[str] = None


@dataclass(frozen=True)
class Verdict:
    """Every check of a receipt; ``accepted`` only when all pass. ``receipt_digest`` is what the
    consumer reports in ``collaboration_report`` (None when it could not be computed)."""

    accepted: bool
    checks: tuple[Check, ...]
    receipt_digest: Optional[str]

    def check(self, name: str) -> Optional[Check]:
        """The check called ``name``, if the verdict holds one."""
        for c in self.checks:
            if c.name == name:
                return c
        return None

    def failed(self) -> list[str]:
        """The names of the checks that did not pass."""
        return [c.name for c in self.checks if c.outcome != "pass"]

    @property
    def disputed(self) -> bool:
        """True when nothing failed but a commitment mismatched: authentic evidence that the
        provider committed to another input or result than the consumer's."""
        return bool(self.checks) and all(c.outcome != "fail" for c in self.checks) and any(
            c.outcome == "mismatch" for c in self.checks
        )

    def __repr__(self) -> str:
        """Short: the outcome, the checks that did not pass first (at most 5), the count."""
        bad = [f"{c.name}={c.outcome}" for c in self.checks if c.outcome != "pass"]
        shown = ", ".join(bad[:5]) + (f", +{len(bad) - 5} more" if len(bad) > 5 else "")
        passed = len(self.checks) - len(bad)
        return (
            f"Verdict(accepted={self.accepted}, "
            + (f"not passed=[{shown}], " if bad else "")
            + f"{passed}/{len(self.checks)} checks pass)"
        )

    def to_wire(self) -> dict[str, Any]:
        """The wire shape: ``{accepted, checks: [{name, outcome, detail?, expected?,
        received?, reason?, blocked_by?}], receipt_digest}`` (the core's, member for member)."""
        checks = []
        for c in self.checks:
            d: dict[str, Any] = {"name": c.name, "outcome": c.outcome}
            for k in ("detail", "expected", "received", "reason", "blocked_by"):
                v = getattr(c, k)
                if v is not None:
                    d[k] = v
            checks.append(d)
        return {"accepted": self.accepted, "checks": checks, "receipt_digest": self.receipt_digest}

    @classmethod
    def _from_wire(cls, raw: Any) -> Verdict:
        """From the wire shape ``{accepted, checks: [{name, outcome, detail?, expected?,
        received?, reason?, blocked_by?}], receipt_digest}``."""
        checks = tuple(
            Check(c["name"], c["outcome"], c.get("detail"), c.get("expected"), c.get("received"),
                  c.get("reason"), c.get("blocked_by"))
            for c in raw["checks"]
        )
        return cls(bool(raw["accepted"]), checks, raw.get("receipt_digest"))

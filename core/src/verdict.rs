//! Structured verdicts of the verifiers (receipts of PROTOCOL §9.5 and §9.5.1).
//!
//! A verifier that checks many independent things about one piece of evidence does not stop at the
//! first problem: it returns a [`Verdict`] naming every [`Check`] it ran and its [`Outcome`]. A
//! difference between the evidence and the caller's own view that is worth a dispute (the
//! consumer's commitments against the receipt's) is an [`Outcome::Mismatch`], not an error.

use std::borrow::Cow;

use crate::value::Value;

/// The outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The check holds.
    Pass,
    /// The check does not hold: the evidence is not acceptable as it is.
    Fail,
    /// The evidence is well-formed and authentic but disagrees with the caller's own view
    /// (dispute-worthy, §9.5: "differing ones make it a dispute").
    Mismatch,
}

impl Outcome {
    /// The stable lower-case name: `pass`, `fail` or `mismatch`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Mismatch => "mismatch",
        }
    }

    /// The outcome named by [`Outcome::as_str`].
    pub fn from_name(name: &str) -> Option<Outcome> {
        match name {
            "pass" => Some(Outcome::Pass),
            "fail" => Some(Outcome::Fail),
            "mismatch" => Some(Outcome::Mismatch),
            _ => None,
        }
    }
}

/// One named check of a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The stable name of the check (for a receipt, mostly the field it is about).
    pub name: &'static str,
    /// What the check found.
    pub outcome: Outcome,
    /// A short reason for a failure or mismatch; never a secret, tag or payload.
    pub detail: Option<String>,
}

impl Check {
    /// A passing check.
    pub fn pass(name: &'static str) -> Check {
        Check {
            name,
            outcome: Outcome::Pass,
            detail: None,
        }
    }

    /// A failing check with its reason.
    pub fn fail(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            outcome: Outcome::Fail,
            detail: Some(detail.into()),
        }
    }

    /// A mismatching check with its reason.
    pub fn mismatch(name: &'static str, detail: impl Into<String>) -> Check {
        Check {
            name,
            outcome: Outcome::Mismatch,
            detail: Some(detail.into()),
        }
    }
}

/// The verdict on one piece of evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// True when every check passed.
    pub accepted: bool,
    /// Every check that was run, in a fixed order.
    pub checks: Vec<Check>,
    /// The evidence's digest (for a MAC receipt: SHA-256 of ekl-json-1 of the whole receipt),
    /// when it could be computed.
    pub receipt_digest: Option<String>,
}

impl Verdict {
    /// A verdict over `checks`: accepted exactly when every one passed.
    pub fn from_checks(checks: Vec<Check>, receipt_digest: Option<String>) -> Verdict {
        let accepted = checks.iter().all(|c| c.outcome == Outcome::Pass);
        Verdict {
            accepted,
            checks,
            receipt_digest,
        }
    }

    /// The check named `name`, if it was run.
    pub fn check(&self, name: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.name == name)
    }

    /// The outcome of the check named `name`, if it was run.
    pub fn outcome(&self, name: &str) -> Option<Outcome> {
        self.check(name).map(|c| c.outcome)
    }

    /// The verdict as JSON: `{"accepted", "checks": [{"name", "outcome"[, "detail"]}],
    /// "receipt_digest"}` (`receipt_digest` null when unknown).
    pub fn to_value(&self) -> Value<'static> {
        let checks = self
            .checks
            .iter()
            .map(|c| {
                let mut m: Vec<(Cow<'static, str>, Value<'static>)> = vec![
                    (Cow::Borrowed("name"), Value::from(c.name)),
                    (Cow::Borrowed("outcome"), Value::from(c.outcome.as_str())),
                ];
                if let Some(d) = &c.detail {
                    m.push((Cow::Borrowed("detail"), Value::from(d.clone())));
                }
                Value::Object(m)
            })
            .collect();
        Value::Object(vec![
            (Cow::Borrowed("accepted"), Value::Bool(self.accepted)),
            (Cow::Borrowed("checks"), Value::Array(checks)),
            (
                Cow::Borrowed("receipt_digest"),
                self.receipt_digest.clone().map_or(Value::Null, Value::from),
            ),
        ])
    }

    /// True when nothing failed but at least one check mismatched: authentic evidence that the
    /// caller disputes.
    pub fn is_dispute(&self) -> bool {
        !self.checks.iter().any(|c| c.outcome == Outcome::Fail)
            && self.checks.iter().any(|c| c.outcome == Outcome::Mismatch)
    }
}

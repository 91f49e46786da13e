//! Structured verdicts of receipt verification (PROTOCOL §9.5, §9.5.1; SPEC §6, §7).
//!
//! A receipt that can be read at all is never answered with a bare error: the verifier returns a
//! [`Verdict`] that names every check and its [`Outcome`], so a consumer can tell a forged or
//! mismatched receipt (refuse, do not acknowledge) from a difference of commitments (a dispute to
//! report) and can show which check failed. Only input that cannot be read at all (not JSON, not
//! a JWS, an unknown key) is an error.

use std::borrow::Cow;

use crate::value::Value;

/// The outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The check holds.
    Pass,
    /// The check does not hold: the receipt is refused.
    Fail,
    /// A commitment or fingerprint of the receipt differs from the consumer's own: a dispute-worthy
    /// difference, reported rather than thrown (the receipt is not accepted either).
    Mismatch,
}

impl Outcome {
    /// `"pass"`, `"fail"` or `"mismatch"`.
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

/// One named check and its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// A stable snake_case name (part of the public contract, like error codes).
    pub name: &'static str,
    /// The outcome.
    pub outcome: Outcome,
    /// Why it did not pass (short, lower-case, never a secret, tag or payload).
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

    /// A check with `outcome` and a reason.
    pub fn new(name: &'static str, outcome: Outcome, detail: impl Into<String>) -> Check {
        Check {
            name,
            outcome,
            detail: Some(detail.into()),
        }
    }

    /// A failing check with its reason.
    pub fn fail(name: &'static str, detail: impl Into<String>) -> Check {
        Check::new(name, Outcome::Fail, detail)
    }

    /// A mismatching check with its reason.
    pub fn mismatch(name: &'static str, detail: impl Into<String>) -> Check {
        Check::new(name, Outcome::Mismatch, detail)
    }

    /// `pass` when `ok`, otherwise `outcome` with `detail`.
    pub fn when(name: &'static str, ok: bool, outcome: Outcome, detail: &str) -> Check {
        if ok {
            Check::pass(name)
        } else {
            Check::new(name, outcome, detail)
        }
    }
}

/// The verdict on a receipt: every check, accepted only when all pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// True when every check passed.
    pub accepted: bool,
    /// Every check, in a fixed order per receipt profile.
    pub checks: Vec<Check>,
    /// The receipt's digest for `collaboration_report` / `abuse_report`, when it could be computed
    /// (for a network-signed receipt: SHA-256 hex of the compact JWS's ASCII bytes).
    pub receipt_digest: Option<String>,
}

impl Verdict {
    /// A verdict over `checks`; `accepted` is true only when every check passed.
    pub fn new(checks: Vec<Check>, receipt_digest: Option<String>) -> Verdict {
        Verdict {
            accepted: checks.iter().all(|c| c.outcome == Outcome::Pass),
            checks,
            receipt_digest,
        }
    }

    /// The check called `name`, if the verdict holds one.
    pub fn check(&self, name: &str) -> Option<&Check> {
        self.checks.iter().find(|c| c.name == name)
    }

    /// The names of the checks that did not pass.
    pub fn failed(&self) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|c| c.outcome != Outcome::Pass)
            .map(|c| c.name)
            .collect()
    }

    /// The outcome of the check named `name`, if the verdict holds one.
    pub fn outcome(&self, name: &str) -> Option<Outcome> {
        self.check(name).map(|c| c.outcome)
    }

    /// True when nothing failed but at least one check mismatched: authentic evidence that the
    /// caller disputes (§9.5 "differing ones make it a dispute").
    pub fn is_dispute(&self) -> bool {
        !self.checks.iter().any(|c| c.outcome == Outcome::Fail) && self.has_mismatch()
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

    /// True when some check is a [`Outcome::Mismatch`] (a dispute to report).
    pub fn has_mismatch(&self) -> bool {
        self.checks.iter().any(|c| c.outcome == Outcome::Mismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_only_when_all_pass() {
        let v = Verdict::new(vec![Check::pass("a"), Check::pass("b")], None);
        assert!(v.accepted);
        let v = Verdict::new(
            vec![
                Check::pass("a"),
                Check::when("b", false, Outcome::Mismatch, "differs"),
            ],
            Some("d".into()),
        );
        assert!(!v.accepted);
        assert!(v.has_mismatch());
        assert_eq!(v.failed(), vec!["b"]);
        assert_eq!(v.check("b").map(|c| c.outcome.as_str()), Some("mismatch"));
        assert!(v.is_dispute());
        let v = Verdict::new(
            vec![Check::fail("a", "no"), Check::mismatch("b", "differs")],
            None,
        );
        assert!(!v.is_dispute() && v.has_mismatch());
        assert_eq!(v.outcome("a"), Some(Outcome::Fail));
        let json = crate::canonical::canonicalize_value(&v.to_value()).expect("json");
        assert_eq!(
            json,
            br#"{"accepted":false,"checks":[{"detail":"no","name":"a","outcome":"fail"},{"detail":"differs","name":"b","outcome":"mismatch"}],"receipt_digest":null}"#
        );
        for o in [Outcome::Pass, Outcome::Fail, Outcome::Mismatch] {
            assert_eq!(Outcome::from_name(o.as_str()), Some(o));
        }
    }
}

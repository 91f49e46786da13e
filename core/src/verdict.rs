//! Structured verdicts of receipt verification (PROTOCOL §9.5, §9.5.1; SPEC §6, §7).
//!
//! A receipt that can be read at all is never answered with a bare error: the verifier returns a
//! [`Verdict`] that names every check and its [`Outcome`], so a consumer can tell a forged or
//! mismatched receipt (refuse, do not acknowledge) from a difference of commitments (a dispute to
//! report) and can show which check failed. Only input that cannot be read at all (not JSON, not
//! a JWS, an unknown key) is an error.
//!
//! A check may also carry the value the verifier expected and the value it found
//! ([`Check::expected`], [`Check::received`]), so that a person can see *how* a check failed (which
//! execution id the receipt names, by how many seconds `iat` misses the call window). These are
//! display texts, bounded to [`MAX_SHOWN_BYTES`]: a value of the receipt or the call is shown as its
//! ekl-json-1 text (strings quoted, so `"1.1"` and `1.1` differ), a constraint that is not one value
//! (a window, a set) in words. Tags, signatures, keys and secrets are never shown: checks of a MAC
//! tag or a signature carry no values (docs/decisions.md, "Dashboard").

use std::borrow::Cow;

use crate::canonical;
use crate::value::Value;

/// The longest [`Check::expected`] or [`Check::received`] text, in bytes; a longer one is cut at a
/// character boundary and ends in `…`.
pub const MAX_SHOWN_BYTES: usize = 200;

/// `text` cut to at most [`MAX_SHOWN_BYTES`] bytes (plus `…` when cut), at a character boundary.
pub fn shown(text: impl Into<String>) -> String {
    let mut text = text.into();
    if text.len() > MAX_SHOWN_BYTES {
        let mut end = MAX_SHOWN_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// A JSON value as a display text: its ekl-json-1 text (a string in quotes), bounded by [`shown`].
/// A value that has no ekl-json-1 form (not possible for parsed input) is shown as `?`.
pub fn json_shown(value: &Value<'_>) -> String {
    match canonical::canonicalize_value(value) {
        Ok(bytes) => shown(String::from_utf8_lossy(&bytes).into_owned()),
        Err(_) => "?".to_owned(),
    }
}

/// A string as its JSON text (in quotes, escaped as ekl-json-1 escapes it), bounded by [`shown`].
pub fn str_shown(text: &str) -> String {
    json_shown(&Value::String(Cow::Borrowed(text)))
}

/// Seconds since the epoch as RFC 3339 UTC (`YYYY-MM-DDTHH:MM:SSZ`), for years 0000–9999;
/// `None` outside them.
pub fn utc_of_seconds(secs: i64) -> Option<String> {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil from days (Howard Hinnant's algorithm), proleptic Gregorian.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    if !(0..=9999).contains(&year) {
        return None;
    }
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    ))
}

/// Seconds since the epoch with their UTC time: `1780000000 (2026-05-28T20:26:40Z)`.
pub fn seconds_shown(secs: i64) -> String {
    match utc_of_seconds(secs) {
        Some(utc) => format!("{secs} ({utc})"),
        None => secs.to_string(),
    }
}

/// Every check id a verdict of the core can hold, in plain words: what the check compares, as a
/// noun phrase, so that "MAC tag over the receipt (auth_tag): fail" reads right. For people: the
/// CLI's human form (`ekl receipt verify` on a terminal) and the receipt dashboard print these
/// beside the ids; `docs/check-words.json` and `examples/dashboard/check-words.js` are generated
/// copies (`EKL_BLESS=1 cargo test --release -p ekl-core --test check_words`). Ids shared by the
/// MAC and the network-signed profiles (`execution_id`, …) mean the same in both.
/// `core/tests/check_words.rs` checks that every check the verifiers emit is here and nothing
/// else, and that both copies are fresh.
pub const CHECK_WORDS: &[(&str, &str)] = &[
    // MAC receipts (ekl-evidence-mac-1.1, receipt::verify_receipt), in verdict order.
    ("key_id", "receipt key known and valid at issue time"),
    ("auth_tag", "MAC tag over the receipt"),
    ("receipt_version", "receipt version 1.1"),
    ("auth_profile", "MAC profile ekl-evidence-mac-1.1"),
    ("execution_kind", "kind of execution"),
    ("required_fields", "required members, of the right types"),
    ("kind_fields", "members this kind of execution needs"),
    ("status", "known execution status"),
    ("issued_at", "issue time in RFC 3339 UTC"),
    ("execution_id", "execution id of your call"),
    ("collaboration_id", "collaboration of your call"),
    ("capability_id", "capability of your call"),
    ("requester_agent_id", "you as the requester"),
    ("provider_agent_id", "provider of your call"),
    ("capability_version", "capability version of your call"),
    ("connection_id", "connection of your call"),
    ("terms_hash", "terms of your call"),
    ("reservation_id", "reservation of your call"),
    ("grant_id", "grant of your call"),
    ("admission_id", "admission of your call"),
    ("input_commitment", "commitment to the input you sent"),
    ("output_commitment", "commitment to the result you received"),
    ("receipt_digest", "the receipt digest you expected"),
    // Network-signed receipts (ekl-evidence-sig-1.2, receipt_sig), in verdict order.
    (
        "object_signature",
        "network signature of the receipt object",
    ),
    ("alg_typ", "token type and ES256 algorithm"),
    ("signature", "network signature, by a key of the JWKS"),
    ("iss", "issued by your network"),
    ("aud", "addressed to you"),
    ("input_fingerprint", "fingerprint of the input you sent"),
    ("iat_matches_issued_at", "signing time equals issue time"),
    ("iat_in_call_window", "signed during your call, ±60 s"),
    ("object_matches_jws", "receipt object agrees with its token"),
];

/// The plain words of check `name` ([`CHECK_WORDS`]), if it is one of the core's.
pub fn check_words(name: &str) -> Option<&'static str> {
    CHECK_WORDS
        .iter()
        .find(|(id, _)| *id == name)
        .map(|(_, words)| *words)
}

/// [`CHECK_WORDS`] as canonical JSON, `{"check_id": "words", ...}` and a line end: the text of
/// `docs/check-words.json`.
pub fn check_words_json() -> String {
    let members = CHECK_WORDS
        .iter()
        .map(|(id, words)| (Cow::Borrowed(*id), Value::from(*words)))
        .collect();
    let bytes = canonical::canonicalize_value(&Value::Object(members)).unwrap_or_default();
    let mut text = String::from_utf8(bytes).unwrap_or_default();
    text.push('\n');
    text
}

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
    /// What the verifier expected, as a display text (see the module docs); `None` when the check
    /// has no value to show (a tag, a signature) or it was not given.
    pub expected: Option<String>,
    /// What the receipt holds, as a display text (see the module docs); `None` when the member is
    /// absent or the check has no value to show.
    pub received: Option<String>,
    /// Why the check did not pass, as a stable code, where one check covers causes a person
    /// handles differently ([`REASONS`]: `key_id`'s unknown, not yet valid or expired key);
    /// `None` otherwise. In the verdict's JSON ([`Verdict::to_value`]) and an archive's summary
    /// (`batch::summarize_line`) when set.
    pub reason: Option<&'static str>,
    /// The check whose failure left this one unchecked (`auth_tag` without a usable key is
    /// blocked by `key_id`): a knock-on, not a cause of its own ([`Verdict::first_cause`]). Its
    /// outcome stays a failure (the receipt is not accepted); `None` for a check that was made.
    pub blocked_by: Option<&'static str>,
}

/// The stable codes of [`Check::reason`]: `key_id` failed because the receipt's key is not in the
/// ring (`unknown_key`), its window opens after `issued_at` (`key_not_yet_valid`) or closed
/// before it (`key_expired`). docs/decisions/dashboard.md#triage.
pub const REASONS: &[&str] = &["unknown_key", "key_not_yet_valid", "key_expired"];

impl Check {
    /// A passing check.
    pub fn pass(name: &'static str) -> Check {
        Check {
            name,
            outcome: Outcome::Pass,
            detail: None,
            expected: None,
            received: None,
            reason: None,
            blocked_by: None,
        }
    }

    /// A check with `outcome` and a reason.
    pub fn new(name: &'static str, outcome: Outcome, detail: impl Into<String>) -> Check {
        Check {
            name,
            outcome,
            detail: Some(detail.into()),
            expected: None,
            received: None,
            reason: None,
            blocked_by: None,
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

    /// The check as JSON: `{"name", "outcome"[, "detail"]}`, with `[, "expected"][, "received"]
    /// [, "reason"][, "blocked_by"]` when `values` (each member only when the check has it).
    pub fn to_value(&self, values: bool) -> Value<'static> {
        let mut m: Vec<(Cow<'static, str>, Value<'static>)> = vec![
            (Cow::Borrowed("name"), Value::from(self.name)),
            (Cow::Borrowed("outcome"), Value::from(self.outcome.as_str())),
        ];
        let shown: &[(&str, &Option<String>)] = if values {
            &[
                ("detail", &self.detail),
                ("expected", &self.expected),
                ("received", &self.received),
            ]
        } else {
            &[("detail", &self.detail)]
        };
        for (key, text) in shown {
            if let Some(t) = text {
                m.push((Cow::Borrowed(*key), Value::from(t.clone())));
            }
        }
        if values {
            for (key, code) in [("reason", self.reason), ("blocked_by", self.blocked_by)] {
                if let Some(code) = code {
                    m.push((Cow::Borrowed(key), Value::from(code)));
                }
            }
        }
        Value::Object(m)
    }

    /// This check with `reason`, a code of [`REASONS`] ([`Check::reason`]).
    pub fn because(mut self, reason: &'static str) -> Check {
        self.reason = Some(reason);
        self
    }

    /// This check as a knock-on of the failure of check `name` ([`Check::blocked_by`]).
    pub fn blocked_by(mut self, name: &'static str) -> Check {
        self.blocked_by = Some(name);
        self
    }

    /// This check with the expected and the received value (each bounded by [`shown`]).
    pub fn with_values(mut self, expected: Option<String>, received: Option<String>) -> Check {
        self.expected = expected.map(shown);
        self.received = received.map(shown);
        self
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

    /// The first cause of a verdict that is not accepted: its first check (in the verdict's order)
    /// that did not pass and was made, i.e. is not [`Check::blocked_by`] another's failure. A
    /// table of receipts counts each failed receipt once, under this check (and its
    /// [`Check::reason`]); the knock-on checks are shown as "not checked". `None` when accepted.
    /// (Every knock-on names a check that precedes it and failed, so a failed verdict always has
    /// one; were it not so, the first failing check is returned.)
    pub fn first_cause(&self) -> Option<&Check> {
        let mut failing = self.checks.iter().filter(|c| c.outcome != Outcome::Pass);
        let first = failing.clone().next()?;
        Some(failing.find(|c| c.blocked_by.is_none()).unwrap_or(first))
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

    /// The verdict as JSON: `{"accepted", "checks": [{"name", "outcome"[, "detail"][, "expected"]
    /// [, "received"]}], "receipt_digest"}` (`receipt_digest` null when unknown; `detail`,
    /// `expected` and `received` only when the check has them).
    pub fn to_value(&self) -> Value<'static> {
        let checks = self.checks.iter().map(|c| c.to_value(true)).collect();
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

    #[test]
    fn the_first_cause_skips_knock_ons() {
        // A knock-on before the cause it names is not the cause; codes never reach the JSON.
        let v = Verdict::new(
            vec![
                Check::pass("a"),
                Check::fail("key_id", "no issued_at").blocked_by("issued_at"),
                Check::fail("auth_tag", "no key").blocked_by("key_id"),
                Check::fail("issued_at", "not RFC 3339"),
                Check::fail("status", "unknown"),
            ],
            None,
        );
        assert_eq!(v.first_cause().map(|c| c.name), Some("issued_at"));
        let json = crate::canonical::canonicalize_value(&v.to_value()).expect("json");
        let json = String::from_utf8(json).expect("utf-8");
        assert!(json.contains(r#""blocked_by":"key_id","detail":"no key","name":"auth_tag""#));
        // The short form (a summary's failing checks) leaves the values out.
        let short = v.checks[2].to_value(false);
        assert!(short.get("blocked_by").is_none());
        // Only knock-ons (cannot happen with the core's checks): the first failing check.
        let v = Verdict::new(vec![Check::fail("x", "y").blocked_by("z")], None);
        assert_eq!(v.first_cause().map(|c| c.name), Some("x"));
        let v = Verdict::new(vec![Check::pass("a")], None);
        assert!(v.first_cause().is_none());
        let c = Check::fail("key_id", "unknown key_id").because("unknown_key");
        assert!(REASONS.contains(&c.reason.expect("reason")));
    }

    #[test]
    fn values_are_bounded_and_serialised() {
        let c = Check::fail("execution_id", "differs from the call")
            .with_values(Some(str_shown("ex_1")), Some(str_shown("ex_\"2\"")));
        let v = Verdict::new(vec![c], None);
        let json = crate::canonical::canonicalize_value(&v.to_value()).expect("json");
        assert_eq!(
            String::from_utf8(json).expect("utf-8"),
            r#"{"accepted":false,"checks":[{"detail":"differs from the call","expected":"\"ex_1\"","name":"execution_id","outcome":"fail","received":"\"ex_\\\"2\\\"\""}],"receipt_digest":null}"#
        );
        // A long value is cut at a character boundary, within the bound.
        let long = "é".repeat(500);
        let s = shown(long.clone());
        assert!(s.ends_with('…') && s.len() <= MAX_SHOWN_BYTES + '…'.len_utf8());
        assert!(long.starts_with(s.trim_end_matches('…')));
        assert_eq!(shown("short"), "short");
        let big = Value::Array(vec![Value::from("x".repeat(1000))]);
        assert!(json_shown(&big).len() <= MAX_SHOWN_BYTES + 3);
    }

    #[test]
    fn utc_times() {
        assert_eq!(utc_of_seconds(0).as_deref(), Some("1970-01-01T00:00:00Z"));
        assert_eq!(
            utc_of_seconds(1_780_000_000).as_deref(),
            Some("2026-05-28T20:26:40Z")
        );
        assert_eq!(
            utc_of_seconds(951_782_400).as_deref(),
            Some("2000-02-29T00:00:00Z")
        );
        assert_eq!(utc_of_seconds(-1).as_deref(), Some("1969-12-31T23:59:59Z"));
        assert_eq!(
            utc_of_seconds(253_402_300_799).as_deref(),
            Some("9999-12-31T23:59:59Z")
        );
        assert_eq!(utc_of_seconds(253_402_300_800), None);
        assert_eq!(utc_of_seconds(i64::MIN), None);
        assert_eq!(utc_of_seconds(i64::MAX), None);
        assert_eq!(seconds_shown(0), "0 (1970-01-01T00:00:00Z)");
        // Round trip against the RFC 3339 parser over many instants.
        let mut t = -62_167_219_200i64; // 0000-01-01T00:00:00Z
        while t < 253_402_300_799 {
            let text = utc_of_seconds(t).expect("in range");
            assert_eq!(
                crate::timestamp::Timestamp::parse(&text)
                    .expect("parses")
                    .unix_seconds(),
                t,
                "{text}"
            );
            t += 7_777_777;
        }
    }
}

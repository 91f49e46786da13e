//! Local screening of a tool result (PROTOCOL §15.5, §2.6; SPEC §7 "Screening rules").
//!
//! * [`ScreeningRules::from_claims`] takes the claims of a verified `ekl-screening-rules+jwt`
//!   token (the token itself is verified by the JWS module) and validates `rules_version` and
//!   `rules[{rule_id, category, phrases[]}]`.
//! * [`scan`] reports the [`SafetyFlag`]s of a result: a rule matches when one of its phrases occurs
//!   as a substring of a string value of the result, both compared after [`fold`] (Unicode NFKC
//!   normalisation and full case folding); the local leak patterns ([`leak_pattern`]: PEM private
//!   keys, EKP credentials `eklp_…`/`ekla_…`) are looked for in every string value and every object
//!   key, and give category `credential_leak` with rules_version `local`.
//! * One flag per (category, rules_version), sorted by category then rules_version; the flag keeps
//!   the `rule_id` of the first matching rule in the rules' order (local flags have none). A flag
//!   never holds the matched text, and nothing here returns it.
//!
//! The walk over the result is iterative (no recursion), so any nesting is safe.

use std::borrow::Cow;

use caseless::Caseless;
use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

use crate::error::{Error, ErrorCode, Result};
use crate::value::Value;

/// The category of a local leak pattern match.
pub const CREDENTIAL_LEAK: &str = "credential_leak";

/// The rules_version of the local leak patterns.
pub const LOCAL_RULES_VERSION: &str = "local";

/// The shortest run of base64url characters after `eklp_` / `ekla_` reported as a credential
/// (a real one has 43: 32 random bytes; 32 also catches a credential cut short).
pub const CREDENTIAL_MIN_CHARS: usize = 32;

/// The longest PEM label looked at between `-----BEGIN ` and `-----`.
pub const PEM_LABEL_MAX: usize = 64;

/// A string as the screening compares it: NFKC, then full case folding, then NFKC again (full case
/// folding can leave a string that is no longer in NFKC; the last step makes the result stable).
///
/// ```
/// assert_eq!(ekl_core::screening::fold("Straße ＡＢＣ ﬁ"), "strasse abc fi");
/// ```
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        // NFKC leaves ASCII alone and full case folding maps only A–Z within it.
        return text.to_ascii_lowercase();
    }
    let nfkc = nfkc(text);
    let mut folded = String::with_capacity(nfkc.len());
    for c in nfkc.chars() {
        if c.is_ascii() {
            folded.push(c.to_ascii_lowercase());
        } else {
            folded.extend(core::iter::once(c).default_case_fold());
        }
    }
    nfkc_owned(folded)
}

/// NFKC, skipping the work when the quick check says the text already is.
fn nfkc(text: &str) -> Cow<'_, str> {
    match is_nfkc_quick(text.chars()) {
        IsNormalized::Yes => Cow::Borrowed(text),
        _ => Cow::Owned(text.nfkc().collect()),
    }
}

fn nfkc_owned(text: String) -> String {
    match is_nfkc_quick(text.chars()) {
        IsNormalized::Yes => text,
        _ => text.nfkc().collect(),
    }
}

/// One phrase rule of the network's screening rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreeningRule {
    /// The rule's id.
    pub rule_id: String,
    /// The category a match is reported under.
    pub category: String,
    /// The phrases as published.
    pub phrases: Vec<String>,
    folded: Vec<String>,
}

/// Validated screening rules (the claims `rules_version` and `rules` of §15.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScreeningRules {
    /// The rules' version, reported with each flag.
    pub rules_version: String,
    /// The rules, in published order.
    pub rules: Vec<ScreeningRule>,
}

fn claim_invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::ClaimInvalid, message)
}

fn non_empty_str<'v>(v: &'v Value<'_>, what: &str) -> Result<&'v str> {
    match v.as_str() {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(claim_invalid(format!("{what} must be a non-empty string"))),
    }
}

impl ScreeningRules {
    /// Validates the claims of a verified screening-rules token.
    ///
    /// Refused: claims that are not an object (`INVALID_SHAPE`); `rules_version` or `rules`
    /// absent (`CLAIM_MISSING`); `rules_version` not a non-empty string or equal to `local`
    /// (which names the local leak patterns); `rules` not an array; a rule that is not an object
    /// with a non-empty string `rule_id` (unique) and `category` and a non-empty array `phrases` of
    /// strings, each non-empty after [`fold`] (an empty phrase would match everything)
    /// (`CLAIM_INVALID`). Other claims (`iss`, `iat`, `exp`, ...) are the token verifier's.
    pub fn from_claims(claims: &Value<'_>) -> Result<ScreeningRules> {
        if claims.as_object().is_none() {
            return Err(Error::new(
                ErrorCode::InvalidShape,
                "screening rules claims must be a JSON object",
            ));
        }
        let missing = |name: &str| Error::new(ErrorCode::ClaimMissing, format!("{name} missing"));
        let version = claims
            .get("rules_version")
            .ok_or_else(|| missing("rules_version"))?;
        let rules = claims.get("rules").ok_or_else(|| missing("rules"))?;
        ScreeningRules::from_parts(version, rules)
    }

    /// Validates `rules_version` and `rules` given apart (e.g. from a verified token's fields),
    /// with the `CLAIM_INVALID` refusals of [`ScreeningRules::from_claims`].
    pub fn from_parts(rules_version: &Value<'_>, rules: &Value<'_>) -> Result<ScreeningRules> {
        let rules_version = non_empty_str(rules_version, "rules_version")?;
        if rules_version == LOCAL_RULES_VERSION {
            return Err(claim_invalid(
                "rules_version local is reserved for local leak patterns",
            ));
        }
        let list = rules
            .as_array()
            .ok_or_else(|| claim_invalid("rules must be an array"))?;
        let mut rules: Vec<ScreeningRule> = Vec::with_capacity(list.len());
        for (i, r) in list.iter().enumerate() {
            if r.as_object().is_none() {
                return Err(claim_invalid(format!("rules[{i}] must be an object")));
            }
            let field = |name: &str| {
                r.get(name)
                    .ok_or_else(|| claim_invalid(format!("rules[{i}].{name} missing")))
            };
            let rule_id = non_empty_str(field("rule_id")?, &format!("rules[{i}].rule_id"))?;
            let category = non_empty_str(field("category")?, &format!("rules[{i}].category"))?;
            if rules.iter().any(|x| x.rule_id == rule_id) {
                return Err(claim_invalid(format!("rules[{i}].rule_id repeated")));
            }
            let phrases = field("phrases")?
                .as_array()
                .filter(|p| !p.is_empty())
                .ok_or_else(|| {
                    claim_invalid(format!("rules[{i}].phrases must be a non-empty array"))
                })?;
            let mut raw = Vec::with_capacity(phrases.len());
            let mut folded = Vec::with_capacity(phrases.len());
            for p in phrases {
                let text = p.as_str().ok_or_else(|| {
                    claim_invalid(format!("rules[{i}].phrases must hold strings"))
                })?;
                let f = fold(text);
                if f.is_empty() {
                    return Err(claim_invalid(format!(
                        "rules[{i}].phrases holds an empty phrase"
                    )));
                }
                raw.push(text.to_owned());
                folded.push(f);
            }
            rules.push(ScreeningRule {
                rule_id: rule_id.to_owned(),
                category: category.to_owned(),
                phrases: raw,
                folded,
            });
        }
        Ok(ScreeningRules {
            rules_version: rules_version.to_owned(),
            rules,
        })
    }
}

/// A safety flag (§15.5, §6.8 `safety_flag`): the category and rules_version to report, and the
/// id of the first matching rule for the consumer's own records. Never the matched text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SafetyFlag {
    /// The category (`credential_leak` for a local leak pattern).
    pub category: String,
    /// The rules' version (`local` for a local leak pattern).
    pub rules_version: String,
    /// The first matching rule, for network rules.
    pub rule_id: Option<String>,
}

impl SafetyFlag {
    /// `{category, rules_version}`: what `collaboration_report` takes as `safety_flag`.
    pub fn to_report_value(&self) -> Value<'static> {
        Value::Object(vec![
            (
                Cow::Borrowed("category"),
                Value::from(self.category.clone()),
            ),
            (
                Cow::Borrowed("rules_version"),
                Value::from(self.rules_version.clone()),
            ),
        ])
    }

    /// `{category, rules_version[, rule_id]}`.
    pub fn to_value(&self) -> Value<'static> {
        let mut v = self.to_report_value();
        if let (Value::Object(m), Some(id)) = (&mut v, &self.rule_id) {
            m.push((Cow::Borrowed("rule_id"), Value::from(id.clone())));
        }
        v
    }
}

/// Whether `text` holds a local leak pattern: a PEM private key header
/// (`-----BEGIN <label>-----` whose label of at most [`PEM_LABEL_MAX`] characters `A–Z 0–9 space`
/// contains `PRIVATE KEY`), or an EKP credential (`eklp_` or `ekla_` followed by at least
/// [`CREDENTIAL_MIN_CHARS`] base64url characters). Case-sensitive, on the text as given.
pub fn leak_pattern(text: &str) -> bool {
    pem_private_key(text) || ekp_credential(text)
}

fn pem_private_key(text: &str) -> bool {
    const BEGIN: &str = "-----BEGIN ";
    let b = text.as_bytes();
    text.match_indices(BEGIN).any(|(at, _)| {
        let label_start = at + BEGIN.len();
        let label_len = b[label_start..]
            .iter()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || **c == b' ')
            .count();
        let label = &b[label_start..label_start + label_len];
        label_len <= PEM_LABEL_MAX
            && b[label_start + label_len..].starts_with(b"-----")
            && label.windows(11).any(|w| w == b"PRIVATE KEY")
    })
}

fn ekp_credential(text: &str) -> bool {
    let b = text.as_bytes();
    ["eklp_", "ekla_"].iter().any(|prefix| {
        text.match_indices(prefix).any(|(at, _)| {
            b[at + prefix.len()..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-' || **c == b'_')
                .take(CREDENTIAL_MIN_CHARS)
                .count()
                >= CREDENTIAL_MIN_CHARS
        })
    })
}

/// Scans a tool result (any JSON value) and returns its safety flags: the network's phrase rules
/// (when given) over every string value, the local leak patterns over every string value and
/// object key. See the module documentation for the matching and the order of the flags.
pub fn scan(rules: Option<&ScreeningRules>, result: &Value<'_>) -> Vec<SafetyFlag> {
    let mut values: Vec<&str> = Vec::new();
    let mut leak = false;
    let mut stack: Vec<&Value<'_>> = vec![result];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                leak = leak || leak_pattern(s);
                values.push(s);
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(members) => {
                for (k, x) in members.iter().rev() {
                    leak = leak || leak_pattern(k);
                    stack.push(x);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    let mut flags: Vec<SafetyFlag> = Vec::new();
    if let Some(rules) = rules {
        let folded: Vec<String> = values.iter().map(|s| fold(s)).collect();
        for rule in &rules.rules {
            if flags.iter().any(|f| f.category == rule.category) {
                continue; // one flag per category; the first matching rule is kept
            }
            let hit = rule
                .folded
                .iter()
                .any(|p| folded.iter().any(|t| t.contains(p.as_str())));
            if hit {
                flags.push(SafetyFlag {
                    category: rule.category.clone(),
                    rules_version: rules.rules_version.clone(),
                    rule_id: Some(rule.rule_id.clone()),
                });
            }
        }
    }
    if leak {
        flags.push(SafetyFlag {
            category: CREDENTIAL_LEAK.to_owned(),
            rules_version: LOCAL_RULES_VERSION.to_owned(),
            rule_id: None,
        });
    }
    flags.sort_by(|a, b| {
        (a.category.as_str(), a.rules_version.as_str())
            .cmp(&(b.category.as_str(), b.rules_version.as_str()))
    });
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leak_patterns() {
        assert!(leak_pattern("x -----BEGIN PRIVATE KEY-----\nMII"));
        assert!(leak_pattern("-----BEGIN RSA PRIVATE KEY-----"));
        assert!(leak_pattern("-----BEGIN OPENSSH PRIVATE KEY-----"));
        assert!(leak_pattern("-----BEGIN PGP PRIVATE KEY BLOCK-----"));
        assert!(leak_pattern("-----BEGIN X-----BEGIN EC PRIVATE KEY-----"));
        assert!(!leak_pattern("-----BEGIN PUBLIC KEY-----"));
        assert!(!leak_pattern("-----BEGIN private key-----"));
        assert!(!leak_pattern("-----BEGIN PRIVATE KEY"));
        assert!(!leak_pattern(&format!(
            "-----BEGIN {}PRIVATE KEY-----",
            "A".repeat(60)
        )));
        let cred = format!("eklp_{}", "A1b2-_".repeat(6)); // 36 chars
        assert!(leak_pattern(&cred));
        assert!(leak_pattern(&format!("token=ekla_{}", "z".repeat(32))));
        assert!(!leak_pattern(&format!("ekla_{}", "z".repeat(31))));
        assert!(!leak_pattern(&format!("EKLP_{}", "z".repeat(40))));
        assert!(!leak_pattern(&format!("eklx_{}", "z".repeat(40))));
        assert!(!leak_pattern(""));
        assert!(!leak_pattern("ekl"));
    }

    #[test]
    fn folding() {
        assert_eq!(fold("ＳＥＣＲＥＴ"), "secret");
        assert_eq!(fold("ΣΊΣΥΦΟΣ"), fold("σίσυφος"));
        assert_eq!(fold("ǅ"), "dž");
        assert_eq!(fold("Å"), fold("Å"));
    }

    #[test]
    fn deep_result_does_not_recurse() {
        let mut v = Value::from("-----BEGIN PRIVATE KEY-----");
        for _ in 0..200_000 {
            v = Value::Array(vec![v]);
        }
        let flags = scan(None, &v);
        assert_eq!(flags.len(), 1);
        // Drop iteratively too.
        let mut cur = v;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
    }
}

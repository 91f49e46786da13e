//! Argument shapes read from JSON values, in one place for every surface (docs/decisions.md#shapes).
//!
//! The bindings, the CLI and the conformance server pass the protocol objects an operation needs
//! (a call expectation, a signed-call context, a key ring, a commitment) as JSON values in their
//! wire names. Each shape is read here, by a `from_value` of its type, under one rule: a member
//! that the shape does not know is refused with `INVALID_ARGUMENT`, and the message names the
//! member and the allowed ones, so a typo (`executionId` for `execution_id`) never silently
//! drops a check. `null` counts as absent for optional members.

use crate::value::Value;
use crate::{Error, ErrorCode, Result};

/// `INVALID_ARGUMENT` with `message`.
pub(crate) fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidArgument, message)
}

/// The members of the JSON object `v` (named `what` in messages), after refusing any member not
/// in `allowed`: the message names the first unknown member and every allowed one.
pub fn members<'v, 'a>(
    v: &'v Value<'a>,
    what: &str,
    allowed: &[&str],
) -> Result<&'v [(std::borrow::Cow<'a, str>, Value<'a>)]> {
    let object = v
        .as_object()
        .ok_or_else(|| invalid(format!("{what} must be a JSON object")))?;
    if let Some((name, _)) = object.iter().find(|(k, _)| !allowed.contains(&k.as_ref())) {
        // The member name is the caller's own input: shown bounded, JSON-escaped.
        let mut shown = Vec::new();
        crate::canonical::write_string(&truncate(name, 64), &mut shown);
        return Err(invalid(format!(
            "{what} has an unknown member {} (allowed: {})",
            String::from_utf8_lossy(&shown),
            allowed.join(", ")
        )));
    }
    Ok(object)
}

fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The string member `name` of `v`: `None` when absent or `null`, `INVALID_ARGUMENT` when not a
/// string.
pub fn opt_str<'v>(v: &'v Value<'_>, name: &str, what: &str) -> Result<Option<&'v str>> {
    match v.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(x) => x
            .as_str()
            .map(Some)
            .ok_or_else(|| invalid(format!("{what}.{name} must be a string"))),
    }
}

/// The required string member `name` of `v`.
pub fn req_str<'v>(v: &'v Value<'_>, name: &str, what: &str) -> Result<&'v str> {
    opt_str(v, name, what)?.ok_or_else(|| invalid(format!("{what}.{name} is required (a string)")))
}

/// The string member `name` of `v` that names something (an id, a secret, a salt id): as
/// [`opt_str`], and an empty string is `INVALID_ARGUMENT` too (docs/decisions/edges.md#empty).
pub fn opt_id<'v>(v: &'v Value<'_>, name: &str, what: &str) -> Result<Option<&'v str>> {
    match opt_str(v, name, what)? {
        Some("") => Err(invalid(format!("{what}.{name} must not be empty"))),
        other => Ok(other),
    }
}

/// The required string member `name` of `v` that names something: as [`req_str`], and not empty.
pub fn req_id<'v>(v: &'v Value<'_>, name: &str, what: &str) -> Result<&'v str> {
    opt_id(v, name, what)?.ok_or_else(|| invalid(format!("{what}.{name} is required (a string)")))
}

/// `value` when it is not empty; otherwise `INVALID_ARGUMENT` naming it (`what`). Every secret
/// and identifier an operation takes goes through here (or [`req_id`]): an empty secret keys a
/// MAC that anyone can compute, and an empty id matches nothing the protocol issues
/// (docs/decisions/edges.md#empty).
pub fn non_empty<'s>(value: &'s str, what: &str) -> Result<&'s str> {
    if value.is_empty() {
        Err(invalid(format!("{what} must not be empty")))
    } else {
        Ok(value)
    }
}

/// The required integer member `name` of `v` (seconds; an integer of at most 2^53 in magnitude).
pub fn req_seconds(v: &Value<'_>, name: &str, what: &str) -> Result<i64> {
    v.get(name)
        .and_then(Value::as_f64)
        .filter(|x| x.fract() == 0.0 && x.abs() <= crate::MAX_SAFE_INTEGER_BOUND as f64)
        .map(|x| x as i64)
        .ok_or_else(|| invalid(format!("{what}.{name} must be an integer (seconds)")))
}

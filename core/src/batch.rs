//! Batch verification on every core it is given, and the receipt archive (issue 15).
//!
//! [`map_ordered`] runs one function over many items on up to `jobs` threads (scoped std
//! threads, no pool, no dependency) and returns the results in the items' order: the same
//! `Vec` a sequential `map` gives, whatever the number of threads. The bridge's batch operations
//! (`verify_receipts`, `verify_receipt_lines`) and the CLI's `--jobs` use it; on `wasm32` (no
//! threads) it is a plain `map`, and browsers run one module per Web Worker instead.
//!
//! A **receipt archive** is JSON lines, one item a line (blank lines skipped), each item one of
//! the three receipt kinds with the call it answers:
//!
//! ```text
//! {"receipt": {MAC receipt}, "call": {CallExpectation}, "input_commitment"?, "output_commitment"?}
//! {"receipt_jws": "<compact JWS>", "call": {CallContext}}
//! {"receipt": {network-signed receipt object}, "call": {CallContext}}
//! ```
//!
//! plus an optional `"label"` (ignored here). A receipt object carrying `signature` or
//! `receipt_jws` is network-signed, any other is a MAC receipt. The archive's [`ArchiveKeys`]
//! give what the items share: the key ring of MAC receipts, the network's JWKS, and the
//! consumer's `own_agent_id` and `network_issuer`, which fill a signed call's members of those
//! names (and a MAC call's `requester_agent_id`) when the item does not give them; an item may
//! repeat them but not name others (they are the verifier's). This is the item format of the
//! receipt dashboard (examples/dashboard), whose settings supply the same four, and which shows
//! an archive through [`summarize_lines`] (an item in brief: its ids and its verdict in short).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::digest::Commitment;
use crate::jwk::Jwks;
use crate::receipt::{self, CallExpectation, KeyRing};
use crate::receipt_sig::{self, CallContext};
use crate::shape::members;
use crate::value::Value;
use crate::verdict::{Check, Verdict};
use crate::{canonical, Error, ErrorCode, Result};

/// The number of threads the process may run at once: the cores of its CPU affinity mask and
/// cgroup quota (`std::thread::available_parallelism`), 1 when unknown and on `wasm32`.
pub fn jobs_available() -> usize {
    if cfg!(target_arch = "wasm32") {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The items a thread takes at a time: small enough to balance the threads at the end of a
/// batch, large enough that taking them costs nothing next to an ES256 verification (~100 µs).
const CHUNK: usize = 16;

/// Below this many items per thread a thread costs more than it saves.
pub const MIN_ITEMS_PER_JOB: usize = 32;

/// `items.iter().map(f).collect()`, computed on up to `jobs` threads (0: [`jobs_available`]),
/// in the items' order. `progress(n)` is called (from any of the threads) after each `n` items
/// are done. A panic in `f` propagates to the caller, as in a sequential map.
pub fn map_ordered<T, R, F>(
    items: &[T],
    jobs: usize,
    f: F,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let jobs = if jobs == 0 { jobs_available() } else { jobs };
    let jobs = jobs.min(items.len() / MIN_ITEMS_PER_JOB).max(1);
    if jobs == 1 || cfg!(target_arch = "wasm32") {
        let mut out = Vec::with_capacity(items.len());
        for chunk in items.chunks(CHUNK) {
            out.extend(chunk.iter().map(&f));
            progress(chunk.len());
        }
        return out;
    }
    let chunks = items.len().div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    let done: Vec<Mutex<Vec<R>>> = (0..chunks).map(|_| Mutex::new(Vec::new())).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= chunks {
                    break;
                }
                let part = &items[c * CHUNK..((c + 1) * CHUNK).min(items.len())];
                let results: Vec<R> = part.iter().map(&f).collect();
                *done[c].lock().unwrap_or_else(|e| e.into_inner()) = results;
                progress(part.len());
            });
        }
    });
    let mut out = Vec::with_capacity(items.len());
    for slot in done {
        out.extend(slot.into_inner().unwrap_or_else(|e| e.into_inner()));
    }
    out
}

/// What the items of a receipt archive share (see the module's documentation).
#[derive(Clone, Copy, Default)]
pub struct ArchiveKeys<'a> {
    /// The key ring of MAC receipts.
    pub ring: Option<&'a KeyRing>,
    /// The network's key set, for network-signed receipts.
    pub jwks: Option<&'a Jwks>,
    /// The consumer's agent id: a signed call's `own_agent_id` and `requester_agent_id`, a MAC
    /// call's `requester_agent_id`, when the item does not give them.
    pub own_agent_id: Option<&'a str>,
    /// The network's issuer: a signed call's `network_issuer` when the item does not give it.
    pub network_issuer: Option<&'a str>,
}

/// The members an archive item may have.
pub const ITEM_MEMBERS: [&str; 6] = [
    "receipt",
    "receipt_jws",
    "call",
    "input_commitment",
    "output_commitment",
    "label",
];

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidArgument, message.into())
}

/// `call` with the members `defaults` adds where it has none (or `null`).
fn with_defaults<'a>(call: &Value<'a>, defaults: &[(&'static str, Option<&'a str>)]) -> Value<'a> {
    let Some(object) = call.as_object() else {
        return call.clone();
    };
    let mut out = object.to_vec();
    for (name, value) in defaults {
        let Some(value) = value else { continue };
        match out.iter_mut().find(|(k, _)| k.as_ref() == *name) {
            Some((_, v @ Value::Null)) => *v = Value::from(*value),
            Some(_) => {}
            None => out.push(((*name).into(), Value::from(*value))),
        }
    }
    Value::Object(out)
}

/// Refuses a call whose member `name` (when given and not `null`) differs from what the archive's
/// keys give for all items: the consumer's own agent id and the network's issuer are the
/// verifier's, so an item cannot verify as addressed to another agent or issuer than the one the
/// verifier named (an archive verified without them still takes them from each item's call).
fn agrees(call: &Value<'_>, name: &str, shared: Option<&str>) -> Result<()> {
    match (shared, call.get(name)) {
        (Some(shared), Some(v)) if !matches!(v, Value::Null) && v.as_str() != Some(shared) => {
            Err(invalid(format!(
                "call.{name} differs from the {name} the archive is verified with"
            )))
        }
        _ => Ok(()),
    }
}

/// The verdict on one archive item (a parsed JSON value).
pub fn verify_item(item: &Value<'_>, keys: &ArchiveKeys<'_>) -> Result<Verdict> {
    verify_item_with(item, keys, &mut |_| {})
}

/// [`verify_item`], showing `claims_seen` a compact JWS's claims once they are read.
fn verify_item_with(
    item: &Value<'_>,
    keys: &ArchiveKeys<'_>,
    claims_seen: &mut dyn FnMut(&Value<'_>),
) -> Result<Verdict> {
    members(item, "item", &ITEM_MEMBERS)?;
    let call = item
        .get("call")
        .ok_or_else(|| invalid("an item needs a call"))?;
    let jwks = || {
        keys.jwks
            .ok_or_else(|| invalid("a network-signed receipt needs the network's JWKS"))
    };
    let signed_call = || {
        agrees(call, "own_agent_id", keys.own_agent_id)?;
        agrees(call, "network_issuer", keys.network_issuer)?;
        Ok::<_, Error>(with_defaults(
            call,
            &[
                ("own_agent_id", keys.own_agent_id),
                ("requester_agent_id", keys.own_agent_id),
                ("network_issuer", keys.network_issuer),
            ],
        ))
    };
    let no_commitments = || {
        if item.get("input_commitment").is_some() || item.get("output_commitment").is_some() {
            Err(invalid(
                "own commitments are for MAC receipts (a signed receipt has input_fingerprint)",
            ))
        } else {
            Ok(())
        }
    };
    match (item.get("receipt"), item.get("receipt_jws")) {
        (Some(_), Some(_)) => Err(invalid("an item has a receipt or a receipt_jws, not both")),
        (None, None) => Err(Error::new(
            ErrorCode::InvalidReceipt,
            "an item needs a receipt or a receipt_jws",
        )),
        (None, Some(token)) => {
            no_commitments()?;
            let token = token.as_str().ok_or_else(|| {
                Error::new(ErrorCode::JwsMalformed, "receipt_jws must be a string")
            })?;
            let call = signed_call()?;
            let context = CallContext::from_value(&call)?;
            receipt_sig::verify_receipt_jws_with(token, jwks()?, &context, claims_seen)
        }
        (Some(r), None) if is_signed_object(r) => {
            no_commitments()?;
            let call = signed_call()?;
            let context = CallContext::from_value(&call)?;
            receipt_sig::verify_receipt(r, jwks()?, &context)
        }
        (Some(r), None) => {
            let ring = keys
                .ring
                .ok_or_else(|| invalid("a MAC receipt needs the key ring (receipt secrets)"))?;
            let call = with_defaults(call, &[("requester_agent_id", keys.own_agent_id)]);
            let call = CallExpectation::from_value(&call)?;
            let own = |name: &str| match item.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(c) => Commitment::from_value(c).map(Some),
            };
            let (own_in, own_out) = (own("input_commitment")?, own("output_commitment")?);
            receipt::verify_receipt(r, ring, &call, own_in.as_ref(), own_out.as_ref())
        }
    }
}

/// The verdict on one archive line (JSON text, every ekl-json-1 refusal applies).
pub fn verify_line(line: &[u8], keys: &ArchiveKeys<'_>) -> Result<Verdict> {
    verify_item(&canonical::parse(line)?, keys)
}

/// The non-blank lines of JSON-lines text (a trailing `\r` is part of the line's whitespace),
/// each with its 1-based line number.
pub fn lines(text: &[u8]) -> Vec<(usize, &[u8])> {
    text.split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, l)| l.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\r')))
        .map(|(i, l)| (i + 1, l))
        .collect()
}

/// The verdicts on every item of a receipt archive's text, in order, on up to `jobs` threads
/// (0: every core available): one `Result` per non-blank line.
pub fn verify_lines(text: &[u8], keys: &ArchiveKeys<'_>, jobs: usize) -> Vec<Result<Verdict>> {
    map_ordered(&lines(text), jobs, |(_, l)| verify_line(l, keys), &|_| {})
}

/// One line of a verified archive's output, as `ekl receipt verify-archive` writes it (canonical
/// JSON and a line end): `{"line":N,"verdict":V}` or `{"error":{code,message},"line":N}`; and
/// whether the item was accepted (`None`: it could not be verified). With `failures_only`, an
/// accepted item gives no line and a verdict keeps its failing checks alone (those whose outcome
/// is not `pass`).
pub fn output_line(
    line: usize,
    r: Result<Verdict>,
    failures_only: bool,
) -> (Vec<u8>, Option<bool>) {
    let n = Value::Number(line as f64);
    let (v, status) = match r {
        Ok(v) if failures_only && v.accepted => return (Vec::new(), Some(true)),
        Ok(v) => {
            let accepted = v.accepted;
            let mut verdict = v.to_value();
            if failures_only {
                if let Value::Object(members) = &mut verdict {
                    for (k, checks) in members.iter_mut() {
                        if let (true, Value::Array(items)) = (k == "checks", checks) {
                            items.retain(|c| {
                                c.get("outcome").and_then(Value::as_str) != Some("pass")
                            });
                        }
                    }
                }
            }
            (
                Value::Object(vec![("line".into(), n), ("verdict".into(), verdict)]),
                Some(accepted),
            )
        }
        Err(e) => (
            Value::Object(vec![
                (
                    "error".into(),
                    Value::Object(vec![
                        ("code".into(), Value::from(e.code().as_str())),
                        ("message".into(), Value::from(e.message().to_owned())),
                    ]),
                ),
                ("line".into(), n),
            ]),
            None,
        ),
    };
    let mut out = canonical::canonicalize_value(&v).unwrap_or_else(|_| b"{}".to_vec());
    out.push(b'\n');
    (out, status)
}

/// A receipt archive verified and written as `ekl receipt verify-archive` writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveOutput {
    /// The output lines ([`output_line`]), in the archive's order.
    pub text: Vec<u8>,
    /// Items accepted.
    pub accepted: usize,
    /// Items verified and not accepted.
    pub not_accepted: usize,
    /// Items that could not be verified (an error line).
    pub refused: usize,
}

/// The output of `ekl receipt verify-archive` for the archive `text` (at most one file's worth:
/// the callers bound it), verified on up to `jobs` threads (0: every core available), with the
/// counts; the verdicts never become host objects. Its lines are numbered from `first_line` (1
/// for a whole archive; a block of a larger one gives the number of its first line).
pub fn verify_lines_output(
    text: &[u8],
    keys: &ArchiveKeys<'_>,
    jobs: usize,
    failures_only: bool,
    first_line: usize,
) -> ArchiveOutput {
    let offset = first_line.saturating_sub(1);
    let lines = map_ordered(
        &lines(text),
        jobs,
        |(n, l)| {
            output_line(
                n.saturating_add(offset),
                verify_line(l, keys),
                failures_only,
            )
        },
        &|_| {},
    );
    let mut out = ArchiveOutput {
        text: Vec::with_capacity(lines.iter().map(|(t, _)| t.len()).sum()),
        ..ArchiveOutput::default()
    };
    for (t, status) in lines {
        out.text.extend_from_slice(&t);
        match status {
            Some(true) => out.accepted += 1,
            Some(false) => out.not_accepted += 1,
            None => out.refused += 1,
        }
    }
    out
}

/// The members of an item's receipt (of a compact JWS's claims) that [`summarize_line`] shows,
/// in its order; the last three also come from the call when the receipt has none.
pub const SUMMARY_FIELDS: [&str; 5] = [
    "receipt_id",
    "execution_id",
    "provider_agent_id",
    "capability_id",
    "issued_at",
];

/// Whether an item's receipt is a network-signed receipt object (it carries `signature` or
/// `receipt_jws`); any other receipt is a MAC receipt.
fn is_signed_object(receipt: &Value<'_>) -> bool {
    receipt.get("signature").is_some() || receipt.get("receipt_jws").is_some()
}

/// The kind of an archive item: `"jws"` (a `receipt_jws`), `"object"` (a receipt object with
/// `signature` or `receipt_jws`), `"mac"` (any other `receipt`) or `"unknown"`.
fn item_kind(item: &Value<'_>) -> &'static str {
    match (item.get("receipt_jws"), item.get("receipt")) {
        (Some(_), _) => "jws",
        (None, Some(r)) if is_signed_object(r) => "object",
        (None, Some(_)) => "mac",
        (None, None) => "unknown",
    }
}

/// The payload bytes of a compact JWS, when its second segment decodes (nothing is verified).
fn payload_of(token: &str) -> Option<Vec<u8>> {
    crate::base64url::decode(token.split('.').nth(1)?).ok()
}

/// The [`SUMMARY_FIELDS`] members of a receipt (or claims), owned; `None` for each one absent.
fn summary_members(receipt: Option<&Value<'_>>) -> [Option<Value<'static>>; 5] {
    SUMMARY_FIELDS.map(|name| {
        receipt
            .and_then(|r| r.get(name))
            .cloned()
            .map(Value::into_owned)
    })
}

/// A check that did not pass, in brief: `{"name", "outcome", "detail"?, "reason"?,
/// "blocked_by"?}` (`reason` and `blocked_by` only when the check has them: [`Check::reason`],
/// [`Check::blocked_by`]).
fn failing_value(c: &Check) -> Value<'static> {
    let mut v = c.to_value(false);
    if let Value::Object(m) = &mut v {
        for (key, code) in [("reason", c.reason), ("blocked_by", c.blocked_by)] {
            if let Some(code) = code {
                m.push((key.into(), Value::from(code)));
            }
        }
    }
    v
}

/// One line of a receipt archive in brief: what a table of the archive shows of it, as
/// `{"line", "kind", "label", "receipt_id", "execution_id", "provider_agent_id",
/// "capability_id", "issued_at", "accepted", "receipt_digest", "passed", "failing", "cause",
/// "error"}`.
///
/// - `kind`: `"mac"`, `"jws"`, `"object"` or `"unknown"` (see the module's documentation);
/// - `label` and the five [`SUMMARY_FIELDS`]: the item's `label` and the receipt's members (a
///   compact JWS's claims), as written (any JSON value), `null` when absent; `execution_id`,
///   `provider_agent_id` and `capability_id` come from the call when the receipt has none;
/// - `accepted`, `receipt_digest`: the verdict's; `passed`: how many checks passed; `failing`:
///   the other checks, `[{"name", "outcome", "detail"?, "reason"?, "blocked_by"?}]` in the
///   verdict's order (`blocked_by`: a knock-on, not checked because that check failed);
/// - `cause`: the receipt's first cause when it is not accepted, `{"check", "reason"}`
///   ([`crate::verdict::Verdict::first_cause`]; `reason` null or a code of
///   [`crate::verdict::REASONS`]): a table counts each failed receipt once, under it; `null` when
///   accepted or when the item cannot be verified (its `error` code is then the cause);
/// - `error`: `null`, or `{"code", "message"}` when the item cannot be verified (as
///   [`verify_line`]); `accepted` and `receipt_digest` are then `null`, `passed` 0 and
///   `failing` empty, and the other members are shown as far as the item can be read.
pub fn summarize_line(line_no: usize, line: &[u8], keys: &ArchiveKeys<'_>) -> Value<'static> {
    let (mut kind, mut label, mut fields) =
        ("unknown", Value::Null, SUMMARY_FIELDS.map(|_| Value::Null));
    let result = canonical::parse(line).and_then(|item| {
        kind = item_kind(&item);
        label = item
            .get("label")
            .cloned()
            .unwrap_or(Value::Null)
            .into_owned();
        // The receipt's members: a compact JWS's claims as the verification reads them (decoded
        // here again only when it stops before), else the receipt object's.
        let mut seen = None;
        let result = verify_item_with(&item, keys, &mut |claims| {
            seen = Some(summary_members(Some(claims)));
        });
        let own = match (kind, seen) {
            (_, Some(own)) => own,
            ("jws", None) => {
                let payload = item
                    .get("receipt_jws")
                    .and_then(Value::as_str)
                    .and_then(payload_of);
                let claims = payload.as_deref().and_then(|p| canonical::parse(p).ok());
                summary_members(claims.as_ref())
            }
            _ => summary_members(item.get("receipt")),
        };
        let call = item.get("call");
        for ((slot, name), own) in fields.iter_mut().zip(SUMMARY_FIELDS).zip(own) {
            let from_call = || {
                call.and_then(|c| c.get(name))
                    .filter(|_| name != "receipt_id" && name != "issued_at")
                    .map(|v| v.clone().into_owned())
            };
            if let Some(v) = own.filter(|v| !matches!(v, Value::Null)).or_else(from_call) {
                *slot = v;
            }
        }
        result
    });
    let mut out: Vec<(std::borrow::Cow<'static, str>, Value<'static>)> = vec![
        (
            "line".into(),
            Value::from_u64(line_no as u64).unwrap_or(Value::Null),
        ),
        ("kind".into(), Value::from(kind)),
        ("label".into(), label),
    ];
    for (name, v) in SUMMARY_FIELDS.iter().zip(fields) {
        out.push(((*name).into(), v));
    }
    match result {
        Ok(verdict) => {
            let passed = verdict
                .checks
                .iter()
                .filter(|c| c.outcome == crate::verdict::Outcome::Pass)
                .count();
            let failing = verdict
                .checks
                .iter()
                .filter(|c| c.outcome != crate::verdict::Outcome::Pass)
                .map(failing_value)
                .collect();
            let cause = verdict.first_cause().map_or(Value::Null, |c| {
                Value::Object(vec![
                    ("check".into(), Value::from(c.name)),
                    ("reason".into(), c.reason.map_or(Value::Null, Value::from)),
                ])
            });
            out.push(("accepted".into(), Value::Bool(verdict.accepted)));
            out.push((
                "receipt_digest".into(),
                verdict.receipt_digest.map_or(Value::Null, Value::from),
            ));
            out.push((
                "passed".into(),
                Value::from_u64(passed as u64).unwrap_or(Value::Null),
            ));
            out.push(("failing".into(), Value::Array(failing)));
            out.push(("cause".into(), cause));
            out.push(("error".into(), Value::Null));
        }
        Err(e) => {
            out.push(("accepted".into(), Value::Null));
            out.push(("receipt_digest".into(), Value::Null));
            out.push(("passed".into(), Value::from_u64(0).unwrap_or(Value::Null)));
            out.push(("failing".into(), Value::Array(Vec::new())));
            out.push(("cause".into(), Value::Null));
            out.push((
                "error".into(),
                Value::Object(vec![
                    ("code".into(), Value::from(e.code().as_str())),
                    ("message".into(), Value::from(e.message().to_owned())),
                ]),
            ));
        }
    }
    Value::Object(out)
}

/// [`summarize_line`] for every non-blank line of a receipt archive's text, in order, on up to
/// `jobs` threads (0: every core available).
pub fn summarize_lines(text: &[u8], keys: &ArchiveKeys<'_>, jobs: usize) -> Vec<Value<'static>> {
    map_ordered(
        &lines(text),
        jobs,
        |(n, l)| summarize_line(*n, l, keys),
        &|_| {},
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::receipt_sig;

    #[test]
    fn map_ordered_keeps_the_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..10_007).collect();
        let expected: Vec<u64> = items.iter().map(|x| x * x + 1).collect();
        for jobs in [0, 1, 2, 3, 8, 64] {
            let seen = AtomicUsize::new(0);
            let out = map_ordered(&items, jobs, |x| x * x + 1, &|n| {
                seen.fetch_add(n, Ordering::Relaxed);
            });
            assert_eq!(out, expected, "jobs {jobs}");
            assert_eq!(seen.load(Ordering::Relaxed), items.len());
        }
        assert!(map_ordered(&[] as &[u8], 4, |x| *x, &|_| {}).is_empty());
    }

    #[test]
    fn blank_lines_are_skipped_and_numbered() {
        let l = lines(b"{}\n\n  \r\n{\"a\":1}\r\n\n");
        assert_eq!(l, vec![(1, &b"{}"[..]), (4, &b"{\"a\":1}\r"[..])]);
    }

    #[test]
    fn an_item_without_a_receipt_or_with_unknown_members_is_refused() {
        let keys = ArchiveKeys::default();
        let code = |t: &[u8]| verify_line(t, &keys).unwrap_err().code();
        assert_eq!(code(b"{\"call\":{}}"), ErrorCode::InvalidReceipt);
        assert_eq!(code(b"{\"call\":{},\"x\":1}"), ErrorCode::InvalidArgument);
        assert_eq!(
            code(b"{\"receipt_jws\":\"a.b.c\"}"),
            ErrorCode::InvalidArgument
        );
        assert_eq!(code(b"{\"a\":1,\"a\":2}"), ErrorCode::DuplicateKey);
        assert_eq!(code(b"[1]"), ErrorCode::InvalidArgument);
    }

    /// A network-signed receipt issued with the seed-7 key, its JWKS, and archive lines for it.
    fn signed() -> (Jwks, String, String) {
        let key = crate::jwk::SigningKey::from_seed(&[7u8; 32], "net-1").expect("key");
        let (jwks, _) = crate::jwk::jwks_from_seed(&[7u8; 32], &["net-1"]).expect("jwks");
        let fields = canonical::parse(
            br#"{"receipt_version":"1.2","receipt_id":"r1","execution_id":"ex_1",
            "provider_agent_id":"agt_p","requester_agent_id":"agt_c","capability_id":"cap_x",
            "input_fingerprint":"f1","issued_at":"2026-05-28T20:26:40Z"}"#,
        )
        .expect("valid");
        let receipt =
            receipt_sig::issue_receipt(&fields, &key, "https://net", "agt_c").expect("issued");
        let token = receipt
            .get("receipt_jws")
            .and_then(Value::as_str)
            .expect("jws");
        let object = String::from_utf8(canonical::canonicalize_value(&receipt).expect("json"))
            .expect("utf-8");
        (jwks, token.to_owned(), object)
    }

    const CALL: &str = r#"{"execution_id":"ex_1","provider_agent_id":"agt_p","capability_id":"cap_x","input_fingerprint":"f1","sent_at":1780000000,"received_at":1780000001}"#;

    #[test]
    fn a_summary_has_the_ids_and_the_verdict_in_short() {
        let (jwks, token, object) = signed();
        let keys = ArchiveKeys {
            jwks: Some(&jwks),
            own_agent_id: Some("agt_c"),
            network_issuer: Some("https://net"),
            ..ArchiveKeys::default()
        };
        let text = format!(
            "{{\"label\":\"<b>x</b>\",\"receipt_jws\":\"{token}\",\"call\":{CALL}}}\n\n\
             {{\"receipt\":{object},\"call\":{}}}\n\
             {{\"receipt_jws\":\"{token}\",\"call\":{}}}\n[1]\n",
            CALL.replace("f1", "f2"),
            CALL.replace("ex_1", "ex_2").replace("agt_p", "agt_q"),
        );
        let rows = summarize_lines(text.as_bytes(), &keys, 1);
        let json = |v: &Value<'_>| {
            String::from_utf8(canonical::canonicalize_value(v).expect("json")).expect("utf-8")
        };
        let digest = crate::digest::sha256_hex(token.as_bytes());
        assert_eq!(
            json(&rows[0]),
            format!(
                r#"{{"accepted":true,"capability_id":"cap_x","cause":null,"error":null,"execution_id":"ex_1","failing":[],"issued_at":"2026-05-28T20:26:40Z","kind":"jws","label":"<b>x</b>","line":1,"passed":{},"provider_agent_id":"agt_p","receipt_digest":"{digest}","receipt_id":"r1"}}"#,
                rows[0]
                    .get("passed")
                    .and_then(Value::as_f64)
                    .expect("passed")
            )
        );
        // Each summary says what verify_line says: the same accepted, digest and failing checks.
        for (row, (n, line)) in rows.iter().zip(lines(text.as_bytes())) {
            assert_eq!(row.get("line").and_then(Value::as_f64), Some(n as f64));
            match verify_line(line, &keys) {
                Ok(v) => {
                    assert_eq!(row.get("accepted"), Some(&Value::Bool(v.accepted)));
                    let failing: Vec<&str> = row
                        .get("failing")
                        .and_then(Value::as_array)
                        .expect("failing")
                        .iter()
                        .filter_map(|f| f.get("name").and_then(Value::as_str))
                        .collect();
                    assert_eq!(failing, v.failed());
                    let passed = v.checks.len() - v.failed().len();
                    assert_eq!(
                        row.get("passed").and_then(Value::as_f64),
                        Some(passed as f64)
                    );
                }
                Err(e) => {
                    assert_eq!(row.get("accepted"), Some(&Value::Null));
                    let error = row.get("error").expect("error");
                    assert_eq!(
                        error.get("code").and_then(Value::as_str),
                        Some(e.code().as_str())
                    );
                }
            }
        }
        // The object: its kind; a mismatching fingerprint fails only that check.
        assert_eq!(rows[1].get("kind").and_then(Value::as_str), Some("object"));
        assert_eq!(rows[1].get("accepted"), Some(&Value::Bool(false)));
        assert_eq!(
            json(rows[1].get("failing").expect("failing")),
            r#"[{"detail":"input_fingerprint differs from the call","name":"input_fingerprint","outcome":"mismatch"}]"#
        );
        // The receipt's own ids are shown, not the call's.
        assert_eq!(
            rows[2].get("execution_id").and_then(Value::as_str),
            Some("ex_1")
        );
        assert_eq!(
            rows[2].get("provider_agent_id").and_then(Value::as_str),
            Some("agt_p")
        );
        // Not an item: an error row, kind unknown, every field null.
        assert_eq!(rows.len(), 4);
        assert_eq!(rows[3].get("kind").and_then(Value::as_str), Some("unknown"));
        assert_eq!(rows[3].get("receipt_id"), Some(&Value::Null));
    }

    #[test]
    fn an_item_cannot_name_another_own_agent_or_issuer_than_the_archive() {
        let (jwks, token, _) = signed();
        let item = |extra: &str| {
            format!(
                "{{\"receipt_jws\":\"{token}\",\"call\":{}}}",
                CALL.replace('}', &format!("{extra}}}"))
            )
        };
        let with = |own: Option<&str>, issuer: Option<&str>, extra: &str| {
            let keys = ArchiveKeys {
                jwks: Some(&jwks),
                own_agent_id: own,
                network_issuer: issuer,
                ..ArchiveKeys::default()
            };
            verify_line(item(extra).as_bytes(), &keys).map(|v| v.accepted)
        };
        let code = |r: Result<bool>| r.map_err(|e| e.code());
        // Given by the archive only, by the item only, by both alike: the same verdict.
        assert_eq!(code(with(Some("agt_c"), Some("https://net"), "")), Ok(true));
        let both = r#","own_agent_id":"agt_c","network_issuer":"https://net""#;
        let requester = r#","requester_agent_id":"agt_c""#;
        assert_eq!(
            code(with(None, None, &format!("{both}{requester}"))),
            Ok(true)
        );
        assert_eq!(
            code(with(Some("agt_c"), Some("https://net"), both)),
            Ok(true)
        );
        assert_eq!(
            code(with(
                Some("agt_c"),
                Some("https://net"),
                r#","own_agent_id":null"#
            )),
            Ok(true)
        );
        // An item naming another agent or issuer than the archive's is refused.
        for extra in [
            r#","own_agent_id":"agt_other""#,
            r#","network_issuer":"https://other""#,
            r#","own_agent_id":7"#,
        ] {
            assert_eq!(
                code(with(Some("agt_c"), Some("https://net"), extra)),
                Err(ErrorCode::InvalidArgument),
                "{extra}"
            );
        }
        // Without the archive's, the item's own are used (and decide the verdict).
        let other = r#","own_agent_id":"agt_other","network_issuer":"https://net""#;
        assert_eq!(
            code(with(None, None, &format!("{other}{requester}"))),
            Ok(false)
        );
    }

    #[test]
    fn a_failed_receipt_has_one_first_cause_and_its_knock_ons_are_marked() {
        let mut ring = KeyRing::new();
        ring.add(
            "rk-1",
            "s1",
            "2026-01-01T00:00:00Z",
            Some("2026-11-01T00:00:00Z"),
        )
        .expect("key");
        ring.add("rk-2", "s2", "2026-11-01T00:00:00Z", None)
            .expect("key");
        let keys = ArchiveKeys {
            ring: Some(&ring),
            own_agent_id: Some("a"),
            ..ArchiveKeys::default()
        };
        let receipt = |key_id: &str, secret: &str, issued_at: &str, status: &str| {
            let text = format!(
                r#"{{"receipt_version":"1.1","receipt_id":"r1","execution_kind":"validation",
                "requester_agent_id":"a","provider_agent_id":"b","collaboration_id":"c",
                "connection_id":"valcon_1","execution_id":"e","capability_id":"cap_x",
                "capability_version":"1.0.0","rel_ver_at_admission":0,"dsc_ver":1,"terms_hash":"t",
                "input_commitment":{{"alg":"sha-256","canon":"ekl-json-1","digest":"{z}"}},
                "output_commitment":{{"alg":"sha-256","canon":"ekl-json-1","digest":"{z}"}},
                "status":"succeeded","issued_at":"{issued_at}","key_id":"{key_id}",
                "auth_profile":"ekl-evidence-mac-1.1"}}"#,
                z = "0".repeat(64)
            );
            let signed =
                receipt::sign_receipt(&canonical::parse(text.as_bytes()).expect("json"), secret)
                    .expect("signs");
            let json = String::from_utf8(canonical::canonicalize_value(&signed).expect("json"))
                .expect("utf-8");
            // Changed after signing, when `status` is not the signed one.
            json.replace("\"succeeded\"", &format!("\"{status}\""))
        };
        let call = r#"{"execution_id":"e","collaboration_id":"c","capability_id":"cap_x","provider_agent_id":"b"}"#;
        let cases = [
            (
                receipt("rk-2", "s2", "2026-11-29T00:00:00Z", "succeeded"),
                None,
            ),
            (
                receipt("rk-9", "s2", "2026-11-29T00:00:00Z", "succeeded"),
                Some(("key_id", Some("unknown_key"))),
            ),
            (
                receipt("rk-1", "s1", "2026-11-29T00:00:00Z", "succeeded"),
                Some(("key_id", Some("key_expired"))),
            ),
            (
                receipt("rk-2", "s2", "2026-10-29T00:00:00Z", "succeeded"),
                Some(("key_id", Some("key_not_yet_valid"))),
            ),
            (
                receipt("rk-2", "s2", "2026-11-29T00:00:00Z", "failed_before_effect"),
                Some(("auth_tag", None)),
            ),
            (
                receipt("rk-2", "other", "2026-11-29T00:00:00Z", "succeeded"),
                Some(("auth_tag", None)),
            ),
        ];
        let text: String = cases
            .iter()
            .map(|(r, _)| format!("{{\"receipt\":{r},\"call\":{call}}}\n"))
            .collect();
        let rows = summarize_lines(text.as_bytes(), &keys, 1);
        for (row, (_, want)) in rows.iter().zip(&cases) {
            let cause = row.get("cause").expect("cause");
            let got = cause
                .get("check")
                .and_then(Value::as_str)
                .map(|c| (c, cause.get("reason").and_then(Value::as_str)));
            assert_eq!(got, *want, "{row:?}");
            let failing = row
                .get("failing")
                .and_then(Value::as_array)
                .expect("failing");
            let tag = failing
                .iter()
                .find(|f| f.get("name").and_then(Value::as_str) == Some("auth_tag"));
            match want {
                // The key failed: the tag is a knock-on, not checked, and only the key is a cause.
                Some(("key_id", _)) => {
                    let tag = tag.expect("auth_tag fails");
                    assert_eq!(
                        tag.get("blocked_by").and_then(Value::as_str),
                        Some("key_id")
                    );
                    assert_eq!(failing.len(), 2);
                }
                Some(("auth_tag", _)) => {
                    assert_eq!(tag.and_then(|t| t.get("blocked_by")), None);
                    assert_eq!(failing.len(), 1);
                }
                _ => assert!(failing.is_empty()),
            }
        }
        // An item that cannot be verified has no cause: its error is.
        let rows = summarize_lines(b"[1]\n", &keys, 1);
        assert_eq!(rows[0].get("cause"), Some(&Value::Null));
    }
}

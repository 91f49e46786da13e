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
//! names (and a MAC call's `requester_agent_id`) when the item does not give them. This is the
//! item format of the receipt dashboard (examples/dashboard), whose settings supply the same four.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::digest::Commitment;
use crate::jwk::Jwks;
use crate::receipt::{self, CallExpectation, KeyRing};
use crate::receipt_sig::{self, CallContext};
use crate::shape::members;
use crate::value::Value;
use crate::verdict::Verdict;
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

fn invalid(message: &str) -> Error {
    Error::new(ErrorCode::InvalidArgument, message.to_owned())
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

/// The verdict on one archive item (a parsed JSON value).
pub fn verify_item(item: &Value<'_>, keys: &ArchiveKeys<'_>) -> Result<Verdict> {
    members(item, "item", &ITEM_MEMBERS)?;
    let call = item
        .get("call")
        .ok_or_else(|| invalid("an item needs a call"))?;
    let jwks = || {
        keys.jwks
            .ok_or_else(|| invalid("a network-signed receipt needs the network's JWKS"))
    };
    let signed_call = || {
        with_defaults(
            call,
            &[
                ("own_agent_id", keys.own_agent_id),
                ("requester_agent_id", keys.own_agent_id),
                ("network_issuer", keys.network_issuer),
            ],
        )
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
            let call = signed_call();
            let context = CallContext::from_value(&call)?;
            receipt_sig::verify_receipt_jws(token, jwks()?, &context)
        }
        (Some(r), None) if r.get("signature").is_some() || r.get("receipt_jws").is_some() => {
            no_commitments()?;
            let call = signed_call();
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

//! The value path of ekl-json-1 (PROTOCOL §9.5, RFC 8785 §3.2): the canonical form of an
//! in-memory [`Value`], with the refusals of the text path that a value can break (duplicate keys,
//! non-finite numbers, depth, size).

use std::borrow::Cow;
use std::cmp::Ordering;

use crate::error::{Error, ErrorCode, Result};
use crate::value::Value;

use super::keys::{cmp_utf16, duplicate_key, utf16_prefix};
use super::numbers::write_number;
use super::strings::write_string;
use super::{check_size, Options, MAX_DEPTH};

enum WFrame<'v, 'a> {
    Array(std::slice::Iter<'v, Value<'a>>),
    /// An open object: its members, sorted, are `order[start..]` (see [`write_value`]); `next`
    /// indexes the next one to write.
    Object {
        start: usize,
        next: usize,
    },
}

/// Writes the canonical form of `value` to `out` (appending). Refuses duplicate keys, non-finite
/// numbers, nesting deeper than [`MAX_DEPTH`] and, with `options.max_bytes`, an oversized result.
pub fn write_value(value: &Value<'_>, out: &mut Vec<u8>, options: Options) -> Result<()> {
    let base = out.len();
    let mut stack: Vec<WFrame<'_, '_>> = Vec::with_capacity(8);
    // The sorted members of every open object, innermost last: one buffer for the whole value
    // rather than one allocation per object. An object's entries are dropped when it closes.
    // Each entry carries the key's `utf16_prefix`, so most comparisons are one integer compare.
    let mut order: Vec<(u64, &(Cow<'_, str>, Value<'_>))> = Vec::with_capacity(64);
    let mut next: Option<&Value<'_>> = Some(value);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Null => out.extend_from_slice(b"null"),
                Value::Bool(true) => out.extend_from_slice(b"true"),
                Value::Bool(false) => out.extend_from_slice(b"false"),
                Value::Number(x) => write_number(*x, out)?,
                Value::String(s) => write_string(s, out),
                Value::Array(items) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(too_deep());
                    }
                    out.push(b'[');
                    stack.push(WFrame::Array(items.iter()));
                }
                Value::Object(members) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(too_deep());
                    }
                    out.push(b'{');
                    let start = order.len();
                    order.extend(members.iter().map(|m| (utf16_prefix(&m.0), m)));
                    let sorted = &mut order[start..];
                    let cmp =
                        |a: &(u64, &(Cow<'_, str>, Value<'_>)),
                         b: &(u64, &(Cow<'_, str>, Value<'_>))| {
                            a.0.cmp(&b.0).then_with(|| cmp_utf16(&a.1 .0, &b.1 .0))
                        };
                    // Strictly increasing already (canonical input) means sorted and no
                    // duplicates; otherwise sort (insertion sort for small objects) and look for
                    // equal neighbours.
                    if !sorted
                        .windows(2)
                        .all(|w| cmp(&w[0], &w[1]) == Ordering::Less)
                    {
                        crate::sort::sort_unstable_by(sorted, cmp);
                        if sorted
                            .windows(2)
                            .any(|w| w[0].0 == w[1].0 && w[0].1 .0 == w[1].1 .0)
                        {
                            return Err(duplicate_key());
                        }
                    }
                    stack.push(WFrame::Object { start, next: start });
                }
            }
        }
        // Advance the innermost open container.
        let Some(top) = stack.last_mut() else { break };
        let first = matches!(out.last(), Some(b'[' | b'{'));
        match top {
            WFrame::Array(iter) => match iter.next() {
                Some(item) => {
                    if !first {
                        out.push(b',');
                    }
                    next = Some(item);
                }
                None => {
                    out.push(b']');
                    stack.pop();
                }
            },
            WFrame::Object { start, next: at } => match order.get(*at) {
                Some(&(_, member)) => {
                    let (k, v) = member;
                    *at += 1;
                    if !first {
                        out.push(b',');
                    }
                    write_string(k, out);
                    out.push(b':');
                    next = Some(v);
                }
                None => {
                    out.push(b'}');
                    order.truncate(*start);
                    stack.pop();
                }
            },
        }
    }
    check_size(out.len() - base, options)
}

fn too_deep() -> Error {
    Error::new(
        ErrorCode::InputTooDeep,
        format!("nesting deeper than {MAX_DEPTH} levels"),
    )
}

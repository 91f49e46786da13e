//! ekl-json-1: RFC 8785 (JCS) canonical JSON with EKP's refusals (PROTOCOL §9.5, §2.5; SPEC §1).
//!
//! * Objects: members sorted by the UTF-16 code units of their keys, no whitespace.
//! * Strings: only `"`, `\` and U+0000–U+001F are escaped, with the shortest escape
//!   (`\b \t \n \f \r`, otherwise `\u00xx` in lowercase hex); everything else is literal UTF-8.
//! * Numbers: the double, written as ECMAScript's `Number.prototype.toString` writes it.
//! * Refusals, each with its own [`ErrorCode`]: text that is not RFC 8259 JSON (`INVALID_JSON`,
//!   a UTF-8 byte-order mark included), invalid UTF-8 (`INVALID_UTF8`), lone surrogates in values
//!   or keys (`LONE_SURROGATE`), duplicate keys after unescaping (`DUPLICATE_KEY`), `NaN`,
//!   `Infinity` and literals that overflow to infinity (`NON_FINITE_NUMBER`), integer literals
//!   beyond ±2^53 (`INTEGER_OUT_OF_RANGE`; ±2^53 itself is accepted), nesting deeper than 64
//!   (`INPUT_TOO_DEEP`, found while parsing, without recursion), and optionally a canonical form
//!   larger than a limit (`BODY_TOO_LARGE`).
//!
//! Precedence when an input breaks several rules: invalid UTF-8 anywhere first; then the first
//! parse-time refusal in document order (syntax, depth, number, surrogate); then duplicate keys;
//! then size.

// The module in files, one job each: `parser` reads JSON text (RFC 8259) into a `Value` with
// the parse-time refusals; `text` is the text path, which writes the canonical form while it
// reads and puts each object's members in order when the object closes; `write` is the value
// path (`write_value`); `strings` holds the string escapes (RFC 8785 §3.2.2.2) and the copying
// of text runs; `numbers` reads number literals as doubles and writes doubles as ECMAScript does
// (RFC 8785 §3.2.2.3); `keys` orders member names by UTF-16 code units (RFC 8785 §3.2.3) and
// finds duplicates; `tests` holds the unit tests. This file is the public API and the checks of
// the input and output sizes.

use crate::error::{Error, ErrorCode, Result};
use crate::value::Value;

mod keys;
mod numbers;
mod parser;
mod strings;
mod text;
mod write;

#[cfg(test)]
mod tests;

pub use keys::{check_unique_keys, cmp_utf16};
pub use numbers::{number_to_string, write_number};
pub use strings::write_string;
pub use write::write_value;

use parser::Parser;
use text::{canonicalize_in, Scratch, SCRATCH};

/// The deepest nesting accepted: every array or object adds one level, so `[]` is depth 1 (§2.5).
pub const MAX_DEPTH: usize = 64;

/// The largest JSON text any operation reads (64 MiB), refused beyond with `BODY_TOO_LARGE`.
pub use crate::limits::MAX_INPUT_BYTES;

/// The size limit of a capability call's input as ekl-json-1: 256 KB = 262,144 bytes (§2.5).
pub const CAPABILITY_INPUT_MAX_BYTES: usize = 256 * 1024;

/// Options of a canonicalisation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Refuse with `BODY_TOO_LARGE` when the canonical form has more bytes than this.
    pub max_bytes: Option<usize>,
}

impl Options {
    /// The limits of a capability call's input (§2.5): canonical form at most 256 KB.
    pub fn capability_input() -> Options {
        Options {
            max_bytes: Some(CAPABILITY_INPUT_MAX_BYTES),
        }
    }
}

/// Canonicalises JSON text given as bytes (must be UTF-8).
///
/// ```
/// let out = ekl_core::canonical::canonicalize(br#"{"b": 1.0, "a": [true, null, "\u00e9"]}"#).unwrap();
/// assert_eq!(out, r#"{"a":[true,null,"é"],"b":1}"#.as_bytes());
/// ```
pub fn canonicalize(json: &[u8]) -> Result<Vec<u8>> {
    canonicalize_with(json, Options::default())
}

/// Canonicalises JSON text given as bytes, with options.
///
/// The same rules, codes and precedence as [`parse`] followed by [`write_value`], without
/// building a [`Value`]: the parser writes the canonical form as it reads, and puts the members
/// of each object in order when the object closes (`Parser::canonicalize_to`).
///
/// Text longer than [`MAX_INPUT_BYTES`] is refused with `BODY_TOO_LARGE` before it is read.
pub fn canonicalize_with(json: &[u8], options: Options) -> Result<Vec<u8>> {
    check_input(json.len())?;
    let text = utf8(json)?;
    // The arena, the stacks and the members' buffers are kept from call to call on this thread
    // (cleared, and dropped when they grew past `SCRATCH_KEEP`), so canonicalising a small
    // document allocates its output only.
    SCRATCH.with(|cell| {
        let mut fresh = Scratch::default();
        let mut kept = cell.try_borrow_mut();
        let s = match kept.as_deref_mut() {
            Ok(s) => s,
            Err(_) => &mut fresh, // not reachable (no callback runs inside), but never a panic
        };
        let result = canonicalize_in(json, text, options, s);
        s.trim();
        result
    })
}

/// Canonicalises an in-memory value with the same rules and codes as the text path.
///
/// ```
/// use ekl_core::Value;
/// let v = Value::Object(vec![("b".into(), Value::Number(-0.0)), ("a".into(), Value::Null)]);
/// assert_eq!(ekl_core::canonical::canonicalize_value(&v).unwrap(), br#"{"a":null,"b":0}"#);
/// ```
pub fn canonicalize_value(value: &Value<'_>) -> Result<Vec<u8>> {
    canonicalize_value_with(value, Options::default())
}

/// Canonicalises an in-memory value, with options.
pub fn canonicalize_value_with(value: &Value<'_>, options: Options) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_value(value, &mut out, options)?;
    Ok(out)
}

/// Parses JSON text into a [`Value`] with every refusal of ekl-json-1 except the size limit of the
/// canonical form: text longer than [`MAX_INPUT_BYTES`] first (`BODY_TOO_LARGE`, before it is
/// read), then the parse-time refusals in document order, then duplicate member names in any object of the text
/// (`DUPLICATE_KEY`, compared after unescaping), the precedence of [`canonicalize`].
///
/// Every operation of the library and its bindings that reads JSON text reads it with this
/// function, so a text with a duplicate member anywhere — also in a part the operation ignores or
/// only looks a member up in — is refused, never read "first member wins".
pub fn parse(json: &[u8]) -> Result<Value<'_>> {
    check_input(json.len())?;
    parse_str(utf8(json)?)
}

/// Parses JSON text with the core's parser ([`parse`], which refuses duplicate members
/// anywhere). Parse errors are re-coded as `bad_json`, except duplicates, which stay
/// `DUPLICATE_KEY`; the precedence is the parser's (parse-time refusals first).
pub(crate) fn parse_strict<'a>(
    bytes: &'a [u8],
    what: &str,
    bad_json: ErrorCode,
) -> Result<Value<'a>> {
    parse(bytes).map_err(|e| {
        if e.code() == ErrorCode::DuplicateKey {
            Error::new(
                ErrorCode::DuplicateKey,
                format!("{what} has a duplicate member"),
            )
        } else {
            Error::new(
                bad_json,
                format!("{what} is not ekl-json-1: {}", e.message()),
            )
        }
    })
}

/// Refuses JSON text longer than [`MAX_INPUT_BYTES`] (docs/decisions.md#limits).
fn check_input(len: usize) -> Result<()> {
    crate::limits::check_len(len, MAX_INPUT_BYTES, "the JSON text")
}

fn utf8(json: &[u8]) -> Result<&str> {
    // SIMD validation first (several times faster on non-ASCII text); the standard library's
    // validator only runs on failure, to name the offending byte.
    if let Ok(text) = simdutf8::basic::from_utf8(json) {
        return Ok(text);
    }
    std::str::from_utf8(json).map_err(|e| {
        Error::new(
            ErrorCode::InvalidUtf8,
            format!("invalid UTF-8 at byte {}", e.valid_up_to()),
        )
    })
}

/// Parses JSON text already known to be UTF-8, with the refusals of [`parse`].
pub fn parse_str(text: &str) -> Result<Value<'_>> {
    check_input(text.len())?;
    Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
    }
    .parse_document()
}

/// Refuses (`BODY_TOO_LARGE`) a canonical form of `len` bytes beyond `options.max_bytes`.
fn check_size(len: usize, options: Options) -> Result<()> {
    if let Some(max) = options.max_bytes {
        if len > max {
            return Err(Error::new(
                ErrorCode::BodyTooLarge,
                format!("canonical form is {len} bytes, over the limit of {max}"),
            ));
        }
    }
    Ok(())
}

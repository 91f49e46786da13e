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

use std::borrow::Cow;
use std::cmp::Ordering;

use crate::error::{Error, ErrorCode, Result};
use crate::scan::{digits_len, find_special, whitespace_len};
use crate::value::{integer_out_of_range, Value, MAX_SAFE_INTEGER_BOUND};

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

/// [`canonicalize_with`] once the text is known to be UTF-8, with the buffers of `s`.
fn canonicalize_in(json: &[u8], text: &str, options: Options, s: &mut Scratch) -> Result<Vec<u8>> {
    s.arena.clear();
    s.open.clear();
    s.members.clear();
    s.order.clear();
    // The canonical form is at most the input's length but for numbers written longer (`1e2`
    // is `100`): the output grows only then.
    let mut out = Vec::with_capacity(json.len() + BLOCK);
    let duplicate = Parser {
        text,
        bytes: json,
        pos: 0,
    }
    .canonicalize_to(&mut out, s)?;
    if duplicate {
        return Err(duplicate_key());
    }
    check_size(out.len(), options)?;
    Ok(out)
}

/// The working buffers of the text path, one set per thread (see [`canonicalize_with`]).
#[derive(Default)]
struct Scratch {
    /// The text of keys whose canonical form has escapes ([`KeyText::Arena`]).
    arena: Vec<u8>,
    /// The open containers, outermost first.
    open: Vec<Open>,
    /// The members of every open object (the current one last), in document order.
    members: Vec<Member>,
    /// One sort entry per element of `members`, at the same index ([`member_entry`]).
    order: Vec<u128>,
    /// An object's written members while they are put in order.
    moved: Vec<u8>,
}

/// An open array or object of [`Parser::canonicalize_to`]: where its content starts in the
/// output (just past `[` or `{`), and for an object the index of its first member in
/// [`Scratch::members`].
#[derive(Clone, Copy)]
struct Open {
    object: bool,
    content: usize,
    first: usize,
}

/// A member of an open object, written in document order: its key's text at
/// `key_start..key_end` of the buffer `source` names, and `start..end`,
/// its bytes `"key":value` in the output (the comma before it excluded). 20 bytes: offsets are
/// `u32`, as the input is at most [`MAX_INPUT_BYTES`] and its canonical form at most 22 bytes
/// for every 5 of it (`1e20,` is `100000000000000000000,`), far below 4 GiB.
#[derive(Clone, Copy)]
struct Member {
    key_start: u32,
    key_end: u32,
    start: u32,
    end: u32,
    source: KeyText,
}

/// Where the text of a key (after unescaping) is, for [`order_members`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum KeyText {
    /// In the input: the key had no escape.
    Input,
    /// In the output, between the quotes of its canonical form, which has no escape either
    /// (`"caf\u00e9"` is written `"café"`). It stays there until its object closes: only the
    /// members of objects inside its value move before then, and they follow it.
    Output,
    /// In the arena: its canonical form has escapes (`"a\nb"`), so its text is written apart.
    Arena,
}

/// Appends the UTF-8 form of `c`.
#[inline]
fn push_char(out: &mut Vec<u8>, c: char) {
    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

/// Appends `src[a..b]`, a run of string text, to `out`: as one block of [`BLOCK`] bytes with the
/// surplus cut off when the run fits one and both `src` and the room left in `out` have a whole
/// block (no `memcpy` call), else as a slice.
#[inline(always)]
fn copy_run(out: &mut Vec<u8>, src: &[u8], a: usize, b: usize) {
    if out.capacity() - out.len() >= BLOCK {
        append(out, src, a, b);
    } else {
        out.extend_from_slice(&src[a..b]);
    }
}

/// The most bytes of buffers [`Scratch`] keeps between calls (1 MiB each): what a larger
/// document needed is given back.
const SCRATCH_KEEP: usize = 1 << 20;

impl Scratch {
    fn trim(&mut self) {
        fn keep<T>(v: &mut Vec<T>) {
            if v.capacity() * std::mem::size_of::<T>() > SCRATCH_KEEP {
                *v = Vec::new();
            }
        }
        keep(&mut self.open);
        keep(&mut self.members);
        keep(&mut self.order);
        keep(&mut self.arena);
        keep(&mut self.moved);
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
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

// ---------------------------------------------------------------------------------------------
// Parser: one explicit stack, no recursion; the depth is checked before a container is opened.
// ---------------------------------------------------------------------------------------------

// The items and members of every open container live on two shared scratch stacks; a frame
// records where its own start. When a container closes, its elements move into one Vec of exactly
// the right size: one allocation per container, none while it grows.
enum Frame<'a> {
    Array(usize),
    Object(usize, Cow<'a, str>),
}

/// Where a parsed string's text is: `Input(start, end)` in the input (it had no escapes, so
/// no `"`, `\\` or control character either), or `Owned`: appended, unescaped, to the buffer
/// given.
#[derive(Clone, Copy)]
enum Span {
    Input(usize, usize),
    Owned,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

fn syntax(pos: usize, what: &str) -> Error {
    Error::new(ErrorCode::InvalidJson, format!("{what} at byte {pos}"))
}

impl<'a> Parser<'a> {
    /// Moves past insignificant whitespace (RFC 8259 §2), 16 or 8 bytes at a time
    /// ([`whitespace_len`]).
    #[inline]
    fn skip_ws(&mut self) {
        self.pos += whitespace_len(self.bytes, self.pos);
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn parse_document(mut self) -> Result<Value<'a>> {
        if self.bytes.starts_with("\u{feff}".as_bytes()) {
            return Err(syntax(0, "byte-order mark (U+FEFF) before the value"));
        }
        let mut stack: Vec<Frame<'a>> = Vec::with_capacity(8);
        let mut items: Vec<Value<'a>> = Vec::with_capacity(32);
        let mut members: Vec<(Cow<'a, str>, Value<'a>)> = Vec::with_capacity(64);
        // Duplicate member names are refused after every parse-time refusal (the precedence of
        // the module docs): the first one found is remembered and parsing goes on to the end.
        let mut duplicate = false;
        let mut scratch: Vec<(u64, usize)> = Vec::new();
        'value: loop {
            self.skip_ws();
            let start = self.pos;
            let mut value = match self.peek() {
                None => return Err(syntax(self.pos, "unexpected end of input")),
                Some(b'{') | Some(b'[') => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(Error::new(
                            ErrorCode::InputTooDeep,
                            format!("nesting deeper than {MAX_DEPTH} levels at byte {start}"),
                        ));
                    }
                    let open = self.bytes[self.pos];
                    self.pos += 1;
                    self.skip_ws();
                    if open == b'[' {
                        if self.peek() == Some(b']') {
                            self.pos += 1;
                            Value::Array(Vec::new())
                        } else {
                            stack.push(Frame::Array(items.len()));
                            continue 'value;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Vec::new())
                    } else {
                        let key = self.parse_key()?;
                        stack.push(Frame::Object(members.len(), key));
                        continue 'value;
                    }
                }
                Some(b'"') => Value::String(self.parse_string()?),
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'N') => return Err(self.non_finite("NaN")),
                Some(b'I') => return Err(self.non_finite("Infinity")),
                Some(b'-') if self.bytes[self.pos + 1..].starts_with(b"Infinity") => {
                    return Err(self.non_finite("-Infinity"))
                }
                Some(b'-' | b'0'..=b'9') => Value::Number(self.parse_number()?),
                Some(_) => return Err(syntax(self.pos, "unexpected character")),
            };
            // A value is complete: hand it to the enclosing containers, closing those that end.
            loop {
                self.skip_ws();
                match stack.last_mut() {
                    None => {
                        if self.pos != self.bytes.len() {
                            return Err(syntax(self.pos, "trailing data after the value"));
                        }
                        if duplicate {
                            return Err(duplicate_key());
                        }
                        return Ok(value);
                    }
                    Some(Frame::Array(start)) => {
                        let start = *start;
                        items.push(value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                stack.pop();
                                value = Value::Array(items.split_off(start));
                            }
                            _ => return Err(syntax(self.pos, "expected ',' or ']'")),
                        }
                    }
                    Some(Frame::Object(start, key)) => {
                        let start = *start;
                        let k = std::mem::replace(key, Cow::Borrowed(""));
                        members.push((k, value));
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.skip_ws();
                                *key = self.parse_key()?;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                stack.pop();
                                if !duplicate {
                                    duplicate = has_duplicate_keys(&members[start..], &mut scratch);
                                }
                                value = Value::Object(members.split_off(start));
                            }
                            _ => return Err(syntax(self.pos, "expected ',' or '}'")),
                        }
                    }
                }
            }
        }
    }

    fn literal<T>(&mut self, word: &str, value: T) -> Result<T> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(syntax(self.pos, "invalid literal"))
        }
    }

    fn non_finite(&self, word: &str) -> Error {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            Error::new(
                ErrorCode::NonFiniteNumber,
                format!("{word} has no JSON form (byte {})", self.pos),
            )
        } else {
            syntax(self.pos, "unexpected character")
        }
    }

    /// A member key: a string followed by `:` (whitespace around allowed).
    fn parse_key(&mut self) -> Result<Cow<'a, str>> {
        if self.peek() != Some(b'"') {
            return Err(syntax(self.pos, "expected a string key"));
        }
        let key = self.parse_string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(syntax(self.pos, "expected ':'"));
        }
        self.pos += 1;
        Ok(key)
    }

    /// Writes the document's canonical form to `out`, with exactly the refusals of
    /// [`Parser::parse_document`] in the same order (the two loops are kept in step), and says
    /// whether an object has a key twice (refused by the caller, after every parse-time
    /// refusal, as there).
    ///
    /// Every value is written as it is read; an object's members are written in document order
    /// (each one's extent noted in [`Scratch::members`]) and, when the object closes and their
    /// keys are not already in order, moved into order. So a byte is moved once per unsorted
    /// object around it, and a canonical document not at all.
    fn canonicalize_to(mut self, out: &mut Vec<u8>, s: &mut Scratch) -> Result<bool> {
        if self.bytes.starts_with("\u{feff}".as_bytes()) {
            return Err(syntax(0, "byte-order mark (U+FEFF) before the value"));
        }
        let mut duplicate = false;
        'value: loop {
            self.skip_ws();
            let start = self.pos;
            match self.peek() {
                None => return Err(syntax(self.pos, "unexpected end of input")),
                Some(b'{') | Some(b'[') => {
                    if s.open.len() >= MAX_DEPTH {
                        return Err(Error::new(
                            ErrorCode::InputTooDeep,
                            format!("nesting deeper than {MAX_DEPTH} levels at byte {start}"),
                        ));
                    }
                    let open = self.bytes[self.pos];
                    self.pos += 1;
                    self.skip_ws();
                    out.push(open);
                    if open == b'[' {
                        if self.peek() == Some(b']') {
                            self.pos += 1;
                            out.push(b']');
                        } else {
                            s.open.push(Open {
                                object: false,
                                content: out.len(),
                                first: 0,
                            });
                            continue 'value;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.pos += 1;
                        out.push(b'}');
                    } else {
                        s.open.push(Open {
                            object: true,
                            content: out.len(),
                            first: s.members.len(),
                        });
                        self.member_key_to(out, s)?;
                        continue 'value;
                    }
                }
                Some(b'"') => self.value_string_to(out)?,
                Some(b't') => out.extend_from_slice(self.literal("true", b"true")?),
                Some(b'f') => out.extend_from_slice(self.literal("false", b"false")?),
                Some(b'n') => out.extend_from_slice(self.literal("null", b"null")?),
                Some(b'N') => return Err(self.non_finite("NaN")),
                Some(b'I') => return Err(self.non_finite("Infinity")),
                Some(b'-') if self.bytes[self.pos + 1..].starts_with(b"Infinity") => {
                    return Err(self.non_finite("-Infinity"))
                }
                Some(b'-' | b'0'..=b'9') => self.number_to(out)?,
                Some(_) => return Err(syntax(self.pos, "unexpected character")),
            }
            // A value is complete: close the containers that end.
            loop {
                self.skip_ws();
                let Some(&top) = s.open.last() else {
                    if self.pos != self.bytes.len() {
                        return Err(syntax(self.pos, "trailing data after the value"));
                    }
                    return Ok(duplicate);
                };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        if top.object {
                            end_member(s, out.len());
                            out.push(b',');
                            self.skip_ws();
                            self.member_key_to(out, s)?;
                        } else {
                            out.push(b',');
                        }
                        continue 'value;
                    }
                    Some(b']') if !top.object => {
                        self.pos += 1;
                        s.open.pop();
                        out.push(b']');
                    }
                    Some(b'}') if top.object => {
                        self.pos += 1;
                        s.open.pop();
                        end_member(s, out.len());
                        // After a duplicate the output is never used: no need to order it.
                        if !duplicate {
                            duplicate = order_members(out, top, self.bytes, s);
                        }
                        s.members.truncate(top.first);
                        s.order.truncate(top.first);
                        out.push(b'}');
                    }
                    _ if !top.object => return Err(syntax(self.pos, "expected ',' or ']'")),
                    _ => return Err(syntax(self.pos, "expected ',' or '}'")),
                }
            }
        }
    }

    /// A member's key at `self.pos` and its `:` (whitespace around allowed): written to `out`
    /// in canonical form, then `:`, and noted as the current member of the innermost object.
    /// Same checks and refusals as [`Parser::parse_key`].
    #[inline(always)]
    fn member_key_to(&mut self, out: &mut Vec<u8>, s: &mut Scratch) -> Result<()> {
        if self.peek() != Some(b'"') {
            return Err(syntax(self.pos, "expected a string key"));
        }
        let start = out.len();
        let q = self.pos + 1;
        let i = find_special(self.bytes, q);
        let (prefix, a, b, source) = if self.bytes.get(i) == Some(&b'"') {
            // No escape: the key's text, copied with its quotes, is its canonical form.
            self.pos = i + 1;
            append(out, self.bytes, q - 1, i + 1);
            (utf16_prefix_at(self.bytes, q, i), q, i, KeyText::Input)
        } else if !self.escaped_value_string_to(out, q, i)? {
            // Its canonical form has no escape: the text is between its quotes.
            let (a, b) = (start + 1, out.len() - 1);
            (utf16_prefix_at(out, a, b), a, b, KeyText::Output)
        } else {
            // Its canonical form keeps an escape (rare): the key read again, unescaped into
            // the arena by the value path's reader.
            let at = s.arena.len();
            self.parse_escaped_string_to(&mut s.arena, q, i)?;
            let end = s.arena.len();
            (utf16_prefix_at(&s.arena, at, end), at, end, KeyText::Arena)
        };
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(syntax(self.pos, "expected ':'"));
        }
        self.pos += 1;
        out.push(b':');
        s.order.push(member_entry(prefix, s.members.len()));
        s.members.push(Member {
            key_start: a as u32,
            key_end: b as u32,
            start: start as u32,
            end: start as u32,
            source,
        });
        Ok(())
    }

    /// A string starting at the opening quote. Borrowed when it has no escapes.
    fn parse_string(&mut self) -> Result<Cow<'a, str>> {
        let mut owned = Vec::new();
        Ok(match self.parse_string_to(&mut owned)? {
            Span::Input(a, b) => Cow::Borrowed(&self.text[a..b]),
            // UTF-8: the input's text and whole characters (never an error).
            Span::Owned => Cow::Owned(
                String::from_utf8(owned).map_err(|_| syntax(self.pos, "invalid string"))?,
            ),
        })
    }

    /// A string starting at the opening quote: its span in the input when it has no escapes,
    /// otherwise its unescaped text appended to `arena` (`Span::Owned`).
    #[inline(always)]
    fn parse_string_to(&mut self, arena: &mut Vec<u8>) -> Result<Span> {
        self.pos += 1; // opening quote
        let start = self.pos;
        let bytes = self.bytes;
        // Fast scan for the end of an escape-free run (most strings: inlined).
        let i = find_special(bytes, start);
        if bytes.get(i) == Some(&b'"') {
            self.pos = i + 1;
            return Ok(Span::Input(start, i));
        }
        self.parse_escaped_string_to(arena, start, i)
    }

    /// The rest of [`Parser::parse_string_to`] from `i`, the first byte of the string at `start`
    /// that is not plain text and not its closing quote.
    #[inline(never)]
    fn parse_escaped_string_to(
        &mut self,
        arena: &mut Vec<u8>,
        start: usize,
        i: usize,
    ) -> Result<Span> {
        let bytes = self.bytes;
        match bytes.get(i) {
            None => return Err(syntax(bytes.len(), "unterminated string")),
            Some(b'\\') => {}
            Some(_) => return Err(syntax(i, "raw control character in a string")),
        }
        let mut i = i;
        let out = arena;
        // The unescaped text is never longer than the escaped one. Unless the buffer already
        // has room for the rest of the input (the text path's output has), size it to the
        // string's extent in the input (found by skipping escapes), so it never grows.
        reserve_string_extent(out, bytes, start, i);
        copy_run(out, self.bytes, start, i);
        loop {
            let Some(&b) = bytes.get(i) else {
                return Err(syntax(bytes.len(), "unterminated string"));
            };
            match b {
                b'"' => {
                    self.pos = i + 1;
                    return Ok(Span::Owned);
                }
                b'\\' => {
                    let Some(&e) = bytes.get(i + 1) else {
                        return Err(syntax(bytes.len(), "unterminated string"));
                    };
                    i += 2;
                    match e {
                        b'"' => out.push(b'"'),
                        b'\\' => out.push(b'\\'),
                        b'/' => out.push(b'/'),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'u' => push_char(out, self.unicode_escape(&mut i)?),
                        _ => return Err(syntax(i - 1, "invalid escape")),
                    }
                }
                0..=0x1f => return Err(syntax(i, "raw control character in a string")),
                _ => {
                    // Copy the run up to the next quote, backslash or control character.
                    let run_start = i;
                    i = find_special(bytes, i);
                    copy_run(out, self.bytes, run_start, i);
                }
            }
        }
    }

    /// [`Parser::parse_string_to`] for a string value, with the same checks and refusals in the
    /// same order, writing its canonical form (quotes included) to `out`: the input as it is
    /// while every escape met is one the canonical form has (most strings), otherwise the
    /// canonical form written from the first other escape on. No string is scanned twice.
    #[inline(always)]
    fn value_string_to(&mut self, out: &mut Vec<u8>) -> Result<()> {
        self.pos += 1; // opening quote
        let start = self.pos;
        let i = find_special(self.bytes, start);
        if self.bytes.get(i) == Some(&b'"') {
            self.pos = i + 1;
            append(out, self.bytes, start - 1, i + 1);
            return Ok(());
        }
        self.escaped_value_string_to(out, start, i).map(|_| ())
    }

    /// The rest of [`Parser::value_string_to`] from `i`, the first byte of the string at
    /// `start` that is not plain text and not its closing quote. Says whether the canonical form
    /// written has an escape.
    #[inline(never)]
    fn escaped_value_string_to(
        &mut self,
        out: &mut Vec<u8>,
        start: usize,
        i: usize,
    ) -> Result<bool> {
        let bytes = self.bytes;
        let mut i = i;
        // Whether the canonical form written keeps an escape.
        let mut escaped = false;
        // The input as it is, while the escapes are canonical.
        loop {
            match bytes.get(i) {
                None => return Err(syntax(bytes.len(), "unterminated string")),
                Some(b'"') => {
                    self.pos = i + 1;
                    append(out, bytes, start - 1, i + 1);
                    return Ok(escaped);
                }
                Some(b'\\') => match bytes.get(i + 1) {
                    Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => {
                        i = find_special(bytes, i + 2);
                        escaped = true;
                    }
                    Some(b'u') if canonical_u_escape(bytes.get(i + 2..i + 6)) => {
                        i = find_special(bytes, i + 6);
                        escaped = true;
                    }
                    // `\/`, another `\u` escape, an invalid or a truncated one: below.
                    _ => break,
                },
                Some(_) => return Err(syntax(i, "raw control character in a string")),
            }
        }
        out.push(b'"');
        // The canonical form is never longer than the text (an escape it keeps is kept as it is,
        // one it drops is longer than its character): room as in `parse_string_to`.
        reserve_string_extent(out, bytes, start, i);
        copy_run(out, self.bytes, start, i);
        loop {
            let Some(&b) = bytes.get(i) else {
                return Err(syntax(bytes.len(), "unterminated string"));
            };
            match b {
                b'"' => {
                    self.pos = i + 1;
                    out.push(b'"');
                    return Ok(escaped);
                }
                b'\\' => {
                    let Some(&e) = bytes.get(i + 1) else {
                        return Err(syntax(bytes.len(), "unterminated string"));
                    };
                    i += 2;
                    match e {
                        b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => {
                            out.push(b'\\');
                            out.push(e);
                            escaped = true;
                        }
                        b'/' => out.push(b'/'),
                        b'u' => {
                            let ch = self.unicode_escape(&mut i)?;
                            if (ch as u32) < 0x20 || ch == '"' || ch == '\\' {
                                push_escape(ch as u8, out);
                                escaped = true;
                            } else {
                                push_char(out, ch);
                            }
                        }
                        _ => return Err(syntax(i - 1, "invalid escape")),
                    }
                }
                0..=0x1f => return Err(syntax(i, "raw control character in a string")),
                _ => {
                    // Copy the run up to the next quote, backslash or control character.
                    let run_start = i;
                    i = find_special(bytes, i);
                    copy_run(out, self.bytes, run_start, i);
                }
            }
        }
    }

    /// The character of a `\uXXXX` escape (a surrogate pair read as one), with `*i` at its hex
    /// digits on entry and past the escape on return; a lone surrogate is `LONE_SURROGATE`.
    fn unicode_escape(&self, i: &mut usize) -> Result<char> {
        let bytes = self.bytes;
        let unit = self.hex4(*i)?;
        *i += 4;
        let c = match unit {
            0xD800..=0xDBFF => {
                let low = if bytes.get(*i) == Some(&b'\\') && bytes.get(*i + 1) == Some(&b'u') {
                    self.hex4(*i + 2)?
                } else {
                    0
                };
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(lone_surrogate(*i - 6));
                }
                *i += 6;
                0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(lone_surrogate(*i - 6)),
            u => u,
        };
        char::from_u32(c).ok_or_else(|| lone_surrogate(*i))
    }

    #[inline(always)]
    fn hex4(&self, at: usize) -> Result<u32> {
        let Some(digits) = self.bytes.get(at..at + 4) else {
            return Err(syntax(at, "truncated \\u escape"));
        };
        // Four table lookups, one test: a byte that is not a hex digit has 0x10 set.
        let [a, b, c, d] = [0, 1, 2, 3].map(|k| HEX_DIGIT[digits[k] as usize]);
        if (a | b | c | d) & 0x10 != 0 {
            return Err(syntax(at, "invalid \\u escape"));
        }
        Ok(u32::from(a) << 12 | u32::from(b) << 8 | u32::from(c) << 4 | u32::from(d))
    }

    /// A number per RFC 8259 §6. Integer literals are refused beyond ±2^53; others are read as the
    /// nearest double (correct rounding) and refused when that is infinite.
    fn parse_number(&mut self) -> Result<f64> {
        let n = self.scan_number()?;
        self.number_value(&n)
    }

    /// [`Parser::parse_number`] writing the number's canonical form to `out`, with the same
    /// checks and refusals: a literal already in canonical form (see [`NumLit::canonical`]) is
    /// copied, a short decimal written from its digits ([`NumLit::write_short_decimal`]), and
    /// only the others read as a double and written again.
    #[inline]
    fn number_to(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let n = self.scan_number()?;
        if n.canonical(self.bytes) {
            // The ±2^53 bound, which no integer of at most 15 digits reaches.
            if n.integer() && n.int_end - n.int_start > 15 {
                self.integer_value(&n)?;
            }
            append(out, self.bytes, n.start, n.end);
            return Ok(());
        }
        if n.write_short_decimal(self.bytes, out) {
            return Ok(());
        }
        // Finite: `number_value` refuses the literals that overflow.
        write_number(self.number_value(&n)?, out)
    }

    /// The extent of a number literal at `self.pos`, which it moves past; refuses what RFC 8259
    /// §6 does not allow.
    #[inline]
    fn scan_number(&mut self) -> Result<NumLit> {
        let bytes = self.bytes;
        let start = self.pos;
        let mut i = start;
        if bytes[i] == b'-' {
            i += 1;
        }
        let int_start = i;
        match bytes.get(i) {
            Some(b'0') => {
                i += 1;
                if matches!(bytes.get(i), Some(b'0'..=b'9')) {
                    return Err(syntax(start, "leading zero in a number"));
                }
            }
            Some(b'1'..=b'9') => i += 1 + digits_len(bytes, i + 1),
            _ => return Err(syntax(i, "expected a digit")),
        }
        let int_end = i;
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            let n = digits_len(bytes, i);
            if n == 0 {
                return Err(syntax(i, "expected a digit after '.'"));
            }
            i += n;
        }
        let frac_end = i;
        let mut exponent = false;
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            exponent = true;
            i += 1;
            if matches!(bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let n = digits_len(bytes, i);
            if n == 0 {
                return Err(syntax(i, "expected a digit in the exponent"));
            }
            i += n;
        }
        self.pos = i;
        Ok(NumLit {
            start,
            int_start,
            int_end,
            frac_end,
            end: i,
            exponent,
        })
    }

    /// An integer literal's value, refused beyond ±2^53.
    #[inline]
    fn integer_value(&self, n: &NumLit) -> Result<f64> {
        // 2^53 has 16 digits; no leading zeros, so more digits means out of range.
        let digits = &self.bytes[n.int_start..n.int_end];
        if digits.len() > 16 {
            return Err(integer_out_of_range());
        }
        let mut v: u64 = 0;
        for &d in digits {
            v = v * 10 + u64::from(d - b'0');
        }
        if v > MAX_SAFE_INTEGER_BOUND {
            return Err(integer_out_of_range());
        }
        let x = v as f64;
        Ok(if n.int_start > n.start { -x } else { x })
    }

    /// A scanned literal's value: integer literals within ±2^53, others the nearest double,
    /// refused when that is infinite.
    fn number_value(&self, n: &NumLit) -> Result<f64> {
        if n.integer() {
            return self.integer_value(n);
        }
        let start = n.start;
        // Literals up to 4 KiB (nearly all) go straight to the standard library's parser, which
        // is correctly rounded for them; longer ones are normalised first (see `long_literal`).
        let literal = &self.text[start..n.end];
        let x: f64 = if literal.len() <= SHORT_LITERAL_MAX {
            literal
                .parse()
                .map_err(|_| syntax(start, "invalid number"))?
        } else {
            long_number(literal, start)?
        };
        if !x.is_finite() {
            return Err(Error::new(
                ErrorCode::NonFiniteNumber,
                format!("number overflows to infinity at byte {start}"),
            ));
        }
        Ok(x)
    }
}

/// The extent of a number literal: `start..end` in all, the integer part's digits at
/// `int_start..int_end` (after the sign), the fraction (with its `.`) at `int_end..frac_end`
/// (empty without one), an exponent from `frac_end` when `exponent`.
struct NumLit {
    start: usize,
    int_start: usize,
    int_end: usize,
    frac_end: usize,
    end: usize,
    exponent: bool,
}

impl NumLit {
    #[inline]
    fn integer(&self) -> bool {
        self.frac_end == self.int_end && !self.exponent
    }

    /// Whether the literal is written exactly as [`write_number`] writes its double, so the
    /// text path may copy it:
    /// * an integer literal other than `-0` (within ±2^53 every digit is significant, and the
    ///   bound is checked apart);
    /// * a literal with a fraction and no exponent, whose last digit is not 0, with at most 15
    ///   significant digits, and below 1 at most 5 zeros after the point (`0.000001`, not
    ///   `0.0000001`, which ECMAScript writes `1e-7`). Every decimal of at most 15 significant
    ///   digits within the range of normal doubles is read back from the nearest double
    ///   (DBL_DIG = 15), so two of them never share a double: the literal's own digits (no
    ///   trailing zero) are the shortest that read back as its double, the unique ones, and the
    ///   ECMAScript layout of those digits between 10^-6 and 10^21 is the literal's own.
    #[inline]
    fn canonical(&self, bytes: &[u8]) -> bool {
        if self.exponent {
            return false;
        }
        let int = &bytes[self.int_start..self.int_end];
        if self.frac_end == self.int_end {
            return !(int == b"0" && self.int_start > self.start);
        }
        let frac = &bytes[self.int_end + 1..self.frac_end];
        if frac.last() == Some(&b'0') {
            return false;
        }
        if int == b"0" {
            let zeros = frac.iter().take_while(|&&c| c == b'0').count();
            zeros <= 5 && frac.len() - zeros <= 15
        } else {
            int.len() + frac.len() <= 15
        }
    }

    /// Writes the canonical form of a literal of at most 15 significant digits whose value lies
    /// between 1e-307 and 1e308 (exponent forms, fractions with trailing zeros: `123e-20`,
    /// `1.50`, `1E+2`, `-0.0`) to `out` and says so, without reading it as a double. By the
    /// argument of [`NumLit::canonical`] (DBL_DIG = 15 over the normal doubles), the shortest
    /// digits of its double are its own significant digits without trailing zeros, so its
    /// canonical form is those digits in ECMAScript's layout (a zero is `0`). `false`, with
    /// nothing written, for any other literal.
    fn write_short_decimal(&self, bytes: &[u8], out: &mut Vec<u8>) -> bool {
        let int = &bytes[self.int_start..self.int_end];
        let frac = if self.frac_end > self.int_end {
            &bytes[self.int_end + 1..self.frac_end]
        } else {
            &[][..]
        };
        // The exponent: at most 4 digits after `e`, `e+` or `e-`.
        let mut e: i32 = 0;
        if self.exponent {
            let mut d = &bytes[self.frac_end + 1..self.end];
            let negative = d.first() == Some(&b'-');
            if matches!(d.first(), Some(b'+' | b'-')) {
                d = &d[1..];
            }
            if d.len() > 4 {
                return false;
            }
            e = d.iter().fold(0, |a, &c| a * 10 + i32::from(c - b'0'));
            if negative {
                e = -e;
            }
        }
        // The digits of `int` then `frac`, as one sequence.
        let digit = |i: usize| {
            if i < int.len() {
                int[i]
            } else {
                frac[i - int.len()]
            }
        };
        let len = int.len() + frac.len();
        let Some(first) = (0..len).find(|&i| digit(i) != b'0') else {
            out.push(b'0'); // ±0
            return true;
        };
        let last = (first..len)
            .rev()
            .find(|&i| digit(i) != b'0')
            .unwrap_or(first);
        let k = last - first + 1;
        if k > 15 {
            return false;
        }
        // value = d1.d2…dk × 10^exp
        let exp = int.len() as i32 - 1 - first as i32 + e;
        if !(-307..=307).contains(&exp) {
            return false;
        }
        let mut digits = [0u8; 15];
        for (j, slot) in digits[..k].iter_mut().enumerate() {
            *slot = digit(first + j);
        }
        write_layout(self.int_start > self.start, &digits[..k], exp, out);
        true
    }
}

/// [`long_literal`] out of the parser's hot loop (rare: literals longer than 4 KiB).
#[cold]
#[inline(never)]
fn long_number(literal: &str, start: usize) -> Result<f64> {
    long_literal(literal.as_bytes()).ok_or_else(|| syntax(start, "invalid number"))
}

/// The longest number literal (in bytes) handed to the standard library's `f64` parser as it is.
///
/// That parser is correctly rounded, but it stops accumulating an explicit exponent once it
/// reaches 65,536 (and counts digits in 32 bits in its slow path), so a literal with tens of
/// thousands of digits whose exponent compensates them — `0.000…0001e655360` with 655,359 zeros,
/// which is 1 — reads as 0 or infinity. Up to this length the clamped exponent cannot matter: it
/// is clamped only when it is at least 65,536 in magnitude, and at most 4,096 digit positions
/// cannot bring such a value back within the 10^±400 around the doubles, so the result is the
/// same 0 or infinity. (Literals of a few hundred characters are not rare: Rust's `Display`
/// writes `1e-300` as 300 zeros and digits.)
pub(crate) const SHORT_LITERAL_MAX: usize = 4096;

/// The significant digits [`long_literal`] keeps. A value halfway between two adjacent doubles has
/// at most 767 significant digits; keeping 800 and a sticky nonzero digit after them (when any
/// nonzero digit was dropped) leaves the value on the same side of every such halfway point and of
/// every double, so the rounding is the one of the full literal.
const KEPT_DIGITS: usize = 800;

/// Reads a valid JSON number literal of any length as ECMAScript's `Number(text)` does (the
/// nearest double, ties to even), in time linear in its length and bounded memory; `None` only
/// for text that is not a number literal. Overflow gives ±infinity, underflow ±0.
///
/// The literal is normalised first: its significant digits run from the first to the last nonzero
/// digit of the integer and fraction parts together, the decimal exponent is computed in `i64`
/// (the explicit exponent saturates: leading zeros are skipped and more than 18 digits are beyond
/// every double), values whose exponent lies far outside the range of doubles are decided
/// directly, and the rest is handed to the standard library's correctly rounded parser as a
/// short literal `<at most 801 digits>e<exponent>`.
pub(crate) fn long_literal(literal: &[u8]) -> Option<f64> {
    let (negative, rest) = match literal.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, literal),
    };
    let int_len = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let (int, rest) = rest.split_at(int_len);
    let (frac, rest) = match rest.split_first() {
        Some((b'.', after)) => {
            let n = after.iter().take_while(|c| c.is_ascii_digit()).count();
            after.split_at(n)
        }
        _ => (&rest[..0], rest),
    };
    let explicit: i64 = match rest.split_first() {
        None => 0,
        Some((b'e' | b'E', after)) => {
            let (neg, digits) = match after.split_first() {
                Some((b'-', d)) => (true, d),
                Some((b'+', d)) => (false, d),
                _ => (false, after),
            };
            if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let significant = match digits.iter().position(|&c| c != b'0') {
                Some(p) => &digits[p..],
                None => &digits[..0],
            };
            // 10^18 is beyond every double whatever the digits say; i64 holds it exactly.
            let magnitude = if significant.len() > 18 {
                1_000_000_000_000_000_000
            } else {
                significant
                    .iter()
                    .fold(0i64, |a, &c| a * 10 + i64::from(c - b'0'))
            };
            if neg {
                -magnitude
            } else {
                magnitude
            }
        }
        Some(_) => return None,
    };
    if int.is_empty() || !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let signed = |x: f64| if negative { -x } else { x };
    // The digits of the integer and fraction parts as one sequence.
    let n = int.len() + frac.len();
    let digit = |k: usize| {
        if k < int.len() {
            int[k]
        } else {
            frac[k - int.len()]
        }
    };
    let first = match int.iter().position(|&c| c != b'0') {
        Some(p) => p,
        None => match frac.iter().position(|&c| c != b'0') {
            Some(p) => int.len() + p,
            None => return Some(signed(0.0)),
        },
    };
    // A nonzero digit exists (`first`), so one of the two searches finds the last one.
    let last = match frac.iter().rposition(|&c| c != b'0') {
        Some(p) => int.len() + p,
        None => int.iter().rposition(|&c| c != b'0')?,
    };
    debug_assert!(first <= last && last < n);
    // value = 0.d_first…d_last × 10^point: lengths are below 2^63, so these never overflow.
    let point = (int.len() as i64 - first as i64).saturating_add(explicit);
    if point > 400 {
        return Some(signed(f64::INFINITY)); // at least 10^399
    }
    if point < -400 {
        return Some(signed(0.0)); // below 10^-400, less than half the smallest subnormal
    }
    let count = last - first + 1;
    let kept = count.min(KEPT_DIGITS);
    let mut text = String::with_capacity(kept + 8);
    text.extend((first..first + kept).map(|k| char::from(digit(k))));
    let mut exponent = point - kept as i64;
    if count > kept {
        // Digits were dropped and the last of them is nonzero: a sticky digit below the kept ones.
        text.push('1');
        exponent -= 1;
    }
    text.push('e');
    text.push_str(&exponent.to_string());
    text.parse::<f64>().ok().map(signed)
}

/// Makes room in `out` for a string that starts at `start` and has its first escape at `i`,
/// unless `out` already has room for the rest of the input (the text path sizes it so): the
/// string's extent in the input (found by skipping escapes), so `out` never grows while the
/// string is written. Neither the unescaped nor the canonical form is longer than the text.
fn reserve_string_extent(out: &mut Vec<u8>, bytes: &[u8], start: usize, i: usize) {
    if out.capacity() - out.len() < bytes.len() - start {
        let mut end = i;
        while let Some(&c) = bytes.get(end) {
            match c {
                b'\\' => end = find_special(bytes, end + 2),
                b'"' => break,
                _ => end = find_special(bytes, end + 1),
            }
        }
        out.reserve(end.min(bytes.len()) - start);
    }
}

/// Whether the four bytes after `\u` are an escape that the canonical form has: `00` then
/// a control character other than those with a short escape, in lowercase hex (`\u001f`).
#[inline]
fn canonical_u_escape(hex: Option<&[u8]>) -> bool {
    let Some(&[b'0', b'0', h, l]) = hex else {
        return false;
    };
    let low = match l {
        b'0'..=b'9' => l - b'0',
        b'a'..=b'f' => l - b'a' + 10,
        _ => return false,
    };
    match h {
        b'0' => !matches!(low, 0x8 | 0x9 | 0xa | 0xc | 0xd),
        b'1' => true,
        _ => false,
    }
}

/// Appends the canonical escape of `b`: `"`, `\\` or a control character (U+0000–U+001F).
#[inline]
fn push_escape(b: u8, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match ESCAPE[usize::from(b)] {
        b'u' => {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 15)]);
        }
        e => {
            out.push(b'\\');
            out.push(e);
        }
    }
}

/// The refusal of a member name that occurs twice in one object (after unescaping).
pub(crate) fn duplicate_key() -> Error {
    Error::new(ErrorCode::DuplicateKey, "duplicate key in an object")
}

/// Whether two members of one object have the same name: the one duplicate rule of the parser
/// and of [`check_unique_keys`]. Names are compared by a 64-bit hash first and in full only when
/// the hashes are equal: pairwise up to 8 members, through a small table on the stack up to 64,
/// otherwise (unless the names are already in increasing order, as in canonical input) by sorting
/// in `scratch` by hash, then name. Worst case (names made to collide): O(n log n) comparisons
/// for a large object, at most 2,016 for one of up to 64 members.
fn has_duplicate_keys(
    members: &[(Cow<'_, str>, Value<'_>)],
    scratch: &mut Vec<(u64, usize)>,
) -> bool {
    let n = members.len();
    let same = |a: usize, b: usize| members[a].0 == members[b].0;
    if n < 2 {
        return false;
    }
    if n <= 8 {
        let mut hashes = [0u64; 8];
        for (h, m) in hashes.iter_mut().zip(members) {
            *h = key_hash(&m.0);
        }
        return (1..n).any(|j| (0..j).any(|i| hashes[i] == hashes[j] && same(i, j)));
    }
    if n <= 64 {
        // Open addressing, 128 slots: a slot holds the member index + 1 (0 = empty).
        let mut slots = [0u8; 128];
        let mut hashes = [0u64; 64];
        for (j, m) in members.iter().enumerate() {
            let h = key_hash(&m.0);
            hashes[j] = h;
            let mut at = (h >> 57) as usize;
            loop {
                match slots[at] {
                    0 => {
                        slots[at] = j as u8 + 1;
                        break;
                    }
                    k => {
                        let i = usize::from(k - 1);
                        if hashes[i] == h && same(i, j) {
                            return true;
                        }
                        at = (at + 1) % 128;
                    }
                }
            }
        }
        return false;
    }
    if members.windows(2).all(|w| w[0].0 < w[1].0) {
        return false;
    }
    // By hash, then by name among equal hashes (so names made to collide cost O(n log n)
    // comparisons, not O(n^2)): a duplicate ends up next to its twin.
    scratch.clear();
    scratch.extend(members.iter().enumerate().map(|(i, m)| (key_hash(&m.0), i)));
    scratch.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| members[a.1].0.cmp(&members[b.1].0))
    });
    scratch
        .windows(2)
        .any(|w| w[0].0 == w[1].0 && same(w[0].1, w[1].1))
}

/// A 64-bit hash of a member name from its length and its first and last 8 bytes (constant time
/// whatever the length): equal names have equal hashes, and names that differ there almost never
/// collide (colliding names are compared in full).
#[inline]
fn key_hash(key: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let b = key.as_bytes();
    let n = b.len();
    let word = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("a slice of 8 bytes"));
    let (first, last) = if n >= 8 {
        (word(&b[..8]), word(&b[n - 8..]))
    } else {
        let mut t = [0u8; 8];
        t[..n].copy_from_slice(b);
        (u64::from_le_bytes(t), 0)
    };
    let h = (first ^ (n as u64).rotate_left(56)).wrapping_mul(K);
    (h.rotate_left(29) ^ last).wrapping_mul(K)
}

/// Refuses (`DUPLICATE_KEY`) an object whose members hold one name twice; only this object's own
/// members are compared, not those of nested objects. For values that did not come from
/// [`parse`] (which refuses duplicates anywhere): operations that look members up by name check
/// the objects they look in, so a lookup never silently takes the first of two members.
pub fn check_unique_keys(members: &[(Cow<'_, str>, Value<'_>)]) -> Result<()> {
    if has_duplicate_keys(members, &mut Vec::new()) {
        Err(duplicate_key())
    } else {
        Ok(())
    }
}

fn lone_surrogate(pos: usize) -> Error {
    Error::new(
        ErrorCode::LoneSurrogate,
        format!("lone surrogate escape at byte {pos}"),
    )
}

// ---------------------------------------------------------------------------------------------
// Writer
// ---------------------------------------------------------------------------------------------

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
                        sorted.sort_unstable_by(cmp);
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

/// A member of an object as [`order_members`] sorts it: the key's [`utf16_prefix`] in the high
/// 64 bits, the member's index in [`Scratch::members`] in the low ones.
#[inline]
fn member_entry(prefix: u64, member: usize) -> u128 {
    (u128::from(prefix) << 64) | member as u128
}

/// Notes that the current member of the innermost object ends at `at` in the output.
#[inline(always)]
fn end_member(s: &mut Scratch, at: usize) {
    if let Some(m) = s.members.last_mut() {
        m.end = at as u32;
    }
}

/// Puts the members of the object `top`, just closed (its members are `s.members[top.first..]`,
/// written in document order from `top.content` on), into the order of their keys' UTF-16 code
/// units, unless they already are; says whether two keys are equal (then nothing is moved).
/// `input` is the text the keys of [`KeyText::Input`] are in.
fn order_members(out: &mut Vec<u8>, top: Open, input: &[u8], s: &mut Scratch) -> bool {
    let Scratch {
        arena,
        members,
        order,
        moved,
        ..
    } = s;
    let sorted = &mut order[top.first..];
    // Keys in increasing order of their prefixes are in UTF-16 order and distinct (canonical
    // input); otherwise sort the entries as integers (by prefix, then position), then each run of
    // keys with one prefix by their whole text, looking for a key there twice.
    if sorted.windows(2).all(|w| (w[0] >> 64) < (w[1] >> 64)) {
        return false;
    }
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| (w[0] >> 64) == (w[1] >> 64)) {
        let written: &[u8] = out;
        let key = |e: u128| {
            let m = &members[e as u64 as usize];
            let src = match m.source {
                KeyText::Input => input,
                KeyText::Output => written,
                KeyText::Arena => &arena[..],
            };
            &src[m.key_start as usize..m.key_end as usize]
        };
        let mut i = 0;
        while i < sorted.len() {
            let mut j = i + 1;
            while j < sorted.len() && sorted[j] >> 64 == sorted[i] >> 64 {
                j += 1;
            }
            if j - i > 1 {
                let run = &mut sorted[i..j];
                run.sort_unstable_by(|a, b| cmp_utf16_bytes(key(*a), key(*b)));
                if run.windows(2).any(|w| key(w[0]) == key(w[1])) {
                    return true;
                }
            }
            i = j;
        }
    }
    // The members, written one after the other, move aside and come back in order.
    moved.clear();
    moved.extend_from_slice(&out[top.content..]);
    out.truncate(top.content);
    for (k, &e) in sorted.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        let m = members[e as u64 as usize];
        append(
            out,
            moved,
            m.start as usize - top.content,
            m.end as usize - top.content,
        );
    }
    false
}

/// Appends `src[a..b]` to `out`. Most spans the writer copies are short (keys, numbers,
/// strings of a few dozen bytes): up to [`BLOCK`] bytes, when `src` has a whole block from `a`
/// on, they are copied as one block of 16 or of [`BLOCK`] bytes and the surplus cut off, without
/// a call to `memcpy` and its branches on the length.
#[inline(always)]
fn append(out: &mut Vec<u8>, src: &[u8], a: usize, b: usize) {
    let n = b - a;
    if n <= 16 {
        if let Some(block) = src.get(a..a + 16) {
            let len = out.len();
            let block: &[u8; 16] = block.try_into().expect("a slice of 16 bytes");
            out.extend_from_slice(block);
            out.truncate(len + n);
            return;
        }
    } else if n <= BLOCK {
        if let Some(block) = src.get(a..a + BLOCK) {
            let len = out.len();
            let block: &[u8; BLOCK] = block.try_into().expect("a slice of BLOCK bytes");
            out.extend_from_slice(block);
            out.truncate(len + n);
            return;
        }
    }
    out.extend_from_slice(&src[a..b]);
}

/// The longest span [`append`] copies as one block, and the room the text path's output has
/// beyond the input's length, so that the surplus of a block never makes it grow.
const BLOCK: usize = 64;

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

fn too_deep() -> Error {
    Error::new(
        ErrorCode::InputTooDeep,
        format!("nesting deeper than {MAX_DEPTH} levels"),
    )
}

/// Orders two strings by their UTF-16 code units (RFC 8785 §3.2.3).
///
/// UTF-8 byte order equals code point order; the two differ from UTF-16 order only where a
/// character in U+E000–U+FFFF (lead byte 0xEE or 0xEF) meets a supplementary character (lead byte
/// 0xF0–0xF4, a surrogate pair in UTF-16, which sorts first).
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    cmp_utf16_bytes(a.as_bytes(), b.as_bytes())
}

/// [`cmp_utf16`] of two strings' UTF-8 bytes.
fn cmp_utf16_bytes(x: &[u8], y: &[u8]) -> Ordering {
    let n = x.len().min(y.len());
    // The first differing byte, eight bytes at a time: in little-endian words, the lowest set
    // bit of the XOR falls in the first byte that differs.
    let mut i = 0;
    while i + 8 <= n {
        let p = u64::from_le_bytes(x[i..i + 8].try_into().expect("a slice of 8 bytes"));
        let q = u64::from_le_bytes(y[i..i + 8].try_into().expect("a slice of 8 bytes"));
        if p != q {
            i += ((p ^ q).trailing_zeros() / 8) as usize;
            return cmp_utf16_at(x[i], y[i]);
        }
        i += 8;
    }
    while i < n {
        if x[i] != y[i] {
            return cmp_utf16_at(x[i], y[i]);
        }
        i += 1;
    }
    x.len().cmp(&y.len())
}

/// A sort key of a string's first 8 bytes that orders as [`cmp_utf16`] does, except that equal
/// keys say nothing (shorter strings are padded with zero bytes; compare in full then).
///
/// At the first byte where two UTF-8 strings differ both are lead bytes or both continuation
/// bytes, so the UTF-16 order is the byte order once the lead bytes of U+E000–U+FFFF (0xEE,
/// 0xEF) are moved above those of the supplementary planes (0xF0–0xF4): 0xF0–0xF4 become
/// 0xEE–0xF2 and 0xEE, 0xEF become 0xF3, 0xF4 (0xF5–0xFF never occur).
#[inline]
fn utf16_prefix(s: &str) -> u64 {
    utf16_prefix_bytes(s.as_bytes())
}

/// [`utf16_prefix`] of a string's bytes.
#[inline]
fn utf16_prefix_bytes(b: &[u8]) -> u64 {
    let n = b.len().min(8);
    let mut k = [0u8; 8];
    k[..n].copy_from_slice(&b[..n]);
    utf16_order_bytes(k)
}

/// [`utf16_prefix`] of the string `src[a..b]` (a UTF-8 string: `src` is the input or the
/// arena), reading the 8 bytes at `a` as one word when `src` has them and clearing those past
/// `b`, without a variable-length copy.
#[inline(always)]
fn utf16_prefix_at(src: &[u8], a: usize, b: usize) -> u64 {
    let Some(word) = src.get(a..a + 8) else {
        return utf16_prefix_bytes(&src[a..b]);
    };
    // The first min(n, 8) bytes of the big-endian word, without a branch on the length.
    let keep = !((u128::from(u64::MAX) >> (8 * (b - a).min(8))) as u64);
    let w = u64::from_be_bytes(word.try_into().expect("a slice of 8 bytes")) & keep;
    utf16_order_bytes(w.to_be_bytes())
}

/// The big-endian word of a string's first 8 bytes (zero-padded), with the lead bytes remapped
/// as [`utf16_prefix`] describes.
#[inline]
fn utf16_order_bytes(k: [u8; 8]) -> u64 {
    // Whether a byte is 0xEE or above, for all eight at once: its high bit, and the high bit of
    // its low seven bits plus 0x12 (no carry leaves a byte).
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let w = u64::from_ne_bytes(k);
    if w & ((w & LOW7) + 0x1212_1212_1212_1212) & !LOW7 != 0 {
        return u64::from_be_bytes(k.map(|c| UTF16_LEAD_ORDER[c as usize]));
    }
    u64::from_be_bytes(k)
}

/// Each byte as [`utf16_prefix`] orders it: 0xF0–0xF4 become 0xEE–0xF2 and 0xEE, 0xEF become
/// 0xF3, 0xF4; every other byte is itself.
static UTF16_LEAD_ORDER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = match i as u8 {
            c @ (0xEE | 0xEF) => c + 5,
            c @ 0xF0..=0xF4 => c - 2,
            c => c,
        };
        i += 1;
    }
    t
};

/// The order of two strings whose first difference is the bytes `p` and `q` (same prefix).
#[inline]
fn cmp_utf16_at(p: u8, q: u8) -> Ordering {
    let bmp_high = |c: u8| c == 0xEE || c == 0xEF;
    if (bmp_high(p) && q >= 0xF0) || (bmp_high(q) && p >= 0xF0) {
        q.cmp(&p)
    } else {
        p.cmp(&q)
    }
}

/// The value of each byte as a hex digit (either case), or 0x10 when it is not one.
static HEX_DIGIT: [u8; 256] = {
    let mut t = [0x10u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

static ESCAPE: [u8; 256] = {
    // 0: literal; b'u': \u00xx; otherwise the short escape letter.
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// Writes a string with RFC 8785's minimal escaping.
pub fn write_string(s: &str, out: &mut Vec<u8>) {
    write_string_bytes(s.as_bytes(), out);
}

/// [`write_string`] of a string's UTF-8 bytes.
fn write_string_bytes(bytes: &[u8], out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    loop {
        let i = find_special(bytes, start);
        let Some(&b) = bytes.get(i) else { break };
        let e = ESCAPE[b as usize];
        out.extend_from_slice(&bytes[start..i]);
        if e == b'u' {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(b >> 4) as usize],
                HEX[(b & 15) as usize],
            ]);
        } else {
            out.extend_from_slice(&[b'\\', e]);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// "00" to "99", two bytes each.
static DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Writes a finite double as ECMAScript's `Number.prototype.toString` (RFC 8785 §3.2.2.3).
/// Refuses NaN and ±inf with `NON_FINITE_NUMBER`.
pub fn write_number(x: f64, out: &mut Vec<u8>) -> Result<()> {
    if !x.is_finite() {
        return Err(Error::new(
            ErrorCode::NonFiniteNumber,
            "NaN and Infinity have no JSON form",
        ));
    }
    if x == 0.0 {
        out.push(b'0'); // -0 too
        return Ok(());
    }
    // Integers below 2^53 in magnitude: every digit is significant, so the shortest form is the
    // integer itself.
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        let mut buf = [0u8; 20];
        let mut n = x.abs() as u64;
        let mut i = buf.len();
        while n >= 100 {
            let d = (n % 100) as usize * 2;
            n /= 100;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[d..d + 2]);
        }
        if n >= 10 {
            let d = n as usize * 2;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[d..d + 2]);
        } else {
            i -= 1;
            buf[i] = b'0' + n as u8;
        }
        if x < 0.0 {
            out.push(b'-');
        }
        out.extend_from_slice(&buf[i..]);
        return Ok(());
    }
    // The shortest digits that read back as x, the closest to x of those (Ryu), laid out as
    // ECMAScript does. Ryu prints "0.001234", "123.45", "1.5e-7" or "1e21"; whatever the layout,
    // read the significant digits and the decimal exponent of the first one.
    let mut ryu_buf = ryu::Buffer::new();
    let text = ryu_buf.format_finite(x.abs()).as_bytes();
    // Most doubles: Ryu writes those from 1e-5 to 1e16 with the point in place ("123.45",
    // "0.00012"), as ECMAScript does (it does so from 1e-6 to 1e21), with the same shortest
    // digits, unless two of them are equally close (see `break_tie_to_even`), which needs an
    // exact value of few digits: not for a double m·2^q (m odd) with q < -25. Integers ("…0.0")
    // and exponent forms take the general path below.
    //
    // Ryu's exponent form ("1.5e-7", "1e300": mantissa, 'e', exponent) is ECMAScript's too when
    // ECMAScript also takes that form, i.e. when the exponent e is below -6 or above 20, with a
    // '+' before a positive exponent ("1e+300").
    let e_at = text.iter().position(|&c| c == b'e').unwrap_or(text.len());
    if !may_tie(x) {
        if e_at == text.len() {
            if !text.ends_with(b".0") {
                if x < 0.0 {
                    out.push(b'-');
                }
                out.extend_from_slice(text);
                return Ok(());
            }
        } else {
            let (negative_e, digits) = match &text[e_at + 1..] {
                [b'-', rest @ ..] => (true, rest),
                rest => (false, rest),
            };
            let e = digits
                .iter()
                .fold(0i32, |a, &c| a * 10 + i32::from(c - b'0'));
            if (negative_e && e > 6) || (!negative_e && e > 20) {
                if x < 0.0 {
                    out.push(b'-');
                }
                out.extend_from_slice(&text[..=e_at]);
                if !negative_e {
                    out.push(b'+');
                }
                out.extend_from_slice(&text[e_at + 1..]);
                return Ok(());
            }
        }
    }
    let mut digits = [0u8; 24];
    let mut k = 0;
    // Digits of the mantissa before its '.', minus the leading zeros skipped.
    let mut point: i32 = 0;
    let mut seen_point = false;
    for &c in &text[..e_at] {
        if c == b'.' {
            seen_point = true;
        } else if k == 0 && c == b'0' {
            if seen_point {
                point -= 1;
            }
        } else {
            digits[k] = c;
            k += 1;
            if !seen_point {
                point += 1;
            }
        }
    }
    while k > 1 && digits[k - 1] == b'0' {
        k -= 1;
    }
    let mut e: i32 = 0;
    let mut neg_e = false;
    for &c in text.get(e_at + 1..).unwrap_or(&[]) {
        match c {
            b'-' => neg_e = true,
            b'0'..=b'9' => e = e * 10 + i32::from(c - b'0'),
            _ => {}
        }
    }
    if neg_e {
        e = -e;
    }
    // value = 0.d1d2… × 10^(point + e) = d1.d2… × 10^exp
    let exp = point + e - 1;
    break_tie_to_even(x.abs(), &mut digits[..k], exp);
    write_layout(x < 0.0, &digits[..k], exp, out);
    Ok(())
}

/// Writes `±d1.d2…dk × 10^exp` (the shortest digits of a nonzero double, without trailing
/// zeros) as ECMAScript's `Number.prototype.toString` lays them out.
fn write_layout(negative: bool, digits: &[u8], exp: i32, out: &mut Vec<u8>) {
    let n = exp + 1; // position of the decimal point relative to the digits
    let k = digits.len() as i32;
    if negative {
        out.push(b'-');
    }
    if k <= n && n <= 21 {
        out.extend_from_slice(digits);
        out.extend(std::iter::repeat_n(b'0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.extend_from_slice(&digits[..n as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-n) as usize));
        out.extend_from_slice(digits);
    } else {
        out.push(digits[0]);
        if k > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'e');
        let e = n - 1;
        out.push(if e > 0 { b'+' } else { b'-' });
        let e = e.unsigned_abs() as usize; // at most 324
        if e >= 100 {
            out.push(b'0' + (e / 100) as u8);
            out.extend_from_slice(&DIGIT_PAIRS[e % 100 * 2..e % 100 * 2 + 2]);
        } else if e >= 10 {
            out.extend_from_slice(&DIGIT_PAIRS[e * 2..e * 2 + 2]);
        } else {
            out.push(b'0' + e as u8);
        }
    }
}

/// False when `x` = m·2^q (m odd) has q < -25: then its exact decimal value has more than 18
/// significant digits and no tie between two shortest digit strings is possible (the first test
/// of [`break_tie_to_even`]).
#[inline]
fn may_tie(x: f64) -> bool {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (m, q) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    m == 0 || q + m.trailing_zeros() as i32 >= -25
}

/// Of two shortest digit strings equally close to `x`, ECMAScript takes the even one (ECMA-262
/// Number::toString: "if there are two such possible values of n, choose the one that is even");
/// Rust's `{:e}` takes the upper one (`1000000000000000.25` → `…0.3`, V8 `…0.2`). A tie needs the
/// exact decimal value of `x` to have one significant digit more than the shortest form, the last
/// being 5: only doubles whose exact value has at most 18 significant digits, found here with
/// integer arithmetic. `x > 0`; `digits` are the `k` shortest digits, `exp` the decimal exponent
/// of the first one. Rewrites `digits` in place when the even neighbour is the answer.
fn break_tie_to_even(x: f64, digits: &mut [u8], exp: i32) {
    let k = digits.len();
    match digits.last() {
        Some(&d) if (d - b'0') % 2 == 1 && k < 18 => {}
        _ => return, // an even last digit is already the even choice
    }
    // x = m * 2^q with m odd.
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mut m, mut q) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    if m == 0 {
        return;
    }
    q += m.trailing_zeros() as i32;
    m >>= m.trailing_zeros();
    // The exact value is n * 10^t with n not ending in 0: for q < 0, n = m * 5^-q (t = q);
    // for q > 0 it has that form with a short n only when 5^q divides m (n = m / 5^q, t = q).
    let n: u128 = if q < 0 {
        if q < -25 {
            return; // n >= 5^26 > 10^18: too many digits for a tie
        }
        u128::from(m) * 5u128.pow(q.unsigned_abs())
    } else {
        if q == 0 || q > 22 {
            return; // an odd integer (written exactly) or m < 5^q
        }
        let p = 5u64.pow(q.unsigned_abs());
        if !m.is_multiple_of(p) {
            return;
        }
        u128::from(m / p)
    };
    let k32 = k as u32;
    if n % 10 != 5 || n < 10u128.pow(k32) || n >= 10u128.pow(k32 + 1) {
        return; // not a tie at k digits
    }
    let ours = digits
        .iter()
        .fold(0u128, |a, &c| a * 10 + u128::from(c - b'0'));
    let below = n / 10;
    let even = if below.is_multiple_of(2) {
        below
    } else {
        below + 1
    };
    if ours == even || (ours != below && ours != below + 1) {
        return;
    }
    // The even candidate must still read back as x (for a power of two the gap below is half
    // the gap above) and keep k digits.
    let text = format!("{even}e{}", exp - (k as i32 - 1));
    if text.parse::<f64>() != Ok(x) || even >= 10u128.pow(k32) {
        return;
    }
    let mut rest = even;
    for d in digits.iter_mut().rev() {
        *d = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
}

/// The ECMAScript text of a finite double, as a `String` (`None` for NaN and ±inf).
pub fn number_to_string(x: f64) -> Option<String> {
    let mut out = Vec::with_capacity(24);
    write_number(x, &mut out).ok()?;
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> std::result::Result<String, &'static str> {
        canonicalize(s.as_bytes())
            .map(|b| String::from_utf8(b).expect("canonical output is UTF-8"))
            .map_err(|e| e.code().as_str())
    }

    #[test]
    #[allow(clippy::excessive_precision)]
    fn numbers() {
        for (x, s) in [
            (41.0, "41"),
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (333333333.33333329, "333333333.3333333"),
            (9007199254740993.0, "9007199254740992"),
            (1e20, "100000000000000000000"),
            (123e18, "123000000000000000000"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (2f64.powi(60), "1152921504606847000"),
        ] {
            assert_eq!(number_to_string(x).as_deref(), Some(s), "{x:e}");
        }
    }

    #[test]
    fn refusals() {
        assert_eq!(canon("[9007199254740992]"), Ok("[9007199254740992]".into()));
        assert_eq!(
            canon("[-9007199254740992]"),
            Ok("[-9007199254740992]".into())
        );
        assert_eq!(canon("[9007199254740993]"), Err("INTEGER_OUT_OF_RANGE"));
        assert_eq!(canon("[1e400]"), Err("NON_FINITE_NUMBER"));
        assert_eq!(canon("[-Infinity]"), Err("NON_FINITE_NUMBER"));
        assert_eq!(canon(r#"{"a":1,"\u0061":2}"#), Err("DUPLICATE_KEY"));
        assert_eq!(canon(r#"["\ud800"]"#), Err("LONE_SURROGATE"));
        assert_eq!(canon(r#"{"\udc00":1}"#), Err("LONE_SURROGATE"));
        assert_eq!(canon("[1,]"), Err("INVALID_JSON"));
        assert_eq!(canon("\u{feff}[]"), Err("INVALID_JSON"));
        assert_eq!(canon(&"[".repeat(65)), Err("INPUT_TOO_DEEP"));
        let ok64 = format!("{}{}", "[".repeat(64), "]".repeat(64));
        assert_eq!(canon(&ok64), Ok(ok64.clone()));
    }

    /// The text path and the value path (parse, then write_value) must agree on every
    /// input: same bytes, or the same error (code and message).
    fn both_paths(input: &[u8]) {
        let text = canonicalize_with(input, Options::capability_input());
        let value = parse(input).and_then(|v| {
            let mut out = Vec::new();
            write_value(&v, &mut out, Options::capability_input()).map(|()| out)
        });
        assert_eq!(text, value, "{:?}", String::from_utf8_lossy(input));
    }

    #[test]
    fn text_path_equals_value_path_on_every_truncation_and_byte_change() {
        let docs: [&[u8]; 8] = [
            "{\"é😀ｱ\":[\"日本\\n語\",\"\\u00e9x€\"],\"\u{e000}\":{\"𝄞\":\"ｶ\"}}".as_bytes(),
            b"[\"\xc3\xa9\xed\xa0\x80\", {\"\xef\xbd\xb1\xe2\x82\": \"x\\n\xc0\xaf\"}, 1.5e\xff]",
            br#" {"b": [1, 2.50, -0, 1e21, {"\u00e9": "x\n\"y\ud83d\ude00"}], "a": {"z": null, "\uff61": true, "\ud83d\ude00": false}, "c": []} "#,
            br#"[{"a":1,"a":2},{"k":"\u0001\/"},"tail"]"#,
            br#"{"x":[[[{}]]],"y":"\udc00","z":9007199254740993}"#,
            br#"[NaN, Infinity, -Infinity, 1e400, 01, 1., .5, "a	b"]"#,
            "\u{feff}[1]".as_bytes(),
            b"[\"\xff\", 1,]",
        ];
        let swaps = b"\"\\{}[],:0-e. \x01\xc3a";
        for doc in docs {
            for n in 0..=doc.len() {
                both_paths(&doc[..n]);
            }
            for i in 0..doc.len() {
                for &b in swaps {
                    let mut d = doc.to_vec();
                    d[i] = b;
                    both_paths(&d);
                }
            }
        }
        both_paths(format!("{}1{}", "[".repeat(64), "]".repeat(64)).as_bytes());
        both_paths(format!("{}1{}", "[".repeat(65), "]".repeat(65)).as_bytes());
        both_paths(format!("[\"{}\"]", "x".repeat(CAPABILITY_INPUT_MAX_BYTES)).as_bytes());
        both_paths(
            format!(
                "[\"{}\",{{\"a\":1,\"a\":1}}]",
                "x".repeat(CAPABILITY_INPUT_MAX_BYTES)
            )
            .as_bytes(),
        );
    }

    /// The text path copies canonical number literals and value strings as they are (see
    /// [`NumLit::canonical`], [`Parser::parse_value_string_to`]); the value path reads them and
    /// writes them again. Both must agree on every literal around the bounds of those fast
    /// paths (15 and 16 significant digits, 5 and 6 zeros after the point, trailing zeros,
    /// `-0`, exponents) and on every escape, canonical or not, wherever it stands.
    #[test]
    fn copied_numbers_and_strings_equal_the_value_path() {
        let mut rng = crate::test_rng::SplitMix64(0x7665_7262_6174_696d);
        let mut next = move || rng.next_u64();
        let digits = |n: u64, first_nonzero: bool, next: &mut dyn FnMut() -> u64| -> String {
            (0..n)
                .map(|k| {
                    let d = next() % 10;
                    let d = if k == 0 && first_nonzero {
                        1 + d % 9
                    } else {
                        d
                    };
                    char::from(b'0' + d as u8)
                })
                .collect()
        };
        // An optional minus, then `0` or up to 17 digits without a leading zero.
        let sign_and_int = |next: &mut dyn FnMut() -> u64| {
            let sign = if next().is_multiple_of(3) { "-" } else { "" };
            let int = if next().is_multiple_of(3) {
                "0".to_string()
            } else {
                digits(1 + next() % 17, true, next)
            };
            (sign, int)
        };
        for _ in 0..100_000 {
            let (sign, int) = sign_and_int(&mut next);
            let frac = match next() % 4 {
                0 => String::new(),
                _ => {
                    let zeros = "0".repeat((next() % 8) as usize);
                    let body = digits(next() % 18, false, &mut next);
                    let tail = "0".repeat((next() % 3) as usize);
                    let f = format!("{zeros}{body}{tail}");
                    format!(".{}", if f.is_empty() { "0" } else { &f })
                }
            };
            let exp = match next() % 8 {
                0 => format!("e{}", next() % 30),
                1 => format!("E-{}", next() % 30),
                _ => String::new(),
            };
            let lit = format!("{sign}{int}{frac}{exp}");
            both_paths(format!("[{lit}]").as_bytes());
            both_paths(format!("{{\"k\":{lit}}}").as_bytes());
        }
        // Exponent forms around the bounds of the short-decimal rule (`write_short_decimal`: at
        // most 15 significant digits, the value between 1e-307 and 1e308, exponents of at most
        // 4 digits, leading zeros in the exponent too).
        for _ in 0..200_000 {
            let (sign, int) = sign_and_int(&mut next);
            let frac = match next() % 3 {
                0 => String::new(),
                _ => {
                    let zeros = "0".repeat((next() % 12) as usize);
                    let body = digits(next() % 17, false, &mut next);
                    let tail = "0".repeat((next() % 4) as usize);
                    format!(".{zeros}{body}{tail}0")
                }
            };
            let e = match next() % 4 {
                0 => next() % 30,
                1 => 280 + next() % 50,
                2 => next() % 12_000,
                _ => 300 + next() % 12,
            };
            let lead = "0".repeat((next() % 3) as usize);
            let mark = ["e", "E", "e+", "E-", "e-"][(next() % 5) as usize];
            let lit = format!("{sign}{int}{frac}{mark}{lead}{e}");
            both_paths(format!("[{lit}]").as_bytes());
        }
        for lit in [
            "0",
            "-0",
            "-0.0",
            "0.0",
            "0.5",
            "-0.5",
            "0.000001",
            "0.0000001",
            "-0.000001234",
            "0.0000012345678901234",
            "0.000001234567890123",
            "0.123456789012345",
            "0.1234567890123456",
            "123456789012345.1",
            "12345678901234.5",
            "1.10",
            "10.01",
            "9007199254740992",
            "-9007199254740992",
            "9007199254740992.5",
            "1.7976931348623157",
            "100000000000000.5",
            "99999999999999.99",
            "0.30000000000000004",
            "0.3",
            "5e-324",
        ] {
            both_paths(format!("[{lit}]").as_bytes());
        }
        // Every escape, alone and between text, in values and keys.
        let mut escapes: Vec<String> = ["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]
            .iter()
            .map(|e| e.to_string())
            .collect();
        for c in 0..0x80u32 {
            escapes.push(format!("\\u{c:04x}"));
            escapes.push(format!("\\u{c:04X}"));
        }
        for e in [
            "\\u00e9",
            "\\u00E9",
            "\\u20ac",
            "\\uffff",
            "\\ud83d\\ude00",
            "\\uD83D\\uDE00",
            "\\ud800",
            "\\udc00",
            "\\ud800\\u0041",
            "\\u12",
            "\\u12g4",
            "\\x",
            "\\",
        ] {
            escapes.push(e.to_string());
        }
        for e in &escapes {
            for (before, after) in [("", ""), ("a", ""), ("", "z"), ("é€", "😀 and more text")]
            {
                let s = format!("{before}{e}{after}");
                both_paths(format!("[\"{s}\"]").as_bytes());
                both_paths(format!("{{\"{s}\":\"{s}\"}}").as_bytes());
                both_paths(format!("[\"{s}\\n{s}\"]").as_bytes());
                both_paths(format!("[\"\\n{s}").as_bytes());
            }
        }
        for a in escapes.iter().step_by(7) {
            for b in escapes.iter().step_by(5) {
                both_paths(format!("[\"{a}{b}{a}\",\"{b}x{a}\"]").as_bytes());
            }
        }
    }

    /// The writer sorts members by an 8-byte prefix first and by the whole key only among keys
    /// that share one: objects whose keys share prefixes (ASCII, non-ASCII, escaped, of every
    /// length around 8 bytes), in every rotation of their order, with and without a duplicate.
    #[test]
    fn shared_key_prefixes_sort_and_refuse_as_the_value_path() {
        let text_of = |k: &str| match parse(format!("\"{k}\"").as_bytes()) {
            Ok(Value::String(s)) => s.into_owned(),
            other => panic!("{k}: {other:?}"),
        };
        let keys = [
            "receipt_",
            "receipt_id",
            "receipt_i",
            "receipt",
            "receipt_\\u00e9",
            "receipt_é",
            "receipt_\\ud83d\\ude00",
            "receipt_\\uff61",
            "receipt_\\ue000",
            "abcdefgh",
            "abcdefgi",
            "",
            "a",
            "\\u0000",
            "\\u0000\\u0000",
            // Keys whose canonical form keeps an escape, and the same texts written otherwise.
            "a\\nb",
            "a\\u000ab",
            "q\\\"",
            "q\\u0022",
            "\\\\",
            "\\u005C",
            "\\u001f",
            "\\u001F",
            "\\b\\f\\r\\t",
            "\\/",
            "/",
            "caf\\u00e9",
            // One prefix, where the text orders otherwise than its canonical form (`\n` is
            // 0x0A, its escape starts with 0x5C).
            "abcdefgh\\n",
            "abcdefgh!",
        ];
        for n in 1..=keys.len() {
            for rot in 0..n {
                let mut ks: Vec<&str> = (0..n).map(|i| keys[(i + rot) % n]).collect();
                // One key per text (`receipt_\\u00e9` is `receipt_é`), so the object is valid
                // and its members are put in order; the duplicates come below, one at a time.
                let mut texts = std::collections::HashSet::new();
                ks.retain(|k| texts.insert(text_of(k)));
                // Values that are objects to put in order too, with keys of every kind, so the
                // keys of the outer object are read after inner members moved.
                let members: Vec<String> = ks
                    .iter()
                    .enumerate()
                    .map(|(i, k)| match i % 3 {
                        0 => format!("\"{k}\":1"),
                        1 => format!("\"{k}\":{{\"z\":1,\"{k}\":[2,{{\"y\":0,\"x\":1}}],\"a\":3}}"),
                        _ => format!("\"{k}\":{{\"{}\":0,\"{k}\":1}}", ks[0]),
                    })
                    .collect();
                both_paths(format!("{{{}}}", members.join(",")).as_bytes());
                for k in &ks {
                    let mut m = members.clone();
                    m.push(format!("\"{k}\":2"));
                    let len = m.len();
                    m.rotate_left(rot % len);
                    both_paths(format!("[{{{}}}]", m.join(",")).as_bytes());
                }
            }
        }
    }

    #[test]
    fn utf16_prefix_of_a_span_equals_that_of_its_string() {
        // Every span on char boundaries of a text mixing every lead-byte class, including the
        // spans in its last 8 bytes (read without the one-word load).
        let text = "ab\u{e000}c😀\u{ffff}é\u{10ffff}ｱ\u{ee}z\u{7f}\u{80}0123456789\u{fffd}";
        let bytes = text.as_bytes();
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        for &a in &bounds {
            for &b in bounds.iter().filter(|&&b| b >= a) {
                assert_eq!(
                    utf16_prefix_at(bytes, a, b),
                    utf16_prefix(&text[a..b]),
                    "{a}..{b}"
                );
            }
        }
    }

    #[test]
    fn utf16_order() {
        assert_eq!(cmp_utf16("😀", "ｱ"), Ordering::Less);
        assert_eq!(cmp_utf16("\u{e000}", "\u{10000}"), Ordering::Greater);
        assert_eq!(cmp_utf16("a", "aa"), Ordering::Less);
        assert_eq!(cmp_utf16("é", "z"), Ordering::Greater);
        // Against the definition, with common prefixes shorter and longer than one 8-byte word.
        let tails = [
            "",
            "a",
            "z",
            "é",
            "\u{e000}",
            "\u{ffff}",
            "ｱ",
            "😀",
            "\u{10ffff}",
            "aa",
        ];
        for prefix in ["", "k", "\0", "receipt", "receipt_", "receipt_id_and_more_"] {
            for a in tails {
                for b in tails {
                    let (a, b) = (format!("{prefix}{a}"), format!("{prefix}{b}"));
                    let want = a.encode_utf16().cmp(b.encode_utf16());
                    assert_eq!(cmp_utf16(&a, &b), want, "{a:?} {b:?}");
                    let (p, q) = (utf16_prefix(&a), utf16_prefix(&b));
                    assert!(p == q || p.cmp(&q) == want, "prefix {a:?} {b:?}");
                }
            }
        }
    }

    /// Every object size (pairwise, table and sorting paths), every pair of positions, names
    /// whose hashes collide (same length, first and last 8 bytes) but differ in the middle.
    #[test]
    fn duplicate_detection_on_every_size_and_position() {
        let mut scratch = Vec::new();
        let object = |names: &[String]| -> Vec<(Cow<'static, str>, Value<'static>)> {
            names
                .iter()
                .map(|k| (Cow::Owned(k.clone()), Value::Null))
                .collect()
        };
        for n in 2..=80usize {
            let names: Vec<String> = (0..n)
                .map(|i| format!("prefix__{}{i:03}__suffix", "x".repeat(i % 3)))
                .collect();
            assert!(!has_duplicate_keys(&object(&names), &mut scratch), "{n}");
            let mut reversed = names.clone();
            reversed.reverse();
            assert!(!has_duplicate_keys(&object(&reversed), &mut scratch), "{n}");
            for i in 0..n {
                for j in (i + 1..n).step_by(1 + n / 20) {
                    let mut dup = reversed.clone();
                    dup[j] = dup[i].clone();
                    assert!(
                        has_duplicate_keys(&object(&dup), &mut scratch),
                        "{n} {i} {j}"
                    );
                }
            }
            // Colliding hashes, different names: never a duplicate.
            let same_ends: Vec<String> = (0..n)
                .map(|i| format!("abcdefgh{:04}{}ijklmnop", i, "z".repeat(4)))
                .collect();
            assert!(
                !has_duplicate_keys(&object(&same_ends), &mut scratch),
                "{n}"
            );
        }
    }

    /// The long-literal path agrees with the standard library wherever the latter is exact
    /// (short literals), on every spelling of many values: leading and trailing zeros, every
    /// exponent layout, near the subnormal and overflow boundaries.
    #[test]
    fn long_literal_path_equals_std_on_short_literals() {
        let mut rng = crate::test_rng::SplitMix64(0x6c6f_6e67_6c69_7421);
        let mut next = move || rng.next_u64();
        let mut checked = 0;
        for _ in 0..200_000 {
            let r = next();
            let digits: String = (0..1 + r % 25)
                .map(|k| char::from(b'0' + ((r >> (k % 60)) ^ next()) as u8 % 10))
                .collect();
            let digits = digits.trim_start_matches('0');
            let digits = if digits.is_empty() { "0" } else { digits };
            let cut = (next() % (digits.len() as u64 + 1)) as usize;
            let (a, b) = digits.split_at(cut);
            let int = if a.is_empty() { "0" } else { a };
            let zeros = "0".repeat((next() % 6) as usize);
            let frac = if b.is_empty() && next() % 2 == 0 {
                String::new()
            } else {
                format!(".{zeros}{b}{}", "0".repeat((next() % 4) as usize))
            };
            let e = (next() % 700) as i64 - 350;
            let exp = match next() % 4 {
                0 if !frac.is_empty() => String::new(),
                1 => format!("e{e}"),
                2 => format!("E{}{:03}", if e < 0 { "-" } else { "+" }, e.abs()),
                _ => format!("e{}00{}", if e < 0 { "-" } else { "" }, e.abs()),
            };
            let sign = if next() % 3 == 0 { "-" } else { "" };
            let text = format!("{sign}{int}{frac}{exp}");
            if frac.is_empty() && exp.is_empty() {
                continue;
            }
            let want: f64 = text.parse().expect("a valid literal");
            let got = long_literal(text.as_bytes()).expect("a valid literal");
            assert_eq!(got.to_bits(), want.to_bits(), "{text}");
            checked += 1;
        }
        assert!(checked > 150_000);
        // Halfway cases: 2^-1074 / 2 and the midpoint below the smallest normal round to even.
        for (text, bits) in [
            ("2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324", 0u64),
            ("2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001e-324", 1),
        ] {
            assert_eq!(long_literal(text.as_bytes()).map(f64::to_bits), Some(bits));
            assert_eq!(text.parse::<f64>().map(f64::to_bits), Ok(bits));
        }
    }

    /// Issue 14.1: literals whose exponent compensates tens of thousands of digits.
    #[test]
    fn long_literals_read_as_their_value() {
        let one = format!("0.{}1e655360", "0".repeat(655_359));
        assert_eq!(
            canon(&format!("{{\"amount\":{one}}}")),
            Ok(r#"{"amount":1}"#.into())
        );
        let v = parse(one.as_bytes()).expect("a number");
        assert_eq!(v.as_f64(), Some(1.0));
        let one = format!("1{}e-700000", "0".repeat(700_000));
        assert_eq!(canon(&one), Ok("1".into()));
        let tenth = format!(
            "-0.{}1e+000000000000000000000000000000000065536",
            "0".repeat(65_536)
        );
        assert_eq!(canon(&tenth), Ok("-0.1".into()));
        // Far outside the range of doubles, whatever the digits.
        let huge = format!("1.{}e99999999999999999999999999", "9".repeat(100));
        assert_eq!(canon(&huge), Err("NON_FINITE_NUMBER"));
        let tiny = format!("-1.{}e-99999999999999999999999999", "9".repeat(100));
        assert_eq!(canon(&tiny), Ok("0".into()));
        let zero = format!("0.{}e99999999999999999999999999", "0".repeat(100));
        assert_eq!(canon(&zero), Ok("0".into()));
        // Integer literals keep their own rule, however long.
        assert_eq!(canon(&"9".repeat(100_000)), Err("INTEGER_OUT_OF_RANGE"));
        // Megabytes of digits: many kept digits, then a sticky one.
        let long = format!("0.{}", "3".repeat(4 << 20));
        assert_eq!(canon(&long), Ok("0.3333333333333333".into()));
    }

    #[test]
    fn integers_are_written_as_their_digits() {
        let mut x: u64 = 1;
        while x < 1 << 53 {
            for n in [x - 1, x, x + 1, x * 7 + 3] {
                if n < 1 << 53 {
                    for v in [n as f64, -(n as f64)] {
                        let want = if n == 0 {
                            "0".to_string()
                        } else {
                            format!("{v}")
                        };
                        assert_eq!(number_to_string(v).as_deref(), Some(want.as_str()));
                    }
                }
            }
            x *= 3;
        }
    }
}

//! Reading JSON text (RFC 8259) with the parse-time refusals of ekl-json-1 (PROTOCOL §9.5, §2.5)
//! in document order: syntax, depth, number, surrogate. The parser: one explicit stack, no
//! recursion; the depth is checked before a container is opened.

use std::borrow::Cow;

use crate::error::{Error, ErrorCode, Result};
use crate::scan::{digits_len, find_special, whitespace_len};
use crate::value::{integer_out_of_range, Value, MAX_SAFE_INTEGER_BOUND};

use super::keys::{duplicate_key, has_duplicate_keys};
use super::numbers::{long_number, NumLit, SHORT_LITERAL_MAX};
use super::strings::{copy_run, push_char, reserve_string_extent, HEX_DIGIT};
use super::MAX_DEPTH;

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
pub(super) enum Span {
    Input(usize, usize),
    Owned,
}

/// A reader of JSON text: the text, its bytes, and the position of the next byte to read.
pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
}

/// The refusal `INVALID_JSON`: `what` was found at byte `pos`.
pub(super) fn syntax(pos: usize, what: &str) -> Error {
    Error::new(ErrorCode::InvalidJson, format!("{what} at byte {pos}"))
}

impl<'a> Parser<'a> {
    /// Moves past insignificant whitespace (RFC 8259 §2), 16 or 8 bytes at a time
    /// ([`whitespace_len`]).
    #[inline]
    pub(super) fn skip_ws(&mut self) {
        self.pos += whitespace_len(self.bytes, self.pos);
    }

    #[inline]
    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(super) fn parse_document(mut self) -> Result<Value<'a>> {
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

    pub(super) fn literal<T>(&mut self, word: &str, value: T) -> Result<T> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(syntax(self.pos, "invalid literal"))
        }
    }

    pub(super) fn non_finite(&self, word: &str) -> Error {
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
    pub(super) fn parse_escaped_string_to(
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

    /// The character of a `\uXXXX` escape (a surrogate pair read as one), with `*i` at its hex
    /// digits on entry and past the escape on return; a lone surrogate is `LONE_SURROGATE`.
    pub(super) fn unicode_escape(&self, i: &mut usize) -> Result<char> {
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

    /// The extent of a number literal at `self.pos`, which it moves past; refuses what RFC 8259
    /// §6 does not allow.
    #[inline]
    pub(super) fn scan_number(&mut self) -> Result<NumLit> {
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
    pub(super) fn integer_value(&self, n: &NumLit) -> Result<f64> {
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
    pub(super) fn number_value(&self, n: &NumLit) -> Result<f64> {
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

fn lone_surrogate(pos: usize) -> Error {
    Error::new(
        ErrorCode::LoneSurrogate,
        format!("lone surrogate escape at byte {pos}"),
    )
}

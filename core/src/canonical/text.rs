//! The text path of ekl-json-1 (PROTOCOL §9.5, RFC 8785 §3.2): the canonical form written while
//! the text is read, with the refusals of [`Parser::parse_document`] in the same order, and each
//! object's members put in order of their keys' UTF-16 code units when the object closes.

use crate::error::{Error, ErrorCode, Result};

use super::keys::{cmp_utf16_bytes, duplicate_key, utf16_prefix_at};
use super::numbers::write_number;
use super::parser::{syntax, Parser};
use super::strings::{
    append, canonical_u_escape, copy_run, push_char, push_escape, reserve_string_extent, BLOCK,
};
use super::{check_size, Options, MAX_DEPTH};
use crate::scan::find_special;

/// [`canonicalize_with`] once the text is known to be UTF-8, with the buffers of `s`.
///
/// [`canonicalize_with`]: super::canonicalize_with
pub(super) fn canonicalize_in(
    json: &[u8],
    text: &str,
    options: Options,
    s: &mut Scratch,
) -> Result<Vec<u8>> {
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
///
/// [`canonicalize_with`]: super::canonicalize_with
#[derive(Default)]
pub(super) struct Scratch {
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
///
/// [`MAX_INPUT_BYTES`]: super::MAX_INPUT_BYTES
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

/// The most bytes of buffers [`Scratch`] keeps between calls (1 MiB each): what a larger
/// document needed is given back.
const SCRATCH_KEEP: usize = 1 << 20;

impl Scratch {
    /// Gives back the buffers that grew past [`SCRATCH_KEEP`].
    pub(super) fn trim(&mut self) {
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
    pub(super) static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

impl<'a> Parser<'a> {
    /// Writes the document's canonical form to `out`, with exactly the refusals of
    /// [`Parser::parse_document`] in the same order (the two loops are kept in step), and says
    /// whether an object has a key twice (refused by the caller, after every parse-time
    /// refusal, as there).
    ///
    /// Every value is written as it is read; an object's members are written in document order
    /// (each one's extent noted in [`Scratch::members`]) and, when the object closes and their
    /// keys are not already in order, moved into order. So a byte is moved once per unsorted
    /// object around it, and a canonical document not at all.
    pub(super) fn canonicalize_to(mut self, out: &mut Vec<u8>, s: &mut Scratch) -> Result<bool> {
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

    /// [`Parser::parse_number`] writing the number's canonical form to `out`, with the same
    /// checks and refusals: a literal already in canonical form (see [`NumLit::canonical`]) is
    /// copied, a short decimal written from its digits ([`NumLit::write_short_decimal`]), and
    /// only the others read as a double and written again.
    ///
    /// [`NumLit::canonical`]: super::numbers::NumLit::canonical
    /// [`NumLit::write_short_decimal`]: super::numbers::NumLit::write_short_decimal
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
}

/// A member of an object as [`order_members`] sorts it: the key's [`utf16_prefix`] in the high
/// 64 bits, the member's index in [`Scratch::members`] in the low ones.
///
/// [`utf16_prefix`]: super::keys::utf16_prefix
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
    crate::sort::sort_unstable_by(sorted, |a, b| a.cmp(b));
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
                crate::sort::sort_unstable_by(run, |a, b| cmp_utf16_bytes(key(*a), key(*b)));
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

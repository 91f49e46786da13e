//! Strings of ekl-json-1 (PROTOCOL §9.5; RFC 8785 §3.2.2.2): escapes read (`\uXXXX` hex digits)
//! and written (only `"`, `\` and U+0000–U+001F, with the shortest escape), strings written with
//! that minimal escaping, and the copying of runs of text and spans of bytes that the parser and
//! the text path share.

use crate::scan::find_special;

/// Appends the UTF-8 form of `c`.
#[inline]
pub(super) fn push_char(out: &mut Vec<u8>, c: char) {
    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
}

/// Appends `src[a..b]`, a run of string text, to `out`: as one block of [`BLOCK`] bytes with the
/// surplus cut off when the run fits one and both `src` and the room left in `out` have a whole
/// block (no `memcpy` call), else as a slice.
#[inline(always)]
pub(super) fn copy_run(out: &mut Vec<u8>, src: &[u8], a: usize, b: usize) {
    if out.capacity() - out.len() >= BLOCK {
        append(out, src, a, b);
    } else {
        out.extend_from_slice(&src[a..b]);
    }
}

/// Makes room in `out` for a string that starts at `start` and has its first escape at `i`,
/// unless `out` already has room for the rest of the input (the text path sizes it so): the
/// string's extent in the input (found by skipping escapes), so `out` never grows while the
/// string is written. Neither the unescaped nor the canonical form is longer than the text.
pub(super) fn reserve_string_extent(out: &mut Vec<u8>, bytes: &[u8], start: usize, i: usize) {
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
pub(super) fn canonical_u_escape(hex: Option<&[u8]>) -> bool {
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
pub(super) fn push_escape(b: u8, out: &mut Vec<u8>) {
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

/// Appends `src[a..b]` to `out`. Most spans the writer copies are short (keys, numbers,
/// strings of a few dozen bytes): up to [`BLOCK`] bytes, when `src` has a whole block from `a`
/// on, they are copied as one block of 16 or of [`BLOCK`] bytes and the surplus cut off, without
/// a call to `memcpy` and its branches on the length.
#[inline(always)]
pub(super) fn append(out: &mut Vec<u8>, src: &[u8], a: usize, b: usize) {
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
pub(super) const BLOCK: usize = 64;

/// The value of each byte as a hex digit (either case), or 0x10 when it is not one.
pub(super) static HEX_DIGIT: [u8; 256] = {
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

//! Object member names in ekl-json-1 (PROTOCOL §9.5): their order by UTF-16 code units (RFC 8785
//! §3.2.3), and the duplicate rule (names compared after unescaping: `DUPLICATE_KEY`).

use std::borrow::Cow;
use std::cmp::Ordering;

use crate::error::{Error, ErrorCode, Result};
use crate::value::Value;

/// The refusal of a member name that occurs twice in one object (after unescaping).
pub(super) fn duplicate_key() -> Error {
    Error::new(ErrorCode::DuplicateKey, "duplicate key in an object")
}

/// Whether two members of one object have the same name: the one duplicate rule of the parser
/// and of [`check_unique_keys`]. Names are compared by a 64-bit hash first and in full only when
/// the hashes are equal: pairwise up to 8 members, through a small table on the stack up to 64,
/// otherwise (unless the names are already in increasing order, as in canonical input) by sorting
/// in `scratch` by hash, then name. Worst case (names made to collide): O(n log n) comparisons
/// for a large object, at most 2,016 for one of up to 64 members.
pub(super) fn has_duplicate_keys(
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
    crate::sort::sort_unstable_by(scratch, |a, b| {
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
///
/// [`parse`]: super::parse
pub fn check_unique_keys(members: &[(Cow<'_, str>, Value<'_>)]) -> Result<()> {
    if has_duplicate_keys(members, &mut Vec::new()) {
        Err(duplicate_key())
    } else {
        Ok(())
    }
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
pub(super) fn cmp_utf16_bytes(x: &[u8], y: &[u8]) -> Ordering {
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
pub(super) fn utf16_prefix(s: &str) -> u64 {
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
pub(super) fn utf16_prefix_at(src: &[u8], a: usize, b: usize) -> u64 {
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

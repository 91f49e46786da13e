//! The byte scans of the canonical-JSON parser and writer ([`crate::canonical`], SPEC §1,
//! RFC 8259 §2, §6 and §7): the end of a run of plain string text, and the lengths of a run of
//! insignificant whitespace and of a run of decimal digits.
//!
//! On x86-64 both look at 16 bytes at a time with SSE2 (part of every x86-64 CPU), through the
//! safe wrappers of `safe_arch`, so this crate keeps `forbid(unsafe_code)`. Elsewhere (wasm32,
//! aarch64) they look at 8 bytes at a time in a `u64` (SWAR). The two forms give the same answer
//! on every input; `tests` compares them with a byte loop on both.

/// The index of the first byte at or after `from` that is `"`, `\\` or a control character
/// (U+0000–U+001F), or `bytes.len()`: the bytes a string ends or escapes at, when reading and
/// when writing.
#[inline]
pub(crate) fn find_special(bytes: &[u8], from: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        find_special_sse2(bytes, from)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        find_special_swar(bytes, from)
    }
}

/// The count of whitespace bytes (space, tab, line feed, carriage return) at `bytes[from..]`.
#[inline]
pub(crate) fn whitespace_len(bytes: &[u8], from: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        whitespace_len_sse2(bytes, from)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        whitespace_len_swar(bytes, from)
    }
}

/// The count of ASCII digits at `bytes[from..]`.
#[inline]
pub(crate) fn digits_len(bytes: &[u8], from: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        digits_len_sse2(bytes, from)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        digits_len_swar(bytes, from)
    }
}

/// 0x01 in every byte of a word (the SWAR forms).
const ONES: u64 = 0x0101_0101_0101_0101;
/// The seven low bits of every byte of a word.
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

fn is_special(c: u8) -> bool {
    c == b'"' || c == b'\\' || c < 0x20
}

fn is_whitespace(c: u8) -> bool {
    c == b' ' || c == b'\n' || c == b'\r' || c == b'\t'
}

/// [`find_special`] with SSE2: per 16 bytes, the bytes equal to `"` or `\\`, or at most 0x1F
/// (`min(b, 0x1F) == b`), as a 16-bit mask whose lowest set bit is the answer.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn find_special_sse2(bytes: &[u8], from: usize) -> usize {
    use safe_arch::{
        cmp_eq_mask_i8_m128i, load_unaligned_m128i, min_u8_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i,
    };
    let quote = set_splat_i8_m128i(b'"' as i8);
    let backslash = set_splat_i8_m128i(b'\\' as i8);
    let control = set_splat_i8_m128i(0x1f);
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 16) {
        let v = load_unaligned_m128i(chunk.try_into().expect("a slice of 16 bytes"));
        let hits = cmp_eq_mask_i8_m128i(v, quote)
            | cmp_eq_mask_i8_m128i(v, backslash)
            | cmp_eq_mask_i8_m128i(min_u8_m128i(v, control), v);
        let mask = move_mask_i8_m128i(hits) as u32;
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += 16;
    }
    find_special_tail(bytes, i)
}

/// [`whitespace_len`] with SSE2: the bytes equal to one of the four.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn whitespace_len_sse2(bytes: &[u8], from: usize) -> usize {
    use safe_arch::{cmp_eq_mask_i8_m128i, set_splat_i8_m128i};
    let ws = |v| {
        cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b' ' as i8))
            | cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b'\n' as i8))
            | cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b'\r' as i8))
            | cmp_eq_mask_i8_m128i(v, set_splat_i8_m128i(b'\t' as i8))
    };
    run_len_sse2(bytes, from, ws, is_whitespace)
}

/// [`digits_len`] with SSE2: a byte is a digit when `b - '0'` (wrapping) is at most 9.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn digits_len_sse2(bytes: &[u8], from: usize) -> usize {
    use safe_arch::{cmp_eq_mask_i8_m128i, min_u8_m128i, set_splat_i8_m128i, sub_i8_m128i};
    let digits = |v| {
        let d = sub_i8_m128i(v, set_splat_i8_m128i(b'0' as i8));
        cmp_eq_mask_i8_m128i(min_u8_m128i(d, set_splat_i8_m128i(9)), d)
    };
    run_len_sse2(bytes, from, digits, |c: u8| c.is_ascii_digit())
}

/// The length of the run of bytes of one class at `bytes[from..]`, 16 bytes at a time:
/// `members` sets the high bit of each byte of a block in the class, and the run's length in a
/// block is the count of trailing ones of that mask (16: the run goes on); `is_member` reads the
/// last bytes one at a time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn run_len_sse2(
    bytes: &[u8],
    from: usize,
    members: impl Fn(safe_arch::m128i) -> safe_arch::m128i,
    is_member: impl Fn(u8) -> bool,
) -> usize {
    use safe_arch::{load_unaligned_m128i, move_mask_i8_m128i};
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 16) {
        let v = load_unaligned_m128i(chunk.try_into().expect("a slice of 16 bytes"));
        let n = (move_mask_i8_m128i(members(v)) as u32).trailing_ones() as usize;
        i += n;
        if n < 16 {
            return i - from;
        }
    }
    run_tail(bytes, i, is_member) - from
}

/// [`digits_len`] eight bytes at a time: after XOR with `0` (0x30) a digit byte is 0–9, and a
/// byte is not a digit when its low seven bits plus 0x76 reach 0x80 or its high bit is set.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn digits_len_swar(bytes: &[u8], from: usize) -> usize {
    let others = |w: u64| {
        let t = w ^ (ONES * 0x30);
        (((t & LOW7) + ONES * 0x76) | t) & !LOW7
    };
    run_len_swar(bytes, from, others, |c: u8| c.is_ascii_digit())
}

/// [`find_special`] eight bytes at a time (SWAR): for each byte of a little-endian word, the
/// zero-byte test `(x - 0x01…) & !x & 0x80…` after XOR with `"` and `\\`, and `(x - 0x20…) & !x &
/// 0x80…` for bytes below 0x20. A borrow can flag a byte above a true hit, never one below, so the
/// lowest flagged byte is exact.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn find_special_swar(bytes: &[u8], from: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("a slice of 8 bytes"));
        let q = w ^ (ONES * u64::from(b'"'));
        let b = w ^ (ONES * u64::from(b'\\'));
        let hits = (q.wrapping_sub(ONES) & !q)
            | (b.wrapping_sub(ONES) & !b)
            | (w.wrapping_sub(ONES * 0x20) & !w);
        let hits = hits & HIGH;
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    find_special_tail(bytes, i)
}

/// [`whitespace_len`] eight bytes at a time, without a branch on whether there is whitespace at
/// all.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn whitespace_len_swar(bytes: &[u8], from: usize) -> usize {
    // The high bit of each byte of `w` equal to `c`, exactly (no borrow between bytes).
    let eq = |w: u64, c: u8| {
        let t = w ^ (ONES * u64::from(c));
        !(((t & LOW7) + LOW7) | t) & !LOW7
    };
    let others = |w: u64| !(eq(w, b' ') | eq(w, b'\n') | eq(w, b'\r') | eq(w, b'\t')) & !LOW7;
    run_len_swar(bytes, from, others, is_whitespace)
}

/// [`run_len_sse2`] eight bytes at a time in a little-endian `u64`: `others` sets the high bit of
/// each byte of a word outside the class, and the run's length in a word is the count of its
/// trailing zeros divided by 8 (8: the run goes on).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn run_len_swar(
    bytes: &[u8],
    from: usize,
    others: impl Fn(u64) -> u64,
    is_member: impl Fn(u8) -> bool,
) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("a slice of 8 bytes"));
        let n = (others(w).trailing_zeros() / 8) as usize;
        i += n;
        if n < 8 {
            return i - from;
        }
    }
    run_tail(bytes, i, is_member) - from
}

/// The last bytes of [`find_special`], one at a time.
#[inline]
fn find_special_tail(bytes: &[u8], from: usize) -> usize {
    run_tail(bytes, from, |c| !is_special(c))
}

/// The index of the first byte at or after `from` for which `is_member` is false (or the end),
/// one byte at a time.
#[inline]
fn run_tail(bytes: &[u8], from: usize, is_member: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while bytes.get(i).is_some_and(|&c| is_member(c)) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form of the two scans, on one input.
    fn check(v: &[u8], from: usize) {
        let special = (from..v.len())
            .find(|&i| is_special(v[i]))
            .unwrap_or(v.len());
        let ws = (from..v.len()).take_while(|&i| is_whitespace(v[i])).count();
        let digits = (from..v.len())
            .take_while(|&i| v[i].is_ascii_digit())
            .count();
        assert_eq!(find_special_swar(v, from), special, "{v:?} {from}");
        assert_eq!(whitespace_len_swar(v, from), ws, "{v:?} {from}");
        assert_eq!(digits_len_swar(v, from), digits, "{v:?} {from}");
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(find_special_sse2(v, from), special, "{v:?} {from}");
            assert_eq!(whitespace_len_sse2(v, from), ws, "{v:?} {from}");
            assert_eq!(digits_len_sse2(v, from), digits, "{v:?} {from}");
        }
        assert_eq!(find_special(v, from), special);
        assert_eq!(whitespace_len(v, from), ws);
        assert_eq!(digits_len(v, from), digits);
    }

    #[test]
    fn scans_match_a_byte_loop() {
        // Every special byte at every offset of two blocks, after every kind of byte (a borrow
        // from a hit must never hide an earlier one), runs without any hit, and runs of
        // whitespace and of digits of every length ending in every kind of byte.
        let fillers = [
            b'a', 0x00, 0x1f, 0x20, b'"', b'\\', 0x7f, 0x80, 0xc3, 0xff, b'\t', b'0', b'9',
        ];
        let specials = [
            b'"', b'\\', 0x00, 0x01, 0x0a, 0x1f, 0x20, b'\r', b'!', 0xe0, b'/', b'0', b'5', b'9',
            b':', 0xb0, 0xb9, b'.', b'e',
        ];
        for len in 0..36 {
            for &f in &fillers {
                for &sp in &specials {
                    for at in 0..len {
                        let mut v = vec![f; len];
                        v[at] = sp;
                        for from in 0..=len {
                            check(&v, from);
                        }
                    }
                }
                check(&vec![f; len], 0);
            }
        }
        let ends = [
            b'a', b'"', 0x0b, 0x0c, 0x00, 0xff, b' ', b'/', b':', b'.', b'0',
        ];
        for run in [&b" \n\r\t"[..], b"0123456789"] {
            for len in 0..40 {
                for &end in &ends {
                    let mut v: Vec<u8> = run.iter().copied().cycle().take(len).collect();
                    v.push(end);
                    v.extend_from_slice(b"   xyz");
                    for from in 0..v.len() {
                        check(&v, from);
                    }
                }
            }
        }
        let text = "héllo 😀 ｱ plain ascii text that runs on\"";
        check(text.as_bytes(), 0);
        assert_eq!(find_special(text.as_bytes(), 0), text.len() - 1);
    }
}

//! Numbers of ekl-json-1 (PROTOCOL §9.5; RFC 8785 §3.2.2.3): number literals (RFC 8259 §6) read
//! as the nearest double, short ones written in canonical form from their own digits, and doubles
//! written as ECMAScript's `Number.prototype.toString` writes them.

use crate::error::{Error, ErrorCode, Result};

use super::parser::syntax;

/// The extent of a number literal: `start..end` in all, the integer part's digits at
/// `int_start..int_end` (after the sign), the fraction (with its `.`) at `int_end..frac_end`
/// (empty without one), an exponent from `frac_end` when `exponent`.
pub(super) struct NumLit {
    pub(super) start: usize,
    pub(super) int_start: usize,
    pub(super) int_end: usize,
    pub(super) frac_end: usize,
    pub(super) end: usize,
    pub(super) exponent: bool,
}

impl NumLit {
    /// Whether the literal is an integer (no fraction, no exponent).
    #[inline]
    pub(super) fn integer(&self) -> bool {
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
    pub(super) fn canonical(&self, bytes: &[u8]) -> bool {
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
    pub(super) fn write_short_decimal(&self, bytes: &[u8], out: &mut Vec<u8>) -> bool {
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
pub(super) fn long_number(literal: &str, start: usize) -> Result<f64> {
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
pub(super) const SHORT_LITERAL_MAX: usize = 4096;

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
pub(super) fn long_literal(literal: &[u8]) -> Option<f64> {
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

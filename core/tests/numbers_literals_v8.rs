//! Number literals of any length against V8 (SPEC §1 "Numbers"; issue 14.1): the canonical form
//! of a JSON number literal must be ECMAScript's `JSON.stringify(Number(text))` — the nearest
//! double, ties to even, written as ECMAScript writes it — however long the literal. A literal
//! that V8 reads as ±Infinity must be refused with `NON_FINITE_NUMBER`, an integer literal (no
//! fraction, no exponent) beyond ±2^53 with `INTEGER_OUT_OF_RANGE`.
//!
//! The literals are generated from a fixed seed, in families: short decimals; long mantissas (up
//! to 2,000 digits); values spelled with long runs of leading zeros and a compensating exponent
//! (the issue's `0.000…0001e655360`); long runs of trailing zeros; exponents with long runs of
//! leading zeros; exponents of 19 to 40 digits (far outside the doubles either way); the exact
//! decimal values halfway between adjacent doubles near zero, the subnormal/normal boundary, 1
//! and the overflow boundary, and those values nudged by a digit far below them (up and down);
//! and a few literals of megabytes. Each is written in a random layout (integer/fraction split,
//! `e`/`E`, `+`, leading zeros in the exponent, sign) and checked through both paths of the core
//! (`canonicalize` on the text, and `parse` then `canonicalize_value`).
//!
//! `EKL_V8_LITERALS=N` sets the number of random literals (default 3,000; the fixed boundary
//! cases and the megabyte literals come on top). Node is required: without it this test fails.

mod support;

use ekl_core::canonical::{canonicalize, canonicalize_value, parse};
use support::{with_node_lines, SplitMix64};

const SEED: u64 = 0x454b_4c2d_6c69_7473; // "EKL-lits"

/// A decimal value: (-1)^neg × 0.digits × 10^point, `digits` without leading zeros (empty: 0).
#[derive(Clone, Debug)]
struct Dec {
    neg: bool,
    digits: String,
    point: i64,
}

/// A non-negative integer in base 10^9, least significant limb first.
struct Big(Vec<u64>);

impl Big {
    const BASE: u64 = 1_000_000_000;

    fn new(v: u64) -> Big {
        let mut limbs = vec![v % Self::BASE];
        let mut rest = v / Self::BASE;
        while rest > 0 {
            limbs.push(rest % Self::BASE);
            rest /= Self::BASE;
        }
        Big(limbs)
    }

    /// Multiplies by `m` < 2^32.
    fn mul(&mut self, m: u64) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let p = *limb * m + carry;
            *limb = p % Self::BASE;
            carry = p / Self::BASE;
        }
        while carry > 0 {
            self.0.push(carry % Self::BASE);
            carry /= Self::BASE;
        }
    }

    fn decimal(&self) -> String {
        let mut s = String::new();
        let mut limbs = self.0.iter().rev();
        if let Some(top) = limbs.next() {
            s.push_str(&top.to_string());
        }
        for limb in limbs {
            s.push_str(&format!("{limb:09}"));
        }
        s
    }
}

/// The exact decimal value of m × 2^e2 (m > 0).
fn exact(m: u64, e2: i64) -> Dec {
    let mut big = Big::new(m);
    let (digits, point) = if e2 >= 0 {
        let mut k = e2;
        while k > 0 {
            let step = k.min(29);
            big.mul(1 << step);
            k -= step;
        }
        let d = big.decimal();
        let n = d.len() as i64;
        (d, n)
    } else {
        let mut k = -e2;
        while k > 0 {
            let step = k.min(12);
            big.mul(5u64.pow(step as u32));
            k -= step;
        }
        let d = big.decimal();
        let n = d.len() as i64;
        (d, n + e2)
    };
    Dec {
        neg: false,
        digits: digits.trim_end_matches('0').to_owned(),
        point,
    }
}

/// The exact value halfway between the non-negative double `x` and the next one up.
fn midpoint_above(x: f64) -> Dec {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    exact(2 * m + 1, e - 1)
}

fn random_digits(rng: &mut SplitMix64, max: u64, min: usize) -> String {
    let n = min + rng.below(max) as usize;
    let mut s = String::with_capacity(n);
    s.push(char::from(b'1' + rng.below(9) as u8));
    for _ in 1..n {
        s.push(char::from(b'0' + rng.below(10) as u8));
    }
    s.trim_end_matches('0').to_owned()
}

/// A run length: usually short, sometimes up to `huge`.
fn run(rng: &mut SplitMix64, huge: usize) -> usize {
    match rng.below(10) {
        0..=5 => rng.below(3) as usize,
        6..=8 => rng.below(40) as usize,
        _ => rng.below(huge as u64 + 1) as usize,
    }
}

fn exponent_text(rng: &mut SplitMix64, x: i64, zeros: usize, out: &mut String) {
    out.push(if rng.below(2) == 0 { 'e' } else { 'E' });
    if x < 0 {
        out.push('-');
    } else if rng.below(2) == 0 {
        out.push('+');
    }
    out.extend(std::iter::repeat_n('0', zeros));
    out.push_str(&x.unsigned_abs().to_string());
}

/// A random JSON spelling of `d`; `huge` bounds the occasional long zero runs.
fn spell(rng: &mut SplitMix64, d: &Dec, huge: usize) -> String {
    let mut s = String::new();
    if d.neg {
        s.push('-');
    }
    if d.digits.is_empty() {
        s.push('0');
        if rng.below(2) == 0 {
            s.push('.');
            s.extend(std::iter::repeat_n('0', 1 + run(rng, huge)));
        }
        if rng.below(2) == 0 {
            let x = rng.next_u64() as i64 >> rng.below(64);
            let zeros = run(rng, huge);
            exponent_text(rng, x, zeros, &mut s);
        }
        return s;
    }
    let n = d.digits.len();
    let exp_zeros = if rng.below(8) == 0 { run(rng, huge) } else { 0 };
    let trail = run(rng, huge);
    let x = match rng.below(3) {
        0 => {
            // 0.<zeros>digits<zeros>e(point + lead)
            let lead = run(rng, huge);
            s.push_str("0.");
            s.extend(std::iter::repeat_n('0', lead));
            s.push_str(&d.digits);
            s.extend(std::iter::repeat_n('0', trail));
            d.point + lead as i64
        }
        1 => {
            // d[..c].d[c..]<zeros>e(point - c)
            let c = 1 + rng.below(n as u64) as usize;
            s.push_str(&d.digits[..c]);
            s.push('.');
            s.push_str(&d.digits[c..]);
            s.extend(std::iter::repeat_n('0', trail));
            if c == n && trail == 0 {
                s.push('0');
            }
            d.point - c as i64
        }
        _ => {
            // digits<zeros>[.0…]e(point - n - zeros)
            s.push_str(&d.digits);
            s.extend(std::iter::repeat_n('0', trail));
            let point = rng.below(2) == 0;
            if point {
                s.push('.');
                s.extend(std::iter::repeat_n('0', 1 + run(rng, huge)));
            }
            d.point - n as i64 - trail as i64
        }
    };
    // Without an exponent (x == 0) and without a point, this is an integer literal.
    if x != 0 || exp_zeros != 0 || rng.below(3) != 0 {
        exponent_text(rng, x, exp_zeros, &mut s);
    }
    s
}

/// The value nudged by a nonzero digit `zeros + 1` places below its last one.
fn nudged_up(d: &Dec, zeros: usize) -> Dec {
    let mut digits = d.digits.clone();
    digits.extend(std::iter::repeat_n('0', zeros));
    digits.push('1');
    Dec {
        digits,
        ..d.clone()
    }
}

/// The value lowered by less than one unit of its last digit: that digit less one, then nines.
fn nudged_down(d: &Dec, zeros: usize) -> Dec {
    let mut digits = d.digits.clone().into_bytes();
    let last = digits.pop().expect("a nonzero value");
    digits.push(last - 1);
    digits.extend(std::iter::repeat_n(b'9', zeros + 1));
    let mut point = d.point;
    if digits[0] == b'0' {
        // "1" became "0999…": one digit fewer before the point.
        digits.remove(0);
        point -= 1;
    }
    Dec {
        neg: d.neg,
        digits: String::from_utf8(digits).expect("ascii"),
        point,
    }
}

/// Doubles whose neighbourhood matters: zero, the smallest subnormals, the subnormal/normal
/// boundary, around 1, 2^53, 1e21 and the largest finite doubles.
fn boundary_doubles() -> Vec<f64> {
    let mut v = Vec::new();
    for bits in 0u64..40 {
        v.push(f64::from_bits(bits));
    }
    for base in [
        0x000f_ffff_ffff_ffffu64,
        0x0010_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0x4340_0000_0000_0000,
        1e21f64.to_bits(),
        1e-7f64.to_bits(),
        0x7fef_ffff_ffff_ffff,
    ] {
        for k in 0..24u64 {
            if let Some(b) = base.checked_sub(k) {
                v.push(f64::from_bits(b));
            }
            if base + k <= 0x7fef_ffff_ffff_ffff {
                v.push(f64::from_bits(base + k));
            }
        }
    }
    v
}

fn random_double(rng: &mut SplitMix64) -> f64 {
    loop {
        let bits = match rng.below(4) {
            0 => rng.below(1 << 52),                                     // subnormal
            1 => 0x0010_0000_0000_0000 + rng.below(1 << 40) - (1 << 39), // near the boundary
            _ => rng.next_u64() & 0x7fff_ffff_ffff_ffff,
        };
        let x = f64::from_bits(bits);
        if x.is_finite() && x.next_up().is_finite() {
            return x;
        }
    }
}

/// One random literal.
fn random_literal(rng: &mut SplitMix64) -> String {
    let neg = rng.below(3) == 0;
    let d = match rng.below(9) {
        // Short decimals over the whole range and beyond it.
        0 => {
            let digits = random_digits(rng, 17, 1);
            let point = rng.below(700) as i64 - 345;
            Dec { neg, digits, point }
        }
        // Long mantissas.
        1 => {
            let digits = random_digits(rng, 2000, 18);
            let point = rng.below(680) as i64 - 340;
            Dec { neg, digits, point }
        }
        // The shape: a short value behind a long run of zeros, or long trailing zeros.
        2 => {
            let digits = random_digits(rng, 20, 1);
            let point = rng.below(40) as i64 - 20;
            let d = Dec { neg, digits, point };
            return spell(rng, &d, 800_000);
        }
        // Halfway cases, exact or nudged.
        3..=5 => {
            let x = random_double(rng);
            let mid = midpoint_above(x);
            let zeros = run(rng, 20_000);
            let mid = match rng.below(3) {
                0 => mid,
                1 => nudged_up(&mid, zeros),
                _ => nudged_down(&mid, zeros),
            };
            Dec { neg, ..mid }
        }
        // Exponents of 19 to 40 digits.
        6 => {
            let mut s = if neg { "-".to_owned() } else { String::new() };
            let digits = random_digits(rng, 30, 1);
            if rng.below(4) == 0 {
                s.push_str("0.0");
            } else {
                s.push_str(&digits[..1]);
                s.push('.');
                s.push_str(&digits[1..]);
                s.push('0');
            }
            s.push(if rng.below(2) == 0 { 'e' } else { 'E' });
            s.push(['+', '-', '-'][rng.below(3) as usize]);
            let zeros = run(rng, 1000);
            s.extend(std::iter::repeat_n('0', zeros));
            s.push_str(&random_digits(rng, 22, 19));
            s.push('7');
            return s;
        }
        // Zero, spelled many ways.
        7 => Dec {
            neg,
            digits: String::new(),
            point: 0,
        },
        // Random doubles written exactly, then respelled.
        _ => {
            let x = random_double(rng);
            let d = exact_of(x);
            Dec { neg, ..d }
        }
    };
    spell(rng, &d, 2_000)
}

fn exact_of(x: f64) -> Dec {
    if x == 0.0 {
        return Dec {
            neg: false,
            digits: String::new(),
            point: 0,
        };
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        exact(fraction, -1074)
    } else {
        exact(fraction | (1u64 << 52), biased - 1075)
    }
}

/// The fixed cases: every boundary double's midpoint above, exact and nudged both ways, each in
/// three spellings; then literals of megabytes.
fn fixed(rng: &mut SplitMix64) -> Vec<String> {
    let mut v = Vec::new();
    for x in boundary_doubles() {
        let mid = midpoint_above(x);
        for d in [mid.clone(), nudged_up(&mid, 3), nudged_down(&mid, 3)] {
            for _ in 0..3 {
                v.push(spell(rng, &d, 50));
            }
        }
    }
    // The literal: 1 behind 655,359 zeros.
    v.push(format!("0.{}1e655360", "0".repeat(655_359)));
    // Megabytes: a tie broken by a digit a megabyte below it, an exact tie a megabyte long, a
    // megabyte of nines, of threes, and of trailing zeros compensated by the exponent.
    let mid = midpoint_above(f64::MIN_POSITIVE);
    v.push(spell(rng, &nudged_up(&mid, 1 << 20), 0));
    v.push(spell(rng, &nudged_down(&mid, 1 << 20), 0));
    v.push(spell(rng, &mid, 0));
    let mid1 = midpoint_above(1.0);
    v.push(format!("0.{}{}e1", mid1.digits, "0".repeat(1 << 20)));
    v.push(format!("-0.{}e-300", "9".repeat(2 << 20)));
    v.push(format!("0.{}", "3".repeat(3 << 20)));
    v.push(format!("7{}.0e-{}", "0".repeat(1 << 20), (1 << 20) + 300));
    v.push(format!("1.{}e{}", "0".repeat(1 << 20), "0".repeat(1 << 20)));
    v
}

/// The whole sequence: fixed cases, then `n` random literals.
fn literals(n: u64) -> impl Iterator<Item = String> {
    let mut rng = SplitMix64(SEED);
    let fixed = fixed(&mut rng);
    fixed
        .into_iter()
        .chain((0..n).map(move |_| random_literal(&mut rng)))
}

fn n_random() -> u64 {
    std::env::var("EKL_V8_LITERALS")
        .ok()
        .map(|s| {
            s.replace('_', "")
                .parse()
                .expect("EKL_V8_LITERALS is a count")
        })
        .unwrap_or(3_000)
}

fn is_integer_literal(text: &str) -> bool {
    !text.contains(['.', 'e', 'E'])
}

/// Whether an integer literal lies beyond ±2^53.
fn beyond_2_53(text: &str) -> bool {
    let digits = text.trim_start_matches('-');
    digits.len() > 16 || digits.parse::<u64>().expect("digits") > 1 << 53
}

/// What the core says about a literal, through both paths (which must agree).
fn ours(text: &str) -> String {
    let tape = canonicalize(text.as_bytes());
    let value = parse(text.as_bytes()).and_then(|v| canonicalize_value(&v));
    assert_eq!(
        tape,
        value,
        "text and value paths differ on a {}-byte literal",
        text.len()
    );
    match tape {
        Ok(bytes) => String::from_utf8(bytes).expect("utf-8"),
        Err(e) => e.code().as_str().to_owned(),
    }
}

fn preview(text: &str) -> String {
    if text.len() <= 120 {
        text.to_owned()
    } else {
        format!(
            "{}…{} ({} bytes)",
            &text[..60],
            &text[text.len() - 40..],
            text.len()
        )
    }
}

#[test]
fn number_literals_match_v8() {
    let n = n_random();
    let t0 = std::time::Instant::now();
    let mut mine = literals(n);
    let (mut longest, mut bytes, mut seen_long) = (0usize, 0u64, 0u64);
    let mut mismatches = Vec::new();
    let mut n_mismatch = 0u64;
    let (mut n_inf, mut n_int, mut n_zero) = (0u64, 0u64, 0u64);
    let seen = with_node_lines(
        "v8_literals.js",
        move |send| literals(n).for_each(|s| send(&s)),
        |i, v8| {
            let text = mine
                .next()
                .expect("node answered more lines than it was sent");
            longest = longest.max(text.len());
            bytes += text.len() as u64;
            if text.len() > 100_000 {
                seen_long += 1;
            }
            assert_ne!(
                v8,
                "NaN",
                "the generator wrote a non-literal: {}",
                preview(&text)
            );
            // The integer rule comes first: an integer literal beyond ±2^53 is refused as such
            // even when V8 reads it as infinite.
            let want = if is_integer_literal(&text) && beyond_2_53(&text) {
                n_int += 1;
                "INTEGER_OUT_OF_RANGE".to_owned()
            } else if v8 == "Infinity" || v8 == "-Infinity" {
                n_inf += 1;
                "NON_FINITE_NUMBER".to_owned()
            } else {
                if v8 == "0" {
                    n_zero += 1;
                }
                v8.to_owned()
            };
            let got = ours(&text);
            if got != want {
                n_mismatch += 1;
                if mismatches.len() < 20 {
                    mismatches.push(format!("#{i} {}: ours {got}, V8 {want}", preview(&text)));
                }
            }
        },
    );
    eprintln!(
        "V8 literal cross-check: {seen} literals ({n} random), {bytes} bytes, longest {longest}, \
         {seen_long} over 100 kB, {n_inf} infinite, {n_int} integers beyond 2^53, {n_zero} zero; \
         {n_mismatch} mismatches; {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    assert!(
        mismatches.is_empty(),
        "{n_mismatch} of {seen} literals differ from V8, first ones:\n{}",
        mismatches.join("\n")
    );
    let mut rng = SplitMix64(SEED);
    assert_eq!(
        seen,
        fixed(&mut rng).len() as u64 + n,
        "node answered {seen} lines"
    );
    assert!(longest > 3 << 20, "a literal of megabytes");
    assert!(n_inf > 0 && n_zero > 0, "overflow and underflow cases");
}

/// The generator's pieces are right: exact decimal values and midpoints read back as expected by
/// the standard library (correct for these short-enough texts), and spellings keep the value.
#[test]
fn generator_is_exact() {
    assert_eq!(exact(3, 0).digits, "3");
    assert_eq!((exact(1, -1).digits.as_str(), exact(1, -1).point), ("5", 0));
    assert_eq!((exact(5, 3).digits.as_str(), exact(5, 3).point), ("4", 2));
    let mid = midpoint_above(1.0);
    // 1 + 2^-53: the tie between 1 and its successor, which goes to even (1).
    assert_eq!(
        mid.digits,
        "100000000000000011102230246251565404236316680908203125"
    );
    assert_eq!(mid.point, 1);
    let mut rng = SplitMix64(7);
    for _ in 0..20_000 {
        let x = random_double(&mut rng);
        let d = exact_of(x);
        let text = spell(&mut rng, &d, 30);
        assert_eq!(
            text.parse::<f64>().map(f64::to_bits),
            Ok(x.to_bits()),
            "{text}"
        );
        let up = spell(&mut rng, &nudged_up(&midpoint_above(x), 2), 30);
        assert_eq!(
            up.parse::<f64>().map(f64::to_bits),
            Ok(x.next_up().to_bits()),
            "{up}"
        );
        let down = spell(&mut rng, &nudged_down(&midpoint_above(x), 2), 30);
        assert_eq!(
            down.parse::<f64>().map(f64::to_bits),
            Ok(x.to_bits()),
            "{down}"
        );
    }
}

//! Property tests of ekl-json-1 (SPEC §1) over generated JSON values: nesting up to 10 levels,
//! Unicode strings (astral characters, controls, quotes, backslashes), integers within ±2^53 and
//! arbitrary finite doubles. Each value is written as JSON text by the test's own serializer with
//! random whitespace, member order, escapes and number spellings, then:
//! * the text is accepted, and the text path equals the value path (`canonicalize(text)` ==
//!   `canonicalize_value(value)`), and equals a plain reference writer in this file;
//! * another random spelling of the same value gives the same bytes (whitespace, member order,
//!   escapes and number spelling never change the output);
//! * parsing the text or the canonical output gives the same value (members order-normalised);
//! * canonicalising the canonical output changes nothing — except, as PROTOCOL §9.5 makes it, when
//!   the value holds an integer-valued double with 2^53 < |x| < 10^21, whose canonical text is an
//!   integer literal beyond ±2^53 and is refused with INTEGER_OUT_OF_RANGE
//!   (docs/decisions.md#numbers).

mod support;

use std::borrow::Cow;

use ekl_core::canonical::{canonicalize, canonicalize_value, number_to_string, parse};
use ekl_core::{ErrorCode, Value};
use proptest::prelude::*;
use support::SplitMix64;

const TWO_53: f64 = 9_007_199_254_740_992.0;

#[derive(Clone, Debug)]
enum J {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>), // unique keys
}

fn a_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => any::<char>(),
        2 => proptest::char::range('\u{0}', '\u{1f}'),
        2 => proptest::char::range('\u{10000}', '\u{10ffff}'),
        2 => proptest::char::range(' ', '~'),
        1 => Just('"'),
        1 => Just('\\'),
        1 => Just('/'),
        1 => prop_oneof![Just('\u{7f}'), Just('\u{2028}'), Just('\u{feff}'), Just('\u{ffff}'), Just('é')],
    ]
}

fn a_string() -> impl Strategy<Value = String> {
    proptest::collection::vec(a_char(), 0..10).prop_map(|cs| cs.into_iter().collect())
}

fn a_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => (-(1i64 << 53)..=(1i64 << 53)).prop_map(|n| n as f64),
        2 => (-1000i64..1000).prop_map(|n| n as f64),
        3 => any::<u64>().prop_map(f64::from_bits).prop_filter("finite", |x| x.is_finite()),
        1 => (-1000i64..1000, 0u32..20).prop_map(|(n, e)| n as f64 / 10f64.powi(e as i32)),
        1 => prop_oneof![Just(-0.0), Just(TWO_53), Just(-TWO_53), Just(1e21), Just(1e-7), Just(2e20)],
    ]
}

fn a_value() -> impl Strategy<Value = J> {
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        a_number().prop_map(J::Num),
        a_string().prop_map(J::Str),
    ];
    leaf.prop_recursive(10, 200, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(J::Arr),
            proptest::collection::vec((a_string(), inner), 0..6).prop_map(|members| {
                let mut seen = std::collections::HashSet::new();
                J::Obj(
                    members
                        .into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .collect(),
                )
            }),
        ]
    })
}

fn to_value(j: &J) -> Value<'static> {
    match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Num(x) => Value::Number(*x),
        J::Str(s) => Value::String(Cow::Owned(s.clone())),
        J::Arr(items) => Value::Array(items.iter().map(to_value).collect()),
        J::Obj(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (Cow::Owned(k.clone()), to_value(v)))
                .collect(),
        ),
    }
}

// ---- the test's own JSON writer: random whitespace, member order, escapes, number spellings ----

fn ws(rng: &mut SplitMix64, out: &mut String) {
    if rng.below(3) == 0 {
        for _ in 0..=rng.below(3) {
            out.push([' ', '\t', '\n', '\r'][rng.below(4) as usize]);
        }
    }
}

fn u_escape(rng: &mut SplitMix64, unit: u16, out: &mut String) {
    if rng.below(2) == 0 {
        out.push_str(&format!("\\u{unit:04x}"));
    } else {
        out.push_str(&format!("\\u{unit:04X}"));
    }
}

fn write_str(rng: &mut SplitMix64, s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '/' if rng.below(2) == 0 => Some("\\/"),
            _ => None,
        };
        let must_escape = c < ' ' || c == '"' || c == '\\';
        if let Some(esc) = short.filter(|_| rng.below(3) != 0 || c == '/') {
            out.push_str(esc);
        } else if must_escape || rng.below(8) == 0 {
            let mut units = [0u16; 2];
            for &unit in c.encode_utf16(&mut units).iter() {
                u_escape(rng, unit, out);
            }
        } else {
            out.push(c);
        }
    }
    out.push('"');
}

/// A JSON spelling of x that reads back as x (never an integer literal beyond ±2^53).
fn write_num(rng: &mut SplitMix64, x: f64, out: &mut String) {
    let is_int = x.fract() == 0.0 && x.abs() <= TWO_53;
    let text = match rng.below(4) {
        0 if is_int => {
            if x == 0.0 && x.is_sign_negative() {
                "-0".to_owned()
            } else {
                format!("{}", x as i64)
            }
        }
        1 if is_int => format!("{}.0{}", x as i64, if rng.below(2) == 0 { "0" } else { "" })
            .replace("-0.0", if x.is_sign_negative() { "-0.0" } else { "0.0" }),
        2 => {
            // Debug: shortest digits, "1e300", "0.1", "9007199254740994.0" (always a fraction or
            // an exponent beyond 2^53).
            format!("{x:?}")
        }
        _ => {
            let e = format!("{x:e}");
            let (m, exp) = e.split_once('e').expect("an exponent");
            let m = if m.contains('.') && rng.below(2) == 0 {
                format!("{m}0")
            } else {
                m.to_owned()
            };
            let e_char = if rng.below(2) == 0 { 'e' } else { 'E' };
            let plus = if !exp.starts_with('-') && rng.below(2) == 0 {
                "+"
            } else {
                ""
            };
            format!("{m}{e_char}{plus}{exp}")
        }
    };
    out.push_str(&text);
}

fn write_json(rng: &mut SplitMix64, j: &J, out: &mut String) {
    // Iterative would be needed for hostile depth; generated values are at most 10 deep.
    match j {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Num(x) => write_num(rng, *x, out),
        J::Str(s) => write_str(rng, s, out),
        J::Arr(items) => {
            out.push('[');
            ws(rng, out);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    ws(rng, out);
                }
                write_json(rng, item, out);
                ws(rng, out);
            }
            out.push(']');
        }
        J::Obj(members) => {
            let mut order: Vec<usize> = (0..members.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            out.push('{');
            ws(rng, out);
            for (n, &i) in order.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                    ws(rng, out);
                }
                write_str(rng, &members[i].0, out);
                ws(rng, out);
                out.push(':');
                ws(rng, out);
                write_json(rng, &members[i].1, out);
                ws(rng, out);
            }
            out.push('}');
        }
    }
}

fn spell(seed: u64, j: &J) -> String {
    let mut rng = SplitMix64(seed);
    let mut out = String::new();
    ws(&mut rng, &mut out);
    write_json(&mut rng, j, &mut out);
    ws(&mut rng, &mut out);
    out
}

// ---- a plain reference writer (RFC 8785 as the RFC states it), for cross-checking ----

fn reference(j: &J, out: &mut String) {
    match j {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Num(x) => out.push_str(&number_to_string(*x).expect("finite")),
        J::Str(s) => {
            out.push('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\u{8}' => out.push_str("\\b"),
                    '\t' => out.push_str("\\t"),
                    '\n' => out.push_str("\\n"),
                    '\u{c}' => out.push_str("\\f"),
                    '\r' => out.push_str("\\r"),
                    c if c < ' ' => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        J::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                reference(item, out);
            }
            out.push(']');
        }
        J::Obj(members) => {
            let mut sorted: Vec<&(String, J)> = members.iter().collect();
            sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push('{');
            for (i, (k, v)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                reference(&J::Str(k.clone()), out);
                out.push(':');
                reference(v, out);
            }
            out.push('}');
        }
    }
}

/// Value equality with object members order-normalised and numbers compared as numbers (so
/// -0 equals 0, which the canonical form writes as `0`).
fn same_value(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::Array(xs), Value::Array(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(xs), Value::Object(ys)) => {
            let mut xs: Vec<_> = xs.iter().collect();
            let mut ys: Vec<_> = ys.iter().collect();
            xs.sort_by(|p, q| p.0.cmp(&q.0));
            ys.sort_by(|p, q| p.0.cmp(&q.0));
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(&ys)
                    .all(|(p, q)| p.0 == q.0 && same_value(&p.1, &q.1))
        }
        _ => a == b,
    }
}

/// Whether a number's canonical text is an integer literal beyond ±2^53 (see the module doc).
fn has_big_integer_text(j: &J) -> bool {
    match j {
        J::Num(x) => x.fract() == 0.0 && x.abs() > TWO_53 && x.abs() < 1e21,
        J::Arr(items) => items.iter().any(has_big_integer_text),
        J::Obj(members) => members.iter().any(|(_, v)| has_big_integer_text(v)),
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn canonical_form_properties(j in a_value(), seed1 in any::<u64>(), seed2 in any::<u64>()) {
        let value = to_value(&j);
        let text1 = spell(seed1, &j);
        let text2 = spell(seed2, &j);

        // Accepted; text path == value path == the reference writer.
        let c1 = canonicalize(text1.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e:?} on {text1}")))?;
        let via_value = canonicalize_value(&value).expect("value path");
        prop_assert_eq!(&c1, &via_value);
        let mut expected = String::new();
        reference(&j, &mut expected);
        prop_assert_eq!(std::str::from_utf8(&c1).expect("UTF-8"), expected.as_str());

        // Whitespace, member order, escapes and number spelling never change the output.
        let c2 = canonicalize(text2.as_bytes()).expect("second spelling accepted");
        prop_assert_eq!(&c1, &c2);

        // Parsing the text gives the value.
        let parsed = parse(text1.as_bytes()).expect("parse");
        prop_assert!(same_value(&parsed, &value), "parse(text) differs from the value");

        // Idempotence, and parsing the canonical output gives the same value.
        match canonicalize(&c1) {
            Ok(again) => {
                prop_assert!(!has_big_integer_text(&j));
                prop_assert_eq!(&again, &c1);
                let reparsed = parse(&c1).expect("canonical output parses");
                prop_assert!(same_value(&reparsed, &value), "parse(canonical) differs from the value");
            }
            Err(e) => {
                prop_assert_eq!(e.code(), ErrorCode::IntegerOutOfRange);
                prop_assert!(has_big_integer_text(&j), "canonical output refused: {:?}", e);
            }
        }
    }

    /// Numbers alone, more of them: every spelling gives the same text, which reads back as x.
    #[test]
    fn number_spellings_agree(x in a_number(), seed1 in any::<u64>(), seed2 in any::<u64>()) {
        let j = J::Num(x);
        let c1 = canonicalize(spell(seed1, &j).as_bytes()).expect("accepted");
        let c2 = canonicalize(spell(seed2, &j).as_bytes()).expect("accepted");
        prop_assert_eq!(&c1, &c2);
        let text = std::str::from_utf8(&c1).expect("UTF-8");
        prop_assert_eq!(text.parse::<f64>().ok(), Some(if x == 0.0 { 0.0 } else { x }));
    }
}

/// The case the fuzzer found first: `2e20` is accepted and written as an integer literal beyond
/// 2^53, which the text path then refuses (PROTOCOL §9.5 makes both halves so).
#[test]
fn integer_valued_double_beyond_2_53_is_not_idempotent() {
    let out = canonicalize(b"2e20").expect("exponent form accepted");
    assert_eq!(out, b"200000000000000000000");
    let err = canonicalize(&out).expect_err("integer literal beyond 2^53");
    assert_eq!(err.code(), ErrorCode::IntegerOutOfRange);
    // At 1e21 the text has an exponent again and round-trips.
    assert_eq!(canonicalize(b"1e21").expect("accepted"), b"1e+21");
    assert_eq!(canonicalize(b"1e+21").expect("accepted"), b"1e+21");
}

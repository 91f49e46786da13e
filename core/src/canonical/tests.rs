//! The unit tests of ekl-json-1 (PROTOCOL §9.5, §2.5): the refusals, the two paths (text and
//! value) against each other, number writing, the UTF-16 order and the duplicate rule.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::keys::{has_duplicate_keys, utf16_prefix, utf16_prefix_at};
use super::numbers::long_literal;
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
        for (before, after) in [("", ""), ("a", ""), ("", "z"), ("é€", "😀 and more text")] {
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

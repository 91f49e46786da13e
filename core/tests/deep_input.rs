//! Hostile nesting (SPEC §1, PROTOCOL §2.5): a 10 MB `[[[[…` and a 10 MB `{"a":{"a":…` are refused
//! with INPUT_TOO_DEEP, quickly and in bounded memory: after one allocation-free UTF-8 check of
//! the whole input (invalid UTF-8 is reported first), the parser refuses at the 65th opening
//! bracket (byte 64 of `[[[…`, byte 320 = 64 × 5 of `{"a":…`) with at most 64 open frames, and
//! builds nothing for the remaining megabytes. 64 levels are accepted.

use std::time::{Duration, Instant};

use ekl_core::canonical::{canonicalize, canonicalize_value, parse, MAX_DEPTH};
use ekl_core::{ErrorCode, Value};

const TEN_MB: usize = 10 * 1024 * 1024;

fn refused_too_deep_at(input: &[u8], offset: usize) {
    let t0 = Instant::now();
    let err = canonicalize(input).expect_err("too deep");
    let elapsed = t0.elapsed();
    assert_eq!(err.code(), ErrorCode::InputTooDeep, "{err:?}");
    assert!(
        err.message().ends_with(&format!("at byte {offset}")),
        "refused at the wrong place: {}",
        err.message()
    );
    // The offset above is the proof; the time (generous for a shared machine) only catches a
    // parser that builds the whole nesting before checking it.
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
    assert_eq!(
        parse(input).expect_err("too deep").code(),
        ErrorCode::InputTooDeep
    );
}

#[test]
fn ten_mb_of_open_brackets_is_too_deep() {
    refused_too_deep_at(&vec![b'['; TEN_MB], 64);
}

#[test]
fn ten_mb_of_balanced_brackets_is_too_deep() {
    let mut input = vec![b'['; TEN_MB / 2];
    input.resize(TEN_MB, b']');
    refused_too_deep_at(&input, 64);
}

#[test]
fn ten_mb_of_nested_objects_is_too_deep() {
    let unit = br#"{"a":"#;
    let input: Vec<u8> = unit.iter().copied().cycle().take(TEN_MB).collect();
    refused_too_deep_at(&input, 64 * unit.len());
}

#[test]
fn ten_mb_of_mixed_nesting_with_whitespace_is_too_deep() {
    let unit = b" [ {\"\xc3\xa9\" : ";
    let input: Vec<u8> = unit.iter().copied().cycle().take(TEN_MB).collect();
    // Two levels a unit: the 65th opening bracket is the `[` of unit 32.
    refused_too_deep_at(&input, 32 * unit.len() + 1);
}

fn nested_objects(depth: usize) -> String {
    let mut s = r#"{"a":"#.repeat(depth - 1);
    s.push_str("{}");
    s.push_str(&"}".repeat(depth - 1));
    s
}

fn nested_arrays(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn sixty_four_levels_are_accepted_sixty_five_refused() {
    assert_eq!(MAX_DEPTH, 64);
    for make in [nested_objects as fn(usize) -> String, nested_arrays] {
        let ok = make(64);
        assert_eq!(
            canonicalize(ok.as_bytes()).expect("64 levels"),
            ok.as_bytes()
        );
        let err = canonicalize(make(65).as_bytes()).expect_err("65 levels");
        assert_eq!(err.code(), ErrorCode::InputTooDeep);
    }
    // 64 nested objects with a scalar innermost value too.
    let mut s = r#"{"a":"#.repeat(64);
    s.push('1');
    s.push_str(&"}".repeat(64));
    assert_eq!(canonicalize(s.as_bytes()).expect("64 levels"), s.as_bytes());
}

#[test]
fn value_path_refuses_depth_65_too() {
    let mut v = Value::Null;
    for _ in 0..64 {
        v = Value::Array(vec![v]);
    }
    assert!(canonicalize_value(&v).is_ok());
    let v = Value::Object(vec![("a".into(), v)]);
    assert_eq!(
        canonicalize_value(&v).expect_err("65").code(),
        ErrorCode::InputTooDeep
    );
}

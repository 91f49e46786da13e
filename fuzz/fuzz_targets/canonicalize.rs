//! Fuzz target: arbitrary bytes through the ekl-json-1 text canonicaliser (SPEC §1).
//!
//! Whenever the input is accepted, the output must be valid UTF-8, parse → canonicalize_value must
//! give the same bytes (text path == value path), and canonicalising the output again must change
//! nothing. The one exception PROTOCOL §9.5 itself makes: a double that is an integer with
//! 2^53 < |x| < 10^21 (e.g. from `2e20`) is written as a plain integer literal, which the text path
//! then refuses with INTEGER_OUT_OF_RANGE (docs/decisions.md#numbers). Refusals are fine; panics,
//! hangs and runaway memory are the findings.
#![no_main]

use ekl_core::canonical::{canonicalize, canonicalize_value, parse};
use ekl_core::{ErrorCode, Value};
use libfuzzer_sys::fuzz_target;

/// Whether the value holds a number whose ECMAScript text is an integer literal beyond ±2^53.
fn has_big_integer_text(value: &Value<'_>) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(x) => {
                if x.fract() == 0.0 && x.abs() > 9_007_199_254_740_992.0 && x.abs() < 1e21 {
                    return true;
                }
            }
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(members) => stack.extend(members.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    false
}

fuzz_target!(|data: &[u8]| {
    if let Ok(out) = canonicalize(data) {
        assert!(std::str::from_utf8(&out).is_ok(), "output is not UTF-8");
        let value_in = parse(data).expect("accepted input must parse");
        assert_eq!(
            canonicalize_value(&value_in).expect("accepted input's value must write"),
            out,
            "parse(input) -> value path differs from text path"
        );
        match canonicalize(&out) {
            Ok(again) => {
                assert_eq!(again, out, "canonicalisation is not idempotent");
                let value = parse(&out).expect("canonical output must parse");
                let via_value = canonicalize_value(&value).expect("parsed output must write");
                assert_eq!(
                    via_value, out,
                    "value path differs from text path on the output"
                );
            }
            Err(e) => {
                assert_eq!(
                    e.code(),
                    ErrorCode::IntegerOutOfRange,
                    "output refused: {e:?}"
                );
                assert!(has_big_integer_text(&value_in), "output refused: {e:?}");
            }
        }
    }
});

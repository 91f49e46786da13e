//! Fuzz target: the text path against the value path of ekl-json-1 (SPEC §1, PROTOCOL §9.5).
//!
//! `canonicalize(text)` (the tape writer) and `canonicalize_value(parse(text))` (the value writer
//! every binding's host conversion meets) must give the same bytes or the same refusal code, for
//! every input; with the 256 KB option too. An accepted output is a fixed point: canonicalising it
//! again gives it back, and parsing it gives a value that writes the same bytes.
#![no_main]

use ekl_core::canonical::{self, Options};
use libfuzzer_sys::fuzz_target;

fn code<T>(r: &ekl_core::Result<T>) -> Option<&'static str> {
    r.as_ref().err().map(|e| e.code().as_str())
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks a size limit, so the BODY_TOO_LARGE precedence is exercised too.
    let (options, text) = match data.split_first() {
        Some((&b, rest)) if b & 1 == 1 => (
            Options {
                max_bytes: Some(usize::from(b >> 1)),
            },
            rest,
        ),
        _ => (Options::default(), data),
    };
    let tape = canonical::canonicalize_with(text, options);
    let value = canonical::parse(text)
        .and_then(|v| canonical::canonicalize_value_with(&v, options));
    match (&tape, &value) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the two paths wrote different bytes"),
        _ => assert_eq!(code(&tape), code(&value), "the two paths refused differently"),
    }
    if let Ok(out) = tape {
        let again = canonical::canonicalize(&out).expect("a canonical form is accepted");
        assert_eq!(again, out, "canonical form is not a fixed point");
        let reparsed = canonical::parse(&out).expect("a canonical form parses");
        assert_eq!(canonical::canonicalize_value(&reparsed).expect("writes"), out);
    }
});

//! Fuzz target: the digest and fingerprint operations over arbitrary JSON text (SPEC §2–§4;
//! PROTOCOL §5.1, §6.7.1, §9.5, §15.3).
//!
//! Whatever parses goes through `value_digest`, `commitment`, `input_commitment`, `terms_hash`,
//! `fingerprint`, `select_result_body`, `output_fingerprint`, `upstream_projection` and
//! `upstream_fingerprint`. Invariants: each result is 64 lowercase hex; the fingerprint of a
//! result equals the fingerprint of its selected body; the upstream fingerprint is the SHA-256 of
//! the projection's canonical form; an input commitment equals the plain commitment when it is
//! accepted. Refusals are fine; panics, hangs and runaway memory are the findings.
#![no_main]

use ekl_core::digest::{self, Salt};
use ekl_core::{canonical, fingerprint};
use libfuzzer_sys::fuzz_target;

fn is_hex64(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = canonical::parse(data) else {
        return;
    };
    let salt = Salt::from_hex(&"0f".repeat(32)).expect("a valid salt");
    if let Ok(d) = digest::value_digest(&value, None) {
        assert!(is_hex64(&d));
        let c = digest::commitment(&value, None, None).expect("commitment of a digestible value");
        assert_eq!(c.digest, d);
        if let Ok(ic) = digest::input_commitment(&value, None, None) {
            assert_eq!(ic.digest, d);
        }
        let f = fingerprint::fingerprint(&salt, &value).expect("fingerprint of a digestible value");
        assert!(is_hex64(&f));
    }
    if let Ok(h) = digest::terms_hash(&value) {
        assert!(is_hex64(&h));
    }
    if let Ok((_, body)) = fingerprint::select_result_body(&value) {
        let whole = fingerprint::output_fingerprint(&salt, &value);
        let part = fingerprint::fingerprint(&salt, body);
        match (&whole, &part) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            _ => assert_eq!(
                whole.as_ref().err().map(|e| e.code()),
                part.as_ref().err().map(|e| e.code())
            ),
        }
    }
    let names = ["a", "b", "search"];
    for offered in [None, Some(&names[..])] {
        let projection = fingerprint::upstream_projection(&value, offered);
        let fp = fingerprint::upstream_fingerprint(&value, offered);
        match (&projection, &fp) {
            (Ok(p), Ok(f)) => {
                let bytes = canonical::canonicalize_value(p).expect("a projection writes");
                assert_eq!(&digest::sha256_hex(&bytes), f);
            }
            (Ok(p), Err(_)) => {
                // Only the writer may refuse what the projection kept (e.g. duplicate keys).
                assert!(canonical::canonicalize_value(p).is_err());
            }
            (Err(a), Err(b)) => assert_eq!(a.code(), b.code()),
            (Err(_), Ok(_)) => panic!("a fingerprint without a projection"),
        }
    }
});

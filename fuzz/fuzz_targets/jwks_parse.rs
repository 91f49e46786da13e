//! Fuzz target: arbitrary bytes through the JWK Set parser, the private-JWK reader and strict
//! base64url (SPEC §7).
//!
//! Invariants: an accepted key set re-serialises to a set that parses to the same text; an accepted
//! private JWK round-trips and its public key verifies its own signature; base64url has exactly one
//! spelling per byte string (decode then encode gives the input back).
#![no_main]

use ekl_core::base64url;
use ekl_core::jwk::{Jwks, SigningKey};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(jwks) = Jwks::parse(data) {
        let text = jwks.to_json();
        let again = Jwks::parse(text.as_bytes()).expect("a serialised key set parses");
        assert_eq!(again.to_json(), text);
        assert!(!jwks.keys().is_empty());
        for key in jwks.keys() {
            assert!(jwks.get(key.kid()).is_some());
        }
    }
    if let Ok(key) = SigningKey::from_jwk(data) {
        let text = key.to_private_jwk_json();
        let again = SigningKey::from_jwk(text.as_bytes()).expect("a private jwk round-trips");
        assert_eq!(again.to_private_jwk_json(), text);
        let sig = key.sign_es256(b"fuzz");
        key.public_jwk()
            .verify_es256(b"fuzz", &sig)
            .expect("own signature verifies");
    }
    if let Ok(bytes) = base64url::decode_bytes(data) {
        assert_eq!(
            base64url::encode(&bytes).as_bytes(),
            data,
            "one spelling per byte string"
        );
    }
});

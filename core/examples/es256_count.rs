//! ES256 verification in a loop, for instruction counts (valgrind --tool=callgrind) and profiles:
//! `es256_count [VERIFICATIONS] [cold]` verifies one signature VERIFICATIONS times (default 1000)
//! with a ready key; with `cold`, every verification gets a fresh key (its table built first).
//! The per-verification count is the difference of two runs divided by the difference of the
//! counts (the generator's table, built once, cancels out).
use ekl_core::base64url;
use ekl_core::jwk::{jwks_from_seed, Jwks};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let cold = std::env::args().nth(2).as_deref() == Some("cold");
    let (jwks, keys) = jwks_from_seed(&[0x42; 32], &["bench-1"]).expect("seed keys");
    let message = b"eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL24uZXhhbXBsZSJ9";
    let sig = keys[0].sign_es256(message);
    let text = jwks.to_json();
    let key = jwks.get("bench-1").expect("key");
    let mut ok = 0u32;
    for _ in 0..n {
        if cold {
            let fresh = Jwks::parse(text.as_bytes()).expect("jwks");
            ok += u32::from(
                fresh
                    .get("bench-1")
                    .expect("key")
                    .verify_es256(message, &sig)
                    .is_ok(),
            );
        } else {
            ok += u32::from(key.verify_es256(message, &sig).is_ok());
        }
    }
    assert_eq!(ok, n);
    println!(
        "{n} verifications ({}), signature {}",
        if cold { "cold keys" } else { "ready key" },
        &base64url::encode(&sig)[..8]
    );
}

//! The MAC primitives that endpoint proofs (PROTOCOL §3.1, §4) and MAC receipts (§9.5) share:
//! HMAC-SHA256 over parts and constant-time comparison. Always built (the receipt verifiers need
//! them), whichever features are on.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::error::ErrorCode;
use crate::hex;

type HmacSha256 = Hmac<Sha256>;

pub(crate) fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac =
        <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC accepts keys of any length");
    for p in parts {
        mac.update(p);
    }
    mac.finalize().into_bytes().into()
}

/// Constant-time equality of two byte strings (the length is not secret). Public as
/// `proof::ct_eq` (with the `proofs` feature).
#[cfg_attr(not(feature = "proofs"), allow(unreachable_pub))]
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    // Keep the optimiser from turning the fold into an early exit.
    core::hint::black_box(diff) == 0
}

/// Compares a presented hex MAC with the expected bytes in constant time. A presented value that
/// is not 64 lowercase hex characters simply does not match.
pub(crate) fn hex_mac_matches(presented: &str, expected: &[u8; 32]) -> bool {
    match hex::decode_fixed::<32>(presented, ErrorCode::InvalidHex, "mac") {
        Ok(bytes) => ct_eq(&bytes, expected),
        Err(_) => false,
    }
}

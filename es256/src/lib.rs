//! ES256 signature verification for `ekl-core` (SPEC §7, "precompute what a JWKS key allows"; RFC
//! 7518 §3.4): P-256 point arithmetic with precomputed tables and its field on 64-bit limbs
//! (`fe64`, native) or nine 29-bit limbs (`fe29`, wasm32 and the `fe29` feature).
//!
//! A crate of its own so that Cargo can optimise it apart from the rest of the core: the
//! WebAssembly verify build compiles this crate at opt-level 3 (its speed) and `ekl-core` for size
//! (docs/decisions/wasm.md#verify-build). Not an API of its own: `ekl-core` verifies with it
//! (`ekl_core::jwk`, `ekl_core::jws`) and re-exports [`MAX_KEY_TABLES`]; use `ekl-core`.

#![forbid(unsafe_code)]

mod es256;
// ES256's field on 32-bit targets, wasm32 above all (and with the `fe29` feature); its tests run
// everywhere.
#[cfg_attr(
    all(target_pointer_width = "64", not(feature = "fe29")),
    allow(dead_code)
)]
mod fe29;
// ES256's field on 64-bit targets (unless the `fe29` feature asks for the other); its tests run on
// every 64-bit target.
#[cfg(target_pointer_width = "64")]
#[cfg_attr(feature = "fe29", allow(dead_code))]
mod fe64;
// The random and edge elements of both fields' differential tests.
#[cfg(test)]
mod field_tests;
#[doc(hidden)]
pub mod test_rng;

pub use es256::{PreparedKey, Refusal, MAX_KEY_TABLES};

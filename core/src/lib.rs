//! # ekl-core — the bytes of EKP 1.2 evidence
//!
//! One small, stateless core for everything EKP 1.2 (the EuKollab Protocol) hashes, authenticates
//! and signs: ekl-json-1 canonical JSON ([`canonical`], PROTOCOL §9.5), SHA-256 digests and
//! commitments ([`digest`]), salted and upstream fingerprints ([`fingerprint`], §15.3, §5.1),
//! endpoint proofs and their no-downgrade verifiers ([`proof`], §3.1, §4, §15.2), MAC call receipts
//! with key rings and structured verdicts ([`receipt`], [`verdict`], [`timestamp`], §9.5), the
//! local screening of results ([`screening`], §15.5), strict ES256 compact JWS ([`jws`], [`jwk`],
//! [`base64url`], §3) with the per-type credential verifiers ([`credential`], §9.1–§9.3.2, §15.1),
//! network-signed receipts ([`receipt_sig`], §9.5.1) and the screening rules token
//! ([`screening_rules`], §15.5). The Python, Node and WebAssembly packages are thin
//! bindings over this crate and give byte-identical results and identical [`ErrorCode`]s.
//!
//! The core never reads a clock or a random source: time is always an argument.
//!
//! ## Where a protocol rule goes
//!
//! Every rule of a protocol the hosts drive over the network is written here, once: the machines
//! [`remote_jwks`] (a fetched key set's cache policy), [`replay`] (the replay guard) and [`mcp`]
//! (the MCP wire) take what a host saw (bytes, a status, a header, the clock as an argument) and
//! say what to do next. A mutable machine is a handle of the registry (crate `ekl-bridge`,
//! `handle.rs`): the hosts hold it as an object and call its methods, its state never leaves it;
//! a value a host needs (a default, a bound, a statement) is a constant of the machine's module,
//! published in the manifest's `constants`. The hosts keep only their I/O (CONTRIBUTING.md, "Add
//! a protocol rule"; docs/decisions/handles.md).
//!
//! ## Features
//!
//! `full` (the default) is everything. Without it, the crate keeps what verifying receipts and
//! credentials needs (canonical JSON, digests, commitments, fingerprints, MAC receipts, ES256
//! verification and JWKS, network-signed receipts, the per-type credential verifiers, the remote
//! key set policy), and each feature adds a part: `mcp` ([`mcp`]), `replay` ([`replay`]),
//! `screening` ([`screening`], [`screening_rules`] and their Unicode tables), `signing` (PEM,
//! signing keys, ES256 signing and every issuer: MAC receipts, signed receipts, credentials) and
//! `proofs` ([`proof`]). The WebAssembly package's verify build (the browser entry) is built
//! without them (docs/decisions/wasm.md#verify-build).
//!
//! ## The crypto path: what is this crate's own
//!
//! Every secret operation and every hash is RustCrypto's: SHA-256 and HMAC (`sha2`, `hmac`), ES256
//! signing with RFC 6979 nonces, private keys and public-key validation, and the scalars mod n
//! (`p256`). ES256 **verification** runs on arithmetic written here, on public data only (variable
//! time is correct there): the point arithmetic (Jacobian coordinates, mixed addition with the
//! exceptional cases, doubling, fixed-base tables, signed-radix recoding, the x(R) ≡ r (mod n)
//! check), the base field on 64-bit targets (four 64-bit limbs) and on 32-bit targets, wasm32
//! above all (nine 29-bit limbs); and the constant-time comparison of MACs, tags and proofs. Both
//! fields are tested operation by operation against `p256`'s field, the verifier against `p256`'s
//! own on edge, constructed and random signatures, and against Project Wycheproof; every JWS
//! vector is re-derived with OpenSSL. SECURITY.md in the repository lists the parts and the
//! commands.
//!
//! ```
//! use ekl_core::{canonical, digest, fingerprint};
//! let value = canonical::parse(br#"{"min_beds": 3, "area_ref": "loc:ca:dublin"}"#).unwrap();
//! assert_eq!(canonical::canonicalize_value(&value).unwrap(),
//!            br#"{"area_ref":"loc:ca:dublin","min_beds":3}"#);
//! let salt = digest::Salt::from_hex(&"00112233445566778899aabbccddeeff".repeat(2)).unwrap();
//! assert_eq!(fingerprint::fingerprint(&salt, &value).unwrap(),
//!            "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c");
//! ```

pub mod base64url;
pub mod batch;
pub mod canonical;
pub mod credential;
pub mod digest;
mod error;
// ES256 verification and its field arithmetic: the `ekl-es256` crate, so that the wasm verify
// build compiles it at opt-level 3 and the rest of the core for size (Cargo sets optimisation per
// crate; docs/decisions/wasm.md#verify-build).
use ekl_es256 as es256;
pub mod fingerprint;
pub mod hex;
pub mod jwk;
pub mod jws;
pub mod limits;
mod mac;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "signing")]
pub mod pem;
#[cfg(feature = "proofs")]
pub mod proof;
pub mod receipt;
pub mod receipt_sig;
pub mod remote_jwks;
#[cfg(feature = "replay")]
pub mod replay;
mod scan;
#[cfg(feature = "screening")]
pub mod screening;
#[cfg(feature = "screening")]
pub mod screening_rules;
pub mod shape;
mod sort;
#[doc(hidden)]
pub use ekl_es256::test_rng;
pub mod timestamp;
mod value;
pub mod verdict;

pub use error::{Error, ErrorCode, Result};
pub use value::{Value, MAX_SAFE_INTEGER_BOUND};

/// The crate's README (its quick start is the repository README's Rust quick start, checked equal
/// by `core/tests/readme.rs`), compiled and run as a doctest: inside the package, so the published
/// crate's doc tests run it too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeQuickStart;

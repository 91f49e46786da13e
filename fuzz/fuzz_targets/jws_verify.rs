//! Fuzz target: arbitrary bytes through the JWS verifiers (SPEC §7): `jws::verify` for three types,
//! the per-type credential helpers, `receipt_sig::verify_receipt_jws` and the screening rules token.
//!
//! The first byte picks the mode and the verifier. Bit 0 clear: the rest is a compact token as text
//! (finds parser and base64url crashes; signatures almost never verify). Bit 0 set: the rest is
//! `header NUL payload`, signed with one of the key set's keys (bit 1), so the fuzzer reaches the
//! payload parser and every claim check. Bits 2–4 pick one of the eight verifiers, so one run does
//! one or two signature checks (ECDSA under the sanitizer is slow).
//! Invariants: a verified token's digest is the SHA-256 of its text; a verdict names every check.
//! Refusals are fine; panics, hangs and runaway memory are the findings.
#![no_main]

use std::sync::OnceLock;

use ekl_core::credential::{self, Purpose};
use ekl_core::digest::sha256_hex;
use ekl_core::jwk::{jwks_from_seed, Jwks, SigningKey};
use ekl_core::jws::{self, ClaimChecks, Typ};
use ekl_core::receipt_sig::{self, CallContext};
use ekl_core::screening_rules::verify_screening_rules;
use libfuzzer_sys::fuzz_target;

const ISS: &str = "https://network.eukollab.example";
const NOW: i64 = 1_780_000_000;

fn net() -> &'static (Jwks, Vec<SigningKey>) {
    static NET: OnceLock<(Jwks, Vec<SigningKey>)> = OnceLock::new();
    NET.get_or_init(|| {
        // The key set of vectors/receipt-jws.json (same seed and kids).
        let mut seed = [0u8; 32];
        let hex = "656b6c2d636f7265206a777320766563746f72732073656564203230323621ff";
        for (i, b) in seed.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex");
        }
        jwks_from_seed(&seed, &["net-2026-05", "net-2026-06"]).expect("keys")
    })
}

fn exercise(token: &str, which: u8) {
    let (jwks, _) = net();
    let checks = ClaimChecks {
        issuer: Some(ISS),
        audience: Some("agt_consumer_7f3a"),
        max_lifetime: Some(900),
        ..ClaimChecks::at(NOW)
    };
    match which % 8 {
        0 | 1 | 2 => {
            let typ = [Typ::Receipt, Typ::Access, Typ::Relationship][usize::from(which % 8)];
            if let Ok(v) = jws::verify(token, typ, jwks, &checks) {
                assert_eq!(v.token_sha256, sha256_hex(token.as_bytes()));
                assert_eq!(v.typ, typ);
            }
        }
        3 => {
            let _ = credential::verify_relationship_assertion(
                token,
                jwks,
                ISS,
                "https://p.example/token",
                NOW,
            );
        }
        4 => {
            let _ = credential::verify_platform_call(token, jwks, ISS, None, Purpose::Deliver, NOW);
            let _ = credential::verify_execution_grant(token, jwks, ISS, "agt_provider_19c2", NOW);
        }
        5 => {
            let _ = credential::verify_revocation_feed(token, jwks, ISS, "agt_provider_19c2", NOW);
        }
        6 => {
            let _ = verify_screening_rules(token, jwks, ISS, NOW);
        }
        _ => {
            let call = CallContext {
                execution_id: "exe_01J00000000000000000000A",
                provider_agent_id: "agt_provider_19c2",
                requester_agent_id: "agt_consumer_7f3a",
                capability_id: "listing.search",
                input_fingerprint:
                    "46839dcf7511e1b9789e56ccbce9a4e7a562adc9aa9b1088337802fec1018a3c",
                own_agent_id: "agt_consumer_7f3a",
                network_issuer: ISS,
                sent_at: NOW - 3,
                received_at: NOW + 1,
            };
            if let Ok(v) = receipt_sig::verify_receipt_jws(token, jwks, &call) {
                assert_eq!(v.checks.len(), receipt_sig::JWS_CHECKS.len());
                assert_eq!(
                    v.receipt_digest.as_deref(),
                    Some(sha256_hex(token.as_bytes()).as_str())
                );
                assert_eq!(v.accepted, v.failed().is_empty());
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 1 {
        let (_, keys) = net();
        let (header, payload) = match rest.iter().position(|&b| b == 0) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (
                &br#"{"alg":"ES256","kid":"net-2026-05","typ":"ekl-receipt+jwt"}"#[..],
                rest,
            ),
        };
        let key = &keys[usize::from((mode >> 1) & 1)];
        exercise(&jws::sign_bytes(header, payload, key), mode >> 2);
    } else if let Ok(text) = std::str::from_utf8(rest) {
        exercise(text, mode >> 2);
    }
});

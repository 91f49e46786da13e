//! Private key material is wiped when dropped (issue 14.4, core part; docs/decisions.md#zeroize)
//! and never shown by `Debug`.
//!
//! Memory after a drop cannot be inspected without undefined behaviour, so this checks what can
//! be checked: every type that holds a secret implements `ZeroizeOnDrop` (the marker of types
//! that wipe themselves in `Drop`), the wipe those `Drop`s run leaves only zero bytes, and no
//! `Debug` output carries the secret.

use ekl_core::base64url;
use ekl_core::hex;
use ekl_core::jwk::SigningKey;
use ekl_core::proof::{NetworkHolds, ProofKey};
use ekl_core::receipt::{receipt_key, KeyEntry, KeyRing};
use zeroize::{Zeroize, ZeroizeOnDrop};

fn wipes_itself_on_drop<T: ZeroizeOnDrop>() {}

#[test]
fn secret_holders_are_zeroize_on_drop() {
    wipes_itself_on_drop::<SigningKey>();
    wipes_itself_on_drop::<ProofKey>();
    wipes_itself_on_drop::<NetworkHolds>();
    wipes_itself_on_drop::<KeyEntry>();
}

#[test]
fn the_wipe_leaves_zeros() {
    let mut key = ProofKey::derive("eklp_secret");
    assert_ne!(key.bytes(), &[0u8; 32]);
    key.zeroize();
    assert_eq!(key.bytes(), &[0u8; 32]);
    let mut holds = NetworkHolds::credential_hash_of("eklp_secret");
    holds.zeroize();
    assert_eq!(holds, NetworkHolds::CredentialHashOnly([0u8; 32]));
    let mut holds = NetworkHolds::ProofKey(ProofKey::derive("eklp_secret"));
    holds.zeroize();
    let NetworkHolds::ProofKey(k) = &holds else {
        unreachable!()
    };
    assert_eq!(k.bytes(), &[0u8; 32]);
}

#[test]
fn debug_never_shows_a_secret() {
    let seed = [0x5au8; 32];
    let key = SigningKey::from_seed(&seed, "k1").expect("key");
    let private = key.to_private_jwk_json();
    let d = private
        .split("\"d\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("d");
    let scalar = base64url::decode(d).expect("base64url");
    let shown = format!("{key:?} {:?}", key.clone());
    for secret in [d.to_owned(), hex::encode(&scalar), hex::encode(&seed)] {
        assert!(!shown.contains(&secret[..16]), "{shown}");
    }
    let pk = ProofKey::derive("eklp_secret");
    let hash = NetworkHolds::credential_hash_of("eklp_secret");
    let mut ring = KeyRing::baseline("registration-secret").unwrap();
    ring.add("rk-2", "second-secret", "2026-01-01T00:00:00Z", None)
        .expect("added");
    let shown = format!("{pk:?} {hash:?} {ring:?}");
    for secret in [
        pk.to_hex(),
        hex::encode(&receipt_key("registration-secret", "rk-1").unwrap()),
        hex::encode(&receipt_key("second-secret", "rk-2").unwrap()),
        "registration-secret".to_owned(),
    ] {
        assert!(!shown.contains(&secret[..16]), "{shown}");
    }
}

//! ES256 signature verification with precomputed tables (RFC 7518 §3.4, FIPS 186-5 ECDSA over
//! P-256 with SHA-256; SPEC §7 "precompute what a JWKS key allows").
//!
//! Verification computes u1·G + u2·Q. The generic path of the `p256` crate (without its `alloc`
//! feature) builds wNAF tables for G and Q on every call and runs 256 doublings. Here both G and a
//! key set's Q get a fixed-base table once: for every 4-bit window i (65 of them) the affine points
//! j·16^i·P for j = 1..8. A scalar is rewritten in signed radix 16 (digits −8..7 plus a final
//! carry), so u·P is at most 65 mixed additions and no doubling. The tables hold only public data,
//! so variable-time lookups are fine. Each table is about 37 KB; a key's table is built on its
//! first verification.
//!
//! The arithmetic (field, scalar, complete addition formulas) is the `p256` crate's; only the
//! scalar multiplication strategy differs. Wycheproof's P-256 SHA-256 P1363 suite and a comparison
//! with `p256`'s own verifier pin it (core/tests/wycheproof_es256.rs, the unit tests below).

use std::sync::OnceLock;

use p256::elliptic_curve::ff::Field;
use p256::elliptic_curve::group::{Curve, Group};
use p256::elliptic_curve::ops::Reduce;
use p256::elliptic_curve::point::AffineCoordinates;
use p256::elliptic_curve::PrimeField;
use p256::{AffinePoint, FieldBytes, ProjectivePoint, Scalar};
use sha2::{Digest, Sha256};

const WINDOWS: usize = 65;
const ENTRIES: usize = 8;

/// The multiples j·16^i·P (j = 1..8, i = 0..64) of one point, affine.
#[derive(Clone, Debug)]
pub(crate) struct FixedBaseTable {
    points: Vec<AffinePoint>,
}

impl FixedBaseTable {
    pub(crate) fn new(point: &AffinePoint) -> FixedBaseTable {
        let mut projective = Vec::with_capacity(WINDOWS * ENTRIES);
        let mut base = ProjectivePoint::from(*point);
        for _ in 0..WINDOWS {
            let mut multiple = base;
            for _ in 0..ENTRIES {
                projective.push(multiple);
                multiple += base;
            }
            base = base.double().double().double().double();
        }
        let mut points = vec![AffinePoint::IDENTITY; projective.len()];
        ProjectivePoint::batch_normalize(&projective, &mut points);
        FixedBaseTable { points }
    }

    /// acc += scalar·P, with `digits` the signed radix-16 form of the scalar.
    fn accumulate(&self, acc: &mut ProjectivePoint, digits: &[i8; WINDOWS]) {
        for (window, &digit) in digits.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let entry = &self.points[window * ENTRIES + usize::from(digit.unsigned_abs()) - 1];
            if digit > 0 {
                *acc += entry;
            } else {
                *acc += &(-*entry);
            }
        }
    }
}

/// Signed radix-16 digits (little-endian windows) of a scalar given big-endian: every digit in
/// −8..=7 except the last (0 or 1), Σ d_i·16^i = the scalar.
fn signed_radix16(scalar: &Scalar) -> [i8; WINDOWS] {
    let bytes = scalar.to_repr();
    let mut digits = [0i8; WINDOWS];
    let mut carry = 0i8;
    for i in 0..64 {
        let byte = bytes[31 - i / 2];
        let nibble = if i % 2 == 0 { byte & 15 } else { byte >> 4 } as i8;
        let v = nibble + carry;
        if v >= 8 {
            digits[i] = v - 16;
            carry = 1;
        } else {
            digits[i] = v;
            carry = 0;
        }
    }
    digits[64] = carry;
    digits
}

fn generator_table() -> &'static FixedBaseTable {
    static TABLE: OnceLock<FixedBaseTable> = OnceLock::new();
    TABLE.get_or_init(|| FixedBaseTable::new(&AffinePoint::GENERATOR))
}

/// A scalar in [1, n − 1] from 32 big-endian bytes, or `None`.
fn nonzero_scalar(bytes: &[u8]) -> Option<Scalar> {
    let repr = FieldBytes::try_from(bytes).ok()?;
    let s = Option::<Scalar>::from(Scalar::from_repr(repr))?;
    if bool::from(s.is_zero()) {
        None
    } else {
        Some(s)
    }
}

/// Why a signature was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Not 64 bytes.
    Length,
    /// r or s is zero or not below n.
    Range,
    /// The equation does not hold.
    Mismatch,
}

/// Verifies a raw r‖s ES256 signature of `message` against the key whose table is `q`.
pub(crate) fn verify(q: &FixedBaseTable, message: &[u8], signature: &[u8]) -> Result<(), Refusal> {
    if signature.len() != 64 {
        return Err(Refusal::Length);
    }
    let r = nonzero_scalar(&signature[..32]).ok_or(Refusal::Range)?;
    let s = nonzero_scalar(&signature[32..]).ok_or(Refusal::Range)?;
    let digest: [u8; 32] = Sha256::digest(message).into();
    let z = <Scalar as Reduce<FieldBytes>>::reduce(&FieldBytes::from(digest));
    let s_inv = Option::<Scalar>::from(s.invert_vartime()).ok_or(Refusal::Range)?;
    let u1 = z * s_inv;
    let u2 = r * s_inv;
    let mut acc = ProjectivePoint::IDENTITY;
    generator_table().accumulate(&mut acc, &signed_radix16(&u1));
    q.accumulate(&mut acc, &signed_radix16(&u2));
    if bool::from(acc.is_identity()) {
        return Err(Refusal::Mismatch);
    }
    let x = acc.to_affine().x();
    if <Scalar as Reduce<FieldBytes>>::reduce(&x) == r {
        Ok(())
    } else {
        Err(Refusal::Mismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::{Signer, Verifier};
    use p256::ecdsa::{Signature, SigningKey, VerifyingKey};

    #[test]
    fn radix16_reconstructs() {
        for seed in 1u64..50 {
            let s = Scalar::from(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .square()
                .square();
            let d = signed_radix16(&s);
            let mut acc = Scalar::ZERO;
            for &digit in d.iter().rev() {
                acc *= Scalar::from(16u64);
                let mag = Scalar::from(u64::from(digit.unsigned_abs()));
                acc += if digit < 0 { -mag } else { mag };
            }
            assert_eq!(acc, s);
            assert!(d[..64].iter().all(|&x| (-8..=7).contains(&x)));
        }
        let minus_one = -Scalar::ONE;
        let d = signed_radix16(&minus_one);
        assert!(d[64] == 0 || d[64] == 1);
    }

    #[test]
    fn agrees_with_p256_verifier() {
        for i in 1u8..40 {
            let sk = SigningKey::from_slice(&[i; 32]).expect("valid scalar");
            let vk = VerifyingKey::from(&sk);
            let table = FixedBaseTable::new(vk.as_affine());
            let msg = [i; 17];
            let sig: Signature = sk.sign(&msg);
            let bytes = sig.to_bytes();
            assert!(vk.verify(&msg, &sig).is_ok());
            assert_eq!(verify(&table, &msg, &bytes), Ok(()));
            // high-S twin verifies in both
            let (r, s) = sig.split_scalars();
            let twin = Signature::from_scalars(r.to_repr(), (-*s).to_repr()).expect("twin");
            assert!(vk.verify(&msg, &twin).is_ok());
            assert_eq!(verify(&table, &msg, &twin.to_bytes()), Ok(()));
            // a flipped message fails in both
            let mut other = msg;
            other[0] ^= 1;
            assert!(vk.verify(&other, &sig).is_err());
            assert_eq!(verify(&table, &other, &bytes), Err(Refusal::Mismatch));
        }
    }
}

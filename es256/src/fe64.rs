//! The P-256 base field in four 64-bit limbs, for ES256 verification on 64-bit targets (SPEC §7;
//! see docs/decisions.md#es256-field).
//!
//! `p256`'s own field (0.14) multiplies through `crypto-bigint`'s generic Karatsuba product and
//! reduces without using the shape of p; its additions are constant-time calls that are not
//! inlined. Verification spends nine tenths of its instructions there. Here an element is four
//! saturated limbs in Montgomery form (a·2^256 mod p), always fully reduced (below p). A product
//! is the 16 partial products of the schoolbook method in `u128`, then Montgomery reduction that
//! uses p = 2^256 − 2^224 + 2^192 + 2^96 − 1: its low limb is 2^64 − 1, so the Montgomery digit
//! of each round is the low limb itself and adding digit·p costs two multiplications (by p's
//! limbs 1 and 3) instead of four. Variable time is fine (ES256 verification handles public data
//! only; signing is `p256`'s code, which never uses this module), but nothing here branches on
//! more than a final conditional subtraction.
//!
//! Used by `es256` natively (wasm32 uses [`crate::fe29`]: it has no widening multiply); its tests
//! below compare every operation with `p256`'s field on random and edge elements.

use core::ops::{Add, Mul, MulAssign, Neg, Sub};

use p256::elliptic_curve::subtle::{Choice, CtOption};
use p256::FieldBytes;

/// p, little-endian limbs.
const P: [u64; 4] = [
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_ffff,
    0x0000_0000_0000_0000,
    0xffff_ffff_0000_0001,
];

/// a + b + carry, and the carry out.
#[inline(always)]
const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// a − b − borrow (borrow 0 or 1), and the borrow out (0 or 1).
#[inline(always)]
const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// a + b·c + carry (it fits: (2^64 − 1) + (2^64 − 1)² + (2^64 − 1) = 2^128 − 1), and the carry out.
#[inline(always)]
const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// 2^256 − p, little-endian limbs: adding it subtracts p modulo 2^256.
const C: [u64; 4] = [
    0x0000_0000_0000_0001,
    0xffff_ffff_0000_0000,
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_fffe,
];

/// The value of five limbs below 2p, reduced below p: r + (2^256 − p) carries out of 256 bits
/// exactly when r ≥ p (with `top` = 0), and is r − p then; with `top` = 1 it is the value − p.
/// (A select by mask: the choice is about even on these values, so a branch would be
/// mispredicted half of the time; this is also 3 % fewer instructions a product than subtracting
/// p with borrows, which the compiler rebuilt from sign extensions.)
#[inline(always)]
const fn reduce_once(r: [u64; 4], top: u64) -> [u64; 4] {
    let (t0, c) = adc(r[0], C[0], 0);
    let (t1, c) = adc(r[1], C[1], c);
    let (t2, c) = adc(r[2], C[2], c);
    let (t3, c) = adc(r[3], C[3], c);
    let mask = 0u64.wrapping_sub(c | top);
    [
        (t0 & mask) | (r[0] & !mask),
        (t1 & mask) | (r[1] & !mask),
        (t2 & mask) | (r[2] & !mask),
        (t3 & mask) | (r[3] & !mask),
    ]
}

/// k·a mod p for a below p and k below 2^31, in one pass: the five-limb product, then its top
/// limb t folded back as t·(2^256 − p) (below 2^255), which leaves a value below 2p.
#[inline(always)]
const fn mul_small(a: &[u64; 4], k: u64) -> [u64; 4] {
    let (w0, c) = mac(0, a[0], k, 0);
    let (w1, c) = mac(0, a[1], k, c);
    let (w2, c) = mac(0, a[2], k, c);
    let (w3, top) = mac(0, a[3], k, c);
    let (s0, c) = mac(w0, top, C[0], 0);
    let (s1, c) = mac(w1, top, C[1], c);
    let (s2, c) = mac(w2, top, C[2], c);
    let (s3, c) = mac(w3, top, C[3], c);
    reduce_once([s0, s1, s2, s3], c)
}

/// (a + b) mod p for a, b below p.
#[inline(always)]
const fn add(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (r0, c) = adc(a[0], b[0], 0);
    let (r1, c) = adc(a[1], b[1], c);
    let (r2, c) = adc(a[2], b[2], c);
    let (r3, c) = adc(a[3], b[3], c);
    reduce_once([r0, r1, r2, r3], c)
}

/// (a − b) mod p for a, b below p: the difference, plus p when it borrowed.
#[inline(always)]
const fn sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (r0, w) = sbb(a[0], b[0], 0);
    let (r1, w) = sbb(a[1], b[1], w);
    let (r2, w) = sbb(a[2], b[2], w);
    let (r3, w) = sbb(a[3], b[3], w);
    let mask = 0u64.wrapping_sub(w);
    let (r0, c) = adc(r0, P[0] & mask, 0);
    let (r1, c) = adc(r1, P[1] & mask, c);
    let (r2, c) = adc(r2, P[2] & mask, c);
    let (r3, _) = adc(r3, P[3] & mask, c);
    [r0, r1, r2, r3]
}

/// Montgomery reduction of an eight-limb product below p·2^256: (t·2^−256) mod p.
///
/// Round i adds m·p·2^(64i) with m = t_i (p ≡ −1 mod 2^64): m·p_0 = m·2^64 − m clears limb i and
/// carries m; p_2 = 0; so limb i+1 takes t_{i+1} + m·p_1 + m, limb i+3 takes m·p_3.
#[inline(always)]
const fn montgomery_reduce(t: [u64; 8]) -> [u64; 4] {
    let [r0, r1, r2, r3, r4, r5, r6, r7] = t;
    let (r1, c) = mac(r1, r0, P[1], r0);
    let (r2, c) = adc(r2, 0, c);
    let (r3, c) = mac(r3, r0, P[3], c);
    let (r4, c2) = adc(r4, 0, c);

    let (r2, c) = mac(r2, r1, P[1], r1);
    let (r3, c) = adc(r3, 0, c);
    let (r4, c) = mac(r4, r1, P[3], c);
    let (r5, c2) = adc(r5, c2, c);

    let (r3, c) = mac(r3, r2, P[1], r2);
    let (r4, c) = adc(r4, 0, c);
    let (r5, c) = mac(r5, r2, P[3], c);
    let (r6, c2) = adc(r6, c2, c);

    let (r4, c) = mac(r4, r3, P[1], r3);
    let (r5, c) = adc(r5, 0, c);
    let (r6, c) = mac(r6, r3, P[3], c);
    let (r7, r8) = adc(r7, c2, c);

    reduce_once([r4, r5, r6, r7], r8)
}

/// a·b·2^−256 mod p (the Montgomery product) for a, b below p.
#[inline(always)]
const fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (w0, c) = mac(0, a[0], b[0], 0);
    let (w1, c) = mac(0, a[0], b[1], c);
    let (w2, c) = mac(0, a[0], b[2], c);
    let (w3, w4) = mac(0, a[0], b[3], c);

    let (w1, c) = mac(w1, a[1], b[0], 0);
    let (w2, c) = mac(w2, a[1], b[1], c);
    let (w3, c) = mac(w3, a[1], b[2], c);
    let (w4, w5) = mac(w4, a[1], b[3], c);

    let (w2, c) = mac(w2, a[2], b[0], 0);
    let (w3, c) = mac(w3, a[2], b[1], c);
    let (w4, c) = mac(w4, a[2], b[2], c);
    let (w5, w6) = mac(w5, a[2], b[3], c);

    let (w3, c) = mac(w3, a[3], b[0], 0);
    let (w4, c) = mac(w4, a[3], b[1], c);
    let (w5, c) = mac(w5, a[3], b[2], c);
    let (w6, w7) = mac(w6, a[3], b[3], c);

    montgomery_reduce([w0, w1, w2, w3, w4, w5, w6, w7])
}

/// a²·2^−256 mod p: the six cross products once, doubled, plus the four squares.
#[inline(always)]
const fn square(a: &[u64; 4]) -> [u64; 4] {
    let (w1, c) = mac(0, a[0], a[1], 0);
    let (w2, c) = mac(0, a[0], a[2], c);
    let (w3, w4) = mac(0, a[0], a[3], c);

    let (w3, c) = mac(w3, a[1], a[2], 0);
    let (w4, w5) = mac(w4, a[1], a[3], c);

    let (w5, w6) = mac(w5, a[2], a[3], 0);

    let w7 = w6 >> 63;
    let w6 = (w6 << 1) | (w5 >> 63);
    let w5 = (w5 << 1) | (w4 >> 63);
    let w4 = (w4 << 1) | (w3 >> 63);
    let w3 = (w3 << 1) | (w2 >> 63);
    let w2 = (w2 << 1) | (w1 >> 63);
    let w1 = w1 << 1;

    let (w0, c) = mac(0, a[0], a[0], 0);
    let (w1, c) = adc(w1, 0, c);
    let (w2, c) = mac(w2, a[1], a[1], c);
    let (w3, c) = adc(w3, 0, c);
    let (w4, c) = mac(w4, a[2], a[2], c);
    let (w5, c) = adc(w5, 0, c);
    let (w6, c) = mac(w6, a[3], a[3], c);
    let (w7, _) = adc(w7, 0, c);

    montgomery_reduce([w0, w1, w2, w3, w4, w5, w6, w7])
}

/// 2^k mod p as plain limbs (k ≥ 256 by doubling from 2^256 − p), for the constants.
const fn pow2_mod_p(k: u32) -> [u64; 4] {
    // 2^256 mod p = 2^256 − p: the subtraction from zero, wrapping.
    let (r0, b) = sbb(0, P[0], 0);
    let (r1, b) = sbb(0, P[1], b);
    let (r2, b) = sbb(0, P[2], b);
    let (r3, _) = sbb(0, P[3], b);
    let mut r = [r0, r1, r2, r3];
    let mut i = 256;
    while i < k {
        r = add(&r, &r);
        i += 1;
    }
    r
}

/// An element of GF(p), p the P-256 prime, in Montgomery form, below p (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fe([u64; 4]);

/// R² mod p = 2^512 mod p (converts into Montgomery form).
const R2: [u64; 4] = pow2_mod_p(512);

impl Fe {
    /// Zero.
    pub(crate) const ZERO: Fe = Fe([0; 4]);
    /// One (R mod p = 2^256 mod p).
    pub(crate) const ONE: Fe = Fe(pow2_mod_p(256));

    /// The element of a big-endian encoding, none unless it is below p. (The `subtle` types of
    /// `p256`'s field, so that `es256` reads the same over every field; nothing here is
    /// constant-time.)
    pub(crate) fn from_repr(bytes: FieldBytes) -> CtOption<Fe> {
        let bytes: [u8; 32] = bytes.into();
        let mut limbs = [0u64; 4];
        for (i, limb) in limbs.iter_mut().enumerate() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[32 - 8 * (i + 1)..32 - 8 * i]);
            *limb = u64::from_be_bytes(b);
        }
        // Below p: the subtraction of p borrows.
        let (_, b) = sbb(limbs[0], P[0], 0);
        let (_, b) = sbb(limbs[1], P[1], b);
        let (_, b) = sbb(limbs[2], P[2], b);
        let (_, b) = sbb(limbs[3], P[3], b);
        CtOption::new(Fe(mul(&limbs, &R2)), Choice::from(b as u8))
    }

    /// The canonical big-endian encoding.
    pub(crate) fn to_repr(self) -> FieldBytes {
        let plain = mul(&self.0, &[1, 0, 0, 0]);
        let mut out = [0u8; 32];
        for (i, limb) in plain.iter().enumerate() {
            out[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        FieldBytes::from(out)
    }

    /// self².
    #[inline]
    pub(crate) fn square(&self) -> Fe {
        Fe(square(&self.0))
    }

    /// 2·self.
    #[inline]
    pub(crate) fn double(&self) -> Fe {
        Fe(add(&self.0, &self.0))
    }

    /// k·self for a small k (below 2^31), one pass instead of a chain of additions.
    #[inline]
    pub(crate) fn mul_small(&self, k: u32) -> Fe {
        Fe(mul_small(&self.0, u64::from(k)))
    }

    /// Whether self is zero (elements are fully reduced: zero has one form).
    #[inline]
    pub(crate) fn is_zero(&self) -> Choice {
        Choice::from(u8::from(self.0 == [0; 4]))
    }

    /// self^(2^k).
    fn square_times(&self, k: u32) -> Fe {
        let mut t = *self;
        for _ in 0..k {
            t = t.square();
        }
        t
    }

    /// self⁻¹ (Fermat: self^(p−2), 255 squarings and 13 products), none for zero.
    ///
    /// p − 2 = 0xffffffff_00000001_00000000_00000000_00000000_ffffffff_ffffffff_fffffffd: built
    /// from x_k = self^(2^k − 1).
    pub(crate) fn invert_vartime(&self) -> CtOption<Fe> {
        let x1 = *self;
        let x2 = x1.square() * x1;
        let x4 = x2.square_times(2) * x2;
        let x8 = x4.square_times(4) * x4;
        let x16 = x8.square_times(8) * x8;
        let x24 = x16.square_times(8) * x8;
        let x28 = x24.square_times(4) * x4;
        let x30 = x28.square_times(2) * x2;
        let x32 = x30.square_times(2) * x2;
        // ffffffff 00000001
        let t = x32.square_times(32) * x1;
        // 96 zero bits, then ffffffff ffffffff
        let t = t.square_times(96 + 32) * x32;
        let t = t.square_times(32) * x32;
        // fffffffd = 30 ones, a zero, a one
        let t = t.square_times(30) * x30;
        let t = t.square_times(2) * x1;
        CtOption::new(t, !self.is_zero())
    }

    /// A square root (self^((p+1)/4), as p ≡ 3 mod 4), none for a non-residue (tests only).
    #[cfg(test)]
    pub(crate) fn sqrt(&self) -> CtOption<Fe> {
        // (p + 1)/4 = 0x3fffffffc0000000400000000000000000000000400000000000000000000000
        const E: [u8; 32] = [
            0x3f, 0xff, 0xff, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ];
        let mut root = Fe::ONE;
        for byte in E {
            for bit in (0..8).rev() {
                root = root.square();
                if (byte >> bit) & 1 == 1 {
                    root *= *self;
                }
            }
        }
        CtOption::new(root, Choice::from(u8::from(root.square() == *self)))
    }
}

impl From<u64> for Fe {
    fn from(v: u64) -> Fe {
        Fe(mul(&[v, 0, 0, 0], &R2))
    }
}

impl core::fmt::Debug for Fe {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Fe(")?;
        for b in self.to_repr() {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl Add for Fe {
    type Output = Fe;
    #[inline]
    fn add(self, o: Fe) -> Fe {
        Fe(add(&self.0, &o.0))
    }
}

impl Sub for Fe {
    type Output = Fe;
    #[inline]
    fn sub(self, o: Fe) -> Fe {
        Fe(sub(&self.0, &o.0))
    }
}

impl Mul for Fe {
    type Output = Fe;
    #[inline]
    fn mul(self, o: Fe) -> Fe {
        Fe(mul(&self.0, &o.0))
    }
}

impl MulAssign for Fe {
    #[inline]
    fn mul_assign(&mut self, o: Fe) {
        self.0 = mul(&self.0, &o.0);
    }
}

impl Neg for Fe {
    type Output = Fe;
    #[inline]
    fn neg(self) -> Fe {
        Fe(sub(&[0; 4], &self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_tests::{be_sub_small, small, ElementRng, P_BE};
    use crate::test_rng::SplitMix64 as Rng;
    use p256::elliptic_curve::hazmat::FieldArithmetic;
    use p256::elliptic_curve::PrimeField;
    use p256::NistP256;

    type Reference = <NistP256 as FieldArithmetic>::FieldElement;

    #[test]
    fn constants() {
        let mut p = [0u8; 32];
        for (i, limb) in P.iter().enumerate() {
            p[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        assert_eq!(p, P_BE);
        let mut one = [0u8; 32];
        one[31] = 1;
        assert_eq!(Fe::ONE.to_repr(), FieldBytes::from(one));
        assert_eq!(Fe::ZERO.to_repr(), FieldBytes::from([0u8; 32]));
        assert!(bool::from(Fe::from_repr(FieldBytes::from(P_BE)).is_none()));
        assert!(bool::from(
            Fe::from_repr(FieldBytes::from([0xff; 32])).is_none()
        ));
        let p_minus_1 = be_sub_small(&P_BE, 1);
        assert_eq!(ours(&p_minus_1) + Fe::ONE, Fe::ZERO);
        assert_eq!(-Fe::ONE, ours(&p_minus_1));
        assert_eq!(-Fe::ZERO, Fe::ZERO);
        assert_eq!(
            Fe::from(u64::MAX).to_repr(),
            FieldBytes::from(small(u64::MAX))
        );
    }

    crate::field_tests::differential_field_tests!(0x0f64_5eed);

    #[test]
    fn inversion_and_roots() {
        let mut rng = Rng(64);
        assert!(bool::from(Fe::ZERO.invert_vartime().is_none()));
        for _ in 0..300 {
            let b = rng.element();
            let a = ours(&b);
            match Option::<Fe>::from(a.invert_vartime()) {
                None => assert_eq!(b, [0; 32]),
                Some(inv) => {
                    assert_eq!(inv * a, Fe::ONE);
                    let reference =
                        Option::<Reference>::from(theirs(&b).invert()).expect("nonzero");
                    same(inv, reference, "inv");
                }
            }
            let root = Option::<Fe>::from(a.square().sqrt()).expect("a square");
            assert!(root == a || root == -a, "sqrt");
            let theirs_root = Option::<Reference>::from(theirs(&b).sqrt());
            assert_eq!(
                Option::<Fe>::from(a.sqrt()).is_some(),
                theirs_root.is_some(),
                "residue"
            );
        }
    }
}

//! The P-256 base field in nine 29-bit limbs, for ES256 verification on wasm32 (SPEC §7; see
//! docs/decisions.md §11 "wasm field").
//!
//! wasm has a 64×64→64 multiply but no widening one, so `p256`'s field (fiat-crypto Montgomery
//! arithmetic on eight saturated 32-bit limbs) spends most of a product on emulated carry chains.
//! Here an element is nine unsaturated limbs of 29 bits (261 bits): a product's 81 partial
//! products (45 for a square) are summed in `i64` columns with no carry at all (each below 2^58,
//! a column below 2^62), and Montgomery reduction with R = 2^261 is four shifted additions per
//! limb, because p = 2^256 − 2^224 + 2^192 + 2^96 − 1 is sparse and p ≡ −1 (mod 2^29) makes the
//! Montgomery digit the low limb itself.
//!
//! Invariant: every element is held in Montgomery form a·R mod p, *weakly* reduced: limbs 0..8 in
//! [0, 2^29), the value below 2^257 (not necessarily below p). Every operation keeps it; equality,
//! zero tests and encoding reduce to the canonical representative first. Variable time throughout:
//! ES256 verification handles public data only (signing never uses this module).
//!
//! Used by `es256` on wasm32 (and natively with the `fe29` feature, which is how its tests run
//! against `p256`'s verifier); its own tests below compare every operation with `p256`'s field.

use core::ops::{Add, Mul, MulAssign, Neg, Sub};

use p256::elliptic_curve::subtle::{Choice, CtOption};
use p256::FieldBytes;

/// Limb width in bits.
const BITS: u32 = 29;
/// The low 29 bits.
const MASK: i64 = (1 << BITS) - 1;
/// Number of limbs.
const N: usize = 9;

/// p, big-endian.
pub(crate) const P_BE: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
];

/// p in limbs.
const P: [i64; N] = limbs_of_be(&P_BE);

/// The limbs of p and of 2p (carried: limbs 0..8 below 2^29), for [`Fe::is_zero`].
const P_LIMBS: [u32; N] = narrow(P);
const TWO_P_LIMBS: [u32; N] = {
    let mut t = P;
    let mut i = 0;
    while i < N {
        t[i] <<= 1;
        i += 1;
    }
    narrow(carry(t))
};

/// Limbs known to fit in 32 bits.
const fn narrow(t: [i64; N]) -> [u32; N] {
    let mut out = [0u32; N];
    let mut i = 0;
    while i < N {
        out[i] = t[i] as u32;
        i += 1;
    }
    out
}

/// An element of GF(p), p the P-256 prime, in Montgomery form (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Fe([u32; N]);

/// Splits 32 big-endian bytes into 29-bit limbs (the value, not its Montgomery form).
const fn limbs_of_be(bytes: &[u8; 32]) -> [i64; N] {
    let mut out = [0i64; N];
    // Little-endian bytes into a bit buffer, 29 bits out at a time.
    let (mut buffer, mut held, mut limb, mut i) = (0u64, 0u32, 0usize, 0usize);
    while i < 32 {
        buffer |= (bytes[31 - i] as u64) << held;
        held += 8;
        if held >= BITS {
            out[limb] = (buffer & MASK as u64) as i64;
            buffer >>= BITS;
            held -= BITS;
            limb += 1;
        }
        i += 1;
    }
    out[limb] = buffer as i64;
    out
}

/// Carries limbs 0..8 into [0, 2^29) (arithmetic shifts: limbs may be negative); the top limb
/// takes the rest. The value is unchanged.
#[inline(always)]
const fn carry(mut t: [i64; N]) -> [i64; N] {
    let mut i = 0;
    while i < N - 1 {
        t[i + 1] += t[i] >> BITS;
        t[i] &= MASK;
        i += 1;
    }
    t
}

/// Brings a non-negative value below 2^262 to the invariant (below 2^257, limbs carried):
/// 2^256 ≡ 2^224 − 2^192 − 2^96 + 1 (mod p) folds the bits from 256 up into the low ones.
#[inline(always)]
const fn weak_reduce(t: [i64; N]) -> Fe {
    let mut t = carry(t);
    // Bit 256 is bit 24 of limb 8 (8·29 = 232).
    let h = t[8] >> 24;
    t[8] &= (1 << 24) - 1;
    t[0] += h; // + h
    t[3] -= h << 9; // − h·2^96 (96 = 3·29 + 9)
    t[6] -= h << 18; // − h·2^192 (192 = 6·29 + 18)
    t[7] += h << 21; // + h·2^224 (224 = 7·29 + 21)
    let t = carry(t);
    let mut out = [0u32; N];
    let mut i = 0;
    while i < N {
        out[i] = t[i] as u32;
        i += 1;
    }
    Fe(out)
}

/// Widens the limbs.
#[inline(always)]
const fn wide(a: &Fe) -> [i64; N] {
    let mut out = [0i64; N];
    let mut i = 0;
    while i < N {
        out[i] = a.0[i] as i64;
        i += 1;
    }
    out
}

/// a + b.
const fn add(a: &Fe, b: &Fe) -> Fe {
    let (mut t, b) = (wide(a), wide(b));
    let mut i = 0;
    while i < N {
        t[i] += b[i];
        i += 1;
    }
    weak_reduce(t)
}

/// 4p in limbs: a − b + 4p is positive for any b below 2^257.
const FOUR_P: [i64; N] = {
    let p = P;
    let mut out = [0i64; N];
    let mut i = 0;
    while i < N {
        out[i] = p[i] << 2;
        i += 1;
    }
    out
};

/// a − b.
const fn sub(a: &Fe, b: &Fe) -> Fe {
    let (mut t, b) = (wide(a), wide(b));
    let mut i = 0;
    while i < N {
        t[i] += FOUR_P[i] - b[i];
        i += 1;
    }
    weak_reduce(t)
}

/// Montgomery reduction of a double-width column sum: t / 2^261 mod p, weakly reduced. Each step
/// takes the low limb m (the Montgomery digit, as p ≡ −1 mod 2^29) and adds m·p shifted there:
/// −m cancels the limb (leaving its carry), +m·2^96, +m·2^192, −m·2^224, +m·2^256.
#[inline(always)]
const fn mont_reduce(mut t: [i64; 2 * N]) -> Fe {
    let mut i = 0;
    while i < N {
        let m = t[i] & MASK;
        t[i + 1] += t[i] >> BITS;
        t[i + 3] += m << 9;
        t[i + 6] += m << 18;
        t[i + 7] -= m << 21;
        t[i + 8] += m << 24;
        i += 1;
    }
    let mut out = [0i64; N];
    let mut k = 0;
    while k < N {
        out[k] = t[N + k];
        k += 1;
    }
    // (a·b + M·p) / R < 2^514 / 2^261 + p < 2^257: one carry pass suffices.
    let out = carry(out);
    let mut limbs = [0u32; N];
    let mut k = 0;
    while k < N {
        limbs[k] = out[k] as u32;
        k += 1;
    }
    Fe(limbs)
}

/// a·b·R⁻¹ (the Montgomery product).
const fn mul(a: &Fe, b: &Fe) -> Fe {
    let (a, b) = (wide(a), wide(b));
    let mut t = [0i64; 2 * N];
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < N {
            t[i + j] += a[i] * b[j];
            j += 1;
        }
        i += 1;
    }
    mont_reduce(t)
}

/// a²·R⁻¹ (45 partial products).
const fn square(a: &Fe) -> Fe {
    let a = wide(a);
    let mut t = [0i64; 2 * N];
    let mut i = 0;
    while i < N {
        t[2 * i] += a[i] * a[i];
        let twice = a[i] << 1;
        let mut j = i + 1;
        while j < N {
            t[i + j] += twice * a[j];
            j += 1;
        }
        i += 1;
    }
    mont_reduce(t)
}

/// The canonical limbs (value in [0, p)) of a weakly reduced element.
const fn canonical(a: &Fe) -> [i64; N] {
    let p = P;
    let mut t = wide(a);
    // Below 2^257 < 3p: at most two subtractions.
    let mut round = 0;
    while round < 2 {
        // t ≥ p? Compare from the top limb down.
        let mut k = N;
        let mut ge = true;
        while k > 0 {
            k -= 1;
            if t[k] != p[k] {
                ge = t[k] > p[k];
                break;
            }
        }
        if !ge {
            break;
        }
        let mut i = 0;
        while i < N {
            t[i] -= p[i];
            i += 1;
        }
        t = carry(t);
        round += 1;
    }
    t
}

/// The Montgomery form of a value below 2^257 given in plain limbs.
const fn to_montgomery(plain: [i64; N]) -> Fe {
    let mut limbs = [0u32; N];
    let mut i = 0;
    while i < N {
        limbs[i] = plain[i] as u32;
        i += 1;
    }
    mul(&Fe(limbs), &R2)
}

/// 2^k mod p, weakly reduced, by doubling 1 k times.
const fn pow2(k: u32) -> Fe {
    let mut one = [0u32; N];
    one[0] = 1;
    let mut x = Fe(one);
    let mut i = 0;
    while i < k {
        x = add(&x, &x);
        i += 1;
    }
    x
}

/// R² mod p = 2^522 mod p (converts into Montgomery form).
const R2: Fe = pow2(522);

impl Fe {
    /// Zero.
    pub(crate) const ZERO: Fe = Fe([0; N]);
    /// One (R mod p).
    pub(crate) const ONE: Fe = {
        let c = canonical(&pow2(261));
        let mut limbs = [0u32; N];
        let mut i = 0;
        while i < N {
            limbs[i] = c[i] as u32;
            i += 1;
        }
        Fe(limbs)
    };

    /// The element of a big-endian encoding, none unless it is below p. (The `subtle` types of
    /// `p256`'s field, so that `es256` reads the same over both; nothing here is constant-time.)
    pub(crate) fn from_repr(bytes: FieldBytes) -> CtOption<Fe> {
        let bytes: [u8; 32] = bytes.into();
        if bytes >= P_BE {
            return CtOption::new(Fe::ZERO, Choice::from(0));
        }
        CtOption::new(to_montgomery(limbs_of_be(&bytes)), Choice::from(1))
    }

    /// The canonical big-endian encoding.
    pub(crate) fn to_repr(self) -> FieldBytes {
        let mut one = [0u32; N];
        one[0] = 1;
        let plain = canonical(&mul(&self, &Fe(one)));
        let mut out = [0u8; 32];
        let (mut buffer, mut held, mut limbs) = (0u64, 0u32, plain.iter());
        for byte in out.iter_mut().rev() {
            if held < 8 {
                buffer |= (*limbs.next().unwrap_or(&0) as u64) << held;
                held += BITS;
            }
            *byte = buffer as u8;
            buffer >>= 8;
            held -= 8;
        }
        FieldBytes::from(out)
    }

    /// self².
    pub(crate) fn square(&self) -> Fe {
        square(self)
    }

    /// 2·self.
    pub(crate) fn double(&self) -> Fe {
        add(self, self)
    }

    /// k·self for a small k (below 2^31): the chains of additions of the doubling formula for
    /// 3, 4 and 8 (additions are cheap here: no carries), binary doubling-and-adding otherwise.
    pub(crate) fn mul_small(&self, k: u32) -> Fe {
        match k {
            3 => self.double() + *self,
            4 => self.double().double(),
            8 => self.double().double().double(),
            _ => {
                let mut acc = Fe::ZERO;
                for bit in (0..32).rev() {
                    acc = acc.double();
                    if (k >> bit) & 1 == 1 {
                        acc = acc + *self;
                    }
                }
                acc
            }
        }
    }

    /// Whether self ≡ 0: a weakly reduced value is below 2^257 < 3p and its limbs are carried
    /// (unique), so it is zero exactly when its limbs are those of 0, p or 2p. Compared without a
    /// branch on the limbs (`canonical` compares from the top limb down: its branches depend on
    /// the value, and point additions test two values a time).
    pub(crate) fn is_zero(&self) -> Choice {
        let (mut zero, mut p, mut two_p) = (0u32, 0u32, 0u32);
        for i in 0..N {
            zero |= self.0[i];
            p |= self.0[i] ^ P_LIMBS[i];
            two_p |= self.0[i] ^ TWO_P_LIMBS[i];
        }
        Choice::from(u8::from((zero == 0) | (p == 0) | (two_p == 0)))
    }

    /// self^e for a big-endian exponent (square-and-multiply from the top bit).
    fn pow_be(&self, e: &[u8; 32]) -> Fe {
        let mut acc = Fe::ONE;
        for byte in e {
            for bit in (0..8).rev() {
                acc = acc.square();
                if (byte >> bit) & 1 == 1 {
                    acc *= *self;
                }
            }
        }
        acc
    }

    /// self⁻¹ (Fermat: self^(p−2)), none for zero.
    pub(crate) fn invert_vartime(&self) -> CtOption<Fe> {
        let mut e = P_BE;
        e[31] -= 2;
        CtOption::new(self.pow_be(&e), !self.is_zero())
    }

    /// A square root (self^((p+1)/4), as p ≡ 3 mod 4), none for a non-residue (tests only).
    #[cfg(test)]
    pub(crate) fn sqrt(&self) -> CtOption<Fe> {
        const E: [u8; 32] = [
            0x3f, 0xff, 0xff, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ];
        let root = self.pow_be(&E);
        CtOption::new(root, Choice::from(u8::from(root.square() == *self)))
    }
}

impl From<u64> for Fe {
    fn from(v: u64) -> Fe {
        let mut plain = [0i64; N];
        plain[0] = (v & MASK as u64) as i64;
        plain[1] = ((v >> BITS) & MASK as u64) as i64;
        plain[2] = (v >> (2 * BITS)) as i64;
        to_montgomery(plain)
    }
}

impl PartialEq for Fe {
    fn eq(&self, other: &Fe) -> bool {
        canonical(self) == canonical(other)
    }
}

impl Eq for Fe {}

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
    fn add(self, o: Fe) -> Fe {
        add(&self, &o)
    }
}

impl Sub for Fe {
    type Output = Fe;
    fn sub(self, o: Fe) -> Fe {
        sub(&self, &o)
    }
}

impl Mul for Fe {
    type Output = Fe;
    fn mul(self, o: Fe) -> Fe {
        mul(&self, &o)
    }
}

impl MulAssign for Fe {
    fn mul_assign(&mut self, o: Fe) {
        *self = mul(self, &o);
    }
}

impl Neg for Fe {
    type Output = Fe;
    fn neg(self) -> Fe {
        sub(&Fe::ZERO, &self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::elliptic_curve::hazmat::FieldArithmetic;
    use p256::elliptic_curve::PrimeField;
    use p256::NistP256;

    type Reference = <NistP256 as FieldArithmetic>::FieldElement;

    #[test]
    fn zero_in_each_of_its_weak_forms_and_nothing_else() {
        // 0, p and 2p are the weakly reduced forms of zero; their neighbours are not zero.
        for limbs in [[0u32; N], P_LIMBS, TWO_P_LIMBS] {
            assert!(bool::from(Fe(limbs).is_zero()));
            assert!(Fe(limbs) == Fe::ZERO);
            for (i, delta) in [(0, 1i64), (0, -1), (8, 1), (4, 1), (8, -1)] {
                let mut t = wide(&Fe(limbs));
                t[i] += delta;
                if t.iter().any(|&x| x < 0) {
                    continue;
                }
                let near = weak_reduce(t);
                assert!(!bool::from(near.is_zero()), "{limbs:x?} {i} {delta}");
            }
        }
    }

    use crate::field_tests::{be_sub_small, small, ElementRng};
    use crate::test_rng::SplitMix64 as Rng;

    #[test]
    fn constants() {
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
        assert_eq!(
            Fe::from(u64::MAX).to_repr(),
            FieldBytes::from(small(u64::MAX))
        );
    }

    crate::field_tests::differential_field_tests!(0x0f29_5eed);

    #[test]
    fn inversion() {
        let mut rng = Rng(7);
        assert!(bool::from(Fe::ZERO.invert_vartime().is_none()));
        for _ in 0..200 {
            let b = rng.element();
            let a = ours(&b);
            // Square roots: of a square always (one of ±a), of a non-residue never, as p256 says.
            let root = Option::<Fe>::from(a.square().sqrt()).expect("a square");
            assert!(root == a || root == -a, "sqrt");
            let theirs_root = Option::<Reference>::from(theirs(&b).sqrt());
            let ours_root = Option::<Fe>::from(a.sqrt());
            assert_eq!(ours_root.is_some(), theirs_root.is_some(), "residue");
            if let (Some(r), Some(t)) = (ours_root, theirs_root) {
                assert!(r.to_repr() == t.to_repr() || (-r).to_repr() == t.to_repr());
            }
            match Option::<Fe>::from(a.invert_vartime()) {
                None => assert_eq!(b, [0; 32]),
                Some(inv) => {
                    assert_eq!(inv * a, Fe::ONE);
                    let x = theirs(&b);
                    same(
                        inv,
                        Option::<Reference>::from(x.invert()).expect("nonzero"),
                        "inv",
                    );
                }
            }
        }
    }
}

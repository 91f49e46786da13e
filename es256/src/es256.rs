//! ES256 signature verification with precomputed tables (RFC 7518 §3.4, FIPS 186-5 ECDSA over
//! P-256 with SHA-256; SPEC §7 "precompute what a JWKS key allows").
//!
//! Verification computes R = u1·G + u2·Q and compares x(R) mod n with r. Both G and a key set's Q
//! get a fixed-base table once: for window width w and every window i, the affine points
//! j·2^(w·i)·P for j = 1..2^(w−1). A scalar is rewritten in signed radix 2^w (digits
//! −2^(w−1)..2^(w−1)−1, the last one non-negative), so u·P is one mixed addition per non-zero
//! digit and no doubling. G uses w = 8 (33 windows, 4224 points, 270 KB, built once per process on
//! first use, not embedded in the binary); a key uses w = 7 (37 windows, 2368 points, 151 KB, built
//! on the key's second verification and shared by its clones; see [`PreparedKey`]). Against w = 7
//! and 6 this is 10.6 % fewer instructions per verification (callgrind). On wasm32, where the
//! verification is the receipt dashboard's bottleneck, the windows are 9 and 8 (see [`G_WINDOW`]).
//!
//! The field arithmetic is the `p256` crate's (its `FieldElement`, through
//! `elliptic_curve::hazmat::FieldArithmetic`) natively and [`crate::fe29`]'s nine 29-bit limbs on
//! wasm32 (39 % fewer instructions there); the point arithmetic here is hand-written, since
//! `p256`'s projective coordinates are private: Jacobian coordinates (x = X/Z², y = Y/Z³, Z = 0 the
//! identity), mixed addition (add-2004-hmv, 8M+3S, the exceptional cases P = ±Q and P = O handled
//! explicitly), doubling for a = −3 (dbl-2001-b) and batch normalisation with one inversion. A
//! key's first verification has no table: u2·Q is a width-5 wNAF over Jacobian odd multiples with
//! their Z² and Z³ kept (see [`mul_wnaf`] and docs/decisions/jws.md#es256-cold). The
//! result is not normalised: x(R) ≡ r (mod n) is checked as X = r·Z² or, when r + n < p,
//! X = (r + n)·Z². All of it works on public data only, so variable time is fine (signing is
//! `p256`'s RFC 6979 code, untouched). Wycheproof's P-256 SHA-256 P1363 suite
//! (ekl-core's tests/wycheproof_es256.rs) and a differential test against `p256`'s own verifier on random
//! and edge-case inputs (the tests below; `EKL_ES256_DIFF_CASES` scales them) pin it.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::OnceLock;

use p256::elliptic_curve::ff::Field;
use p256::elliptic_curve::ops::Reduce;
use p256::elliptic_curve::point::AffineCoordinates;
use p256::elliptic_curve::PrimeField;
use p256::{AffinePoint, FieldBytes, Scalar};

/// An element of the base field: four 64-bit limbs on 64-bit targets ([`crate::fe64`], 38 % fewer
/// instructions per verification than `p256`'s field), nine 29-bit limbs elsewhere, wasm32 above
/// all ([`crate::fe29`]: no widening multiply there; the `fe29` feature selects it natively for
/// its tests).
#[cfg(all(target_pointer_width = "64", not(feature = "fe29")))]
type Fe = crate::fe64::Fe;
#[cfg(not(all(target_pointer_width = "64", not(feature = "fe29"))))]
type Fe = crate::fe29::Fe;
/// Whether [`Fe`] is [`crate::fe64`]'s.
const FE64: bool = cfg!(all(target_pointer_width = "64", not(feature = "fe29")));

/// The window width of the generator's table: 8 natively (33 windows, 4224 points, 270 KB); 9 on
/// wasm32 (29 windows, 7424 points, 534 KB: 7 % fewer instructions per verification there, for
/// about 75 verifications' worth of work once per process).
const G_WINDOW: u32 = if cfg!(any(target_arch = "wasm32", feature = "fe29")) {
    9
} else {
    8
};
/// The window width of a key's table: 7 natively (37 windows, 2368 points, 151 KB); 8 on wasm32
/// (33 windows, 4224 points, 304 KB: 6.7 % fewer instructions per verification there).
const KEY_WINDOW: u32 = if cfg!(any(target_arch = "wasm32", feature = "fe29")) {
    8
} else {
    7
};
/// The most windows any width ≥ 4 needs (w = 4: 64 nibbles and a final carry).
const MAX_WINDOWS: usize = 65;

/// The group order n, big-endian.
const ORDER_BE: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
];
/// p − n, big-endian: r + n < p exactly when r < p − n.
const P_MINUS_N_BE: [u8; 32] = [
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x43, 0x19, 0x05, 0x53, 0x58, 0xe8, 0x61, 0x7b, 0x0c, 0x46, 0x35, 0x3d, 0x03, 0x9c, 0xda, 0xae,
];

/// An affine point that is not the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Affine {
    x: Fe,
    y: Fe,
}

/// A point in Jacobian coordinates: (X/Z², Y/Z³); Z = 0 is the identity.
#[derive(Clone, Copy, Debug)]
struct Jacobian {
    x: Fe,
    y: Fe,
    z: Fe,
}

impl Jacobian {
    const IDENTITY: Jacobian = Jacobian {
        x: Fe::ONE,
        y: Fe::ONE,
        z: Fe::ZERO,
    };

    fn from_affine(p: &Affine) -> Jacobian {
        Jacobian {
            x: p.x,
            y: p.y,
            z: Fe::ONE,
        }
    }

    fn is_identity(&self) -> bool {
        bool::from(self.z.is_zero())
    }

    /// 2·self for a = −3 (dbl-2001-b, 3M+5S; on `fe64` Z3 = 2·Y·Z as one product, 4M+4S,
    /// fewer additions than (Y + Z)² − γ − δ and 1 % fewer instructions; 3·t, 4·β and 8·γ² are
    /// [`Fe::mul_small`]). The identity doubles to itself (Z stays 0); P-256 has no point of
    /// order 2, so Y ≠ 0 otherwise.
    fn double(&self) -> Jacobian {
        let delta = self.z.square();
        let gamma = self.y.square();
        let beta = self.x * gamma;
        let alpha = ((self.x - delta) * (self.x + delta)).mul_small(3);
        let beta4 = beta.mul_small(4);
        let x3 = alpha.square() - beta4.double();
        let z3 = if FE64 {
            (self.y * self.z).double()
        } else {
            // fe29: a product costs 81 limb products, a square 45; its additions carry nothing.
            (self.y + self.z).square() - gamma - delta
        };
        let gamma2 = gamma.square();
        let y3 = alpha * (beta4 - x3) - gamma2.mul_small(8);
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// self + (x2, y2) with the affine point given by its coordinates (add-2004-hmv, 8M+3S).
    #[inline]
    fn add_affine(&self, x2: &Fe, y2: &Fe) -> Jacobian {
        self.add_point(x2, y2, None)
    }

    /// self + (x2, y2, z2): z2 given with its square and cube (add-1998-cmo-2, 11M+3S), or `None`
    /// for an affine point (z2 = 1: add-2004-hmv, 8M+3S). One body for both, kept out of line:
    /// as two bodies they cost the wasm module 2.4 KB gzip, and a call and two branches are
    /// nothing beside 11 products (natively no instruction count moved; on `fe29` a ready key's
    /// verification takes 0.5 % more). The exceptional cases P = ±Q and P = O are handled
    /// explicitly.
    #[inline(never)]
    fn add_point(&self, x2: &Fe, y2: &Fe, z2: Option<(&Fe, &Fe, &Fe)>) -> Jacobian {
        if self.is_identity() {
            return Jacobian {
                x: *x2,
                y: *y2,
                z: z2.map_or(Fe::ONE, |(z, _, _)| *z),
            };
        }
        let z1z1 = self.z.square();
        // U1 = X1·Z2², S1 = Y1·Z2³ (X1 and Y1 when z2 = 1).
        let (u1, s1) = match z2 {
            Some((_, zz, zzz)) => (self.x * *zz, self.y * *zzz),
            None => (self.x, self.y),
        };
        let u2 = *x2 * z1z1;
        let s2 = *y2 * (z1z1 * self.z);
        let h = u2 - u1;
        let r = s2 - s1;
        if bool::from(h.is_zero()) {
            // Same x: the same point (double it) or its negation (the sum is the identity).
            return if bool::from(r.is_zero()) {
                self.double()
            } else {
                Jacobian::IDENTITY
            };
        }
        let hh = h.square();
        let hhh = hh * h;
        let v = u1 * hh;
        let x3 = r.square() - hhh - v.double();
        let y3 = r * (v - x3) - s1 * hhh;
        let z3 = match z2 {
            Some((z, _, _)) => self.z * *z * h,
            None => self.z * h,
        };
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }
}

/// Affine forms of Jacobian points, none of them the identity, with one inversion (Montgomery's
/// trick).
fn batch_normalize(points: &[Jacobian]) -> Vec<Affine> {
    let mut prefix = Vec::with_capacity(points.len());
    let mut acc = Fe::ONE;
    for p in points {
        debug_assert!(!p.is_identity());
        prefix.push(acc);
        acc *= p.z;
    }
    let mut inv = Option::<Fe>::from(acc.invert_vartime()).expect("no identity in a table");
    let mut out = vec![
        Affine {
            x: Fe::ZERO,
            y: Fe::ZERO
        };
        points.len()
    ];
    for i in (0..points.len()).rev() {
        let zinv = inv * prefix[i];
        inv *= points[i].z;
        let zinv2 = zinv.square();
        out[i] = Affine {
            x: points[i].x * zinv2,
            y: points[i].y * (zinv2 * zinv),
        };
    }
    out
}

/// The affine coordinates of a p256 point that is not the identity.
fn from_p256(point: &AffinePoint) -> Affine {
    let x = Option::<Fe>::from(Fe::from_repr(point.x())).expect("a coordinate is below p");
    let y = Option::<Fe>::from(Fe::from_repr(point.y())).expect("a coordinate is below p");
    Affine { x, y }
}

/// The multiples j·2^(w·i)·P (j = 1..2^(w−1), every window i) of one point, affine.
struct FixedBaseTable {
    window: u32,
    points: Vec<Affine>,
}

/// The number of signed radix-2^w digits of a scalar below 2^256 (the last one absorbs the carry).
const fn windows(window: u32) -> usize {
    (256 + window as usize) / window as usize
}

impl FixedBaseTable {
    /// The table of `point` for window width `window` (4..=8).
    fn with_window(point: &Affine, window: u32) -> FixedBaseTable {
        assert!((4..=9).contains(&window));
        let count = windows(window);
        let entries = 1usize << (window - 1);
        // The bases 2^(w·i)·P, normalised together.
        let mut bases = Vec::with_capacity(count);
        let mut base = Jacobian::from_affine(point);
        for _ in 0..count {
            bases.push(base);
            for _ in 0..window {
                base = base.double();
            }
        }
        let bases = batch_normalize(&bases);
        let mut multiples = Vec::with_capacity(count * entries);
        for b in &bases {
            let mut multiple = Jacobian::from_affine(b);
            for j in 0..entries {
                multiples.push(multiple);
                if j + 1 < entries {
                    multiple = multiple.add_affine(&b.x, &b.y);
                }
            }
        }
        FixedBaseTable {
            window,
            points: batch_normalize(&multiples),
        }
    }

    /// acc += scalar·P, with `digits` the signed radix-2^w form of the scalar.
    fn accumulate(&self, acc: &mut Jacobian, digits: &[i16]) {
        let entries = 1usize << (self.window - 1);
        for (i, &digit) in digits.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let entry = &self.points[i * entries + usize::from(digit.unsigned_abs()) - 1];
            *acc = if digit > 0 {
                acc.add_affine(&entry.x, &entry.y)
            } else {
                acc.add_affine(&entry.x, &-entry.y)
            };
        }
    }
}

/// Signed radix-2^w digits (little-endian windows) of a scalar: every digit in
/// −2^(w−1)..2^(w−1)−1 except the last (non-negative, below 2^(w−1)), Σ d_i·2^(w·i) = the scalar.
/// Returns the digits and their count.
fn signed_digits(scalar: &Scalar, window: u32) -> ([i16; MAX_WINDOWS], usize) {
    let bytes = scalar.to_repr();
    let mut limbs = [0u64; 5];
    for (i, limb) in limbs[..4].iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[32 - 8 * (i + 1)..32 - 8 * i]);
        *limb = u64::from_be_bytes(b);
    }
    let count = windows(window);
    let mask = (1u64 << window) - 1;
    let half = 1i16 << (window - 1);
    let full = 1i16 << window;
    let mut digits = [0i16; MAX_WINDOWS];
    let mut carry = 0i16;
    for (i, digit) in digits[..count].iter_mut().enumerate() {
        let bit = i * window as usize;
        let (limb, shift) = (bit / 64, bit % 64);
        let mut bits = limbs[limb] >> shift;
        if shift + window as usize > 64 {
            bits |= limbs[limb + 1] << (64 - shift);
        }
        let v = (bits & mask) as i16 + carry;
        if v >= half {
            *digit = v - full;
            carry = 1;
        } else {
            *digit = v;
            carry = 0;
        }
    }
    debug_assert_eq!(carry, 0);
    (digits, count)
}

fn generator_table() -> &'static FixedBaseTable {
    static TABLE: OnceLock<FixedBaseTable> = OnceLock::new();
    TABLE.get_or_init(|| FixedBaseTable::with_window(&from_p256(&AffinePoint::GENERATOR), G_WINDOW))
}

/// n in little-endian 64-bit limbs.
const ORDER: [u64; 4] = [
    0xf3b9_cac2_fc63_2551,
    0xbce6_faad_a717_9e84,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_0000_0000,
];

/// A 256-bit integer in little-endian 64-bit limbs (for [`invert_scalar`]).
type U256 = [u64; 4];

/// a + b and the carry out.
fn add_u256(a: &U256, b: &U256) -> (U256, u64) {
    let mut out = [0u64; 4];
    let mut carry = 0u64;
    for i in 0..4 {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(carry);
        out[i] = s2;
        carry = u64::from(c1) + u64::from(c2);
    }
    (out, carry)
}

/// a − b and whether it borrowed (a < b).
fn sub_u256(a: &U256, b: &U256) -> (U256, bool) {
    let mut out = [0u64; 4];
    let mut borrow = false;
    for i in 0..4 {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
        out[i] = d2;
        borrow = b1 || b2;
    }
    (out, borrow)
}

/// a / 2^k for k below 64, in place.
fn shr_u256(a: &mut U256, k: u32) {
    if k == 0 {
        return;
    }
    for i in 0..3 {
        a[i] = (a[i] >> k) | (a[i + 1] << (64 - k));
    }
    a[3] >>= k;
}

/// x / 2^k mod n for x below n, one branch-free halving at a time: x + n when x is odd (the
/// carry becomes the top bit), then a shift.
fn halve_mod_n(x: &mut U256, k: u32) {
    for _ in 0..k {
        let mask = 0u64.wrapping_sub(x[0] & 1);
        let mut carry = 0u64;
        for (limb, n) in x.iter_mut().zip(ORDER) {
            let (s1, c1) = limb.overflowing_add(n & mask);
            let (s2, c2) = s1.overflowing_add(carry);
            *limb = s2;
            carry = u64::from(c1) | u64::from(c2);
        }
        for i in 0..3 {
            x[i] = (x[i] >> 1) | (x[i + 1] << 63);
        }
        x[3] = (x[3] >> 1) | (carry << 63);
    }
}

/// Removes the factors 2 of a non-zero `a` (and divides `x` by as many, mod n).
fn make_odd(a: &mut U256, x: &mut U256) {
    while a[0] == 0 {
        // 64 at a time (rare: a random value has 64 trailing zero bits with chance 2^-64).
        a.copy_within(1..4, 0);
        a[3] = 0;
        halve_mod_n(x, 64);
    }
    let k = a[0].trailing_zeros();
    shr_u256(a, k);
    halve_mod_n(x, k);
}

/// a − b mod n, for a and b below n.
fn sub_mod_n(a: &U256, b: &U256) -> U256 {
    match sub_u256(a, b) {
        (d, true) => add_u256(&d, &ORDER).0,
        (d, false) => d,
    }
}

/// s⁻¹ mod n by the binary extended Euclidean algorithm (variable time: verification handles
/// public data only). With no multiplication it suits wasm32, where `p256`'s safegcd runs on
/// 32-bit limbs with emulated carries: per step one subtraction, then every factor 2 removed at
/// once (a shift) and halved out of the cofactor without a branch, so the only unpredictable branch
/// is which of u and v is larger. Invariants: x1·s ≡ u and x2·s ≡ v (mod n) with u and v odd;
/// gcd(u, v) = gcd(s, n) = 1, so they meet at 1. `None` for zero.
fn invert_scalar(s: &Scalar) -> Option<Scalar> {
    let be = s.to_repr();
    let mut u: U256 = [0; 4];
    for (i, limb) in u.iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&be[32 - 8 * (i + 1)..32 - 8 * i]);
        *limb = u64::from_be_bytes(b);
    }
    if u == [0; 4] {
        return None;
    }
    let (mut v, mut x1, mut x2) = (ORDER, [1u64, 0, 0, 0], [0u64; 4]);
    make_odd(&mut u, &mut x1);
    loop {
        match sub_u256(&u, &v) {
            (d, false) if d == [0; 4] => break,
            (d, false) => {
                u = d;
                x1 = sub_mod_n(&x1, &x2);
                make_odd(&mut u, &mut x1);
            }
            (_, true) => {
                v = sub_u256(&v, &u).0;
                x2 = sub_mod_n(&x2, &x1);
                make_odd(&mut v, &mut x2);
            }
        }
    }
    // u = v = gcd = 1, so x1 = s⁻¹.
    let mut out = [0u8; 32];
    for (i, limb) in x1.iter().enumerate() {
        out[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
    }
    Option::<Scalar>::from(Scalar::from_repr(FieldBytes::from(out)))
}

/// s⁻¹ mod n: [`invert_scalar`] on wasm32 (and with the `fe29` feature), `p256`'s safegcd on
/// 64-bit limbs elsewhere (where it takes 1 % fewer instructions than the binary algorithm).
fn scalar_inverse(s: &Scalar) -> Option<Scalar> {
    if cfg!(any(target_arch = "wasm32", feature = "fe29")) {
        invert_scalar(s)
    } else {
        Option::from(s.invert_vartime())
    }
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
pub enum Refusal {
    /// Not 64 bytes.
    Length,
    /// r or s is zero or not below n.
    Range,
    /// The equation does not hold.
    Mismatch,
}

/// The most key tables that exist at once in a process: 64 of 151 KB natively, 32 of 304 KB on
/// wasm32 (its wider window), about 9.7 MB either way. A key beyond the budget verifies without a
/// table (about 4 times the work, the same answers) until another key's table is dropped with its
/// last clone, so a key set of many keys, hostile or not, never costs more memory than this.
pub const MAX_KEY_TABLES: usize = if cfg!(any(target_arch = "wasm32", feature = "fe29")) {
    32
} else {
    64
};

/// The key tables that exist now (at most [`MAX_KEY_TABLES`]).
static LIVE_KEY_TABLES: AtomicUsize = AtomicUsize::new(0);

/// How many key tables exist now.
#[cfg(test)]
pub(crate) fn live_key_tables() -> usize {
    LIVE_KEY_TABLES.load(Ordering::Acquire)
}

/// A verification key: its point and, from its second verification on, its table.
///
/// A key verified once (a key set parsed for one token) pays for no table: u2·Q is then a width-5
/// wNAF multiplication (`mul_wnaf`: 256 doublings, about 43 additions of the odd multiples
/// Q…15Q kept in Jacobian coordinates, no inversion), about 4 verifications' worth of work
/// against some 50 for building the table. The second verification builds the table when the
/// budget of [`MAX_KEY_TABLES`] allows, and every later one uses it; clones share both.
pub struct PreparedKey {
    point: Affine,
    uses: AtomicU32,
    table: OnceLock<FixedBaseTable>,
}

impl std::fmt::Debug for PreparedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedKey")
            .field("table", &self.table.get().is_some())
            .finish_non_exhaustive()
    }
}

impl PreparedKey {
    /// The key of `point` (not the identity).
    pub fn new(point: &AffinePoint) -> PreparedKey {
        PreparedKey {
            point: from_p256(point),
            uses: AtomicU32::new(0),
            table: OnceLock::new(),
        }
    }

    /// Builds the table now, when the budget of [`MAX_KEY_TABLES`] allows; says whether the key
    /// has its table.
    pub fn precompute(&self) -> bool {
        self.built_table().is_some()
    }

    /// The table, built now if need be, or `None` when [`MAX_KEY_TABLES`] tables exist.
    fn built_table(&self) -> Option<&FixedBaseTable> {
        if let Some(table) = self.table.get() {
            return Some(table);
        }
        // Take a place in the budget, then build; a place taken by a thread that lost the race
        // to build this same table is given back.
        LIVE_KEY_TABLES
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_KEY_TABLES).then_some(n + 1)
            })
            .ok()?;
        let mut built = false;
        let table = self.table.get_or_init(|| {
            built = true;
            FixedBaseTable::with_window(&self.point, KEY_WINDOW)
        });
        if !built {
            LIVE_KEY_TABLES.fetch_sub(1, Ordering::AcqRel);
        }
        Some(table)
    }

    /// The table, when it exists or this is not the key's first verification (and the budget
    /// allows it).
    fn table(&self) -> Option<&FixedBaseTable> {
        if let Some(table) = self.table.get() {
            return Some(table);
        }
        if self.uses.fetch_add(1, Ordering::Relaxed) == 0 {
            None
        } else {
            self.built_table()
        }
    }

    /// Verifies a raw r‖s ES256 signature of `message` (the tests' entry; callers hash first).
    #[cfg(test)]
    pub(crate) fn verify(&self, message: &[u8], signature: &[u8]) -> Result<(), Refusal> {
        self.verify_prehashed(
            &<sha2::Sha256 as sha2::Digest>::digest(message).into(),
            signature,
        )
    }

    /// Verifies a raw r‖s ES256 signature of the message whose SHA-256 is `digest`.
    pub fn verify_prehashed(&self, digest: &[u8; 32], signature: &[u8]) -> Result<(), Refusal> {
        let digest = *digest;
        match self.table() {
            Some(table) => verify_digest(Base::Table(table), &digest, signature),
            None => verify_digest(Base::Point(&self.point), &digest, signature),
        }
    }
}

impl Drop for PreparedKey {
    fn drop(&mut self) {
        if self.table.get().is_some() {
            LIVE_KEY_TABLES.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// How u2·Q is computed: from the key's table, or from the point alone.
#[derive(Clone, Copy)]
enum Base<'a> {
    Table(&'a FixedBaseTable),
    Point(&'a Affine),
}

/// A Jacobian point with Z² and Z³ kept, for [`Jacobian::add_cached`]: an entry of a key's
/// table of odd multiples (no inversion makes them affine: see [`mul_wnaf`]).
#[derive(Clone, Copy, Debug)]
struct Cached {
    x: Fe,
    y: Fe,
    z: Fe,
    zz: Fe,
    zzz: Fe,
}

impl Cached {
    /// The cached form of a point that is not the identity.
    fn new(p: &Jacobian) -> Cached {
        let zz = p.z.square();
        Cached {
            x: p.x,
            y: p.y,
            z: p.z,
            zz,
            zzz: zz * p.z,
        }
    }
}

impl Jacobian {
    /// self + p (add-1998-cmo-2 with p's Z² and Z³ cached, 11M+3S; [`Jacobian::add_point`]),
    /// `negate` adding −p instead.
    #[inline]
    fn add_cached(&self, p: &Cached, negate: bool) -> Jacobian {
        let y2 = if negate { -p.y } else { p.y };
        self.add_point(&p.x, &y2, Some((&p.z, &p.zz, &p.zzz)))
    }
}

/// The width of the table-less path's wNAF: odd digits up to ±15, one non-zero digit in six on
/// average (about 43 additions for a 256-bit scalar, against 60 in signed radix 16).
const WNAF_WIDTH: u32 = 5;
/// The most wNAF digits of a scalar below 2^256 (the last one a carry).
const WNAF_DIGITS: usize = 257;

/// The width-[`WNAF_WIDTH`] NAF of a scalar (little-endian): every non-zero digit odd and in
/// −15..=15, at least four zeros after each, Σ d_i·2^i = the scalar. Returns the digits and the
/// index past the highest non-zero one.
fn wnaf(scalar: &Scalar) -> ([i8; WNAF_DIGITS], usize) {
    let bytes = scalar.to_repr();
    let mut limbs = [0u64; 4];
    for (i, limb) in limbs.iter_mut().enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[32 - 8 * (i + 1)..32 - 8 * i]);
        *limb = u64::from_be_bytes(b);
    }
    // `count` bits (at most 64 − 1) from bit `bit`, bits past 255 reading as zero.
    let bits = |bit: usize, count: usize| -> u64 {
        let (limb, shift) = (bit / 64, bit % 64);
        let mut v = limbs[limb] >> shift;
        if shift + count > 64 && limb + 1 < 4 {
            v |= limbs[limb + 1] << (64 - shift);
        }
        v & ((1u64 << count) - 1)
    };
    let mut digits = [0i8; WNAF_DIGITS];
    let (mut bit, mut carry, mut top) = (0usize, 0u64, 0usize);
    let w = WNAF_WIDTH as usize;
    while bit < 256 {
        if bits(bit, 1) == carry {
            bit += 1;
            continue;
        }
        let now = w.min(256 - bit);
        let word = bits(bit, now) + carry;
        carry = (word >> (w - 1)) & 1;
        digits[bit] = (word as i64 - ((carry as i64) << w)) as i8;
        top = bit + 1;
        bit += now;
    }
    if carry == 1 {
        digits[256] = 1;
        top = 257;
    }
    (digits, top)
}

/// u·P without a table for P: width-5 wNAF, most significant digit first, over the odd
/// multiples P, 3P, …, 15P kept in Jacobian coordinates with their Z² and Z³ ([`Cached`]).
/// Making them affine would take an inversion (some 266 products' worth) to save 3 products an
/// addition, about 43 times: a loss. The identity is not doubled before the first digit.
fn mul_wnaf(point: &Affine, u: &Scalar) -> Jacobian {
    let p = Jacobian::from_affine(point);
    let twice = Cached::new(&p.double());
    let mut odd = [Cached::new(&p); 8];
    for j in 1..8 {
        let next = Jacobian {
            x: odd[j - 1].x,
            y: odd[j - 1].y,
            z: odd[j - 1].z,
        }
        .add_cached(&twice, false);
        odd[j] = Cached::new(&next);
    }
    let (digits, top) = wnaf(u);
    let mut acc = Jacobian::IDENTITY;
    for &digit in digits[..top].iter().rev() {
        if !acc.is_identity() {
            acc = acc.double();
        }
        if digit != 0 {
            let entry = &odd[usize::from(digit.unsigned_abs() >> 1)];
            acc = if digit.unsigned_abs() == 1 {
                // P itself is affine: the cheaper mixed addition.
                let y = if digit > 0 { entry.y } else { -entry.y };
                acc.add_affine(&entry.x, &y)
            } else {
                acc.add_cached(entry, digit < 0)
            };
        }
    }
    acc
}

/// Verifies a raw r‖s signature of a SHA-256 digest (reduced mod n as FIPS 186-5 says).
fn verify_digest(q: Base<'_>, digest: &[u8; 32], signature: &[u8]) -> Result<(), Refusal> {
    if signature.len() != 64 {
        return Err(Refusal::Length);
    }
    let r = nonzero_scalar(&signature[..32]).ok_or(Refusal::Range)?;
    let s = nonzero_scalar(&signature[32..]).ok_or(Refusal::Range)?;
    let z = <Scalar as Reduce<FieldBytes>>::reduce(&FieldBytes::from(*digest));
    let s_inv = scalar_inverse(&s).ok_or(Refusal::Range)?;
    let u1 = z * s_inv;
    let u2 = r * s_inv;
    let mut acc = match q {
        Base::Table(table) => {
            let mut acc = Jacobian::IDENTITY;
            let (d2, n2) = signed_digits(&u2, table.window);
            table.accumulate(&mut acc, &d2[..n2]);
            acc
        }
        Base::Point(point) => mul_wnaf(point, &u2),
    };
    let g = generator_table();
    let (d1, n1) = signed_digits(&u1, g.window);
    g.accumulate(&mut acc, &d1[..n1]);
    if acc.is_identity() {
        return Err(Refusal::Mismatch);
    }
    // x(R) = X/Z² in [0, p); x(R) mod n = r iff x(R) = r or x(R) = r + n (possible when r + n < p).
    let r_bytes: [u8; 32] = signature[..32].try_into().expect("32 bytes");
    let r_fe = Option::<Fe>::from(Fe::from_repr(FieldBytes::from(r_bytes))).expect("r < n < p");
    let zz = acc.z.square();
    if r_fe * zz == acc.x {
        return Ok(());
    }
    if r_bytes < P_MINUS_N_BE {
        let n_fe = Option::<Fe>::from(Fe::from_repr(FieldBytes::from(ORDER_BE))).expect("n < p");
        if (r_fe + n_fe) * zz == acc.x {
            return Ok(());
        }
    }
    Err(Refusal::Mismatch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::hazmat::PrehashVerifier;
    use p256::ecdsa::signature::{Signer, Verifier};
    use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
    use p256::elliptic_curve::group::Group;
    use p256::ProjectivePoint;

    use crate::test_rng::SplitMix64 as Rng;

    /// Random scalars for the differential tests.
    trait ScalarRng {
        fn scalar(&mut self) -> Scalar;
    }
    impl ScalarRng for Rng {
        fn scalar(&mut self) -> Scalar {
            <Scalar as Reduce<FieldBytes>>::reduce(&FieldBytes::from(self.bytes32()))
        }
    }

    /// How many random cases the differential test runs (`EKL_ES256_DIFF_CASES`, default 20,000).
    fn cases() -> u64 {
        cases_count(20_000)
    }

    fn affine_of(p: &Jacobian) -> Option<Affine> {
        if p.is_identity() {
            None
        } else {
            Some(batch_normalize(&[*p])[0])
        }
    }

    fn p256_affine(p: &ProjectivePoint) -> Option<Affine> {
        if bool::from(p.is_identity()) {
            None
        } else {
            Some(from_p256(&p.to_affine()))
        }
    }

    #[test]
    fn scalar_inverses_equal_p256s() {
        let mut rng = Rng(0x1a2b_3c4d);
        let n_minus = |k: u64| -Scalar::from(k);
        let mut cases: Vec<Scalar> = (1..=40u64).map(Scalar::from).collect();
        cases.extend((1..=40u64).map(n_minus));
        cases.extend((0..256u32).map(|k| {
            let mut b = [0u8; 32];
            b[31 - (k / 8) as usize] = 1 << (k % 8);
            <Scalar as Reduce<FieldBytes>>::reduce(&FieldBytes::from(b))
        }));
        cases.extend((0..cases_count(2_000)).map(|_| rng.scalar()));
        for s in cases {
            if bool::from(s.is_zero()) {
                continue;
            }
            let ours = invert_scalar(&s).expect("non-zero");
            assert_eq!(
                ours,
                Option::<Scalar>::from(s.invert_vartime()).expect("inverse")
            );
            assert_eq!(ours * s, Scalar::ONE);
        }
        assert!(invert_scalar(&Scalar::ZERO).is_none());
    }

    /// `default` random cases, or the count `EKL_ES256_DIFF_CASES` names.
    fn cases_count(default: u64) -> u64 {
        std::env::var("EKL_ES256_DIFF_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    /// What p256's verifier says: `Range` when the signature does not parse (r or s out of range).
    fn reference(vk: &VerifyingKey, digest: &[u8; 32], sig: &[u8; 64]) -> Result<(), Refusal> {
        let sig = Signature::from_slice(sig).map_err(|_| Refusal::Range)?;
        vk.verify_prehash(digest, &sig)
            .map_err(|_| Refusal::Mismatch)
    }

    struct Key {
        vk: VerifyingKey,
        table: FixedBaseTable,
    }

    impl Key {
        fn new(point: &AffinePoint) -> Key {
            Key {
                vk: VerifyingKey::from_affine(*point).expect("not the identity"),
                table: FixedBaseTable::with_window(&from_p256(point), KEY_WINDOW),
            }
        }
        /// Ours and p256's verdicts agree; returns the verdict.
        fn check(&self, digest: &[u8; 32], sig: &[u8; 64]) -> Result<(), Refusal> {
            let ours = verify_digest(Base::Table(&self.table), digest, sig);
            let cold = verify_digest(Base::Point(&from_p256(self.vk.as_affine())), digest, sig);
            let theirs = reference(&self.vk, digest, sig);
            assert_eq!(cold, ours, "the first verification of a key differs");
            assert_eq!(
                ours, theirs,
                "digest {digest:02x?} signature {sig:02x?} key {:?}",
                self.vk
            );
            ours
        }
    }

    fn sig_bytes(r: &[u8; 32], s: &[u8; 32]) -> [u8; 64] {
        let mut out = [0u8; 64];
        out[..32].copy_from_slice(r);
        out[32..].copy_from_slice(s);
        out
    }

    fn be(s: &Scalar) -> [u8; 32] {
        s.to_repr().into()
    }

    #[test]
    fn constants() {
        let fe = |b: [u8; 32]| Option::<Fe>::from(Fe::from_repr(FieldBytes::from(b))).unwrap();
        // n + (p − n) = p ≡ 0, and n is the order: n − 1 ≡ −1 as a scalar.
        assert!(bool::from((fe(ORDER_BE) + fe(P_MINUS_N_BE)).is_zero()));
        let mut n_minus_one = ORDER_BE;
        n_minus_one[31] -= 1;
        assert_eq!(
            Option::<Scalar>::from(Scalar::from_repr(n_minus_one.into())),
            Some(-Scalar::ONE)
        );
    }

    #[test]
    fn digits_reconstruct() {
        let mut rng = Rng(1);
        let mut samples = vec![Scalar::ZERO, Scalar::ONE, -Scalar::ONE, -Scalar::from(2u64)];
        samples.extend((0..200).map(|_| rng.scalar()));
        for window in 4..=8 {
            let half = 1i16 << (window - 1);
            for s in &samples {
                let (d, count) = signed_digits(s, window);
                assert_eq!(count, windows(window));
                let base = Scalar::from(1u64 << window);
                let mut acc = Scalar::ZERO;
                for &digit in d[..count].iter().rev() {
                    acc *= base;
                    let mag = Scalar::from(u64::from(digit.unsigned_abs()));
                    acc += if digit < 0 { -mag } else { mag };
                }
                assert_eq!(acc, *s, "window {window}");
                assert!(d[..count].iter().all(|&x| (-half..=half - 1).contains(&x)));
                assert!(d[count - 1] >= 0);
            }
        }
    }

    #[test]
    fn wnaf_reconstructs() {
        let mut rng = Rng(11);
        let mut samples = vec![
            Scalar::ONE,
            -Scalar::ONE,
            -Scalar::from(2u64),
            Scalar::from(31u64),
        ];
        samples.push(Scalar::from(u64::MAX));
        samples.extend((0..256u32).map(|k| {
            let mut b = [0u8; 32];
            b[31 - (k / 8) as usize] = 1 << (k % 8);
            <Scalar as Reduce<FieldBytes>>::reduce(&FieldBytes::from(b))
        }));
        samples.extend((0..2000).map(|_| rng.scalar()));
        let mut carries = 0;
        for s in &samples {
            let (d, top) = wnaf(s);
            assert!(top > 0 && d[top - 1] != 0 && d[top..].iter().all(|&x| x == 0));
            carries += usize::from(top == WNAF_DIGITS);
            let mut acc = Scalar::ZERO;
            let mut last: Option<usize> = None;
            for (i, &digit) in d[..top].iter().enumerate().rev() {
                acc = acc.double();
                let mag = Scalar::from(u64::from(digit.unsigned_abs()));
                acc += if digit < 0 { -mag } else { mag };
                if digit != 0 {
                    assert!(digit % 2 != 0 && (-15..=15).contains(&digit), "{digit}");
                    if let Some(l) = last {
                        assert!(l - i >= WNAF_WIDTH as usize, "digits too close");
                    }
                    last = Some(i);
                }
            }
            assert_eq!(acc, *s);
        }
        // −1 = n − 1 has its top bits set: its NAF carries past bit 255.
        assert!(carries > 0);
    }

    #[test]
    fn cached_addition_agrees_with_p256() {
        let mut rng = Rng(12);
        let g = ProjectivePoint::GENERATOR;
        let lambda = |rng: &mut Rng, p: &Jacobian| {
            let l = Option::<Fe>::from(Fe::from_repr(FieldBytes::from(be(&rng.scalar())))).unwrap();
            Jacobian {
                x: p.x * l.square(),
                y: p.y * l.square() * l,
                z: p.z * l,
            }
        };
        for _ in 0..300 {
            let a = g * rng.scalar();
            let b = g * rng.scalar();
            let ja = lambda(&mut rng, &Jacobian::from_affine(&p256_affine(&a).unwrap()));
            let jb = lambda(&mut rng, &Jacobian::from_affine(&p256_affine(&b).unwrap()));
            let cb = Cached::new(&jb);
            let ca = Cached::new(&ja);
            assert_eq!(affine_of(&ja.add_cached(&cb, false)), p256_affine(&(a + b)));
            assert_eq!(affine_of(&ja.add_cached(&cb, true)), p256_affine(&(a - b)));
            // P + P, P − P, O + P, O − P.
            assert_eq!(
                affine_of(&ja.add_cached(&ca, false)),
                p256_affine(&a.double())
            );
            assert!(ja.add_cached(&ca, true).is_identity());
            assert_eq!(
                affine_of(&Jacobian::IDENTITY.add_cached(&cb, false)),
                p256_affine(&b)
            );
            assert_eq!(
                affine_of(&Jacobian::IDENTITY.add_cached(&cb, true)),
                p256_affine(&-b)
            );
            // The table-less multiplication against p256's.
            let u = rng.scalar();
            let pa = p256_affine(&a).unwrap();
            assert_eq!(affine_of(&mul_wnaf(&pa, &u)), p256_affine(&(a * u)));
        }
    }

    #[test]
    fn point_arithmetic_agrees_with_p256() {
        let mut rng = Rng(2);
        let g = ProjectivePoint::GENERATOR;
        for _ in 0..500 {
            let a = g * rng.scalar();
            let b = g * rng.scalar();
            let ja = Jacobian::from_affine(&p256_affine(&a).unwrap());
            // Re-randomise Z so the formulas see Z ≠ 1: ja·λ ~ (λ²X, λ³Y, λZ).
            let lambda =
                Option::<Fe>::from(Fe::from_repr(FieldBytes::from(be(&rng.scalar())))).unwrap();
            let ja = Jacobian {
                x: ja.x * lambda.square(),
                y: ja.y * lambda.square() * lambda,
                z: ja.z * lambda,
            };
            let bb = p256_affine(&b).unwrap();
            assert_eq!(
                affine_of(&ja.add_affine(&bb.x, &bb.y)),
                p256_affine(&(a + b))
            );
            assert_eq!(affine_of(&ja.double()), p256_affine(&a.double()));
            let aa = p256_affine(&a).unwrap();
            // P + P, P + (−P), O + P, 2·O.
            assert_eq!(
                affine_of(&ja.add_affine(&aa.x, &aa.y)),
                p256_affine(&a.double())
            );
            assert!(ja.add_affine(&aa.x, &-aa.y).is_identity());
            assert_eq!(
                affine_of(&Jacobian::IDENTITY.add_affine(&bb.x, &bb.y)),
                Some(bb)
            );
            assert!(Jacobian::IDENTITY.double().is_identity());
        }
    }

    #[test]
    fn tables_hold_the_multiples() {
        let mut rng = Rng(3);
        for window in [4u32, 5, 6, 7, 8] {
            let point = (ProjectivePoint::GENERATOR * rng.scalar()).to_affine();
            let table = FixedBaseTable::with_window(&from_p256(&point), window);
            let entries = 1usize << (window - 1);
            assert_eq!(table.points.len(), windows(window) * entries);
            for (index, entry) in table.points.iter().enumerate() {
                if index % 37 != 0 && index % entries != entries - 1 && index >= entries {
                    continue;
                }
                let (i, j) = (index / entries, index % entries + 1);
                let mut k = Scalar::from(j as u64);
                for _ in 0..i * window as usize {
                    k = k.double();
                }
                assert_eq!(
                    Some(*entry),
                    p256_affine(&(ProjectivePoint::from(point) * k))
                );
            }
        }
    }

    #[test]
    fn agrees_with_p256_verifier() {
        for i in 1u8..40 {
            let sk = SigningKey::from_slice(&[i; 32]).expect("valid scalar");
            let vk = VerifyingKey::from(&sk);
            let key = PreparedKey::new(vk.as_affine());
            let msg = [i; 17];
            let sig: Signature = sk.sign(&msg);
            let bytes = sig.to_bytes();
            assert!(vk.verify(&msg, &sig).is_ok());
            assert_eq!(key.verify(&msg, &bytes), Ok(()));
            // high-S twin verifies in both
            let (r, s) = sig.split_scalars();
            let twin = Signature::from_scalars(r.to_repr(), (-*s).to_repr()).expect("twin");
            assert!(vk.verify(&msg, &twin).is_ok());
            assert_eq!(key.verify(&msg, &twin.to_bytes()), Ok(()));
            // a flipped message fails in both
            let mut other = msg;
            other[0] ^= 1;
            assert!(vk.verify(&other, &sig).is_err());
            assert_eq!(key.verify(&other, &bytes), Err(Refusal::Mismatch));
        }
    }

    #[test]
    fn key_tables_stay_within_their_budget() {
        // More keys than the budget, each verified three times (the second builds its table
        // when the budget allows): every verification still answers right, the count of tables
        // never passes the budget (other tests of this binary build tables too), and dropping
        // the keys gives their places back.
        let keys: Vec<(SigningKey, PreparedKey)> = (0..MAX_KEY_TABLES + 8)
            .map(|i| {
                let mut seed = [7u8; 32];
                seed[..8].copy_from_slice(&(i as u64 + 1).to_be_bytes());
                let sk = SigningKey::from_slice(&seed).expect("valid scalar");
                let key = PreparedKey::new(VerifyingKey::from(&sk).as_affine());
                (sk, key)
            })
            .collect();
        let mut with_table = 0;
        for (i, (sk, key)) in keys.iter().enumerate() {
            let msg = (i as u32).to_be_bytes();
            let sig: Signature = sk.sign(&msg);
            for _ in 0..3 {
                assert_eq!(key.verify(&msg, &sig.to_bytes()), Ok(()));
                assert_eq!(
                    key.verify(b"other", &sig.to_bytes()),
                    Err(Refusal::Mismatch)
                );
                assert!(live_key_tables() <= MAX_KEY_TABLES);
            }
            with_table += usize::from(key.table.get().is_some());
        }
        assert!(with_table <= MAX_KEY_TABLES);
        assert!(keys.iter().any(|(_, k)| k.table.get().is_none()));
        let (sk, last) = keys.last().expect("keys");
        assert!(!last.precompute() || with_table < MAX_KEY_TABLES);
        let sk = sk.clone();
        drop(keys);
        // Places are free again: a fresh key gets its table.
        let key = PreparedKey::new(VerifyingKey::from(&sk).as_affine());
        assert!(key.precompute());
        assert!(live_key_tables() <= MAX_KEY_TABLES);
    }

    /// 32-byte values at the edges of the ranges that matter: 0, 1, 2, n − 1, n, n + 1, p − n and
    /// its neighbours, (n ± 1)/2, 2^128, 2^255, p − 1, p, 2^256 − 1.
    fn edge_values() -> Vec<[u8; 32]> {
        let n = U256Be(ORDER_BE);
        let p_minus_n = U256Be(P_MINUS_N_BE);
        let p = n.add(&p_minus_n);
        let one = U256Be::small(1);
        let mut out = vec![
            U256Be::small(0),
            one,
            U256Be::small(2),
            n.sub(&one),
            n,
            n.add(&one),
            p_minus_n.sub(&one),
            p_minus_n,
            p_minus_n.add(&one),
            n.shr1(),
            n.shr1().add(&one),
            p.sub(&one),
            p,
            U256Be([0xff; 32]),
        ];
        let mut b128 = [0u8; 32];
        b128[15] = 1;
        out.push(U256Be(b128));
        let mut b255 = [0u8; 32];
        b255[0] = 0x80;
        out.push(U256Be(b255));
        out.into_iter().map(|v| v.0).collect()
    }

    /// Big-endian 256-bit arithmetic for building edge values (wrapping).
    #[derive(Clone, Copy)]
    struct U256Be([u8; 32]);
    impl U256Be {
        fn small(v: u8) -> U256Be {
            let mut b = [0u8; 32];
            b[31] = v;
            U256Be(b)
        }
        fn add(&self, o: &U256Be) -> U256Be {
            let mut out = [0u8; 32];
            let mut carry = 0u16;
            for i in (0..32).rev() {
                let v = u16::from(self.0[i]) + u16::from(o.0[i]) + carry;
                out[i] = v as u8;
                carry = v >> 8;
            }
            U256Be(out)
        }
        fn sub(&self, o: &U256Be) -> U256Be {
            let mut out = [0u8; 32];
            let mut borrow = 0i16;
            for i in (0..32).rev() {
                let mut v = i16::from(self.0[i]) - i16::from(o.0[i]) - borrow;
                borrow = 0;
                if v < 0 {
                    v += 256;
                    borrow = 1;
                }
                out[i] = v as u8;
            }
            U256Be(out)
        }
        fn shr1(&self) -> U256Be {
            let mut out = [0u8; 32];
            let mut carry = 0u8;
            for (o, &b) in out.iter_mut().zip(&self.0) {
                *o = (b >> 1) | carry;
                carry = b << 7;
            }
            U256Be(out)
        }
    }

    /// Every combination of edge values for r, s and the digest, against G, −G, 2G and a random key.
    #[test]
    fn differential_edge_values() {
        let g = ProjectivePoint::GENERATOR;
        let keys = [
            g,
            -g,
            g.double(),
            g * Scalar::from(0x1234_5678_9abc_def0u64),
        ]
        .map(|p| Key::new(&p.to_affine()));
        let edges = edge_values();
        let mut verdicts = [0u32; 3];
        for key in &keys {
            for r in &edges {
                for s in &edges {
                    for z in &edges {
                        match key.check(z, &sig_bytes(r, s)) {
                            Ok(()) => verdicts[0] += 1,
                            Err(Refusal::Range) => verdicts[1] += 1,
                            Err(_) => verdicts[2] += 1,
                        }
                    }
                }
            }
        }
        assert!(verdicts[1] > 0 && verdicts[2] > 0, "{verdicts:?}");
    }

    /// Signatures built to reach the rare paths: the accumulator meeting a table entry (doubling),
    /// cancelling to the identity midway and at the end, x(R) ≥ n (the r + n comparison), u1 = 0.
    #[test]
    fn differential_constructed_paths() {
        let mut rng = Rng(4);
        let g = ProjectivePoint::GENERATOR;
        let key_g = Key::new(&g.to_affine());
        let key_minus_g = Key::new(&(-g).to_affine());
        for round in 0..200u64 {
            // Q = G, u1 = u2 = t with t a single key-window digit: acc = t·G meets the entry t·G.
            let digit = 1 + rng.next_u64() % (1 << (KEY_WINDOW - 1));
            let window = rng.next_u64() % windows(KEY_WINDOW) as u64;
            let mut t = Scalar::from(digit);
            for _ in 0..window * u64::from(KEY_WINDOW) {
                t = t.double();
            }
            if round % 2 == 1 {
                t = rng.scalar(); // any t: acc = t·G, then t·G again from the key's table
            }
            let big_r = (g * (t + t)).to_affine();
            let r = <Scalar as Reduce<FieldBytes>>::reduce(&big_r.x());
            let s = r * Option::<Scalar>::from(t.invert()).unwrap();
            let sig = sig_bytes(&be(&r), &be(&s));
            // z = r, so u1 = r/s = t = u2.
            assert_eq!(key_g.check(&be(&r), &sig), Ok(()));
            // Q = −G: t·G − t·G = O.
            assert_eq!(key_minus_g.check(&be(&r), &sig), Err(Refusal::Mismatch));
            // R = O for a random key: z = −r·d.
            let d = rng.scalar();
            let key = Key::new(&(g * d).to_affine());
            let r = rng.scalar();
            let s = rng.scalar();
            let z = -(r * d);
            assert_eq!(
                key.check(&be(&z), &sig_bytes(&be(&r), &be(&s))),
                Err(Refusal::Mismatch)
            );
            // u1 = 0 (z = 0 or z = n): R = u2·Q only.
            let k = rng.scalar();
            let r = <Scalar as Reduce<FieldBytes>>::reduce(&(g * k).to_affine().x());
            // R = (r/s)·d·G = k·G  ⇒  s = r·d/k.
            let s = r * d * Option::<Scalar>::from(k.invert()).unwrap();
            let sig = sig_bytes(&be(&r), &be(&s));
            assert_eq!(key.check(&[0u8; 32], &sig), Ok(()));
            assert_eq!(key.check(&ORDER_BE, &sig), Ok(()));
        }
        // x(R) in [n, p): R chosen first, then the key that makes (r, s) a signature of z.
        let n_fe = Option::<Fe>::from(Fe::from_repr(FieldBytes::from(ORDER_BE))).unwrap();
        let b = Option::<Fe>::from(Fe::from_repr(FieldBytes::from([
            0x5a, 0xc6, 0x35, 0xd8, 0xaa, 0x3a, 0x93, 0xe7, 0xb3, 0xeb, 0xbd, 0x55, 0x76, 0x98,
            0x86, 0xbc, 0x65, 0x1d, 0x06, 0xb0, 0xcc, 0x53, 0xb0, 0xf6, 0x3b, 0xce, 0x3c, 0x3e,
            0x27, 0xd2, 0x60, 0x4b,
        ])))
        .unwrap();
        let mut found = 0;
        let mut t = 0u64;
        while found < 80 {
            t += 1 + rng.next_u64() % 1000;
            // x just above n (r small) or just below p (r just below p − n).
            let x = if found % 2 == 0 {
                n_fe + Fe::from(t)
            } else {
                -Fe::from(t)
            };
            let y2 = x.square() * x - x.double() - x + b;
            let Some(y) = Option::<Fe>::from(y2.sqrt()) else {
                continue;
            };
            let big_r = Option::<AffinePoint>::from(AffinePoint::from_coordinates(
                &x.to_repr(),
                &y.to_repr(),
            ))
            .expect("on the curve");
            found += 1;
            let r_bytes: [u8; 32] = (x - n_fe).to_repr().into();
            let r = Option::<Scalar>::from(Scalar::from_repr(r_bytes.into())).unwrap();
            let s = rng.scalar();
            let z = rng.scalar();
            let s_inv = Option::<Scalar>::from(s.invert()).unwrap();
            let (u1, u2) = (z * s_inv, r * s_inv);
            let q = (ProjectivePoint::from(big_r) - g * u1)
                * Option::<Scalar>::from(u2.invert()).unwrap();
            let key = Key::new(&q.to_affine());
            assert_eq!(key.check(&be(&z), &sig_bytes(&r_bytes, &be(&s))), Ok(()));
            // The high-S twin (−R, the same x), a neighbouring r (fails), x itself as r (not below n).
            assert_eq!(key.check(&be(&z), &sig_bytes(&r_bytes, &be(&-s))), Ok(()));
            let r1 = be(&(r + Scalar::ONE));
            assert_eq!(
                key.check(&be(&z), &sig_bytes(&r1, &be(&s))),
                Err(Refusal::Mismatch)
            );
            let x_bytes: [u8; 32] = x.to_repr().into();
            assert_eq!(
                key.check(&be(&z), &sig_bytes(&x_bytes, &be(&s))),
                Err(Refusal::Range)
            );
        }
    }

    /// Random keys, digests and signatures: valid ones (p256's RFC 6979 signer), their high-S
    /// twins, one-bit mutations of r, s and the digest, and random r‖s. `EKL_ES256_DIFF_CASES`
    /// sets the count (default 20,000).
    #[test]
    fn differential_random() {
        let total = cases();
        let threads = if total > 100_000 { 2 } else { 1 };
        let counts: Vec<[u64; 3]> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|thread| {
                    scope.spawn(move || {
                        let mut rng = Rng(0x5eed_0000 + thread);
                        let mut verdicts = [0u64; 3];
                        let mut key: Option<(SigningKey, Key)> = None;
                        for case in 0..total / threads {
                            if case % 64 == 0 || key.is_none() {
                                let sk = loop {
                                    if let Ok(sk) = SigningKey::from_slice(&rng.bytes32()) {
                                        break sk;
                                    }
                                };
                                let k = Key::new(VerifyingKey::from(&sk).as_affine());
                                key = Some((sk, k));
                            }
                            let (sk, k) = key.as_ref().unwrap();
                            let digest = rng.bytes32();
                            let sig: [u8; 64] = match case % 4 {
                                0 | 1 => {
                                    let sig: Signature =
                                        p256::ecdsa::signature::hazmat::PrehashSigner::sign_prehash(
                                            sk, &digest,
                                        )
                                        .expect("signs");
                                    let mut bytes: [u8; 64] = sig.to_bytes().into();
                                    if case % 8 == 1 {
                                        let (r, s) = sig.split_scalars();
                                        bytes = sig_bytes(&be(&r), &be(&-*s));
                                    } else if case % 8 == 5 {
                                        let bit = (rng.next_u64() % 512) as usize;
                                        bytes[bit / 8] ^= 1 << (bit % 8);
                                    }
                                    bytes
                                }
                                2 => {
                                    // Random bytes; half of the time r or s starts with 0xffffffff,
                                    // so it is at or above n about half of those times.
                                    let (mut r, mut s) = (rng.bytes32(), rng.bytes32());
                                    match case % 16 {
                                        2 => r[..4].fill(0xff),
                                        6 => s[..4].fill(0xff),
                                        10 => r = [0; 32],
                                        14 => s = [0; 32],
                                        _ => {}
                                    }
                                    sig_bytes(&r, &s)
                                }
                                _ => sig_bytes(&be(&rng.scalar()), &be(&rng.scalar())),
                            };
                            let mut digest = digest;
                            if case % 16 == 4 {
                                let bit = (rng.next_u64() % 256) as usize;
                                digest[bit / 8] ^= 1 << (bit % 8);
                            }
                            match k.check(&digest, &sig) {
                                Ok(()) => verdicts[0] += 1,
                                Err(Refusal::Range) => verdicts[1] += 1,
                                Err(_) => verdicts[2] += 1,
                            }
                        }
                        verdicts
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut verdicts = [0u64; 3];
        for c in counts {
            for i in 0..3 {
                verdicts[i] += c[i];
            }
        }
        eprintln!(
            "es256 differential: {} cases: {} accepted, {} range, {} mismatch",
            verdicts.iter().sum::<u64>(),
            verdicts[0],
            verdicts[1],
            verdicts[2]
        );
        assert!(verdicts[0] > 0 && verdicts[1] > 0 && verdicts[2] > 0);
    }
}

//! Random and edge elements of the P-256 base field for the differential tests of
//! [`crate::fe29`] and [`crate::fe64`] against `p256`'s field (tests only).

use crate::test_rng::SplitMix64 as Rng;

pub(crate) use crate::fe29::P_BE;

/// Random field elements for the differential tests.
pub(crate) trait ElementRng {
    /// A random element below p, big-endian.
    fn element(&mut self) -> [u8; 32];
}

impl ElementRng for Rng {
    /// A random element below p, biased toward the edges one time in two: 0, 1, 2, p − 1..p − 4,
    /// 2^k and 2^k − 1, and 64-bit limbs each 0, all ones or random.
    fn element(&mut self) -> [u8; 32] {
        loop {
            let mut b = self.bytes32();
            match self.next_u64() % 8 {
                0 => {
                    let k = (self.next_u64() % 256) as usize;
                    b = [0; 32];
                    b[31 - k / 8] = 1 << (k % 8);
                    if self.next_u64() & 1 == 0 {
                        b = be_sub_small(&b, 1);
                    }
                }
                1 => b = be_sub_small(&P_BE, 1 + self.next_u64() % 4),
                2 => b = small(self.next_u64() % 3),
                3 => {
                    for limb in b.chunks_mut(8) {
                        match self.next_u64() % 3 {
                            0 => limb.fill(0),
                            1 => limb.fill(0xff),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
            if b < P_BE {
                return b;
            }
        }
    }
}

/// The 32-byte big-endian encoding of `v`.
pub(crate) fn small(v: u64) -> [u8; 32] {
    let mut b = [0u8; 32];
    b[24..].copy_from_slice(&v.to_be_bytes());
    b
}

/// `b − v` for a big-endian `b` ≥ `v`.
pub(crate) fn be_sub_small(b: &[u8; 32], v: u64) -> [u8; 32] {
    let mut out = *b;
    let mut borrow = v as u16;
    for byte in out.iter_mut().rev() {
        let (d, under) = byte.overflowing_sub(borrow as u8);
        *byte = d;
        borrow = u16::from(under) + (borrow >> 8);
        if borrow == 0 {
            break;
        }
    }
    out
}

/// In a field's test module (which defines `Fe` and `Reference`, `p256`'s field element): the
/// helpers `ours`, `theirs` and `same`, and the test `agrees_with_p256_field` — every operation
/// against `p256`'s field on random and edge elements and on chains of unreduced sums and
/// differences, `EKL_ES256_DIFF_CASES` cases (default 20,000) from the given seed.
macro_rules! differential_field_tests {
    ($seed:expr) => {
        fn ours(b: &[u8; 32]) -> Fe {
            Option::<Fe>::from(Fe::from_repr(p256::FieldBytes::from(*b))).expect("below p")
        }

        fn theirs(b: &[u8; 32]) -> Reference {
            use p256::elliptic_curve::PrimeField;
            Option::<Reference>::from(Reference::from_repr(p256::FieldBytes::from(*b)))
                .expect("below p")
        }

        fn same(a: Fe, b: Reference, what: &str) {
            assert_eq!(a.to_repr(), b.to_repr(), "{what}");
        }

        /// Every operation agrees with p256's field on random and edge elements, including chains
        /// that leave values unreduced (sums of sums, differences of products).
        #[test]
        fn agrees_with_p256_field() {
            use $crate::field_tests::ElementRng;
            let cases = std::env::var("EKL_ES256_DIFF_CASES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(20_000u64);
            let mut rng = $crate::test_rng::SplitMix64($seed);
            for _ in 0..cases {
                let (ab, bb) = (rng.element(), rng.element());
                let (a, b) = (ours(&ab), ours(&bb));
                let (x, y) = (theirs(&ab), theirs(&bb));
                assert_eq!(a.to_repr(), p256::FieldBytes::from(ab), "round trip");
                same(a + b, x + y, "add");
                same(a - b, x - y, "sub");
                same(a * b, x * y, "mul");
                same(a.square(), x.square(), "square");
                same(a.double(), x.double(), "double");
                same(-a, -x, "neg");
                same(a.mul_small(3), x.double() + x, "times 3");
                same(a.mul_small(4), x.double().double(), "times 4");
                same(a.mul_small(8), x.double().double().double(), "times 8");
                let k = (rng.next_u64() >> 33) as u32;
                same(a.mul_small(k), x * Reference::from(u64::from(k)), "times k");
                let (s, t) = (a + b + a.double(), a - b - b);
                let (u, v) = (x + y + x.double(), x - y - y);
                same(s * t, u * v, "mul of sums");
                same(s.square() - t, u.square() - v, "square of sums");
                same((s * t) * (s - t), (u * v) * (u - v), "chain");
                assert_eq!(a == b, ab == bb, "eq");
                assert!(bool::from((a - a).is_zero()), "a - a");
                assert_eq!(bool::from(a.is_zero()), ab == [0; 32], "is_zero");
            }
        }
    };
}
pub(crate) use differential_field_tests;

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

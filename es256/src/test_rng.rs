//! SplitMix64 (re-exported as `ekl_core::test_rng`): the one small deterministic generator of the project's tests and generated corpora
//! (the differential tests of `es256` and `fe29`, the text/value agreement tests of `canonical`, the
//! integration tests, the conformance corpus of `ekl conformance`, the benchmark corpus).
//!
//! **Not a source of secrets**: it is a pure function of its seed, so every run checks the same
//! inputs. The library itself draws nothing at random (salts come from the host's CSPRNG).

/// A SplitMix64 state; `SplitMix64(seed)` starts the sequence of `seed`.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` of 0 is taken as 1); the modulo bias does not matter here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// 32 random bytes.
    pub fn bytes32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for chunk in out.chunks_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_be_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    /// The reference sequence of SplitMix64 from seed 0 (Vigna's splitmix64.c): a wrong constant
    /// (one of the six former copies had one) changes it.
    #[test]
    fn the_reference_sequence() {
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
    }
}

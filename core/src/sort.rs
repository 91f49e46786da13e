//! One small sort for the wasm builds: the standard library's sort is instantiated once per
//! comparator (about 63 KB of the verify build, docs/decisions/wasm.md#verify-build), a heapsort
//! a few hundred bytes. Natively the standard library's sort stays (it is faster on large
//! objects); on wasm32 the heapsort below: O(n log n) comparisons in the worst case, no
//! allocation, no recursion. The two give the same order whenever no two elements compare
//! equal, and every caller either refuses equal neighbours or sorts values that are distinct.

use core::cmp::Ordering;

/// Sorts `v` by `cmp`, not keeping the order of equal elements (see the module docs).
#[inline]
pub(crate) fn sort_unstable_by<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], cmp: F) {
    #[cfg(not(target_arch = "wasm32"))]
    v.sort_unstable_by(cmp);
    #[cfg(target_arch = "wasm32")]
    heapsort(v, cmp);
}

/// A heapsort of `v` by `cmp`: the wasm32 sort of [`sort_unstable_by`].
#[cfg_attr(not(any(target_arch = "wasm32", test)), allow(dead_code))]
pub(crate) fn heapsort<T, F: FnMut(&T, &T) -> Ordering>(v: &mut [T], mut cmp: F) {
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift_down(v, i, n, &mut cmp);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, &mut cmp);
    }
}

/// Moves `v[node]` down the max-heap `v[..end]` to its place.
#[cfg_attr(not(any(target_arch = "wasm32", test)), allow(dead_code))]
fn sift_down<T, F: FnMut(&T, &T) -> Ordering>(
    v: &mut [T],
    mut node: usize,
    end: usize,
    cmp: &mut F,
) {
    loop {
        let mut child = 2 * node + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && cmp(&v[child], &v[child + 1]) == Ordering::Less {
            child += 1;
        }
        if cmp(&v[node], &v[child]) != Ordering::Less {
            return;
        }
        v.swap(node, child);
        node = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;

    /// The heapsort gives the standard library's order for every length to 64 and random
    /// contents (with repeats), and for longer sorted, reversed and random slices.
    #[test]
    fn heapsort_orders_as_the_standard_sort() {
        let mut rng = SplitMix64(43);
        for n in (0..=64).chain([100, 1000, 4097]) {
            for round in 0..8 {
                let mut v: Vec<u32> = match round {
                    0 => (0..n as u32).collect(),
                    1 => (0..n as u32).rev().collect(),
                    _ => (0..n).map(|_| rng.below(n as u64 / 2 + 1) as u32).collect(),
                };
                let mut want = v.clone();
                want.sort_unstable();
                heapsort(&mut v, |a, b| a.cmp(b));
                assert_eq!(v, want, "n {n} round {round}");
                sort_unstable_by(&mut v, |a, b| b.cmp(a));
                want.reverse();
                assert_eq!(v, want, "n {n} round {round}, reversed");
            }
        }
    }
}

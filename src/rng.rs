//! Seeding in one place: the SplitMix64 finaliser behind every derived seed, the ChaCha8
//! keys of the deal and bot streams, and Lemire's unbiased bounded integers.
//!
//! Every function here is part of the seed → game mapping: changing one changes golden
//! records and published arena results, so they never change.

use rand_core::RngCore;

/// The SplitMix64 finaliser: a cheap, well-mixed 64-bit hash, used to derive the seeds of
/// arena games and vector envs from a master seed. Its output is part of those seeds, so
/// it must never change.
#[inline]
pub(crate) fn splitmix64_finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform integer in `0..n` (`n >= 1`) by Lemire's method with rejection.
#[inline]
pub fn uniform_below<R: RngCore>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

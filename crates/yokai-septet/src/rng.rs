//! Seeding in one place: the ChaCha8 keys of the deal and bot streams (one construction,
//! a domain tag per kind of stream), the seed derivations of arenas and vector envs (both
//! built on the SplitMix64 finaliser), Lemire's unbiased bounded integers, and the seed
//! drawn from the operating system where none is given (`os_seed`, with the `os-seed`
//! feature).
//!
//! Every function here is part of the seed → game mapping: changing one changes golden
//! records, published arena results and every seeded vector env, so none ever changes.
//! The arena and the vector env derive their seeds differently for that reason: each
//! scheme was published on its own, and both stay as they are.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A kind of ChaCha8 stream. Its 16-byte domain tag fills the second half of the key, so
/// two kinds of stream never share a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// The deal of round `b` of a game seeded with `a` (R10; documented in `deal.rs`).
    Deal,
    /// A bot's randomness, seeded with `a` (`b` = 0; 1: its pass search, `passing.rs`).
    Bots,
    /// The integration tests' random games and policies (the test kit's `rng`), seeded
    /// with `a` (`b` = 0). Its tag is sixteen zero bytes: the tests keyed their stream so
    /// before the tags existed (their goldens stay as they are), and no other tag is zero.
    Tests,
}

impl Stream {
    const fn tag(self) -> &'static [u8; 16] {
        match self {
            Stream::Deal => b"yokaiseptet/deal",
            Stream::Bots => b"yokaiseptet/bots",
            Stream::Tests => &[0; 16],
        }
    }
}

/// The ChaCha8 key of a `stream`: `a` little-endian ‖ `b` little-endian ‖ its tag.
pub fn chacha_key(stream: Stream, a: u64, b: u64) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&a.to_le_bytes());
    key[8..16].copy_from_slice(&b.to_le_bytes());
    key[16..].copy_from_slice(stream.tag());
    key
}

/// The ChaCha8 generator keyed with [`chacha_key`].
pub fn chacha(stream: Stream, a: u64, b: u64) -> ChaCha8Rng {
    ChaCha8Rng::from_seed(chacha_key(stream, a, b))
}

/// The golden-ratio increment of SplitMix64.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Arena seeds: stream `stream` (0: the deals; `1 + seat`: that seat's bot) of the game
/// or deal group `index` under the master seed `master`. Chained SplitMix64 steps.
pub fn arena_seed(master: u64, index: u64, stream: u64) -> u64 {
    let step = |z: u64| splitmix64_finalize(z.wrapping_add(GOLDEN));
    step(step(step(master) ^ index) ^ stream.wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// Vector-env seeds: stream `k` (0: the deal; `1 + seat`: that seat's bot; 99: the drawn
/// learner seat; `100 + 4 card + seat`: that seat's bot in the play-out after `card`,
/// `VecCore::playout_values`) of episode `episode` (the play-outs: deal) of env `env`
/// under the master seed `seed`. The
/// finaliser folded over the golden-ratio multiples of the indices.
#[inline]
pub fn vector_seed(seed: u64, env: u64, episode: u64, k: u64) -> u64 {
    let mut h = splitmix64_finalize(seed ^ GOLDEN);
    for x in [env, episode, k] {
        h = splitmix64_finalize(h ^ x.wrapping_mul(GOLDEN));
    }
    h
}

/// The seed of the bot at `seat` in a `yokai-septet play` game seeded with `game_seed`:
/// the game seed plus `seat + 1` golden-ratio increments (a saved game replays its bots'
/// decisions from it). The web app's games seed theirs alike, so a game saved from the
/// page resumes in `play --load`, and back.
pub fn play_bot_seed(game_seed: u64, seat: usize) -> u64 {
    game_seed.wrapping_add((seat as u64 + 1).wrapping_mul(GOLDEN))
}

/// The stream of the determinizations that Python asks for by seed
/// (`Game.sample_determinization(seat, seed)`) and that a Python policy seated in
/// `yokai-septet play` is shown: ChaCha8 keyed by `rand`'s `seed_from_u64(seed)` (a PCG32
/// expansion of the seed). These samples were published before the domain tags, so their
/// key stays as it was.
pub fn determinization_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The stream that drives the unit tests' random games and models, in this crate and the
/// crates above it (the determinization stream's key: the tests' positions stay as they
/// were).
pub fn test_rng(seed: u64) -> ChaCha8Rng {
    determinization_rng(seed)
}

/// The stream of the timing loops (`random_playouts`, the Python yardstick): PCG64-MCG
/// keyed by `rand`'s `seed_from_u64`, the cheapest good generator, where speed is what is
/// measured and no result is published.
pub fn playout_rng(seed: u64) -> rand_pcg::Pcg64Mcg {
    rand_pcg::Pcg64Mcg::seed_from_u64(seed)
}

/// The SplitMix64 finaliser: a cheap, well-mixed 64-bit hash, used to derive the seeds of
/// arena games and vector envs from a master seed. Its output is part of those seeds, so
/// it must never change.
#[inline]
pub fn splitmix64_finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed from the operating system's random source (`getrandom`): what "no seed" means
/// for every env of the Python package and for a game of the web table (Gymnasium's
/// convention: fresh entropy). Whoever draws one keeps it readable, so that such a run
/// can be played again from it.
#[cfg(feature = "os-seed")]
pub fn os_seed() -> Result<u64, rand_core::OsError> {
    use rand_core::TryRngCore;
    rand_core::OsRng.try_next_u64()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_never_change() {
        // Pinned from the published schemes: every seeded arena and vector env depends on
        // these values.
        assert_eq!(arena_seed(0, 0, 0), 0x2382_75bc_38fc_be91);
        assert_eq!(arena_seed(7, 3, 2), 0x9f0f_9c14_cf7d_10ef);
        assert_eq!(arena_seed(u64::MAX, 12345, 4), 0xc86e_92c2_ef61_274a);
        assert_eq!(vector_seed(0, 0, 0, 0), 0x1957_a760_4e21_5178);
        assert_eq!(vector_seed(7, 3, 2, 99), 0x6381_8e87_3bfa_65f0);
        assert_eq!(vector_seed(u64::MAX, 12345, 4, 1), 0xbec6_d468_4732_f7d5);
    }

    #[test]
    fn streams_of_different_kinds_never_share_a_key() {
        assert_eq!(
            &chacha_key(Stream::Deal, 1, 2)[..16],
            &chacha_key(Stream::Bots, 1, 2)[..16]
        );
        assert_ne!(
            chacha_key(Stream::Deal, 1, 0),
            chacha_key(Stream::Bots, 1, 0)
        );
        assert_ne!(
            chacha_key(Stream::Tests, 1, 0),
            chacha_key(Stream::Bots, 1, 0)
        );
    }

    #[test]
    fn the_tests_stream_keeps_its_key_from_before_the_tags() {
        // The seed's little-endian bytes and zeros: the integration tests' goldens were
        // drawn from this key.
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&0x0102_0304_0506_0708u64.to_le_bytes());
        assert_eq!(chacha_key(Stream::Tests, 0x0102_0304_0506_0708, 0), key);
    }
}

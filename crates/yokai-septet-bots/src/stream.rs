//! A bot's seeded random stream, and the words of its position that a snapshot saves.
//!
//! Every random choice of a bot comes from one ChaCha8 stream keyed by the bot's seed in
//! the bots' domain (`rng.rs`, [`Stream::Bots`]), apart from every deal stream. Its key
//! comes back from the seed a bot is rebuilt with, so the stream's position (two words) is
//! all a snapshot holds of it. Every bot holds its streams as [`BotStream`]s.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use super::{snapshot_words, BotError};
use yokai_septet::rng::{chacha, Stream};

/// The bot-randomness stream for `seed`.
fn bot_rng(seed: u64) -> ChaCha8Rng {
    chacha(Stream::Bots, seed, 0)
}

/// A bot's random stream: what `reseed`, `snapshot` and `restore` of a bot whose only
/// carried state is its stream do, once; a bot that carries more (`pimc-dd`: two streams
/// and its probe) saves each stream's [`BotStream::words`] beside the rest.
#[derive(Clone, Debug)]
pub(crate) struct BotStream(ChaCha8Rng);

impl BotStream {
    /// The stream of the bot seeded with `seed`.
    pub(crate) fn new(seed: u64) -> BotStream {
        BotStream(bot_rng(seed))
    }

    /// The stream of the pass search of the bot seeded with `seed` (`passing.rs`): the
    /// bots' domain, second index 1, apart from the bot's own stream.
    pub(crate) fn pass_search(seed: u64) -> BotStream {
        BotStream(chacha(Stream::Bots, seed, 1))
    }

    /// Restarts the stream from `seed` ([`Bot::reseed`](super::Bot::reseed)).
    pub(crate) fn reseed(&mut self, seed: u64) {
        *self = BotStream::new(seed);
    }

    /// The stream's position as two words (its key comes back from the bot's seed).
    pub(crate) fn words(&self) -> [u64; 2] {
        let pos = self.0.get_word_pos();
        [pos as u64, (pos >> 64) as u64]
    }

    /// Moves the stream to the position [`BotStream::words`] gave.
    pub(crate) fn set_words(&mut self, words: [u64; 2]) {
        self.0
            .set_word_pos(words[0] as u128 | (words[1] as u128) << 64);
    }

    /// The stream's position ([`Bot::snapshot`](super::Bot::snapshot)).
    pub(crate) fn snapshot(&self) -> Option<Vec<u64>> {
        Some(self.words().to_vec())
    }

    /// Continues from a [`BotStream::snapshot`] of the bot `name` (for the error).
    pub(crate) fn restore(&mut self, name: String, words: &[u64]) -> Result<(), BotError> {
        self.set_words(snapshot_words(name, words)?);
        Ok(())
    }
}

impl RngCore for BotStream {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    #[inline]
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.0.fill_bytes(dst)
    }
}

/// The [`Bot`](super::Bot) methods `reseed`, `snapshot` and `restore` of a bot whose only
/// carried state is its [`BotStream`] field `$stream`, written inside its `impl Bot`: so
/// that such bots save and restore their stream one way.
macro_rules! stream_only_state {
    ($stream:ident) => {
        fn reseed(&mut self, seed: u64) {
            self.$stream.reseed(seed);
        }

        fn snapshot(&self) -> Option<Vec<u64>> {
            self.$stream.snapshot()
        }

        fn restore(&mut self, words: &[u64]) -> Result<(), $crate::BotError> {
            self.$stream.restore(self.name(), words)
        }
    };
}
pub(crate) use stream_only_state;

#[cfg(test)]
mod tests {
    use super::*;

    /// A restored stream continues exactly where the snapshot was taken, a reseeded one
    /// starts over, and a snapshot of the wrong length is refused naming the bot.
    #[test]
    fn a_stream_restores_reseeds_and_refuses_a_bad_snapshot() {
        let mut a = BotStream::new(7);
        a.next_u64();
        let saved = a.snapshot().unwrap();
        let next: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let mut b = BotStream::new(7);
        b.restore("random".into(), &saved).unwrap();
        assert_eq!((0..5).map(|_| b.next_u64()).collect::<Vec<_>>(), next);
        b.reseed(7);
        assert_eq!(b.next_u64(), bot_rng(7).next_u64());
        let e = b.restore("random".into(), &[1]).unwrap_err();
        assert_eq!(
            e,
            BotError::Snapshot {
                name: "random".into(),
                why: "its snapshot has 2 words, given 1".into()
            }
        );
    }
}

//! Where a search bot's passing picks come from: the heuristic (every name without a pass
//! suffix), a PIMC search over full-round playouts (`/P`), or the shipped `nn` model of
//! the game's variant (`/nn`). One grammar and one pass search for every search family.
//!
//! The suffix ends the budget, before any model path: `pimc:200/1400`, `ismcts:5000/nn`,
//! `ismcts-nn:4600/nn:runs/4p.safetensors`; the name's parser reads it ([`PassPicks`],
//! `spec.rs`).
//!
//! Passing is not where the search bots search: their card search plays tricks, and a
//! pick shows its effect only over the whole round. So the picks are a policy of their
//! own wrapped around the bot ([`PassingBot`]), except `pimc:N/P`, whose own search
//! spends P playouts per pick (the same search; its records predate this module).

use super::nn::NnBot;
use super::pimc::{PimcBot, PimcConfig};
use super::spec::{BotSpec, PassPicks};
use super::{has_decision, Bot, BotError, BotStream, SearchValues};
use yokai_septet::Card;
use yokai_septet::Phase;
use yokai_septet::SeatView;

/// What picks the passes of a [`PassingBot`].
enum Picker {
    /// `pimc`'s pass search, on a stream of its own ([`BotStream::pass_search`]).
    Searched(PimcBot),
    Learned(NnBot),
}

/// A search bot whose passing picks come from a [`Picker`]; its card play is the bot's.
pub(crate) struct PassingBot {
    bot: Box<dyn Bot>,
    picker: Picker,
    picks: PassPicks,
}

impl PassingBot {
    /// `bot` with `picks` (the heuristic's: `bot` itself), its pass search seeded by `seed`.
    pub(crate) fn wrap(
        bot: Box<dyn Bot>,
        picks: PassPicks,
        seed: u64,
        learned: impl FnOnce() -> Result<NnBot, BotError>,
    ) -> Result<Box<dyn Bot>, BotError> {
        let picker = match picks {
            PassPicks::Heuristic => return Ok(bot),
            PassPicks::Searched(p) => Picker::Searched(pass_search(p, seed)),
            PassPicks::Learned => Picker::Learned(learned()?),
        };
        Ok(Box::new(PassingBot { bot, picker, picks }))
    }
}

/// The pass search with `p` playouts per pick, its stream from `seed`.
fn pass_search(p: u32, seed: u64) -> PimcBot {
    let config = PimcConfig {
        pass_playouts: Some(p),
        ..PimcConfig::default()
    };
    let mut search = PimcBot::new(config, seed);
    search.rng = BotStream::pass_search(seed);
    search
}

impl Bot for PassingBot {
    /// The bot's name with the picks' suffix after its budget.
    fn name(&self) -> String {
        match self.spec() {
            Some(spec) => spec.to_string(),
            // Never: the registry wraps its own search bots, which have specs.
            None => self.bot.name(),
        }
    }

    /// The bot's spec with the picks.
    fn spec(&self) -> Option<BotSpec> {
        let spec = self.bot.spec()?;
        Some(BotSpec {
            pass: self.picks,
            ..spec
        })
    }

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        if view.phase() != Phase::Pass {
            return self.bot.act(view);
        }
        has_decision(self, view)?;
        match &mut self.picker {
            Picker::Searched(search) => search.act(view),
            Picker::Learned(net) => net.act(view),
        }
    }

    fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        match (&mut self.picker, view.phase()) {
            (Picker::Searched(search), Phase::Pass) => Bot::search_values(search, view),
            (Picker::Learned(_), Phase::Pass) => None,
            _ => self.bot.search_values(view),
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.bot.reseed(seed);
        if let Picker::Searched(search) = &mut self.picker {
            search.rng = BotStream::pass_search(seed);
        }
    }

    /// The bot's words, then the pass search's stream position (two words) if it searches.
    fn snapshot(&self) -> Option<Vec<u64>> {
        let mut words = self.bot.snapshot()?;
        if let Picker::Searched(search) = &self.picker {
            words.extend(search.rng.words());
        }
        Some(words)
    }

    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        let name = self.name();
        match &mut self.picker {
            Picker::Searched(search) => {
                let split = words
                    .len()
                    .checked_sub(2)
                    .ok_or_else(|| BotError::Snapshot {
                        name,
                        why: format!(
                            "its snapshot ends in 2 words of its pass search, given {}",
                            words.len()
                        ),
                    })?;
                search.rng.set_words([words[split], words[split + 1]]);
                self.bot.restore(&words[..split])
            }
            Picker::Learned(_) => self.bot.restore(words),
        }
    }
}

//! Where a search bot's passing picks come from: the heuristic (every name without a pass
//! suffix), a PIMC search over full-round playouts (`/P`), or the shipped `nn` model of
//! the game's variant (`/nn`). One grammar and one pass search for every search family.
//!
//! The suffix ends the budget, before any model path: `pimc:200/1400`, `ismcts:5000/nn`,
//! `ismcts-nn:4600/nn:runs/4p.safetensors`. A budget is digits (perhaps then `ms`), so
//! the first `:`-separated part of an `ismcts-nn` argument is a budget with a pass suffix
//! exactly when it reads `DIGITS[ms]/…`; anything else there is a model path, `/`s and
//! all (write a path that starts with digits and `/` as `./12/…`).
//!
//! Passing is not where the search bots search: their card search plays tricks, and a
//! pick shows its effect only over the whole round. So the picks are a policy of their
//! own wrapped around the bot ([`PassingBot`]), except `pimc:N/P`, whose own search
//! spends P playouts per pick (the same search; its records predate this module).

use super::nn::NnBot;
use super::pimc::{PimcBot, PimcConfig};
use super::{has_decision, Bot, BotError, BotStream, SearchValues};
use crate::cards::Card;
use crate::infoset::view::SeatView;
use crate::rules::Phase;

/// The source of a search bot's passing picks, as its name's pass suffix gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassPicks {
    /// The heuristic's picks (no suffix: every default name).
    Heuristic,
    /// `/P`: PIMC over full-round heuristic playouts, P per pick spread over the hand.
    Searched(u32),
    /// `/nn`: the argmax of the variant's shipped `nn` model among the legal picks.
    Learned,
}

impl PassPicks {
    /// Reads a pass suffix (the text after the `/`): `nn`, or a positive count.
    fn parse(text: &str) -> Option<PassPicks> {
        if text == "nn" {
            return Some(PassPicks::Learned);
        }
        let p: u32 = text.parse().ok().filter(|&p| p > 0)?;
        Some(PassPicks::Searched(p))
    }

    /// The suffix that names these picks after a budget (empty for the heuristic's).
    pub fn suffix(self) -> String {
        match self {
            PassPicks::Heuristic => String::new(),
            PassPicks::Searched(p) => format!("/{p}"),
            PassPicks::Learned => "/nn".into(),
        }
    }
}

/// Splits the pass suffix off a search family's argument (`200/1400` → `200`, searched;
/// `4600/nn:PATH` → `4600:PATH`, learned): the argument without it and the picks, or
/// `None` for a suffix that is neither `nn` nor a positive count. An argument whose first
/// `:`-part is not `DIGITS[ms]/…` has no suffix and is returned whole.
pub(crate) fn split_pass(arg: &str) -> Option<(String, PassPicks)> {
    let (first, path) = match arg.split_once(':') {
        Some((first, path)) => (first, Some(path)),
        None => (arg, None),
    };
    let Some((budget, pass)) = first.split_once('/') else {
        return Some((arg.to_string(), PassPicks::Heuristic));
    };
    let digits = budget.strip_suffix("ms").unwrap_or(budget);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some((arg.to_string(), PassPicks::Heuristic));
    }
    let picks = PassPicks::parse(pass)?;
    let rest = match path {
        Some(path) => format!("{budget}:{path}"),
        None => budget.to_string(),
    };
    Some((rest, picks))
}

/// `name` (`HEAD:BUDGET` or `HEAD:BUDGET:PATH`) with `picks`' suffix after its budget.
fn with_suffix(name: &str, picks: PassPicks) -> String {
    let suffix = picks.suffix();
    match name.split_once(':') {
        Some((head, rest)) => match rest.split_once(':') {
            Some((budget, path)) => format!("{head}:{budget}{suffix}:{path}"),
            None => format!("{head}:{rest}{suffix}"),
        },
        None => format!("{name}{suffix}"),
    }
}

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
    fn name(&self) -> String {
        with_suffix(&self.bot.name(), self.picks)
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

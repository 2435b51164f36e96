//! The hint: what a bot would do for a seat, with the search's value of each card. One
//! computation for the terminal's `hint` (`cli`) and the web page's hint (`web`).
//!
//! In the play phase a tree search (`ismcts` by default) is asked twice with one fixed
//! seed: one copy chooses, the other reports its values, so the same position always gets
//! the same hint. While passing the heuristic's pick is given (`ismcts` passes as the
//! heuristic does). A bot that is not a tree search gives its card only.

use crate::bots::{Bot, BotError, BotRegistry, HeuristicBot};
use crate::cards::Card;
use crate::infoset::view::SeatView;
use crate::rules::state::Phase;

/// The bot a hint asks when it is given none.
pub const HINT_BOT: &str = "ismcts";

/// Seed of the hint's search.
const HINT_SEED: u64 = 0x4849_4E54;

/// A bot's advice for one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The bot asked (`heuristic` while passing).
    pub bot: String,
    /// The card it would choose.
    pub card: Card,
    /// The search's mean value of every legal card, in card order (empty for a bot that is
    /// not a tree search, and while passing).
    pub values: Vec<(Card, f64)>,
    /// The searches (determinized worlds) behind the values.
    pub worlds: u32,
}

/// The hint of the bot called `name` (built by `registry`) for `view`, the seat to act.
pub fn hint(view: &SeatView, name: &str, registry: &BotRegistry) -> Result<Hint, BotError> {
    if view.phase() == Phase::Pass {
        // A name that builds no bot is refused in every phase.
        registry.check(name, view.variant())?;
        return Ok(Hint {
            bot: "heuristic".into(),
            card: HeuristicBot::choose(view),
            values: Vec::new(),
            worlds: 0,
        });
    }
    let variant = Some(view.variant());
    let Some(searcher) = registry.ismcts(name, HINT_SEED, variant) else {
        let card = registry.build(name, HINT_SEED, view.variant())?.act(view)?;
        return Ok(Hint {
            bot: name.into(),
            card,
            values: Vec::new(),
            worlds: 0,
        });
    };
    let mut chooser = searcher?;
    // Two bots with one seed search alike: one chooses, the other reports its values.
    let mut bot = registry
        .ismcts(name, HINT_SEED, variant)
        .expect("the same name")?;
    let card = chooser.act(view)?;
    let eval = bot
        .search_values(view)
        .ok_or_else(|| BotError::NoDecision { name: name.into() })?;
    Ok(Hint {
        bot: name.into(),
        card,
        values: eval.values,
        worlds: eval.worlds,
    })
}

//! The hint: what a bot would do for a seat, with the search's value of each card. One
//! computation for the terminal's `hint` (`cli`) and the web page's hint (`web`).
//!
//! The bot is built from its spec (the caller parses the name once: [`super::bot_spec`],
//! or the web's checked spec) through the registry, with one fixed seed, so the same
//! position always gets the same hint, and asked once through the [`Bot`](super::Bot)
//! trait: a search bot's [`search_values`](super::Bot::search_values) give its values and
//! its card ([`SearchValues::best_card`]: a tree search's most visited card, else the
//! first of best value), any other bot's [`act`](super::Bot::act) its card alone. While
//! passing, a bot whose name has a pass suffix (`pimc:200/1400`, `ismcts:5000/nn`) is
//! asked as in play (its pass search's values, or its model's pick); any other passes as
//! the heuristic does, so the heuristic's pick is given.
//!
//! Beside the bot's values, a hint shows *double-dummy* values where the solver can give
//! them: the mean exact value of every legal card over [`HINT_DD_WORLDS`] worlds drawn
//! from the seat's view, each solved to the round's end (as `pimc-dd` does, from the
//! hint's seed) within [`DEFAULT_WORLD_NODES`] nodes per world. Where a whole-round solve
//! does not fit that budget (early in a round) they are left out and the bot's values
//! stand alone. A count budget: the same position always gets the same values.

use crate::{
    BotError, BotRegistry, BotSpec, PassPicks, PimcDdBot, PimcDdConfig, SearchValues,
    DEFAULT_WORLD_NODES,
};
use yokai_septet::Card;
use yokai_septet::Phase;
use yokai_septet::SeatView;

/// The bot a hint asks when it is given none.
pub const HINT_BOT: &str = "ismcts";

/// Seed of the hint's search.
const HINT_SEED: u64 = 0x4849_4E54;

/// Worlds behind a hint's double-dummy values.
pub const HINT_DD_WORLDS: u32 = 8;

/// A bot's advice for one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The bot asked (`heuristic` while passing).
    pub bot: String,
    /// The card it would choose.
    pub card: Card,
    /// The search's mean value of every legal card, in card order (empty for a bot that
    /// does not search, for a forced card, and while passing).
    pub values: Vec<(Card, f64)>,
    /// The searches (determinized worlds) behind the values.
    pub worlds: u32,
    /// The mean double-dummy value (the solver's units, [`crate::analysis::units`]) of
    /// every legal card, in card order, over worlds solved to the round's end; empty where
    /// a whole-round solve does not fit the budget, for a forced card, and while passing.
    pub double_dummy: Vec<(Card, f64)>,
}

/// The hint of the bot of `spec` (built by `registry`) for `view`, the seat to act.
pub fn hint(view: &SeatView, spec: &BotSpec, registry: &BotRegistry) -> Result<Hint, BotError> {
    let mut bot = registry.build_spec(spec, HINT_SEED, view.variant())?;
    let passing = view.phase() == Phase::Pass;
    if passing && spec.pass == PassPicks::Heuristic {
        let card = registry
            .build("heuristic", HINT_SEED, view.variant())?
            .act(view)?;
        return Ok(Hint {
            bot: "heuristic".into(),
            card,
            values: Vec::new(),
            worlds: 0,
            double_dummy: Vec::new(),
        });
    }
    let name = spec.to_string();
    // One search: its values name the card. A bot that does not search (or a forced card)
    // has no values and has drawn nothing, so its `act` decides as a fresh bot's would.
    let (card, values, worlds) = match bot.search_values(view) {
        Some(eval) => {
            let card = eval
                .best_card()
                .ok_or_else(|| BotError::NoDecision { name: name.clone() })?;
            let SearchValues { values, worlds, .. } = eval;
            (card, values, worlds)
        }
        None => (bot.act(view)?, Vec::new(), 0),
    };
    Ok(Hint {
        bot: name,
        card,
        values,
        worlds,
        double_dummy: if passing {
            Vec::new()
        } else {
            double_dummy(view)
        },
    })
}

/// The double-dummy values of a hint (see the module documentation): `pimc-dd`'s exact
/// values, or none where its solver does not take over at `view`.
fn double_dummy(view: &SeatView) -> Vec<(Card, f64)> {
    if view.legal_actions().len() < 2 {
        return Vec::new();
    }
    let config = PimcDdConfig {
        worlds: HINT_DD_WORLDS,
        world_nodes: DEFAULT_WORLD_NODES,
        ..PimcDdConfig::default()
    };
    match PimcDdBot::new(config, HINT_SEED).search_values(view) {
        Some(eval) if eval.exact => eval.values,
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::State;
    use yokai_septet::{GameConfig, Variant};

    fn spec(name: &str) -> BotSpec {
        name.parse().unwrap()
    }

    /// Play-phase positions of one heuristic game with a choice to make.
    fn choices() -> Vec<State> {
        let mut s = State::new(GameConfig::new(Variant::FourPlayer, 11));
        let mut out = Vec::new();
        while let Some(p) = s.current_player() {
            if s.phase() == Phase::Play && s.legal_actions().len() > 1 && out.len() < 3 {
                out.push(s);
            }
            let card = crate::bot_by_name("heuristic", 0, Variant::FourPlayer)
                .unwrap()
                .act(&s.view(p))
                .unwrap();
            s.apply(card).unwrap();
        }
        out
    }

    /// The hint is the named bot's own decision, searched once: its card is the card the
    /// bot plays from the hint's seed, its values the bot's search values; a bot that does
    /// not search gives its card alone.
    #[test]
    fn the_hint_is_the_bots_own_decision_searched_once() {
        let registry = BotRegistry::new();
        let bits = |v: &[(Card, f64)]| -> Vec<(Card, u64)> {
            v.iter().map(|&(c, x)| (c, x.to_bits())).collect()
        };
        for s in choices() {
            let view = s.view(s.current_player().unwrap());
            let fresh = || {
                registry
                    .build("ismcts:64", HINT_SEED, view.variant())
                    .unwrap()
            };
            let h = hint(&view, &spec("ismcts:64"), &registry).unwrap();
            let eval = fresh().search_values(&view).unwrap();
            assert_eq!(h.card, fresh().act(&view).unwrap());
            assert_eq!(bits(&h.values), bits(&eval.values));
            assert_eq!(h.worlds, 64);

            // A search by value: its card is the first of best value.
            let h = hint(&view, &spec("pimc:50"), &registry).unwrap();
            let fresh = || {
                registry
                    .build("pimc:50", HINT_SEED, view.variant())
                    .unwrap()
            };
            let eval = fresh().search_values(&view).unwrap();
            assert_eq!(bits(&h.values), bits(&eval.values));
            assert_eq!(h.card, fresh().act(&view).unwrap());
            assert_eq!(h.worlds, eval.worlds);

            // Early in the round a whole-round solve does not fit: no double-dummy values.
            assert!(h.double_dummy.is_empty());

            let h = hint(&view, &spec("heuristic"), &registry).unwrap();
            let card = registry.build("heuristic", HINT_SEED, view.variant());
            assert_eq!(h.card, card.unwrap().act(&view).unwrap());
            assert!(h.values.is_empty() && h.worlds == 0);
        }
    }

    /// Near the round's end the hint shows double-dummy values for every legal card: the
    /// solver's exact values to the round's end, averaged over worlds drawn from the
    /// seat's view, as `pimc-dd` gives them from the hint's seed; whatever bot is asked.
    #[test]
    fn the_hint_shows_whole_round_double_dummy_values_where_they_fit() {
        let registry = BotRegistry::new();
        let mut s = State::new(GameConfig::new(Variant::FourPlayer, 11));
        let mut shown = 0;
        while let Some(p) = s.current_player() {
            let view = s.view(p);
            let left = 12 - s.tricks_played();
            if s.phase() == Phase::Play && s.legal_actions().len() > 1 && left <= 3 {
                let h = hint(&view, &spec("heuristic"), &registry).unwrap();
                let config = PimcDdConfig {
                    worlds: HINT_DD_WORLDS,
                    ..PimcDdConfig::default()
                };
                let eval = PimcDdBot::new(config, HINT_SEED)
                    .search_values(&view)
                    .unwrap();
                assert!(eval.exact, "{left} tricks left");
                assert_eq!(h.double_dummy, eval.values);
                assert_eq!(h.double_dummy.len(), s.legal_actions().len() as usize);
                shown += 1;
            }
            let card = crate::bot_by_name("heuristic", 0, Variant::FourPlayer)
                .unwrap()
                .act(&view)
                .unwrap();
            let out = s.apply(card).unwrap();
            if out.round.is_some() {
                break;
            }
        }
        assert!(shown >= 2, "{shown}");
    }

    /// While passing, a name with a pass suffix is asked as in play: `pimc:N/P`'s hint is
    /// its pass search's values and card (not the heuristic's pick), `ismcts:N/nn`'s the
    /// shipped model's pick; a name without one passes as the heuristic does.
    #[test]
    fn the_hint_honours_a_pass_suffix_while_passing() {
        let registry = BotRegistry::new();
        let s = State::new(GameConfig::new(Variant::FourPlayer, 11));
        assert_eq!(s.phase(), Phase::Pass);
        let view = s.view(s.current_player().unwrap());
        let plain = hint(&view, &spec("pimc:40"), &registry).unwrap();
        assert_eq!(plain.bot, "heuristic");
        assert!(plain.values.is_empty());

        let searched = hint(&view, &spec("pimc:40/60"), &registry).unwrap();
        let mut bot = registry
            .build("pimc:40/60", HINT_SEED, view.variant())
            .unwrap();
        let eval = bot.search_values(&view).unwrap();
        assert_eq!(searched.bot, "pimc:40/60");
        assert_eq!(searched.values, eval.values);
        assert_eq!(searched.values.len(), view.legal_actions().len() as usize);
        let fresh = registry.build("pimc:40/60", HINT_SEED, view.variant());
        assert_eq!(searched.card, fresh.unwrap().act(&view).unwrap());
        assert!(searched.double_dummy.is_empty());

        if cfg!(feature = "models") {
            let learned = hint(&view, &spec("ismcts:30/nn"), &registry).unwrap();
            let nn = registry.build("nn", HINT_SEED, view.variant());
            assert_eq!(learned.bot, "ismcts:30/nn");
            assert_eq!(learned.card, nn.unwrap().act(&view).unwrap());
        }
    }
}

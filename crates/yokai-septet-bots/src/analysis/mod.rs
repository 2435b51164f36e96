//! Double-dummy analysis of a played game: for every card play of a record, the card
//! chosen, the best cards with every hand visible, and what the choice cost.
//!
//! Each play's position (the state just before it) goes to the exact [`Solver`], which
//! scores every legal card in the round's objective for the side of the player to move
//! (the solver's units, [`units`]). The *cost* of a play is the best card's value minus
//! the chosen card's: 0 for a best card, more for a card that gave value away against
//! perfect play by everyone. A seat's total adds up its costs.
//!
//! Every position is solved to the round's end (whole-round solves) where the node
//! budget allows: a whole round from its first lead may cost the solver far more than
//! anyone wants to wait, so each round is analysed from its last play backwards, each
//! position's solve stops once it passes the budget, and the first that does makes it
//! and the earlier plays of its round (larger positions) *estimated*: each gets the
//! reason (a forecast of its exact solve's cost, [`forecast`]; more than the budget) and
//! a sampled estimate of every legal card's value in the same units ([`estimate()`]:
//! `pimc-dd` before its solver takes over, over worlds drawn from what the mover knew).
//! A play with one legal card is *forced*: cost 0, unsolved. Node counts and the
//! estimates' worlds do not depend on the machine, so an analysis is the same everywhere.
//!
//! Every value is for the side of the player who moved (the mover's side): a positive
//! value is good for the mover, and rows of opposing sides read in opposite directions.

pub mod estimate;
pub mod forecast;
pub mod json;

use serde_json::Value;

use yokai_septet::Card;
use yokai_septet::RecordError;
use yokai_septet::State;
use yokai_septet::Variant;
use yokai_septet::{Match, Record};
use yokai_septet_solver::{Solver, GAME_WIN};

use estimate::{estimate, Estimate};
use forecast::{cards_left, Forecast};
use yokai_septet::sampler::Sampler;

pub use json::{AnalysisJson, PlayJson, Shares};

/// Default node budget per position: about a second of the alpha-beta solver on one
/// core, so a whole game is analysed in minutes at worst.
pub const DEFAULT_BUDGET: u64 = 2_000_000;

/// Version of the analysis's JSON form ([`Analysis::json`]): 2 replaced `skipped`
/// plays by `estimated` ones.
pub const ANALYSIS_VERSION: u64 = 2;

/// What became of one play.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Solved: every legal card's value (card id order), the best value, the chosen
    /// card's, and the solver's nodes.
    Solved {
        /// Every legal card's value, from the player's side's point of view.
        values: Vec<(Card, i32)>,
        /// The best of `values`.
        best: i32,
        /// The chosen card's value.
        chosen: i32,
        /// The solver's nodes for this position.
        nodes: u64,
    },
    /// The only legal card: nothing to decide.
    Forced,
    /// Not solved (its solve, or a later play's of its round, passed the budget):
    /// estimated by sampling ([`estimate()`]).
    Estimated {
        /// Every legal card's estimated value, from the player's side's point of view.
        values: Vec<(Card, f64)>,
        /// The best of `values`.
        best: f64,
        /// The chosen card's value.
        chosen: f64,
        /// The worlds behind the values.
        worlds: u32,
        /// The nodes the exact solve was forecast to need (more than the budget): why it
        /// was not solved.
        forecast: u64,
    },
}

/// One card play of the record and its analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayAnalysis {
    /// The round, from 0 (as in the record).
    pub round: usize,
    /// The trick in the round, from 0.
    pub trick: usize,
    /// The position in the trick, from 0 (0: the lead).
    pub index: usize,
    /// The seat that played.
    pub seat: usize,
    /// The card it played.
    pub card: Card,
    /// What the analysis found.
    pub verdict: Verdict,
}

impl PlayAnalysis {
    /// The value given away by the play, exactly (`Some(0)` for a best or forced card;
    /// `None` when estimated: [`PlayAnalysis::estimated_cost`]).
    pub fn cost(&self) -> Option<i32> {
        match &self.verdict {
            Verdict::Solved { best, chosen, .. } => Some(best - chosen),
            Verdict::Forced => Some(0),
            Verdict::Estimated { .. } => None,
        }
    }

    /// The estimated value given away by an estimated play (`None` otherwise).
    pub fn estimated_cost(&self) -> Option<f64> {
        match &self.verdict {
            Verdict::Estimated { best, chosen, .. } => Some(best - chosen),
            _ => None,
        }
    }

    /// The cards of best value, exact or estimated (empty when forced).
    pub fn best_cards(&self) -> Vec<Card> {
        match &self.verdict {
            Verdict::Solved { values, best, .. } => values
                .iter()
                .filter(|(_, v)| v == best)
                .map(|&(c, _)| c)
                .collect(),
            Verdict::Estimated { values, best, .. } => values
                .iter()
                .filter(|(_, v)| v == best)
                .map(|&(c, _)| c)
                .collect(),
            Verdict::Forced => Vec::new(),
        }
    }
}

/// One seat's decisions, totalled (in the JSON form as they are named).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SeatTotals {
    /// Plays with a choice, solved.
    pub solved: u32,
    /// Plays with one legal card.
    pub forced: u32,
    /// Plays not solved (over the budget) but estimated.
    pub estimated: u32,
    /// Solved plays that gave value away.
    pub costly: u32,
    /// The value given away, in all.
    pub cost: i64,
}

/// The analysis of a game.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The game's variant.
    pub variant: Variant,
    /// The game's scoring (`None` in the seal variants).
    pub scoring: Option<&'static str>,
    /// The node budget per position.
    pub budget: u64,
    /// Every card play, in the record's order.
    pub plays: Vec<PlayAnalysis>,
    /// Per seat.
    pub seats: Vec<SeatTotals>,
}

/// Whose values an analysis gives, in words (its JSON's `point_of_view`).
pub const POINT_OF_VIEW: &str = "each value is for the side of the player who moved: \
    positive is good for the mover";

/// What one unit of the solver's values is worth in `variant`, in words.
pub fn units(variant: Variant) -> String {
    match variant {
        Variant::FourPlayer => "2 units = 1 round point of the team's lead over the other \
            team; 1 more for winning the round (R7)"
            .to_string(),
        Variant::ThreePlayer => "2 units = 1 round point of the player's lead over the \
            best other player; 1 more for winning the round (the other two assumed to \
            play together against the player)"
            .to_string(),
        Variant::Seal | Variant::SealShort => format!(
            "1 unit = 1 seal of the team's lead this round; {GAME_WIN} for winning the \
             game (R9)"
        ),
    }
}

/// Every card play of `m` with the state just before it: `(round, trick, index, state,
/// card)`.
fn positions(m: &Match) -> Vec<(usize, usize, usize, State, Card)> {
    let rec: Record = m.record();
    let mut g =
        Match::with_deals(*m.state().config(), rec.deals()).expect("a match's own deals are valid");
    let mut out = Vec::new();
    for (r, round) in rec.rounds.iter().enumerate() {
        for &c in round.passes.iter().flatten() {
            g.apply(Card::new(c).expect("a validated record"))
                .expect("a validated record replays");
        }
        for (t, trick) in round.tricks.iter().enumerate() {
            for (i, &c) in trick.cards.iter().enumerate() {
                let card = Card::new(c).expect("a validated record");
                out.push((r, t, i, *g.state(), card));
                g.apply(card).expect("a validated record replays");
            }
        }
    }
    out
}

/// Analyses every card play of `m` (a validated game) within `budget` nodes per position.
/// `progress(done, total)` is called after each play.
pub fn analyze(m: &Match, budget: u64, progress: &mut dyn FnMut(usize, usize)) -> Analysis {
    analyze_rounds(m, 0..usize::MAX, budget, progress)
}

/// [`analyze`] for the card plays of the rounds `rounds` only (the web page's review of a
/// finished round: the plays of the round still being played are never solved, so the
/// review cannot tell the hands of a round in progress).
pub fn analyze_rounds(
    m: &Match,
    rounds: std::ops::Range<usize>,
    budget: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Analysis {
    let s = m.state();
    let variant = s.variant();
    let mut positions = positions(m);
    positions.retain(|p| rounds.contains(&p.0));
    let total = positions.len();
    let mut plays: Vec<Option<PlayAnalysis>> = vec![None; total];
    let mut solver = Solver::new();
    let mut sampler = Sampler::new();
    let seed = s.config().seed;
    let mut done = 0;
    let mut end = total;
    // Round by round, last play first: small positions measure the growth of the cost.
    while end > 0 {
        let round = positions[end - 1].0;
        let start = positions[..end]
            .iter()
            .rposition(|p| p.0 != round)
            .map_or(0, |k| k + 1);
        let mut forecast = Forecast::new(variant.num_players());
        let mut over = false;
        for k in (start..end).rev() {
            let (r, t, i, state, card) = &positions[k];
            let seat = state.current_player().expect("a play's position");
            let verdict = if state.legal_actions().len() == 1 {
                Verdict::Forced
            } else {
                let left = cards_left(state);
                let f = forecast.nodes(left);
                let before = solver.nodes();
                // Tried within the budget until one solve runs out: the earlier positions
                // of the round are larger.
                let solved = if over {
                    None
                } else {
                    solver.solve_moves_within(state, budget)
                };
                match solved {
                    None => {
                        over = true;
                        // Keyed by the play's place in the game, so that a round's review
                        // and the whole game's analysis draw the same worlds.
                        let place = (*r as u64) << 16 | (*t as u64) << 8 | *i as u64;
                        let Estimate { values, worlds } =
                            estimate(state, seed, place, &mut sampler);
                        let chosen = values
                            .iter()
                            .find(|&&(c, _)| c == *card)
                            .expect("the recorded card is legal")
                            .1;
                        let best = values.iter().map(|x| x.1).fold(f64::MIN, f64::max);
                        Verdict::Estimated {
                            values,
                            best,
                            chosen,
                            worlds,
                            // Past the budget: more than it, whatever the forecast said.
                            forecast: f.max(budget.saturating_add(1)),
                        }
                    }
                    Some(mv) => {
                        let nodes = solver.nodes() - before;
                        forecast.measured(left, nodes);
                        let mut values: Vec<(Card, i32)> = mv.iter().collect();
                        values.sort_by_key(|&(c, _)| c.id());
                        let chosen = values
                            .iter()
                            .find(|&&(c, _)| c == *card)
                            .expect("the recorded card is legal")
                            .1;
                        Verdict::Solved {
                            best: mv.best_value(),
                            values,
                            chosen,
                            nodes,
                        }
                    }
                }
            };
            plays[k] = Some(PlayAnalysis {
                round: *r,
                trick: *t,
                index: *i,
                seat,
                card: *card,
                verdict,
            });
            done += 1;
            progress(done, total);
        }
        end = start;
    }
    let plays: Vec<PlayAnalysis> = plays.into_iter().map(|p| p.expect("analysed")).collect();
    let mut seats = vec![SeatTotals::default(); variant.num_players()];
    for p in &plays {
        let t = &mut seats[p.seat];
        match &p.verdict {
            Verdict::Forced => t.forced += 1,
            Verdict::Estimated { .. } => t.estimated += 1,
            Verdict::Solved { best, chosen, .. } => {
                t.solved += 1;
                if best > chosen {
                    t.costly += 1;
                    t.cost += (best - chosen) as i64;
                }
            }
        }
    }
    Analysis {
        variant,
        scoring: m.record().scoring,
        budget,
        plays,
        seats,
    }
}

/// Validates the record `rec` ([`Match::from_record`]) and analyses it.
pub fn analyze_record(
    rec: &Value,
    budget: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, RecordError> {
    let m = Match::from_record(rec)?;
    Ok(analyze(&m, budget, progress))
}

impl Analysis {
    /// The plays that gave value away, in game order.
    pub fn costly(&self) -> impl Iterator<Item = &PlayAnalysis> {
        self.plays
            .iter()
            .filter(|p| p.cost().is_some_and(|c| c > 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet_solver::utility;

    fn golden(name: &str) -> Match {
        let path = format!(
            "{}/../yokai-septet/tests/golden/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        Match::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// Plain minimax over `State::apply` to the round's end: the value for `root`'s side
    /// (in `3p`, `root` against both others), independent of the solver's search; `None`
    /// once `budget` positions have been visited (too large to check this way).
    fn minimax(s: &State, root: usize, budget: &mut u32) -> Option<i32> {
        *budget = budget.checked_sub(1)?;
        let v = s.variant();
        let me = s.current_player().unwrap();
        let ours = v.side_of(me) == v.side_of(root);
        let mut best = if ours { i32::MIN } else { i32::MAX };
        for c in s.legal_actions() {
            let mut t = *s;
            let out = t.apply(c).unwrap();
            let value = match out.round {
                Some(r) => utility(v, &r, t.winners_mask(), root),
                None => minimax(&t, root, budget)?,
            };
            best = if ours {
                best.max(value)
            } else {
                best.min(value)
            };
        }
        Some(best)
    }

    /// The value of each legal card by plain minimax.
    fn minimax_moves(s: &State) -> Option<Vec<(Card, i32)>> {
        let root = s.current_player().unwrap();
        let mut budget = 300_000;
        s.legal_actions()
            .iter()
            .map(|c| {
                let mut t = *s;
                let out = t.apply(c).unwrap();
                let v = match out.round {
                    Some(r) => utility(s.variant(), &r, t.winners_mask(), root),
                    None => minimax(&t, root, &mut budget)?,
                };
                Some((c, v))
            })
            .collect()
    }

    #[test]
    fn solved_plays_have_the_exact_values_of_plain_minimax() {
        for name in ["4p_seed0", "3p_seed1", "seal-short_seed0", "seal_seed2"] {
            let m = golden(name);
            let a = analyze(&m, 20_000, &mut |_, _| {});
            let states = positions(&m);
            assert_eq!(a.plays.len(), states.len());
            let mut checked = 0;
            for (p, (_, _, _, s, card)) in a.plays.iter().zip(&states) {
                assert_eq!(p.card, *card);
                let Verdict::Solved {
                    values,
                    best,
                    chosen,
                    ..
                } = &p.verdict
                else {
                    continue;
                };
                let Some(exact) = minimax_moves(s) else {
                    continue;
                };
                assert_eq!(
                    values, &exact,
                    "{name}: round {} trick {}",
                    p.round, p.trick
                );
                assert_eq!(*best, exact.iter().map(|x| x.1).max().unwrap());
                assert_eq!(*chosen, exact.iter().find(|x| x.0 == *card).unwrap().1);
                checked += 1;
            }
            assert!(checked >= 3, "{name}: only {checked} plays checked");
        }
    }

    /// A game that follows `m`'s record up to play `k`, plays the worst card there, then
    /// the solver's best cards to the round's end.
    fn with_bad_card(m: &Match, k: usize) -> (Match, Card, i32) {
        let states = positions(m);
        let rec = m.record();
        let mut g = Match::with_deals(*m.state().config(), rec.deals())
            .expect("a match's own deals are valid");
        let (round, ..) = states[k];
        // Replay every pick and play before play k.
        let mut played = 0;
        'outer: for rr in &rec.rounds[..=round] {
            for &c in rr.passes.iter().flatten() {
                g.apply(Card::new(c).unwrap()).unwrap();
            }
            for t in &rr.tricks {
                for &c in &t.cards {
                    if played == k {
                        break 'outer;
                    }
                    g.apply(Card::new(c).unwrap()).unwrap();
                    played += 1;
                }
            }
        }
        let mut solver = Solver::new();
        let mv = solver.solve_moves(g.state()).unwrap();
        let (worst, worst_value) = mv.iter().min_by_key(|&(c, v)| (v, c.id())).unwrap();
        let cost = mv.best_value() - worst_value;
        g.apply(worst).unwrap();
        while g.state().round() as usize == round && !g.state().is_over() {
            let mv = solver.solve_moves(g.state()).unwrap();
            let best = mv
                .iter()
                .max_by_key(|&(c, v)| (v, -(c.id() as i32)))
                .unwrap();
            g.apply(best.0).unwrap();
        }
        (g, worst, cost)
    }

    #[test]
    fn a_deliberately_bad_card_is_flagged_with_its_cost() {
        let m = golden("4p_seed1");
        let states = positions(&m);
        // The first play of the last trick but two of round 0 whose cards differ in value.
        let mut solver = Solver::new();
        let k = (0..states.len())
            .filter(|&k| states[k].0 == 0 && cards_left(&states[k].3) <= 12)
            .find(|&k| {
                let mv = solver.solve_moves(&states[k].3).unwrap();
                let costly = mv.iter().any(|(_, v)| v < mv.best_value());
                costly
            })
            .expect("a late play with a costly card");
        let (g, worst, cost) = with_bad_card(&m, k);
        assert!(cost > 0);
        let a = analyze(&g, 1_000_000, &mut |_, _| {});
        let flagged = &a.plays[k];
        assert_eq!(flagged.card, worst);
        assert_eq!(flagged.cost(), Some(cost));
        assert!(!flagged.best_cards().contains(&worst));
        assert!(a.costly().any(|p| std::ptr::eq(p, flagged)));
        let t = a.seats[flagged.seat];
        assert!(t.costly >= 1 && t.cost >= cost as i64, "{t:?}");
        // After it, every play is a best card: nobody else lost value in that round.
        assert!(a.plays[k + 1..]
            .iter()
            .filter(|p| p.round == 0)
            .all(|p| p.cost() == Some(0)));
        // The JSON form says the same.
        let v = a.to_value();
        let j = &v["plays"][k];
        assert_eq!(j["status"], "solved");
        assert_eq!(j["card"], worst.id());
        assert_eq!(j["cost"], cost);
        assert_eq!(v["seats"][flagged.seat]["cost"], t.cost);
    }

    /// Each play's solve to the round's end is tried within the budget: the solved plays
    /// took no more, and in each round the estimated ones are the earliest choices, from
    /// the play whose solve ran out back to the round's first lead.
    #[test]
    fn plays_are_solved_to_the_rounds_end_within_the_budget() {
        let m = golden("4p_seed2");
        let budget = 20_000;
        let a = analyze(&m, budget, &mut |_, _| {});
        let mut solved = 0;
        for r in 0..m.record().rounds.len() {
            let choices: Vec<_> = a
                .plays
                .iter()
                .filter(|p| p.round == r && p.verdict != Verdict::Forced)
                .collect();
            let skipped = choices
                .iter()
                .take_while(|p| matches!(p.verdict, Verdict::Estimated { .. }))
                .count();
            for p in &choices[skipped..] {
                let Verdict::Solved { nodes, .. } = p.verdict else {
                    panic!("round {r}: a play after a solved one estimated");
                };
                assert!(nodes <= budget, "round {r}: {nodes} nodes");
                solved += 1;
            }
            for p in &choices[..skipped] {
                assert!(
                    matches!(p.verdict, Verdict::Estimated { forecast, .. } if forecast > budget)
                );
            }
        }
        assert!(solved > 0);
    }

    #[test]
    fn a_tiny_budget_estimates_early_plays_and_says_why() {
        let m = golden("4p_seed2");
        let a = analyze(&m, 1, &mut |_, _| {});
        let skipped = a
            .plays
            .iter()
            .filter(|p| matches!(p.verdict, Verdict::Estimated { forecast, .. } if forecast > 1))
            .count();
        assert!(skipped > 0);
        // A choice needs a node per card: the last choice of each round runs out of a
        // budget of one node, and every earlier one is estimated.
        for r in 0..m.record().rounds.len() {
            let solved = a
                .plays
                .iter()
                .filter(|p| p.round == r && matches!(p.verdict, Verdict::Solved { .. }))
                .count();
            assert!(solved <= 1, "round {r}: {solved} solved");
        }
        // Every estimated play scores every legal card, its own included, in the JSON too.
        let v = a.to_value();
        for (p, j) in a.plays.iter().zip(v["plays"].as_array().unwrap()) {
            if let Verdict::Estimated {
                values,
                best,
                chosen,
                worlds,
                ..
            } = &p.verdict
            {
                assert_eq!(j["status"], "estimated");
                assert_eq!(j["worlds"], *worlds);
                assert_eq!(j["values"].as_array().unwrap().len(), values.len());
                assert!(values.iter().any(|x| x.0 == p.card));
                assert!(best >= chosen && p.estimated_cost() == Some(best - chosen));
                assert!(p.best_cards().iter().all(|c| values.contains(&(*c, *best))));
                assert!(!p.best_cards().is_empty() && p.cost().is_none());
            }
        }
        let share = |k: &str| v["shares"][k].as_f64().unwrap();
        assert!((share("solved") + share("forced") + share("estimated") - 1.0).abs() < 1e-12);
        assert!(v["shares"].get("skipped").is_none());
        let mut calls = 0;
        analyze(&m, 1, &mut |done, total| {
            calls += 1;
            assert!(done <= total && total == a.plays.len());
        });
        assert_eq!(calls, a.plays.len());
    }
}

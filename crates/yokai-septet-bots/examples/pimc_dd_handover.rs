//! Where `pimc-dd`'s solver takes over: for round 0 of DEALS deals per variant (seeds
//! 1000 onwards, every seat played by the heuristic bot), the tricks left at the first
//! lead where a fresh default `pimc-dd` bot decides by exact whole-round solves (0: the
//! round ended first). Node budgets, so the same everywhere.
//!
//! `cargo run --release -p yokai-septet-bots --example pimc_dd_handover -- [DEALS]` (default 10).

use yokai_septet::{GameConfig, Phase, State, Variant};
use yokai_septet_bots::{HeuristicBot, PimcDdBot, PimcDdConfig};

/// Tricks left at the first lead of round 0 of `seed`'s game where the solver decides.
fn hand_over(variant: Variant, seed: u64) -> usize {
    let mut s = State::new(GameConfig::new(variant, seed));
    while let Some(p) = s.current_player() {
        let view = s.view(p);
        let lead = s.phase() == Phase::Play && s.trick_cards().is_empty();
        if lead && s.legal_actions().len() > 1 {
            let mut bot = PimcDdBot::new(PimcDdConfig::default(), 7);
            if bot.search_values(&view).is_some_and(|e| e.exact) {
                return variant.tricks_per_round() - s.tricks_played();
            }
        }
        let out = s.apply(HeuristicBot::choose(&view)).expect("a legal card");
        if out.round.is_some() {
            break;
        }
    }
    0
}

fn main() {
    let deals: u64 = std::env::args()
        .nth(1)
        .map_or(10, |a| a.parse().expect("DEALS: a number"));
    for v in Variant::ALL {
        let mut left: Vec<usize> = (0..deals).map(|k| hand_over(v, 1000 + k)).collect();
        left.sort_unstable();
        println!("{v}: tricks left at the hand-over {left:?}");
    }
}

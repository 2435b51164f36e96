//! What one bot's decisions give away against the true deal's double-dummy best, with the
//! bot in all four seats (`docs/search.md`, "What PIMC gets wrong"):
//!
//! `cargo run --release -p yokai-septet-bots --example self_play_analysis -- GAMES BOT...`
//!
//! Plays `GAMES` `4p` games of 2 rounds (seeds 1000, 1001, …; the bot in seat `s` of game
//! `g` seeded `4·g + s`), analyses each record within 300,000 solver nodes per position
//! ([`yokai_septet_bots::analysis::analyze`], as `ys.analyze(record, budget=300_000)`), and
//! prints per bot the solved decisions, the share that gave value away, and the mean cost
//! per solved decision.
use std::time::Instant;

use yokai_septet::{GameConfig, Match, Variant};
use yokai_septet_bots::analysis::analyze;
use yokai_septet_bots::{bot_by_name, Bot};

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: self_play_analysis GAMES BOT...";
    let games: u64 = args.next().and_then(|g| g.parse().ok()).expect(usage);
    let v = Variant::FourPlayer;
    for name in args {
        let (mut solved, mut costly, mut cost) = (0u64, 0u64, 0i64);
        let start = Instant::now();
        for g in 1000..1000 + games {
            let mut m = Match::new(GameConfig::new(v, g).with_max_rounds(Some(2)));
            let mut bots: Vec<Box<dyn Bot>> = (0..4)
                .map(|s| bot_by_name(&name, 4 * g + s, v).expect("a bot name"))
                .collect();
            while let Some(p) = m.state().current_player() {
                let card = bots[p].act(&m.state().view(p)).expect("a decision");
                m.apply(card).expect("a legal card");
            }
            for seat in analyze(&m, 300_000, &mut |_, _| {}).seats {
                solved += seat.solved as u64;
                costly += seat.costly as u64;
                cost += seat.cost;
            }
        }
        println!(
            "{name}: {solved} solved decisions, {costly} gave value away ({:.1}%), mean cost \
             {:.2} per solved decision ({:.0?})",
            100.0 * costly as f64 / solved as f64,
            cost as f64 / solved as f64,
            start.elapsed()
        );
    }
}

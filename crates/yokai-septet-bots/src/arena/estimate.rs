//! A rough duration of an arena (or of a ladder's arenas) before it starts, from a quick
//! calibration: the length of a game, from a few games of `heuristic` bots, and each bot's
//! time per decision, from a few of its decisions on the states of those games.
//!
//! Only an estimate for people ("about 12 min"): search bots think longer early in a round
//! and games between other bots last longer or shorter. It plays nothing of the arena
//! itself and uses bots of its own, so the arena's results do not depend on it.

use std::time::{Duration, Instant};

use crate::{BotRegistry, HeuristicBot};
use yokai_septet::State;

use super::{game_setup, short_duration, ArenaConfig, ArenaError};

/// The calibration: decisions per game and seconds per decision of each bot.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Decisions in a game of this configuration, on average (from games of `heuristic`).
    pub decisions_per_game: f64,
    /// `(bot name, seconds per decision)`, in the order the names were given.
    pub seconds_per_decision: Vec<(String, f64)>,
}

/// Games of `heuristic` bots played to measure a game's length.
const SAMPLE_GAMES: u64 = 4;
/// Decisions timed per bot at most, spread over a sample game (passing picks, early and
/// late tricks: a search bot's cost varies with the cards left).
const SAMPLE_DECISIONS: usize = 24;

/// Calibrates `bots` for games configured as `config` (its variant, scoring and round
/// cap), spending at most about `per_bot` on each bot's decisions (and at least one).
pub fn calibrate(
    config: &ArenaConfig,
    registry: &BotRegistry,
    bots: &[String],
    per_bot: Duration,
) -> Result<Estimate, ArenaError> {
    let mut states = Vec::new();
    let mut decisions = 0u64;
    for g in 0..SAMPLE_GAMES {
        let seed = config.seed.wrapping_add(g);
        let mut state = State::new(config.game_config(seed));
        while let Some(p) = state.current_player() {
            if g == 0 {
                states.push(state);
            }
            let card = HeuristicBot::choose(&state.view(p));
            state
                .apply(card)
                .expect("the heuristic bot plays legal cards");
            decisions += 1;
        }
    }
    let stride = (states.len() / SAMPLE_DECISIONS).max(1);
    let mut seconds_per_decision = Vec::with_capacity(bots.len());
    for name in bots {
        let mut bot = registry.build(name, config.seed, config.variant)?;
        let start = Instant::now();
        let mut timed = 0u32;
        for s in states.iter().step_by(stride).take(SAMPLE_DECISIONS) {
            let p = s
                .current_player()
                .expect("a sampled state awaits a decision");
            bot.act(&s.view(p))?;
            timed += 1;
            if start.elapsed() >= per_bot {
                break;
            }
        }
        let per = start.elapsed().as_secs_f64() / f64::from(timed.max(1));
        seconds_per_decision.push((name.clone(), per));
    }
    Ok(Estimate {
        decisions_per_game: decisions as f64 / SAMPLE_GAMES as f64,
        seconds_per_decision,
    })
}

impl Estimate {
    /// Seconds per decision of bot `name` (0 for a name not calibrated).
    fn per_decision(&self, name: &str) -> f64 {
        self.seconds_per_decision
            .iter()
            .find(|(b, _)| b == name)
            .map_or(0.0, |x| x.1)
    }

    /// The wall-clock seconds of `arena` (its games, its line-up's seats) on `threads`
    /// worker threads.
    pub fn seconds(&self, arena: &ArenaConfig, threads: usize) -> Result<f64, ArenaError> {
        let n = arena.variant.num_players();
        let seats = game_setup(arena, 0)?.entry_of_seat;
        let per_decision = seats[..n]
            .iter()
            .map(|&e| self.per_decision(&arena.bots[e]))
            .sum::<f64>()
            / n as f64;
        // More threads than games leave cores idle.
        let parallel = (threads.max(1) as u64).min(arena.total_games().max(1)) as f64;
        Ok(arena.total_games() as f64 * self.decisions_per_game * per_decision / parallel)
    }

    /// `random 0.05 µs, heuristic 3.1 µs, pimc 3.2 ms` per decision, for people.
    pub fn costs_text(&self) -> String {
        let parts: Vec<String> = self
            .seconds_per_decision
            .iter()
            .map(|(b, s)| format!("{b} {}", short_duration(*s)))
            .collect();
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::Variant;

    #[test]
    fn a_slower_bot_makes_a_longer_estimate() {
        for v in Variant::ALL {
            let mut c = ArenaConfig::new(v, &["random", "pimc:20"], 40, 3);
            c.max_rounds = Some(3);
            let e = calibrate(&c, &BotRegistry::new(), &c.bots, Duration::from_secs(1)).unwrap();
            assert!(e.decisions_per_game > 10.0, "{v}: {e:?}");
            let random = e.seconds_per_decision[0].1;
            let pimc = e.seconds_per_decision[1].1;
            assert!(pimc > random, "{v}: {e:?}");
            let both = e.seconds(&c, 1).unwrap();
            let mut fast = c.clone();
            fast.bots = vec!["random".into(), "random".into()];
            assert!(e.seconds(&fast, 1).unwrap() < both, "{v}");
            // Twice the threads, half the time (while games outnumber threads).
            assert!((e.seconds(&c, 2).unwrap() * 2.0 - both).abs() < 1e-9 * both.max(1.0));
            assert!(e.costs_text().starts_with("random "), "{}", e.costs_text());
        }
        let c = ArenaConfig::new(Variant::FourPlayer, &["random", "nobody"], 4, 0);
        assert!(calibrate(&c, &BotRegistry::new(), &c.bots, Duration::from_secs(1)).is_err());
    }

    #[test]
    fn decision_times_keep_their_digits() {
        let e = Estimate {
            decisions_per_game: 100.0,
            seconds_per_decision: vec![("random".into(), 5e-8), ("heuristic".into(), 3e-6)],
        };
        assert_eq!(e.costs_text(), "random 50 ns, heuristic 3.0 µs");
        assert!(!e.costs_text().contains("0.00"));
    }
}

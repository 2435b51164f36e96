//! Rewards and episode ends for reinforcement learning.
//!
//! An environment step is one [`State::apply`]; its [`Outcome`] says whether a trick, a
//! round or the game ended. [`rewards`] turns that into one reward per seat:
//!
//! - [`RewardMode::Win`]: sparse, the game's result. At the step that ends the episode,
//!   +1 for every winner and −1 for every other seat; 0 on every other step. An episode
//!   with no winners — a game stopped by the round cap (`truncated`), or, with
//!   `episode = round`, a seal round that ended without a game win — gives 0 to everyone:
//!   nobody lost, and bootstrapping should take over for truncation.
//! - [`RewardMode::Points`]: denser, per round. At each round end every seat gets the
//!   points its side gained this round (R8; seal variants: the seals its team
//!   made, R9) minus the average of what its opponents gained (4-player variants: the
//!   other team; `3p`: the two other players). Rewards of a step therefore sum to 0 over
//!   the seats: the game stays zero-sum, and a round won by many points is worth more.
//!   0 on steps that end no round.
//!
//! Seats a variant does not have (seat 3 in `3p`) always get 0.
//!
//! Episodes: `terminated` — the rules ended the game (or the round, with
//! `episode = round`); `truncated` — the round cap stopped it ([`GameConfig`] `max_rounds`,
//! R10). They never both hold.
//!
//! [`GameConfig`]: yokai_septet::GameConfig

use yokai_septet::names;
use yokai_septet::Variant;
use yokai_septet::{Outcome, RoundResult, State};

/// How [`rewards`] scores a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RewardMode {
    /// +1 winners / −1 others at the episode's end; 0 when it has no winners.
    #[default]
    Win,
    /// At each round end: points gained minus the opponents' average (zero-sum).
    Points,
}

names!(RewardMode {
    Win => "win",
    Points => "points",
});

/// Rewards per seat for the step that returned `outcome` and left the game in `after`.
pub fn rewards(mode: RewardMode, outcome: &Outcome, after: &State) -> [f32; 4] {
    let v = after.variant();
    let n = v.num_players();
    let mut r = [0f32; 4];
    match mode {
        RewardMode::Win => {
            let winners = after.winners_mask();
            if outcome.game_over && winners != 0 {
                for (p, x) in r.iter_mut().enumerate().take(n) {
                    *x = if winners >> p & 1 == 1 { 1.0 } else { -1.0 };
                }
            }
        }
        RewardMode::Points => {
            if let Some(res) = outcome.round {
                let margins = round_margins(v, &res);
                for (p, x) in r.iter_mut().enumerate().take(n) {
                    *x = margins[v.side_of(p)];
                }
            }
        }
    }
    r
}

/// Each side's margin in a round that ended with `res`: the points its side gained (R8;
/// seal variants: the seals its team made, R9) minus the average of what the other sides
/// gained, in points (divide by [`game_target`](yokai_septet::rules::game_target) for a
/// value on the game's scale). The margins sum to 0; they are the [`RewardMode::Points`]
/// rewards of each side's seats. Side `s` is `Variant::side_of`'s; sides the variant
/// lacks get 0.
pub fn round_margins(variant: Variant, res: &RoundResult) -> [f32; 3] {
    let sides = variant.num_sides();
    // A side's points are those of any of its seats (partners gain together).
    let mut points = [0f32; 3];
    for p in (0..variant.num_players()).rev() {
        points[variant.side_of(p)] = f32::from(res.points[p]);
    }
    let mut margins = [0f32; 3];
    for (s, m) in margins.iter_mut().enumerate().take(sides) {
        let others: f32 = (0..sides).filter(|&o| o != s).map(|o| points[o]).sum();
        *m = points[s] - others / (sides - 1) as f32;
    }
    margins
}

/// Whether the episode ended by the rules (not by the round cap).
#[inline]
pub fn terminated(state: &State) -> bool {
    state.is_over() && !state.is_truncated()
}

/// Whether the episode was cut short by the round cap.
#[inline]
pub fn truncated(state: &State) -> bool {
    state.is_truncated()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;
    use yokai_septet::rng::test_rng;
    use yokai_septet::{Episode, GameConfig, Variant};

    fn play(cfg: GameConfig, seed: u64, mut f: impl FnMut(&Outcome, &State)) -> State {
        let mut rng = test_rng(seed);
        let mut s = State::new(cfg);
        while !s.is_over() {
            let legal = s.legal_actions();
            let k = rng.next_u32() % legal.len();
            let o = s.apply(legal.nth(k).unwrap()).unwrap();
            f(&o, &s);
        }
        s
    }

    /// Every reward mode's name finds it again and is what it displays (the engine's
    /// `names!`, as for the engine's own named enums).
    #[test]
    fn reward_mode_names_find_their_values_and_display() {
        for m in RewardMode::ALL {
            assert_eq!(RewardMode::from_name(m.name()), Some(m));
            assert_eq!(m.to_string(), m.name());
        }
        assert_eq!(RewardMode::from_name("no such name"), None);
    }

    #[test]
    fn r8_points_rewards_are_zero_sum_and_follow_round_points() {
        for v in Variant::ALL {
            for seed in 0..20 {
                let cfg = GameConfig::new(v, seed).with_max_rounds(Some(6));
                play(cfg, seed, |o, s| {
                    let r = rewards(RewardMode::Points, o, s);
                    let sum: f32 = r.iter().sum();
                    assert!(sum.abs() < 1e-4, "{v}: {r:?}");
                    match o.round {
                        None => assert_eq!(r, [0.0; 4]),
                        Some(res) => {
                            // The side that gained the most is never rewarded negatively.
                            let best = (0..v.num_players()).max_by_key(|&p| res.points[p]);
                            assert!(r[best.unwrap()] >= 0.0);
                        }
                    }
                    if v.num_players() == 3 {
                        assert_eq!(r[3], 0.0);
                    }
                });
            }
        }
    }

    #[test]
    fn r10_win_rewards_only_at_the_end_and_zero_when_truncated() {
        for v in Variant::ALL {
            for seed in 0..20 {
                for episode in Episode::ALL {
                    let cfg = GameConfig::new(v, seed)
                        .with_episode(episode)
                        .with_max_rounds(Some(3));
                    let mut total = [0f32; 4];
                    let end = play(cfg, seed, |o, s| {
                        let r = rewards(RewardMode::Win, o, s);
                        if !o.game_over {
                            assert_eq!(r, [0.0; 4]);
                        }
                        for (t, x) in total.iter_mut().zip(r) {
                            *t += x;
                        }
                    });
                    assert!(terminated(&end) != truncated(&end));
                    if end.winners_mask() == 0 {
                        assert_eq!(total, [0.0; 4]);
                    } else {
                        for (p, &t) in total.iter().enumerate().take(v.num_players()) {
                            let won = end.winners_mask() >> p & 1 == 1;
                            assert_eq!(t, if won { 1.0 } else { -1.0 });
                        }
                    }
                }
            }
        }
    }
}

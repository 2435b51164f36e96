//! The play-out: a round finished by one policy for every seat, and what the finished
//! round is worth ([`round_value`]). `pimc` scores a card by playing the round out after
//! it, `ismcts` values its leaves so, `pimc-dd` measures the solver's reach on the
//! positions of one, and an analysis estimates the plays the solver does not reach with
//! them ([`crate::analysis`]). Play-outs stay in the round: the next round is never dealt.
//!
//! # Two objectives, one lead
//!
//! A finished round is scored two ways, both from the same lead ([`round_lead`]: a seat's
//! round points, seals in the seal variants, minus the most any other side made):
//!
//! - [`round_value`], the search bots' objective (a mean over play-outs): the lead over
//!   the game's target (`4p`, `3p`) or the seals to win (seal variants), 0.1 more for a
//!   round won in `4p` and `3p` (R7), and ±1 more where the round ended the game;
//! - [`utility`], the exact solver's (integers, so that its windows are exact):
//!   `2 × lead ± 1` in `4p` and `3p` (+1 for a round won: a winner's lead is never
//!   negative, a loser's never positive), the lead in the seal variants, ±[`GAME_WIN`]
//!   where a seal wins the game.
//!
//! Where the round leaves the game without winners (it goes on, or the round cap cut it)
//! one converts into the other ([`round_value_of_utility`]): in `4p` and `3p` the round is
//! won exactly where the utility `u` is positive, so the lead is `(u − 1) / 2` there and
//! `(u + 1) / 2` elsewhere; in the seal variants the lead is `u` itself. A round that
//! ends the game carries the game's result, each its own way: `round_value` adds ±1 to
//! its lead, and `utility` replaces the seal variants' lead by ±[`GAME_WIN`] (and leaves
//! `4p`'s and `3p`'s as they are: there the solver weighs the round alone).

use std::convert::Infallible;
use std::ops::ControlFlow;

use yokai_septet::rules::scoring::{game_target, round_lead};
use yokai_septet::Card;
use yokai_septet::GameConfig;
use yokai_septet::{RoundResult, State};
use yokai_septet_solver::utility;
#[cfg(doc)]
use yokai_septet_solver::GAME_WIN;

use super::heuristic::HeuristicBot;

/// A round played to its end: the round's last position (its captures and scores; the
/// next round is not dealt), its result, and whether it ended the game.
#[derive(Clone, Copy, Debug)]
pub struct Finished {
    /// The round's last position.
    pub state: State,
    /// The round's result.
    pub result: RoundResult,
    /// Whether the round ended the game's episode: the rules decided it, or the episode
    /// was one round ([`yokai_septet::Episode::Round`]), or the round cap was reached.
    /// Information for callers: the value ([`round_value`]) asks whether the *rules*
    /// decided the game ([`State::is_decided`]), so that a round is valued alike however
    /// the episode around it was set to end.
    pub game_over: bool,
}

impl Finished {
    /// The round's value for `seat` ([`round_value`]).
    pub(crate) fn value(&self, seat: usize) -> f32 {
        round_value(&self.state, &self.result, seat)
    }

    /// Each seat's round value (absolute seats, 0 past the game's seats).
    pub(crate) fn values(&self) -> [f32; 4] {
        // Asked once for every seat: this runs at the end of every play-out.
        let decided = self.state.is_decided();
        let mut values = [0f32; 4];
        for (seat, v) in values.iter_mut().enumerate().take(self.state.num_players()) {
            *v = value_given(&self.state, &self.result, seat, decided);
        }
        values
    }

    /// The solver's objective for `seat`'s side on the round ([`utility`]).
    pub(crate) fn utility(&self, seat: usize) -> i32 {
        utility(
            self.state.variant(),
            &self.result,
            self.state.winners_mask(),
            seat,
        )
    }
}

/// How a play-out that may stop ([`play_out_until`]) ended.
// Returned once per play-out and taken apart at once, never stored: boxing the round's
// end would cost an allocation per play-out.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Ending<T> {
    /// The round's last card was played.
    Finished(Finished),
    /// The policy stopped before a card, saying `T`.
    Stopped(T),
}

/// The heuristic's card for the seat `p` to play in `s`: the play-out policy of every
/// search bot (`pimc-random` aside).
pub(crate) fn heuristic_card(s: &State, p: usize) -> Card {
    HeuristicBot::choose(&s.view(p))
}

/// Plays the round on from `s`, each card `step`'s for the seat to play (it sees the
/// position first, and may stop there), to the round's end; `None` where no seat is to
/// play.
///
/// # Panics
/// Where `step` plays an illegal card.
pub(crate) fn play_out_until<T>(
    mut s: State,
    mut step: impl FnMut(&State, usize) -> ControlFlow<T, Card>,
) -> Option<Ending<T>> {
    while let Some(p) = s.current_player() {
        let card = match step(&s, p) {
            ControlFlow::Continue(card) => card,
            ControlFlow::Break(stop) => return Some(Ending::Stopped(stop)),
        };
        let out = s
            .apply_in_round(card)
            .expect("play-out policies play legal cards");
        if let Some(result) = out.round {
            return Some(Ending::Finished(Finished {
                state: s,
                result,
                game_over: out.game_over,
            }));
        }
    }
    None
}

/// Plays the round out from `s` with `choose`'s card for every seat; `None` where no seat
/// is to play.
pub(crate) fn play_out(
    s: State,
    mut choose: impl FnMut(&State, usize) -> Card,
) -> Option<Finished> {
    match play_out_until(s, |s, p| {
        ControlFlow::<Infallible, _>::Continue(choose(s, p))
    })? {
        Ending::Finished(finished) => Some(finished),
        Ending::Stopped(never) => match never {},
    }
}

/// Plays `card` in `s`, then the round out, each seat's card chosen by `choose`.
///
/// # Panics
/// Where `card` is not legal in `s`.
pub fn play_card_out(
    mut s: State,
    card: Card,
    choose: impl FnMut(&State, usize) -> Card,
) -> Option<Finished> {
    let out = s
        .apply_in_round(card)
        .expect("legal in every determinization");
    match out.round {
        Some(result) => Some(Finished {
            state: s,
            result,
            game_over: out.game_over,
        }),
        None => play_out(s, choose),
    }
}

/// Each seat's round value ([`round_value`], absolute seats, 0 past the game's seats) once
/// the heuristic has played the round out from `s` (all 0 where no seat is to play): what
/// one `ismcts` playout of that world says.
pub fn heuristic_round_values(s: State) -> [f32; 4] {
    play_out(s, heuristic_card).map_or([0.0; 4], |f| f.values())
}

/// The value for `me` of a round that ended with `r` (the state is after it): the search
/// bots' objective. Its lead in the round's points (seals in the seal variants) over the
/// best other side (`round_lead` in `rules/scoring.rs`), over the game's target (seals to
/// win); in `4p` and `3p` 0.1 more for a round won (R7); ±1 more where the rules decided
/// the game with it ([`State::is_decided`]), won or lost. A round that is the whole
/// episode ([`yokai_septet::Episode::Round`]) or the round cap's last is valued as one the
/// game goes on from, unless the rules decided the game: one objective for a round, however
/// the game around it was set to end. `bots/playout.rs`'s text compares it with the
/// solver's [`utility`].
pub fn round_value(s: &State, r: &RoundResult, me: usize) -> f32 {
    value_given(s, r, me, s.is_decided())
}

/// [`round_value`], told whether the rules decided the game (`decided`).
fn value_given(s: &State, r: &RoundResult, me: usize, decided: bool) -> f32 {
    let v = s.variant();
    let lead = round_lead(v, r, me) as f32;
    let mut value = lead / game_target(s.config()) as f32;
    if !v.is_seal() {
        value += 0.1 * (r.winners >> me & 1) as f32;
    }
    if decided {
        value += if s.winners_mask() >> me & 1 == 1 {
            1.0
        } else {
            -1.0
        };
    }
    value
}

/// The [`round_value`] of a round of a game of `config` that left the game without
/// winners, from its [`utility`] for the same seat (the conversion that
/// `bots/playout.rs`'s text explains).
pub fn round_value_of_utility(config: &GameConfig, utility: i32) -> f32 {
    let v = config.variant;
    if v.is_seal() {
        return utility as f32 / game_target(config) as f32;
    }
    let won = utility > 0;
    let lead = (utility - if won { 1 } else { -1 }) / 2;
    lead as f32 / game_target(config) as f32 + 0.1 * f32::from(u8::from(won))
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::rng::{chacha, uniform_below, Stream};
    use yokai_septet::Phase;
    use yokai_septet::{Episode, Variant};
    use yokai_septet_solver::GAME_WIN;

    /// Every round of whole games (half of them by random cards, so that rounds end in
    /// every way), with the state after its last card and how it ended.
    fn finished_rounds(variant: Variant) -> Vec<Finished> {
        let mut rng = chacha(Stream::Bots, 67, 0);
        let mut rounds = Vec::new();
        for game in 0..8 {
            let mut config = GameConfig::new(variant, game);
            if game % 4 == 3 {
                config.episode = Episode::Round;
            }
            let mut s = State::new(config);
            while let Some(p) = s.current_player() {
                let legal = s.legal_actions();
                let card = if game % 2 == 0 {
                    legal.nth(uniform_below(&mut rng, legal.len())).unwrap()
                } else {
                    heuristic_card(&s, p)
                };
                let out = s.apply_in_round(card).unwrap();
                if let Some(result) = out.round {
                    rounds.push(Finished {
                        state: s,
                        result,
                        game_over: out.game_over,
                    });
                    if !out.game_over {
                        s.apply_deal(s.seeded_deal()).unwrap();
                    }
                }
            }
        }
        rounds
    }

    /// The conversion of the module's text: where the rules did not decide the game with
    /// the round (the game goes on, or its episode was the one round) its round value is
    /// its converted utility, bit for bit, for every seat; where they did the round value
    /// adds the game's ±1 (to the converted utility in `4p` and `3p`; the seal variants'
    /// utility is then ±`GAME_WIN`).
    #[test]
    fn the_round_value_is_the_converted_utility_plus_the_games_result() {
        for v in Variant::ALL {
            let rounds = finished_rounds(v);
            let (mut going_on, mut ending) = (0, 0);
            for f in &rounds {
                let config = f.state.config();
                let winners = f.state.winners_mask();
                for seat in 0..v.num_players() {
                    let (value, u) = (f.value(seat), f.utility(seat));
                    if !f.state.is_decided() {
                        going_on += 1;
                        let converted = round_value_of_utility(config, u);
                        assert_eq!(value.to_bits(), converted.to_bits(), "{v} seat {seat}");
                        continue;
                    }
                    ending += 1;
                    let game = if winners >> seat & 1 == 1 { 1.0 } else { -1.0 };
                    if v.is_seal() {
                        assert_eq!(u, game as i32 * GAME_WIN, "{v} seat {seat}");
                    } else {
                        let converted = round_value_of_utility(config, u);
                        assert_eq!(value, converted + game, "{v} seat {seat}");
                    }
                }
            }
            assert!(going_on > 0 && ending > 0, "{v}: {going_on} {ending}");
        }
    }

    /// One round, one value: the first round of a game played as the whole episode
    /// (`Episode::Round`) is valued as the same round under a cap of one round, for every
    /// seat, whether or not the rules decided the game with it (both happen here).
    #[test]
    fn a_round_is_valued_alike_as_the_episode_and_under_a_cap_of_one_round() {
        for v in Variant::ALL {
            let mut decided = [0; 2];
            for seed in 0..40 {
                let one = GameConfig::new(v, seed);
                let [episode, capped] = [
                    one.with_episode(Episode::Round),
                    one.with_max_rounds(Some(1)),
                ]
                .map(|c| play_out(State::new(c), heuristic_card).expect("a seat to play"));
                assert!(
                    episode.state.is_over() && capped.state.is_over(),
                    "{v} {seed}"
                );
                assert_eq!(episode.result, capped.result, "{v} {seed}");
                assert_eq!(episode.values(), capped.values(), "{v} {seed}");
                assert_eq!(episode.state.is_decided(), capped.state.is_decided());
                decided[usize::from(episode.state.is_decided())] += 1;
            }
            assert!(decided[0] > 0, "{v}: {decided:?}");
        }
    }

    /// A play-out stops at its round's end, never dealing the next round: the state it
    /// leaves is the round's last position, with the result it reports.
    #[test]
    fn a_play_out_ends_at_its_rounds_last_position() {
        for v in Variant::ALL {
            let s = State::new(GameConfig::new(v, 3));
            let f = play_out(s, heuristic_card).expect("a seat to play");
            assert!(
                matches!(f.state.phase(), Phase::RoundOver | Phase::Over),
                "{v}"
            );
            assert_eq!(f.state.round(), s.round(), "{v}");
            assert_eq!(f.state.last_round_result(), Some(f.result), "{v}");
            assert_eq!(heuristic_round_values(s), f.values(), "{v}");
        }
    }

    /// A card played out is that card, then the play-out of the position after it.
    #[test]
    fn a_card_played_out_is_the_play_out_after_it() {
        for v in Variant::ALL {
            let mut s = State::new(GameConfig::new(v, 8));
            while s.phase() != Phase::Play {
                let p = s.current_player().unwrap();
                s.apply(heuristic_card(&s, p)).unwrap();
            }
            for card in s.legal_actions() {
                let mut after = s;
                after.apply_in_round(card).unwrap();
                let a = play_card_out(s, card, heuristic_card).unwrap();
                let b = play_out(after, heuristic_card).unwrap();
                assert_eq!((a.result, a.values()), (b.result, b.values()), "{v} {card}");
            }
        }
    }

    /// A policy that stops is stopped where it says, with what it says.
    #[test]
    fn a_stopping_policy_stops_where_it_says() {
        let s = State::new(GameConfig::new(Variant::FourPlayer, 1));
        let mut seen = 0;
        let ending = play_out_until(s, |s, p| {
            seen += 1;
            if s.phase() == Phase::Play && s.tricks_played() == 2 && s.trick_cards().is_empty() {
                return ControlFlow::Break(s.tricks_played());
            }
            ControlFlow::Continue(heuristic_card(s, p))
        });
        assert!(matches!(ending, Some(Ending::Stopped(2))));
        assert_eq!(seen, 3 * 4 + 8 + 1);
    }
}

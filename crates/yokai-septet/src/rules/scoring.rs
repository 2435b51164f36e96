//! End of a round and scoring (R7, R8) and sealing (R9), as kernels: small functions of
//! bit sets and tallies that [`State`](crate::State) and the exact solver both call, so each
//! rule is written once. They take what decides the rule (a side's captured bosses, its
//! tricks, the seals) and return what follows; the callers keep their own tallies.

use crate::cards::{left_of, side_mask, CardSet, Suit};
use crate::rules::config::{GameConfig, Scoring, Variant};
use crate::rules::outcome::{RoundEnd, RoundResult};

/// Bosses needed to win a round (R7.1): 4 for a team, 3 for a `3p` player.
#[inline]
pub const fn boss_threshold(variant: Variant) -> u32 {
    if variant.has_teams() {
        4
    } else {
        3
    }
}

/// Tricks that lose a round without enough bosses (R7.2).
pub const LOSING_TRICKS: usize = 7;

/// Advanced-scoring value of one boss of `suit` (R1: ★ in 4-player games, ★ + ⊛ in
/// `3p`), before the trump exclusion of R8.
#[inline]
pub fn boss_value(variant: Variant, suit: Suit) -> u8 {
    if variant.has_teams() {
        suit.boss_points_4p()
    } else {
        suit.boss_points_3p()
    }
}

/// Advanced-scoring value of `bosses`, the trump suit's boss excluded (R8).
pub fn boss_points(variant: Variant, bosses: CardSet, trump: Option<Suit>) -> u16 {
    bosses
        .bosses()
        .iter()
        .filter(|c| Some(c.suit()) != trump)
        .map(|c| boss_value(variant, c.suit()) as u16)
        .sum()
}

/// R7 after a trick taken by `side`, from that side's tallies this round: the bosses it
/// captured (`captured`: its captured cards, or just their bosses), the tricks it took,
/// and the tricks played. Only the trick's taker changed, so only its side can meet R7.1
/// or R7.2 now; R7.1 is checked first. Returns the winning sides (bit `w` = side `w`) and
/// why, or `None` while the round goes on.
#[inline]
pub fn round_end(
    variant: Variant,
    side: usize,
    captured: CardSet,
    side_tricks: usize,
    tricks_played: usize,
) -> Option<(u8, RoundEnd)> {
    let this = 1u8 << side;
    if captured.bosses().len() >= boss_threshold(variant) {
        Some((this, RoundEnd::Bosses))
    } else if side_tricks >= LOSING_TRICKS {
        let all_sides = (1u8 << variant.num_sides()) - 1;
        Some((all_sides & !this, RoundEnd::Tricks))
    } else if tricks_played == variant.tricks_per_round() {
        Some((this, RoundEnd::LastTrick))
    } else {
        None
    }
}

/// R8: the points a winning side scores for a round that ended for `reason` (R7), having
/// captured `captured` (its bosses count), while `in_hands` (their bosses count in the
/// greed case) are still held.
#[inline]
pub fn winner_points(
    variant: Variant,
    scoring: Scoring,
    reason: RoundEnd,
    captured: CardSet,
    in_hands: CardSet,
    trump: Option<Suit>,
) -> u16 {
    match scoring {
        Scoring::Basic => 1,
        Scoring::Advanced if !variant.has_teams() && reason == RoundEnd::Tricks => 3,
        Scoring::Advanced => {
            let bosses = if reason == RoundEnd::Tricks {
                // R8 greed case: the winners also score every boss still in a hand.
                captured.union(in_hands).bosses()
            } else {
                captured.bosses()
            };
            boss_points(variant, bosses, trump)
        }
    }
}

/// R8: each side's points for a round won by `winners` (bit `w` = side `w`, as
/// [`round_end`] gives them) for `reason`; `captured[w]` is side `w`'s captured cards (or
/// bosses), `in_hands` the cards still held. A side that did not win scores 0.
#[inline]
pub fn round_points(
    variant: Variant,
    scoring: Scoring,
    winners: u8,
    reason: RoundEnd,
    captured: &[CardSet; 3],
    in_hands: CardSet,
    trump: Option<Suit>,
) -> [u16; 3] {
    let mut points = [0u16; 3];
    for (w, pts) in points.iter_mut().enumerate().take(variant.num_sides()) {
        if winners >> w & 1 == 1 {
            *pts = winner_points(variant, scoring, reason, captured[w], in_hands, trump);
        }
    }
    points
}

/// `seat`'s lead in a round that ended with `result`: its points (seals in the seal
/// variants) minus the most any other side made, negative when behind. Both objectives of
/// a finished round read it: the search bots' round value and the exact solver's utility
/// (`bots/playout.rs` compares them).
pub fn round_lead(variant: Variant, result: &RoundResult, seat: usize) -> i32 {
    let theirs = (0..variant.num_players())
        .filter(|&p| variant.side_of(p) != variant.side_of(seat))
        .map(|p| result.points[p])
        .max()
        .unwrap_or(0);
    i32::from(result.points[seat]) - i32::from(theirs)
}

/// The game's winners once a side has reached the target with `scores` (R8). In `3p` a tie
/// for the most points goes to the tied player first in clockwise order from the left of
/// `last_winner` (the tie can only follow R7.2, where `last_winner` took the seventh trick).
pub fn game_winners(v: Variant, scores: &[u16; 3], last_winner: usize) -> u8 {
    if v.has_teams() {
        let best = if scores[0] >= scores[1] { 0 } else { 1 };
        return side_mask(v, best);
    }
    let top = *scores.iter().max().unwrap_or(&0);
    let seat = (1..=3)
        .map(|k| left_of(last_winner, k, 3))
        .find(|&p| scores[p] == top)
        .unwrap_or(last_winner);
    1 << seat
}

/// Suits (bit mask) that `team` can no longer seal (R9): those it sealed already, and in
/// `seal-short` those either team sealed.
#[inline]
pub fn blocked_seals(variant: Variant, seals: [u8; 2], team: usize) -> u8 {
    match variant {
        Variant::SealShort => seals[0] | seals[1],
        _ => seals[team],
    }
}

/// R9: the suits (bit `s` = suit `s`) whose two boss copies are both in `captured`.
#[inline]
pub const fn sealed_suits(captured: CardSet) -> u8 {
    captured.first_boss_suits() & captured.second_boss_suits()
}

/// R9 after a trick that captured `trick` for a team whose captures this round are now
/// `team_captured` (the trick's included) and that cannot seal `blocked`
/// ([`blocked_seals`]): the suits newly sealed, a bit mask in which ascending order is
/// the order they are made. A trick without a boss seals nothing.
#[inline]
pub fn new_seals(trick: CardSet, team_captured: CardSet, blocked: u8) -> u8 {
    if trick.bosses().is_empty() {
        return 0;
    }
    sealed_suits(team_captured) & !blocked
}

/// Seals needed to win: all 7 in `seal`, 4 in `seal-short`.
#[inline]
pub const fn seals_to_win(variant: Variant) -> u32 {
    match variant {
        Variant::SealShort => 4,
        _ => 7,
    }
}

/// What wins a game of `config`, and so the unit a round's margin is measured in: the
/// scoring's points target (R8: 7 advanced, 2 basic), or in the seal variants the seals to
/// win (R9).
#[inline]
pub const fn game_target(config: &GameConfig) -> u16 {
    if config.variant.is_seal() {
        seals_to_win(config.variant) as u16
    } else {
        config.scoring.target()
    }
}

/// R9 round and game end after a trick of a seal round, its seals made: `Sealed` when
/// the trick's team (its seals over the game now `team_seals`) has won the game, else
/// `Complete` after the round's last trick, else `None`.
#[inline]
pub fn seal_round_end(variant: Variant, team_seals: u8, tricks_played: usize) -> Option<RoundEnd> {
    if team_seals.count_ones() >= seals_to_win(variant) {
        Some(RoundEnd::Sealed)
    } else if tricks_played == variant.tricks_per_round() {
        Some(RoundEnd::Complete)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    //! R7–R9 on explicit positions: a fresh state whose captured cards, trick counts and
    //! hands are made up with [`Position`], then the end-of-trick check run on it and its
    //! result applied as `State::apply` applies it.
    use super::*;
    use crate::rules::outcome::RoundResult;
    use crate::rules::position::Position;
    use crate::rules::state::State;

    fn cs(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    /// A play-phase position of `variant` with the given trump suit and nothing captured.
    fn position(variant: Variant, scoring: Scoring, trump: Suit) -> State {
        Position::play(variant, scoring, trump).build()
    }

    fn capture(s: &mut State, seat: usize, cards: &str, tricks: u8) {
        *s = Position::from(*s).captured(seat, cs(cards), tricks).build();
    }

    /// [`State::round_score`] (built on [`super::round_end`]), its score applied to `s`.
    fn round_end(s: &mut State, winner: usize) -> Option<RoundResult> {
        let score = s.round_score(winner)?;
        s.add_round_score(&score);
        Some(score.result)
    }

    /// [`State::seal`] (built on [`new_seals`]), the seals applied to `s`.
    fn make_seals(s: &mut State, winner: usize, cards: CardSet) -> u8 {
        s.seal(winner, cards)
    }

    /// [`State::seal_round_score`] (built on [`super::seal_round_end`]) after a trick won
    /// by the last trick's winner, its score applied to `s`.
    fn seal_round_end(s: &mut State) -> Option<RoundResult> {
        let score = s.seal_round_score(s.last_trick_winner as usize)?;
        s.add_round_score(&score);
        Some(score.result)
    }

    #[test]
    fn r8_rulebook_example_1_trump_boss_scores_nothing() {
        // Team A (seats 0, 2) captures four bosses, one of them the trump suit's: the
        // rulebook totals 3 points, the trump boss 0.
        let mut s = position(Variant::FourPlayer, Scoring::Advanced, Suit::Fire);
        capture(&mut s, 0, "S7 D7", 3);
        capture(&mut s, 2, "E7 F7", 2);
        capture(&mut s, 1, "W2", 1);
        let r = round_end(&mut s, 2).expect("four bosses end the round");
        assert_eq!(r.reason, RoundEnd::Bosses);
        assert_eq!(r.winners, 0b0101);
        assert_eq!(r.points, [3, 0, 3, 0]);
        assert_eq!(s.scores(), [3, 0, 3, 0]);
    }

    #[test]
    fn r8_rulebook_example_2_greed_scores_bosses_in_hands() {
        // Team A takes its 7th trick holding only 2 bosses, so team B wins and scores its
        // own bosses (L7 = 1, trump C7 = 0, F7 = 2) and those still in hands (D7 = 1,
        // E7 = 0): 4 points in all.
        let mut s = position(Variant::FourPlayer, Scoring::Advanced, Suit::Charm);
        capture(&mut s, 0, "W7 S7", 4);
        capture(&mut s, 2, "W2", 3);
        capture(&mut s, 1, "L7 C7 F7", 2);
        s = Position::from(s)
            .hand(1, cs("D7 W3"))
            .hand(2, cs("E7"))
            .build();
        let r = round_end(&mut s, 2).expect("7 tricks end the round");
        assert_eq!(r.reason, RoundEnd::Tricks);
        assert_eq!(r.winners, 0b1010);
        assert_eq!(r.points, [0, 4, 0, 4]);
    }

    #[test]
    fn r7_bosses_are_checked_before_tricks() {
        // The 7th trick also brings the 4th boss: R7.1 holds first, the taker's team wins.
        let mut s = position(Variant::FourPlayer, Scoring::Advanced, Suit::Wind);
        capture(&mut s, 0, "W7 E7 C7 L7", 7);
        let r = round_end(&mut s, 0).unwrap();
        assert_eq!(r.reason, RoundEnd::Bosses);
        assert_eq!(r.winners, 0b0101);
        assert_eq!(r.points[0], 2); // W7 is trump (0), E7 0, C7 1, L7 1
    }

    #[test]
    fn r7_wind_and_trump_bosses_count_toward_thresholds() {
        let mut s = position(Variant::FourPlayer, Scoring::Advanced, Suit::Earth);
        capture(&mut s, 1, "W7 E7 C7", 2);
        assert_eq!(round_end(&mut s, 1), None);
        capture(&mut s, 3, "S7", 1);
        let r = round_end(&mut s, 3).unwrap();
        assert_eq!((r.reason, r.winners), (RoundEnd::Bosses, 0b1010));
        assert_eq!(r.points, [0, 3, 0, 3]); // W7 0, E7 trump 0, C7 1, S7 2
    }

    #[test]
    fn r7_last_trick_wins_when_nothing_else_holds() {
        let mut s = position(Variant::FourPlayer, Scoring::Advanced, Suit::Snow);
        capture(&mut s, 0, "F7", 6);
        capture(&mut s, 1, "S7 D7", 5);
        assert_eq!(round_end(&mut s, 1), None);
        capture(&mut s, 1, "W2", 1);
        let r = round_end(&mut s, 1).unwrap();
        assert_eq!((r.reason, r.winners), (RoundEnd::LastTrick, 0b1010));
        assert_eq!(r.points, [0, 1, 0, 1]); // S7 is trump: only D7 scores
    }

    #[test]
    fn r7_3p_three_bosses_win_alone() {
        let mut s = position(Variant::ThreePlayer, Scoring::Advanced, Suit::Wind);
        capture(&mut s, 2, "E7 F7", 2);
        assert_eq!(round_end(&mut s, 2), None);
        capture(&mut s, 2, "S7", 1);
        let r = round_end(&mut s, 2).unwrap();
        assert_eq!((r.reason, r.winners), (RoundEnd::Bosses, 0b100));
        assert_eq!(r.points, [0, 0, 7, 0]); // 3p points: E7 1, F7 3, S7 3
        assert_eq!(s.winners, 0b100, "7 points end the game");
    }

    #[test]
    fn r8_3p_seven_tricks_give_both_others_three() {
        let mut s = position(Variant::ThreePlayer, Scoring::Advanced, Suit::Wind);
        capture(&mut s, 1, "S7 F7", 7);
        let r = round_end(&mut s, 1).unwrap();
        assert_eq!((r.reason, r.winners), (RoundEnd::Tricks, 0b101));
        assert_eq!(r.points, [3, 0, 3, 0]);
    }

    #[test]
    fn r8_3p_tie_goes_to_the_left_of_the_seven_trick_taker() {
        let mut s = position(Variant::ThreePlayer, Scoring::Advanced, Suit::Wind);
        s = Position::from(s).side_scores([4, 2, 4]).build();
        capture(&mut s, 1, "W7", 7);
        round_end(&mut s, 1).unwrap();
        assert_eq!(&s.side_scores, &[7, 2, 7]);
        assert_eq!(s.winners, 1 << 2, "seat 2 sits left of seat 1");
        let mut s = position(Variant::ThreePlayer, Scoring::Advanced, Suit::Wind);
        s = Position::from(s).side_scores([4, 4, 2]).build();
        capture(&mut s, 2, "W7", 7);
        round_end(&mut s, 2).unwrap();
        assert_eq!(s.winners, 1 << 0, "seat 0 sits left of seat 2");
    }

    #[test]
    fn r8_basic_scoring_one_point_per_round_won() {
        let mut s = position(Variant::FourPlayer, Scoring::Basic, Suit::Wind);
        s = Position::from(s).side_scores([1, 0, 0]).build();
        capture(&mut s, 0, "S7 F7 D7 L7", 4);
        let r = round_end(&mut s, 0).unwrap();
        assert_eq!(r.points, [1, 0, 1, 0]);
        assert_eq!(s.winners, 0b0101, "2 points end a basic game");
        let mut s = position(Variant::ThreePlayer, Scoring::Basic, Suit::Wind);
        capture(&mut s, 0, "W2", 7);
        let r = round_end(&mut s, 0).unwrap();
        assert_eq!(r.points, [0, 1, 1, 0]);
        assert_eq!(s.winners, 0);
    }

    #[test]
    fn r8_game_continues_below_target() {
        let mut s = position(Variant::FourPlayer, Scoring::Advanced, Suit::Wind);
        s = Position::from(s).side_scores([3, 6, 0]).build();
        capture(&mut s, 0, "S7 F7 D7 W7", 4);
        round_end(&mut s, 0).unwrap();
        assert_eq!(s.side_scores[0], 8);
        assert_eq!(s.winners, 0b0101);
        let mut s = position(Variant::FourPlayer, Scoring::Advanced, Suit::Wind);
        capture(&mut s, 0, "E7 W7 C7 L7", 4);
        round_end(&mut s, 0).unwrap();
        assert_eq!(s.winners, 0, "2 points do not reach 7");
    }

    #[test]
    fn r9_seal_needs_both_copies_in_one_team() {
        let mut s = position(Variant::Seal, Scoring::Advanced, Suit::Wind);
        capture(&mut s, 0, "F7", 1);
        assert_eq!(make_seals(&mut s, 0, cs("F7")), 0);
        capture(&mut s, 1, "S7 S7b", 1);
        assert_eq!(make_seals(&mut s, 1, cs("S7 S7b")), 1 << Suit::Snow as u8);
        capture(&mut s, 2, "F7b", 1);
        assert_eq!(
            make_seals(&mut s, 2, cs("F7b")),
            1 << Suit::Fire as u8,
            "partners combine"
        );
        assert_eq!(s.seals, [1 << 5, 1 << 6]);
        assert_eq!(s.scores(), [1, 1, 1, 1]);
        // Re-sealing a suit the team holds is not a new seal.
        s = Position::from(s).nothing_captured().build();
        capture(&mut s, 0, "F7 F7b", 1);
        assert_eq!(make_seals(&mut s, 0, cs("F7 F7b")), 0);
    }

    #[test]
    fn r9_seal_short_suits_are_sealed_once_per_game() {
        let mut s = position(Variant::SealShort, Scoring::Advanced, Suit::Wind);
        s = Position::from(s).seals([0, 1 << Suit::Earth as u8]).build();
        capture(&mut s, 0, "E7 E7b C7 C7b", 2);
        let new = make_seals(&mut s, 0, cs("E7 C7b"));
        assert_eq!(
            new,
            1 << Suit::Charm as u8,
            "Earth is already sealed by the other team"
        );
        let mut s = position(Variant::Seal, Scoring::Advanced, Suit::Wind);
        s = Position::from(s).seals([0, 1 << Suit::Earth as u8]).build();
        capture(&mut s, 0, "E7 E7b", 1);
        assert_eq!(
            make_seals(&mut s, 0, cs("E7 E7b")),
            1 << Suit::Earth as u8,
            "seal: each team its own"
        );
    }

    #[test]
    fn r9_winning_seal_ends_the_game_at_once() {
        let mut s = position(Variant::SealShort, Scoring::Advanced, Suit::Wind);
        s = Position::from(s).seals([0b0000_0111, 0]).build();
        s = Position::from(s).side_scores([3, 0, 0]).build();
        capture(&mut s, 2, "S7 S7b F7 F7b", 2);
        let new = make_seals(&mut s, 2, cs("S7b F7b"));
        assert_eq!(new, 0b0110_0000, "two seals at once, both made");
        s = Position::from(s).last_trick_winner(2).build();
        let r = seal_round_end(&mut s).expect("five seals win seal-short");
        assert_eq!((r.reason, r.winners), (RoundEnd::Sealed, 0b0101));
        assert_eq!(r.points, [2, 0, 2, 0]);
        assert_eq!(s.scores(), [5, 0, 5, 0]);
    }

    #[test]
    fn r9_round_without_a_win_is_complete() {
        let mut s = position(Variant::Seal, Scoring::Advanced, Suit::Wind);
        s = Position::from(s).seals([0b0011_1111, 0]).build();
        capture(&mut s, 1, "W2", 13);
        s = Position::from(s).last_trick_winner(1).build();
        assert_eq!(seal_round_end(&mut s), None, "13 tricks: the round goes on");
        capture(&mut s, 1, "W3", 1);
        let r = seal_round_end(&mut s).unwrap();
        assert_eq!((r.reason, r.winners), (RoundEnd::Complete, 0));
    }
}

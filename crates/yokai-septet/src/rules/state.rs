//! The position (OpenSpiel's "State"): a small `Copy` value holding a whole game in
//! progress. `apply` and `legal_actions` never allocate.
//!
//! The rules of each phase live in their own modules: [`super::passing`] (R4.2–R4.3),
//! [`super::trick`] (R5–R6), [`super::scoring`] (R7–R9). This module owns the state and
//! sequences them.

use super::play_log::PlayLog;
use super::{passing, scoring, trick};
use crate::cards::{left_of, team_of, team_seats, Card, CardSet, Suit};
use crate::error::{DealError, IllegalAction};
use crate::names;
use crate::rules::config::{Episode, GameConfig, Scoring, Variant};
use crate::rules::deal::Deal;
use crate::rules::outcome::{Outcome, RoundEnd, RoundResult, TrickResult};

/// Whose decision it is, and what kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Passing picks (R4.2): one card per action, seat by seat.
    Pass,
    /// Playing tricks (R5).
    Play,
    /// A round has ended and the game goes on: the finished round's last position, until
    /// the next round is dealt with [`State::apply_deal`]. [`State::apply`] deals it from
    /// the seed at once, so only [`State::apply_in_round`] stops here.
    RoundOver,
    /// The game (or the episode) is over.
    Over,
}

names!(Phase {
    Pass => "pass",
    Play => "play",
    RoundOver => "round_over",
    Over => "over",
});

/// What a round's end does to the game, for [`State`] to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RoundScore {
    pub(super) result: RoundResult,
    /// Points each side adds to its game score (seal variants: 0, the seals were counted
    /// as they were made).
    pub(super) side_points: [u16; 3],
    /// The game's winners (a seat mask) when this round ends the game by the rules, else 0.
    pub(super) game_winners: u8,
}

const NO_SEAT: u8 = u8::MAX;
const NO_SUIT: u8 = u8::MAX;

/// A whole game in progress. `Copy`, fixed size, no heap.
///
/// Its fields are private to the rules (`pub(super)`: this module and its siblings
/// `passing`, `trick` and `scoring` read them). Only this type writes them: the phase
/// functions return what changed, and [`State::apply`] applies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(super) config: GameConfig,
    pub(super) phase: Phase,
    pub(super) current: u8,
    /// Round index, 0-based.
    pub(super) round: u32,

    // ---- this round ----
    pub(super) deal: Deal,
    pub(super) hands: [CardSet; 4],
    /// Passing picks in the order made; `num_picks[p]` are valid.
    pub(super) picks: [[Card; 3]; 4],
    pub(super) num_picks: [u8; 4],
    pub(super) trump: u8,
    /// The round's first leader (`NO_SEAT` until known).
    pub(super) round_leader: u8,
    pub(super) trick_leader: u8,
    pub(super) trick: [Card; 4],
    pub(super) trick_len: u8,
    /// Tricks completed this round.
    pub(super) tricks_played: u8,
    /// Every card played this round, current trick included, and by whom.
    pub(super) played_by: [CardSet; 4],
    /// Cards captured per seat this round.
    pub(super) won: [CardSet; 4],
    pub(super) tricks_won: [u8; 4],
    /// Suits (bit mask) each seat has shown void in by not following (public).
    pub(super) voids: [u8; 4],
    /// How each card of this round's completed tricks was played (public).
    pub(super) play_log: PlayLog,
    /// Seals made this round per team (seal variants).
    pub(super) round_seals: [u8; 2],

    // ---- the game ----
    /// Points per side (team in 4p, player in 3p; seal: sealed suits count).
    pub(super) side_scores: [u16; 3],
    /// Suits sealed per team (bit masks), kept across rounds.
    pub(super) seals: [u8; 2],
    /// Winner of the last completed trick (leads the next round).
    pub(super) last_trick_winner: u8,
    pub(super) last_result: Option<RoundResult>,
    /// Game winners as a seat mask.
    pub(super) winners: u8,
    pub(super) truncated: bool,
}

impl State {
    /// A new game dealt from the config's seed.
    pub fn new(config: GameConfig) -> State {
        let deal = Deal::from_seed(config.variant, config.seed, 0);
        State::with_deal(config, deal)
    }

    /// A new game whose first round uses `deal` (validated by [`Deal::from_ids`]);
    /// later rounds are dealt from the seed.
    pub fn with_deal(mut config: GameConfig, deal: Deal) -> State {
        if config.variant.is_seal() {
            // The seal variants ignore the scoring mode (R3); one value keeps equal games
            // equal, and a game equal to its replayed record.
            config.scoring = Scoring::Advanced;
        }
        let mut s = State {
            config,
            phase: Phase::Pass,
            current: 0,
            round: 0,
            deal,
            hands: deal.hands,
            picks: [[Card::ACE; 3]; 4],
            num_picks: [0; 4],
            trump: NO_SUIT,
            round_leader: NO_SEAT,
            trick_leader: NO_SEAT,
            trick: [Card::ACE; 4],
            trick_len: 0,
            tricks_played: 0,
            played_by: [CardSet::EMPTY; 4],
            won: [CardSet::EMPTY; 4],
            tricks_won: [0; 4],
            voids: [0; 4],
            play_log: PlayLog::EMPTY,
            round_seals: [0; 2],
            side_scores: [0; 3],
            seals: [0; 2],
            last_trick_winner: NO_SEAT,
            last_result: None,
            winners: 0,
            truncated: false,
        };
        s.start_round(deal);
        s
    }

    /// The one entry point that deals: in [`Phase::RoundOver`] it deals the next round;
    /// before the first passing pick of a round it replaces that round's deal (replaying
    /// recorded deals, duplicate matches, a deal from outside). A deal that is not the
    /// variant's deck, or a deal at any other time, is a [`DealError`] and changes nothing.
    pub fn apply_deal(&mut self, deal: Deal) -> Result<(), DealError> {
        match self.phase {
            Phase::Over => return Err(DealError::GameOver),
            Phase::Play => return Err(DealError::RoundInProgress),
            Phase::Pass if self.num_picks.iter().any(|&n| n > 0) => {
                return Err(DealError::RoundInProgress)
            }
            Phase::Pass | Phase::RoundOver => {}
        }
        deal.check(self.config.variant)?;
        self.deal_round(deal);
        Ok(())
    }

    /// The deal the seeded dealer gives the next round (in [`Phase::RoundOver`]) or the
    /// round in progress (otherwise): what [`State::apply`] deals.
    pub fn seeded_deal(&self) -> Deal {
        let round = self.round + (self.phase == Phase::RoundOver) as u32;
        Deal::from_seed(self.config.variant, self.config.seed, round as u64)
    }

    /// Deals `deal` (already valid): the next round from [`Phase::RoundOver`], else the
    /// round in progress again.
    fn deal_round(&mut self, deal: Deal) {
        if self.phase == Phase::RoundOver {
            self.round += 1;
        }
        self.start_round(deal);
    }

    fn start_round(&mut self, deal: Deal) {
        self.deal = deal;
        self.hands = deal.hands;
        self.num_picks = [0; 4];
        self.trump = match deal.trump_card {
            Some(c) => c.suit() as u8,
            None => NO_SUIT,
        };
        // Round 0's leader is found after passing (R4.3); later rounds' is known now.
        self.round_leader = self.last_trick_winner;
        self.trick_leader = self.last_trick_winner;
        self.trick_len = 0;
        self.tricks_played = 0;
        self.played_by = [CardSet::EMPTY; 4];
        self.won = [CardSet::EMPTY; 4];
        self.tricks_won = [0; 4];
        self.voids = [0; 4];
        self.play_log = PlayLog::EMPTY;
        self.round_seals = [0; 2];
        self.phase = Phase::Pass;
        self.current = 0;
    }

    // ------------------------------------------------------------------ queries

    /// The game's configuration.
    #[inline]
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The game's variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.config.variant
    }

    /// Players at the table.
    #[inline]
    pub fn num_players(&self) -> usize {
        self.config.variant.num_players()
    }

    /// Whose decision it is, and what kind.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the game (or the episode) is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whether the game ended by the round cap rather than by the rules.
    #[inline]
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Whether the rules decided the game: a side reached the scoring's target (R8) or a
    /// team sealed (R9). A game the round cap stops is not decided, and neither is an
    /// episode of one round ([`Episode::Round`]) that ended without either, though it has
    /// winners (the round's).
    #[inline]
    pub fn is_decided(&self) -> bool {
        if self.phase != Phase::Over || self.winners == 0 {
            return false;
        }
        let v = self.config.variant;
        // A seal round has winners only where a team sealed, which wins the game (R9).
        v.is_seal()
            || self.side_scores[..v.num_sides()]
                .iter()
                .any(|&sc| sc >= self.config.scoring.target())
    }

    /// The seat to act, or `None` when the game is over or a round waits for its deal
    /// ([`Phase::RoundOver`]).
    #[inline]
    pub fn current_player(&self) -> Option<usize> {
        matches!(self.phase, Phase::Pass | Phase::Play).then_some(self.current as usize)
    }

    /// Round index (0-based) of the round in progress (or the last one, when over).
    #[inline]
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The current round's deal (hands before passing, face-up card).
    #[inline]
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// `seat`'s hand now. During passing: the dealt hand, picked cards included.
    #[inline]
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }

    /// `seat`'s passing picks this round, in order.
    #[inline]
    pub fn picks(&self, seat: usize) -> &[Card] {
        &self.picks[seat][..self.num_picks[seat] as usize]
    }

    /// The trump suit of the round (`None` in a seal round before its first lead).
    #[inline]
    pub fn trump_suit(&self) -> Option<Suit> {
        Suit::from_index(self.trump as usize)
    }

    /// The face-up card that named the trump suit (`4p`, `3p`; `None` in the seal
    /// variants).
    #[inline]
    pub fn trump_card(&self) -> Option<Card> {
        self.deal.trump_card
    }

    /// The round's first leader, once known.
    #[inline]
    pub fn round_leader(&self) -> Option<usize> {
        (self.round_leader != NO_SEAT).then_some(self.round_leader as usize)
    }

    /// The leader of the trick in progress (or about to start), once known.
    #[inline]
    pub fn trick_leader(&self) -> Option<usize> {
        (self.trick_leader != NO_SEAT).then_some(self.trick_leader as usize)
    }

    /// Cards of the trick in progress, in play order from its leader.
    #[inline]
    pub fn trick_cards(&self) -> &[Card] {
        &self.trick[..self.trick_len as usize]
    }

    /// The cards of the trick in progress, as a set (without a branch on its length: the
    /// observation encoder reads it at every step).
    #[inline]
    pub fn trick_set(&self) -> CardSet {
        let len = self.trick_len as usize;
        let bits = (0..4).fold(0u64, |m, i| {
            let keep = ((i < len) as u64).wrapping_neg();
            m | (1u64 << (self.trick[i].id() & 63)) & keep
        });
        CardSet(bits)
    }

    /// The suit led in the trick in progress as a one-bit mask over suits (0 before its
    /// first card), without a branch.
    #[inline]
    pub fn led_suit_mask(&self) -> u8 {
        ((self.trick_len > 0) as u8) << (self.trick[0].suit() as u8)
    }

    /// The suit led in the trick in progress.
    #[inline]
    pub fn led_suit(&self) -> Option<Suit> {
        (self.trick_len > 0).then(|| self.trick[0].suit())
    }

    /// Tricks completed this round.
    #[inline]
    pub fn tricks_played(&self) -> usize {
        self.tricks_played as usize
    }

    /// Cards `seat` has played this round (current trick included).
    #[inline]
    pub fn played_by(&self, seat: usize) -> CardSet {
        self.played_by[seat]
    }

    /// Every card played this round.
    #[inline]
    pub fn played(&self) -> CardSet {
        self.played_by
            .iter()
            .fold(CardSet::EMPTY, |a, &b| a.union(b))
    }

    /// Cards `seat` has captured this round.
    #[inline]
    pub fn won_cards(&self, seat: usize) -> CardSet {
        self.won[seat]
    }

    /// Tricks `seat` has taken this round.
    #[inline]
    pub fn tricks_won(&self, seat: usize) -> usize {
        self.tricks_won[seat] as usize
    }

    /// Suits `seat` has publicly shown void in this round (bit `s` = suit `s`).
    #[inline]
    pub fn voids(&self, seat: usize) -> u8 {
        self.voids[seat]
    }

    /// How each card played this round was played (public): led, went ahead, off suit;
    /// the trick in progress included.
    pub fn play_log(&self) -> PlayLog {
        let mut log = self.play_log;
        let cards = self.trick_cards();
        if let Some(lead) = cards.first() {
            // A seal round's trump is its first lead's suit: set by now.
            let trump = self.trump_suit().unwrap_or(lead.suit());
            log.record(*lead, self.trick_set(), trick::play_out(cards, trump).1);
        }
        log
    }

    /// Score of `seat`'s side (teammates share their team's total; seal: suits sealed).
    #[inline]
    pub fn score(&self, seat: usize) -> u16 {
        self.side_scores[self.config.variant.side_of(seat)]
    }

    /// Scores per seat.
    pub fn scores(&self) -> [u16; 4] {
        let mut out = [0; 4];
        for (p, o) in out.iter_mut().enumerate().take(self.num_players()) {
            *o = self.score(p);
        }
        out
    }

    /// Suits sealed by `team` (bit mask), seal variants.
    #[inline]
    pub fn seals(&self, team: usize) -> u8 {
        self.seals[team]
    }

    /// Seals `team` made in the round in progress (count).
    #[inline]
    pub fn round_seals(&self, team: usize) -> u8 {
        self.round_seals[team]
    }

    /// The result of the last completed round.
    #[inline]
    pub fn last_round_result(&self) -> Option<RoundResult> {
        self.last_result
    }

    /// Game winners as a seat mask (0 until over; 0 also when truncated); in an episode of
    /// one round ([`Episode::Round`]), the round's winners.
    #[inline]
    pub fn winners_mask(&self) -> u8 {
        self.winners
    }

    /// Game winners, ascending seats.
    pub fn winners(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).filter(move |p| self.winners >> p & 1 == 1)
    }

    /// `seat`'s passing pick `k` once it has made all three (the seal variants, whose
    /// picks are read after the exchange), without a check on the pick count: the
    /// observation encoder reads it at every step.
    #[inline]
    pub(crate) fn pick_after_exchange(&self, seat: usize, k: usize) -> Card {
        debug_assert_eq!(self.num_picks[seat], 3);
        self.picks[seat][k]
    }

    /// The legal actions now, as a set of card ids. Empty when the game is over.
    #[inline]
    pub fn legal_actions(&self) -> CardSet {
        let p = self.current as usize;
        match self.phase {
            Phase::Pass => passing::legal_picks(self.hands[p], self.picks(p)),
            Phase::Play => trick::legal_plays(self.hands[p], self.led_suit()),
            Phase::RoundOver | Phase::Over => CardSet::EMPTY,
        }
    }

    // ------------------------------------------------------------------ actions

    /// The card a raw action number names, if the game is not over and the number is a
    /// card id of this variant (`GameOver` / `OutOfRange` otherwise). Legality is
    /// [`apply`](Self::apply)'s business.
    pub fn card_for_action(&self, action: i128) -> Result<Card, IllegalAction> {
        match self.phase {
            Phase::Over => return Err(IllegalAction::GameOver),
            Phase::RoundOver => return Err(IllegalAction::AwaitingDeal),
            Phase::Pass | Phase::Play => {}
        }
        let n = self.config.num_actions();
        if action < 0 || action >= n as i128 {
            return Err(IllegalAction::OutOfRange {
                action,
                num_actions: n,
            });
        }
        Ok(Card::from_id_unchecked(action as u8))
    }

    /// Applies the current player's decision given as a raw action number.
    pub fn apply_action(&mut self, action: i128) -> Result<Outcome, IllegalAction> {
        let card = self.card_for_action(action)?;
        self.apply(card)
    }

    /// Applies the current player's decision: a passing pick or a card play. A move that
    /// ends a round and not the game also deals the next round from the seed (the default
    /// dealer); [`State::apply_in_round`] stops at the round's end instead.
    /// On error nothing changes.
    #[inline]
    pub fn apply(&mut self, card: Card) -> Result<Outcome, IllegalAction> {
        let out = self.apply_in_round(card)?;
        if self.phase == Phase::RoundOver {
            let deal = self.seeded_deal();
            self.deal_round(deal);
        }
        Ok(out)
    }

    /// As [`State::apply`], but a move that ends a round (and not the game) leaves the
    /// state in [`Phase::RoundOver`]: the finished round's last position (its captures,
    /// its last trick, its scores), until [`State::apply_deal`] deals the next round.
    /// On error nothing changes.
    // Not `#[inline]`: compiled once here, beside the rule functions it calls. Inlined
    // into the callers in other crates it compiled to slower code (more of its `Outcome`
    // stored on a card that does not end a trick).
    pub fn apply_in_round(&mut self, card: Card) -> Result<Outcome, IllegalAction> {
        let p = self.current as usize;
        match self.phase {
            Phase::Over => Err(IllegalAction::GameOver),
            Phase::RoundOver => Err(IllegalAction::AwaitingDeal),
            Phase::Pass => {
                passing::check_pick(self.hands[p], self.picks(p), p, card)?;
                self.pick(p, card);
                Ok(Outcome::default())
            }
            Phase::Play => {
                trick::check_play(self.hands[p], self.led_suit(), p, card)?;
                Ok(self.play(p, card))
            }
        }
    }

    fn pick(&mut self, p: usize, card: Card) {
        let k = self.num_picks[p] as usize;
        self.picks[p][k] = card;
        self.num_picks[p] += 1;
        if k + 1 < self.config.variant.pass_count() {
            return;
        }
        if p + 1 < self.num_players() {
            self.current += 1;
            return;
        }
        self.hands = passing::exchange(self.config.variant, self.hands, &self.picks);
        let leader = if self.round == 0 {
            passing::first_round_leader(&self.hands[..self.num_players()], self.deal.trump_card)
        } else {
            self.last_trick_winner as usize
        };
        self.round_leader = leader as u8;
        self.trick_leader = leader as u8;
        self.current = leader as u8;
        self.phase = Phase::Play;
    }

    fn play(&mut self, p: usize, card: Card) -> Outcome {
        let n = self.num_players();
        self.hands[p].remove(card);
        self.played_by[p].insert(card);
        if self.trick_len == 0 {
            if self.trump == NO_SUIT {
                // R9: in a seal round the first lead fixes the trump suit.
                self.trump = card.suit() as u8;
            }
        } else {
            let led = self.trick[0].suit();
            if card.suit() != led {
                self.voids[p] |= 1 << led as u8;
            }
        }
        // `& 3`: trick_len < n <= 4 here; the mask lets the compiler drop the bounds check.
        self.trick[self.trick_len as usize & 3] = card;
        self.trick_len += 1;
        if (self.trick_len as usize) < n {
            self.current = left_of(p, 1, n) as u8;
            return Outcome::default();
        }
        self.finish_trick()
    }

    fn finish_trick(&mut self) -> Outcome {
        let n = self.num_players();
        // Set by now (a seal round's first lead fixes it).
        let trump = Suit::from_index(self.trump as usize).unwrap_or(Suit::Wind);
        let (first, ahead) = trick::play_out(&self.trick[..n], trump);
        let winner = left_of(self.trick_leader as usize, first, n);
        let cards = CardSet(self.trick[..n].iter().fold(0, |a, c| a | 1u64 << c.id()));
        self.play_log.record(self.trick[0], cards, ahead);
        let result = TrickResult {
            leader: self.trick_leader,
            cards: self.trick,
            len: n as u8,
            winner: winner as u8,
        };
        self.won[winner] = self.won[winner].union(cards);
        self.tricks_won[winner] += 1;
        self.tricks_played += 1;
        self.trick_len = 0;
        self.last_trick_winner = winner as u8;
        self.trick_leader = winner as u8;
        self.current = winner as u8;

        let mut out = Outcome {
            trick: Some(result),
            ..Outcome::default()
        };
        let score = if self.config.variant.is_seal() {
            out.new_seals = self.seal(winner, cards);
            self.seal_round_score(winner)
        } else {
            self.round_score(winner)
        };
        if let Some(score) = score {
            self.add_round_score(&score);
            out.round = Some(score.result);
            self.end_round(score.result, score.game_winners != 0);
            out.game_over = self.phase == Phase::Over;
        }
        out
    }

    /// R9: records the seals made by the trick `winner`'s team took with `cards`, and
    /// returns them (a bit mask over suits).
    pub(super) fn seal(&mut self, winner: usize, cards: CardSet) -> u8 {
        let team = team_of(winner);
        let blocked = scoring::blocked_seals(self.config.variant, self.seals, team);
        let new = scoring::new_seals(cards, self.side_won(team), blocked);
        if new != 0 {
            let k = new.count_ones() as u8;
            self.seals[team] |= new;
            self.round_seals[team] += k;
            self.side_scores[team] += k as u16;
        }
        new
    }

    /// Cards captured this round by `side`.
    #[inline]
    fn side_won(&self, side: usize) -> CardSet {
        if self.config.variant.has_teams() {
            let [a, b] = team_seats(side);
            self.won[a].union(self.won[b])
        } else {
            self.won[side]
        }
    }

    /// Tricks taken this round by `side`.
    #[inline]
    fn side_tricks(&self, side: usize) -> usize {
        if self.config.variant.has_teams() {
            let [a, b] = team_seats(side);
            self.tricks_won[a] as usize + self.tricks_won[b] as usize
        } else {
            self.tricks_won[side] as usize
        }
    }

    /// R7 for `4p`/`3p`, checked after the trick won by `winner`; on a round end also its
    /// score (R8) and, when a side reaches the target, the game's winners.
    pub(super) fn round_score(&self, winner: usize) -> Option<RoundScore> {
        let v = self.config.variant;
        let n = v.num_players();
        let side = v.side_of(winner);
        let (winning_sides, reason) = scoring::round_end(
            v,
            side,
            self.side_won(side),
            self.side_tricks(side),
            self.tricks_played as usize,
        )?;
        let mut captured = [CardSet::EMPTY; 3];
        for (w, c) in captured.iter_mut().enumerate().take(v.num_sides()) {
            *c = self.side_won(w);
        }
        let in_hands = self.hands[..n]
            .iter()
            .fold(CardSet::EMPTY, |a, &h| a.union(h));
        let side_points = scoring::round_points(
            v,
            self.config.scoring,
            winning_sides,
            reason,
            &captured,
            in_hands,
            self.trump_suit(),
        );
        let mut points = [0u16; 4];
        for (p, pt) in points.iter_mut().enumerate().take(n) {
            *pt = side_points[v.side_of(p)];
        }
        let mut scores = self.side_scores;
        for (sc, pt) in scores.iter_mut().zip(side_points) {
            *sc += pt;
        }
        let target = self.config.scoring.target();
        let game_winners = if scores[..v.num_sides()].iter().any(|&sc| sc >= target) {
            scoring::game_winners(v, &scores, winner)
        } else {
            0
        };
        Some(RoundScore {
            result: RoundResult {
                winners: crate::cards::seats_of_sides(winning_sides, v.has_teams()),
                reason,
                points,
            },
            side_points,
            game_winners,
        })
    }

    /// R9 round and game end, checked after every trick of a seal round (the last one won
    /// by `winner`, its seals already made).
    pub(super) fn seal_round_score(&self, winner: usize) -> Option<RoundScore> {
        let v = self.config.variant;
        let team = team_of(winner);
        let reason = scoring::seal_round_end(v, self.seals[team], self.tricks_played as usize)?;
        let game_winners = match reason {
            RoundEnd::Sealed => crate::cards::side_mask(v, team),
            _ => 0,
        };
        // Each seat's points: the seals its team made this round.
        let mut points = [0u16; 4];
        for (p, pt) in points.iter_mut().enumerate() {
            *pt = self.round_seals[team_of(p)] as u16;
        }
        Some(RoundScore {
            result: RoundResult {
                winners: game_winners,
                reason,
                points,
            },
            side_points: [0; 3],
            game_winners,
        })
    }

    /// Adds a finished round's points to the game's scores, and records the game's
    /// winners when the rules end the game with it.
    pub(super) fn add_round_score(&mut self, score: &RoundScore) {
        for (sc, pt) in self.side_scores.iter_mut().zip(score.side_points) {
            *sc += pt;
        }
        if score.game_winners != 0 {
            self.winners = score.game_winners;
        }
    }

    /// After a round's end: the game is over (by the rules, by the episode or by the round
    /// cap), or the round is over and the next one waits for its deal.
    fn end_round(&mut self, result: RoundResult, game_won: bool) {
        self.last_result = Some(result);
        if game_won {
            self.phase = Phase::Over;
            return;
        }
        let rounds_done = self.round + 1;
        if self.config.episode == Episode::Round {
            self.winners = result.winners;
            self.phase = Phase::Over;
            return;
        }
        if self.config.max_rounds.is_some_and(|cap| rounds_done >= cap) {
            self.truncated = true;
            self.phase = Phase::Over;
            return;
        }
        self.phase = Phase::RoundOver;
    }
}

/// Writes for determinizations ([`crate::SeatView::determinized`]): the information-set
/// module decides what one seat cannot know (R10) and replaces it through these.
impl State {
    /// `seat` now holds `hand`, and was dealt `dealt`.
    pub(crate) fn replace_hand(&mut self, seat: usize, hand: CardSet, dealt: CardSet) {
        self.hands[seat] = hand;
        self.deal.hands[seat] = dealt;
    }

    /// `seat`'s passing pick `k` (one it has made) is now `card`.
    pub(crate) fn replace_pick(&mut self, seat: usize, k: usize, card: Card) {
        debug_assert!(k < self.num_picks[seat] as usize);
        self.picks[seat][k] = card;
    }

    /// Replaces the seed that deals the rounds after this one (a determinization played on
    /// past its round must not deal from the real game's seed, which would reveal every
    /// deal).
    pub fn replace_seed(&mut self, seed: u64) {
        self.config.seed = seed;
    }
}

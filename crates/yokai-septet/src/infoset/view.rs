//! What one seat may know (R10): the information-set view of a [`State`].
//!
//! Bots, the observation encoder and the determinization sampler receive a [`SeatView`],
//! never the `State`: the view keeps its state private (not even the rest of this crate
//! can reach through it), so reading another player's hand is a type error, not a
//! discipline.

use crate::cards::left_of;
use crate::cards::{Card, CardSet, Suit};
use crate::rules::config::{GameConfig, Variant};
use crate::rules::passing::{pass_source, pass_target};
use crate::rules::{Phase, RoundResult, State};

/// Views of a position. (The method lives here, with [`SeatView`], so that the rules
/// need not know the information sets built on them.)
impl State {
    /// The view of `seat` (`seat < num_players`; panics otherwise): what that seat may
    /// know, the only input of bots and observations.
    pub fn view(&self, seat: usize) -> SeatView<'_> {
        assert!(seat < self.num_players(), "seat {seat} out of range");
        SeatView::new(self, seat)
    }
}

/// One seat's information set over a game in progress.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    state: &'a State,
    seat: usize,
}

impl<'a> SeatView<'a> {
    /// The view of `seat` over `state` ([`State::view`] checks the seat).
    #[inline]
    pub(crate) fn new(state: &'a State, seat: usize) -> SeatView<'a> {
        SeatView { state, seat }
    }

    // ---- who and what ----

    /// The seat whose information set this is.
    #[inline]
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The game's configuration with the seed hidden (0): the seed determines every deal
    /// (R10), so knowing it would reveal every hand.
    #[inline]
    pub fn config(&self) -> GameConfig {
        GameConfig {
            seed: 0,
            ..*self.state.config()
        }
    }

    /// The game's variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.state.variant()
    }

    /// Players at the table.
    #[inline]
    pub fn num_players(&self) -> usize {
        self.state.num_players()
    }

    /// Seat `k` places to the left of this seat (0 = me, 1 = left, …).
    #[inline]
    pub fn relative(&self, k: usize) -> usize {
        let n = self.num_players();
        left_of(self.seat, k % n, n)
    }

    // ---- public ----

    /// Whose decision it is, and what kind.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.state.phase()
    }

    /// The seat to act, or `None` when the game is over.
    #[inline]
    pub fn current_player(&self) -> Option<usize> {
        self.state.current_player()
    }

    /// Whether it is this seat's decision.
    #[inline]
    pub fn is_my_turn(&self) -> bool {
        self.current_player() == Some(self.seat)
    }

    /// Round index (0-based) of the round in progress (or the last one, when over).
    #[inline]
    pub fn round(&self) -> u32 {
        self.state.round()
    }

    /// The trump suit of the round (`None` in a seal round before its first lead).
    #[inline]
    pub fn trump_suit(&self) -> Option<Suit> {
        self.state.trump_suit()
    }

    /// The face-up card that named the trump suit (`4p`, `3p`).
    #[inline]
    pub fn trump_card(&self) -> Option<Card> {
        self.state.trump_card()
    }

    /// The round's first leader, once known.
    #[inline]
    pub fn round_leader(&self) -> Option<usize> {
        self.state.round_leader()
    }

    /// The leader of the trick in progress (or about to start), once known.
    #[inline]
    pub fn trick_leader(&self) -> Option<usize> {
        self.state.trick_leader()
    }

    /// Cards of the trick in progress, in play order from its leader.
    #[inline]
    pub fn trick_cards(&self) -> &'a [Card] {
        self.state.trick_cards()
    }

    /// The cards of the trick in progress, as a set.
    #[inline]
    pub fn trick_set(&self) -> CardSet {
        self.state.trick_set()
    }

    /// The led suit as a one-bit mask over suits (0 before the trick's first card).
    #[inline]
    pub fn led_suit_mask(&self) -> u8 {
        self.state.led_suit_mask()
    }

    /// The suit led in the trick in progress.
    #[inline]
    pub fn led_suit(&self) -> Option<Suit> {
        self.state.led_suit()
    }

    /// Tricks completed this round.
    #[inline]
    pub fn tricks_played(&self) -> usize {
        self.state.tricks_played()
    }

    /// Cards `seat` has played this round (everyone saw them).
    #[inline]
    pub fn played_by(&self, seat: usize) -> CardSet {
        self.state.played_by(seat)
    }

    /// Every card played this round (public).
    #[inline]
    pub fn played(&self) -> CardSet {
        self.state.played()
    }

    /// How each card played this round was played: led, went ahead, off the led suit
    /// (everyone saw the tricks; the trick in progress included).
    #[inline]
    pub fn play_log(&self) -> crate::PlayLog {
        self.state.play_log()
    }

    /// Cards `seat` captured this round (everyone saw the tricks).
    #[inline]
    pub fn won_cards(&self, seat: usize) -> CardSet {
        self.state.won_cards(seat)
    }

    /// Tricks `seat` has taken this round.
    #[inline]
    pub fn tricks_won(&self, seat: usize) -> usize {
        self.state.tricks_won(seat)
    }

    /// Suits `seat` has shown void in this round (bit mask).
    #[inline]
    pub fn voids(&self, seat: usize) -> u8 {
        self.state.voids(seat)
    }

    /// How many cards `seat` holds (public: everyone can count).
    #[inline]
    pub fn hand_len(&self, seat: usize) -> usize {
        self.state.hand(seat).len() as usize
    }

    /// How many passing picks `seat` has made this round (public; which cards is not).
    #[inline]
    pub fn num_picks(&self, seat: usize) -> usize {
        self.state.picks(seat).len()
    }

    /// Whether the passed cards have changed hands this round.
    #[inline]
    pub fn exchange_done(&self) -> bool {
        // Passing always ends with the exchange, and every later phase of the same round
        // (play, or the game's end) comes after it.
        self.state.phase() != Phase::Pass
    }

    /// Score of `seat`'s side (teammates share their team's total; seal: suits sealed).
    #[inline]
    pub fn score(&self, seat: usize) -> u16 {
        self.state.score(seat)
    }

    /// Suits sealed by `team` (bit mask), seal variants.
    #[inline]
    pub fn seals(&self, team: usize) -> u8 {
        self.state.seals(team)
    }

    /// The result of the last completed round.
    #[inline]
    pub fn last_round_result(&self) -> Option<RoundResult> {
        self.state.last_round_result()
    }

    /// Game winners as a seat mask (0 until the game is over, and when truncated).
    #[inline]
    pub fn winners_mask(&self) -> u8 {
        self.state.winners_mask()
    }

    /// Whether the game ended by the round cap (R10).
    #[inline]
    pub fn is_truncated(&self) -> bool {
        self.state.is_truncated()
    }

    /// The card whose holder led the first round (R4.3) and that is known to be in the
    /// round leader's hand until played: the A, or the Snow 13 when the A is face up.
    /// `None` outside the first round's play.
    pub fn leader_key_card(&self) -> Option<Card> {
        if self.round() != 0 || !self.exchange_done() {
            return None;
        }
        Some(if self.trump_card() == Some(Card::ACE) {
            Card::SNOW_13
        } else {
            Card::ACE
        })
    }

    // ---- private to this seat ----

    /// This seat's hand now (during passing: as dealt, picks included).
    #[inline]
    pub fn hand(&self) -> CardSet {
        self.state.hand(self.seat)
    }

    /// This seat's hand as dealt this round.
    #[inline]
    pub fn dealt_hand(&self) -> CardSet {
        self.state.deal().hands[self.seat]
    }

    /// This seat's passing picks this round, in the order made.
    #[inline]
    pub fn my_picks(&self) -> &'a [Card] {
        self.state.picks(self.seat)
    }

    /// Every card this seat received in this round's exchange (empty before it): what it
    /// holds or has played that it was not dealt. The same cards as
    /// [`received`](Self::received), without asking who gave them.
    #[inline]
    pub fn received_cards(&self) -> CardSet {
        self.hand()
            .union(self.played_by(self.seat))
            .minus(self.dealt_hand())
    }

    /// This seat's passing picks, in order, with the seat each goes to.
    pub fn my_passes(&self) -> impl Iterator<Item = (Card, usize)> + 'a {
        let v = self.variant();
        let seat = self.seat;
        self.state
            .picks(seat)
            .iter()
            .enumerate()
            .map(move |(k, &c)| (c, pass_target(v, seat, k)))
    }

    /// Cards this seat received in the exchange, with the seat each came from
    /// (empty until the exchange has happened).
    pub fn received(&self) -> impl Iterator<Item = (Card, usize)> + 'a {
        let v = self.variant();
        let me = self.seat;
        let state = self.state;
        let done = self.exchange_done();
        (0..v.num_players())
            .filter(move |_| done)
            .flat_map(move |from| {
                state
                    .picks(from)
                    .iter()
                    .enumerate()
                    .filter(move |&(k, _)| pass_target(v, from, k) == me)
                    .map(move |(_, &c)| (c, from))
            })
    }

    /// The cards this seat received in the exchange, by giver (absolute seat): the same
    /// cards as [`received`](Self::received), gathered without a search.
    #[inline]
    pub fn received_by_giver(&self) -> [CardSet; 4] {
        let mut out = [CardSet::EMPTY; 4];
        if !self.exchange_done() {
            return out;
        }
        let me = self.seat;
        let s = self.state;
        let all = |from: usize| s.picks(from).iter().copied().collect::<CardSet>();
        let v = self.variant();
        if v.is_seal() {
            // After the exchange every seat has made its three picks, and each went to a
            // different seat. (No data-dependent branch: the encoder calls this at every
            // step.)
            for k in 0..3 {
                let from = pass_source(v, me, k);
                out[from] = CardSet::EMPTY.with(s.pick_after_exchange(from, k));
            }
        } else {
            // Every pick of one seat comes here.
            let from = pass_source(v, me, 0);
            out[from] = all(from);
        }
        out
    }

    /// The legal actions of this seat now (empty when it is not this seat's turn).
    #[inline]
    pub fn legal_actions(&self) -> CardSet {
        if self.is_my_turn() {
            self.state.legal_actions()
        } else {
            CardSet::EMPTY
        }
    }

    /// Cards whose location this seat cannot see: in another player's hand (or, in
    /// `4p`/`3p`, nowhere else — the face-up card is known). During passing, cards already
    /// picked by others are still in their pickers' hands.
    pub fn unknown_cards(&self) -> CardSet {
        let mut known = self.hand().union(self.played());
        if let Some(c) = self.trump_card() {
            known.insert(c);
        }
        let deck = self.variant().deck();
        deck.minus(known)
    }

    /// Cards this seat knows to be in `other`'s hand: what it passed to `other` and
    /// `other` has not played yet, and, in the first round, the A (or Snow 13) that made
    /// `other` the round's leader (R4.3) until it is played.
    pub fn known_in_hand(&self, other: usize) -> CardSet {
        self.known_in_hands()[other]
    }

    /// [`known_in_hand`](Self::known_in_hand) of every seat, in one pass over this seat's
    /// passes (its own entry, and those past the number of players, are empty).
    pub fn known_in_hands(&self) -> [CardSet; 4] {
        let mut known = [CardSet::EMPTY; 4];
        if !self.exchange_done() {
            return known;
        }
        for (c, to) in self.my_passes() {
            known[to].insert(c);
        }
        if let (Some(key), Some(leader)) = (self.leader_key_card(), self.round_leader()) {
            known[leader].insert(key);
        }
        for (p, k) in known.iter_mut().enumerate().take(self.num_players()) {
            *k = k.minus(self.played_by(p));
        }
        known[self.seat] = CardSet::EMPTY;
        known
    }

    /// A complete state that agrees with everything this seat knows, with the other
    /// players' current hands replaced by `hands` (`hands[self.seat()]` is ignored).
    /// Used by the determinization sampler. Returns `None` if `hands` disagree with what
    /// this seat knows: the public hand sizes, its own hand and the cards already played,
    /// the revealed voids, and the cards [`known_in_hand`](Self::known_in_hand).
    ///
    /// During passing, each other seat keeps its number of picks, but which cards it
    /// picked is unknown: they become the lowest cards of its new hand. Use
    /// [`determinized_with_picks`](Self::determinized_with_picks) to choose them.
    pub fn determinized(&self, hands: [CardSet; 4]) -> Option<State> {
        self.determinized_with_picks(hands, None)
    }

    /// As [`determinized`](Self::determinized), and during passing each other seat's
    /// hidden picks become `picks[p][..num_picks(p)]` (distinct cards of `hands[p]`,
    /// in pick order; checked). After the exchange `picks` is ignored.
    pub fn determinized_with_picks(
        &self,
        hands: [CardSet; 4],
        picks: Option<&[[Card; 3]; 4]>,
    ) -> Option<State> {
        let n = self.num_players();
        let known = self.known_in_hands();
        let mut union = CardSet::EMPTY;
        for (p, &hand) in hands.iter().enumerate().take(n) {
            if p == self.seat {
                continue;
            }
            if hand.len() as usize != self.hand_len(p)
                || !union.intersect(hand).is_empty()
                || !known[p].minus(hand).is_empty()
                || Suit::ALL
                    .iter()
                    .any(|&su| self.voids(p) >> su as u8 & 1 == 1 && !hand.of_suit(su).is_empty())
            {
                return None;
            }
            if let (Some(picks), false) = (picks, self.exchange_done()) {
                let mine = &picks[p][..self.num_picks(p)];
                let set: CardSet = mine.iter().copied().collect();
                if set.len() as usize != mine.len() || !set.minus(hand).is_empty() {
                    return None;
                }
            }
            union = union.union(hand);
        }
        if union != self.unknown_cards() {
            return None;
        }
        Some(self.with_hidden_hands(&hands, picks))
    }

    /// A copy of the state in which each seat but this one holds `hands[seat]` (checked
    /// by the caller), scrubbed of everything this seat cannot know. The seed is dropped
    /// (0): it would reveal every deal.
    fn with_hidden_hands(&self, hands: &[CardSet; 4], picks: Option<&[[Card; 3]; 4]>) -> State {
        let mut s = *self.state;
        s.replace_seed(0);
        for (p, &hand) in hands.iter().enumerate().take(self.num_players()) {
            if p != self.seat {
                self.hide(&mut s, p, hand, picks.map(|k| &k[p]));
            }
        }
        s
    }

    /// Replaces `seat`'s hidden hand in `s`, and scrubs what this seat cannot know about
    /// `seat` so that nothing hidden survives in the copy: its dealt hand becomes `hand`
    /// plus what it played, and each pick that did not come to this seat becomes
    /// `picks[k]` if given (during passing), else one of the hand's lowest cards.
    fn hide(&self, s: &mut State, seat: usize, hand: CardSet, picks: Option<&[Card; 3]>) {
        s.replace_hand(seat, hand, hand.union(s.played_by(seat)));
        let v = s.variant();
        let in_passing = s.phase() == Phase::Pass;
        let mut filler = hand.iter();
        for k in 0..s.picks(seat).len() {
            let seen_by_me = !in_passing && pass_target(v, seat, k) == self.seat;
            if !seen_by_me {
                let card = match picks {
                    Some(p) if in_passing => p[k],
                    _ => filler.next().unwrap_or(Card::ACE),
                };
                s.replace_pick(seat, k, card);
            }
        }
    }
}

//! An exact perfect-information ("double-dummy") solver for the rest of a round.
//!
//! Given a complete [`State`] in its play phase (every hand visible), [`Solver`] finds the
//! value of the position under best play by every seat, and the value of each legal card.
//!
//! # Objective, per variant
//! Values are integers from the point of view of one side, the *root side*: the side of
//! the player to move when [`Solver::solve`] is called. [`utility`] defines them on a
//! finished round:
//! - `4p` (teams, zero-sum): `2·(our round points − their round points) ± 1`, `+1` when our
//!   team won the round (R7), `−1` when it lost. Round points are R8's, in the game's
//!   scoring mode, so the round's point outcome decides and the round win breaks ties
//!   (a win worth 0 points still beats a loss worth 0).
//! - `3p` (not zero-sum): the *paranoid* reduction. The player to move maximises
//!   `2·(my points − the most points of another player) ± 1` (`+1` if I am among the
//!   round's winners) and both others are assumed to minimise it together. Max-n (each
//!   player maximises its own score) admits only shallow pruning and its value depends on
//!   arbitrary tie-breaking between the opponents' equal choices; paranoid search keeps
//!   full alpha-beta pruning, gives a guaranteed lower bound, and is what a cautious
//!   player wants from an exact leaf evaluator in a game where the two others gain from
//!   the same R7.2 outcome. (It is pessimistic: a PIMC bot built on it plays safe.)
//! - `seal`, `seal-short` (teams, zero-sum): winning the game by sealing (R9) is worth
//!   [`GAME_WIN`] (losing it `−GAME_WIN`); otherwise the value is our seals made this round
//!   minus theirs.
//!
//! The round ends as the rules end it (R7, or R9's 14 tricks / game win); later rounds
//! are not searched.
//!
//! # Search
//! Alpha-beta (fail-soft minimax from the root side's point of view) over whole cards,
//! with:
//! - a transposition table probed at trick boundaries, keyed by a hash of the position
//!   (hands, leader, trump, tricks and bosses per side, seals) and the objective; it stores
//!   bounds and the best card, and is kept across calls (entries stay true bounds: the
//!   table only ever speeds later searches up). Hands are keyed by each card's rank
//!   among the live cards of its suit (the A and the bosses also by identity), so
//!   positions that differ only in which plain cards already fell share an entry;
//! - move ordering: the table's card first, then cards by what they do to the trick (a
//!   partner already winning: dump low, bosses first; an opponent winning: the cheapest
//!   card that beats it, then low losers keeping bosses back);
//! - equivalent-card reduction: two cards of one suit in the same hand, with every card
//!   ranked between them already gone (played in an earlier trick or the face-up card),
//!   are one choice. The A never joins a class (it wins any trick), nor does a boss (it is
//!   captured and counted); the two copies of a seal boss in one hand are one choice (equal,
//!   and whichever is played first is higher either way).
//!
//! Six further techniques ([`Techniques`], each switchable to measure it; all but
//! partition search and the sure-outcome bounds on by default): an enhanced transposition cut-off at a trick's last
//! card (every card that ends the trick is looked up before any is searched); in `4p`
//! and `3p`, captured bosses keyed by their number and points rather than by identity;
//! zero-window search (the value found by bisecting its range with null-window searches,
//! "can the root side reach at least `t`?", which prune more than one full-window
//! search); cut-off history (equally strong leads ordered by the cut-offs they made
//! before); and partition search (a table entry keeps only the ranks that decided its
//! value, so it answers for every position that agrees on them; [`partition`]); and
//! sure-outcome bounds at trick boundaries (what the cards that cannot lose a trick make
//! certain or impossible under R7 and R9; [`bounds`]). The
//! search is compiled once per way of keying the table ([`table::Table`]), so a technique
//! that is off costs nothing. [`Solver::solve_win`] asks one null-window question: does
//! the side to move win the round?
//!
//! Nothing is allocated while searching: positions are small `Copy` values, move lists
//! are arrays on the stack, and the table is allocated once in [`Solver::new`].

use crate::cards::{left_of, side_of, Card, CardSet, Suit};
use crate::rules::config::{Scoring, Variant};
use crate::rules::scoring::{
    blocked_seals, boss_points, new_seals, round_end, round_points, seal_round_end, sealed_suits,
    seals_to_win,
};
use crate::rules::trick::{legal_plays, strength, trick_winner};
use crate::rules::{Phase, RoundEnd, RoundResult, State};
mod bounds;
mod partition;
mod table;

use partition::RankedTable;
use table::{Found, PlainTable, Ranks, Table};

/// Value of winning the game by sealing (seal variants), larger than any seal difference.
pub const GAME_WIN: i32 = 100;

/// Largest number of legal cards (a `3p` hand).
const MAX_MOVES: usize = 16;
const NO_SUIT: u8 = 7;
const NO_MOVE: u8 = u8::MAX;
const INF: i32 = i32::MAX / 2;

/// The search's techniques beyond plain alpha-beta with the table, each switchable so its
/// effect can be measured on the same deals (`examples/solve_times.rs`). All but partition
/// search and the sure-outcome bounds are on by default ([`Techniques::DEFAULT`]); none changes a value, only how many
/// positions are searched to find it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Enhanced transposition cut-off: at a trick's last card, every card that ends the
    /// trick is first looked up (the table and the boss bounds of the next trick's
    /// position, or the round's value when it ends there); one that already refutes the
    /// window ends the search of the trick without searching anything below it.
    pub etc: bool,
    /// `4p` and `3p`: a side's captured bosses are keyed by their number and their points
    /// (what R7.1 and R8 read of them), not by which bosses they are, so positions that
    /// differ only in which equally scoring bosses were captured share a table entry.
    pub boss_tally_key: bool,
    /// Zero-window search: the exact value is found by a series of null-window searches
    /// ("can the root side reach at least `t`?"), each target bisecting the interval the
    /// earlier answers and the position's boss bounds left (fail-soft answers narrow it
    /// further), instead of one search with the full window. The table's bounds carry
    /// from one target to the next, and in `solve_moves` from one card to the next.
    pub zero_window: bool,
    /// Partition search, as bridge solvers do it: a table entry at a trick boundary keeps
    /// only the ranks that decided its value (in each suit, the live cards from the lowest
    /// card that won a trick by its rank, in the searched tree, up; DDS's "winning
    /// ranks"), so it answers for every position with the same key that agrees on those
    /// ranks, whoever holds the lower cards. Without it an entry answers for its own
    /// position only.
    pub partition: bool,
    /// Cut-off history at leads: of the leads the move order ranks equal (cards of the same
    /// strength, mostly the same rank in different suits), those that cut the search off
    /// more often when the same seat led them earlier (weighted by the square of the
    /// tricks left) are tried first. Without it, equal leads come in card order.
    pub history: bool,
    /// Sure-outcome bounds at trick boundaries ([`bounds`]): the cards that win every
    /// trick they are played to (the A, the side's run of top trumps) make some ways of
    /// ending the round (R7) impossible, so a side that can no longer win (or lose) the
    /// round is known to at once; in the seal variants they make seals impossible for
    /// the other team or certain for their own (R9).
    pub sure_bounds: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques::DEFAULT
    }
}

impl Techniques {
    /// What a solver uses unless told otherwise: every technique but partition search
    /// and the sure-outcome bounds, which are exact but cost more time per position than
    /// they save in positions (`docs/solver-cost.md`).
    pub const DEFAULT: Techniques = Techniques {
        partition: false,
        sure_bounds: false,
        ..Techniques::ALL
    };
    /// Every technique on.
    pub const ALL: Techniques = Techniques {
        etc: true,
        boss_tally_key: true,
        zero_window: true,
        partition: true,
        history: true,
        sure_bounds: true,
    };
    /// Every technique off: alpha-beta, the table, the move order and the boss bounds.
    pub const NONE: Techniques = Techniques {
        etc: false,
        boss_tally_key: false,
        zero_window: false,
        partition: false,
        history: false,
        sure_bounds: false,
    };
}

/// The objective of [`Solver`] for `seat`'s side on a round that ended with `result`
/// (`game_winners`: the game's winners as a seat mask afterwards, 0 if the game goes on).
/// See the module documentation.
pub fn utility(variant: Variant, result: &RoundResult, game_winners: u8, seat: usize) -> i32 {
    let n = variant.num_players();
    let mine = result.points[seat] as i32;
    let theirs = (0..n)
        .filter(|&p| variant.side_of(p) != variant.side_of(seat))
        .map(|p| result.points[p] as i32)
        .max()
        .unwrap_or(0);
    if variant.is_seal() {
        if game_winners != 0 {
            return if game_winners >> seat & 1 == 1 {
                GAME_WIN
            } else {
                -GAME_WIN
            };
        }
        return mine - theirs;
    }
    let won = if result.winners >> seat & 1 == 1 {
        1
    } else {
        -1
    };
    2 * (mine - theirs) + won
}

/// The smallest value ([`utility`]) of a round that the side it is measured for wins: in
/// `4p` and `3p` a won round is worth `+1` over its points lead, which is never negative
/// for a winner (only winners score, and in `3p` two winners score the same), and a lost
/// one at most `−1`; in the seal variants a round is won only by winning the game (R9).
pub fn win_threshold(variant: Variant) -> i32 {
    if variant.is_seal() {
        GAME_WIN
    } else {
        1
    }
}

/// The solver's position: what decides the rest of the round, and nothing else.
#[derive(Clone, Copy)]
struct Pos {
    hands: [u64; 4],
    trick: [Card; 4],
    trick_len: u8,
    leader: u8,
    current: u8,
    trump: u8,
    tricks_played: u8,
    side_tricks: [u8; 3],
    side_bosses: [u64; 3],
    seals: [u8; 2],
    round_seals: [u8; 2],
}

/// What does not change during one search.
#[derive(Clone, Copy)]
struct Ctx {
    variant: Variant,
    scoring: Scoring,
    n: u8,
    root_side: u8,
    /// Mixed into every table key: the objective (variant, scoring, root side).
    salt: u64,
    techniques: Techniques,
}

impl Ctx {
    #[inline]
    fn side_of(&self, seat: u8) -> u8 {
        side_of(seat as usize, self.n == 4) as u8
    }
}

#[inline]
fn mix(h: u64, w: u64) -> u64 {
    crate::rng::splitmix64_finalize(h ^ w.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// Each seal second copy moved onto its first copy's place ([`CardSet::fold_second_copies`]).
#[inline]
fn fold_second_copies(set: u64) -> u64 {
    CardSet(set).fold_second_copies().bits()
}

/// The cards of `c`'s suit (a mask over ids).
#[inline]
fn suit_of(c: u32) -> u64 {
    Card::from_id_unchecked(c as u8).suit().cards().bits()
}

/// The bits of `set` at the places of `mask`'s bits, packed down: BMI2's `pext` where the
/// CPU has it (the table key calls this four times a trick boundary), else a loop.
#[inline]
fn compress(set: u64, mask: u64) -> u64 {
    if let Some(packed) = crate::simd::pext(crate::simd::Cpu::detect(), set, mask) {
        return packed;
    }
    let mut out = 0;
    let mut m = mask;
    let mut k = 0;
    while m != 0 {
        let b = m & m.wrapping_neg();
        if set & b != 0 {
            out |= 1 << k;
        }
        k += 1;
        m &= m - 1;
    }
    out
}

/// Drops all but one card of each equivalence class from `legal` (a subset of one hand,
/// all of one suit or the whole hand). `live` is every card still in a hand or in the
/// current trick: a card not in `live` is gone for the rest of the round.
#[inline]
fn reduce_equivalent(legal: u64, live: u64) -> u64 {
    let bosses = CardSet::BOSSES.bits();
    // Two copies of one boss in the hand: keep the first copy.
    let hand = CardSet(legal);
    let pairs = hand.first_boss_suits() & hand.second_boss_suits();
    let mut out = legal & !CardSet::second_bosses_of(pairs).bits();
    let occupied = fold_second_copies(live);
    // A plain card (not the A, not a boss) whose next live card up the suit is a plain
    // card of the same hand is equivalent to it: keep the higher one.
    let mut plain = legal & !bosses & !1 & CardSet::STANDARD_DECK.bits();
    while plain != 0 {
        let c = plain.trailing_zeros();
        plain &= plain - 1;
        // `occupied` has no second copies: these are standard cards of the suit above `c`.
        let above = occupied & !((2u64 << c) - 1) & suit_of(c);
        if above != 0 {
            let next = above.trailing_zeros();
            if legal >> next & 1 == 1 && bosses >> next & 1 == 0 {
                out &= !(1u64 << c);
            }
        }
    }
    out
}

/// The result of playing one card: the round's end (its value), or the next position.
enum Step {
    End(i32),
    Next(Pos),
}

impl Pos {
    fn from_state(s: &State) -> Pos {
        let v = s.variant();
        let n = v.num_players();
        let mut side_tricks = [0u8; 3];
        let mut side_bosses = [0u64; 3];
        for p in 0..n {
            let side = v.side_of(p);
            side_tricks[side] += s.tricks_won(p) as u8;
            side_bosses[side] |= s.won_cards(p).bosses().bits();
        }
        let mut hands = [0u64; 4];
        for (p, h) in hands.iter_mut().enumerate().take(n) {
            *h = s.hand(p).bits();
        }
        let mut trick = [Card::ACE; 4];
        for (t, &c) in trick.iter_mut().zip(s.trick_cards()) {
            *t = c;
        }
        Pos {
            hands,
            trick,
            trick_len: s.trick_cards().len() as u8,
            leader: s.trick_leader().map_or(u8::MAX, |l| l as u8),
            current: s.current_player().map_or(u8::MAX, |p| p as u8),
            trump: s.trump_suit().map_or(NO_SUIT, |t| t as u8),
            tricks_played: s.tricks_played() as u8,
            side_tricks,
            side_bosses,
            seals: [s.seals(0), s.seals(1)],
            round_seals: [s.round_seals(0), s.round_seals(1)],
        }
    }

    #[inline]
    fn live(&self) -> u64 {
        let mut live = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        for &c in &self.trick[..self.trick_len as usize] {
            live |= c.bit();
        }
        live
    }

    #[inline]
    fn legal(&self) -> u64 {
        let led = (self.trick_len > 0).then(|| self.trick[0].suit());
        legal_plays(CardSet(self.hands[self.current as usize]), led).bits()
    }

    /// Bounds on the value for the root side that hold whatever is played from here:
    /// what each side could still score if every live boss went its way.
    #[inline]
    fn value_bounds(&self, ctx: &Ctx) -> (i32, i32) {
        let live = CardSet(self.live()).bosses();
        let root = ctx.root_side as usize;
        let v = ctx.variant;
        if v.is_seal() {
            return self.seal_bounds(ctx, [0, 0]);
        }
        let trump = Suit::from_index(self.trump as usize);
        let most = |side: usize| -> i32 {
            match ctx.scoring {
                Scoring::Basic => 1,
                Scoring::Advanced => {
                    let p = boss_points(v, CardSet(self.side_bosses[side]).union(live), trump);
                    if ctx.n == 3 {
                        (p as i32).max(3)
                    } else {
                        p as i32
                    }
                }
            }
        };
        let hi = 2 * most(root) + 1;
        let theirs = (0..v.num_sides())
            .filter(|&w| w != root)
            .map(most)
            .max()
            .unwrap_or(0);
        (-(2 * theirs + 1), hi)
    }

    /// The seal variants' bounds on the value for the root side: each team's seals still
    /// possible (unblocked suits whose two copies are in its captures or live, and not
    /// `sure` cards of the other team) and certain if the round is played out (each copy
    /// in its captures or one of its own `sure` cards: [`bounds`]); with no sure cards,
    /// what every live boss going either way allows.
    fn seal_bounds(&self, ctx: &Ctx, sure: [u64; 2]) -> (i32, i32) {
        let live = CardSet(self.live()).bosses().bits();
        let root = ctx.root_side as usize;
        let v = ctx.variant;
        let to_win = seals_to_win(v);
        let unblocked = |team: usize| !blocked_seals(v, self.seals, team);
        let possible = |team: usize| -> u32 {
            let reach = self.side_bosses[team] | live & !sure[1 - team];
            (sealed_suits(CardSet(reach)) & unblocked(team)).count_ones()
        };
        let certain = |team: usize| -> u32 {
            let held = self.side_bosses[team] | sure[team];
            (sealed_suits(CardSet(held)) & unblocked(team)).count_ones()
        };
        let made = |team: usize| self.round_seals[team] as i32;
        let game = |team: usize, more: u32| self.seals[team].count_ones() + more >= to_win;
        let (mine, theirs) = (root, 1 - root);
        // Without a game win the round is played out: its certain seals are made.
        let hi = if game(mine, possible(mine)) {
            GAME_WIN
        } else if game(theirs, certain(theirs)) {
            -GAME_WIN
        } else {
            made(mine) + possible(mine) as i32 - made(theirs) - certain(theirs) as i32
        };
        let lo = if game(theirs, possible(theirs)) {
            -GAME_WIN
        } else if game(mine, certain(mine)) {
            GAME_WIN
        } else {
            made(mine) + certain(mine) as i32 - made(theirs) - possible(theirs) as i32
        };
        (lo, hi)
    }

    /// The table key of a position at a trick boundary. A card that is gone plays no
    /// further part, so the plain cards are keyed by their rank among the suit's live
    /// cards, not by their own (as bridge solvers do): positions that differ only in
    /// which low cards fell earlier share an entry. The A and the bosses, which score or
    /// win on their own, are keyed by identity too. With `RANKED` (partition search) the
    /// ranks are left out of the key and written to `ranks` instead, hand by hand, and
    /// how many cards of each suit each hand holds is keyed, so that an entry needs only
    /// the ranks that decided its value.
    #[inline]
    fn key<const RANKED: bool>(&self, ctx: &Ctx, ranks: &mut [u64; 4]) -> u64 {
        let n = ctx.n as usize;
        let live = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3];
        let slots = fold_second_copies(live);
        let special = CardSet::BOSSES.bits() | 1;
        let mut h = ctx.salt;
        for (r, &hand) in ranks.iter_mut().zip(&self.hands[..n]) {
            let compressed = compress(fold_second_copies(hand), slots);
            if RANKED {
                *r = compressed;
                h = mix(h, hand & special);
                h = mix(h, partition::suit_lengths(hand));
            } else {
                h = mix(h, compressed);
                h = mix(h, hand & special);
            }
        }
        // Live cards per suit and the bosses' places among them: with the ranks, these
        // say which live card is which.
        let mut shape = 0u64;
        for suit in Suit::ALL {
            let live_in_suit = slots & suit.cards().bits();
            let below_boss = live_in_suit & (suit.boss().bit() - 1);
            let at = 6 * suit as u64;
            shape |= (live_in_suit.count_ones() as u64) << at
                | (below_boss.count_ones() as u64) << (at + 3);
        }
        h = mix(h, shape);
        let tally = ctx.techniques.boss_tally_key && !ctx.variant.is_seal();
        let trump = Suit::from_index(self.trump as usize);
        for &b in &self.side_bosses[..ctx.variant.num_sides()] {
            h = if tally {
                // R7.1 counts the captured bosses and R8 adds their points to those of
                // bosses captured later or still held (disjoint sets): nothing else of
                // them matters from here.
                let captured = CardSet(b);
                let points = boss_points(ctx.variant, captured, trump) as u64;
                mix(h, captured.len() as u64 | points << 8 | 1 << 63)
            } else {
                mix(h, b)
            };
        }
        let packed = self.leader as u64
            | (self.trump as u64) << 4
            | (self.side_tricks[0] as u64) << 8
            | (self.side_tricks[1] as u64) << 16
            | (self.side_tricks[2] as u64) << 24
            | (self.seals[0] as u64) << 32
            | (self.seals[1] as u64) << 40
            | (self.round_seals[0] as u64) << 48
            | (self.round_seals[1] as u64) << 56;
        mix(h, packed)
    }

    /// Plays `c` (legal) for the player to move.
    #[inline]
    fn play(&self, ctx: &Ctx, c: u8) -> Step {
        let mut q = *self;
        let p = q.current;
        let card = Card::from_id_unchecked(c);
        q.hands[p as usize] &= !card.bit();
        if q.trick_len == 0 && q.trump == NO_SUIT {
            // R9: a seal round's first lead fixes the trump suit.
            q.trump = card.suit() as u8;
        }
        q.trick[q.trick_len as usize & 3] = card;
        q.trick_len += 1;
        if q.trick_len < ctx.n {
            q.current = left_of(p as usize, 1, ctx.n as usize) as u8;
            return Step::Next(q);
        }
        q.finish_trick(ctx)
    }

    /// R6 and the trick's tallies, then the round's end (the rules' kernels decide).
    fn finish_trick(mut self, ctx: &Ctx) -> Step {
        let cards = &self.trick[..ctx.n as usize];
        let trump = Suit::from_index(self.trump as usize).unwrap_or(Suit::Wind);
        let winner = trick_winner(self.leader as usize, cards, trump);
        let set = cards.iter().fold(CardSet::EMPTY, |m, &c| m.with(c));
        let side = ctx.side_of(winner as u8) as usize;
        self.side_tricks[side] += 1;
        self.side_bosses[side] |= set.bosses().bits();
        self.tricks_played += 1;
        self.trick_len = 0;
        self.leader = winner as u8;
        self.current = winner as u8;
        if ctx.variant.is_seal() {
            self.seal_end(ctx, side, set)
        } else {
            self.round_end(ctx, side)
        }
    }

    /// R9 after a trick won by `team` that captured `set`.
    fn seal_end(mut self, ctx: &Ctx, team: usize, set: CardSet) -> Step {
        let v = ctx.variant;
        let blocked = blocked_seals(v, self.seals, team);
        let new = new_seals(set, CardSet(self.side_bosses[team]), blocked);
        self.seals[team] |= new;
        self.round_seals[team] += new.count_ones() as u8;
        let root = ctx.root_side as usize;
        match seal_round_end(v, self.seals[team], self.tricks_played as usize) {
            None => Step::Next(self),
            Some(RoundEnd::Sealed) => Step::End(if team == root { GAME_WIN } else { -GAME_WIN }),
            Some(_) => Step::End(self.round_seals[root] as i32 - self.round_seals[1 - root] as i32),
        }
    }

    /// R7 and R8 after a trick won by `side`.
    fn round_end(self, ctx: &Ctx, side: usize) -> Step {
        let v = ctx.variant;
        let Some((winners, reason)) = round_end(
            v,
            side,
            CardSet(self.side_bosses[side]),
            self.side_tricks[side] as usize,
            self.tricks_played as usize,
        ) else {
            return Step::Next(self);
        };
        let captured = self.side_bosses.map(CardSet);
        let in_hands = CardSet(self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]);
        let trump = Suit::from_index(self.trump as usize);
        let points = round_points(v, ctx.scoring, winners, reason, &captured, in_hands, trump);
        let root = ctx.root_side as usize;
        let theirs = (0..v.num_sides())
            .filter(|&w| w != root)
            .map(|w| points[w] as i32)
            .max()
            .unwrap_or(0);
        let won = if winners >> root & 1 == 1 { 1 } else { -1 };
        Step::End(2 * (points[root] as i32 - theirs) + won)
    }
}

/// Solution of one position: the value of each legal card for the side to move.
#[derive(Clone, Copy, Debug)]
pub struct MoveValues {
    cards: [Card; MAX_MOVES],
    values: [i32; MAX_MOVES],
    len: usize,
}

impl MoveValues {
    /// `(card, value)` for every legal card (equivalent cards share a value).
    pub fn iter(&self) -> impl Iterator<Item = (Card, i32)> + '_ {
        self.cards[..self.len]
            .iter()
            .copied()
            .zip(self.values[..self.len].iter().copied())
    }

    /// The best value (the position's value).
    pub fn best_value(&self) -> i32 {
        self.values[..self.len].iter().copied().max().unwrap_or(0)
    }

    /// The number of legal cards.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no legal card (never, in the play phase).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The exact solver. Keep one and reuse it: its transposition table (allocated once)
/// carries over between calls.
pub struct Solver {
    /// The transposition table of the searches without partition search.
    plain: PlainTable,
    /// Partition search's table, made when a search first uses it.
    ranked: RankedTable,
    /// `log2` of each table's entries.
    table_bits: u32,
    nodes: u64,
    probes: u64,
    hits: u64,
    techniques: Techniques,
    /// The node count at which [`Solver::solve_moves_within`] gives up (`u64::MAX`: never).
    node_limit: u64,
    /// Whether the search passed `node_limit`: every frame then unwinds at once, storing
    /// nothing (the stored bounds stay those of whole searches).
    aborted: bool,
    /// [`Techniques::history`]: each seat's leads' cut-offs, by card.
    lead_cutoffs: [[u32; 64]; 4],
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// Default table: 2^19 entries (8 MiB).
    pub fn new() -> Solver {
        Solver::with_table_bits(19)
    }

    /// A solver whose table holds `2^bits` entries of 16 bytes (`bits` in 10..=28; with
    /// partition search, a second table of as many 24-byte entries).
    pub fn with_table_bits(bits: u32) -> Solver {
        let bits = bits.clamp(10, 28);
        Solver {
            plain: PlainTable::new(bits),
            ranked: RankedTable::new(0),
            table_bits: bits,
            nodes: 0,
            probes: 0,
            hits: 0,
            techniques: Techniques::DEFAULT,
            node_limit: u64::MAX,
            aborted: false,
            lead_cutoffs: [[0; 64]; 4],
        }
    }

    /// The same solver with only `techniques` switched on (to measure what each gains).
    pub fn with_techniques(mut self, techniques: Techniques) -> Solver {
        self.techniques = techniques;
        self
    }

    /// The techniques this solver uses.
    pub fn techniques(&self) -> Techniques {
        self.techniques
    }

    /// Table look-ups since this solver was made, and how many found their position
    /// (for speed measurements; the enhanced transposition cut-off's look-ups included).
    pub fn table_probes(&self) -> (u64, u64) {
        (self.probes, self.hits)
    }

    /// Positions searched since this solver was made (for speed measurements).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.plain.clear();
        self.ranked.clear();
        self.lead_cutoffs = [[0; 64]; 4];
    }

    fn context(s: &State, seat: usize) -> Option<Ctx> {
        if s.phase() != Phase::Play || seat >= s.num_players() {
            return None;
        }
        let v = s.variant();
        let root_side = v.side_of(seat) as u8;
        let scoring = s.config().scoring;
        let salt = crate::rng::splitmix64_finalize(
            0x5EED ^ (v as u64) << 8 ^ (scoring as u64) << 16 ^ (root_side as u64) << 24,
        );
        Some(Ctx {
            variant: v,
            scoring,
            n: v.num_players() as u8,
            root_side,
            salt,
            techniques: Techniques::DEFAULT,
        })
    }

    /// The value of `s` (play phase) for the side of the player to move, under best play
    /// by everyone (see the module docs for the objective). `None` outside the play phase.
    pub fn solve(&mut self, s: &State) -> Option<i32> {
        self.solve_for(s, s.current_player()?)
    }

    /// The value of `s` (play phase) for `seat`'s side (in `3p`: for `seat`, both others
    /// against it). `None` outside the play phase or for a seat not in the game.
    pub fn solve_for(&mut self, s: &State, seat: usize) -> Option<i32> {
        let mut ctx = Solver::context(s, seat)?;
        ctx.techniques = self.techniques;
        Some(self.exact(&ctx, &Pos::from_state(s), None))
    }

    /// Whether the side of the player to move wins the round under best play by everyone
    /// (in `3p`: the player to move, both others against it; in the seal variants: wins
    /// the game by sealing in this round, R9). One null-window search ("is the value at
    /// least [`win_threshold`]?"), so cheaper than [`Solver::solve`] where the round's
    /// result is all that matters. `None` outside the play phase.
    pub fn solve_win(&mut self, s: &State) -> Option<bool> {
        self.solve_win_for(s, s.current_player()?)
    }

    /// [`Solver::solve_win`] for `seat`'s side. `None` outside the play phase or for a
    /// seat not in the game.
    pub fn solve_win_for(&mut self, s: &State, seat: usize) -> Option<bool> {
        let mut ctx = Solver::context(s, seat)?;
        ctx.techniques = self.techniques;
        let t = win_threshold(ctx.variant);
        Some(self.search(&ctx, &Pos::from_state(s), t - 1, t) >= t)
    }

    /// The exact value of every legal card of the player to move, for its side.
    /// `None` outside the play phase.
    pub fn solve_moves(&mut self, s: &State) -> Option<MoveValues> {
        self.solve_moves_for(s, s.current_player()?)
    }

    /// [`Solver::solve`] within a budget of `max_nodes` more nodes: `None` where the search
    /// would take more, as in [`Solver::solve_moves_within`] (for measuring what a budget
    /// finishes).
    pub fn solve_within(&mut self, s: &State, max_nodes: u64) -> Option<i32> {
        self.node_limit = self.nodes.saturating_add(max_nodes);
        let value = self.solve(s);
        let aborted = std::mem::take(&mut self.aborted);
        self.node_limit = u64::MAX;
        value.filter(|_| !aborted)
    }

    /// [`Solver::solve_moves`] within a budget of `max_nodes` more nodes: `None` where the
    /// search would take more (it stops there, having stored only whole searches' bounds,
    /// so the solver stays exact for later calls), as outside the play phase. Worlds of one
    /// information set differ a lot in cost (a heavy tail); a count, so reproducible.
    pub fn solve_moves_within(&mut self, s: &State, max_nodes: u64) -> Option<MoveValues> {
        self.node_limit = self.nodes.saturating_add(max_nodes);
        let values = self.solve_moves(s);
        let aborted = std::mem::take(&mut self.aborted);
        self.node_limit = u64::MAX;
        values.filter(|_| !aborted)
    }

    /// The exact value of every legal card of the player to move, for `seat`'s side (in
    /// `3p`: for `seat`, both others against it). `None` outside the play phase or for a
    /// seat not in the game.
    pub fn solve_moves_for(&mut self, s: &State, seat: usize) -> Option<MoveValues> {
        let mut ctx = Solver::context(s, seat)?;
        ctx.techniques = self.techniques;
        let pos = Pos::from_state(s);
        let legal = pos.legal();
        let reps = reduce_equivalent(legal, pos.live());
        let mut out = MoveValues {
            cards: [Card::ACE; MAX_MOVES],
            values: [0; MAX_MOVES],
            len: 0,
        };
        let mut rep_value = [0i32; 64];
        let mut r = reps;
        let mut guess = None;
        while r != 0 {
            let c = r.trailing_zeros() as u8;
            r &= r - 1;
            let v = match pos.play(&ctx, c) {
                Step::End(v) => v,
                Step::Next(q) => self.exact(&ctx, &q, guess),
            };
            if self.aborted {
                return None;
            }
            rep_value[c as usize] = v;
            guess = Some(v);
        }
        for c in CardSet(legal) {
            out.cards[out.len] = c;
            out.values[out.len] = rep_value[representative(c.id(), reps, pos.live()) as usize];
            out.len += 1;
        }
        Some(out)
    }

    /// The exact value of `p`: one full-window search, or with [`Techniques::zero_window`]
    /// a series of null-window ones, the first at `guess` when one is given (a sibling's
    /// value: often the answer or near it).
    fn exact(&mut self, ctx: &Ctx, p: &Pos, guess: Option<i32>) -> i32 {
        if !ctx.techniques.zero_window {
            return self.search(ctx, p, -INF, INF);
        }
        // The bounds hold the exact value wherever the trick stands.
        let (mut lo, mut hi, _) = p.bounds(ctx, None);
        let mut target = guess.filter(|&g| lo < g && g <= hi);
        while lo < hi {
            // Is the value at least `t`? `t` in `lo+1..=hi`, so each answer narrows.
            let t = target.take().unwrap_or(lo + (hi - lo + 1) / 2);
            let v = self.search(ctx, p, t - 1, t);
            if self.aborted {
                return 0;
            }
            // Fail-soft: an answer at or above `t` is a lower bound, below it an upper one.
            if v >= t {
                lo = v.max(t);
            } else {
                hi = v.min(t - 1);
            }
        }
        lo
    }

    /// The fail-soft value of `p` in the window `(alpha, beta)`, with the table of
    /// `ctx`'s techniques.
    fn search(&mut self, ctx: &Ctx, p: &Pos, alpha: i32, beta: i32) -> i32 {
        if !ctx.techniques.partition {
            return self
                .search_probed::<PlainTable>(ctx, p, alpha, beta, None)
                .0;
        }
        if !self.ranked.is_made() {
            self.ranked = RankedTable::new(self.table_bits);
        }
        self.search_probed::<RankedTable>(ctx, p, alpha, beta, None)
            .0
    }

    /// `T`'s look-up of `probe`, counted.
    #[inline]
    fn look_up<T: Table>(&mut self, probe: &T::Probe) -> Option<Found<T::Ranks>> {
        self.probes += 1;
        let found = T::of(self).look_up(probe);
        self.hits += found.is_some() as u64;
        found
    }

    /// [`Solver::search`] of a position whose table look-up (`Some`, at a trick boundary)
    /// is already worked out. Also gives the live cards whose ranks the value rests on
    /// (with partition search; see [`partition::Ranks`]).
    fn search_probed<T: Table>(
        &mut self,
        ctx: &Ctx,
        p: &Pos,
        mut alpha: i32,
        mut beta: i32,
        known: Option<T::Probe>,
    ) -> (i32, T::Ranks) {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
            return (0, T::Ranks::default());
        }
        let at_boundary = p.trick_len == 0;
        // The live cards whose ranks the bounds found so far rest on.
        let mut ranks = T::Ranks::default();
        let mut probe = None;
        let mut tt_move = NO_MOVE;
        let mut slots = 0;
        if at_boundary {
            // The boss bounds read the live bosses and the tallies (no rank); the sure
            // bounds, the trump suit's ranks from its lowest sure card up.
            let (lo, hi, sure) = p.bounds(ctx, Some((alpha, beta)));
            let sure = T::Ranks::cards(sure);
            if hi <= alpha {
                return (hi, sure);
            }
            if lo >= beta {
                return (lo, sure);
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            if alpha >= beta {
                return (alpha, sure);
            }
            ranks = sure;
            slots = fold_second_copies(p.live());
            let pr = known.unwrap_or_else(|| T::probe(p, ctx));
            probe = Some(pr);
            if let Some(f) = self.look_up::<T>(&pr) {
                // The window may rest on the sure bounds: their ranks count too.
                let with_sure = f.ranks.with(sure);
                if f.lo >= beta {
                    return (f.lo, with_sure);
                }
                if f.hi <= alpha {
                    return (f.hi, with_sure);
                }
                if f.lo == f.hi {
                    return (f.lo, f.ranks);
                }
                alpha = alpha.max(f.lo);
                beta = beta.min(f.hi);
                tt_move = f.best;
                ranks = ranks.with(f.ranks);
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let live = p.live();
        let legal = p.legal();
        let reps = reduce_equivalent(legal, live);
        let mut moves = [0u8; MAX_MOVES];
        let history = (ctx.techniques.history && p.trick_len == 0)
            .then(|| &self.lead_cutoffs[p.current as usize]);
        let k = order_moves(ctx, p, reps, (tt_move, slots), history, &mut moves);
        let maximizing = ctx.side_of(p.current) == ctx.root_side;
        let ends_trick = p.trick_len + 1 == ctx.n;
        // At a trick's last card with the enhanced transposition cut-off: each card's
        // next position and look-up, worked out once for the look-ups and the search.
        let mut probes = [None; MAX_MOVES];
        let mut bounds = [(-INF, INF); MAX_MOVES];
        let mut bound_ranks = [T::Ranks::default(); MAX_MOVES];
        if ctx.techniques.etc && ends_trick {
            let found = self.etc::<T>(ctx, p, &moves[..k], maximizing, (alpha, beta), &mut probes);
            match found {
                Err(cut) => return cut,
                Ok((b, r)) => (bounds, bound_ranks) = (b, r),
            }
        }
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = moves[0];
        for (i, &c) in moves[..k].iter().enumerate() {
            let (lo, hi) = bounds[i];
            // A card whose known bound cannot improve on the best so far or the window
            // needs no search: its bound stands in for its value (fail-soft).
            let (v, w) = if maximizing && hi <= alpha.max(best) {
                (hi, bound_ranks[i])
            } else if !maximizing && lo >= beta.min(best) {
                (lo, bound_ranks[i])
            } else {
                let (v, w) = match p.play(ctx, c) {
                    Step::End(v) => (v, T::Ranks::default()),
                    Step::Next(q) => self.search_probed::<T>(ctx, &q, alpha, beta, probes[i]),
                };
                if ends_trick {
                    (v, w.with(T::Ranks::trick_winner(p, ctx, c)))
                } else {
                    (v, w)
                }
            };
            if self.aborted {
                return (0, T::Ranks::default());
            }
            ranks = ranks.with(w);
            if maximizing {
                if v > best {
                    best = v;
                    best_move = c;
                    alpha = alpha.max(v);
                }
            } else if v < best {
                best = v;
                best_move = c;
                beta = beta.min(v);
            }
            if alpha >= beta {
                if ctx.techniques.history && p.trick_len == 0 {
                    let left = (ctx.variant.tricks_per_round() - p.tricks_played as usize) as u32;
                    let count = &mut self.lead_cutoffs[p.current as usize][c as usize];
                    *count = count.saturating_add(left * left);
                }
                break;
            }
        }
        let ranks = ranks.with_equivalent(legal, reps, live);
        if let Some(pr) = probe {
            let best_id = live_rank_id(best_move, slots);
            T::of(self).store(&pr, ranks, (alpha0, beta0), (best, best_id));
        }
        (best, ranks)
    }
}

impl Solver {
    /// The enhanced transposition cut-off (see [`Techniques::etc`]) at the last card of a
    /// trick: a value that refutes the window `(alpha, beta)` for the player to move, if
    /// one of `moves` is known to reach it without a search. Each look-up is a bound on
    /// that card's exact value, so a card whose bound already passes the window proves
    /// the node's value passes it too (fail-soft: the bound and the ranks it rests on are
    /// returned as `Err`). Otherwise gives each card's bounds and the ranks they rest on,
    /// and fills `probes` with the next positions' look-ups it worked out, for the search
    /// to reuse.
    #[allow(clippy::type_complexity)]
    fn etc<T: Table>(
        &mut self,
        ctx: &Ctx,
        p: &Pos,
        moves: &[u8],
        maximizing: bool,
        (alpha, beta): (i32, i32),
        probes: &mut [Option<T::Probe>; MAX_MOVES],
    ) -> Result<([(i32, i32); MAX_MOVES], [T::Ranks; MAX_MOVES]), (i32, T::Ranks)> {
        let mut bounds = [(-INF, INF); MAX_MOVES];
        let mut bound_ranks = [T::Ranks::default(); MAX_MOVES];
        for (i, &c) in moves.iter().enumerate() {
            // Who wins the trick decides the next position: its rank counts for any bound.
            let won = T::Ranks::trick_winner(p, ctx, c);
            let (lo, hi, w) = match p.play(ctx, c) {
                Step::End(v) => (v, v, won),
                Step::Next(q) => {
                    let (mut lo, mut hi, sure) = q.bounds(ctx, Some((alpha, beta)));
                    let mut w = won.with(T::Ranks::cards(sure));
                    if maximizing && lo >= beta || !maximizing && hi <= alpha {
                        return Err((if maximizing { lo } else { hi }, w));
                    }
                    let pr = T::probe(&q, ctx);
                    probes[i] = Some(pr);
                    if let Some(f) = self.look_up::<T>(&pr) {
                        lo = lo.max(f.lo);
                        hi = hi.min(f.hi);
                        w = w.with(f.ranks);
                    }
                    (lo, hi, w)
                }
            };
            if maximizing && lo >= beta {
                return Err((lo, w));
            }
            if !maximizing && hi <= alpha {
                return Err((hi, w));
            }
            bounds[i] = (lo, hi);
            bound_ranks[i] = w;
        }
        Ok((bounds, bound_ranks))
    }
}

/// The card of `reps` that stands for `c` (see [`reduce_equivalent`]): `c` itself, or
/// the higher card of its class in the same hand.
fn representative(c: u8, reps: u64, live: u64) -> u8 {
    if reps >> c & 1 == 1 {
        return c;
    }
    let card = Card::from_id_unchecked(c);
    if card.is_second_copy() {
        return card.suit().boss().id(); // a second boss copy stands for the first
    }
    let occupied = fold_second_copies(live);
    let suit = suit_of(c as u32);
    let mut at = c as u32;
    loop {
        // `occupied` has no second copies: the standard cards of the suit above `at`.
        let above = occupied & !((2u64 << at) - 1) & suit;
        let next = above.trailing_zeros();
        if reps >> next & 1 == 1 {
            return next as u8;
        }
        at = next;
    }
}

/// `c` as the table keys it: its suit and its rank among the live cards of the suit
/// (`slots`: the live cards, second copies folded), as `8·suit + rank`.
#[inline]
fn live_rank_id(c: u8, slots: u64) -> u8 {
    let card = Card::from_id_unchecked(c);
    let suit = card.suit();
    // A second copy is keyed as its first copy (`slots` has them folded so).
    let c = if card.is_second_copy() {
        suit.boss()
    } else {
        card
    };
    let below = slots & (c.bit() - 1) & suit.cards().bits();
    8 * suit as u8 + below.count_ones() as u8
}

/// Fills `out` with `moves` (the reduced legal cards of the player to move), best first;
/// returns how many. `tt_move` is the table's card as [`live_rank_id`] gives it for `slots`;
/// `lead_cutoffs`, at a lead with [`Techniques::history`], the leader's cut-offs by card.
#[inline(always)]
fn order_moves(
    ctx: &Ctx,
    p: &Pos,
    moves: u64,
    (tt_move, slots): (u8, u64),
    lead_cutoffs: Option<&[u32; 64]>,
    out: &mut [u8; MAX_MOVES],
) -> usize {
    let bosses = CardSet::BOSSES.bits();
    let mut prio = [0i32; MAX_MOVES];
    let mut k = 0;
    // Who is winning the trick so far, and how strongly.
    let (win_key, win_side) = if p.trick_len == 0 {
        (0, u8::MAX)
    } else {
        let led = p.trick[0].suit() as u8;
        let mut best = 0;
        for i in 1..p.trick_len as usize {
            if strength(p.trick[i], led, p.trump) > strength(p.trick[best], led, p.trump) {
                best = i;
            }
        }
        let seat = left_of(p.leader as usize, best, ctx.n as usize);
        (
            strength(p.trick[best], led, p.trump),
            ctx.side_of(seat as u8),
        )
    };
    let led = if p.trick_len == 0 {
        NO_SUIT
    } else {
        p.trick[0].suit() as u8
    };
    let my_side = ctx.side_of(p.current);
    let mut m = moves;
    while m != 0 {
        let c = m.trailing_zeros() as u8;
        m &= m - 1;
        let is_boss = bosses >> c & 1 == 1;
        let pr = if tt_move != NO_MOVE && live_rank_id(c, slots) == tt_move {
            1 << 30
        } else if let Some(cutoffs) = lead_cutoffs {
            // Strength first, as without history; cut-offs break its ties.
            let card = Card::from_id_unchecked(c);
            let cutoffs = cutoffs[c as usize].min((1 << 20) - 1) as i32;
            ((strength(card, card.suit() as u8, p.trump) as i32) << 20) + cutoffs
        } else if p.trick_len == 0 {
            // Leading: strong cards first.
            let card = Card::from_id_unchecked(c);
            strength(card, card.suit() as u8, p.trump) as i32
        } else {
            let s = strength(Card::from_id_unchecked(c), led, p.trump) as i32;
            let wins = s > win_key as i32;
            if win_side == my_side {
                // Partner winning: feed it bosses, else dump low.
                if is_boss && !wins {
                    300
                } else if !wins {
                    200 - s
                } else {
                    100 - s
                }
            } else if wins {
                300 - s + if is_boss { 5 } else { 0 }
            } else {
                200 - s - if is_boss { 50 } else { 0 }
            }
        };
        out[k] = c;
        prio[k] = pr;
        k += 1;
    }
    // Insertion sort, highest priority first (k <= 16).
    for i in 1..k {
        let (c, pr) = (out[i], prio[i]);
        let mut j = i;
        while j > 0 && prio[j - 1] < pr {
            out[j] = out[j - 1];
            prio[j] = prio[j - 1];
            j -= 1;
        }
        out[j] = c;
        prio[j] = pr;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> u64 {
        s.parse::<CardSet>().unwrap().bits()
    }

    /// A `4p` position, Fire trumps, seat 0 leading the trick with `trick` on the table.
    pub(super) fn fire_trumps_4p(hands: [u64; 4], trick: &[&str]) -> (Pos, Ctx) {
        let mut cards = [Card::ACE; 4];
        for (t, c) in cards.iter_mut().zip(trick) {
            *t = c.parse().unwrap();
        }
        let pos = Pos {
            hands,
            trick: cards,
            trick_len: trick.len() as u8,
            leader: 0,
            current: trick.len() as u8,
            trump: Suit::Fire as u8,
            tricks_played: 0,
            side_tricks: [0; 3],
            side_bosses: [0; 3],
            seals: [0; 2],
            round_seals: [0; 2],
        };
        let ctx = Ctx {
            variant: Variant::FourPlayer,
            scoring: Scoring::Advanced,
            n: 4,
            root_side: 0,
            salt: 0,
            techniques: Techniques::ALL,
        };
        (pos, ctx)
    }

    #[test]
    fn history_breaks_ties_between_equally_strong_leads_by_their_cut_offs() {
        let hand = cs("E5 C6 F6");
        let (p, ctx) = fire_trumps_4p([hand, 0, 0, 0], &[]);
        let order = |cutoffs: Option<&[u32; 64]>| {
            let mut out = [0u8; MAX_MOVES];
            let k = order_moves(&ctx, &p, hand, (NO_MOVE, 0), cutoffs, &mut out);
            out[..k]
                .iter()
                .map(|&c| Card::from_id_unchecked(c).to_string())
                .collect::<Vec<_>>()
        };
        // The trump first (strength), then E5 and C6 (both rank 3) in card order...
        assert_eq!(order(None), ["F6", "E5", "C6"]);
        // ...or by their cut-offs; cut-offs never pass strength.
        let mut cutoffs = [0u32; 64];
        cutoffs[cs("C6").trailing_zeros() as usize] = 9;
        cutoffs[cs("E5").trailing_zeros() as usize] = 4;
        assert_eq!(order(Some(&cutoffs)), ["F6", "C6", "E5"]);
    }

    #[test]
    fn equivalent_cards_adjacent_in_a_suit_are_one_choice() {
        // E2 and E3 in hand, nothing between them: one choice. E5 is separated by E4 (live
        // elsewhere).
        let hand = cs("E2 E3 E5");
        let live = hand | cs("E4");
        assert_eq!(reduce_equivalent(hand, live), cs("E3 E5"));
        // Once E4 is gone, E3 and E5 join too.
        assert_eq!(reduce_equivalent(hand, hand), cs("E5"));
    }

    #[test]
    fn the_a_and_bosses_never_join_a_class() {
        // WA, W2: the A wins any trick. W6, W7 (boss): the boss is captured and scores.
        let hand = cs("WA W2 W6 W7");
        assert_eq!(reduce_equivalent(hand, hand | cs("W4")), hand);
        // Seal: both copies of a boss in one hand are one choice; the first copy stays.
        let hand = cs("E7 E7b E8");
        assert_eq!(reduce_equivalent(hand, hand), cs("E7 E8"));
        // A live second copy between two plain cards keeps them apart (C7's first copy is
        // gone, C7b is not).
        let hand = cs("C6 C8");
        assert_eq!(reduce_equivalent(hand, hand | cs("C7b")), cs("C6 C8"));
        assert_eq!(reduce_equivalent(hand, hand), cs("C8"));
    }

    #[test]
    fn representatives_map_back() {
        let hand = cs("E2 E3 E5 E7 E7b");
        let live = hand | cs("E4");
        let reps = reduce_equivalent(hand, live);
        for c in CardSet(hand) {
            let r = representative(c.id(), reps, live);
            assert!(reps >> r & 1 == 1, "{c}");
        }
        assert_eq!(
            representative(cs("E2").trailing_zeros() as u8, reps, live),
            8
        );
    }
}

#[cfg(test)]
mod differential;
#[cfg(test)]
mod exactness;

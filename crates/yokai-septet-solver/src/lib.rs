//! # yokai-septet-solver
//!
//! An exact perfect-information ("double-dummy") solver for the rest of a round of Yokai
//! Septet, on the engine's rules (`yokai-septet`): its position takes R6–R9 from the
//! engine's rule kernels (`yokai_septet::rules::trick`, `yokai_septet::rules::scoring`), so
//! a rule changes in one place. It needs no bot: the bots (`yokai-septet-bots`) build on it.
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
//! value, so it answers for every position that agrees on them; `partition.rs`); and
//! sure-outcome bounds at trick boundaries (what the cards that cannot lose a trick make
//! certain or impossible under R7 and R9; `bounds.rs`). The
//! search is compiled once per way of keying the table (`table.rs`), so a technique
//! that is off costs nothing. [`Solver::solve_win`] asks one null-window question: does
//! the side to move win the round?
//!
//! Nothing is allocated while searching: positions are small `Copy` values, move lists
//! are arrays on the stack, and the table is allocated once in [`Solver::new`].
//!
//! # Files
//! One job each, as DDS keeps its solver: `position.rs` (the position, and a card played
//! from it), `value.rs` (the objective), `bounds.rs` (the bounds on a position's value:
//! what every live boss allows, and the sure-outcome bounds), `order.rs` (equivalent cards and the move order),
//! `search.rs` (alpha-beta, the enhanced transposition cut-off, the zero-window driver),
//! `table.rs` (the key and the plain table), `partition.rs` (partition search's table),
//! `techniques.rs` (the switches); this file is the solver's public face.

// Safe code only: the engine's `simd` is where the bit tricks' instructions are.
#![deny(unsafe_code)]
// Every public item says what it is.
#![warn(missing_docs)]

use yokai_septet::{Card, CardSet};
use yokai_septet::{Phase, State};

mod bounds;
#[cfg(test)]
mod differential;
#[cfg(test)]
mod exactness;
mod order;
mod partition;
mod position;
mod search;
mod table;
mod techniques;
mod value;

use order::{reduce_equivalent, representative};
use partition::RankedTable;
use position::{Ctx, Pos, Step, MAX_MOVES};
use table::{PlainTable, Table};
pub use techniques::Techniques;
pub use value::{utility, win_threshold, GAME_WIN};

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
        let salt = yokai_septet::rng::splitmix64_finalize(
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
}

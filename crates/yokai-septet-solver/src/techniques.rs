//! The search's techniques beyond plain alpha-beta with the table, each switchable so
//! that what it gains can be measured on the same deals.

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
    /// Sure-outcome bounds at trick boundaries (`bounds.rs`): the cards that win every
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

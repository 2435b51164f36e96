//! Partition search ([`super::Techniques::partition`]), as bridge solvers do it: a table
//! entry at a trick boundary keeps only the ranks that decided its value (in each suit,
//! the live cards from the lowest card that won a trick by its rank, in the searched
//! tree, up; DDS's "winning ranks"), so it answers for every position with the same key
//! that agrees on those ranks, whoever holds the lower cards.
//!
//! Its table is apart from the plain one ([`super::table::PlainTable`]) and made only
//! when the technique is first used, so a search without it pays nothing for it.

use super::order::representative;
use super::position::{fold_second_copies, suit_of, Ctx, Pos};
use super::table::{compress, mix, tightened, Found, Ranks, Table};
use super::Solver;
use yokai_septet::{Card, CardSet, Suit};

/// Partition search's ranks: a set of folded cards.
impl Ranks for u64 {
    #[inline(always)]
    fn with(self, other: u64) -> u64 {
        self | other
    }
    #[inline(always)]
    fn trick_winner(p: &Pos, ctx: &Ctx, c: u8) -> u64 {
        p.rank_winner(ctx, c)
    }
    #[inline(always)]
    fn with_equivalent(self, legal: u64, reps: u64, live: u64) -> u64 {
        with_equivalent_ranks(self, legal, reps, live)
    }
    #[inline(always)]
    fn cards(cards: u64) -> u64 {
        cards
    }
}

/// Entries per bucket: the entries of one position key, whichever ranks they keep.
const WAYS: usize = 4;

/// A partition-search entry: bounds on the exact value of every position of its class,
/// and the best card. The class is the positions whose [`RankedProbe`] has the same key
/// and the same ranks under `sig`.
#[derive(Clone, Copy, Default)]
struct RankedEntry {
    /// [`RankedProbe::class_key`] of `sig`.
    key: u64,
    /// The significant ranks, a mask over [`RankedProbe::ranks`].
    sig: u64,
    lo: i16,
    hi: i16,
    best: u8,
}

/// A position's look-up for partition search.
#[derive(Clone, Copy, Default)]
pub(super) struct RankedProbe {
    /// Everything but the plain cards' ranks.
    key: u64,
    /// Each hand's cards as places among the live cards (`slots`), packed low.
    ranks: [u64; 4],
    /// The live cards, second copies folded onto their first copies.
    slots: u64,
}

impl RankedProbe {
    /// The key of the class of positions that agree with this one on the ranks of `sig`
    /// (the positions' ranks share one layout: the key holds each suit's live cards).
    #[inline]
    fn class_key(&self, sig: u64) -> u64 {
        self.ranks.iter().fold(self.key, |h, &r| mix(h, r & sig))
    }
}

/// Partition search's table: [`WAYS`]-way buckets picked by the key without the ranks,
/// each entry in the way its class key picks.
pub(super) struct RankedTable {
    entries: Vec<RankedEntry>,
    mask: u64,
}

impl RankedTable {
    /// `2^bits` entries of 24 bytes (none for `bits == 0`: not made yet).
    pub fn new(bits: u32) -> RankedTable {
        if bits == 0 {
            return RankedTable {
                entries: Vec::new(),
                mask: 0,
            };
        }
        RankedTable {
            entries: vec![RankedEntry::default(); 1 << bits],
            mask: (1u64 << bits) - 1,
        }
    }

    /// Whether the table is made.
    pub fn is_made(&self) -> bool {
        !self.entries.is_empty()
    }

    #[inline]
    fn bucket(&self, probe: &RankedProbe) -> usize {
        (probe.key & self.mask) as usize & !(WAYS - 1)
    }
}

impl Table for RankedTable {
    type Probe = RankedProbe;
    type Ranks = u64;

    #[inline]
    fn of(solver: &mut Solver) -> &mut RankedTable {
        &mut solver.ranked
    }

    #[inline]
    fn probe(p: &Pos, ctx: &Ctx) -> RankedProbe {
        let mut ranks = [0; 4];
        let key = p.key::<true>(ctx, &mut ranks);
        RankedProbe {
            key,
            ranks,
            slots: fold_second_copies(p.live()),
        }
    }

    /// Every entry of the bucket that answers for the position (each a true bound, so
    /// all of them together), with the live cards whose ranks they rest on and the best
    /// card of the first.
    #[inline]
    fn look_up(&self, probe: &RankedProbe) -> Option<Found<u64>> {
        let at = self.bucket(probe);
        let mut found: Option<Found<u64>> = None;
        // Entries of one bucket mostly keep the same ranks: each class key worked out once.
        let mut last = (u64::MAX, probe.class_key(u64::MAX));
        for e in &self.entries[at..at + WAYS] {
            if e.sig != last.0 {
                last = (e.sig, probe.class_key(e.sig));
            }
            if e.key != last.1 {
                continue;
            }
            let ranks = expand(e.sig, probe.slots);
            let (lo, hi) = (e.lo as i32, e.hi as i32);
            found = Some(match found {
                None => Found {
                    lo,
                    hi,
                    best: e.best,
                    ranks,
                },
                Some(f) => Found {
                    lo: f.lo.max(lo),
                    hi: f.hi.min(hi),
                    best: f.best,
                    ranks: f.ranks | ranks,
                },
            });
        }
        found
    }

    #[inline]
    fn store(&mut self, probe: &RankedProbe, ranks: u64, window: (i32, i32), best: (i32, u8)) {
        let sig = significant(ranks, probe.slots);
        let key = probe.class_key(sig);
        let at = self.bucket(probe) + (key >> 62) as usize;
        let e = &mut self.entries[at];
        let old = (e.key == key && e.sig == sig).then_some((e.lo, e.hi));
        let (lo, hi) = tightened(old, best.0, window);
        *e = RankedEntry {
            key,
            sig,
            lo,
            hi,
            best: best.1,
        };
    }

    fn clear(&mut self) {
        self.entries.fill(RankedEntry::default());
    }
}

/// A value's significant cards as places among the live cards (`slots`): in each suit,
/// every live card from the lowest of `ranks` up. Those below it were never compared with
/// a card that won a trick by its rank, so which hand holds which of them does not matter
/// (only how many each holds, which the key has).
#[inline]
fn significant(ranks: u64, slots: u64) -> u64 {
    let mut sig = 0;
    let mut r = ranks & slots;
    while r != 0 {
        let low = r & r.wrapping_neg();
        let suit = suit_of(low.trailing_zeros());
        sig |= slots & suit & !(low - 1);
        r &= !suit;
    }
    compress(sig, slots)
}

/// The live cards (`slots`, as [`RankedProbe::slots`]) at the places of `sig`: the
/// inverse of [`compress`], with BMI2's `pdep` where the CPU has it.
#[inline]
fn expand(sig: u64, slots: u64) -> u64 {
    if let Some(spread) = yokai_septet::simd::pdep(yokai_septet::simd::Cpu::detect(), sig, slots) {
        return spread;
    }
    let mut out = 0;
    let mut m = slots;
    let mut k = 0;
    while m != 0 {
        let b = m & m.wrapping_neg();
        if sig >> k & 1 == 1 {
            out |= b;
        }
        k += 1;
        m &= m - 1;
    }
    out
}

/// `ranks` (the live cards a value rests on) with the cards of `legal` left out of the
/// search as equivalent to a higher card of the hand (`reps`: those searched) added where
/// they count: such a card stands for itself only while the cards between them are gone,
/// so where the higher one's rank counts, so do the ranks down to it.
#[inline]
pub(super) fn with_equivalent_ranks(ranks: u64, legal: u64, reps: u64, live: u64) -> u64 {
    let mut out = ranks;
    let mut merged = legal & !reps & CardSet::STANDARD_DECK.bits();
    while merged != 0 {
        let c = merged.trailing_zeros();
        merged &= merged - 1;
        let r = representative(c as u8, reps, live);
        if out & suit_of(c) & ((2u64 << r) - 1) != 0 {
            out |= 1 << c;
        }
    }
    out
}

impl Pos {
    /// The card whose rank decided the trick that `c` (legal) ends, as a set (folded, as
    /// [`fold_second_copies`]): the winner, when another card of its suit was beaten by
    /// it; empty when the A won or no other card of the winner's suit was played (a lone
    /// trump, or a lead nobody followed), where no rank was compared.
    #[inline]
    pub(super) fn rank_winner(&self, ctx: &Ctx, c: u8) -> u64 {
        let n = ctx.n as usize;
        let mut cards = self.trick;
        cards[n - 1] = Card::from_id_unchecked(c);
        let trump = Suit::from_index(self.trump as usize).unwrap_or(cards[0].suit());
        let w = cards[yokai_septet::rules::trick::winning_index(&cards[..n], trump)];
        if w == Card::ACE {
            return 0;
        }
        let others = cards[..n]
            .iter()
            .filter(|&&x| x != w && x.suit() == w.suit());
        if others.count() == 0 {
            return 0;
        }
        fold_second_copies(w.bit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> u64 {
        s.parse::<CardSet>().unwrap().bits()
    }

    #[test]
    fn r6_a_trick_won_over_a_card_of_its_suit_makes_its_winners_rank_count() {
        let last = |played: [&str; 3], c: &str| {
            let (pos, ctx) = crate::position::fire_trumps_4p([0; 4], &played);
            pos.rank_winner(&ctx, c.parse::<Card>().unwrap().id())
        };
        // E5 beats E3, E4 and E2 by rank.
        assert_eq!(last(["E3", "E5", "E2"], "E4"), cs("E5"));
        // A trump over trumps wins by rank too.
        assert_eq!(last(["E3", "F9", "F7"], "E4"), cs("F9"));
        // A lone trump, the A, and a lead nobody followed win whatever their rank.
        assert_eq!(last(["E3", "F9", "E2"], "E4"), 0);
        assert_eq!(last(["E3", "WA", "E5"], "E4"), 0);
        assert_eq!(last(["E3", "C4", "D5"], "S8"), 0);
    }

    #[test]
    fn partition_keys_a_suit_from_its_lowest_rank_that_counted_up() {
        // Live: E2 E3 E5 E8 and C3 C4. E5's rank counted: E5 and E8 are significant, E2,
        // E3 and the whole of Charm are not.
        let slots = cs("E2 E3 E5 E8 C3 C4");
        let sig = significant(cs("E5"), slots);
        assert_eq!(expand(sig, slots), cs("E5 E8"));
        assert_eq!(significant(0, slots), 0);
    }

    #[test]
    fn a_card_merged_into_a_higher_one_counts_where_that_ones_rank_counts() {
        // E2 E3 in one hand, E3 searched for both; E5 live elsewhere.
        let legal = cs("E2 E3");
        let live = legal | cs("E5");
        let reps = cs("E3");
        assert_eq!(
            with_equivalent_ranks(cs("E3"), legal, reps, live),
            cs("E2 E3")
        );
        assert_eq!(with_equivalent_ranks(cs("E5"), legal, reps, live), cs("E5"));
    }
}

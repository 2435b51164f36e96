//! The transposition table: bounds on the values of positions at trick boundaries and
//! their best cards, kept across searches (entries stay true bounds, so the table only
//! ever speeds later searches up).
//!
//! The search is generic over [`Table`], so each way of keying is compiled on its own:
//! the plain table here (an entry answers for its own position, 16 bytes) is what the
//! default search pays for, and partition search's table ([`super::partition`], an entry
//! answers for every position that agrees on the ranks that decided its value) costs
//! nothing where it is off.

use super::position::{fold_second_copies, Ctx, Pos};
use super::Solver;
use yokai_septet::rules::scoring::boss_points;
use yokai_septet::{CardSet, Suit};

/// The live cards whose ranks a value rests on: a set of folded cards (as
/// [`super::fold_second_copies`]) where the table keeps them (partition search), nothing at
/// all (`()`: no bytes, no work) where it does not (the search is compiled once for each).
pub(super) trait Ranks: Copy + Default {
    /// The union.
    fn with(self, other: Self) -> Self;
    /// The card whose rank decided the trick that `c` ends at `p` (partition search's
    /// `Pos::rank_winner`).
    fn trick_winner(p: &Pos, ctx: &Ctx, c: u8) -> Self;
    /// These ranks with the cards left out as equivalent added where they count
    /// (partition search's `with_equivalent_ranks`).
    fn with_equivalent(self, legal: u64, reps: u64, live: u64) -> Self;
    /// The folded cards `cards` (the sure bounds' ranks, [`super::bounds`]).
    fn cards(cards: u64) -> Self;
}

impl Ranks for () {
    #[inline(always)]
    fn with(self, _: ()) {}
    #[inline(always)]
    fn trick_winner(_: &Pos, _: &Ctx, _: u8) {}
    #[inline(always)]
    fn with_equivalent(self, _: u64, _: u64, _: u64) {}
    #[inline(always)]
    fn cards(_: u64) {}
}

/// What the table knows of a position: bounds on its exact value, the best card found (as
/// [`super::live_rank_id`] keys it) and the ranks the bounds rest on.
#[derive(Clone, Copy)]
pub(super) struct Found<R> {
    pub lo: i32,
    pub hi: i32,
    pub best: u8,
    pub ranks: R,
}

/// A way of keying the table (see the module documentation).
pub(super) trait Table {
    /// A position's look-up, worked out once: the enhanced transposition cut-off hands
    /// the ones it made to the search of those positions.
    type Probe: Copy;
    /// The ranks a value rests on (`()` where the table keys every rank: the search's
    /// bookkeeping of ranks is then compiled out).
    type Ranks: Ranks;
    /// This table of `solver`.
    fn of(solver: &mut Solver) -> &mut Self;
    /// The look-up of `p`, at a trick boundary.
    fn probe(p: &Pos, ctx: &Ctx) -> Self::Probe;
    /// The bounds that answer for the position of `probe`, if any.
    fn look_up(&self, probe: &Self::Probe) -> Option<Found<Self::Ranks>>;
    /// Stores the value `best` (best card `best_move`, as [`super::live_rank_id`] keys
    /// it) that a search in the window `window` found, resting on `ranks`.
    fn store(
        &mut self,
        probe: &Self::Probe,
        ranks: Self::Ranks,
        window: (i32, i32),
        best: (i32, u8),
    );
    /// Forgets every entry.
    fn clear(&mut self);
}

/// The bounds `(lo, hi)` (`None`: none known) tightened by a search's fail-soft value
/// `best` in the window `(alpha0, beta0)`, clamped to an entry's `i16`s.
#[inline]
pub(super) fn tightened(
    old: Option<(i16, i16)>,
    best: i32,
    (alpha0, beta0): (i32, i32),
) -> (i16, i16) {
    let (mut lo, mut hi) = old.map_or((i32::MIN, i32::MAX), |(l, h)| (l as i32, h as i32));
    if best <= alpha0 {
        hi = hi.min(best);
    } else if best >= beta0 {
        lo = lo.max(best);
    } else {
        lo = best;
        hi = best;
    }
    let clamp = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    (clamp(lo), clamp(hi))
}

/// An entry of the plain table: its position's key, bounds on its value, its best card.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    lo: i16,
    hi: i16,
    best: u8,
}

/// The plain table: one entry per position, direct-mapped by its key.
pub(super) struct PlainTable {
    entries: Vec<Entry>,
    mask: u64,
}

impl PlainTable {
    /// `2^bits` entries of 16 bytes.
    pub fn new(bits: u32) -> PlainTable {
        PlainTable {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1u64 << bits) - 1,
        }
    }
}

impl Table for PlainTable {
    type Probe = u64;
    type Ranks = ();

    #[inline]
    fn of(solver: &mut Solver) -> &mut PlainTable {
        &mut solver.plain
    }

    #[inline]
    fn probe(p: &Pos, ctx: &Ctx) -> u64 {
        p.key::<false>(ctx, &mut [0; 4])
    }

    #[inline]
    fn look_up(&self, &key: &u64) -> Option<Found<()>> {
        let e = self.entries[(key & self.mask) as usize];
        (e.key == key).then_some(Found {
            lo: e.lo as i32,
            hi: e.hi as i32,
            best: e.best,
            ranks: (),
        })
    }

    #[inline]
    fn store(&mut self, &key: &u64, _ranks: (), window: (i32, i32), (best, best_move): (i32, u8)) {
        let e = &mut self.entries[(key & self.mask) as usize];
        let old = (e.key == key).then_some((e.lo, e.hi));
        let (lo, hi) = tightened(old, best, window);
        *e = Entry {
            key,
            lo,
            hi,
            best: best_move,
        };
    }

    fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}

/// One more word mixed into a table key.
#[inline]
pub(super) fn mix(h: u64, w: u64) -> u64 {
    yokai_septet::rng::splitmix64_finalize(h ^ w.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// The bits of `set` at the places of `mask`'s bits, packed down: BMI2's `pext` where the
/// CPU has it (the table key calls this four times a trick boundary), else a loop.
#[inline]
pub(super) fn compress(set: u64, mask: u64) -> u64 {
    if let Some(packed) = yokai_septet::simd::pext(yokai_septet::simd::Cpu::detect(), set, mask) {
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

/// How many cards of each suit `hand` holds, a nibble per suit: what the rules of
/// following read, which a partition entry's key must hold since its ranks may not.
#[inline]
pub(super) fn suit_lengths(hand: u64) -> u64 {
    let mut lengths = 0u64;
    for suit in Suit::ALL {
        let held = (hand & suit.cards().bits()).count_ones() as u64;
        lengths |= held << (4 * suit as u64);
    }
    lengths
}

impl Pos {
    /// The table key of a position at a trick boundary. A card that is gone plays no
    /// further part, so the plain cards are keyed by their rank among the suit's live
    /// cards, not by their own (as bridge solvers do): positions that differ only in
    /// which low cards fell earlier share an entry. The A and the bosses, which score or
    /// win on their own, are keyed by identity too. With `RANKED` (partition search) the
    /// ranks are left out of the key and written to `ranks` instead, hand by hand, and
    /// how many cards of each suit each hand holds is keyed, so that an entry needs only
    /// the ranks that decided its value.
    #[inline]
    pub(super) fn key<const RANKED: bool>(&self, ctx: &Ctx, ranks: &mut [u64; 4]) -> u64 {
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
                h = mix(h, suit_lengths(hand));
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
}

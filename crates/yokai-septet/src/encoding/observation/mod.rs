//! The one canonical observation encoder: the information state of one seat as a flat,
//! fixed-size vector (R10), and the legal-action mask.
//!
//! # Why it looks like this
//! - **Built from a [`SeatView`] only.** The view cannot reach other players' hands, so
//!   an observation cannot leak them; `tests/observation.rs` checks it anyway by
//!   re-dealing everything the seat cannot see and comparing the vectors bit for bit.
//! - **Seen from the seat.** Seats are rotated so that relative seat 0 is the observer,
//!   1 the player to its left, 2 the next one (the partner in 4-player variants), 3 the
//!   player to its right (`3p`: 0 me, 1 left, 2 right). One network can then play every
//!   seat. Teams are likewise "mine" (0) and "theirs" (1).
//! - **Small non-negative integers only.** Every feature is 0/1 or a count (the largest
//!   are scores, at most a few dozen, and the round number, clipped at 255), so the
//!   same vector is exact as `f32` or as `u8` ([`ObsValue`]). Nothing is normalised:
//!   scale counts in the model if you want to.
//! - **One source of truth for the layout.** [`layout`] is computed (at compile time)
//!   from the same field table the encoder writes through: the encoder asks the layout
//!   for each field's slice, so a documented offset cannot drift from the real one.
//!   [`layout_markdown`] renders it; `docs/observation.md` is generated from it by
//!   `cargo run -p yokai-septet --example print_layout`.
//! - **Allocation-free and store-bound**: the encoder first builds the whole vector as a
//!   bit image on the stack (one bit per value: card sets are shifted in whole, counts
//!   left 0), then expands the bits into `out` with the widest stores the CPU has
//!   (AVX-512, AVX2 or a portable table, chosen at run time, same output; see the
//!   private `expand` module), and the few counts are written last. The vector is
//!   stored exactly once, no zero-fill first. For `f32` that store is most of the cost
//!   (see `benches/observation.rs` and `tools/encode_levels.rs`), so the card-id
//!   blocks, which come first, are stored as soon as they are built and the store
//!   drains while the small fields are computed.
//!
//! The field-by-field layout of every variant follows; it is `docs/observation.md`,
//! generated from [`layout_markdown`] (a test fails when the file is stale).
#![doc = include_str!("../../../docs/observation.md")]

use crate::cards::{left_of, relative_to, Card, CardSet, NUM_SUITS};
use crate::infoset::view::SeatView;
use crate::rules::config::Variant;
use crate::rules::{Phase, RoundEnd};
use crate::simd::expand::expand;
use crate::simd::{self, Cpu, CpuLevel, Kernel};

/// A value an observation can be written as: every feature is a small non-negative
/// integer, so `f32` and `u8` are both exact. Implemented for exactly those two (the
/// trait is sealed: each has SIMD kernels in the private `expand` module).
pub trait ObsValue:
    crate::simd::expand::Expand + PartialEq + std::fmt::Debug + Send + Sync
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// The count `n` as this type (exact: `n` is small).
    fn from_count(n: u8) -> Self;
}

impl ObsValue for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    #[inline]
    fn from_count(n: u8) -> f32 {
        n as f32
    }
}

impl ObsValue for u8 {
    const ZERO: u8 = 0;
    const ONE: u8 = 1;
    #[inline]
    fn from_count(n: u8) -> u8 {
        n
    }
}

pub use crate::encoding::layout::Field;

mod describe;
mod mask;

use crate::encoding::layout::{Layout, Spec};
pub use describe::describe;
pub use mask::{legal_mask, write_mask, write_mask_bool};

/// The fields, in vector order. The encoder writes each through its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum F {
    // Card-id blocks first: written whole, a byte at a time (no zero-fill needed).
    Hand,
    TrumpCard,
    Trick,
    Played,
    Passed,
    Received,
    Phase,
    ToAct,
    TrumpSuit,
    TrickLeader,
    LedSuit,
    HandSizes,
    TricksWon,
    BossesWon,
    CapturedBosses,
    TeamTricks,
    TeamBosses,
    PicksMade,
    Voids,
    Scores,
    Seals,
    Round,
    LastRoundWinners,
    LastRoundReason,
    LastRoundPoints,
    GameWinners,
    Truncated,
}

const NUM_FIELDS: usize = 27;

const ALL_FIELDS: [F; NUM_FIELDS] = [
    F::Hand,
    F::TrumpCard,
    F::Trick,
    F::Played,
    F::Passed,
    F::Received,
    F::Phase,
    F::ToAct,
    F::TrumpSuit,
    F::TrickLeader,
    F::LedSuit,
    F::HandSizes,
    F::TricksWon,
    F::BossesWon,
    F::CapturedBosses,
    F::TeamTricks,
    F::TeamBosses,
    F::PicksMade,
    F::Voids,
    F::Scores,
    F::Seals,
    F::Round,
    F::LastRoundWinners,
    F::LastRoundReason,
    F::LastRoundPoints,
    F::GameWinners,
    F::Truncated,
];

/// Number of `passed`/`received` blocks: one per seat passed to.
const fn pass_blocks(v: Variant) -> usize {
    if v.is_seal() {
        3
    } else {
        1
    }
}

/// Boss cards in the deck: 7, or 14 with the seal copies.
const fn boss_cards(v: Variant) -> usize {
    if v.is_seal() {
        14
    } else {
        7
    }
}

/// Round-end reasons in `last_round_reason` order.
/// Name, length in `v`, and meaning of a field: the single table both the encoder and
/// the documentation read.
const fn spec(f: F, v: Variant) -> (&'static str, usize, &'static str) {
    let n = v.num_players();
    let d = v.deck_size();
    let teams = v.has_teams();
    match f {
        F::Hand => ("hand", d, "my hand now, by card id (during passing: as dealt, my picks included)"),
        F::Phase => ("phase", 3, "one-hot phase: pass, play, over"),
        F::ToAct => ("to_act", n, "one-hot relative seat whose decision it is (all 0 when over)"),
        F::TrumpSuit => ("trump_suit", NUM_SUITS + 1, "one-hot trump suit 0..6; index 7 = not known yet (seal round before its first lead)"),
        F::TrumpCard => ("trump_card", if v.has_trump_card() { d } else { 0 }, "one-hot face-up trump card, by card id"),
        F::TrickLeader => ("trick_leader", n, "one-hot relative seat leading the trick in progress or about to start (all 0 before the first round's leader is known)"),
        F::LedSuit => ("led_suit", NUM_SUITS, "one-hot suit led in the trick in progress (all 0 before its first card)"),
        F::Trick => ("trick", n * d, "per relative seat, a card-id block: the card it played to the trick in progress"),
        F::Played => ("played", n * d, "per relative seat, a card-id block: every card it played this round (trick in progress included)"),
        F::HandSizes => ("hand_sizes", n, "cards each relative seat holds (count)"),
        F::TricksWon => ("tricks_won", n, "tricks each relative seat won this round (count)"),
        F::BossesWon => ("bosses_won", n, "bosses each relative seat captured this round (count)"),
        F::CapturedBosses => ("captured_bosses", n * boss_cards(v), "per relative seat, the bosses it captured this round, by suit (seal variants: 7 first copies, then 7 second copies)"),
        F::TeamTricks => ("team_tricks", if teams { 2 } else { 0 }, "tricks won this round by my team, their team (count)"),
        F::TeamBosses => ("team_bosses", if teams { 2 } else { 0 }, "bosses captured this round by my team, their team (count)"),
        F::PicksMade => ("picks_made", n, "passing picks each relative seat has made this round (count; public, which cards is not)"),
        F::Passed => ("passed", pass_blocks(v) * d, "card-id blocks of the cards I picked to pass, by receiver: 4p one block (partner), 3p one block (left), seal three (left, partner, right)"),
        F::Received => ("received", pass_blocks(v) * d, "card-id blocks of the cards I received in the exchange, by giver: 4p one block (partner), 3p one (right), seal three (left, partner, right)"),
        F::Voids => ("voids", n * NUM_SUITS, "per relative seat, 7 suits: 1 if it has shown void in that suit this round"),
        F::Scores => ("scores", v.num_sides(), "game score per relative side: teams (mine, theirs) in 4-player variants, seats (me, left, right) in 3p; seal variants: suits sealed"),
        F::Seals => ("seals", if v.is_seal() { 2 * NUM_SUITS } else { 0 }, "two blocks of 7 suits: sealed by my team, by their team"),
        F::Round => ("round", 1, "round index, 0-based, clipped at 255"),
        F::LastRoundWinners => ("last_round_winners", n, "relative seats that won the last completed round (all 0 before one)"),
        F::LastRoundReason => ("last_round_reason", RoundEnd::ALL.len(), "one-hot reason the last completed round ended: bosses, tricks, last_trick, complete, sealed"),
        F::LastRoundPoints => ("last_round_points", n, "points each relative seat gained in the last completed round (seal: seals its team made)"),
        F::GameWinners => ("game_winners", n, "relative seats that won the game (all 0 until it is over)"),
        F::Truncated => ("truncated", 1, "1 if the game was stopped by the round cap"),
    }
}

/// A variant's layout, computed at compile time from [`spec`].
const fn build(v: Variant) -> Layout<NUM_FIELDS> {
    let mut specs: [Spec; NUM_FIELDS] = [("", 0, ""); NUM_FIELDS];
    let mut i = 0;
    while i < NUM_FIELDS {
        // ALL_FIELDS is in id order, so field `f`'s entry is `specs[f as usize]`.
        assert!(ALL_FIELDS[i] as usize == i);
        specs[i] = spec(ALL_FIELDS[i], v);
        i += 1;
    }
    Layout::new(specs)
}

static LAYOUTS: [Layout<NUM_FIELDS>; 4] = crate::encoding::layout::per_variant!(build);

#[inline]
fn layout_of(v: Variant) -> &'static Layout<NUM_FIELDS> {
    &LAYOUTS[v as usize]
}

/// Length of the observation vector of `variant`.
#[inline]
pub const fn observation_size(variant: Variant) -> usize {
    LAYOUTS[variant as usize].size
}

/// The fields of `variant`'s observation, in vector order, contiguous from 0.
pub fn layout(variant: Variant) -> &'static [Field] {
    layout_of(variant).fields()
}

/// `variant`'s layout as a Markdown table.
pub fn layout_markdown(variant: Variant) -> String {
    layout_of(variant).markdown(variant.name())
}

/// The observation layouts of all four variants as one Markdown document: the content of
/// `docs/observation.md` (`cargo run -p yokai-septet --example print_layout > docs/observation.md`).
pub fn layout_docs() -> String {
    crate::encoding::layout::docs(
        "## Observation layouts\n\n\
         Generated by `cargo run -p yokai-septet --example print_layout` from \
         `crates/yokai-septet/src/encoding/observation/mod.rs`; do not edit by hand. Relative seats: 0 = the observer, 1 = its left, 2 = the next \
         (partner in 4-player variants; right in `3p`), 3 = its right. Teams: mine, \
         theirs. Every value is 0/1 or a small count (exact as `u8`).\n",
        layout_markdown,
    )
}

/// A variant's layout as compile-time constants (`V` = the variant's index in
/// [`Variant::ALL`]): the encoder is monomorphised per variant, so every offset, length
/// and loop bound below is a constant and the bounds checks fold away.
struct Lay<const V: usize>;

/// Most 64-bit words any variant's bit image needs (seal: 1005 values), with the spare
/// zero word [`crate::simd::expand`] reads past the end.
const MAX_WORDS: usize = 17;

impl<const V: usize> Lay<V> {
    const VARIANT: Variant = Variant::ALL[V];
    const OFFSET: [usize; NUM_FIELDS] = build(Variant::ALL[V]).offset;
    const LEN: [usize; NUM_FIELDS] = build(Variant::ALL[V]).len;
    const SIZE: usize = build(Variant::ALL[V]).size;
    const DECK: usize = Variant::ALL[V].deck_size();
    const N: usize = Variant::ALL[V].num_players();
    const WORDS: usize = Self::SIZE / 64 + 2;
    /// The image's leading words that hold only card-id blocks (every field before
    /// `phase`): final once those blocks are built, so they are stored first.
    const HEAD_WORDS: usize = Self::OFFSET[F::Phase as usize] / 64;
    /// Compile-time checks of the encoder's assumptions, evaluated where it is
    /// instantiated: the image fits, and each of its two parts is at least one vector.
    const CHECK: () = assert!(
        Self::WORDS <= MAX_WORDS
            && Self::HEAD_WORDS >= 1
            && Self::SIZE - 64 * Self::HEAD_WORDS >= 64
    );
}

/// The observation as one bit per value, before [`crate::simd::expand`] writes it out: every
/// 0/1 feature is set here; counts stay 0 and are written after the expansion.
struct Image<const V: usize> {
    words: [u64; MAX_WORDS],
}

impl<const V: usize> Image<V> {
    /// ORs `bits` into field `f` from its value `i` on (`bits` must fit in the field).
    #[inline(always)]
    fn put(&mut self, f: F, i: usize, bits: u64) {
        let len = Lay::<V>::LEN[f as usize];
        debug_assert!(i < len && (len - i >= 64 || bits >> (len - i) == 0));
        let at = Lay::<V>::OFFSET[f as usize] + i;
        let (w, s) = (at / 64, at % 64);
        self.words[w] |= bits << s;
        // The bits that cross into the next word (none when s = 0, without a shift by 64).
        self.words[w + 1] |= (bits >> 1) >> (63 - s);
    }

    #[inline(always)]
    fn one(&mut self, f: F, i: usize) {
        self.put(f, i, 1);
    }
}

/// Writes the count fields into the expanded vector.
struct Counts<'o, T, const V: usize> {
    out: &'o mut [T],
}

impl<T: ObsValue, const V: usize> Counts<'_, T, V> {
    /// Sets value `i` of the count field `f` to `n`.
    #[inline(always)]
    fn set(&mut self, f: F, i: usize, n: u8) {
        debug_assert!(i < Lay::<V>::LEN[f as usize]);
        self.out[Lay::<V>::OFFSET[f as usize] + i] = T::from_count(n);
    }

    /// A count that may exceed a byte, clipped at 255.
    #[inline(always)]
    fn clipped(&mut self, f: F, i: usize, n: usize) {
        self.set(f, i, n.min(255) as u8);
    }
}

/// The seats of `mask` (bit `p` = seat `p`, `n` seats) renumbered relative to `me`.
#[inline(always)]
fn relative_mask(mask: u8, me: usize, n: usize) -> u64 {
    let m = mask as u64 & ((1 << n) - 1);
    ((m >> me) | (m << (n - me))) & ((1 << n) - 1)
}

/// The `captured_bosses` bits of a seat's captured cards: 7 bits for the first copies by
/// suit, then 7 for the second copies (`pext` on the boss ids, which rise with the suit).
#[inline(always)]
fn boss_bits(cpu: Cpu, won: CardSet) -> u64 {
    simd::pext(cpu, won.bits(), CardSet::BOSSES.bits()).unwrap_or_else(|| {
        won.bosses()
            .into_iter()
            .fold(0, |m, b| m | 1 << boss_index(b))
    })
}

/// Index of a boss card in `captured_bosses` blocks: its suit, plus 7 for a second copy.
#[inline]
fn boss_index(c: Card) -> usize {
    c.suit() as usize + if c.is_second_copy() { NUM_SUITS } else { 0 }
}

/// The `passed`/`received` block for the relative seat `rel` (`1..n`).
#[inline]
fn pass_block(v: Variant, rel: usize) -> usize {
    if v.is_seal() {
        rel - 1
    } else {
        0
    }
}

/// Writes `view`'s observation into `out` (length [`observation_size`]; panics
/// otherwise). Allocation-free. Works for `f32` and `u8` alike; uses AVX-512 or AVX2
/// where the CPU has them (detected at run time), with identical output.
pub fn encode<T: ObsValue>(view: &SeatView, out: &mut [T]) {
    encode_with(Cpu::detect(), view, out)
}

/// [`encode`] with the kernels of `level` or, if the CPU lacks it, of the CPU's own
/// level (for tests and benchmarks that compare the kernels).
#[doc(hidden)]
pub fn encode_at<T: ObsValue>(level: CpuLevel, view: &SeatView, out: &mut [T]) {
    encode_with(Cpu::at_most(level), view, out)
}

/// [`encode`] compiled for `cpu`'s level.
#[inline(always)]
fn encode_with<T: ObsValue>(cpu: Cpu, view: &SeatView, out: &mut [T]) {
    assert_eq!(
        out.len(),
        observation_size(view.variant()),
        "observation buffer has the wrong length"
    );
    simd::dispatch(cpu, Encode { view, out })
}

/// The encoder as a [`Kernel`]: compiled once per CPU level.
struct Encode<'a, 'v, T> {
    view: &'a SeatView<'v>,
    out: &'a mut [T],
}

impl<T: ObsValue> Kernel for Encode<'_, '_, T> {
    type Output = ();

    #[inline(always)]
    fn run(self, cpu: Cpu) {
        match self.view.variant() {
            Variant::FourPlayer => encode_v::<T, 0>(cpu, self.view, self.out),
            Variant::ThreePlayer => encode_v::<T, 1>(cpu, self.view, self.out),
            Variant::Seal => encode_v::<T, 2>(cpu, self.view, self.out),
            Variant::SealShort => encode_v::<T, 3>(cpu, self.view, self.out),
        }
    }
}

/// [`encode`] for the variant `Variant::ALL[V]`, with the kernels of `cpu`'s level (a
/// constant where it is inlined).
#[inline(always)]
fn encode_v<T: ObsValue, const V: usize>(cpu: Cpu, view: &SeatView, out: &mut [T]) {
    #[allow(clippy::let_unit_value)]
    let () = Lay::<V>::CHECK;
    debug_assert_eq!(view.variant(), Lay::<V>::VARIANT);
    let out = &mut out[..Lay::<V>::SIZE];
    let mut img = Image::<V> {
        words: [0; MAX_WORDS],
    };
    card_blocks(view, &mut img);
    // The card-id blocks are final: store their words now. For `f32` that store is
    // most of the encoder's time, and it drains while the rest is computed (storing
    // the whole image at the end: 4p float32 67 ns against 53 in criterion).
    let head_len = 64 * Lay::<V>::HEAD_WORDS;
    let (head, tail) = out.split_at_mut(head_len);
    // `expand` reads words `HEAD_WORDS` and `HEAD_WORDS + 1` as spares and stores nothing
    // from them.
    expand(cpu, &img.words[..Lay::<V>::HEAD_WORDS + 2], head);
    let bosses = small_fields(cpu, view, &mut img);
    // The tail's words are `HEAD_WORDS..`, with the image's spare.
    expand(cpu, &img.words[Lay::<V>::HEAD_WORDS..Lay::<V>::WORDS], tail);
    count_fields::<T, V>(view, &bosses, out);
}

/// The card-id blocks of `view`'s observation, into the bit image.
#[inline(always)]
fn card_blocks<const V: usize>(view: &SeatView, img: &mut Image<V>) {
    let v = Lay::<V>::VARIANT;
    let (n, d) = (Lay::<V>::N, Lay::<V>::DECK);
    let me = view.seat();
    // `n` is a constant here, so with 4 seats these are masks, which also lets the
    // compiler drop the bounds checks.
    let rel = |seat: usize| relative_to(seat, me, n);
    let abs = |r: usize| left_of(me, r, n);
    img.put(F::Hand, 0, view.hand().bits());
    if v.has_trump_card() {
        if let Some(c) = view.trump_card() {
            img.one(F::TrumpCard, c.id() as usize);
        }
    }
    // The trick's cards, each seat's share picked out of what it has played.
    let trick = view.trick_set();
    for r in 0..n {
        let played = view.played_by(abs(r));
        img.put(F::Trick, r * d, played.intersect(trick).bits());
        img.put(F::Played, r * d, played.bits());
    }
    if v.is_seal() {
        // One card to each other seat: a block per receiver and per giver.
        for (c, to) in view.my_passes() {
            img.one(F::Passed, pass_block(v, rel(to)) * d + c.id() as usize);
        }
        let by_giver = view.received_by_giver();
        for r in 1..n {
            img.put(F::Received, pass_block(v, r) * d, by_giver[abs(r)].bits());
        }
    } else {
        // Every card goes to, and comes from, one seat: one block each.
        let picks = view.my_picks().iter().copied().collect::<CardSet>();
        img.put(F::Passed, 0, picks.bits());
        img.put(F::Received, 0, view.received_cards().bits());
    }
}

/// The small 0/1 fields, into the bit image; returns each relative seat's
/// `captured_bosses` bits (the counts need them).
#[inline(always)]
fn small_fields<const V: usize>(cpu: Cpu, view: &SeatView, img: &mut Image<V>) -> [u64; 4] {
    let v = Lay::<V>::VARIANT;
    let n = Lay::<V>::N;
    let me = view.seat();
    let rel = |seat: usize| relative_to(seat, me, n);
    let abs = |r: usize| left_of(me, r, n);
    img.one(
        F::Phase,
        match view.phase() {
            Phase::Pass => 0,
            Phase::Play => 1,
            // A round's last position, before the next deal: no one acts, as when over.
            Phase::RoundOver | Phase::Over => 2,
        },
    );
    if let Some(p) = view.current_player() {
        img.one(F::ToAct, rel(p));
    }
    img.one(
        F::TrumpSuit,
        view.trump_suit().map_or(NUM_SUITS, |s| s as usize),
    );
    if let Some(l) = view.trick_leader() {
        img.one(F::TrickLeader, rel(l));
    }
    img.put(F::LedSuit, 0, view.led_suit_mask() as u64);
    let mut bosses = [0u64; 4];
    for (r, b) in bosses.iter_mut().enumerate().take(n) {
        let p = abs(r);
        *b = boss_bits(cpu, view.won_cards(p));
        img.put(F::CapturedBosses, r * boss_cards(v), *b);
        img.put(F::Voids, r * NUM_SUITS, view.voids(p) as u64);
    }
    if v.is_seal() {
        for side in 0..2 {
            img.put(F::Seals, side * NUM_SUITS, view.seals(abs(side) & 1) as u64);
        }
    }
    let last = view.last_round_result();
    if let Some(res) = last {
        img.put(F::LastRoundWinners, 0, relative_mask(res.winners, me, n));
        let reason = RoundEnd::ALL
            .iter()
            .position(|&r| r == res.reason)
            .unwrap_or(0);
        img.one(F::LastRoundReason, reason);
    }
    img.put(F::GameWinners, 0, relative_mask(view.winners_mask(), me, n));
    if view.is_truncated() {
        img.one(F::Truncated, 0);
    }
    bosses
}

/// The count fields, written over the zeros the expansion wrote. Those of a round are at
/// most its cards: no clipping needed.
#[inline(always)]
fn count_fields<T: ObsValue, const V: usize>(view: &SeatView, bosses: &[u64; 4], out: &mut [T]) {
    let v = Lay::<V>::VARIANT;
    let n = Lay::<V>::N;
    let me = view.seat();
    let rel = |seat: usize| relative_to(seat, me, n);
    let abs = |r: usize| left_of(me, r, n);
    let mut c = Counts::<T, V> { out };
    let mut team_tricks = [0u8; 2];
    let mut team_bosses = [0u8; 2];
    for r in 0..n {
        let p = abs(r);
        let tricks = view.tricks_won(p) as u8;
        let num_bosses = bosses[r].count_ones() as u8;
        c.set(F::HandSizes, r, view.hand_len(p) as u8);
        c.set(F::TricksWon, r, tricks);
        c.set(F::BossesWon, r, num_bosses);
        c.set(F::PicksMade, r, view.num_picks(p) as u8);
        team_tricks[r & 1] += tricks;
        team_bosses[r & 1] += num_bosses;
    }
    if v.has_teams() {
        for side in 0..2 {
            c.set(F::TeamTricks, side, team_tricks[side]);
            c.set(F::TeamBosses, side, team_bosses[side]);
        }
    }
    for side in 0..v.num_sides() {
        // Relative seat `side` belongs to relative side `side` (me; left = their team).
        c.clipped(F::Scores, side, view.score(abs(side)) as usize);
    }
    c.clipped(F::Round, 0, view.round() as usize);
    if let Some(res) = view.last_round_result() {
        for (p, &pts) in res.points.iter().enumerate().take(n) {
            c.clipped(F::LastRoundPoints, rel(p), pts as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_contiguous_and_sums_to_size() {
        for v in Variant::ALL {
            let mut at = 0;
            for f in layout(v) {
                assert_eq!(f.offset, at, "{} in {v}", f.name);
                assert!(f.len > 0);
                at += f.len;
            }
            assert_eq!(at, observation_size(v));
            let md = layout_markdown(v);
            assert_eq!(md.lines().count(), 4 + layout(v).len());
        }
    }

    #[test]
    fn field_names_are_unique() {
        for v in Variant::ALL {
            let names: std::collections::HashSet<_> = layout(v).iter().map(|f| f.name).collect();
            assert_eq!(names.len(), layout(v).len());
        }
    }
}

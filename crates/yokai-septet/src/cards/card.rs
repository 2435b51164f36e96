//! Cards, suits and card sets (R1).
//!
//! A [`Card`] is its id: `7·suit + rank` for the 49 standard cards, `49 + suit` for the
//! second copy of a boss in the Seal variants. A [`CardSet`] is a `u64` bitset over ids,
//! so a hand, a trick or "every card played" is one machine word.

use std::fmt;
use std::str::FromStr;

use rand_core::RngCore;

/// Number of suits.
pub const NUM_SUITS: usize = 7;
/// Size of the standard deck (`4p`, `3p`).
pub const STANDARD_DECK: usize = 49;
/// Size of the Seal deck (both copies of every boss).
pub const SEAL_DECK: usize = 56;

/// One of the seven suits, in the fixed order of R1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// Wind (`W`): values 1–7; its 1 is the A.
    Wind = 0,
    /// Earth (`E`): values 2–8.
    Earth = 1,
    /// Charm (`C`): values 3–9.
    Charm = 2,
    /// Lightning (`L`): values 4–10.
    Lightning = 3,
    /// Darkness (`D`): values 5–11.
    Darkness = 4,
    /// Fire (`F`): values 6–12.
    Fire = 5,
    /// Snow (`S`): values 7–13.
    Snow = 6,
}

impl Suit {
    /// All suits in index order.
    pub const ALL: [Suit; NUM_SUITS] = [
        Suit::Wind,
        Suit::Earth,
        Suit::Charm,
        Suit::Lightning,
        Suit::Darkness,
        Suit::Fire,
        Suit::Snow,
    ];

    /// The suit with index `i` (0..6).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Suit> {
        if i < NUM_SUITS {
            Some(Suit::ALL[i])
        } else {
            None
        }
    }

    /// The suit's index (0..6), its place in R1's order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter code of R1 (`W E C L D F S`).
    pub const fn letter(self) -> char {
        ['W', 'E', 'C', 'L', 'D', 'F', 'S'][self as usize]
    }

    /// The suit's English name (`Wind`, …).
    pub const fn name(self) -> &'static str {
        [
            "Wind",
            "Earth",
            "Charm",
            "Lightning",
            "Darkness",
            "Fire",
            "Snow",
        ][self as usize]
    }

    /// The boss (value 7) of this suit in the standard deck: id `6·s + 6`.
    #[inline]
    pub const fn boss(self) -> Card {
        Card(boss_id(self as usize) as u8)
    }

    /// The Seal variants' second copy of this suit's boss: id `49 + s`.
    #[inline]
    pub const fn second_boss(self) -> Card {
        Card(second_boss_id(self as usize) as u8)
    }

    /// Every card of this suit, both boss copies included.
    #[inline]
    pub const fn cards(self) -> CardSet {
        CardSet(SUIT_MASKS[self as usize])
    }

    /// ★ points of this suit's boss in the 4-player advanced scoring (R1).
    pub const fn boss_points_4p(self) -> u8 {
        [0, 0, 1, 1, 1, 2, 2][self as usize]
    }

    /// ★ + ⊛ points of this suit's boss in the 3-player advanced scoring (R1).
    pub const fn boss_points_3p(self) -> u8 {
        [0, 1, 1, 2, 2, 3, 3][self as usize]
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const fn suit_masks() -> [u64; NUM_SUITS] {
    let mut m = [0u64; NUM_SUITS];
    let mut s = 0;
    while s < NUM_SUITS {
        m[s] = (0x7Fu64 << (7 * s)) | (1u64 << (49 + s));
        s += 1;
    }
    m
}
const SUIT_MASKS: [u64; NUM_SUITS] = suit_masks();

/// A card id (0..48 standard, 49..55 Seal second boss copies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The A: Wind 1, the "Yokai trump" that wins any trick it is played to (R6).
    pub const ACE: Card = Card(0);
    /// Snow 13, which leads the first round when the A is the face-up trump card (R4.3).
    pub const SNOW_13: Card = Card(48);

    /// The card with id `id`, if `id < 56`.
    #[inline]
    pub const fn new(id: u8) -> Option<Card> {
        if (id as usize) < SEAL_DECK {
            Some(Card(id))
        } else {
            None
        }
    }

    /// A card from id without a range check, for the hot loops that walk card ids (the
    /// solver's move order): callers guarantee `id < 56` (checked in debug builds); a larger
    /// id makes a card that no set holds.
    #[inline]
    pub const fn from_id_unchecked(id: u8) -> Card {
        debug_assert!((id as usize) < SEAL_DECK);
        Card(id)
    }

    /// The card of `suit` with rank index `rank` (0..6, ascending value).
    #[inline]
    pub const fn from_suit_rank(suit: Suit, rank: u8) -> Option<Card> {
        if rank < 7 {
            Some(Card(7 * suit as u8 + rank))
        } else {
            None
        }
    }

    /// The card's id (its action number).
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The card's suit. (Tables have 64 entries and are indexed by `id & 63`, so the hot
    /// path has no bounds check; ids are always below 56.)
    #[inline]
    pub const fn suit(self) -> Suit {
        SUIT_OF[(self.0 & 63) as usize]
    }

    /// Rank index inside the suit (0..6); a second boss copy has its boss's rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        RANK_OF[(self.0 & 63) as usize]
    }

    /// Printed value: `suit + 1 + rank`.
    #[inline]
    pub const fn value(self) -> u8 {
        self.suit() as u8 + 1 + self.rank()
    }

    /// Whether this card is a boss (value 7), either copy.
    #[inline]
    pub const fn is_boss(self) -> bool {
        CardSet::BOSSES.contains(self)
    }

    /// Whether this is a Seal second copy (ids 49..55).
    #[inline]
    pub const fn is_second_copy(self) -> bool {
        self.0 >= 49
    }

    /// The card's bit in a [`CardSet`]: `1 << id`.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

const fn tables() -> ([Suit; 64], [u8; 64]) {
    let mut suit = [Suit::Wind; 64];
    let mut rank = [0u8; 64];
    let mut id = 0;
    while id < SEAL_DECK {
        if id < STANDARD_DECK {
            suit[id] = Suit::ALL[id / 7];
            rank[id] = (id % 7) as u8;
        } else {
            let s = id - 49;
            suit[id] = Suit::ALL[s];
            rank[id] = (6 - s) as u8; // the boss (value 7) sits at rank 6 - s
        }
        id += 1;
    }
    (suit, rank)
}
const SUIT_OF: [Suit; 64] = tables().0;
const RANK_OF: [u8; 64] = tables().1;

impl fmt::Display for Card {
    /// R1 text code: suit letter + value, `WA` for the A, `b` suffix for a second copy.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Card::ACE {
            return f.write_str("WA");
        }
        write!(f, "{}{}", self.suit().letter(), self.value())?;
        if self.is_second_copy() {
            f.write_str("b")?;
        }
        Ok(())
    }
}

/// A card code that does not name a card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCardError {
    /// The offending token, as given.
    pub token: String,
    /// Why it is not a card.
    pub reason: &'static str,
}

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a card code: {}", self.token, self.reason)
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Parses `WA`, `W7`, `E8`, `S13`, `F7b` … (case-insensitive, surrounding spaces ignored).
    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = |reason| ParseCardError {
            token: s.to_string(),
            reason,
        };
        let t = s.trim().to_ascii_uppercase();
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(|| err("empty"))?;
        let suit = Suit::ALL
            .into_iter()
            .find(|su| su.letter() == letter)
            .ok_or_else(|| err("the suit letter must be one of W E C L D F S"))?;
        let rest = chars.as_str();
        if suit == Suit::Wind && rest == "A" {
            return Ok(Card::ACE);
        }
        let (digits, second) = match rest.strip_suffix('B') {
            Some(d) => (d, true),
            None => (rest, false),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(err(
                "expected a value after the suit letter (e.g. S13, WA, F7b)",
            ));
        }
        let value: u8 = digits.parse().map_err(|_| err("bad value"))?;
        let lo = suit as u8 + 1;
        if value < lo || value > lo + 6 {
            return Err(err("value outside the suit's range (R1)"));
        }
        if suit == Suit::Wind && value == 1 {
            return Err(err("the Wind 1 is written WA"));
        }
        if second {
            if value != 7 {
                return Err(err("only a boss (value 7) has a second copy 'b'"));
            }
            return Ok(suit.second_boss());
        }
        Ok(Card(7 * suit as u8 + value - lo))
    }
}

/// A set of cards as a 64-bit mask over card ids.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// No card.
    pub const EMPTY: CardSet = CardSet(0);
    /// The 49 standard cards.
    pub const STANDARD_DECK: CardSet = CardSet((1u64 << 49) - 1);
    /// The 56 Seal cards.
    pub const SEAL_DECK: CardSet = CardSet((1u64 << 56) - 1);
    /// Every boss: the seven of the standard deck and the seven Seal copies.
    pub const BOSSES: CardSet = CardSet(bosses_mask());

    /// The set as its bit mask (bit `i` = card id `i`).
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether the set holds no card.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of cards in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `c` is in the set.
    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        self.0 & c.bit() != 0
    }

    /// Adds `c`.
    #[inline]
    pub fn insert(&mut self, c: Card) {
        self.0 |= c.bit();
    }

    /// Takes `c` out.
    #[inline]
    pub fn remove(&mut self, c: Card) {
        self.0 &= !c.bit();
    }

    /// The set with `c` added.
    #[inline]
    pub const fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | c.bit())
    }

    /// The cards in either set.
    #[inline]
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }

    /// The cards in both sets.
    #[inline]
    pub const fn intersect(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }

    /// The cards of this set not in `o`.
    #[inline]
    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }

    /// The cards of `suit` in this set.
    #[inline]
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & SUIT_MASKS[suit as usize])
    }

    /// The bosses in this set.
    #[inline]
    pub const fn bosses(self) -> CardSet {
        CardSet(self.0 & CardSet::BOSSES.0)
    }

    /// The suits (bit `s` = suit `s`) whose standard-deck boss (id `6·s + 6`) is in the set.
    #[inline]
    pub const fn first_boss_suits(self) -> u8 {
        let mut out = 0u8;
        let mut s = 0;
        while s < NUM_SUITS {
            out |= ((self.0 >> boss_id(s)) as u8 & 1) << s;
            s += 1;
        }
        out
    }

    /// The suits (bit `s` = suit `s`) whose second boss copy (id `49 + s`) is in the set.
    #[inline]
    pub const fn second_boss_suits(self) -> u8 {
        (self.0 >> STANDARD_DECK) as u8 & 0x7F
    }

    /// The standard-deck bosses of `suits` (bit `s` = suit `s`).
    #[inline]
    pub const fn first_bosses_of(suits: u8) -> CardSet {
        let mut out = 0u64;
        let mut s = 0;
        while s < NUM_SUITS {
            out |= ((suits >> s) as u64 & 1) << boss_id(s);
            s += 1;
        }
        CardSet(out)
    }

    /// The second boss copies of `suits` (bit `s` = suit `s`).
    #[inline]
    pub const fn second_bosses_of(suits: u8) -> CardSet {
        CardSet(((suits & 0x7F) as u64) << STANDARD_DECK)
    }

    /// The set with each second boss copy moved onto its first copy's place: the two
    /// copies are equal in play, so a set keyed by place treats them as one.
    #[inline]
    pub const fn fold_second_copies(self) -> CardSet {
        CardSet(
            (self.0 & CardSet::STANDARD_DECK.0)
                | CardSet::first_bosses_of(self.second_boss_suits()).0,
        )
    }

    /// Lowest id in the set.
    #[inline]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// Highest id in the set.
    #[inline]
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The strongest card of `suit` in the set (a second boss copy counts as its boss).
    pub fn highest_in_suit(self, suit: Suit) -> Option<Card> {
        let s = self.of_suit(suit);
        s.iter().max_by_key(|c| c.rank())
    }

    /// The weakest card of `suit` in the set.
    pub fn lowest_in_suit(self, suit: Suit) -> Option<Card> {
        let s = self.of_suit(suit);
        s.iter().min_by_key(|c| c.rank())
    }

    /// The `k`-th card in ascending id order (0-based), if there are more than `k`.
    #[inline]
    pub fn nth(self, k: u32) -> Option<Card> {
        if k >= self.len() {
            return None;
        }
        Some(Card(crate::simd::select(self.0, k) as u8))
    }

    /// A random card of the set from a 32-bit random number `r`: the same card as
    /// `self.nth(bits::scale(r, self.len()))`, in a few instructions (multiply-shift, so
    /// bias below `len / 2³²`). `None` when the set is empty.
    #[inline]
    pub fn pick(self, r: u32) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        Some(Card(crate::simd::select_scaled(self.0, r) as u8))
    }

    /// A uniformly random card of the set, drawn from `rng` without bias (Lemire's method
    /// with rejection): the draw of the `random` bot and of random playouts, so that a
    /// policy using it plays their games. `None` when the set is empty.
    #[inline]
    pub fn uniform<R: RngCore>(self, rng: &mut R) -> Option<Card> {
        if self.is_empty() {
            return None;
        }
        self.nth(crate::rng::uniform_below(rng, self.len()))
    }

    /// Iterates in ascending id order.
    #[inline]
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The set as ascending card ids.
    pub fn to_ids(self) -> Vec<u8> {
        self.iter().map(Card::id).collect()
    }
}

/// The id of suit `s`'s standard-deck boss: value 7 is rank `6 - s` of the suit's seven.
#[inline(always)]
const fn boss_id(s: usize) -> usize {
    7 * s + (6 - s)
}

/// The id of suit `s`'s second boss copy (Seal variants), after the standard deck.
#[inline(always)]
const fn second_boss_id(s: usize) -> usize {
    STANDARD_DECK + s
}

const fn bosses_mask() -> u64 {
    let mut m = 0u64;
    let mut s = 0;
    while s < NUM_SUITS {
        m |= 1u64 << boss_id(s);
        m |= 1u64 << second_boss_id(s);
        s += 1;
    }
    m
}

/// Iterator over a [`CardSet`], ascending ids.
#[derive(Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl fmt::Display for CardSet {
    /// Space-separated card codes, ascending ids.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet[{self}]")
    }
}

impl FromStr for CardSet {
    type Err = ParseCardError;
    /// Parses whitespace- or comma-separated card codes.
    fn from_str(s: &str) -> Result<CardSet, ParseCardError> {
        s.split(|ch: char| ch.is_whitespace() || ch == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse::<Card>)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1_ids_suits_values() {
        for id in 0..49u8 {
            let c = Card::new(id).unwrap();
            assert_eq!(c.suit() as u8, id / 7);
            assert_eq!(c.rank(), id % 7);
            assert_eq!(c.value(), id / 7 + 1 + id % 7);
        }
        assert_eq!(Card::new(56), None);
        assert_eq!(Card::ACE.value(), 1);
        assert_eq!(Card::SNOW_13.value(), 13);
    }

    #[test]
    fn r1_bosses_are_the_sevens() {
        for s in Suit::ALL {
            assert_eq!(s.boss().value(), 7);
            assert_eq!(s.boss().id(), 6 * s as u8 + 6);
            assert_eq!(s.second_boss().value(), 7);
            assert_eq!(s.second_boss().suit(), s);
            assert_eq!(s.second_boss().rank(), s.boss().rank());
        }
        assert_eq!(CardSet::BOSSES.len(), 14);
        let sevens: CardSet = (0..49)
            .map(|i| Card::new(i).unwrap())
            .filter(|c| c.value() == 7)
            .collect();
        assert_eq!(sevens, CardSet::BOSSES.intersect(CardSet::STANDARD_DECK));
    }

    #[test]
    fn r1_boss_points() {
        let p4: Vec<u8> = Suit::ALL.iter().map(|s| s.boss_points_4p()).collect();
        let p3: Vec<u8> = Suit::ALL.iter().map(|s| s.boss_points_3p()).collect();
        assert_eq!(p4, [0, 0, 1, 1, 1, 2, 2]);
        assert_eq!(p3, [0, 1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn r1_text_codes_round_trip() {
        for id in 0..56u8 {
            let c = Card::new(id).unwrap();
            let code = c.to_string();
            assert_eq!(code.parse::<Card>().unwrap(), c, "{code}");
            assert_eq!(code.to_lowercase().parse::<Card>().unwrap(), c, "{code}");
        }
        assert_eq!("WA".parse::<Card>().unwrap(), Card::ACE);
        assert_eq!("s13".parse::<Card>().unwrap(), Card::SNOW_13);
        assert_eq!("F7b".parse::<Card>().unwrap().id(), 54);
        assert_eq!("W7".parse::<Card>().unwrap().id(), 6);
    }

    #[test]
    fn r1_bad_codes_name_the_token() {
        for bad in ["", "X7", "W1", "W8", "S6", "S14", "E7bb", "F8b", "W", "C 5"] {
            let e = bad.parse::<Card>().unwrap_err();
            assert_eq!(e.token, bad);
            assert!(e.to_string().contains(&format!("'{bad}'")));
        }
    }

    #[test]
    fn cardset_ops() {
        let s: CardSet = "WA W7 S13 F7b".parse().unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s.to_string(), "WA W7 S13 F7b");
        assert_eq!(s.of_suit(Suit::Wind).len(), 2);
        assert_eq!(s.bosses().len(), 2);
        assert_eq!(s.first(), Some(Card::ACE));
        assert_eq!(s.last().unwrap().to_string(), "F7b");
        assert_eq!(s.nth(2), Some(Card::SNOW_13));
        assert_eq!(s.nth(4), None);
        assert_eq!(s.highest_in_suit(Suit::Wind).unwrap().to_string(), "W7");
        assert_eq!(s.lowest_in_suit(Suit::Wind), Some(Card::ACE));
        let fire: CardSet = "F6 F7b F12".parse().unwrap();
        assert_eq!(fire.highest_in_suit(Suit::Fire).unwrap().to_string(), "F12");
        assert_eq!(fire.lowest_in_suit(Suit::Fire).unwrap().to_string(), "F6");
        assert_eq!(CardSet::SEAL_DECK.of_suit(Suit::Snow).len(), 8);
    }

    #[test]
    fn boss_copies_by_suit() {
        let s: CardSet = "W7 E7b C7 C7b S13".parse().unwrap();
        let (w, e, c) = (
            1 << Suit::Wind as u8,
            1 << Suit::Earth as u8,
            1 << Suit::Charm as u8,
        );
        assert_eq!(s.first_boss_suits(), w | c);
        assert_eq!(s.second_boss_suits(), e | c);
        assert_eq!(CardSet::first_bosses_of(w | c).to_string(), "W7 C7");
        assert_eq!(CardSet::second_bosses_of(e | c).to_string(), "E7b C7b");
        assert_eq!(s.fold_second_copies().to_string(), "W7 E7 C7 S13");
        for suit in Suit::ALL {
            let one = 1 << suit as u8;
            assert_eq!(
                CardSet::first_bosses_of(one),
                CardSet::EMPTY.with(suit.boss())
            );
            assert_eq!(
                CardSet::second_bosses_of(one),
                CardSet::EMPTY.with(suit.second_boss())
            );
        }
        assert_eq!(
            CardSet::first_bosses_of(0x7F).union(CardSet::second_bosses_of(0x7F)),
            CardSet::BOSSES
        );
    }
}

//! The heuristic's card pricing: what it knows about a decision, computed once per call from a [`SeatView`].
//!
//! The heuristic prices each candidate card as "expected value of the trick it joins": the
//! bosses the trick carries (valued per variant: boss points in `4p`/`3p`, seal chances in
//! the seal variants), the chance that the acting side ends up winning it (estimated from
//! the cards still unseen and the public voids), what one more trick does to the round
//! (R7: a boss threshold wins, a seventh trick loses), and what the card is worth to keep.
//! Keeping this in one place lets passing, leading and following share the same prices.

use yokai_septet::rules::scoring::{boss_threshold, seals_to_win, LOSING_TRICKS};
use yokai_septet::rules::trick::{beaters, winning_index};
use yokai_septet::SeatView;
use yokai_septet::{Card, CardSet, Suit};
use yokai_septet::{Scoring, Variant};

/// What a round end is worth, in units of one ordinary boss.
pub(crate) const ROUND_SWING: f32 = 6.0;

/// Who wins a trick so far, and my side's chance of winning it in the end.
#[derive(Clone, Copy)]
pub(crate) struct Odds {
    pub best_seat: usize,
    pub p_we_win: f32,
}

pub(crate) struct Ctx {
    pub me: usize,
    pub n: usize,
    pub variant: Variant,
    pub trump: Option<Suit>,
    pub hand: CardSet,
    /// Cards I know to be in a given seat's hand (I passed them there).
    pub known: [CardSet; 4],
    pub hand_len: [u32; 4],
    pub trick_len: usize,
    /// Following: the cards of the trick so far, its led suit, its best card so far, and
    /// its odds if my card does not beat that one.
    pub trick_set: CardSet,
    led: Suit,
    ahead: Card,
    behind: Odds,
    /// The seats yet to play to the trick after me, in turn.
    later: [usize; 3],
    num_later: usize,
    /// Each seat's side.
    sides: [usize; 4],
    /// Cards each seat may hold, as far as I can tell (see [`possible_cards`]).
    possible: [CardSet; 4],
    /// Per seat, the chance that a given unseen card is not in its hand: `1 - f`, where
    /// `f` is the seat's share of the unseen cards.
    miss: [f32; 4],
    /// Bosses captured and tricks won this round, per side.
    pub side_bosses: [u32; 3],
    pub side_tricks: [u32; 3],
    /// Value of a boss of each suit being captured by me/my side (minus: by others).
    pub boss_value: [f32; 7],
}

impl Ctx {
    #[inline]
    pub fn new(view: &SeatView) -> Ctx {
        let v = view.variant();
        let n = view.num_players();
        let me = view.seat();
        let mut sides = [0; 4];
        let known = view.known_in_hands();
        let mut hand_len = [0; 4];
        let mut side_bosses = [0; 3];
        let mut side_tricks = [0; 3];
        let mut side_won = [CardSet::EMPTY; 3];
        for p in 0..n {
            hand_len[p] = view.hand_len(p) as u32;
            let s = v.side_of(p);
            sides[p] = s;
            side_won[s] = side_won[s].union(view.won_cards(p));
            side_tricks[s] += view.tricks_won(p) as u32;
        }
        for s in 0..v.num_sides() {
            side_bosses[s] = side_won[s].bosses().len();
        }
        let trick = view.trick_cards();
        let trump = view.trump_suit();
        let unknown = view.unknown_cards();
        let pool = unknown.len().max(1) as f32;
        let mut later = [0; 3];
        let mut possible = [CardSet::EMPTY; 4];
        let mut miss = [1.0; 4];
        let num_later = n - 1 - trick.len();
        for (j, r) in later.iter_mut().enumerate().take(num_later) {
            *r = (me + 1 + j) % n;
            possible[*r] = possible_cards(unknown, &known[..n], view.voids(*r), *r);
            miss[*r] = 1.0 - (hand_len[*r] as f32 / pool).min(1.0);
        }
        let mut ctx = Ctx {
            me,
            n,
            variant: v,
            trump,
            hand: view.hand(),
            known,
            hand_len,
            trick_len: trick.len(),
            trick_set: trick.iter().copied().collect(),
            led: Suit::Wind,
            ahead: Card::ACE,
            behind: Odds {
                best_seat: me,
                p_we_win: 0.0,
            },
            later,
            num_later,
            sides,
            possible,
            miss,
            side_bosses,
            side_tricks,
            boss_value: boss_values(view, &side_won, trump),
        };
        if let Some(lead) = trick.first() {
            ctx.led = lead.suit();
            let idx = winning_index(trick, trump.unwrap_or(ctx.led));
            ctx.ahead = trick[idx];
            let leader = (me + n - trick.len()) % n;
            ctx.behind = ctx.odds(ctx.led, ctx.ahead, (leader + idx) % n);
        }
        ctx
    }

    #[inline]
    pub fn side(&self, p: usize) -> usize {
        self.sides[p]
    }

    #[inline]
    pub fn friend(&self, p: usize) -> bool {
        self.side(p) == self.side(self.me)
    }

    /// Value for my side of the bosses in `cards` if my side captures them.
    pub fn bosses_value(&self, cards: CardSet) -> f32 {
        cards
            .bosses()
            .iter()
            .map(|b| self.boss_value[b.suit().index()])
            .sum()
    }

    /// What `side` taking one more trick carrying `bosses` bosses does to the round, for
    /// that side (R7.1 wins it, R7.2 loses it; nearing seven tricks is a growing risk).
    pub fn trick_delta(&self, side: usize, bosses: u32) -> f32 {
        if self.variant.is_seal() {
            return 0.0;
        }
        let b = self.side_bosses[side] + bosses;
        let t = self.side_tricks[side] + 1;
        if b >= boss_threshold(self.variant) {
            return ROUND_SWING;
        }
        if t as usize >= LOSING_TRICKS {
            return -ROUND_SWING * 1.5;
        }
        // Each trick without enough bosses brings the seventh closer.
        let missing = (boss_threshold(self.variant) - b) as f32;
        -0.04 * missing * (t as f32).powi(2) / 6.0
    }

    /// Probability that seat `r` (yet to play) holds and may play a card beating `best`:
    /// that it holds one of its possible cards of the led suit that beat `best` if it
    /// follows suit, else one of all those that beat `best`, mixed by the chance `q_void`
    /// that it holds none of the led suit.
    fn p_beats(&self, r: usize, best: Card, led: Suit, trump: Suit) -> f32 {
        if best == Card::ACE || self.hand_len[r] == 0 {
            return 0.0;
        }
        let poss = self.possible[r];
        let miss = self.miss[r];
        let beaters = beaters(best, trump);
        // The chance that `r` holds at least one of the cards of `cards` that beat `best`.
        let hit = |cards: CardSet| 1.0 - powi(miss, cards.intersect(beaters).len());
        let led_cards = poss.of_suit(led);
        // Where `q_void` is exactly 0 (`r` is known to hold the led suit) or 1 (it cannot
        // hold any), one term of the mix is exactly zero and the other exactly its `hit`
        // (finite, not negative): the mix is that `hit`, bit for bit.
        if !self.known[r].of_suit(led).is_empty() {
            return hit(led_cards);
        }
        if led_cards.is_empty() {
            return hit(poss);
        }
        let q_void = powi(miss, led_cards.len());
        (1.0 - q_void) * hit(led_cards) + q_void * hit(poss)
    }

    /// The odds of a trick led in `led` whose best card so far is `best`, played by
    /// `best_seat`, with my card in it: my side's chance of winning it in the end, from
    /// the chances that each seat yet to play beats `best`.
    pub fn odds(&self, led: Suit, best: Card, best_seat: usize) -> Odds {
        let trump = self.trump.unwrap_or(led);
        let (mut friend_keeps, mut opp_keeps) = (1.0f32, 1.0f32);
        for &r in &self.later[..self.num_later] {
            let p = self.p_beats(r, best, led, trump);
            if self.friend(r) {
                friend_keeps *= 1.0 - p;
            } else {
                opp_keeps *= 1.0 - p;
            }
        }
        let p_we_win = if self.friend(best_seat) {
            opp_keeps
        } else {
            (1.0 - friend_keeps) * (0.4 + 0.6 * opp_keeps)
        };
        Odds {
            best_seat,
            p_we_win,
        }
    }

    /// The odds of the trick if I lead `c`.
    pub fn lead_odds(&self, c: Card) -> Odds {
        self.odds(c.suit(), c, self.me)
    }

    /// The odds of the trick if I follow with `c`. A card that does not take the lead
    /// leaves the trick's best card, so its odds, as they are: those are worked out once.
    pub fn follow_odds(&self, c: Card) -> Odds {
        let trump = self.trump.unwrap_or(self.led);
        if beaters(self.ahead, trump).contains(c) {
            self.odds(self.led, c, self.me)
        } else {
            self.behind
        }
    }

    /// How much keeping `c` for later is worth (its power to win a trick later).
    pub fn keep_value(&self, c: Card) -> f32 {
        if c == Card::ACE {
            return 0.9;
        }
        let r = c.rank() as f32 / 6.0;
        if Some(c.suit()) == self.trump {
            0.25 + 0.25 * r
        } else {
            0.1 * r
        }
    }
}

/// Cards seat `r` may hold, as far as the seat knowing `known` can tell: the unseen cards
/// not known to be elsewhere, minus the suits `r` showed void in (`voids`, a suit mask),
/// plus those known to be in its hand.
fn possible_cards(unknown: CardSet, known: &[CardSet], voids: u8, r: usize) -> CardSet {
    let mut elsewhere = CardSet::EMPTY;
    for (p, &k) in known.iter().enumerate() {
        if p != r {
            elsewhere = elsewhere.union(k);
        }
    }
    let mut poss = unknown.minus(elsewhere);
    let mut suits = voids;
    while suits != 0 {
        if let Some(s) = Suit::from_index(suits.trailing_zeros() as usize) {
            poss = poss.minus(s.cards());
        }
        suits &= suits - 1;
    }
    poss.union(known[r])
}

/// `x` to the power `n`, bit for bit as `f32::powi` computes it on the targets built for
/// (compiler-rt's and libgcc's `__powisf2`: the product of the squares of `x` picked by
/// the bits of `n`, lowest first). Inlined, unlike the library call.
#[inline]
pub(crate) fn powi(mut x: f32, mut n: u32) -> f32 {
    let mut r = 1.0f32;
    loop {
        if n & 1 == 1 {
            r *= x;
        }
        n >>= 1;
        if n == 0 {
            return r;
        }
        x *= x;
    }
}

/// Per-suit value of capturing that suit's boss, for the side of `view.seat()`.
fn boss_values(view: &SeatView, side_won: &[CardSet; 3], trump: Option<Suit>) -> [f32; 7] {
    let v = view.variant();
    let mut out = [1.0f32; 7];
    if v.is_seal() {
        let us = view.seat() & 1;
        // What capturing this suit's boss (one copy) is worth to `team`.
        let gain = |team: usize, s: Suit| -> f32 {
            let blocked = yokai_septet::rules::scoring::blocked_seals(
                v,
                [view.seals(0), view.seals(1)],
                team,
            );
            if blocked >> s as u8 & 1 == 1 {
                return 0.1;
            }
            let other = side_won[1 - team].bosses().of_suit(s);
            if !other.is_empty() {
                return 0.1; // the other team holds a copy: no seal this round
            }
            let mine = side_won[team].bosses().of_suit(s);
            if !mine.is_empty() {
                // Completes a seal: more so when it is close to winning the game.
                let have = view.seals(team).count_ones() as f32;
                return 3.0 + 4.0 * have / seals_to_win(v) as f32;
            }
            1.0
        };
        for s in Suit::ALL {
            out[s.index()] = gain(us, s) + gain(1 - us, s);
        }
        return out;
    }
    let advanced = view.config().scoring == Scoring::Advanced;
    for s in Suit::ALL {
        let pts = if !advanced || Some(s) == trump {
            0
        } else {
            yokai_septet::rules::scoring::boss_value(v, s)
        };
        out[s.index()] = 1.0 + 0.5 * pts as f32;
    }
    out
}

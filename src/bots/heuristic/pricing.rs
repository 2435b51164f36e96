//! The heuristic's card pricing: what it knows about a decision, computed once per call from a [`SeatView`].
//!
//! The heuristic prices each candidate card as "expected value of the trick it joins": the
//! bosses the trick carries (valued per variant: boss points in `4p`/`3p`, seal chances in
//! the seal variants), the chance that the acting side ends up winning it (estimated from
//! the cards still unseen and the public voids), what one more trick does to the round
//! (R7: a boss threshold wins, a seventh trick loses), and what the card is worth to keep.
//! Keeping this in one place lets passing, leading and following share the same prices.

use crate::cards::{Card, CardSet, Suit};
use crate::infoset::view::SeatView;
use crate::rules::config::{Scoring, Variant};
use crate::rules::scoring::{boss_threshold, seals_to_win, LOSING_TRICKS};
use crate::rules::trick::winning_index;

/// What a round end is worth, in units of one ordinary boss.
pub(crate) const ROUND_SWING: f32 = 6.0;

pub(crate) struct Ctx {
    pub me: usize,
    pub n: usize,
    pub variant: Variant,
    pub trump: Option<Suit>,
    pub hand: CardSet,
    /// Cards in other players' hands, location unknown to me (known ones included).
    pub unknown: CardSet,
    /// Cards I know to be in a given seat's hand (I passed them there).
    pub known: [CardSet; 4],
    pub hand_len: [u32; 4],
    pub voids: [u8; 4],
    pub trick: [Card; 4],
    pub trick_len: usize,
    pub leader: usize,
    /// Bosses captured and tricks won this round, per side.
    pub side_bosses: [u32; 3],
    pub side_tricks: [u32; 3],
    /// Value of a boss of each suit being captured by me/my side (minus: by others).
    pub boss_value: [f32; 7],
}

impl Ctx {
    pub fn new(view: &SeatView) -> Ctx {
        let v = view.variant();
        let n = view.num_players();
        let me = view.seat();
        let mut known = [CardSet::EMPTY; 4];
        let mut hand_len = [0; 4];
        let mut voids = [0; 4];
        let mut side_bosses = [0; 3];
        let mut side_tricks = [0; 3];
        let mut side_won = [CardSet::EMPTY; 3];
        for p in 0..n {
            known[p] = view.known_in_hand(p);
            hand_len[p] = view.hand_len(p) as u32;
            voids[p] = view.voids(p);
            let s = v.side_of(p);
            side_won[s] = side_won[s].union(view.won_cards(p));
            side_tricks[s] += view.tricks_won(p) as u32;
        }
        for s in 0..v.num_sides() {
            side_bosses[s] = side_won[s].bosses().len();
        }
        let mut trick = [Card::ACE; 4];
        let tc = view.trick_cards();
        trick[..tc.len()].copy_from_slice(tc);
        let trump = view.trump_suit();
        let mut ctx = Ctx {
            me,
            n,
            variant: v,
            trump,
            hand: view.hand(),
            unknown: view.unknown_cards(),
            known,
            hand_len,
            voids,
            trick,
            trick_len: tc.len(),
            leader: view.trick_leader().unwrap_or(me),
            side_bosses,
            side_tricks,
            boss_value: [1.0; 7],
        };
        ctx.boss_value = boss_values(view, &side_won, trump);
        ctx
    }

    #[inline]
    pub fn side(&self, p: usize) -> usize {
        self.variant.side_of(p)
    }

    #[inline]
    pub fn friend(&self, p: usize) -> bool {
        self.side(p) == self.side(self.me)
    }

    pub fn trick(&self) -> &[Card] {
        &self.trick[..self.trick_len]
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

    /// Cards seat `r` may hold, as far as I can tell.
    fn possible(&self, r: usize) -> CardSet {
        let mut elsewhere = CardSet::EMPTY;
        for p in 0..self.n {
            if p != r {
                elsewhere = elsewhere.union(self.known[p]);
            }
        }
        let mut poss = self.unknown.minus(elsewhere);
        for s in Suit::ALL {
            if self.voids[r] >> s as u8 & 1 == 1 {
                poss = poss.minus(s.cards());
            }
        }
        poss.union(self.known[r])
    }

    /// Probability that seat `r` (yet to play) holds and may play a card beating `best`.
    fn p_beats(&self, r: usize, best: Card, led: Suit, trump: Suit) -> f32 {
        if best == Card::ACE || self.hand_len[r] == 0 {
            return 0.0;
        }
        let poss = self.possible(r);
        let pool = self.unknown.len().max(1) as f32;
        let f = (self.hand_len[r] as f32 / pool).min(1.0);
        let beats = |c: Card| winning_index(&[best, c], trump) == 1;
        let led_cards = poss.of_suit(led);
        let k_follow = led_cards.iter().filter(|&c| beats(c)).count() as i32;
        let k_any = poss.iter().filter(|&c| beats(c)).count() as i32;
        let known_led = !self.known[r].of_suit(led).is_empty();
        let q_void = if known_led {
            0.0
        } else if led_cards.is_empty() {
            1.0
        } else {
            (1.0 - f).powi(led_cards.len() as i32)
        };
        let hit = |k: i32| 1.0 - (1.0 - f).powi(k);
        (1.0 - q_void) * hit(k_follow) + q_void * hit(k_any)
    }

    /// Probability that my side ends up winning a trick whose cards so far (mine last) are
    /// `cards`, led by `self.leader`.
    pub fn p_we_win(&self, cards: &[Card]) -> f32 {
        let led = cards[0].suit();
        let trump = self.trump.unwrap_or(led);
        let idx = winning_index(cards, trump);
        let best = cards[idx];
        let best_seat = (self.leader + idx) % self.n;
        let (mut friend_keeps, mut opp_keeps) = (1.0f32, 1.0f32);
        for pos in cards.len()..self.n {
            let r = (self.leader + pos) % self.n;
            let p = self.p_beats(r, best, led, trump);
            if self.friend(r) {
                friend_keeps *= 1.0 - p;
            } else {
                opp_keeps *= 1.0 - p;
            }
        }
        if self.friend(best_seat) {
            opp_keeps
        } else {
            (1.0 - friend_keeps) * (0.4 + 0.6 * opp_keeps)
        }
    }

    /// Which seat currently wins the trick `cards` (led by `self.leader`).
    pub fn best_seat(&self, cards: &[Card]) -> usize {
        let trump = self.trump.unwrap_or(cards[0].suit());
        (self.leader + winning_index(cards, trump)) % self.n
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

/// Per-suit value of capturing that suit's boss, for the side of `view.seat()`.
fn boss_values(view: &SeatView, side_won: &[CardSet; 3], trump: Option<Suit>) -> [f32; 7] {
    let v = view.variant();
    let mut out = [1.0f32; 7];
    if v.is_seal() {
        let us = view.seat() & 1;
        // What capturing this suit's boss (one copy) is worth to `team`.
        let gain = |team: usize, s: Suit| -> f32 {
            let blocked =
                crate::rules::scoring::blocked_seals(v, [view.seals(0), view.seals(1)], team);
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
            crate::rules::scoring::boss_value(v, s)
        };
        out[s.index()] = 1.0 + 0.5 * pts as f32;
    }
    out
}

//! The heuristic's choices against a plain reference of its trick pricing (issue 58): the
//! pricing now reads precomputed tables and sets, and must still give every card the same
//! price, bit for bit, so that every choice stays the same.

use super::pricing::{powi, Ctx};
use super::*;
use yokai_septet::rng::{chacha, uniform_below, Stream};
use yokai_septet::rules::trick::winning_index;
use yokai_septet::State;
use yokai_septet::{GameConfig, Variant};

/// The trick pricing written the plain way, as it was before issue 58: the cards a seat
/// may hold worked out from the view at each question, every one of them tried against
/// the best card with `winning_index`, and `f32::powi`. The parts of [`Ctx`] it does not
/// redo (boss values, trick deltas, keep values) are shared.
struct Reference<'a> {
    ctx: Ctx,
    view: &'a SeatView<'a>,
}

impl Reference<'_> {
    fn possible(&self, r: usize) -> CardSet {
        let mut elsewhere = CardSet::EMPTY;
        for p in 0..self.ctx.n {
            if p != r {
                elsewhere = elsewhere.union(known_in_hand(self.view, p));
            }
        }
        let mut poss = self.view.unknown_cards().minus(elsewhere);
        for s in Suit::ALL {
            if self.view.voids(r) >> s as u8 & 1 == 1 {
                poss = poss.minus(s.cards());
            }
        }
        poss.union(known_in_hand(self.view, r))
    }

    fn p_beats(&self, r: usize, best: Card, led: Suit, trump: Suit) -> f32 {
        let hand_len = self.view.hand_len(r);
        if best == Card::ACE || hand_len == 0 {
            return 0.0;
        }
        let poss = self.possible(r);
        let pool = self.view.unknown_cards().len().max(1) as f32;
        let f = (hand_len as f32 / pool).min(1.0);
        let beats = |c: Card| winning_index(&[best, c], trump) == 1;
        let led_cards = poss.of_suit(led);
        let k_follow = led_cards.iter().filter(|&c| beats(c)).count() as i32;
        let k_any = poss.iter().filter(|&c| beats(c)).count() as i32;
        let known_led = !known_in_hand(self.view, r).of_suit(led).is_empty();
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

    /// My side's chance of winning the trick `cards` (mine last), and who is ahead in it.
    fn p_we_win(&self, cards: &[Card]) -> (f32, usize) {
        let ctx = &self.ctx;
        let led = cards[0].suit();
        let trump = ctx.trump.unwrap_or(led);
        let idx = winning_index(cards, trump);
        let leader = self.view.trick_leader().unwrap_or(ctx.me);
        let best_seat = (leader + idx) % ctx.n;
        let (mut friend_keeps, mut opp_keeps) = (1.0f32, 1.0f32);
        for pos in cards.len()..ctx.n {
            let r = (leader + pos) % ctx.n;
            let p = self.p_beats(r, cards[idx], led, trump);
            if ctx.friend(r) {
                friend_keeps *= 1.0 - p;
            } else {
                opp_keeps *= 1.0 - p;
            }
        }
        if ctx.friend(best_seat) {
            (opp_keeps, best_seat)
        } else {
            ((1.0 - friend_keeps) * (0.4 + 0.6 * opp_keeps), best_seat)
        }
    }

    fn trick_value(&self, cards: &[Card], mine: Card) -> f32 {
        let ctx = &self.ctx;
        let (p, best) = self.p_we_win(cards);
        let set: CardSet = cards.iter().copied().collect();
        let nb = set.bosses().len();
        let v = ctx.bosses_value(set);
        let opp = if ctx.friend(best) {
            (ctx.me + 1) % ctx.n
        } else {
            best
        };
        let win = v + ctx.trick_delta(ctx.side(ctx.me), nb);
        let lose = -v - ctx.trick_delta(ctx.side(opp), nb);
        p * win + (1.0 - p) * lose - ctx.keep_value(mine)
    }

    /// The price of playing `c`: following, or leading (a lead that leaves a void is
    /// worth 0.12 more, outside trumps).
    fn price(&self, c: Card) -> f32 {
        let ctx = &self.ctx;
        let mut cards = self.view.trick_cards().to_vec();
        cards.push(c);
        let v = self.trick_value(&cards, c);
        let leaves_void = ctx.hand.of_suit(c.suit()).len() == 1;
        if ctx.trick_len == 0 && leaves_void && Some(c.suit()) != ctx.trump {
            v + 0.12
        } else {
            v
        }
    }
}

/// `SeatView::known_in_hand` as it was before issue 58 (now read off `known_in_hands`,
/// all seats in one pass): worked out for `other` alone.
fn known_in_hand(view: &SeatView, other: usize) -> CardSet {
    if other == view.seat() || !view.exchange_done() {
        return CardSet::EMPTY;
    }
    let mut known: CardSet = view
        .my_passes()
        .filter(|&(_, to)| to == other)
        .map(|(c, _)| c)
        .collect();
    if let Some(key) = view.leader_key_card() {
        if view.round_leader() == Some(other) {
            known.insert(key);
        }
    }
    known.minus(view.played_by(other))
}

/// Checks the heuristic's choice at `view` (its seat to act) against the reference, and
/// every legal card's price where a trick is priced. Returns whether one was priced.
fn check(view: &SeatView, what: &str) -> bool {
    for p in 0..view.num_players() {
        assert_eq!(
            view.known_in_hand(p),
            known_in_hand(view, p),
            "{what}, seat {p}"
        );
    }
    let chosen = HeuristicBot::choose(view);
    let legal = view.legal_actions();
    let ctx = Ctx::new(view);
    if legal.len() == 1 || view.phase() == Phase::Pass || ctx.trump.is_none() {
        return false; // no trick priced
    }
    let reference = Reference {
        ctx: Ctx::new(view),
        view,
    };
    for c in legal {
        let price = if ctx.trick_len == 0 {
            lead_value(&ctx, c)
        } else {
            follow_value(&ctx, c)
        };
        let expected = reference.price(c);
        assert_eq!(price.to_bits(), expected.to_bits(), "{what}, {c}");
    }
    assert_eq!(chosen, best_by(legal, |c| reference.price(c)), "{what}");
    true
}

/// Many random games of every variant (some played by random cards, some by the
/// heuristic, so that both kinds of position occur, several rounds in): at every decision
/// the heuristic chooses the card the reference pricing chooses, and prices every legal
/// card exactly as it does.
#[test]
fn choices_and_prices_match_the_reference_pricing() {
    let mut rng = chacha(Stream::Bots, 58, 1);
    for variant in Variant::ALL {
        let mut priced = 0;
        for game in 0..40 {
            let cfg = GameConfig::new(variant, 5800 + game).with_max_rounds(Some(3));
            let mut s = State::new(cfg);
            while let Some(p) = s.current_player() {
                let view = s.view(p);
                if check(&view, &format!("{variant} game {game}")) {
                    priced += 1;
                }
                let legal = view.legal_actions();
                let card = if game % 2 == 0 {
                    legal.nth(uniform_below(&mut rng, legal.len())).unwrap()
                } else {
                    HeuristicBot::choose(&view)
                };
                s.apply(card).expect("a legal card");
            }
        }
        assert!(priced > 2000, "{variant}: {priced} decisions priced");
    }
}

/// [`powi`] is `f32::powi` bit for bit, for every base the pricing raises (one minus a
/// seat's share of the unseen cards: up to 19 cards in a hand, up to 56 unseen) and every
/// exponent (a count of cards).
#[test]
fn powi_is_f32_powi() {
    for hand_len in 0..=19u32 {
        for pool in 1..=56u32 {
            let miss = 1.0 - (hand_len as f32 / pool as f32).min(1.0);
            for n in 0..=56u32 {
                let expected = std::hint::black_box(miss).powi(n as i32);
                assert_eq!(powi(miss, n).to_bits(), expected.to_bits(), "{miss}^{n}");
            }
        }
    }
}

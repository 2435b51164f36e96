//! The move order: which of the legal cards are one choice (equivalent-card reduction),
//! which card stands for a reduced one, how the table names a card, and in what order
//! the cards are tried (the table's card first, then by what each does to the trick).

use super::position::{fold_second_copies, suit_of, Ctx, Pos, MAX_MOVES, NO_SUIT};
use yokai_septet::rules::trick::strength;
use yokai_septet::{seat::left_of, Card, CardSet};

/// No table card to try first.
pub(super) const NO_MOVE: u8 = u8::MAX;

/// Drops all but one card of each equivalence class from `legal` (a subset of one hand,
/// all of one suit or the whole hand). `live` is every card still in a hand or in the
/// current trick: a card not in `live` is gone for the rest of the round.
#[inline]
pub(super) fn reduce_equivalent(legal: u64, live: u64) -> u64 {
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

/// The card of `reps` that stands for `c` (see [`reduce_equivalent`]): `c` itself, or
/// the higher card of its class in the same hand.
pub(super) fn representative(c: u8, reps: u64, live: u64) -> u8 {
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
pub(super) fn live_rank_id(c: u8, slots: u64) -> u8 {
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
pub(super) fn order_moves(
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
    use super::super::position::fire_trumps_4p;
    use super::*;

    fn cs(s: &str) -> u64 {
        s.parse::<CardSet>().unwrap().bits()
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

//! The solver against plain minimax (no pruning, no table, no card classes, the engine's
//! own `State::apply` and scoring) on random small endgames of every variant.
//!
//! The default run checks a few hundred endgames per variant; the ignored test checks
//! thousands, and a few hundred one trick longer:
//! `cargo test -p yokai-septet-solver --lib exactness -- --ignored`.

use rand_chacha::ChaCha8Rng;
use yokai_septet::rng::test_rng;

use super::position::Pos;
use super::{utility, Solver, Techniques};
use yokai_septet::rng::uniform_below;
use yokai_septet::rules::position::Position;
use yokai_septet::rules::scoring::{boss_threshold, seals_to_win, LOSING_TRICKS};
use yokai_septet::{Card, CardSet, Suit};
use yokai_septet::{GameConfig, Scoring, Variant};
use yokai_septet::{Phase, State};

pub(super) const VARIANTS: [Variant; 4] = [
    Variant::FourPlayer,
    Variant::ThreePlayer,
    Variant::Seal,
    Variant::SealShort,
];

/// The value of `s` for `root`'s side by exhaustive minimax (paranoid in `3p`).
fn minimax(s: &State, root: usize) -> i32 {
    let v = s.variant();
    let p = s.current_player().expect("a position inside a round");
    let maximizing = v.side_of(p) == v.side_of(root);
    let mut best = if maximizing { i32::MIN } else { i32::MAX };
    for c in s.legal_actions() {
        let value = child_value(s, c, root);
        best = if maximizing {
            best.max(value)
        } else {
            best.min(value)
        };
    }
    best
}

fn child_value(s: &State, c: yokai_septet::Card, root: usize) -> i32 {
    let mut t = *s;
    let out = t.apply(c).expect("a legal card");
    match out.round {
        Some(r) => utility(t.variant(), &r, t.winners_mask(), root),
        None => minimax(&t, root),
    }
}

fn rand_below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    uniform_below(rng, n as u32) as usize
}

/// A random position of `variant` with at most `max_tricks` tricks left in its round:
/// a real deal and passing, earlier tricks made up (each takes one random card from every
/// hand and goes to a random seat, as long as the round would not have ended), seal games
/// with random seals from earlier rounds, then a random part of the current trick played.
pub(super) fn endgame(variant: Variant, max_tricks: usize, rng: &mut ChaCha8Rng) -> State {
    endgame_between(variant, 1, max_tricks, rng)
}

/// [`endgame`] with between `min_tricks` and `max_tricks` tricks left in its round.
pub(super) fn endgame_between(
    variant: Variant,
    min_tricks: usize,
    max_tricks: usize,
    rng: &mut ChaCha8Rng,
) -> State {
    loop {
        let scoring = if rand_below(rng, 4) == 0 {
            Scoring::Basic
        } else {
            Scoring::Advanced
        };
        let seed = rng_u64(rng);
        let mut s = State::new(GameConfig::new(variant, seed).with_scoring(scoring));
        while s.phase() == Phase::Pass {
            play_random(&mut s, rng);
        }
        let n = s.num_players();
        let v = variant;
        if v.is_seal() {
            // Seals from earlier rounds, short of a win.
            let mut seals = [0u8; 2];
            for m in seals.iter_mut() {
                for _ in 0..rand_below(rng, seals_to_win(v) as usize) {
                    *m |= 1 << rand_below(rng, 7);
                }
            }
            if v == Variant::SealShort {
                seals[1] &= !seals[0];
            }
            let scores = [
                seals[0].count_ones() as u16,
                seals[1].count_ones() as u16,
                0,
            ];
            s = Position::from(s).seals(seals).side_scores(scores).build();
        }
        let tricks = v.tricks_per_round();
        let left = min_tricks + rand_below(rng, max_tricks + 1 - min_tricks);
        let mut ok = true;
        for _ in 0..tricks - left {
            let winner = rand_below(rng, n);
            let mut cards = [Card::ACE; 4];
            for (p, c) in cards.iter_mut().enumerate().take(n) {
                let h = s.hand(p);
                *c = h.nth(rand_below(rng, h.len() as usize) as u32).unwrap();
            }
            let trump = match s.trump_suit() {
                Some(t) => t,
                None => Suit::from_index(rand_below(rng, 7)).unwrap(),
            };
            s = Position::from(s)
                .trick_taken(&cards[..n], winner, trump)
                .build();
            let side = v.side_of(winner);
            if v.is_seal() {
                if s.seals(side).count_ones() >= seals_to_win(v) {
                    ok = false;
                }
            } else {
                let mut won = CardSet::EMPTY;
                let mut side_tricks = 0;
                for p in (0..n).filter(|&p| v.side_of(p) == side) {
                    won = won.union(s.won_cards(p));
                    side_tricks += s.tricks_won(p);
                }
                if won.bosses().len() >= boss_threshold(v) || side_tricks >= LOSING_TRICKS {
                    ok = false;
                }
            }
            if !ok {
                break;
            }
        }
        if !ok {
            continue;
        }
        if v.is_seal() && rand_below(rng, 8) == 0 {
            // As if no trick had been led yet: the next lead fixes the trump suit (R9).
            s = Position::from(s).no_trump().build();
        }
        for _ in 0..rand_below(rng, n) {
            play_random(&mut s, rng);
        }
        debug_assert!(s.trump_suit().is_some() || s.trick_cards().is_empty());
        return s;
    }
}

fn play_random(s: &mut State, rng: &mut ChaCha8Rng) {
    let legal = s.legal_actions();
    let k = rand_below(rng, legal.len() as usize) as u32;
    s.apply(legal.nth(k).unwrap()).unwrap();
}

fn rng_u64(rng: &mut ChaCha8Rng) -> u64 {
    use rand_core::RngCore;
    rng.next_u64()
}

/// Checks `count` endgames per variant (with up to `extra` more tricks left than the
/// default 3, 4 in `3p`): the position's value and every card's value.
/// The search runs with `techniques` (see [`Techniques`]).
fn check(count: usize, seed: u64, table_bits: u32, extra: usize, techniques: Techniques) {
    let mut rng = test_rng(seed);
    // One solver for everything: its table is reused across positions and objectives.
    let mut solver = Solver::with_table_bits(table_bits).with_techniques(techniques);
    for v in VARIANTS {
        let max_tricks = extra + if v == Variant::ThreePlayer { 4 } else { 3 };
        for i in 0..count {
            let s = endgame(v, max_tricks, &mut rng);
            let root = s.current_player().unwrap();
            let expected = minimax(&s, root);
            assert_eq!(
                solver.solve(&s),
                Some(expected),
                "{v:?} endgame {i}: value differs from minimax\n{s:?}"
            );
            let moves = solver.solve_moves(&s).unwrap();
            assert_eq!(moves.len() as u32, s.legal_actions().len());
            for (c, value) in moves.iter() {
                assert_eq!(
                    value,
                    child_value(&s, c, root),
                    "{v:?} endgame {i}: value of {c} differs from minimax\n{s:?}"
                );
            }
            assert_eq!(moves.best_value(), expected);
        }
    }
}

#[test]
fn solver_matches_minimax_on_random_endgames_of_every_variant() {
    check(250, 18, 16, 0, Techniques::ALL);
}

#[test]
fn solver_matches_minimax_with_a_tiny_table() {
    // 1024 entries: constant replacement, the table's bounds must stay true bounds.
    check(60, 1818, 10, 0, Techniques::ALL);
}

/// Each technique of [`Techniques`] alone.
pub(super) const EACH_ALONE: [Techniques; 6] = [
    Techniques {
        etc: true,
        ..Techniques::NONE
    },
    Techniques {
        boss_tally_key: true,
        ..Techniques::NONE
    },
    Techniques {
        zero_window: true,
        ..Techniques::NONE
    },
    Techniques {
        partition: true,
        ..Techniques::NONE
    },
    Techniques {
        history: true,
        ..Techniques::NONE
    },
    Techniques {
        sure_bounds: true,
        ..Techniques::NONE
    },
];

#[test]
fn solver_matches_minimax_with_each_technique_alone_and_none() {
    check(60, 36, 12, 0, Techniques::NONE);
    for (i, t) in EACH_ALONE.into_iter().enumerate() {
        check(60, 360 + i as u64, 12, 0, t);
    }
}

/// The bounds the search cuts with at a trick boundary, and the zero-window search starts
/// from at any position, hold the exact value: checked against minimax at random positions
/// of every variant (200 at a trick boundary, 200 within a trick), for every seat's side.
#[test]
fn value_bounds_hold_the_exact_value() {
    let mut rng = test_rng(3636);
    for v in VARIANTS {
        let max_tricks = if v == Variant::ThreePlayer { 4 } else { 3 };
        let mut checked = [0; 2];
        while checked != [200, 200] {
            let s = endgame(v, max_tricks, &mut rng);
            let within = !s.trick_cards().is_empty() as usize;
            if checked[within] == 200 {
                continue;
            }
            for seat in 0..s.num_players() {
                let ctx = Solver::context(&s, seat).unwrap();
                let (lo, hi) = Pos::from_state(&s).value_bounds(&ctx);
                let exact = minimax(&s, seat);
                assert!(
                    lo <= exact && exact <= hi,
                    "{v:?}: bounds {lo}..={hi} exclude the value {exact} for seat {seat}\n{s:?}"
                );
            }
            checked[within] += 1;
        }
    }
}

/// The sure-outcome bounds ([`super::bounds`]) hold the exact value at trick boundaries of
/// every variant (400 positions each, up to 5 tricks left, 6 in `3p`, for every seat's
/// side), and they are narrower than the boss bounds in some of them.
#[test]
fn sure_bounds_hold_the_exact_value_at_trick_boundaries() {
    let mut rng = test_rng(4848);
    let sure = Techniques {
        sure_bounds: true,
        ..Techniques::NONE
    };
    for v in VARIANTS {
        let max_tricks = if v == Variant::ThreePlayer { 5 } else { 4 };
        let (mut checked, mut narrower) = (0, 0);
        let mut solver = Solver::with_table_bits(16);
        while checked < 400 {
            let s = endgame(v, max_tricks, &mut rng);
            if !s.trick_cards().is_empty() {
                continue;
            }
            for seat in 0..s.num_players() {
                let mut ctx = Solver::context(&s, seat).unwrap();
                let pos = Pos::from_state(&s);
                let boss = pos.value_bounds(&ctx);
                ctx.techniques = sure;
                let (lo, hi, _) = pos.bounds(&ctx, None);
                let exact = solver.solve_for(&s, seat).unwrap();
                assert!(
                    lo <= exact && exact <= hi,
                    "{v:?}: sure bounds {lo}..={hi} exclude the value {exact} for seat {seat}\n{s:?}"
                );
                assert!(
                    boss.0 <= lo && hi <= boss.1,
                    "{v:?}: wider than the boss bounds"
                );
                narrower += ((lo, hi) != boss) as u32;
            }
            checked += 1;
        }
        assert!(
            narrower >= 5,
            "{v:?}: the sure bounds narrowed only {narrower}"
        );
    }
}

#[test]
#[ignore = "thousands of endgames: cargo test -p yokai-septet-solver --lib exactness -- --ignored"]
fn solver_matches_minimax_on_thousands_of_endgames() {
    check(3000, 180_018, 18, 0, Techniques::ALL);
    check(300, 18_018, 18, 1, Techniques::ALL);
}

#[test]
fn solver_refuses_positions_outside_the_play_phase() {
    let s = State::new(GameConfig::new(Variant::FourPlayer, 1));
    assert_eq!(Solver::new().solve(&s), None);
}

/// `s` with its captured bosses dealt out again among the seats, each seat keeping how
/// many it had: the same counts for R7.1, other bosses (so other points) for R8.
fn bosses_reassigned(s: &State, rng: &mut ChaCha8Rng) -> State {
    let n = s.num_players();
    let mut bosses: Vec<Card> = (0..n)
        .flat_map(|p| s.won_cards(p).bosses().iter())
        .collect();
    for i in (1..bosses.len()).rev() {
        bosses.swap(i, rand_below(rng, i + 1));
    }
    let mut twin = Position::from(*s).nothing_captured();
    let mut next = bosses.into_iter();
    for p in 0..n {
        let mut won = CardSet::EMPTY;
        for _ in 0..s.won_cards(p).bosses().len() {
            won.insert(next.next().unwrap());
        }
        twin = twin.captured(p, won, 0);
    }
    twin.build()
}

/// Positions that differ only in which bosses each side captured (same numbers) are
/// solved one after the other with one table: each must get its own exact value (the
/// table's key keeps what R7.1 and R8 read of the captured bosses).
#[test]
fn positions_differing_in_captured_bosses_keep_their_own_values() {
    let mut rng = test_rng(3663);
    let mut solver = Solver::with_table_bits(16);
    for v in [Variant::FourPlayer, Variant::ThreePlayer] {
        for i in 0..150 {
            let s = endgame(v, 3, &mut rng);
            let twin = bosses_reassigned(&s, &mut rng);
            for (which, pos) in [(0, &s), (1, &twin), (0, &s)] {
                let root = pos.current_player().unwrap();
                assert_eq!(
                    solver.solve(pos),
                    Some(minimax(pos, root)),
                    "{v:?} endgame {i}, position {which}\n{pos:?}"
                );
            }
        }
    }
}

/// A solve stopped by its node budget answers `None` and leaves nothing false in the
/// table: the same solver, asked again with every budget from tiny to ample, and at last
/// without one, matches minimax; a budget the search fits in answers exactly.
#[test]
fn solves_stopped_by_a_node_budget_leave_the_solver_exact() {
    let mut rng = test_rng(77);
    let mut solver = Solver::with_table_bits(12);
    let mut stopped = 0;
    for v in VARIANTS {
        let max_tricks = if v == Variant::ThreePlayer { 5 } else { 4 };
        for i in 0..25 {
            let s = endgame(v, max_tricks, &mut rng);
            let root = s.current_player().unwrap();
            for budget in [1, 10, 100, 1_000, 10_000, u64::MAX] {
                if let Some(v) = solver.solve_within(&s, budget) {
                    assert_eq!(v, minimax(&s, root), "{v:?} endgame {i}");
                }
                let before = solver.nodes();
                match solver.solve_moves_within(&s, budget) {
                    None => {
                        stopped += 1;
                        assert!(solver.nodes() - before > budget, "{v:?} endgame {i}");
                    }
                    Some(moves) => {
                        assert!(solver.nodes() - before <= budget, "{v:?} endgame {i}");
                        for (c, value) in moves.iter() {
                            assert_eq!(value, child_value(&s, c, root), "{v:?} endgame {i}: {c}");
                        }
                    }
                }
            }
            assert_eq!(
                solver.solve(&s),
                Some(minimax(&s, root)),
                "{v:?} endgame {i}"
            );
        }
    }
    assert!(stopped > 50, "{stopped}");
}

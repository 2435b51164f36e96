//! The solver against itself with every technique off ([`Techniques::NONE`]: alpha-beta,
//! the table, the move order and the boss bounds) on random positions of 6 to 8 tricks
//! left in every variant, too long for plain minimax: each technique may change how many
//! positions are searched, never a value. Both solvers keep their tables from position
//! to position (and across objectives), as a bot's solver does, so an entry that answers
//! for a position it should not is caught wherever it is reused.
//!
//! The default run checks a few hundred positions per variant (every technique together,
//! the default ones, and each alone); the ignored one 10,000:
//! `cargo test --release -p yokai-septet-solver --lib differential -- --ignored`.

use yokai_septet::rng::test_rng;

use super::exactness::{endgame_between, VARIANTS};
use super::{Solver, Techniques};
use yokai_septet::Variant;

/// Solves `count` positions per variant (6 to `max_tricks` tricks left, some mid-trick)
/// with `techniques` and with none, and demands the same value, the same value of every
/// legal card for every `moves_every`-th position, and the same round result
/// ([`Solver::solve_win`]).
fn differ(count: usize, seed: u64, max_tricks: usize, moves_every: usize, techniques: Techniques) {
    differ_with(count, seed, max_tricks, moves_every, techniques, 18);
}

/// [`differ`] with a table of `2^table_bits` entries for the solver with `techniques`.
fn differ_with(
    count: usize,
    seed: u64,
    max_tricks: usize,
    moves_every: usize,
    techniques: Techniques,
    table_bits: u32,
) {
    // One thread per variant, each with its own stream and solvers: the same positions
    // at any thread count.
    std::thread::scope(|scope| {
        for (k, v) in VARIANTS.into_iter().enumerate() {
            let seed = seed + k as u64;
            let config = (count, max_tricks, moves_every, techniques, table_bits);
            scope.spawn(move || differ_variant(v, seed, config));
        }
    });
}

/// [`differ_with`] for one variant.
fn differ_variant(
    v: Variant,
    seed: u64,
    (count, max_tricks, moves_every, techniques, table_bits): (
        usize,
        usize,
        usize,
        Techniques,
        u32,
    ),
) {
    let mut rng = test_rng(seed);
    let mut with = Solver::with_table_bits(table_bits).with_techniques(techniques);
    let mut plain = Solver::with_table_bits(18).with_techniques(Techniques::NONE);
    // A `3p` trick is a card shorter: two more tricks for a comparable search.
    let extra = if v == Variant::ThreePlayer { 2 } else { 0 };
    for i in 0..count {
        let s = endgame_between(v, 6 + extra, max_tricks + extra, &mut rng);
        let expected = plain.solve(&s).unwrap();
        assert_eq!(
            with.solve(&s),
            Some(expected),
            "{v:?} position {i}: value differs with {techniques:?}\n{s:?}"
        );
        assert_eq!(
            with.solve_win(&s),
            Some(expected >= super::win_threshold(v)),
            "{v:?} position {i}: round result differs from the value {expected}\n{s:?}"
        );
        if i % moves_every == 0 {
            let a = plain.solve_moves(&s).unwrap();
            let b = with.solve_moves(&s).unwrap();
            let a: Vec<_> = a.iter().collect();
            let b: Vec<_> = b.iter().collect();
            assert_eq!(a, b, "{v:?} position {i}: card values differ\n{s:?}");
        }
        if (i + 1) % 1000 == 0 {
            // Progress of the long run (shown with `--nocapture`).
            eprintln!("{v:?}: {} positions agree", i + 1);
        }
    }
}

#[test]
fn every_technique_keeps_the_values_of_6_to_8_tricks_left() {
    differ(200, 4848, 7, 3, Techniques::ALL);
    differ(60, 4849, 7, 3, Techniques::DEFAULT);
    let sure_bounds = Techniques {
        sure_bounds: true,
        ..Techniques::DEFAULT
    };
    differ(60, 4851, 7, 3, sure_bounds);
}

#[test]
fn each_technique_alone_keeps_the_values_of_6_to_8_tricks_left() {
    for (i, t) in super::exactness::EACH_ALONE.into_iter().enumerate() {
        differ(30, 4860 + i as u64, 7, 3, t);
    }
}

#[test]
fn partition_search_keeps_the_values_with_a_tiny_table() {
    // 1024 entries: the buckets are overwritten all the time, by positions of every class.
    let partition = Techniques {
        partition: true,
        ..Techniques::NONE
    };
    differ_with(60, 4850, 7, 3, partition, 10);
}

/// `DIFFERENTIAL_POSITIONS=N` runs `N` positions per variant instead (the first `N` of
/// the 10,000: the same stream).
#[test]
#[ignore = "10,000 positions per variant: cargo test --release -p yokai-septet-solver --lib differential -- --ignored"]
fn every_technique_keeps_the_values_of_10000_positions_per_variant() {
    let count = std::env::var("DIFFERENTIAL_POSITIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    differ(count, 484_848, 8, 10, Techniques::ALL);
}

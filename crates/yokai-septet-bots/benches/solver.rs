//! The exact solver: cold solves (fresh table) of endgames with 5 tricks left, per
//! variant, reached by the heuristic bot from fixed deals; and `pimc-dd` / `ismcts`
//! decisions next to `pimc` at a position with 5 tricks left (their relative cost).
//! Nodes per second: `cargo run --release -p yokai-septet-bots --example solve_times`.
//!
//! `cargo bench -p yokai-septet-bots --bench solver`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use yokai_septet::{GameConfig, Phase, State, Variant};
use yokai_septet_bots::bot_by_name;
use yokai_septet_bots::HeuristicBot;
use yokai_septet_solver::Solver;

/// Play-phase positions of `variant` with `left` tricks left, from seeds `0..`.
fn endgames(variant: Variant, left: usize, count: usize) -> Vec<State> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < count {
        let mut s = State::new(GameConfig::new(variant, seed));
        seed += 1;
        while !s.is_over()
            && s.round() == 0
            && (s.phase() == Phase::Pass || variant.tricks_per_round() - s.tricks_played() > left)
        {
            let p = s.current_player().unwrap();
            s.apply(HeuristicBot::choose(&s.view(p))).unwrap();
        }
        if !s.is_over() && s.round() == 0 {
            out.push(s);
        }
    }
    out
}

fn solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve_5_tricks_left_cold");
    g.sample_size(20);
    for v in Variant::ALL {
        let positions = endgames(v, 5, 16);
        let mut solver = Solver::with_table_bits(16);
        g.bench_with_input(
            BenchmarkId::from_parameter(v.name()),
            &positions,
            |b, ps| {
                b.iter(|| {
                    for s in ps {
                        solver.clear();
                        black_box(solver.solve(s));
                    }
                })
            },
        );
    }
    g.finish();
}

fn decide(c: &mut Criterion) {
    let mut g = c.benchmark_group("decision_5_tricks_left_4p");
    g.sample_size(10);
    let positions = endgames(Variant::FourPlayer, 5, 8);
    for name in ["pimc", "pimc-dd", "ismcts"] {
        let mut bot = bot_by_name(name, 1, Variant::FourPlayer).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(name), &positions, |b, ps| {
            b.iter(|| {
                for s in ps {
                    black_box(bot.act(&s.view(s.current_player().unwrap())).unwrap());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, solve, decide);
criterion_main!(benches);

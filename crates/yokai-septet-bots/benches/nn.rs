//! The `nn` bot: one decision (encode the seat's view, the heuristic's card that the
//! shipped models also read, the MLP's forward pass, the best legal card) of the shipped
//! model of each variant, next to one `heuristic` decision at the same positions (the
//! peer: the cheapest bot the baseline has to beat).
//!
//! `cargo bench -p yokai-septet-bots --bench nn`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use yokai_septet::{GameConfig, State, Variant};
use yokai_septet_bots::bot_by_name;
use yokai_septet_bots::HeuristicBot;

/// Every decision point of the first round of a few heuristic games of `variant`.
fn positions(variant: Variant) -> Vec<State> {
    let mut out = Vec::new();
    for seed in 0..4 {
        let mut s = State::new(GameConfig::new(variant, seed));
        while !s.is_over() && s.round() == 0 {
            out.push(s);
            let p = s.current_player().unwrap();
            s.apply(HeuristicBot::choose(&s.view(p))).unwrap();
        }
    }
    out
}

fn decisions(c: &mut Criterion) {
    let mut g = c.benchmark_group("decision");
    for v in Variant::ALL {
        let states = positions(v);
        for name in ["nn", "heuristic"] {
            let mut bot = bot_by_name(name, 0, v).unwrap();
            let mut i = 0;
            g.bench_with_input(BenchmarkId::new(name, v.name()), &v, |b, _| {
                b.iter(|| {
                    let s = &states[i % states.len()];
                    i += 1;
                    black_box(bot.act(&s.view(s.current_player().unwrap())).unwrap())
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, decisions);
criterion_main!(benches);

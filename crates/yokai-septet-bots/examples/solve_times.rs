//! Time to solve a round exactly from its first lead, per variant: median and p99 over
//! seeded deals (passing by the heuristic bot), and the solver's nodes per second.
//!
//! `cargo run --release -p yokai-septet-bots --example solve_times -- [DEALS] [VARIANT] [TRICKS] [TECHNIQUES] [WHAT] [CAP]`
//! (default 100 deals of every variant; one thread; a fresh table per deal, so each solve
//! is a cold one). Times are the thread's CPU time, so they hold on a busy machine too.
//! With TRICKS, the heuristic bot first plays that many tricks (deals whose round ends
//! sooner are skipped) and the solve starts from the next lead. TECHNIQUES picks the
//! search's techniques ([`Techniques`]): `default` (the default: all but `partition`), `all`,
//! `none`, or one of them followed by `-name` / `+name` switches, comma-separated
//! (`all,-etc`, `none,+boss_tally_key`, `default,-history`, `default,+partition`).
//! WHAT is `value` (the default: [`Solver::solve`], the position's value) or `moves`
//! ([`Solver::solve_moves`]: every legal card scored, one search per card class) or `win`
//! ([`Solver::solve_win`]: whether the side to move wins the round, one null-window search).
//! CAP (millions of nodes, `value` only) stops a solve that passes it: such deals
//! count as infinitely long in the quantiles (`inf`) and are counted in the last column, so
//! positions too long to finish still give their median where fewer than half pass it.
//!
//! Each line: solves timed, median / p99 / max CPU ms, million nodes per CPU second,
//! median and max thousand nodes, all the solves' million nodes, the table's hit rate (look-ups that found their
//! position, over all look-ups), and how many solves passed CAP.

/// CPU time of the calling thread, in seconds.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

use yokai_septet_bots::HeuristicBot;
use yokai_septet_solver::{Solver, Techniques};

fn techniques(spec: &str) -> Techniques {
    let mut t = Techniques::DEFAULT;
    for part in spec.split(',') {
        let (on, name) = match part.as_bytes().first() {
            Some(b'-') => (false, &part[1..]),
            Some(b'+') => (true, &part[1..]),
            _ => (true, part),
        };
        match name {
            "all" => {
                t = if on {
                    Techniques::ALL
                } else {
                    Techniques::NONE
                }
            }
            "none" => t = Techniques::NONE,
            "default" => t = Techniques::DEFAULT,
            "etc" => t.etc = on,
            "boss_tally_key" => t.boss_tally_key = on,
            "zero_window" => t.zero_window = on,
            "partition" => t.partition = on,
            "history" => t.history = on,
            "sure_bounds" => t.sure_bounds = on,
            _ => panic!("unknown technique {name:?}"),
        }
    }
    t
}
use yokai_septet::{GameConfig, Phase, State, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let deals: u64 = args
        .next()
        .map_or(100, |a| a.parse().expect("DEALS: a number"));
    let variants = match args.next() {
        Some(v) if v != "all" => vec![v.parse::<Variant>().expect("a variant name")],
        _ => Variant::ALL.to_vec(),
    };
    let skip: usize = args
        .next()
        .map_or(0, |a| a.parse().expect("TRICKS: a number"));
    let techniques = techniques(&args.next().unwrap_or_else(|| "default".into()));
    let what = args.next().unwrap_or_else(|| "value".into());
    if !["value", "moves", "win"].contains(&what.as_str()) {
        panic!("WHAT: value, moves or win, not {what:?}");
    }
    let cap = args.next().map_or(u64::MAX, |a| {
        (a.parse::<f64>().expect("CAP: millions of nodes") * 1e6) as u64
    });
    println!(
        "{techniques:?}, {}",
        match what.as_str() {
            "moves" => "every card scored (solve_moves)",
            "win" => "the round's result (solve_win)",
            _ => "the value (solve)",
        }
    );
    println!(
        "variant     deals  median ms  p99 ms  max ms  Mnodes/s  median knodes  max knodes  all Mnodes  hit %  over cap"
    );
    for v in variants {
        let mut times = Vec::new();
        let mut over = 0;
        let mut counts = Vec::new();
        let (mut nodes, mut secs) = (0u64, 0f64);
        let mut solver = Solver::new().with_techniques(techniques);
        for seed in 0..deals {
            let mut s = State::new(GameConfig::new(v, seed));
            while s.phase() == Phase::Pass {
                let p = s.current_player().unwrap();
                let c = HeuristicBot::choose(&s.view(p));
                s.apply(c).unwrap();
            }
            while s.tricks_played() < skip && s.round() == 0 && !s.is_over() {
                let p = s.current_player().unwrap();
                let c = HeuristicBot::choose(&s.view(p));
                s.apply(c).unwrap();
            }
            if s.round() != 0 || s.is_over() {
                continue;
            }
            solver.clear();
            let n0 = solver.nodes();
            let t = thread_cpu_seconds();
            let finished = match what.as_str() {
                "moves" => std::hint::black_box(solver.solve_moves(&s)).is_some(),
                "win" => std::hint::black_box(solver.solve_win(&s)).is_some(),
                _ => std::hint::black_box(solver.solve_within(&s, cap)).is_some(),
            };
            let dt = thread_cpu_seconds() - t;
            nodes += solver.nodes() - n0;
            secs += dt;
            if finished {
                times.push(dt * 1e3);
                counts.push(solver.nodes() - n0);
            } else {
                over += 1;
                times.push(f64::INFINITY);
                counts.push(u64::MAX);
            }
        }
        times.sort_by(f64::total_cmp);
        counts.sort_unstable();
        let knodes = |n: u64| match n {
            u64::MAX => "inf".to_string(),
            n => format!("{:.1}", n as f64 / 1e3),
        };
        let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
        let (probes, hits) = solver.table_probes();
        println!(
            "{:<10} {:>6} {:>10.2} {:>7.1} {:>7.1} {:>9.2} {:>14} {:>11} {:>11.3} {:>6.1} {:>9}",
            v.name(),
            times.len(),
            q(0.5),
            q(0.99),
            times[times.len() - 1],
            nodes as f64 / secs / 1e6,
            knodes(counts[counts.len() / 2]),
            knodes(counts[counts.len() - 1]),
            nodes as f64 / 1e6,
            100.0 * hits as f64 / probes.max(1) as f64,
            over,
        );
    }
}

//! Time to solve a round exactly from its first lead, per variant: median and p99 over
//! seeded deals (passing by the heuristic bot), and the solver's nodes per second.
//!
//! `cargo run --release --example solve_times -- [DEALS] [VARIANT] [TRICKS] [TECHNIQUES] [WHAT]`
//! (default 100 deals of every variant; one thread; a fresh table per deal, so each solve
//! is a cold one). Times are the thread's CPU time, so they hold on a busy machine too.
//! With TRICKS, the heuristic bot first plays that many tricks (deals whose round ends
//! sooner are skipped) and the solve starts from the next lead. TECHNIQUES picks the
//! search's techniques ([`Techniques`]): `all` (the default), `none`, or `all` or `none`
//! followed by `-name` / `+name` switches, comma-separated (`all,-etc`, `none,+boss_tally_key`).
//! WHAT is `value` (the default: [`Solver::solve`], the position's value) or `moves`
//! ([`Solver::solve_moves`]: every legal card scored, one search per card class).
//!
//! Each line: solves timed, median / p99 / max CPU ms, million nodes per CPU second,
//! median and max thousand nodes, and the table's hit rate (look-ups that found their
//! position, over all look-ups).

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

use yokai_septet::bots::HeuristicBot;
use yokai_septet::solver::{Solver, Techniques};

fn techniques(spec: &str) -> Techniques {
    let mut t = Techniques::ALL;
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
            "etc" => t.etc = on,
            "boss_tally_key" => t.boss_tally_key = on,
            "zero_window" => t.zero_window = on,
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
    let techniques = techniques(&args.next().unwrap_or_else(|| "all".into()));
    let every_card = match args.next().as_deref() {
        None | Some("value") => false,
        Some("moves") => true,
        Some(w) => panic!("WHAT: value or moves, not {w:?}"),
    };
    println!(
        "{techniques:?}, {}",
        if every_card {
            "every card scored (solve_moves)"
        } else {
            "the value (solve)"
        }
    );
    println!(
        "variant     deals  median ms  p99 ms  max ms  Mnodes/s  median knodes  max knodes  hit %"
    );
    for v in variants {
        let mut times = Vec::new();
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
            if every_card {
                std::hint::black_box(solver.solve_moves(&s));
            } else {
                std::hint::black_box(solver.solve(&s));
            }
            let dt = thread_cpu_seconds() - t;
            times.push(dt * 1e3);
            nodes += solver.nodes() - n0;
            counts.push(solver.nodes() - n0);
            secs += dt;
        }
        times.sort_by(f64::total_cmp);
        counts.sort_unstable();
        let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
        let (probes, hits) = solver.table_probes();
        println!(
            "{:<10} {:>6} {:>10.2} {:>7.1} {:>7.1} {:>9.2} {:>14.1} {:>11.1} {:>6.1}",
            v.name(),
            times.len(),
            q(0.5),
            q(0.99),
            times[times.len() - 1],
            nodes as f64 / secs / 1e6,
            counts[counts.len() / 2] as f64 / 1e3,
            counts[counts.len() - 1] as f64 / 1e3,
            100.0 * hits as f64 / probes.max(1) as f64,
        );
    }
}

//! Plays a search bot's decisions at fixed seeds and prints their cost: the driver of the
//! `ismcts` profile in `docs/search.md` (run it under `valgrind --tool=callgrind`), and of
//! the thread table of `scripts/device_search.sh`.
//!
//! `cargo run --release -p yokai-septet-bots --example search_profile -- [--bot ismcts] [--variant 4p]
//! [--decisions 40] [--seed 5800]`
//!
//! Games of `--variant` from seed `--seed` on are played by the heuristic in every seat;
//! at every play-phase decision with more than one legal card, the seat's search bot
//! (one per seat, built at the game's start, seeded from the game and the seat) is asked
//! too, until `--decisions` decisions. Prints the decisions, the process CPU time and wall
//! time per decision (median, mean, max; CPU time counts every thread of a threaded
//! search), and a hash of the cards chosen (equal hashes: the same choices).
use std::time::Instant;

use yokai_septet::{GameConfig, State, Variant};
use yokai_septet_bots::{bot_by_name, Bot};

fn main() {
    let mut bot = "ismcts".to_string();
    let mut variant = Variant::FourPlayer;
    let (mut decisions, mut seed) = (40usize, 5800u64);
    let mut args = std::env::args().skip(1);
    let usage = "usage: search_profile [--bot NAME] [--variant V] [--decisions N] [--seed S]";
    while let Some(flag) = args.next() {
        let value = args.next().expect(usage);
        match flag.as_str() {
            "--bot" => bot = value,
            "--variant" => variant = value.parse().expect("a variant: 4p, 3p, seal, seal-short"),
            "--decisions" => decisions = value.parse().expect(usage),
            "--seed" => seed = value.parse().expect(usage),
            _ => panic!("{usage}"),
        }
    }
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    'games: for game in seed.. {
        let mut s = State::new(GameConfig::new(variant, game).with_max_rounds(Some(2)));
        let mut bots: Vec<Box<dyn Bot>> = (0..variant.num_players())
            .map(|p| bot_by_name(&bot, game * 10 + p as u64, variant).expect("a bot name"))
            .collect();
        let mut heuristic = bot_by_name("heuristic", game, variant).expect("the heuristic");
        while let Some(p) = s.current_player() {
            let view = s.view(p);
            if s.phase() == yokai_septet::Phase::Play && view.legal_actions().len() > 1 {
                let (c0, t0) = (process_cpu(), Instant::now());
                let card = bots[p].act(&view).expect("a decision");
                wall.push(t0.elapsed().as_secs_f64() * 1e3);
                cpu.push((process_cpu() - c0) * 1e3);
                hash = (hash ^ card.id() as u64).wrapping_mul(0x100_0000_01b3);
                if cpu.len() == decisions {
                    break 'games;
                }
            }
            let card = heuristic.act(&s.view(p)).expect("a decision");
            s.apply(card).expect("a legal card");
        }
    }
    println!(
        "{bot} {variant}: {} decisions, CPU ms/decision {}, wall ms/decision {}, choices {hash:016x}",
        cpu.len(),
        summary(&mut cpu),
        summary(&mut wall)
    );
}

/// `median / mean / max` of `xs`.
fn summary(xs: &mut [f64]) -> String {
    xs.sort_by(f64::total_cmp);
    let mean = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    let median = xs.get(xs.len() / 2).copied().unwrap_or(0.0);
    let max = xs.last().copied().unwrap_or(0.0);
    format!("median {median:.2} mean {mean:.2} max {max:.2}")
}

/// The process's CPU time (all threads), in seconds.
fn process_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

//! Runs a duplicate arena for every variant with the library API and prints the tables.
//!
//! `cargo run --release -p yokai-septet-bots --example arena -- [games] [bot,bot] [threads]`
//! e.g. `cargo run --release -p yokai-septet-bots --example arena -- 2000 heuristic,random 0`
//!      `cargo run --release -p yokai-septet-bots --example arena -- 400 pimc,heuristic 1`
use yokai_septet::Variant;
use yokai_septet_bots::arena::{run_arena, ArenaConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let lineup = args.next().unwrap_or_else(|| "heuristic,random".into());
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let bots: Vec<&str> = lineup.split(',').collect();
    for v in Variant::ALL {
        let mut config = ArenaConfig::new(v, &bots, games, 1);
        config.threads = threads;
        match run_arena(&config, &yokai_septet_bots::BotRegistry::new(), &|| {}) {
            Ok(report) => {
                println!("{report}");
                // Scripts read the same report as JSON (`yokai-septet arena --json`).
                println!("{}\n", serde_json::to_string(&report.summary).unwrap());
            }
            Err(e) => eprintln!("{v}: {e}"),
        }
    }
}

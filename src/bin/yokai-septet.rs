//! The `yokai-septet` command-line tool.
//!
//! A thin shell over library functions (the Python package calls the same code): each
//! subcommand parses its options, calls into `yokai_septet`, and prints. New subcommands
//! (`play`, `replay`, `bench`, …) are one more `Command` variant and one more function.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use yokai_septet::{run_arena, ArenaConfig, Scoring, Variant};

#[derive(Parser)]
#[command(name = "yokai-septet", version, about = "Yokai Septet engine tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play many games between bots (duplicate deals, in parallel) and summarize.
    Arena(ArenaArgs),
}

#[derive(Args)]
struct ArenaArgs {
    /// Variant: 4p, 3p, seal, seal-short.
    #[arg(long, default_value = "4p")]
    variant: String,
    /// Scoring for 4p/3p: advanced or basic.
    #[arg(long, default_value = "advanced")]
    scoring: String,
    /// Comma-separated bot names, one per side (or one per seat), e.g. heuristic,random.
    #[arg(long, default_value = "heuristic,random")]
    bots: String,
    /// Number of games (rounded up to whole duplicate groups).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Master seed: every deal and bot seed derives from it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Round cap per game (0 = none).
    #[arg(long, default_value_t = 100)]
    max_rounds: u32,
    /// Play every deal once only instead of once per seat rotation.
    #[arg(long)]
    no_duplicate: bool,
    /// Print the report as JSON (no progress bar).
    #[arg(long)]
    json: bool,
}

fn arena(a: ArenaArgs) -> Result<(), String> {
    let variant: Variant = a.variant.parse().map_err(|e| format!("{e}"))?;
    let scoring: Scoring = a.scoring.parse().map_err(|e| format!("{e}"))?;
    let bots: Vec<&str> = a.bots.split(',').map(str::trim).collect();
    let mut config = ArenaConfig::new(variant, &bots, a.games, a.seed);
    config.scoring = scoring;
    config.threads = a.threads;
    config.max_rounds = (a.max_rounds > 0).then_some(a.max_rounds);
    config.duplicate = !a.no_duplicate;

    let bar = if a.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(config.total_games())
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games [{elapsed_precise} < {eta}]")
            .expect("a valid template"),
    );
    // Update the bar in batches: a shared counter is cheap, the bar's lock is not.
    let done = AtomicU64::new(0);
    let progress = || {
        let k = done.fetch_add(1, Ordering::Relaxed) + 1;
        if k % 64 == 0 {
            bar.set_position(k);
        }
    };
    let report = run_arena(&config, &progress).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    if a.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        println!("{json}");
    } else {
        println!("{report}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Arena(a) => arena(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

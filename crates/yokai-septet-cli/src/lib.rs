//! # yokai-septet-cli
//!
//! The `yokai-septet` command-line tool.
//!
//! One code path reachable two ways: the Rust binary (`src/main.rs`) and the
//! Python console script (`yokai_septet.cli:main` → `_core.run_cli`) both call [`run`].
//! Every subcommand is a library function generic over its input and output, so tests
//! drive them with scripted input ([`run_with`]).
//!
//! - `arena`: many games between bots, summarised.
//! - `play`: an interactive game, you against the bots ([`play`]).
//! - `replay FILE`: a validated record, trick by trick ([`replay`]); with `--html OUT`, the
//!   self-contained HTML replay viewer ([`yokai_septet_picture::replay_html`]).
//! - `analyze FILE`: the double-dummy analysis of a record ([`analyze`]): the best cards
//!   and the cost of every card play, per-seat totals; `--json`, `--html OUT`.
//! - `bench`: the engine's single-thread throughput per variant ([`bench`](mod@bench)).
//! - `rules`: the rules reference (`docs/rules.md`, built in), set for a terminal
//!   ([`rules::render`]).
//! - `ladder`: round-robin duplicate arenas of bots, as a Markdown Elo table.
//! - `serve`: the local web app ([`yokai_septet_web`]).
//!
//! Long runs (`arena`, `ladder`) show their progress on a terminal's stderr only
//! ([`progress::GameProgress`]), after saying what they play, with an estimate on the bar
//! ([`yokai_septet_bots::arena::estimate`]).
//!
//! Exit codes (also in `--help`): 0 success (also quitting a game, or its input closing);
//! 1 a runtime error while working (a file that cannot be written, a bot that fails);
//! 2 a usage error or an invalid input (a bad option, bot name, output path or record),
//! always found before the first game; 3 the results were written but an extra output
//! (`ladder --plot`) was not.

// Safe code only.
#![deny(unsafe_code)]
// Its items' docs come with the command-line tool's own rework (issue 35's other items).
#![allow(missing_docs)]

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use indicatif::ProgressBar;

use yokai_septet::Variant;
use yokai_septet_bots::arena::estimate::Estimate;
use yokai_septet_bots::arena::{run_arena, ArenaConfig};
use yokai_septet_bots::BotRegistry;

pub mod analyze;
pub mod bench;
mod game_args;
mod hint;
pub mod play;
pub mod progress;
pub mod replay;
pub mod rules;
mod serve;
pub mod style;

pub use style::Style;

use game_args::{round_cap, GameArgs};
use progress::{worker_threads, GameProgress};

#[derive(Parser)]
#[command(
    name = "yokai-septet",
    version,
    about = "Yokai Septet engine tools",
    after_help = "The rules (R1..R10): `yokai-septet rules`, or docs/rules.md in the repository.\n\
                  The Python API: docs/api.md; the README is the guide.\n\
                  Exit codes: 0 done; 1 a runtime error while working; 2 a usage error or an \
                  invalid input (found before any work); 3 results written, an extra output \
                  (ladder --plot) not."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play many games between bots (duplicate deals, in parallel) and summarize.
    Arena(ArenaArgs),
    /// Play a game in the terminal, you against the bots.
    Play(PlayArgs),
    /// Print a game record (JSON) trick by trick, after validating it.
    Replay(ReplayArgs),
    /// Double-dummy analysis of a game record: every card play's best cards and cost.
    Analyze(AnalyzeArgs),
    /// Measure the engine's throughput: random playouts, one thread, per variant.
    Bench(BenchArgs),
    /// Print the rules of the game (R1..R10), as in docs/rules.md (set for a terminal).
    Rules,
    /// Round-robin duplicate arenas between bots, summarised as a Markdown Elo table.
    Ladder(LadderArgs),
    /// Play and study in the browser: a local web app (you against the bots, hints,
    /// double-dummy reviews, records, bots watched), on 127.0.0.1 unless --host says.
    Serve(serve::ServeArgs),
}

#[derive(Args)]
struct LadderArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Comma-separated bot names (default: every built-in bot at its default budget).
    #[arg(long, long_help = ladder_bots_help())]
    bots: Option<String>,
    /// Games per pair (rounded up to whole duplicate groups).
    #[arg(long, default_value_t = 40)]
    games: u64,
    /// Worker threads per arena (0 = one per core). Timings are per decision on one core
    /// either way, but other threads compete for shared caches and memory.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Round cap per game (0 = none).
    #[arg(long, default_value_t = 30)]
    max_rounds: u32,
    /// Play single rounds from fresh deals instead of whole games (as `arena --rounds`).
    #[arg(long)]
    rounds: bool,
    /// Stop each pairing early once its paired board interval decides it (as `arena
    /// --sequential`); --games is then each pairing's budget.
    #[arg(long)]
    sequential: bool,
    /// What the ratings are fitted to: games (win rates, Wilson intervals) or boards
    /// (board win shares, paired intervals).
    #[arg(long, default_value = "games", value_parser = clap::builder::PossibleValuesParser::new(yokai_septet_bots::arena::ladder::RankBy::NAMES))]
    rank_by: String,
    /// Append the Markdown table to this file instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also draw the Elo table as a bar chart: FILE.svg, or FILE.png where the tool was
    /// built with pictures as pixels (the pip-installed `yokai-septet` is).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

#[derive(Args)]
struct ArenaArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Comma-separated bot names, one per side (or one per seat), e.g. heuristic,random.
    #[arg(long, default_value = "heuristic,random", long_help = arena_bots_help())]
    bots: String,
    /// Number of games, rounded up to whole duplicate groups (3 games a deal in 3p, else 2).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Round cap per game (0 = none).
    #[arg(long, default_value_t = yokai_septet_bots::arena::settings::DEFAULT_MAX_ROUNDS)]
    max_rounds: u32,
    /// Play every deal once only instead of once per seat rotation.
    #[arg(long)]
    no_duplicate: bool,
    /// Play single rounds from fresh deals instead of whole games, each scored by its
    /// round points (most strength questions are about card play inside a round).
    #[arg(long)]
    rounds: bool,
    /// Stop early once the first bot's anytime-valid board interval excludes its fair
    /// share (error rate 5%, looked at after every board); --games is then the budget.
    #[arg(long)]
    sequential: bool,
    /// Print the report as JSON (no progress bar).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Bots for the other seats: one name for all, or one per other seat in seat order
    /// (comma-separated); through the Python console script also a Python policy,
    /// module:attribute.
    /// [default: heuristic; with --load: the saved game's]
    #[arg(long, long_help = play_bots_help())]
    bots: Option<String>,
    /// Your seat (0-based; seat 0 and 2 are partners in the 4-player games)
    /// [default: 0; with --load: the saved game's].
    #[arg(long)]
    seat: Option<usize>,
    /// Stop after this many rounds (0 = play the game to its end).
    #[arg(long, default_value_t = 0)]
    max_rounds: u32,
    /// Write the game's JSON record here (kept up to date while you play, and at the end)
    /// [default: with --load, the loaded file].
    #[arg(long)]
    save: Option<PathBuf>,
    /// Resume the game saved in this record (by --save) where it stopped, and go on saving
    /// to it (unless --save names another file): its variant, scoring, seed, round cap,
    /// bots and seat come from the record (--bots or --seat that differ from the saved
    /// ones are refused).
    #[arg(long, value_name = "GAME.json", conflicts_with_all = ["variant", "scoring", "seed", "max_rounds"])]
    load: Option<PathBuf>,
}

/// The `--bots` help of `play`: the names come from the registry's table
/// (`bots::bot_names_help`).
fn play_bots_help() -> String {
    format!(
        "Bots for the other seats: one name for all, or one per other seat in seat order \
         (comma-separated); through the Python console script also a Python policy, \
         module:attribute.\n\n{}",
        yokai_septet_bots::bot_names_help()
    )
}

/// The `--bots` help of `arena`.
fn arena_bots_help() -> String {
    format!(
        "Comma-separated bot names, one per side (or one per seat), e.g. heuristic,random.\n\n{}",
        yokai_septet_bots::bot_names_help()
    )
}

/// The `--bots` help of `ladder`.
fn ladder_bots_help() -> String {
    format!(
        "Comma-separated bot names (default: every built-in bot at its default budget).\n\n{}",
        yokai_septet_bots::bot_names_help()
    )
}

#[derive(Args)]
struct ReplayArgs {
    /// A JSON game record (as written by `play --save` or `Game.record()`).
    file: PathBuf,
    /// Show only round K, counted from 0 (as `Game.round` and the record's `rounds`).
    #[arg(long)]
    round: Option<usize>,
    /// Write a self-contained HTML replay viewer (every round, trick by trick) to this
    /// file instead of printing.
    #[arg(long, value_name = "OUT.html", conflicts_with = "round")]
    html: Option<PathBuf>,
}

#[derive(Args)]
struct AnalyzeArgs {
    /// A JSON game record (as written by `play --save` or `Game.record()`).
    file: PathBuf,
    /// Solver nodes allowed per position: a play whose solve to the round's end needs
    /// more is skipped (and so are the earlier plays of its round), and listed as skipped.
    #[arg(long, default_value_t = yokai_septet_bots::analysis::DEFAULT_BUDGET, value_name = "NODES")]
    budget: u64,
    /// Print the analysis as JSON (schema in docs/search.md; no progress bar).
    #[arg(long)]
    json: bool,
    /// Also write the HTML replay viewer with the costly plays marked to this file.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
}

#[derive(Args)]
struct BenchArgs {
    /// Seconds to measure each variant.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Only this variant (default: all four).
    #[arg(long)]
    variant: Option<String>,
}

/// The rules reference, built into the tool so that a wheel or binary user has it too.
pub const RULES: &str = include_str!("../docs/rules.md");

/// Exit code of a runtime error while working.
pub const EXIT_RUNTIME: i32 = 1;
/// Exit code of a usage error or an invalid input, found before any work.
pub const EXIT_USAGE: i32 = 2;
/// Exit code of a run whose results were written but whose extra output was not.
pub const EXIT_PARTIAL: i32 = 3;

/// A subcommand's failure: the message and the exit code.
pub struct Failure {
    pub code: i32,
    pub message: String,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    pub fn runtime(message: impl Into<String>) -> Failure {
        Failure {
            code: EXIT_RUNTIME,
            message: message.into(),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::runtime(format!("I/O error: {e}"))
    }
}

/// Runs the tool on `args` (program name first) with the process's stdin and stdout, its
/// bots built by `registry`; returns the exit code. Colours follow [`Style::detect`].
pub fn run<I, T>(args: I, registry: &BotRegistry) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    // Not locked: `arena`'s progress bar draws to stderr from the worker threads, and a lock
    // held here for the whole run would block them forever whenever stderr is a terminal.
    let mut err = io::stderr();
    run_with(
        args,
        registry,
        &mut input,
        &mut out,
        &mut err,
        Style::detect(),
    )
}

/// Runs the tool on `args` (program name first) with the given input and outputs.
pub fn run_with<I, T>(
    args: I,
    registry: &BotRegistry,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    style: Style,
) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = if style.color {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            let w: &mut dyn Write = if e.use_stderr() { err } else { out };
            let _ = write!(w, "{text}");
            let _ = w.flush();
            return e.exit_code();
        }
    };
    let result = match cli.command {
        Command::Arena(a) => arena(a, registry, out, err),
        Command::Play(a) => play_cmd(a, registry, input, out, style),
        Command::Replay(a) => replay_cmd(a, out, style),
        Command::Analyze(a) => analyze_cmd(a, out, style),
        Command::Bench(a) => bench_cmd(a, out),
        Command::Rules => out
            .write_all(rules::render(RULES, style).as_bytes())
            .map_err(Failure::from),
        Command::Ladder(a) => ladder_cmd(a, registry, out, err),
        Command::Serve(a) => serve::serve_cmd(a, out, err),
    };
    let _ = out.flush();
    match result {
        Ok(()) => 0,
        // A closed pipe (`yokai-septet replay x.json | head`) is not an error.
        Err(f) if f.message.contains("Broken pipe") => 0,
        Err(f) => {
            let _ = writeln!(err, "error: {}", f.message);
            let _ = err.flush();
            f.code
        }
    }
}

fn arena(
    a: ArenaArgs,
    registry: &BotRegistry,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    let variant = a.game.variant()?;
    let scoring = a.game.scoring()?;
    let bots: Vec<&str> = a.bots.split(',').map(str::trim).collect();
    if let [one] = bots[..] {
        // One name would seat it everywhere: a table of the bot against itself.
        return Err(Failure::usage(format!(
            "--bots {one}: an arena compares bots: give two names or more (one per side or \
             one per seat; {one},{one} to play the bot against itself)"
        )));
    }
    let mut config = ArenaConfig::new(variant, &bots, a.games, a.game.seed);
    config.scoring = scoring;
    config.threads = a.threads;
    config.max_rounds = round_cap(a.max_rounds);
    config.duplicate = !a.no_duplicate;
    config.rounds = a.rounds;
    config.sequential = a.sequential;
    yokai_septet_bots::arena::check(&config, registry)
        .map_err(|e| Failure::usage(e.to_string()))?;

    let total = config.total_games();
    if total != a.games {
        writeln!(
            err,
            "note: --games {} rounded up to {total}: duplicate deals play each deal once per \
             seat rotation, so whole sets of {} games",
            a.games,
            config.group_size()
        )?;
    }
    let threads = worker_threads(a.threads);
    let progress = GameProgress::new(&format!("arena {variant}"), total, a.threads, !a.json);
    let estimate = calibrated(&progress, registry, &config.bots, &config, |e| {
        e.seconds(&config, threads)
    });
    progress.plan(
        &format!(
            "arena {variant}: {}{total} {} of {} on {threads} thread{}",
            if config.sequential { "up to " } else { "" },
            if config.rounds {
                "single rounds"
            } else {
                "games"
            },
            bots.join(" vs "),
            if threads == 1 { "" } else { "s" }
        ),
        estimate,
    );
    let report = run_arena(&config, registry, &|| progress.game_done(None))
        .map_err(|e| Failure::usage(e.to_string()))?;
    progress.finish();
    if a.json {
        let json =
            serde_json::to_string_pretty(&report).map_err(|e| Failure::runtime(e.to_string()))?;
        writeln!(out, "{json}")?;
    } else {
        writeln!(out, "{report}")?;
    }
    // On stderr too, so that it is seen where the table (or the JSON) is piped away.
    if let Some(w) = report.summary.truncation_warning(config.max_rounds) {
        writeln!(err, "warning: {w} (--max-rounds N; 0: no cap)")?;
    }
    Ok(())
}

fn play_cmd(
    a: PlayArgs,
    registry: &BotRegistry,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    style: Style,
) -> Result<(), Failure> {
    let variant = a.game.variant()?;
    if let Some(path) = &a.save {
        check_writable("--save", path)?;
    } else if let Some(path) = a.load.as_ref().filter(|p| p.exists()) {
        // A resumed game goes on saving to the file it came from, as it was saved before.
        check_writable(
            "--load (the resumed game is saved back to it; or give --save)",
            path,
        )?;
    }
    let opts = play::PlayOptions {
        variant,
        scoring: a.game.scoring()?,
        bots: a
            .bots
            .map(|b| b.split(',').map(|s| s.trim().to_string()).collect()),
        seat: a.seat,
        seed: a.game.seed,
        max_rounds: round_cap(a.max_rounds),
        save: a.save,
        load: a.load,
        style,
    };
    play::play(&opts, registry, input, out).map(|_| ())
}

fn replay_cmd(a: ReplayArgs, out: &mut dyn Write, style: Style) -> Result<(), Failure> {
    // Up front, as `analyze --html` and `ladder --out` do: a usage error before any work.
    if let Some(path) = &a.html {
        check_writable("--html", path)?;
    }
    let text = read_record(&a.file)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", a.file.display())))?;
    match a.html {
        Some(path) => replay_html(&text, &path, out),
        None => replay::replay(&text, a.round, style, out),
    }
}

/// `replay FILE --html OUT`: the record validated, then the viewer page written.
fn replay_html(json: &str, path: &std::path::Path, out: &mut dyn Write) -> Result<(), Failure> {
    let m = yokai_septet::Match::from_json(json).map_err(|e| Failure::usage(e.to_string()))?;
    let page = yokai_septet_picture::replay_html(&m);
    std::fs::write(path, page)
        .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))?;
    writeln!(out, "wrote {}", path.display())?;
    Ok(())
}

fn analyze_cmd(a: AnalyzeArgs, out: &mut dyn Write, style: Style) -> Result<(), Failure> {
    if a.budget == 0 {
        return Err(Failure::usage("--budget must be at least 1 node"));
    }
    if let Some(path) = &a.html {
        check_writable("--html", path)?;
    }
    let text = read_record(&a.file)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", a.file.display())))?;
    let opts = analyze::AnalyzeOptions {
        budget: a.budget,
        json: a.json,
        html: a.html.as_deref(),
        style,
    };
    analyze::run(&text, &opts, out)
}

fn bench_cmd(a: BenchArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if !(a.seconds > 0.0 && a.seconds.is_finite()) {
        return Err(Failure::usage(format!(
            "--seconds must be a positive number, got {}",
            a.seconds
        )));
    }
    let variants = match a.variant {
        Some(v) => vec![v.parse().map_err(|e| Failure::usage(format!("{e}")))?],
        None => Variant::ALL.to_vec(),
    };
    bench::bench(&variants, a.seconds, out)
}

/// A rough duration of the run (`seconds` of a calibration of `bots`) and how it was
/// found, where the progress is shown (a terminal); `None` elsewhere, or if the
/// calibration fails (the run itself then reports the error).
fn calibrated(
    progress: &GameProgress,
    registry: &BotRegistry,
    bots: &[String],
    config: &ArenaConfig,
    seconds: impl FnOnce(&Estimate) -> Result<f64, yokai_septet_bots::arena::ArenaError>,
) -> Option<(f64, String)> {
    if !progress.is_visible() {
        return None;
    }
    progress.note("timing a few decisions of each bot…");
    let mut names: Vec<String> = Vec::new();
    for b in bots {
        if !names.contains(b) {
            names.push(b.clone());
        }
    }
    let e = yokai_septet_bots::arena::estimate::calibrate(
        config,
        registry,
        &names,
        Duration::from_millis(500),
    )
    .ok()?;
    let s = seconds(&e).ok()?;
    Some((
        s,
        format!(
            "per decision {}; {:.0} decisions a game",
            e.costs_text(),
            e.decisions_per_game
        ),
    ))
}

/// The picture format `--plot` asks for, refused before any work where this build cannot
/// draw it.
fn plot_format(path: &Path) -> Result<bool, Failure> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("svg") => Ok(false),
        Some("png") if cfg!(feature = "raster") => Ok(true),
        Some("png") => Err(Failure::usage(format!(
            "--plot {}: this build draws SVG only (PNG needs the `raster` feature, which the \
             pip-installed yokai-septet has); name a .svg file",
            path.display()
        ))),
        _ => Err(Failure::usage(format!(
            "--plot {}: name a .svg or .png file",
            path.display()
        ))),
    }
}

/// The most bytes of a record file a command reads (a whole game's record is tens of
/// kilobytes).
const RECORD_FILE_CAP: u64 = 64 << 20;

/// The text of the record file at `path`: a regular file of at most [`RECORD_FILE_CAP`]
/// bytes (a named pipe or `/dev/zero` is refused unread, `yokai_septet::files`), in UTF-8; the
/// error says why not.
pub(crate) fn read_record(path: &Path) -> Result<String, String> {
    let bytes =
        yokai_septet::files::read_regular(path, RECORD_FILE_CAP).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

/// Checks that `path` can be written (its folder exists and takes files) without changing
/// what is there: an existing file is opened for writing but not truncated; a new one is
/// created and removed again.
fn check_writable(option: &str, path: &Path) -> Result<(), Failure> {
    use std::fs::OpenOptions;
    let refuse = |e: io::Error| {
        Failure::usage(format!(
            "{option} {}: cannot write there: {e}",
            path.display()
        ))
    };
    if path.exists() {
        OpenOptions::new().append(true).open(path).map_err(refuse)?;
    } else {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(refuse)?;
        std::fs::remove_file(path).map_err(refuse)?;
    }
    Ok(())
}

/// Writes a picture as SVG, or as PNG (`png`, where pixels are built in).
fn write_plot(path: &Path, svg: &str, png: bool) -> Result<(), Failure> {
    let bytes = if png {
        #[cfg(feature = "raster")]
        {
            yokai_septet_picture::rasterize(svg, 1.5)
                .and_then(|r| r.to_png())
                .map_err(|e| Failure::runtime(e.to_string()))?
        }
        #[cfg(not(feature = "raster"))]
        unreachable!("plot_format refuses PNG in this build")
    } else {
        svg.as_bytes().to_vec()
    };
    std::fs::write(path, bytes)
        .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))
}

/// The ladder's bars: the whole ladder, and the pairing in progress.
struct LadderBars {
    progress: GameProgress,
    part: std::sync::Mutex<Option<ProgressBar>>,
}

impl yokai_septet_bots::arena::ladder::LadderProgress for LadderBars {
    fn pairing_started(&self, a: &str, b: &str, games: u64) {
        let bar = self.progress.part(&format!("{a} vs {b}"), games);
        if let Some(old) = self.part.lock().unwrap().replace(bar) {
            old.finish_and_clear();
        }
    }

    fn game_done(&self) {
        self.progress.game_done(self.part.lock().unwrap().as_ref());
    }

    fn pairing_done(&self, done: usize, total: usize) {
        if let Some(bar) = self.part.lock().unwrap().take() {
            let label = bar.prefix();
            bar.finish_and_clear();
            self.progress
                .note(&format!("pairing {done}/{total} done: {label}"));
        }
    }
}

fn ladder_cmd(
    a: LadderArgs,
    registry: &BotRegistry,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    let bots: Vec<String> = match &a.bots {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => yokai_septet_bots::BUILT_IN_BOTS
            .iter()
            .map(|s| s.to_string())
            .collect(),
    };
    let names: Vec<&str> = bots.iter().map(String::as_str).collect();
    let mut arena = ArenaConfig::new(a.game.variant()?, &names, a.games, a.game.seed);
    arena.scoring = a.game.scoring()?;
    arena.max_rounds = round_cap(a.max_rounds);
    arena.threads = a.threads;
    arena.rounds = a.rounds;
    arena.sequential = a.sequential;
    let rank_by = yokai_septet_bots::arena::ladder::RankBy::from_name(&a.rank_by)
        .unwrap_or_else(|| unreachable!("clap checks the names"));
    let config = yokai_septet_bots::arena::ladder::LadderConfig { arena, rank_by };
    // Everything that can be refused is refused before the first game.
    config
        .check(registry)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let png = match &a.plot {
        Some(path) => {
            let png = plot_format(path)?;
            check_writable("--plot", path)?;
            png
        }
        None => false,
    };
    if let Some(path) = &a.out {
        check_writable("--out", path)?;
    }
    let variant = config.arena.variant.name();
    let pairings = config.pairings() as u64;
    let per_pair = config.arena.total_games();
    let threads = worker_threads(a.threads);
    let bars = LadderBars {
        progress: GameProgress::new(
            &format!("ladder {variant}"),
            pairings * per_pair,
            a.threads,
            true,
        ),
        part: std::sync::Mutex::new(None),
    };
    let estimate = calibrated(
        &bars.progress,
        registry,
        &config.arena.bots,
        &config.arena,
        |e| {
            let m = config.arena.bots.len();
            let mut seconds = 0.0;
            for a in 0..m {
                for b in a + 1..m {
                    let pair = ArenaConfig {
                        bots: vec![config.arena.bots[a].clone(), config.arena.bots[b].clone()],
                        ..config.arena.clone()
                    };
                    seconds += e.seconds(&pair, threads)?;
                }
            }
            Ok(seconds)
        },
    );
    bars.progress.plan(
        &format!(
            "ladder {variant}: {pairings} pairings × {per_pair} games = {} games on {threads} \
             thread{}",
            pairings * per_pair,
            if threads == 1 { "" } else { "s" }
        ),
        estimate,
    );
    let report = yokai_septet_bots::arena::ladder::run_ladder(&config, registry, &bars)
        .map_err(|e| Failure::usage(e.to_string()))?;
    bars.progress.finish();
    for w in report.warnings() {
        writeln!(err, "warning: {w}")?;
    }
    // The table first: a picture that cannot be drawn must not lose the results.
    let md = report.markdown();
    match &a.out {
        Some(path) => {
            use std::fs::OpenOptions;
            let mut f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))?;
            writeln!(f, "{md}")?;
            writeln!(
                out,
                "appended the {} ladder to {}",
                a.game.variant,
                path.display()
            )?;
        }
        None => writeln!(out, "{md}")?,
    }
    out.flush()?;
    if let Some(path) = &a.plot {
        write_plot(path, &yokai_septet_picture::ladder_svg(&report), png).map_err(|f| Failure {
            code: EXIT_PARTIAL,
            message: format!("the table is written, but not the picture: {}", f.message),
        })?;
        writeln!(err, "ladder {variant}: drew {}", path.display())?;
    }
    Ok(())
}

//! What a request may ask the server to run, and where it runs.
//!
//! **Names.** A bot name from a request (a new game's `bots`, a hint's `bot`, a loaded
//! record's `players`) is a built-in name with at most a budget: `pimc`, `ismcts:3000`,
//! `pimc-dd:500ms`, `pimc:200/1400`. A name that reads a file (`nn:PATH`,
//! `ismcts-nn:PATH`) or imports code (the console script's `module:function` policies)
//! is refused (422, listing the names the server runs), before anything is read or
//! imported: the server's registry knows the built-in bots only. The models of
//! `--models DIR` are the one way to offer trained networks: each `.safetensors` file
//! directly inside it is checked once at start and becomes the bot `nn:NAME` (its stem).
//!
//! **Budgets.** The server sets them: a time budget (`Nms`) is at most `--max-think-ms`,
//! and a count (`N` playouts, worlds or iterations) at most what a slow, busy core gets
//! through in that time ([`CAPS`]), so that no request holds a core for long, even after
//! its client has gone. A name over the cap is refused with the cap in the message.
//!
//! **Workers.** The decisions of the search bots, hints, reviews and the replays of
//! loaded records share `--workers` blocking threads (a bot that searches nothing, and
//! the creation of a game, take microseconds: they run on the request's own thread), and at most `--queue` requests wait for one; beyond
//! that the answer is 503 with `Retry-After`. A job takes its permits before its thread,
//! so the blocking threads never grow with the requests, and a request whose client
//! leaves while it waits gives its place up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::bots::registry::family_of;

use super::{shown, ApiError, ServeOptions};
use crate::bots::{
    Bot, BotError, BotRegistry, IsmctsConfig, PimcConfig, PimcDdConfig, BUILT_IN_BOTS,
};
use crate::rules::config::Variant;

/// The largest model file `--models` takes (the shipped models are about 2 MiB each).
pub const MODEL_FILE_CAP: u64 = 32 << 20;

/// A review's solver nodes per position for each millisecond of `--max-think-ms` (the
/// solver does about 2,000 a millisecond; a round's review solves its last plays first
/// and stops at the first position over the budget, so the whole review stays within a
/// few budgets).
pub const REVIEW_NODES_PER_MS: u64 = 250;

/// One kind of count budget: the families that spend it, what it counts, its default,
/// and how many a slow, busy core gets through in a second (a few times fewer than the
/// measured mean, which is the cheapest decisions' too: the first play of a round costs
/// The families (heads) whose `HEAD:N` counts these units (with `-inf` too).
pub struct Cap {
    /// The families (heads) whose `HEAD:N` counts these units.
    pub heads: &'static [&'static str],
    /// What `N` counts.
    pub unit: &'static str,
    /// The bare name's budget.
    pub default: fn() -> u32,
    /// Units a second allowed: the cap is this times `--max-think-ms` / 1000.
    pub per_second: u64,
}

/// The count budgets of the search families. On the 2-core development machine under a
/// load of 9 to 17, a round's first card (its costliest decision) took 1.99 s of CPU at
/// `pimc:50000`, 1.67 to 1.79 s at `ismcts:40000` or `ismcts:50000`, 1.50 s at
/// `ismcts-nn:40000` (`scripts/serve_hostile.py`; CPU time grows with the load): the rates
/// below keep the cap's decision near half of `--max-think-ms`. A `pimc-dd` world costs up to 40,000 solver nodes (about 20 ms).
pub const CAPS: [Cap; 4] = [
    Cap {
        heads: &["pimc", "pimc-random"],
        unit: "playouts",
        default: || PimcConfig::default().playouts,
        per_second: 15_000,
    },
    Cap {
        heads: &["pimc-dd", "epimc"],
        unit: "worlds",
        default: || PimcDdConfig::default().worlds,
        per_second: 40,
    },
    Cap {
        heads: &["ismcts"],
        unit: "iterations",
        default: || IsmctsConfig::default().iterations,
        per_second: 15_000,
    },
    Cap {
        heads: &["ismcts-nn"],
        unit: "iterations",
        default: || IsmctsConfig::guided().iterations,
        per_second: 12_000,
    },
];

/// The heads whose bare name is the whole name: no budget, no argument.
const BARE: [&str; 3] = ["random", "heuristic", "nn"];

/// Whether the bot called `name` decides at once (it searches nothing: microseconds a
/// decision), so that its move need not wait for a worker.
pub fn decides_at_once(name: &str) -> bool {
    matches!(name, "random" | "heuristic" | "nn") || name.starts_with("nn:")
}

/// The bots a request may name, and the workers they run on.
pub struct Bots {
    /// The built-in bots only: no maker, so no name imports anything.
    registry: BotRegistry,
    /// The models of `--models`: `nn:NAME` → the file.
    models: BTreeMap<String, PathBuf>,
    max_think: Duration,
    /// Jobs running or waiting (`workers + queue` permits).
    admit: Arc<Semaphore>,
    /// Jobs running (`workers` permits).
    run: Arc<Semaphore>,
}

/// `count` as a number, or `None` when it is not digits.
fn digits(text: &str) -> Option<u64> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().unwrap_or(u64::MAX))
}

impl Bots {
    /// The bots of a server with `opts`: its models checked (each read once, refused with
    /// why when it cannot be used).
    pub fn new(opts: &ServeOptions) -> Result<Bots, String> {
        let registry = BotRegistry::new();
        let mut models = BTreeMap::new();
        if let Some(dir) = &opts.models {
            for (name, path) in model_files(dir)? {
                registry
                    .build_any_variant(&format!("nn:{}", path.display()), 0)
                    .map_err(|e| format!("--models: {}: {e}", path.display()))?;
                models.insert(name, path);
            }
        }
        let workers = opts.workers.max(1);
        Ok(Bots {
            registry,
            models,
            max_think: opts.max_think,
            admit: Arc::new(Semaphore::new(workers + opts.queue)),
            run: Arc::new(Semaphore::new(workers)),
        })
    }

    /// `--max-think-ms`.
    pub fn max_think_ms(&self) -> u64 {
        self.max_think.as_millis() as u64
    }

    /// The largest `N` of `cap`'s families.
    pub fn cap_of(&self, cap: &Cap) -> u64 {
        (cap.per_second * self.max_think_ms() / 1000).max(1)
    }

    /// The names of the models of `--models` (`nn:NAME`).
    pub fn model_names(&self) -> Vec<String> {
        self.models.keys().map(|n| format!("nn:{n}")).collect()
    }

    /// A review's node budget per position.
    pub fn review_nodes(&self) -> u64 {
        REVIEW_NODES_PER_MS * self.max_think_ms()
    }

    fn not_run(&self, name: &str, why: &str) -> ApiError {
        ApiError::refused(format!("bot {}: {why}", shown(name)))
    }

    /// The refusal of a name with no built-in head: "did you mean …?" when a built-in
    /// name (or a model's) is a typo away, else a short answer (the page lists the bots
    /// on request, from `GET /api/options`).
    fn unknown(&self, name: &str) -> ApiError {
        let head = name.split(':').next().unwrap_or(name);
        let models = self.model_names();
        let names = BUILT_IN_BOTS
            .iter()
            .copied()
            .chain(models.iter().map(String::as_str));
        match closest(head, names) {
            Some(near) => {
                self.not_run(name, &format!("there is no such bot; did you mean {near}?"))
            }
            None => self.not_run(name, "there is no such bot"),
        }
    }

    /// Why a name after `nn:` (or another `:`) that is not one of the server's models is
    /// refused, in a player's words.
    fn no_file(&self) -> String {
        let models = self.model_names();
        format!(
            "the table does not load bots from files; nn plays the shipped model{}",
            if models.is_empty() {
                String::new()
            } else {
                format!(", and this server offers {}", models.join(", "))
            }
        )
    }

    /// The name the registry builds for `name` (itself, or `nn:FILE` for a model of
    /// `--models`), once it is found to be a built-in name within the caps or a model of
    /// `--models`; else a 422 that says why and lists what the server runs. Nothing is
    /// read or imported for a refused name.
    pub fn resolve(&self, name: &str) -> Result<String, ApiError> {
        let (head, arg) = match name.split_once(':') {
            Some((head, arg)) => (head, Some(arg)),
            None => (name, None),
        };
        // A family's head, perhaps with the `-inf` modifier: the caps are the family's.
        let Some((family, _)) = family_of(head) else {
            return Err(self.unknown(name));
        };
        let head = family.head;
        let Some(arg) = arg else {
            return self
                .within(name, head, None, None)
                .map(|()| name.to_string());
        };
        if head == "nn" {
            return match self.models.get(arg) {
                Some(path) => Ok(format!("nn:{}", path.display())),
                None => Err(self.not_run(name, &self.no_file())),
            };
        }
        if BARE.contains(&head) {
            return Err(self.not_run(name, "this bot takes no budget"));
        }
        // `BUDGET` or `BUDGET/PASS`, nothing after: a `:` would start a model path.
        let (budget, pass) = match arg.split_once('/') {
            Some((budget, pass)) => (budget, Some(pass)),
            None => (arg, None),
        };
        let pass_ok = match pass {
            None | Some("nn") => true,
            Some(p) => digits(p).is_some(),
        };
        let budget_ok = digits(budget.strip_suffix("ms").unwrap_or(budget)).is_some();
        if !pass_ok || !budget_ok {
            return Err(self.not_run(
                name,
                &format!(
                    "a budget is a number of steps (like {head}:500) or of milliseconds \
                     (like {head}:500ms); {}",
                    self.no_file()
                ),
            ));
        }
        self.within(name, head, Some(budget), pass.and_then(digits))?;
        Ok(name.to_string())
    }

    /// Refuses a budget over the server's cap, saying the cap.
    fn within(
        &self,
        name: &str,
        head: &str,
        budget: Option<&str>,
        pass: Option<u64>,
    ) -> Result<(), ApiError> {
        let max = self.max_think_ms();
        if let Some(ms) = budget.and_then(|b| b.strip_suffix("ms")) {
            let ms = digits(ms).unwrap_or(u64::MAX);
            if ms > max {
                return Err(ApiError::refused(format!(
                    "bot {}: {ms} ms a decision is over this server's cap of {max} ms \
                     (--max-think-ms)",
                    shown(name)
                )));
            }
        } else if let Some(cap) = CAPS.iter().find(|c| c.heads.contains(&head)) {
            let n = budget
                .and_then(digits)
                .unwrap_or(u64::from((cap.default)()));
            let most = self.cap_of(cap);
            if n > most {
                return Err(ApiError::refused(format!(
                    "bot {}: {n} {} a decision is over this server's cap of {most} \
                     (derived from --max-think-ms {max})",
                    shown(name),
                    cap.unit
                )));
            }
        }
        // A searched pass (`/P`) plays whole rounds: a quarter of pimc's cap per pick.
        let pass_cap = self.cap_of(&CAPS[0]) / 4;
        match pass {
            Some(p) if p > pass_cap => Err(ApiError::refused(format!(
                "bot {}: {p} playouts a passing pick is over this server's cap of \
                 {pass_cap} (derived from --max-think-ms {max})",
                shown(name)
            ))),
            _ => Ok(()),
        }
    }

    /// The bot called `name` for games of `variant` (a name this server runs).
    pub fn build(&self, name: &str, seed: u64, variant: Variant) -> Result<Box<dyn Bot>, ApiError> {
        let resolved = self.resolve(name)?;
        self.registry
            .build(&resolved, seed, variant)
            .map_err(|e| match e {
                BotError::Unknown(_) => self.unknown(name),
                // Never the file's path: the request named the model, not the file.
                BotError::Weights { .. } => self.not_run(name, "its model cannot be read"),
                e => ApiError::refused(format!("bot {}: {e}", shown(name))),
            })
    }

    /// The bot called `name` with `seed`, continued from `words` (its snapshot; `None`:
    /// as built): a parked search bot, for its next decision.
    pub fn revive(
        &self,
        name: &str,
        seed: u64,
        variant: Variant,
        words: Option<&[u64]>,
    ) -> Result<Box<dyn Bot>, ApiError> {
        let mut bot = self.build(name, seed, variant)?;
        if let Some(words) = words {
            bot.restore(words).map_err(|e| {
                ApiError::new(
                    axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                    format!("bot {}: {e}", shown(name)),
                )
            })?;
        }
        Ok(bot)
    }

    /// The registry of the built-in bots (the hint builds its own bot from a checked
    /// name).
    pub fn registry(&self) -> &BotRegistry {
        &self.registry
    }

    /// Runs `f` on a worker: 503 with `Retry-After` when `--workers` jobs run and
    /// `--queue` wait already. The permits go with the job, so a job whose client has
    /// gone still counts until it ends (at most `--max-think-ms`).
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let retry = self.max_think.as_secs().max(1) as u32;
        let admitted = self.admit.clone().try_acquire_owned().map_err(|_| {
            ApiError::busy(
                "the server is busy: every worker is thinking and the queue is full \
                 (--workers); try again shortly",
                retry,
            )
        })?;
        let running = self
            .run
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::busy("the server is stopping", retry))?;
        tokio::task::spawn_blocking(move || {
            let _permits = (admitted, running);
            f()
        })
        .await
        .unwrap_or_else(|e| {
            Err(ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal error (please report it): {e}"),
            ))
        })
    }
}

/// The one of `names` a typo away from `name` (an edit distance of 1, or 2 for names of
/// five letters or more; swapping two letters is one edit), when exactly one is nearest.
fn closest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let most = if name.chars().count() >= 5 { 2 } else { 1 };
    let mut best: Option<(usize, &str, bool)> = None;
    for n in names {
        let d = edit_distance(name, n);
        match best {
            _ if d > most => {}
            Some((b, _, _)) if d > b => {}
            Some((b, _, _)) if d == b => best = Some((b, n, true)),
            _ => best = Some((d, n, false)),
        }
    }
    best.and_then(|(_, n, tied)| (!tied).then_some(n))
}

/// The optimal-string-alignment distance of `a` and `b`: insertions, deletions,
/// substitutions and swaps of two neighbouring letters, one each.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // d[i][j]: the distance of a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let same = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + same);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::{closest, edit_distance};

    #[test]
    fn a_typo_is_one_or_two_edits_from_the_name_it_meant() {
        assert_eq!(edit_distance("heurstic", "heuristic"), 1);
        assert_eq!(edit_distance("ismtcs", "ismcts"), 1);
        assert_eq!(edit_distance("pimc", "pimc"), 0);
        assert_eq!(edit_distance("", "nn"), 2);
        let names = || ["random", "heuristic", "nn", "pimc", "pimc-dd", "ismcts"].into_iter();
        assert_eq!(closest("heurstic", names()), Some("heuristic"));
        assert_eq!(closest("Heuristik", names()), Some("heuristic"));
        assert_eq!(closest("pimcdd", names()), Some("pimc-dd"));
        // Far from every name, or as near to two: no guess.
        assert_eq!(closest("os", names()), None);
        assert_eq!(closest("stockfish", names()), None);
        assert_eq!(closest("pimc-d", ["pimc-dd", "pimc-dx"].into_iter()), None);
    }
}

/// The models of `dir`: each `.safetensors` file directly inside it, by its stem (letters,
/// digits, `-`, `_`, `.`), at most [`MODEL_FILE_CAP`] bytes.
fn model_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let why = |e: std::io::Error| format!("--models {}: {e}", dir.display());
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(why)? {
        let path = entry.map_err(why)?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("safetensors") {
            continue;
        }
        let meta = std::fs::metadata(&path).map_err(why)?;
        if !meta.is_file() {
            continue;
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            })
            .ok_or_else(|| {
                format!(
                    "--models: {}: a model's name is letters, digits, -, _ and .",
                    path.display()
                )
            })?
            .to_string();
        if meta.len() > MODEL_FILE_CAP {
            return Err(format!(
                "--models: {}: {} bytes, over the cap of {MODEL_FILE_CAP}",
                path.display(),
                meta.len()
            ));
        }
        let path = path.canonicalize().map_err(why)?;
        out.push((name, path));
    }
    Ok(out)
}

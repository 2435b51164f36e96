//! What a request may ask the server to run, and where it runs.
//!
//! **Names.** A bot name from a request (a new game's `bots`, a hint's `bot`, a loaded
//! record's `players`) is a built-in name with at most a budget and a pass suffix (no
//! `ismcts` options): `pimc`, `ismcts:3000`, `pimc-dd:500ms`, `pimc:200/1400`. A name that reads a file (`nn:PATH`,
//! `ismcts-nn:PATH`) or imports code (the console script's `module:function` policies)
//! is refused (422, listing the names the server runs), before anything is read or
//! imported: the server's registry knows the built-in bots only. The models of
//! `--models DIR` are the one way to offer trained networks: each `.safetensors` file
//! directly inside it is checked once at start and becomes the bot `nn:NAME` (its stem).
//!
//! **Budgets.** The server sets them: a time budget (`Nms`) is at most `--max-think-ms`,
//! and a count (`N` playouts, worlds or iterations) at most what a slow, busy core gets
//! through in that time (each family's [`Counts`]), so that no request holds a core for
//! long, even after its client has gone. A name over the cap is refused with the cap in
//! the message. The checks read the fields of the name's [`BotSpec`].
//!
//! **Workers.** The decisions of the search bots, hints, reviews and the replays of
//! loaded records share `--workers` blocking threads (a bot that searches nothing, and
//! the creation of a game, take microseconds: they run beside the renders, `render.rs`), and at most `--queue` requests wait for one; beyond
//! that the answer is 503 with `Retry-After`. A job takes its permits before its thread,
//! so the blocking threads never grow with the requests, and a request whose client
//! leaves while it waits gives its place up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use super::answers::BudgetCap;
use super::{shown, ApiError, ServeOptions};
use yokai_septet::Variant;
use yokai_septet_bots::{
    bare_bot_names, closest_name, Bot, BotError, BotRegistry, BotSpec, BotSpecError, Budget,
    Counts, PassPicks, Takes, BOT_FAMILIES,
};

/// The largest model file `--models` takes (the shipped models are about 2 MiB each).
pub const MODEL_FILE_CAP: u64 = 32 << 20;

/// A review's solver nodes per position for each millisecond of `--max-think-ms` (the
/// solver does about 2,000 a millisecond; a round's review solves its last plays first
/// and stops at the first position over the budget, so the whole review stays within a
/// few budgets).
pub const REVIEW_NODES_PER_MS: u64 = 250;

/// Whether the bot called `name` decides at once (its family searches nothing:
/// microseconds a decision), so that its move need not wait for a worker.
pub fn decides_at_once(name: &str) -> bool {
    name.parse::<BotSpec>()
        .is_ok_and(|spec| !spec.row().searches())
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

    /// The largest `N` of a family that counts `counts`.
    pub fn cap_of(&self, counts: &Counts) -> u64 {
        (counts.per_second * self.max_think_ms() / 1000).max(1)
    }

    /// Each search family's largest `N` (`GET /api/options`).
    pub fn budget_caps(&self) -> Vec<BudgetCap> {
        BOT_FAMILIES
            .iter()
            .filter_map(|f| {
                let counts = f.counts.as_ref()?;
                Some(BudgetCap {
                    bot: f.head,
                    max: self.cap_of(counts),
                    unit: counts.unit,
                })
            })
            .collect()
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
    fn unknown(&self, name: &str, head: &str) -> ApiError {
        let names: Vec<String> = bare_bot_names()
            .into_iter()
            .chain(self.model_names())
            .collect();
        match closest_name(head, names.iter().map(String::as_str)) {
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

    /// The spec the registry builds for `name`, once it is found to be a built-in name
    /// within the caps (or a model of `--models`); else a 422 that says why and lists
    /// what the server runs. Nothing is read or imported for a refused name.
    pub fn resolve(&self, name: &str) -> Result<BotSpec, ApiError> {
        let mut spec = match name.parse::<BotSpec>() {
            Ok(spec) => spec,
            Err(BotSpecError::UnknownFamily { head }) => return Err(self.unknown(name, &head)),
            Err(e) => return Err(self.not_run(name, &e.to_string())),
        };
        if let Some(model) = &spec.model {
            // `nn:NAME`, a model of `--models`: the registry reads its file.
            let offered = self
                .models
                .get(model)
                .filter(|_| spec.row().takes == Takes::Model);
            let Some(path) = offered else {
                return Err(self.not_run(name, &self.no_file()));
            };
            spec.model = Some(path.display().to_string());
        }
        if !spec.options.is_empty() {
            return Err(self.not_run(
                name,
                "the table sets a search's budget only (like ismcts:500), not its options",
            ));
        }
        self.within(name, &spec)?;
        Ok(spec)
    }

    /// Refuses a budget over the server's cap, saying the cap.
    fn within(&self, name: &str, spec: &BotSpec) -> Result<(), ApiError> {
        let max = self.max_think_ms();
        match (spec.budget, spec.row().counts) {
            (Some(Budget::Millis(ms)), _) if ms > max => {
                return Err(ApiError::refused(format!(
                    "bot {}: {ms} ms a decision is over this server's cap of {max} ms \
                     (--max-think-ms)",
                    shown(name)
                )));
            }
            (Some(Budget::Millis(_)), _) | (_, None) => {}
            (count, Some(counts)) => {
                let n = match count {
                    Some(Budget::Count(n)) => n,
                    _ => counts.default,
                };
                let most = self.cap_of(&counts);
                if u64::from(n) > most {
                    return Err(ApiError::refused(format!(
                        "bot {}: {n} {} a decision is over this server's cap of {most} \
                         (derived from --max-think-ms {max})",
                        shown(name),
                        counts.unit
                    )));
                }
            }
        }
        // A searched pass (`/P`) plays whole rounds: a quarter of pimc's cap per pick.
        let pass_cap = self.cap_of(&yokai_septet_bots::PASS_SEARCH) / 4;
        match spec.pass {
            PassPicks::Searched(p) if u64::from(p) > pass_cap => Err(ApiError::refused(format!(
                "bot {}: {p} playouts a passing pick is over this server's cap of \
                 {pass_cap} (derived from --max-think-ms {max})",
                shown(name)
            ))),
            _ => Ok(()),
        }
    }

    /// The bot called `name` for games of `variant` (a name this server runs).
    pub fn build(&self, name: &str, seed: u64, variant: Variant) -> Result<Box<dyn Bot>, ApiError> {
        let spec = self.resolve(name)?;
        self.registry
            .build_spec(&spec, seed, variant)
            .map_err(|e| match e {
                // Never the file's path: the request named the model, not the file.
                BotError::Weights { .. } => self.not_run(name, "its model cannot be read"),
                e => ApiError::refused(format!("bot {}: {e}", shown(name))),
            })
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
        super::render::blocking((admitted, running), f).await
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

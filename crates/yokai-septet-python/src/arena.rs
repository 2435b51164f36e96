//! `yokai_septet.arena` and the pieces `yokai_septet.distributed` splits it into: the raw
//! counts of a slice of the games (`_arena_counts`) and the summary of merged counts
//! (`_arena_summary`). All three take the same arena arguments, as do the training data
//! functions (`_imitation_data`, `_value_data`).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::IntoPyObjectExt;

use super::errors::{borrow, guard, Class, IntoPyResult};
use super::game::PyGame;
use super::json::{json_to_py, py_to_json};
use super::settings::{from_spec, Values};
use yokai_septet_bots::arena::settings::SETTINGS;
use yokai_septet_bots::arena::value_data;
use yokai_septet_bots::arena::Sequential;
use yokai_septet_bots::arena::{
    game_setup, played_game_counts, run_arena, run_arena_range, summarize, ArenaConfig,
    ArenaCounts, ArenaReport, PlayedGame,
};
use yokai_septet_bots::arena::{imitation, imitation::Dataset, imitation::ImitationConfig};
use yokai_septet_bots::BotRegistry;

/// The settings of `spec` (a `yokai_septet.ArenaSpec`, or any object with its fields),
/// read by the table ([`SETTINGS`]), with the rule between them (`scoring=None` only for
/// the seal variants) checked.
fn settings(spec: &Bound<'_, PyAny>) -> PyResult<Values> {
    let s = from_spec(&SETTINGS, spec, "ArenaSpec")?;
    s.game_config()?;
    Ok(s)
}

/// `ArenaSpec`'s check: its fields read by the table, as a dict of the values it keeps
/// (numpy integers and bools become Python ones). A bad field is the same error as the
/// arena functions raise.
#[pyfunction]
pub(crate) fn _check_arena_spec<'py>(spec: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    settings(spec)?.to_dict(spec.py())
}

/// Builds and validates an [`ArenaConfig`]: the line-up (`None`: heuristic against
/// random) and the settings of `spec`.
pub(super) fn parse_arena(
    bots: Option<&Bound<'_, PyAny>>,
    spec: &Bound<'_, PyAny>,
) -> PyResult<ArenaConfig> {
    let s = settings(spec)?;
    let game = s.game_config()?;
    let names: Vec<String> = match bots {
        None => vec!["heuristic".into(), "random".into()],
        Some(b) if b.is_none() => vec!["heuristic".into(), "random".into()],
        Some(b) => match b.downcast::<PyString>() {
            Ok(t) => t
                .to_cow()?
                .split(',')
                .map(|b| b.trim().to_string())
                .collect(),
            Err(_) => b.extract().map_err(|_| {
                Class::InvalidValue.err(
                    "bots must be a list of bot names (one per side or one per seat), \
                     or a comma-separated string",
                )
            })?,
        },
    };
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let games = s
        .int("games")
        .unwrap_or_else(|| unreachable!("not nullable"));
    let mut config = ArenaConfig::new(game.variant, &refs, games, game.seed);
    config.scoring = game.scoring;
    config.max_rounds = game.max_rounds;
    config.duplicate = s.flag("duplicate");
    config.rounds = s.flag("rounds");
    config.sequential = s.flag("sequential");
    // `None` and 0: every core.
    config.threads = s.int("threads").unwrap_or(0) as usize;
    // Checked before any game starts, the GIL released (an `nn:PATH` bot reads its file);
    // the run builds its bots with a registry of its own.
    spec.py()
        .allow_threads(|| yokai_septet_bots::arena::check(&config, &BotRegistry::new()))
        .py()?;
    Ok(config)
}

fn counts_to_py<'py>(py: Python<'py>, c: &ArenaCounts) -> PyResult<Bound<'py, PyAny>> {
    let v = serde_json::to_value(c).map_err(|e| Class::InvalidValue.err(e.to_string()))?;
    json_to_py(py, &v)
}

fn counts_from_py(obj: &Bound<'_, PyAny>) -> PyResult<ArenaCounts> {
    let v = py_to_json(obj, &mut String::new())?;
    serde_json::from_value(v).map_err(|e| Class::InvalidValue.err(format!("invalid counts: {e}")))
}

/// An arena function of Python: `(extra positional arguments, the line-up, then the
/// keyword-only spec and [extras], each `None` by default)`.
macro_rules! arena_fn {
    ($(#[$doc:meta])* $name:ident, $pyname:literal, ($($extra:ident : $ty:ty),*), |$py:ident, $config:ident| $body:expr) => {
        arena_fn!($(#[$doc])* $name, $pyname, ($($extra : $ty),*), [], |$py, $config| $body);
    };
    ($(#[$doc:meta])* $name:ident, $pyname:literal, ($($extra:ident : $ty:ty),*), [$($kw:ident),*], |$py:ident, $config:ident| $body:expr) => {
        $(#[$doc])*
        #[pyfunction(name = $pyname)]
        #[pyo3(signature = ($($extra,)* bots = None, *, spec $(, $kw = None)*))]
        #[allow(clippy::too_many_arguments)]
        pub(crate) fn $name<'py>(
            $py: Python<'py>,
            $($extra: $ty,)*
            bots: Option<Bound<'py, PyAny>>,
            spec: Bound<'py, PyAny>,
            $($kw: Option<Bound<'py, PyAny>>,)*
        ) -> PyResult<Bound<'py, PyAny>> {
            let $config = parse_arena(bots.as_ref(), &spec)?;
            $body
        }
    };
}

/// The summary of `counts` as a `yokai_septet.ArenaResult`: the summary's dict, which
/// prints as the command line's table (its warning too, where the round cap decides the
/// result). `seconds` of wall-clock time (0: not timed, no timing line); `labels` name
/// the line-up's entries instead of their bot names (Python agents stand in as `random`).
fn summary_to_py<'py>(
    py: Python<'py>,
    config: &ArenaConfig,
    counts: &ArenaCounts,
    seconds: f64,
    labels: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = yokai_septet_cli::progress::worker_threads(config.threads);
    let report = summarize(config, counts, seconds, threads).py()?;
    report_to_py(py, report, labels)
}

/// A report as a `yokai_septet.ArenaResult` (see [`summary_to_py`]).
fn report_to_py<'py>(
    py: Python<'py>,
    mut report: ArenaReport,
    labels: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(labels) = labels {
        if labels.len() != report.summary.entries.len() {
            return Err(Class::InvalidValue.err(format!(
                "labels has {} names for {} line-up entries",
                labels.len(),
                report.summary.entries.len()
            )));
        }
        for (e, label) in report.summary.entries.iter_mut().zip(labels) {
            e.bot = label;
        }
    }
    let v = serde_json::to_value(&report.summary)
        .map_err(|e| Class::InvalidValue.err(e.to_string()))?;
    let summary = json_to_py(py, &v)?;
    let warning = report.summary.truncation_warning(report.config.max_rounds);
    py.import("yokai_septet._arena_result")?
        .getattr("ArenaResult")?
        .call1((summary, report.to_string(), warning))
}

/// The optional `labels` and `seconds` of the summary functions (`None`: the bot names,
/// and no timing line).
fn labels_and_seconds(
    labels: Option<Bound<'_, PyAny>>,
    seconds: Option<Bound<'_, PyAny>>,
) -> PyResult<(Option<Vec<String>>, f64)> {
    let labels = labels
        .filter(|l| !l.is_none())
        .map(|l| l.extract())
        .transpose()?;
    let seconds = match seconds.filter(|s| !s.is_none()) {
        Some(s) => s.extract::<f64>()?,
        None => 0.0,
    };
    Ok((labels, seconds))
}

/// Refuses to play `config` in slices where it stops sequentially: the board it stops at
/// depends on every board before it.
fn whole_only(config: &ArenaConfig, what: &str) -> PyResult<()> {
    if config.sequential {
        return Err(Class::InvalidValue.err(format!(
            "{what} plays an arena in slices, and a sequential arena stops at a board that \
             depends on every board before it: play it whole (yokai_septet.arena, or \
             yokai_septet.evaluate), or set sequential=False"
        )));
    }
    Ok(())
}

fn play(
    py: Python<'_>,
    config: &ArenaConfig,
    start: u64,
    end: u64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<ArenaCounts> {
    with_progress(py, end - start, progress, "arena", |tick| {
        Ok(run_arena_range(config, &BotRegistry::new(), start, end, tick).py()?)
    })
}

/// Runs `work` without the GIL, on a thread of its own, while this thread calls
/// `progress(done, total)` (a Python callable, or `None` for none) about ten times a
/// second as games finish (`work` calls its argument once per finished game), and once at
/// the end. An exception raised by `progress` is raised once the work is over.
fn with_progress<T: Send>(
    py: Python<'_>,
    total: u64,
    progress: Option<&Bound<'_, PyAny>>,
    what: &str,
    work: impl FnOnce(&(dyn Fn() + Sync)) -> PyResult<T> + Send,
) -> PyResult<T> {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::{Duration, Instant};
    let Some(callback) = progress.filter(|p| !p.is_none()) else {
        return py.allow_threads(|| guard(what, || work(&|| {})));
    };
    if !callback.is_callable() {
        return Err(Class::InvalidType.err(format!(
            "progress must be a callable progress(done, total), True, False or None, not {}",
            callback.repr()?
        )));
    }
    let done = AtomicU64::new(0);
    let tick = || {
        done.fetch_add(1, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| guard(what, || work(&tick)));
        let mut shown = None;
        let mut failed = None;
        loop {
            let finished = py.allow_threads(|| {
                let start = Instant::now();
                while !handle.is_finished() && start.elapsed() < Duration::from_millis(100) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                handle.is_finished()
            });
            let k = done.load(Ordering::Relaxed);
            if failed.is_none() && shown != Some(k) {
                shown = Some(k);
                failed = callback.call1((k, total)).err();
            }
            if finished {
                break;
            }
        }
        let result = handle
            .join()
            .unwrap_or_else(|_| Err(Class::InvalidValue.err("the arena's thread failed")));
        match failed {
            Some(e) => Err(e),
            None => result,
        }
    })
}

arena_fn!(
    /// Plays an arena of built-in bots in Rust (rayon threads, the GIL released) and
    /// returns its summary as a dict (the `summary` of the CLI's JSON report).
    ///
    /// ``arena(bots=("heuristic", "random"), *, spec)``: ``bots`` is one name per side
    /// (team) or per seat, or a comma-separated string; ``spec``, a
    /// ``yokai_septet.ArenaSpec``, holds the settings (``games`` is rounded up to whole
    /// duplicate groups; ``threads`` 0 or ``None`` uses every core). The summary depends
    /// only on the settings other than ``threads``.
    ///
    /// ``progress``: a callable ``progress(done, total)``, called about ten times a second
    /// with the number of games finished (``yokai_septet.arena`` turns ``True`` into a bar).
    ///
    /// The summary is a ``yokai_septet.ArenaResult``: a dict that prints (``print(result)``,
    /// ``result.table()``) as the command line's table, with a warning where the round cap
    /// decides the result (``result.warning``).
    arena, "arena", (), [progress], |py, config| {
        if config.sequential {
            let report = with_progress(py, config.total_games(), progress.as_ref(), "arena", |tick| {
                Ok(run_arena(&config, &BotRegistry::new(), tick).py()?)
            })?;
            return report_to_py(py, report, None);
        }
        let start = std::time::Instant::now();
        let counts = play(py, &config, 0, config.total_games(), progress.as_ref())?;
        summary_to_py(py, &config, &counts, start.elapsed().as_secs_f64(), None)
    }
);

arena_fn!(
    /// The raw counts (a dict of integers) of the games ``start..end`` of the arena with
    /// these arguments; merge them with :func:`_arena_summary`.
    arena_counts, "_arena_counts", (start: u64, end: u64), |py, config| {
        whole_only(&config, "_arena_counts")?;
        let counts = play(py, &config, start, end, None)?;
        counts_to_py(py, &counts)
    }
);

arena_fn!(
    /// The summary of an arena from the counts of slices that partition its games (in any
    /// order): merged exactly, then summarized as by :func:`arena`. A ``ValueError`` if
    /// they overlap or miss games. ``labels``: the entries' names in the summary, instead
    /// of the bot names; ``seconds``: the wall-clock time the games took (for the table's
    /// timing line; none without it).
    arena_summary, "_arena_summary", (counts: Vec<Bound<'py, PyAny>>), [labels, seconds], |py, config| {
        let mut merged = ArenaCounts::empty(config.bots.len());
        for c in &counts {
            merged.merge(&counts_from_py(c)?).py()?;
        }
        let (labels, seconds) = labels_and_seconds(labels, seconds)?;
        summary_to_py(py, &config, &merged, seconds, labels)
    }
);

arena_fn!(
    /// The result of a sequential arena played outside Rust (``yokai_septet.evaluate``)
    /// from the counts of its finished games (one game each, any order), or ``None``
    /// while it goes on: its boards are looked at in board order, up to the first
    /// board missing a game; the ``ArenaResult`` of the boards up to the stop once the
    /// test stops or the budget is spent. ``labels`` and ``seconds`` as for
    /// :func:`_arena_summary`.
    arena_sequential, "_arena_sequential", (counts: Vec<Bound<'py, PyAny>>), [labels, seconds], |py, config| {
        let size = config.board_size();
        let mut boards: std::collections::BTreeMap<u64, ArenaCounts> = Default::default();
        for c in &counts {
            let c = counts_from_py(c)?;
            let [first, last] = match c.ranges[..] {
                [[start, end]] if start < end => [start, end - 1],
                _ => return Err(Class::InvalidValue.err(format!(
                    "counts of games {:?}: give the counts of single games",
                    c.ranges
                ))),
            };
            if first / size != last / size {
                return Err(Class::InvalidValue.err(format!(
                    "counts of games {first}..={last} span several boards of {size} games"
                )));
            }
            boards
                .entry(first / size)
                .or_insert_with(|| ArenaCounts::empty(config.bots.len()))
                .merge(&c).py()?;
        }
        let mut seq = Sequential::new(&config).py()?;
        for (b, board) in (0..).zip(boards.values()) {
            if board.ranges[..] != [[b * size, (b + 1) * size]] || seq.push(board).py()? {
                break;
            }
        }
        if !seq.done() {
            return Ok(py.None().into_bound(py));
        }
        let (labels, seconds) = labels_and_seconds(labels, seconds)?;
        let threads = yokai_septet_cli::progress::worker_threads(config.threads);
        report_to_py(py, seq.report(&config, seconds, threads).py()?, labels)
    }
);

arena_fn!(
    /// The number of games the arena with these arguments plays (``games`` rounded up to
    /// whole duplicate groups): the end of its last slice.
    arena_total_games, "_arena_total_games", (), |py, config| {
        config.total_games().into_bound_py_any(py)
    }
);

arena_fn!(
    /// Game ``index`` of the arena with these arguments: ``(deal_seed, entry_of_seat,
    /// bot_seeds)``, the game seed its deals come from, the line-up entry in each seat and
    /// each seat's bot seed (what :func:`yokai_septet.evaluate` plays Python policies by).
    arena_setup, "_arena_setup", (index: u64), |py, config| {
        let total = config.total_games();
        if index >= total {
            return Err(Class::InvalidValue.err(format!(
                "game {index} is not within 0..{total}"
            )));
        }
        let s = game_setup(&config, index).py()?;
        let n = config.variant.num_players();
        (s.deal_seed, s.entry_of_seat[..n].to_vec(), s.bot_seeds[..n].to_vec())
            .into_bound_py_any(py)
    }
);

/// Up to four per-seat numbers as the engine's fixed-size array.
fn per_seat(v: &[u64], what: &str) -> PyResult<[u64; 4]> {
    if v.len() > 4 {
        return Err(
            Class::InvalidValue.err(format!("{what} has {} entries: give one per seat", v.len()))
        );
    }
    let mut out = [0; 4];
    out[..v.len()].copy_from_slice(v);
    Ok(out)
}

arena_fn!(
    /// The counts (as :func:`_arena_counts`) of game ``index`` of the arena, played
    /// outside Rust to its end in ``game``, with each seat's decision count and the
    /// nanoseconds its policy took (total and slowest decision). ``ValueError`` if the game
    /// is not over or not dealt as :func:`_arena_setup` says.
    arena_game_counts, "_arena_game_counts",
    (index: u64, game: Bound<'py, PyGame>, decisions: Vec<u64>, act_nanos: Vec<u64>, act_max_nanos: Vec<u64>),
    |py, config| {
        let game = borrow(&game)?;
        let played = PlayedGame {
            index,
            state: game.state(),
            decisions: per_seat(&decisions, "decisions")?,
            act_nanos: per_seat(&act_nanos, "act_nanos")?,
            act_max_nanos: per_seat(&act_max_nanos, "act_max_nanos")?,
        };
        let counts = played_game_counts(&config, &played).py()?;
        counts_to_py(py, &counts)
    }
);

arena_fn!(
    /// Imitation data (see ``yokai_septet.models.imitation_data``): the arena's games, every
    /// decision of the line-up entries ``labelled`` recorded with ``teacher``'s card. Returns
    /// a dict of numpy arrays: ``observations`` (uint8 ``[N, observation_size]``), ``masks``
    /// (bool ``[N, num_actions]``), ``labels`` and ``played`` (card ids), ``values`` (float32
    /// ``[N, num_actions]``: the teacher's value of each card where it searched, else NaN),
    /// ``visits`` (float32 ``[N, num_actions]``: a tree search teacher's share of its root
    /// visits of each card, its own policy; NaN elsewhere and for other teachers),
    /// ``heuristic`` (the ``heuristic`` bot's card ids), ``games`` and ``seats``; and
    /// ``play_log`` (uint8 ``[N, play_log_size]``: how each card of the round was played,
    /// the belief model's input after the observation).
    /// ``progress``: as for :func:`arena`.
    imitation_data, "_imitation_data", (teacher: String, labelled: Vec<usize>), [progress], |py, config| {
        if config.sequential {
            return Err(Class::InvalidValue.err(
                "imitation_data records every game of the arena: a sequential stop does not \
                 apply (set sequential=False)",
            ));
        }
        let config = ImitationConfig { arena: config, teacher, labelled };
        let total = config.arena.total_games();
        let data = with_progress(py, total, progress.as_ref(), "imitation_data", |tick| {
            Ok(imitation::generate(&config, &BotRegistry::new(), tick).py()?)
        })?;
        dataset_to_py(py, config.arena.variant.num_actions(), data)
    }
);

fn dataset_to_py<'py>(py: Python<'py>, actions: usize, d: Dataset) -> PyResult<Bound<'py, PyAny>> {
    use numpy::ndarray::Array2;
    use numpy::{IntoPyArray, PyArray2};
    let n = d.len();
    let shape_err = |e: numpy::ndarray::ShapeError| Class::InvalidValue.err(e.to_string());
    let observations =
        Array2::from_shape_vec((n, d.observation_size), d.observations).map_err(shape_err)?;
    let values = Array2::from_shape_vec((n, actions), d.values).map_err(shape_err)?;
    let visits = Array2::from_shape_vec((n, actions), d.visits).map_err(shape_err)?;
    let masks = Array2::from_shape_fn((n, actions), |(i, a)| d.legal[i] >> a & 1 == 1);
    let out = pyo3::types::PyDict::new(py);
    out.set_item("observations", PyArray2::from_owned_array(py, observations))?;
    let play_log = Array2::from_shape_vec((n, d.play_log_size), d.play_log).map_err(shape_err)?;
    out.set_item("play_log", PyArray2::from_owned_array(py, play_log))?;
    out.set_item("masks", PyArray2::from_owned_array(py, masks))?;
    out.set_item("values", PyArray2::from_owned_array(py, values))?;
    out.set_item("visits", PyArray2::from_owned_array(py, visits))?;
    let ids = |v: Vec<u8>| {
        v.into_iter()
            .map(i64::from)
            .collect::<Vec<i64>>()
            .into_pyarray(py)
    };
    out.set_item("labels", ids(d.labels))?;
    out.set_item("played", ids(d.played))?;
    out.set_item("heuristic", ids(d.heuristic))?;
    out.set_item("seats", ids(d.seats))?;
    let players = if actions == 0 || n == 0 {
        0
    } else {
        d.uniform.len() / (n * actions)
    };
    let holders = Array2::from_shape_vec((n, actions), d.holders).map_err(shape_err)?;
    let possible = Array2::from_shape_vec((n, actions), d.possible).map_err(shape_err)?;
    let uniform = numpy::ndarray::Array3::from_shape_vec((n, actions, players), d.uniform)
        .map_err(shape_err)?;
    out.set_item("holders", PyArray2::from_owned_array(py, holders))?;
    out.set_item("possible", PyArray2::from_owned_array(py, possible))?;
    out.set_item("uniform", numpy::PyArray3::from_owned_array(py, uniform))?;
    out.set_item("games", d.games.into_pyarray(py))?;
    Ok(out.into_any())
}

arena_fn!(
    /// Value data (see ``yokai_septet.models.value_data``): every play-phase position of
    /// the arena's games with each seat's round value. Returns a dict: the inputs as
    /// compressed sparse rows (``row_starts`` uint64 ``[N + 1]``, ``columns`` uint16,
    /// ``values`` uint8; ``input_size`` columns), ``targets`` and ``playout`` (float32
    /// ``[N, num_players]``), ``hand_len`` (uint8) and ``games`` (uint64).
    /// ``progress``: as for :func:`arena`.
    value_data_fn, "_value_data", (), [progress], |py, config| {
        if config.sequential {
            return Err(Class::InvalidValue.err(
                "value_data records every game of the arena: a sequential stop does not \
                 apply (set sequential=False)",
            ));
        }
        let total = config.total_games();
        let data = with_progress(py, total, progress.as_ref(), "value_data", |tick| {
            value_data::generate(&config, &BotRegistry::new(), tick).py()
        })?;
        value_data_to_py(py, data)
    }
);

fn value_data_to_py(py: Python<'_>, d: value_data::ValueData) -> PyResult<Bound<'_, PyAny>> {
    use numpy::ndarray::Array2;
    use numpy::{IntoPyArray, PyArray2};
    let shape_err = |e: numpy::ndarray::ShapeError| Class::InvalidValue.err(e.to_string());
    let n = d.len();
    let targets = Array2::from_shape_vec((n, d.players), d.targets).map_err(shape_err)?;
    let playout = Array2::from_shape_vec((n, d.players), d.playout).map_err(shape_err)?;
    let out = PyDict::new(py);
    out.set_item("input_size", d.input_size)?;
    out.set_item("row_starts", d.row_starts.into_pyarray(py))?;
    out.set_item("columns", d.columns.into_pyarray(py))?;
    out.set_item("values", d.values.into_pyarray(py))?;
    out.set_item("targets", PyArray2::from_owned_array(py, targets))?;
    out.set_item("playout", PyArray2::from_owned_array(py, playout))?;
    out.set_item("hand_len", d.hand_len.into_pyarray(py))?;
    out.set_item("games", d.games.into_pyarray(py))?;
    Ok(out.into_any())
}

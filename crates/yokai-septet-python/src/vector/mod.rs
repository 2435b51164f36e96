//! `yokai_septet._core.VectorEnv`: the Python face of [`yokai_septet_vector::VecCore`] (many
//! games stepped in Rust on a small pool of threads with the GIL released), writing
//! straight into preallocated numpy buffers, and of its [`Pipeline`] (asynchronous
//! send/recv). Every array comes from the output table ([`OUTPUTS`]): one numpy array per
//! output, built, recycled, borrowed and returned by the walks of `arrays.rs`, never by name; `state.rs` holds the
//! sync/pipeline state machine and `config.rs` reads the constructor's arguments.
//! Determinism is documented in [`yokai_septet_vector`].

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::convert::{extract_seat, extract_seed, shown};
use crate::errors::{borrow, borrow_mut, guard, in_context, py_err, Class, InUse, IntoPyResult};
use crate::game::PyGame;
use arrays::{batch_tuple, new_set, Sets};
use state::{poisoned, with_pipeline, Mode, Op};
use yokai_septet::rules::game_target;
use yokai_septet::GameConfig;
use yokai_septet::Match;
use yokai_septet_bots::BotRegistry;
use yokai_septet_vector::{
    Autoreset, Extras, Layout, Output, Per, PipelineError, Spin, VecCore, OUTPUTS,
};

mod arrays;
mod config;
mod state;

/// Many games stepped together in Rust (see the Python class ``yokai_septet.VectorEnv``,
/// which wraps this one with the Gymnasium-style API).
#[pyclass(module = "yokai_septet._core", name = "VectorEnv", subclass)]
pub struct PyVectorEnv {
    mode: Mutex<Mode>,
    /// The master seed: the one given (to the constructor or the last seeded reset), or
    /// the one drawn from the OS for `seed=None`.
    seed: u64,
    /// Copies of the core's settings, readable without its lock.
    config: GameConfig,
    env_offset: u64,
    num_threads: usize,
    num_envs: usize,
    batch_size: usize,
    autoreset: Autoreset,
    /// The layout of a pass over every env.
    layout: Layout,
    /// `copy=True`: every pass writes into a set of arrays nobody else holds (recycled,
    /// or new), so arrays handed out are never overwritten. `copy=False`: one set,
    /// overwritten in place by every pass.
    fresh: bool,
    /// The sets of output arrays; `sets[current]` holds the last pass's results.
    sets: Sets,
    current: usize,
    /// Whether the last pass ended some env's episode (else `final_obs` is not handed out).
    ended: bool,
    /// The group the last `recv` returned (what `send` without env ids sends).
    last_recv: Option<usize>,
    /// Each group's last received batch (its arrays, as `_recv` returned them), since
    /// the last synchronous pass; `None`: the group's rows of the current set are its
    /// state. With `async_view` set, the properties are assembled from these (see
    /// [`PyVectorEnv::view`]), so they never show a state the envs have left.
    received: Vec<Option<Py<PyTuple>>>,
    /// Set by `_send`, `_recv` and `_async_reset`, cleared by every synchronous pass.
    async_view: bool,
    /// The properties' arrays assembled from `received` (until the next send or recv).
    assembled: Option<Py<PyTuple>>,
    /// Set when an internal error (a caught panic) stopped a pass over the envs midway:
    /// some games may be half-stepped, so every later call refuses.
    failed: bool,
}

impl InUse for PyVectorEnv {
    fn in_use_error() -> PyErr {
        Class::VectorEnvInUse.err(
            "this VectorEnv is in use by another thread or call (a VectorEnv is not shared: \
             a thread may use it only while no other thread or call does): give each thread \
             its own VectorEnv (with env_offset to split one master-seeded batch), or guard \
             it with a lock",
        )
    }
}

#[pymethods]
impl PyVectorEnv {
    /// ``VectorEnv(num_envs, variant="4p", scoring="advanced", seed=0, *, ...)``: every
    /// argument is a row of the settings table (``_settings_spec()["vector"]``).
    #[new]
    #[pyo3(signature = (*args, **kwargs))]
    fn py_new(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyVectorEnv> {
        let c = config::parse(args, kwargs)?;
        let autoreset = c.shared.autoreset;
        let seed = c.shared.seed;
        // The GIL released: an `nn:PATH` opponent reads its file.
        let core = py
            .allow_threads(|| VecCore::new(c.shared, c.num_envs, &c.opponents, c.num_threads))
            .py()?;
        if let Some(s) = c.spin {
            core.set_spin(s);
        }
        let layout = core.layout(Extras {
            state_tensor: c.state_tensor,
            env_ids: false,
            // Gymnasium's SAME_STEP envs hand every ended episode's last observation over
            // in `infos["final_obs"]` (a bootstrapping learner needs it on truncation).
            final_obs: autoreset == Autoreset::SameStep,
        });
        let too_many = |e: String| {
            Class::InvalidValue.err(format!(
                "num_envs {}: the arrays of that many envs do not fit in this machine's \
                 memory ({e})",
                c.num_envs
            ))
        };
        let sets = if c.obs_u8 {
            Sets::U8(vec![new_set(py, layout).map_err(too_many)?])
        } else {
            Sets::F32(vec![new_set(py, layout).map_err(too_many)?])
        };
        let mut env = PyVectorEnv {
            mode: Mutex::new(Mode::Sync(core)),
            config: c.shared.config,
            seed,
            env_offset: c.shared.env_offset,
            num_threads: c.num_threads,
            num_envs: c.num_envs,
            batch_size: c.batch_size,
            autoreset,
            layout,
            fresh: c.copy,
            sets,
            current: 0,
            ended: false,
            last_recv: None,
            received: (0..c.num_envs / c.batch_size).map(|_| None).collect(),
            async_view: false,
            assembled: None,
            failed: false,
        };
        env.run(py, Op::Reset(None))?;
        env.core()?.keep_fresh();
        Ok(env)
    }

    /// The outputs, in the order of every tuple of arrays this class returns: ``(name,
    /// infos key or None, dtype, per)`` with ``per`` ``"env"`` (shape ``[num_envs]``) or
    /// ``"row"`` (``[num_envs, width]``); ``dtype`` ``"obs"`` is ``obs_dtype``. In those
    /// tuples ``final_obs`` is ``None`` unless some row's episode ended.
    #[staticmethod]
    fn _output_spec() -> Vec<(
        &'static str,
        Option<&'static str>,
        &'static str,
        &'static str,
    )> {
        OUTPUTS
            .iter()
            .map(|o| {
                let dtype = match o.dtype {
                    yokai_septet_vector::Dtype::Obs => "obs",
                    yokai_septet_vector::Dtype::Bool => "bool",
                    yokai_septet_vector::Dtype::F32 => "float32",
                    yokai_septet_vector::Dtype::I64 => "int64",
                };
                let per = match o.per {
                    Per::Value => "env",
                    Per::Row => "row",
                };
                (o.name, o.info, dtype, per)
            })
            .collect()
    }

    /// Resets every env (episode counters restart at 0). With ``seed``: it becomes the
    /// master seed and every env starts the first game of its stream again (the same seed
    /// replays the same games); without: every env moves on to its next game (a new
    /// object's first reset deals the first one). Fills the buffers with the first
    /// observations; rewards and flags become 0. Refused while batches sent with
    /// :meth:`_send` are not received.
    #[pyo3(signature = (seed = None))]
    fn reset_all(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let seed = seed.map(extract_seed).transpose()?;
        this.run(py, Op::Reset(seed))?;
        this.seed = seed.unwrap_or(this.seed);
        Ok(())
    }

    /// Resets the envs whose ``mask`` entry is set (a bool array, one per env), as
    /// :meth:`reset_all` without a seed resets every env; the others keep their games.
    /// Every buffer is written (the other envs' rows show their games as they are);
    /// rewards and flags become 0.
    fn _reset_some(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        mask: PyReadonlyArray1<'_, bool>,
    ) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let mask = mask.as_array().to_vec();
        if mask.len() != this.num_envs {
            return Err(Class::InvalidValue.err(format!(
                "reset_mask has {} entries, expected one per env ({})",
                mask.len(),
                this.num_envs
            )));
        }
        this.run(py, Op::ResetSome(&mask))
    }

    /// Applies one action per env (an ``int64`` array of length ``num_envs``): the learner's
    /// decision, or in self-play the decision of the seat to move. Every action is checked
    /// first, in parallel: if any is illegal, :class:`IllegalActionError` names the env and
    /// nothing changes. Then all envs step in parallel (bots move; a finished game is
    /// handled as ``autoreset_mode`` says).
    /// With ``copy=True`` the results go to arrays nobody else holds (the buffer
    /// properties then return those); with ``copy=False`` the buffers are overwritten.
    fn step_all(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let mut copy = Vec::new();
        let acts = Self::ints(&actions, &mut copy)?;
        this.run(py, Op::Step(acts))
    }

    /// :meth:`step_all`, returning the results: every output's array, in the order of
    /// :meth:`_output_spec` (for the Python class's ``step``).
    fn _step<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let mut this = borrow_mut(slf)?;
        let mut copy = Vec::new();
        let acts = Self::ints(&actions, &mut copy)?;
        this.run(py, Op::Step(acts))?;
        this.current_tuple(py)
    }

    /// The arrays of the last reset or step, in the order of :meth:`_output_spec`.
    fn _outputs<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        borrow_mut(slf)?.view(py, "infos")
    }

    /// Asynchronous mode (``batch_size`` envs per batch): resets every env as
    /// :meth:`reset_all` does and sends every batch; :meth:`_recv` then returns them.
    #[pyo3(signature = (seed = None))]
    fn _async_reset(slf: &Bound<'_, Self>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let seed = seed.map(extract_seed).transpose()?;
        let mode = this.pipeline()?;
        with_pipeline!(mode, |p: T| p.reset(seed)).py()?;
        this.seed = seed.unwrap_or(this.seed);
        this.last_recv = None;
        this.received.iter_mut().for_each(|r| *r = None);
        this.async_view = true;
        this.assembled = None;
        Ok(())
    }

    /// Checks one action per env (in env order) without stepping: ``IllegalActionError``
    /// names the first illegal one. Refused while batches are in flight.
    fn _check(slf: &Bound<'_, Self>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let mut copy = Vec::new();
        let acts = Self::ints(&actions, &mut copy)?;
        if this.failed {
            return Err(poisoned());
        }
        let mode = this.mode.get_mut().map_err(|_| poisoned())?;
        match mode {
            Mode::Sync(c) => Ok(c.check_actions(acts).py()?),
            Mode::F32(p) => Ok(p.check_all(acts).py()?),
            Mode::U8(p) => Ok(p.check_all(acts).py()?),
            Mode::Moving => Err(poisoned()),
        }
    }

    /// Sends one batch: ``actions`` for the envs ``env_ids`` (the envs of one batch that
    /// :meth:`_recv` returned, in any order; ``None``: the batch it returned last). The
    /// actions are checked first (an illegal one raises and nothing is sent); returns at
    /// once while Rust steps them.
    #[pyo3(signature = (actions, env_ids = None))]
    fn _send(
        slf: &Bound<'_, Self>,
        actions: PyReadonlyArray1<'_, i64>,
        env_ids: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let ids = env_ids.map(|e| Self::env_ids(e, "env_id")).transpose()?;
        let mut this = borrow_mut(slf)?;
        let mut copy = Vec::new();
        let acts = Self::ints(&actions, &mut copy)?.to_vec();
        let last = this.last_recv;
        let mode = this.pipeline()?;
        with_pipeline!(mode, |p: T| {
            let (group, acts) = match (ids, env_ids) {
                (Some(ids), Some(given)) => p
                    .group_of(&ids, &acts)
                    .map_err(|e| in_context(&format!("env_id {}", shown(given)), e))?,
                _ => match last {
                    Some(g) => (g, acts),
                    None => {
                        return Err(Class::State.err(
                            "send(actions) without env_ids sends the batch recv() returned \
                             last, and nothing was received",
                        ))
                    }
                },
            };
            p.send(group, acts)
        })
        .py()?;
        this.async_view = true;
        this.assembled = None;
        Ok(())
    }

    /// Waits (the GIL released) for the oldest batch sent and returns its arrays in the
    /// order of :meth:`_output_spec` (``env_id`` included). They are new arrays, never
    /// written again.
    fn _recv<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let mut this = borrow_mut(slf)?;
        let mut layout = this.layout.with_rows(this.batch_size);
        layout.widths[Output::env_id as usize] = 1;
        let mode = this.pipeline()?;
        let got = with_pipeline!(mode, |p: T| {
            let got = py.allow_threads(|| guard("VectorEnv.recv", || Ok(p.recv())))?;
            match got {
                Ok(b) => Ok(batch_tuple(py, b, layout)?),
                Err(e) => Err(e),
            }
        });
        match got {
            Ok((group, tuple)) => {
                this.last_recv = Some(group);
                this.received[group] = Some(tuple.clone().unbind());
                this.async_view = true;
                this.assembled = None;
                Ok(tuple)
            }
            Err(e) => {
                this.failed |= matches!(e, PipelineError::Failed(_));
                Err(py_err(e))
            }
        }
    }

    /// The action the ``opponents`` bots choose for each env's pending decision (an
    /// ``int64`` array, ``-1`` where none is pending; nothing is applied). In self-play the
    /// bot of the seat to move decides, in the learner modes the bot of that seat. Each
    /// env's bots are reseeded from the master seed at every game, so with
    /// ``step(env.bot_actions())`` trajectories are deterministic: this turns a built-in
    /// bot into a self-play policy. With ``env_ids`` (asynchronous mode): for the envs of
    /// one received batch, in the order given.
    #[pyo3(signature = (env_ids = None))]
    fn bot_actions<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        env_ids: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let ids = env_ids.map(|e| Self::env_ids(e, "env_ids")).transpose()?;
        let mut this = borrow_mut(slf)?;
        if let (Some(ids), Some(given)) = (ids, env_ids) {
            let mode = this.pipeline()?;
            let out = with_pipeline!(mode, |p: T| {
                let dummy = vec![0i64; ids.len()];
                let (g, _) = p
                    .group_of(&ids, &dummy)
                    .map_err(|e| in_context(&format!("env_ids {}", shown(given)), e))?;
                let in_order = p.bot_actions(g).py()?;
                let b = p.batch_size() as i64;
                ids.iter()
                    .map(|&i| in_order[(i - g as i64 * b) as usize])
                    .collect::<Vec<_>>()
            });
            return Ok(PyArray1::from_vec(py, out));
        }
        let core = this.core()?;
        let out = py.allow_threads(|| guard("VectorEnv.bot_actions", || Ok(core.bot_actions())))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Each legal card's value for the side to move, by play-out from the true state:
    /// ``float32`` ``[len(env_ids), num_actions]`` (every env when ``env_ids`` is
    /// ``None``), the mover's side's round margin in points (as ``infos["round_margin"]``)
    /// when the card is played and then ``bot`` (a bot name, e.g. ``"nn:policy.safetensors"``
    /// or ``"heuristic"``) plays every seat to the round's end; NaN for cards that are not
    /// legal, and in a row where no seat is to move. Nothing in the envs changes. It reads
    /// every hand: for training-time advantages (``training/playout.py``), never for a policy
    /// that plays. Runs on the env's threads with the GIL released.
    #[pyo3(signature = (bot, env_ids = None))]
    fn playout_values<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        bot: &str,
        env_ids: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let mut this = borrow_mut(slf)?;
        let n = this.num_envs;
        let envs: Vec<usize> = match env_ids {
            None => (0..n).collect(),
            Some(given) => Self::env_ids(given, "env_ids")?
                .into_iter()
                .map(|k| {
                    usize::try_from(k).ok().filter(|&k| k < n).ok_or_else(|| {
                        Class::InvalidValue.err(format!(
                            "env_ids {} holds env id {k}, out of range: envs are 0..{}",
                            shown(given),
                            n.saturating_sub(1)
                        ))
                    })
                })
                .collect::<PyResult<_>>()?,
        };
        let width = this.config.num_actions();
        let core = this.core()?;
        let values = py.allow_threads(|| {
            guard("VectorEnv.playout_values", || {
                core.playout_values(&BotRegistry::new(), bot, &envs).py()
            })
        })?;
        let rows = envs.len();
        Ok(PyArray1::from_vec(py, values).reshape([rows, width])?)
    }

    /// The master seed every env's games derive from: the one given to the constructor or
    /// to the last ``reset(seed=...)``, or, where none was, the one drawn from the
    /// operating system (``seed=None``, as Gymnasium does). ``VectorEnv(..., seed=env.seed)``
    /// deals the same games again.
    #[getter]
    fn seed(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(borrow(slf)?.seed)
    }

    /// Env ``i`` of this object is env ``env_offset + i`` of the seed derivation (so that
    /// several objects can together step the envs of one larger, master-seeded batch).
    #[getter]
    fn env_offset(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(borrow(slf)?.env_offset)
    }

    /// What a step does to an env whose episode it ended: gymnasium's ``AutoresetMode``
    /// value (``"SameStep"``, ``"NextStep"`` or ``"Disabled"``).
    #[getter]
    fn _autoreset_mode(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        Ok(borrow(slf)?.autoreset.gymnasium_name())
    }

    /// The variant every env plays (``"4p"``, ``"3p"``, ``"seal"``, ``"seal-short"``).
    #[getter]
    fn variant(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        Ok(borrow(slf)?.config.variant.name())
    }

    /// Players at each table (4, or 3 in ``3p``): the width of self-play rewards.
    #[getter]
    fn num_players(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(borrow(slf)?.config.num_players())
    }

    /// Scoring sides: 2 teams (seats 0+2 and 1+3) in the four-player variants, 3 players
    /// in ``3p``; the width of ``infos["round_margin"]``.
    #[getter]
    fn num_sides(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(borrow(slf)?.config.variant.num_sides())
    }

    /// The side ``seat`` plays for (its column of ``infos["round_margin"]``).
    fn side_of(slf: &Bound<'_, Self>, seat: &Bound<'_, PyAny>) -> PyResult<usize> {
        let v = borrow(slf)?.config.variant;
        Ok(v.side_of(extract_seat(seat, v.num_players(), "seat")?))
    }

    /// What wins a game: the points target (7 advanced, 2 basic), or the seals to win in
    /// the seal variants (7, or 4 in ``seal-short``). A round's margin over it is on the
    /// game's scale.
    #[getter]
    fn target(slf: &Bound<'_, Self>) -> PyResult<u16> {
        Ok(game_target(&borrow(slf)?.config))
    }

    /// Env ``i``'s game now, every hand in it, as a new :class:`Game` (a copy: stepping
    /// it leaves the env alone). It has no record, since the env keeps no history. For
    /// training-time analysis only (play-outs from the true state, a privileged critic's
    /// targets); a policy that plays must not see it.
    fn game(slf: &Bound<'_, Self>, i: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let mut this = borrow_mut(slf)?;
        this.with_slot(i, |s| PyGame {
            m: Match::determinization(*s.state()),
        })
    }

    /// Number of envs.
    #[getter]
    fn num_envs(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(borrow(slf)?.num_envs)
    }

    /// Envs per batch of the asynchronous API (``num_envs`` unless set).
    #[getter]
    fn batch_size(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(borrow(slf)?.batch_size)
    }

    /// Threads that step the envs (the caller's included).
    #[getter]
    fn num_threads(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(borrow(slf)?.num_threads)
    }

    /// Microseconds the idle stepping threads keep polling for the next step before they
    /// sleep, or ``None`` (the default): adaptive, as long as recent gaps between steps
    /// suggest and only while no other thread needs the core (settable; see
    /// docs/vector.md, "Threads").
    #[getter]
    fn get_spin_us(slf: &Bound<'_, Self>) -> PyResult<Option<u64>> {
        let this = borrow(slf)?;
        let mode = this.mode.lock().map_err(|_| poisoned())?;
        let spin = match &*mode {
            Mode::Sync(c) => c.spin(),
            Mode::F32(p) => p.spin(),
            Mode::U8(p) => p.spin(),
            Mode::Moving => Spin::Adaptive,
        };
        Ok(match spin {
            Spin::Adaptive => None,
            Spin::Fixed(d) => Some(d.as_micros() as u64),
        })
    }

    #[setter]
    fn set_spin_us(slf: &Bound<'_, Self>, us: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        // The constructor's `spin_us` row reads it.
        let row = yokai_septet::settings::find(&yokai_septet_vector::settings::SETTINGS, "spin_us");
        let spin = match crate::settings::parse(row, us)? {
            crate::settings::Value::Int(us) => Spin::Fixed(std::time::Duration::from_micros(us)),
            _ => Spin::Adaptive,
        };
        let mode = this.mode.get_mut().map_err(|_| poisoned())?;
        match mode {
            Mode::Sync(c) => c.set_spin(spin),
            Mode::F32(p) => p.set_spin(spin),
            Mode::U8(p) => p.set_spin(spin),
            Mode::Moving => {}
        }
        Ok(())
    }

    /// Observations ``[num_envs, D]`` (float32 or uint8) after the last call. With
    /// ``copy=False`` one buffer, overwritten by every call; with ``copy=True`` the array
    /// the last call returned (never overwritten while anyone holds it).
    #[getter]
    fn observations(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyObject> {
        borrow_mut(slf)?.current_array(py, Output::obs, "observations")
    }

    /// The privileged state tensors ``[num_envs, state_size]`` (docs/state_tensor.md) of
    /// every env's game now, in the observations' dtype; ``None`` unless the env was made
    /// with ``state_tensor=True``. Never give them to a policy that plays.
    #[getter]
    fn states(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyObject> {
        borrow_mut(slf)?.current_array(py, Output::state, "states")
    }

    /// Whether results go to arrays nobody else holds (``True``) or overwrite one set of
    /// buffers (``False``).
    #[getter]
    fn copy(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(borrow(slf)?.fresh)
    }

    /// Legal-action masks ``[num_envs, num_actions]`` (bool) for the decision now pending.
    #[getter]
    fn masks(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyObject> {
        borrow_mut(slf)?.current_array(py, Output::mask, "masks")
    }

    /// Rewards of the last step: ``[num_envs, 1]`` (learner and team modes) or
    /// ``[num_envs, num_players]`` (self-play: every seat's reward).
    #[getter]
    fn rewards(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyObject> {
        borrow_mut(slf)?.current_array(py, Output::reward, "rewards")
    }

    /// Whether each env's episode ended by the rules on the last step (it has been reset).
    #[getter]
    fn terminated(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyObject> {
        borrow_mut(slf)?.current_array(py, Output::terminated, "terminated")
    }

    /// Whether each env's episode hit the round cap on the last step (it has been reset).
    #[getter]
    fn truncated(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyObject> {
        borrow_mut(slf)?.current_array(py, Output::truncated, "truncated")
    }

    /// The seat to move in each env now.
    #[getter]
    fn to_play(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<PyObject> {
        borrow_mut(slf)?.current_array(py, Output::to_play, "to_play")
    }

    /// The learner's seat in each env (one-seat mode), or the seat to move (self-play and
    /// team mode).
    fn learner_seats(slf: &Bound<'_, Self>) -> PyResult<Vec<i64>> {
        let mut this = borrow_mut(slf)?;
        Ok(this.core()?.learner_seats())
    }

    /// Episodes finished by each env since the last reset.
    fn episodes(slf: &Bound<'_, Self>) -> PyResult<Vec<u64>> {
        let mut this = borrow_mut(slf)?;
        Ok(this.core()?.episodes())
    }

    /// The seed env ``i``'s current game was dealt from (``Game(..., seed=that)`` replays it).
    fn game_seed(slf: &Bound<'_, Self>, i: &Bound<'_, PyAny>) -> PyResult<u64> {
        let mut this = borrow_mut(slf)?;
        this.with_slot(i, |s| s.state().config().seed)
    }

    /// A text picture of env ``i``'s game (every hand shown).
    fn render_env(slf: &Bound<'_, Self>, i: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut this = borrow_mut(slf)?;
        this.with_slot(i, |s| yokai_septet_picture::table_text(s.state()))
    }
}

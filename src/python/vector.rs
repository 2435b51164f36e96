//! `yokai_septet._core.VectorEnv`: the Python face of [`crate::vector::VecCore`] (many
//! games stepped in Rust on a rayon pool with the GIL released), writing straight into
//! preallocated numpy buffers. Determinism is documented in [`crate::vector`].

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::{extract_integer, extract_seed, parse_config, Arg, IllegalActionError};
use crate::observation::{observation_size, ObsValue};
use crate::reward::RewardMode;
use crate::vector::{Buffers, Shared, Slot, StepError, VecCore, VecCoreError};

/// Observation buffer of either dtype.
enum ObsBuf {
    F32(Py<PyArray2<f32>>),
    U8(Py<PyArray2<u8>>),
}

/// Many games stepped together in Rust (see the Python class ``yokai_septet.VectorEnv``,
/// which wraps this one with the Gymnasium-style API).
#[pyclass(module = "yokai_septet._core", name = "VectorEnv", subclass)]
pub struct PyVectorEnv {
    core: Mutex<VecCore>,
    /// Copies of the core's settings, readable without its lock.
    env_offset: u64,
    num_threads: usize,
    obs: ObsBuf,
    mask: Py<PyArray2<bool>>,
    reward: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_play: Py<PyArray1<i64>>,
    /// Set when an internal error (a caught panic) stopped a pass over the envs midway:
    /// some games may be half-stepped, so every later call refuses.
    failed: bool,
}

fn parse_reward(obj: &Bound<'_, PyAny>) -> PyResult<RewardMode> {
    match obj.extract::<String>() {
        Ok(s) => super::parse_reward_mode(&s),
        Err(_) => super::parse_reward_mode(&obj.repr()?.to_string()),
    }
}

fn poisoned() -> PyErr {
    PyRuntimeError::new_err(
        "this VectorEnv failed earlier (an internal error left it inconsistent): create a new one",
    )
}

/// What one pass over the envs does.
#[derive(Clone, Copy)]
enum Op<'a> {
    Reset,
    /// Actions already checked by [`VecCore::check_actions`].
    Step(&'a [i64]),
}

fn run_op<T: ObsValue>(core: &mut VecCore, op: Op<'_>, mut bufs: Buffers<'_, T>) {
    match op {
        Op::Reset => core.reset(&mut bufs),
        Op::Step(actions) => core.step_checked(actions, &mut bufs),
    }
}

impl PyVectorEnv {
    /// Runs `op` on every env with the GIL released, writing into the numpy buffers.
    fn run(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<()> {
        if self.failed {
            return Err(poisoned());
        }
        // Errors before the pass (buffers borrowed elsewhere) change nothing; an error from
        // the pass itself is a caught panic, after which the envs may be half-stepped.
        let pass = self.run_unguarded(py, op)?;
        if pass.is_err() {
            self.failed = true;
        }
        pass
    }

    /// `Err`: the pass did not start; `Ok(result)`: the pass's own result.
    fn run_unguarded(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<PyResult<()>> {
        let core = self.core.get_mut().map_err(|_| poisoned())?;
        let mut mask = self.mask.bind(py).try_readwrite()?;
        let mut reward = self.reward.bind(py).try_readwrite()?;
        let mut term = self.terminated.bind(py).try_readwrite()?;
        let mut trunc = self.truncated.bind(py).try_readwrite()?;
        let mut to_play = self.to_play.bind(py).try_readwrite()?;
        let mask = mask.as_slice_mut()?;
        let reward = reward.as_slice_mut()?;
        let terminated = term.as_slice_mut()?;
        let truncated = trunc.as_slice_mut()?;
        let to_play = to_play.as_slice_mut()?;
        macro_rules! go {
            ($o:expr) => {{
                let mut o = $o.bind(py).try_readwrite()?;
                let bufs = Buffers {
                    obs: o.as_slice_mut()?,
                    mask,
                    reward,
                    terminated,
                    truncated,
                    to_play,
                };
                Ok(py.allow_threads(|| {
                    super::guard("VectorEnv", || {
                        run_op(core, op, bufs);
                        Ok(())
                    })
                }))
            }};
        }
        match &self.obs {
            ObsBuf::F32(o) => go!(o),
            ObsBuf::U8(o) => go!(o),
        }
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (
        num_envs, variant = Arg(None), scoring = Arg(None), seed = Arg(None), *,
        episode = Arg(None), max_rounds = Arg(None), self_play = false, learner_seat = Arg(None),
        opponents = Arg(None), reward_mode = Arg(None), num_threads = Arg(None), obs_dtype = "float32",
        env_offset = 0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        variant: Arg<'_>,
        scoring: Arg<'_>,
        seed: Arg<'_>,
        episode: Arg<'_>,
        max_rounds: Arg<'_>,
        self_play: bool,
        learner_seat: Arg<'_>,
        opponents: Arg<'_>,
        reward_mode: Arg<'_>,
        num_threads: Arg<'_>,
        obs_dtype: &str,
        env_offset: u64,
    ) -> PyResult<PyVectorEnv> {
        use pyo3::intern;
        use pyo3::IntoPyObjectExt;
        let zero = 0i64.into_bound_py_any(py)?;
        let config = parse_config(
            &variant.or(intern!(py, "4p")),
            &scoring.or(intern!(py, "advanced")),
            &zero,
            &episode.or(intern!(py, "game")),
            max_rounds.0.as_ref(),
        )?;
        let seed = match seed.0 {
            Some(s) if !s.is_none() => extract_seed(&s)?,
            _ => 0,
        };
        let num_envs = match extract_integer(num_envs, "num_envs")? {
            Some(v) if (1..=1 << 24).contains(&v) => v as usize,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "num_envs {} is out of range: it must be an integer in 1..2**24",
                    num_envs.repr()?
                )))
            }
        };
        let n = config.num_players();
        let learner = if self_play {
            if learner_seat.0.as_ref().is_some_and(|s| !s.is_none()) {
                return Err(PyValueError::new_err(
                    "learner_seat makes no sense with self_play=True (the caller plays every seat)",
                ));
            }
            None
        } else {
            match learner_seat.0 {
                None => Some(Some(0)),
                Some(s) if s.is_none() => Some(None),
                Some(s) => match extract_integer(&s, "learner_seat")? {
                    Some(v) if (0..n as i128).contains(&v) => Some(Some(v as u8)),
                    _ => {
                        return Err(PyValueError::new_err(format!(
                            "learner_seat {} is out of range: seats are 0..{} (or None: drawn per episode)",
                            s.repr()?,
                            n - 1
                        )))
                    }
                },
            }
        };
        let opponent_names: Vec<String> = match opponents.0 {
            None => vec!["random".to_string(); n],
            Some(o) if o.is_none() => vec!["random".to_string(); n],
            Some(o) => {
                if let Ok(s) = o.extract::<String>() {
                    vec![s; n]
                } else {
                    let v: Vec<String> = o.extract().map_err(|_| {
                        PyValueError::new_err(
                            "opponents must be a bot name or a list of one bot name per seat",
                        )
                    })?;
                    if v.len() != n {
                        return Err(PyValueError::new_err(format!(
                            "opponents lists {} names, expected one per seat ({n})",
                            v.len()
                        )));
                    }
                    v
                }
            }
        };
        let reward = match reward_mode.0 {
            None => RewardMode::Win,
            Some(r) => parse_reward(&r)?,
        };
        let num_threads = match num_threads.0 {
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(t) if t.is_none() => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(t) => match extract_integer(&t, "num_threads")? {
                Some(v) if (1..=1024).contains(&v) => v as usize,
                _ => {
                    return Err(PyValueError::new_err(format!(
                    "num_threads {} is out of range: it must be an integer in 1..1024 (or None)",
                    t.repr()?
                )))
                }
            },
        };
        let shared = Shared {
            config,
            seed,
            learner,
            reward,
            env_offset,
        };
        let core =
            VecCore::new(shared, num_envs, &opponent_names, num_threads).map_err(|e| match e {
                VecCoreError::ThreadPool(_) => PyRuntimeError::new_err(e.to_string()),
                _ => PyValueError::new_err(e.to_string()),
            })?;
        let d = observation_size(config.variant);
        let a = config.num_actions();
        let obs = match obs_dtype {
            "float32" => ObsBuf::F32(PyArray2::<f32>::zeros(py, [num_envs, d], false).unbind()),
            "uint8" => ObsBuf::U8(PyArray2::<u8>::zeros(py, [num_envs, d], false).unbind()),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown obs_dtype {other:?}: valid dtypes are \"float32\", \"uint8\""
                )))
            }
        };
        let r = if learner.is_some() { 1 } else { n };
        let mut env = PyVectorEnv {
            core: Mutex::new(core),
            env_offset,
            num_threads,
            obs,
            mask: PyArray2::<bool>::zeros(py, [num_envs, a], false).unbind(),
            reward: PyArray2::<f32>::zeros(py, [num_envs, r], false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, num_envs, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, num_envs, false).unbind(),
            to_play: PyArray1::<i64>::zeros(py, num_envs, false).unbind(),
            failed: false,
        };
        env.reset_all(py, None)?;
        Ok(env)
    }

    /// Resets every env (episode counters restart at 0); ``seed`` replaces the master seed.
    /// Fills the buffers with the first observations; rewards and flags become 0.
    #[pyo3(signature = (seed = None))]
    fn reset_all(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        if let Some(s) = seed {
            let seed = extract_seed(s)?;
            self.core.get_mut().map_err(|_| poisoned())?.set_seed(seed);
        }
        self.run(py, Op::Reset)
    }

    /// Applies one action per env (an ``int64`` array of length ``num_envs``): the learner's
    /// decision, or in self-play the decision of the seat to move. Every action is checked
    /// first: if any is illegal, :class:`IllegalActionError` names the env and nothing
    /// changes. Then all envs step in parallel (bots move, finished games reset).
    fn step_all(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let acts = actions.as_slice()?;
        let core = self.core.get_mut().map_err(|_| poisoned())?;
        core.check_actions(acts).map_err(|e| match e {
            StepError::Length { .. } => PyValueError::new_err(e.to_string()),
            StepError::Illegal { .. } => IllegalActionError::new_err(e.to_string()),
        })?;
        self.run(py, Op::Step(acts))
    }

    /// The action the ``opponents`` bots choose for each env's pending decision (an
    /// ``int64`` array, ``-1`` where none is pending; nothing is applied). In self-play the
    /// bot of the seat to move decides, in learner mode the bot of the learner's seat. Each
    /// env's bots are reseeded from the master seed at every episode, so with
    /// ``step(env.bot_actions())`` trajectories are deterministic: this turns a built-in
    /// bot into a self-play policy.
    fn bot_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        if self.failed {
            return Err(poisoned());
        }
        let core = self.core.get_mut().map_err(|_| poisoned())?;
        let out =
            py.allow_threads(|| super::guard("VectorEnv.bot_actions", || Ok(core.bot_actions())))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Env ``i`` of this object is env ``env_offset + i`` of the seed derivation (so that
    /// several objects can together step the envs of one larger, master-seeded batch).
    #[getter]
    fn env_offset(&self) -> u64 {
        self.env_offset
    }

    /// Number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.to_play_len()
    }

    /// Threads in this env's rayon pool.
    #[getter]
    fn num_threads(&self) -> usize {
        self.num_threads
    }

    /// Observation buffer ``[num_envs, D]`` (float32 or uint8), overwritten by every step.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.obs {
            ObsBuf::F32(o) => o.bind(py).clone().into_any(),
            ObsBuf::U8(o) => o.bind(py).clone().into_any(),
        }
    }

    /// Legal-action masks ``[num_envs, num_actions]`` (bool) for the decision now pending.
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }

    /// Rewards of the last step: ``[num_envs, 1]`` (learner mode) or ``[num_envs,
    /// num_players]`` (self-play: every seat's reward).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.reward.bind(py).clone()
    }

    /// Whether each env's episode ended by the rules on the last step (it has been reset).
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }

    /// Whether each env's episode hit the round cap on the last step (it has been reset).
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }

    /// The seat to move in each env now.
    #[getter]
    fn to_play<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.to_play.bind(py).clone()
    }

    /// The learner's seat in each env (learner mode), or the seat to move (self-play).
    fn learner_seats(&self) -> PyResult<Vec<i64>> {
        Ok(self.lock()?.learner_seats())
    }

    /// Episodes finished so far by each env.
    fn episodes(&self) -> PyResult<Vec<u64>> {
        Ok(self.lock()?.episodes())
    }

    /// The seed env ``i``'s current game was dealt from (``Game(..., seed=that)`` replays it).
    fn game_seed(&self, i: &Bound<'_, PyAny>) -> PyResult<u64> {
        self.with_slot(i, |s| s.state().config().seed)
    }

    /// A text picture of env ``i``'s game (every hand shown).
    fn render_env(&self, i: &Bound<'_, PyAny>) -> PyResult<String> {
        self.with_slot(i, |s| s.state().to_string())
    }
}

impl PyVectorEnv {
    fn to_play_len(&self) -> usize {
        self.core.lock().map_or(0, |c| c.num_envs())
    }

    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, VecCore>> {
        self.core.lock().map_err(|_| poisoned())
    }

    /// Env `i`'s slot, read through `f`.
    /// An env index like a seat: an integer (`TypeError` otherwise) in `0..num_envs`
    /// (`ValueError` otherwise, never an `OverflowError`).
    fn with_slot<T>(&self, i: &Bound<'_, PyAny>, f: impl FnOnce(&Slot) -> T) -> PyResult<T> {
        let k = extract_integer(i, "env index")?;
        let core = self.lock()?;
        k.and_then(|k| usize::try_from(k).ok())
            .and_then(|k| core.slot(k))
            .map(f)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "env {} is out of range: envs are 0..{}",
                    i.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                    core.num_envs().saturating_sub(1)
                ))
            })
    }
}

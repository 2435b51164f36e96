//! `yokai_septet._core.VectorEnv`: the Python face of [`crate::vector::VecCore`] (many
//! games stepped in Rust on a rayon pool with the GIL released), writing straight into
//! preallocated numpy buffers. Determinism is documented in [`crate::vector`].

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::game::render;
use super::{extract_integer, extract_seed, parse_config, Arg, IllegalActionError};
use crate::observation::{observation_size, ObsValue};
use crate::reward::RewardMode;
use crate::vector::{Buffers, Shared, Slot, VecCore, VecCoreError};

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
    obs: ObsBuf,
    mask: Py<PyArray2<bool>>,
    reward: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_play: Py<PyArray1<i64>>,
}

fn parse_reward(obj: &Bound<'_, PyAny>) -> PyResult<RewardMode> {
    match obj.extract::<String>() {
        Ok(s) => super::parse_reward_mode(&s),
        Err(_) => super::parse_reward_mode(&obj.repr()?.to_string()),
    }
}

/// What one pass over the envs does.
#[derive(Clone, Copy)]
enum Op<'a> {
    Reset,
    Step(&'a [u8]),
}

fn run_op<T: ObsValue>(core: &mut VecCore, op: Op<'_>, bufs: Buffers<'_, T>) {
    match op {
        Op::Reset => core.reset_all(bufs),
        Op::Step(actions) => core.step_all(actions, bufs),
    }
}

impl PyVectorEnv {
    /// Runs `op` on every env with the GIL released, writing into the numpy buffers.
    fn run(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<()> {
        let core = self
            .core
            .get_mut()
            .map_err(|_| PyRuntimeError::new_err("this VectorEnv failed earlier (poisoned)"))?;
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
                py.allow_threads(|| {
                    super::guard("VectorEnv", || {
                        run_op(core, op, bufs);
                        Ok(())
                    })
                })
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
        opponents = Arg(None), reward_mode = Arg(None), num_threads = Arg(None), obs_dtype = "float32"
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
        };
        let core =
            VecCore::new(shared, num_envs, &opponent_names, num_threads).map_err(|e| match e {
                VecCoreError::UnknownBot(e) => PyValueError::new_err(e.to_string()),
                e => PyRuntimeError::new_err(e.to_string()),
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
        let r = shared.reward_width();
        let mut env = PyVectorEnv {
            core: Mutex::new(core),
            obs,
            mask: PyArray2::<bool>::zeros(py, [num_envs, a], false).unbind(),
            reward: PyArray2::<f32>::zeros(py, [num_envs, r], false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, num_envs, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, num_envs, false).unbind(),
            to_play: PyArray1::<i64>::zeros(py, num_envs, false).unbind(),
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
            self.lock()?.shared.seed = seed;
        }
        self.run(py, Op::Reset)
    }

    /// Applies one action per env (an ``int64`` array of length ``num_envs``): the learner's
    /// decision, or in self-play the decision of the seat to move. Every action is checked
    /// first: if any is illegal, :class:`IllegalActionError` names the env and nothing
    /// changes. Then all envs step in parallel (bots move, finished games reset).
    fn step_all(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let acts = actions.as_slice()?;
        {
            let core = self.lock()?;
            if acts.len() != core.num_envs() {
                return Err(PyValueError::new_err(format!(
                    "expected {} actions (one per env), got {}",
                    core.num_envs(),
                    acts.len()
                )));
            }
            if let Err((i, why)) = core.check_actions(acts) {
                return Err(IllegalActionError::new_err(format!(
                    "illegal action in env {i}: {why}"
                )));
            }
        }
        let acts: Vec<u8> = acts.iter().map(|&a| a as u8).collect();
        self.run(py, Op::Step(&acts))
    }

    /// Number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.to_play_len()
    }

    /// Threads in this env's rayon pool.
    #[getter]
    fn num_threads(&self) -> usize {
        self.lock().map_or(0, |c| c.num_threads())
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
        let core = self.lock()?;
        Ok(core
            .slots()
            .iter()
            .map(|s| match core.shared.learner {
                Some(_) => s.learner() as i64,
                None => s.state().current_player().map_or(-1, |p| p as i64),
            })
            .collect())
    }

    /// Episodes finished so far by each env.
    fn episodes(&self) -> PyResult<Vec<u64>> {
        Ok(self.lock()?.slots().iter().map(Slot::episode).collect())
    }

    /// The seed env ``i``'s current game was dealt from (``Game(..., seed=that)`` replays it).
    fn game_seed(&self, i: usize) -> PyResult<u64> {
        self.with_slot(i, |s| s.state().config().seed)
    }

    /// A text picture of env ``i``'s game (every hand shown).
    fn render_env(&self, i: usize) -> PyResult<String> {
        self.with_slot(i, |s| render(s.state()))
    }
}

impl PyVectorEnv {
    fn to_play_len(&self) -> usize {
        self.core.lock().map_or(0, |c| c.num_envs())
    }

    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, VecCore>> {
        self.core
            .lock()
            .map_err(|_| PyRuntimeError::new_err("this VectorEnv failed earlier (poisoned)"))
    }

    /// Env `i`'s slot, read through `f`.
    fn with_slot<T>(&self, i: usize, f: impl FnOnce(&Slot) -> T) -> PyResult<T> {
        self.lock()?
            .slots()
            .get(i)
            .map(f)
            .ok_or_else(|| PyValueError::new_err(format!("env {i} is out of range")))
    }
}

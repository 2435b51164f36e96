//! `yokai_septet._core.VectorEnv`: the Python face of [`crate::rl::vector::VecCore`] (many
//! games stepped in Rust on a rayon pool with the GIL released), writing straight into
//! preallocated numpy buffers. Determinism is documented in [`crate::vector`].

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::{extract_integer, extract_seed, parse_config, Arg, IllegalActionError};
use crate::rl::observation::{observation_size, ObsValue};
use crate::rl::reward::RewardMode;
use crate::rl::state_tensor::state_size;
use crate::rl::vector::{Buffers, Shared, Slot, StepError, VecCore, VecCoreError};

/// Observation (or state tensor) buffer of either dtype.
enum ObsBuf {
    F32(Py<PyArray2<f32>>),
    U8(Py<PyArray2<u8>>),
}

impl ObsBuf {
    fn new(py: Python<'_>, rows: usize, cols: usize, u8: bool) -> ObsBuf {
        if u8 {
            ObsBuf::U8(PyArray2::<u8>::zeros(py, [rows, cols], false).unbind())
        } else {
            ObsBuf::F32(PyArray2::<f32>::zeros(py, [rows, cols], false).unbind())
        }
    }

    fn refcnt(&self, py: Python<'_>) -> isize {
        match self {
            ObsBuf::F32(o) => o.get_refcnt(py),
            ObsBuf::U8(o) => o.get_refcnt(py),
        }
    }

    fn bind<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            ObsBuf::F32(o) => o.bind(py).clone().into_any(),
            ObsBuf::U8(o) => o.bind(py).clone().into_any(),
        }
    }
}

/// One set of output arrays: what one pass over the envs writes.
struct Outputs {
    obs: ObsBuf,
    mask: Py<PyArray2<bool>>,
    reward: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_play: Py<PyArray1<i64>>,
    /// State tensors (when asked for), of the observations' dtype.
    state: Option<ObsBuf>,
}

/// Shapes of a set of output arrays.
#[derive(Clone, Copy)]
struct Shape {
    num_envs: usize,
    obs: usize,
    actions: usize,
    rewards: usize,
    /// State-tensor width, 0 when not asked for.
    states: usize,
    /// `true`: uint8 observations (and state tensors); `false`: float32.
    obs_u8: bool,
}

impl Outputs {
    fn new(py: Python<'_>, s: Shape) -> Outputs {
        let n = s.num_envs;
        Outputs {
            obs: ObsBuf::new(py, n, s.obs, s.obs_u8),
            mask: PyArray2::<bool>::zeros(py, [n, s.actions], false).unbind(),
            reward: PyArray2::<f32>::zeros(py, [n, s.rewards], false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            to_play: PyArray1::<i64>::zeros(py, n, false).unbind(),
            state: (s.states > 0).then(|| ObsBuf::new(py, n, s.states, s.obs_u8)),
        }
    }

    /// Whether this object holds the only reference to every array: nobody else can see
    /// them, so they may be overwritten.
    fn is_free(&self, py: Python<'_>) -> bool {
        self.obs.refcnt(py) == 1
            && self.state.as_ref().is_none_or(|s| s.refcnt(py) == 1)
            && self.mask.get_refcnt(py) == 1
            && self.reward.get_refcnt(py) == 1
            && self.terminated.get_refcnt(py) == 1
            && self.truncated.get_refcnt(py) == 1
            && self.to_play.get_refcnt(py) == 1
    }

    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.obs.bind(py)
    }

    fn state<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.state.as_ref().map(|s| s.bind(py))
    }
}

/// Most sets of output arrays kept for reuse (`copy=True`): two are enough for the usual
/// loop (the caller holds the last step's arrays while the next step writes); more only
/// help a caller that keeps a few steps' arrays around.
const MAX_SETS: usize = 4;

/// Many games stepped together in Rust (see the Python class ``yokai_septet.VectorEnv``,
/// which wraps this one with the Gymnasium-style API).
#[pyclass(module = "yokai_septet._core", name = "VectorEnv", subclass)]
pub struct PyVectorEnv {
    core: Mutex<VecCore>,
    /// Copies of the core's settings, readable without its lock.
    env_offset: u64,
    num_threads: usize,
    shape: Shape,
    /// `copy=True`: every pass writes into a set of arrays nobody else holds (recycled,
    /// or new), so arrays handed out are never overwritten. `copy=False`: one set,
    /// overwritten in place by every pass.
    fresh: bool,
    /// The sets of output arrays; `sets[current]` holds the last pass's results.
    sets: Vec<Outputs>,
    current: usize,
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

/// `learner_seat` and `self_play` as [`Shared::learner`] (the seat's range is checked here,
/// before it narrows to `u8`).
fn parse_learner(self_play: bool, learner_seat: Arg<'_>, n: usize) -> PyResult<Option<Option<u8>>> {
    if self_play {
        if learner_seat.0.as_ref().is_some_and(|s| !s.is_none()) {
            return Err(PyValueError::new_err(
                "learner_seat makes no sense with self_play=True (the caller plays every seat)",
            ));
        }
        return Ok(None);
    }
    Ok(match learner_seat.0 {
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
    })
}

/// `opponents`: one bot name for every seat, or a list of them (its length and the
/// names are [`VecCore::new`]'s to check).
fn parse_opponents(opponents: Arg<'_>, n: usize) -> PyResult<Vec<String>> {
    Ok(match opponents.0 {
        None => vec!["random".to_string(); n],
        Some(o) if o.is_none() => vec!["random".to_string(); n],
        Some(o) => {
            if let Ok(s) = o.extract::<String>() {
                vec![s; n]
            } else {
                o.extract().map_err(|_| {
                    PyValueError::new_err(
                        "opponents must be a bot name or a list of one bot name per seat",
                    )
                })?
            }
        }
    })
}

/// `num_threads`: 1..1024, or `None` for the machine's parallelism.
fn parse_num_threads(num_threads: Arg<'_>) -> PyResult<usize> {
    let all = || std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(match num_threads.0 {
        None => all(),
        Some(t) if t.is_none() => all(),
        Some(t) => match extract_integer(&t, "num_threads")? {
            Some(v) if (1..=1024).contains(&v) => v as usize,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "num_threads {} is out of range: it must be an integer in 1..1024 (or None)",
                    t.repr()?
                )))
            }
        },
    })
}

/// `obs_dtype`: whether observations are `uint8` (else `float32`).
fn parse_obs_u8(obs_dtype: &str) -> PyResult<bool> {
    match obs_dtype {
        "float32" => Ok(false),
        "uint8" => Ok(true),
        other => Err(PyValueError::new_err(format!(
            "unknown obs_dtype {other:?}: valid dtypes are \"float32\", \"uint8\""
        ))),
    }
}

fn poisoned() -> PyErr {
    PyRuntimeError::new_err(
        "this VectorEnv failed earlier (an internal error left it inconsistent): create a new one",
    )
}

fn step_error(e: StepError) -> PyErr {
    match e {
        StepError::Length { .. } => PyValueError::new_err(e.to_string()),
        StepError::Illegal { .. } => IllegalActionError::new_err(e.to_string()),
    }
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
    /// The set the next pass writes: in `copy=True` mode one that nobody else holds
    /// (recycled, or new when the caller still holds every kept set).
    fn target(&mut self, py: Python<'_>) -> usize {
        if !self.fresh {
            return self.current;
        }
        if let Some(i) = self.sets.iter().position(|s| s.is_free(py)) {
            return i;
        }
        let new = Outputs::new(py, self.shape);
        if self.sets.len() < MAX_SETS {
            self.sets.push(new);
            return self.sets.len() - 1;
        }
        // Forget the oldest kept set (its holder keeps it) for a new one.
        let i = (self.current + 1) % self.sets.len();
        self.sets[i] = new;
        i
    }

    /// Runs `op` on every env with the GIL released, writing into the next set of output
    /// arrays, which become the current ones.
    fn run(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<()> {
        if self.failed {
            return Err(poisoned());
        }
        if let Op::Step(actions) = op {
            // With the GIL held: a refused batch never lets another Python thread find
            // this object busy.
            let core = self.core.get_mut().map_err(|_| poisoned())?;
            core.check_actions(actions).map_err(step_error)?;
        }
        let target = self.target(py);
        // Errors before the pass (buffers borrowed elsewhere) change nothing; a caught
        // panic may leave the envs half-stepped.
        match self.run_unguarded(py, op, target)? {
            Ok(()) => {
                self.current = target;
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                Err(e)
            }
        }
    }

    /// `Err`: the pass did not start; `Ok(result)`: the pass's own result.
    fn run_unguarded(
        &mut self,
        py: Python<'_>,
        op: Op<'_>,
        target: usize,
    ) -> PyResult<PyResult<()>> {
        let core = self.core.get_mut().map_err(|_| poisoned())?;
        let out = &self.sets[target];
        let mut mask = out.mask.bind(py).try_readwrite()?;
        let mut reward = out.reward.bind(py).try_readwrite()?;
        let mut term = out.terminated.bind(py).try_readwrite()?;
        let mut trunc = out.truncated.bind(py).try_readwrite()?;
        let mut to_play = out.to_play.bind(py).try_readwrite()?;
        let mask = mask.as_slice_mut()?;
        let reward = reward.as_slice_mut()?;
        let terminated = term.as_slice_mut()?;
        let truncated = trunc.as_slice_mut()?;
        let to_play = to_play.as_slice_mut()?;
        macro_rules! go {
            ($o:expr, $st:expr) => {{
                let mut o = $o.bind(py).try_readwrite()?;
                let mut st = match $st {
                    Some(st) => Some(st.bind(py).try_readwrite()?),
                    None => None,
                };
                let bufs = Buffers {
                    obs: o.as_slice_mut()?,
                    mask,
                    reward,
                    terminated,
                    truncated,
                    to_play,
                    state: match st.as_mut() {
                        Some(st) => st.as_slice_mut()?,
                        None => &mut [],
                    },
                };
                Ok(py.allow_threads(|| {
                    super::guard("VectorEnv", || {
                        run_op(core, op, bufs);
                        Ok(())
                    })
                }))
            }};
        }
        // The state tensors, when asked for, have the observations' dtype.
        match (&out.obs, &out.state) {
            (ObsBuf::F32(o), Some(ObsBuf::F32(st))) => go!(o, Some(st)),
            (ObsBuf::U8(o), Some(ObsBuf::U8(st))) => go!(o, Some(st)),
            (ObsBuf::F32(o), _) => go!(o, None::<&Py<PyArray2<f32>>>),
            (ObsBuf::U8(o), _) => go!(o, None::<&Py<PyArray2<u8>>>),
        }
    }

    fn out(&self) -> &Outputs {
        &self.sets[self.current]
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (
        num_envs, variant = Arg(None), scoring = Arg(None), seed = Arg(None), *,
        episode = Arg(None), max_rounds = Arg(None), self_play = false, learner_seat = Arg(None),
        opponents = Arg(None), reward_mode = Arg(None), num_threads = Arg(None), obs_dtype = "float32",
        env_offset = 0, copy = true, state_tensor = false
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
        copy: bool,
        state_tensor: bool,
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
        let learner = parse_learner(self_play, learner_seat, n)?;
        let opponent_names = parse_opponents(opponents, n)?;
        let reward = match reward_mode.0 {
            None => RewardMode::Win,
            Some(r) => parse_reward(&r)?,
        };
        let num_threads = parse_num_threads(num_threads)?;
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
        let obs_u8 = parse_obs_u8(obs_dtype)?;
        let shape = Shape {
            num_envs,
            obs: observation_size(config.variant),
            actions: config.num_actions(),
            rewards: if learner.is_some() { 1 } else { n },
            states: if state_tensor {
                state_size(config.variant)
            } else {
                0
            },
            obs_u8,
        };
        let mut env = PyVectorEnv {
            core: Mutex::new(core),
            env_offset,
            num_threads,
            shape,
            fresh: copy,
            sets: vec![Outputs::new(py, shape)],
            current: 0,
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
    /// first, in parallel: if any is illegal, :class:`IllegalActionError` names the env and
    /// nothing changes. Then all envs step in parallel (bots move, finished games reset).
    /// With ``copy=True`` the results go to arrays nobody else holds (the buffer
    /// properties then return those); with ``copy=False`` the buffers are overwritten.
    fn step_all(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        self.run(py, Op::Step(actions.as_slice()?))
    }

    /// :meth:`step_all`, returning the results: ``(observations, rewards, terminated,
    /// truncated, masks, to_play)`` (for the Python class's ``step``).
    #[allow(clippy::type_complexity)]
    fn _step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray2<bool>>,
        Bound<'py, PyArray1<i64>>,
        Option<Bound<'py, PyAny>>,
    )> {
        let strided;
        let acts = match actions.as_slice() {
            Ok(a) => a,
            Err(_) => {
                strided = actions.to_vec()?;
                &strided[..]
            }
        };
        self.run(py, Op::Step(acts))?;
        let o = self.out();
        Ok((
            o.obs(py),
            o.reward.bind(py).clone(),
            o.terminated.bind(py).clone(),
            o.truncated.bind(py).clone(),
            o.mask.bind(py).clone(),
            o.to_play.bind(py).clone(),
            o.state(py),
        ))
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

    /// Threads that step the envs (the caller's and its rayon pool's).
    #[getter]
    fn num_threads(&self) -> usize {
        self.num_threads
    }

    /// Observations ``[num_envs, D]`` (float32 or uint8) after the last call. With
    /// ``copy=False`` one buffer, overwritten by every call; with ``copy=True`` the array
    /// the last call returned (never overwritten while anyone holds it).
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.out().obs(py)
    }

    /// The privileged state tensors ``[num_envs, state_size]`` (docs/state_tensor.md) of
    /// every env's game now, in the observations' dtype; ``None`` unless the env was made
    /// with ``state_tensor=True``. Never give them to a policy that plays.
    #[getter]
    fn states<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.out().state(py)
    }

    /// Whether results go to arrays nobody else holds (``True``) or overwrite one set of
    /// buffers (``False``).
    #[getter]
    fn copy(&self) -> bool {
        self.fresh
    }

    /// Legal-action masks ``[num_envs, num_actions]`` (bool) for the decision now pending.
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.out().mask.bind(py).clone()
    }

    /// Rewards of the last step: ``[num_envs, 1]`` (learner mode) or ``[num_envs,
    /// num_players]`` (self-play: every seat's reward).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.out().reward.bind(py).clone()
    }

    /// Whether each env's episode ended by the rules on the last step (it has been reset).
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.out().terminated.bind(py).clone()
    }

    /// Whether each env's episode hit the round cap on the last step (it has been reset).
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.out().truncated.bind(py).clone()
    }

    /// The seat to move in each env now.
    #[getter]
    fn to_play<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.out().to_play.bind(py).clone()
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

//! `yokai_septet._core.VectorEnv`: many games stepped in Rust on a rayon pool with the GIL
//! released, writing straight into preallocated numpy buffers.
//!
//! Determinism: env `i`'s `e`-th episode is dealt from `derive(seed, i, e, 0)` and its bots
//! are reseeded from `derive(seed, i, e, 1 + seat)` at every reset, so every env's
//! trajectory depends only on the master seed and its own actions — never on the thread
//! count or on how the pool splits the work.

use std::sync::Mutex;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

use super::bot::make_bot;
use super::game::render;
use super::{extract_integer, extract_seed, parse_config, Arg, IllegalActionError};
use crate::bots::Bot;
use crate::config::GameConfig;
use crate::observation::{encode, observation_size, write_mask, ObsValue};
use crate::reward::{rewards, RewardMode};
use crate::state::State;

/// SplitMix64 finaliser.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed for stream `k` of episode `episode` of env `env` under master seed `seed`.
#[inline]
pub(crate) fn derive(seed: u64, env: u64, episode: u64, k: u64) -> u64 {
    let mut h = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
    for x in [env, episode, k] {
        h = mix(h ^ x.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
    h
}

/// What every env shares.
#[derive(Clone, Copy)]
struct Shared {
    config: GameConfig,
    seed: u64,
    /// `None`: self-play (the caller acts for whichever seat is to move).
    /// `Some(None)`: learner seat drawn per episode; `Some(Some(s))`: fixed seat `s`.
    learner: Option<Option<u8>>,
    reward: RewardMode,
    /// Env `i` of this object is env `env_offset + i` of the seed derivation.
    env_offset: u64,
}

struct Slot {
    index: u64,
    episode: u64,
    state: State,
    /// The seat the caller plays (learner mode); unused in self-play.
    learner: u8,
    /// One bot per seat, reseeded at every reset. Learner mode: the opponents (the
    /// learner's seat's bot is idle); self-play: what `bot_actions` asks.
    bots: Vec<Box<dyn Bot>>,
}

/// One env's row of every output buffer.
struct Row<'a, T> {
    obs: &'a mut [T],
    mask: &'a mut [bool],
    reward: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    to_play: &'a mut i64,
}

impl Slot {
    /// This env's position in the object (its index less the offset).
    fn position(&self, sh: &Shared) -> usize {
        self.index.wrapping_sub(sh.env_offset) as usize
    }

    fn reset(&mut self, sh: &Shared) {
        let mut config = sh.config;
        config.seed = derive(sh.seed, self.index, self.episode, 0);
        self.state = State::new(config);
        let n = config.num_players() as u64;
        self.learner = match sh.learner {
            Some(Some(s)) => s,
            _ => (derive(sh.seed, self.index, self.episode, 99) % n) as u8,
        };
        for (p, b) in self.bots.iter_mut().enumerate() {
            b.reseed(derive(sh.seed, self.index, self.episode, 1 + p as u64));
        }
    }

    /// Lets the bots move until it is the learner's turn or the game is over, adding the
    /// learner's rewards to `acc`.
    fn run_bots(&mut self, sh: &Shared, acc: &mut [f32; 4]) {
        if sh.learner.is_none() {
            return;
        }
        while let Some(p) = self.state.current_player() {
            if p == self.learner as usize {
                break;
            }
            let card = self.bots[p].act(&self.state.view(p));
            let out = self
                .state
                .apply(card)
                .expect("a bot returned an illegal action");
            add(acc, rewards(sh.reward, &out, &self.state));
        }
    }

    /// The seat whose observation is written: the learner, or the player to move.
    fn observer(&self, sh: &Shared) -> usize {
        match sh.learner {
            Some(_) => self.learner as usize,
            None => self.state.current_player().unwrap_or(0),
        }
    }

    fn write<T: ObsValue>(&self, sh: &Shared, row: &mut Row<'_, T>) {
        let seat = self.observer(sh);
        let view = self.state.view(seat);
        encode(&view, row.obs);
        write_mask(view.legal_actions(), row.mask);
        *row.to_play = self.state.current_player().map_or(-1, |p| p as i64);
    }

    /// Applies `action` (already checked legal), runs the bots, auto-resets at the end.
    fn step<T: ObsValue>(&mut self, sh: &Shared, action: u8, row: &mut Row<'_, T>) {
        let mut acc = [0f32; 4];
        let card = crate::card::Card::new(action).expect("checked");
        let out = self.state.apply(card).expect("checked legal");
        add(&mut acc, rewards(sh.reward, &out, &self.state));
        self.run_bots(sh, &mut acc);
        match sh.learner {
            Some(_) => row.reward[0] = acc[self.learner as usize],
            None => row.reward.copy_from_slice(&acc[..row.reward.len()]),
        }
        *row.terminated = self.state.is_over() && !self.state.is_truncated();
        *row.truncated = self.state.is_truncated();
        if self.state.is_over() {
            self.episode += 1;
            self.reset(sh);
            self.run_bots(sh, &mut [0f32; 4]);
        }
        self.write(sh, row);
    }
}

#[inline]
fn add(acc: &mut [f32; 4], r: [f32; 4]) {
    for (a, x) in acc.iter_mut().zip(r) {
        *a += x;
    }
}

/// Observation buffer of either dtype.
enum ObsBuf {
    F32(Py<PyArray2<f32>>),
    U8(Py<PyArray2<u8>>),
}

/// Many games stepped together in Rust (see the Python class ``yokai_septet.VectorEnv``,
/// which wraps this one with the Gymnasium-style API).
#[pyclass(module = "yokai_septet._core", name = "VectorEnv", subclass)]
pub struct PyVectorEnv {
    shared: Shared,
    slots: Mutex<Vec<Slot>>,
    pool: rayon::ThreadPool,
    num_threads: usize,
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

impl PyVectorEnv {
    fn with_rows<R>(
        &mut self,
        py: Python<'_>,
        f: impl Fn(&mut Slot, &Shared, &mut Row<'_, f32>) -> R + Sync,
        g: impl Fn(&mut Slot, &Shared, &mut Row<'_, u8>) -> R + Sync,
    ) -> PyResult<()>
    where
        R: Send,
    {
        let sh = self.shared;
        let slots = self
            .slots
            .get_mut()
            .map_err(|_| PyRuntimeError::new_err("this VectorEnv failed earlier (poisoned)"))?;
        let mut mask = self.mask.bind(py).try_readwrite()?;
        let mut reward = self.reward.bind(py).try_readwrite()?;
        let mut term = self.terminated.bind(py).try_readwrite()?;
        let mut trunc = self.truncated.bind(py).try_readwrite()?;
        let mut to_play = self.to_play.bind(py).try_readwrite()?;
        let mask = mask.as_slice_mut()?;
        let reward = reward.as_slice_mut()?;
        let term = term.as_slice_mut()?;
        let trunc = trunc.as_slice_mut()?;
        let to_play = to_play.as_slice_mut()?;
        let n = slots.len();
        let a = mask.len() / n;
        let r = reward.len() / n;
        let pool = &self.pool;
        macro_rules! run {
            ($obs:expr, $f:expr) => {{
                let obs = $obs;
                let d = obs.len() / n;
                py.allow_threads(|| {
                    super::guard("VectorEnv", || {
                        pool.install(|| {
                            slots
                                .par_iter_mut()
                                .zip(obs.par_chunks_mut(d))
                                .zip(mask.par_chunks_mut(a))
                                .zip(reward.par_chunks_mut(r))
                                .zip(term.par_iter_mut())
                                .zip(trunc.par_iter_mut())
                                .zip(to_play.par_iter_mut())
                                .with_min_len(16)
                                .for_each(
                                    |(
                                        (((((slot, obs), mask), reward), terminated), truncated),
                                        to_play,
                                    )| {
                                        let mut row = Row {
                                            obs,
                                            mask,
                                            reward,
                                            terminated,
                                            truncated,
                                            to_play,
                                        };
                                        $f(slot, &sh, &mut row);
                                    },
                                );
                        });
                        Ok(())
                    })
                })
            }};
        }
        match &self.obs {
            ObsBuf::F32(o) => {
                let mut o = o.bind(py).try_readwrite()?;
                run!(o.as_slice_mut()?, f)
            }
            ObsBuf::U8(o) => {
                let mut o = o.bind(py).try_readwrite()?;
                run!(o.as_slice_mut()?, g)
            }
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
        let mut slots = Vec::with_capacity(num_envs);
        for i in 0..num_envs {
            let bots = opponent_names
                .iter()
                .map(|name| make_bot(name, 0))
                .collect::<PyResult<Vec<_>>>()?;
            slots.push(Slot {
                index: env_offset.wrapping_add(i as u64),
                episode: 0,
                state: State::new(config),
                learner: 0,
                bots,
            });
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(num_threads)
            .build()
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start the thread pool: {e}")))?;
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
            shared,
            slots: Mutex::new(slots),
            pool,
            num_threads,
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
            self.shared.seed = extract_seed(s)?;
        }
        fn go<T: ObsValue>(slot: &mut Slot, sh: &Shared, row: &mut Row<'_, T>) {
            slot.episode = 0;
            slot.reset(sh);
            slot.run_bots(sh, &mut [0f32; 4]);
            row.reward.fill(0.0);
            *row.terminated = false;
            *row.truncated = false;
            slot.write(sh, row);
        }
        self.with_rows(py, go::<f32>, go::<u8>)
    }

    /// Applies one action per env (an ``int64`` array of length ``num_envs``): the learner's
    /// decision, or in self-play the decision of the seat to move. Every action is checked
    /// first: if any is illegal, :class:`IllegalActionError` names the env and nothing
    /// changes. Then all envs step in parallel (bots move, finished games reset).
    fn step_all(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let acts = actions.as_slice()?;
        {
            let slots = self
                .slots
                .get_mut()
                .map_err(|_| PyRuntimeError::new_err("this VectorEnv failed earlier (poisoned)"))?;
            if acts.len() != slots.len() {
                return Err(PyValueError::new_err(format!(
                    "expected {} actions (one per env), got {}",
                    slots.len(),
                    acts.len()
                )));
            }
            for (i, (slot, &a)) in slots.iter().zip(acts).enumerate() {
                let legal = slot.state.legal_actions();
                if !(0..56).contains(&a)
                    || !crate::card::Card::new(a as u8).is_some_and(|c| legal.contains(c))
                {
                    let mut probe = slot.state;
                    let why = match probe.apply_action(a as i128) {
                        Err(e) => e.to_string(),
                        Ok(_) => "not legal".into(),
                    };
                    return Err(IllegalActionError::new_err(format!(
                        "illegal action in env {i}: {why}"
                    )));
                }
            }
        }
        let acts: Vec<u8> = acts.iter().map(|&a| a as u8).collect();
        let acts = &acts;
        // Each slot knows its index, so it can find its action.
        self.with_rows(
            py,
            |slot, sh, row| slot.step(sh, acts[slot.position(sh)], row),
            |slot, sh, row| slot.step(sh, acts[slot.position(sh)], row),
        )
    }

    /// The action the ``opponents`` bots choose for each env's pending decision (an
    /// ``int64`` array, ``-1`` where none is pending; nothing is applied). In self-play the
    /// bot of the seat to move decides, in learner mode the bot of the learner's seat. Each
    /// env's bots are reseeded from the master seed at every episode, so with
    /// ``step(env.bot_actions())`` trajectories are deterministic: this turns a built-in
    /// bot into a self-play policy.
    fn bot_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let slots = self
            .slots
            .get_mut()
            .map_err(|_| PyRuntimeError::new_err("this VectorEnv failed earlier (poisoned)"))?;
        let pool = &self.pool;
        let out: Vec<i64> = py.allow_threads(|| {
            super::guard("VectorEnv.bot_actions", || {
                Ok(pool.install(|| {
                    slots
                        .par_iter_mut()
                        .with_min_len(16)
                        .map(|s| match s.state.current_player() {
                            Some(p) => s.bots[p].act(&s.state.view(p)).id() as i64,
                            None => -1,
                        })
                        .collect()
                }))
            })
        })?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// Env ``i`` of this object is env ``env_offset + i`` of the seed derivation (so that
    /// several objects can together step the envs of one larger, master-seeded batch).
    #[getter]
    fn env_offset(&self) -> u64 {
        self.shared.env_offset
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
        let slots = self.lock()?;
        Ok(slots
            .iter()
            .map(|s| match self.shared.learner {
                Some(_) => s.learner as i64,
                None => s.state.current_player().map_or(-1, |p| p as i64),
            })
            .collect())
    }

    /// Episodes finished so far by each env.
    fn episodes(&self) -> PyResult<Vec<u64>> {
        let slots = self.lock()?;
        Ok(slots.iter().map(|s| s.episode).collect())
    }

    /// The seed env ``i``'s current game was dealt from (``Game(..., seed=that)`` replays it).
    fn game_seed(&self, i: &Bound<'_, PyAny>) -> PyResult<u64> {
        self.with_slot(i, |s| s.state.config().seed)
    }

    /// A text picture of env ``i``'s game (every hand shown).
    fn render_env(&self, i: &Bound<'_, PyAny>) -> PyResult<String> {
        self.with_slot(i, |s| render(&s.state))
    }
}

impl PyVectorEnv {
    fn to_play_len(&self) -> usize {
        self.slots.lock().map_or(0, |s| s.len())
    }

    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Vec<Slot>>> {
        self.slots
            .lock()
            .map_err(|_| PyRuntimeError::new_err("this VectorEnv failed earlier (poisoned)"))
    }

    /// Env `i`'s slot, read through `f`.
    /// An env index like a seat: an integer (`TypeError` otherwise) in `0..num_envs`
    /// (`ValueError` otherwise, never an `OverflowError`).
    fn with_slot<T>(&self, i: &Bound<'_, PyAny>, f: impl FnOnce(&Slot) -> T) -> PyResult<T> {
        let k = extract_integer(i, "env index")?;
        let slots = self.lock()?;
        k.and_then(|k| usize::try_from(k).ok())
            .and_then(|k| slots.get(k))
            .map(f)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "env {} is out of range: envs are 0..{}",
                    i.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                    slots.len().saturating_sub(1)
                ))
            })
    }
}

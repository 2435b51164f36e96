//! `yokai_septet._core.VectorEnv`: the Python face of [`crate::rl::vector::VecCore`] (many
//! games stepped in Rust on a small pool of threads with the GIL released), writing
//! straight into preallocated numpy buffers, and of its [`Pipeline`] (asynchronous
//! send/recv). Every array comes from the output table ([`OUTPUTS`]): one numpy array per
//! output, built, recycled, borrowed and returned by the walks below, never by name.
//! Determinism is documented in [`crate::vector`].

use std::sync::Mutex;
use std::time::Duration;

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadwriteArrayDyn};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::{
    borrow, borrow_mut, extract_integer, extract_seed, parse_config, Arg, IllegalActionError,
    InUse, VectorEnvInUseError,
};
use crate::rl::observation::ObsValue;
use crate::rl::reward::RewardMode;
use crate::rl::vector::{
    Autoreset, Batch, Build, Elem, Extras, Family, Layout, Learner, Map, MapMut, MapRef, Output,
    Outputs, Owned, Per, Pipeline, PipelineError, Shared, Slices, Slot, Spin, StepError, VecCore,
    VecCoreError, Visit, OUTPUTS,
};

/// One numpy array per output (`None`: not produced).
struct Arrays;
impl Family for Arrays {
    type Of<E: Elem> = Option<Py<PyArrayDyn<E>>>;
}

/// The arrays, borrowed for writing during a pass.
struct Guards<'py>(std::marker::PhantomData<&'py ()>);
impl<'py> Family for Guards<'py> {
    type Of<E: Elem> = Option<PyReadwriteArrayDyn<'py, E>>;
}

/// The numpy shape of `out` for `rows` envs, or `None` when it is not produced.
fn shape(layout: &Layout, out: Output) -> Option<Vec<usize>> {
    let w = layout.widths[out as usize];
    match (w, OUTPUTS[out as usize].per) {
        (0, _) => None,
        (_, Per::Value) => Some(vec![layout.rows]),
        (w, Per::Row) => Some(vec![layout.rows, w]),
    }
}

/// Zeroed arrays for a layout.
struct NewArrays<'py>(Python<'py>, Layout);
impl Build<Arrays> for NewArrays<'_> {
    fn build<E: Elem>(&mut self, out: Output) -> Option<Py<PyArrayDyn<E>>> {
        let s = shape(&self.1, out)?;
        Some(PyArrayDyn::<E>::zeros(self.0, &s[..], false).unbind())
    }
}

/// Whether every array has no other reference than ours.
struct IsFree<'py>(Python<'py>, bool);
impl Visit<Arrays> for IsFree<'_> {
    fn visit<E: Elem>(&mut self, _: Output, x: &Option<Py<PyArrayDyn<E>>>) {
        self.1 &= x.as_ref().is_none_or(|a| a.get_refcnt(self.0) == 1);
    }
}

/// The arrays as Python objects (`None` where not produced), in table order; `final_obs`
/// only if `.2` (some episode ended), so that Python looks at it only then.
struct ToPy<'py>(Python<'py>, Vec<PyObject>, bool);
impl Visit<Arrays> for ToPy<'_> {
    fn visit<E: Elem>(&mut self, out: Output, x: &Option<Py<PyArrayDyn<E>>>) {
        let obj = match x {
            Some(a) if out != Output::final_obs || self.2 => a.clone_ref(self.0).into_any(),
            _ => self.0.None(),
        };
        self.1.push(obj);
    }
}

/// One array by name.
struct Named<'py>(Python<'py>, Output, Option<PyObject>);
impl Visit<Arrays> for Named<'_> {
    fn visit<E: Elem>(&mut self, out: Output, x: &Option<Py<PyArrayDyn<E>>>) {
        if out == self.1 {
            self.2 = x.as_ref().map(|a| a.clone_ref(self.0).into_any());
        }
    }
}

/// Borrows every array for writing (the first refusal is kept).
struct Borrow<'py>(Python<'py>, Option<PyErr>);
impl<'py> MapRef<Arrays, Guards<'py>> for Borrow<'py> {
    fn map<E: Elem>(
        &mut self,
        _: Output,
        x: &Option<Py<PyArrayDyn<E>>>,
    ) -> Option<PyReadwriteArrayDyn<'py, E>> {
        let a = x.as_ref()?.bind(self.0).clone();
        match a.try_readwrite() {
            Ok(g) => Some(g),
            Err(e) => {
                self.1.get_or_insert(e.into());
                None
            }
        }
    }
}

/// The borrowed arrays as slices (an array that is not produced: empty).
struct GuardSlices;
impl<'s, 'py: 's> MapMut<'s, Guards<'py>, Slices<'s>> for GuardSlices {
    fn map<E: Elem>(
        &mut self,
        _: Output,
        x: &'s mut Option<PyReadwriteArrayDyn<'py, E>>,
    ) -> &'s mut [E] {
        match x {
            Some(g) => g.as_slice_mut().unwrap_or_default(),
            None => Default::default(),
        }
    }
}

/// Vectors handed to numpy without a copy (the asynchronous batches).
struct Adopt<'py>(Python<'py>, Layout);
impl Map<Owned, Arrays> for Adopt<'_> {
    fn map<E: Elem>(&mut self, out: Output, x: Vec<E>) -> Option<Py<PyArrayDyn<E>>> {
        let s = shape(&self.1, out)?;
        let flat = PyArray1::from_vec(self.0, x);
        // A contiguous reshape is a view of the same buffer.
        let a = flat
            .reshape(&s[..])
            .unwrap_or_else(|_| flat.to_dyn().clone());
        Some(a.unbind())
    }
}

/// The sets of output arrays, in the observation dtype.
enum Sets {
    F32(Vec<Outputs<Arrays, f32>>),
    U8(Vec<Outputs<Arrays, u8>>),
}

/// Runs `$body` with `$s` bound to the typed sets (`$t`: the observation type).
macro_rules! with_sets {
    ($sets:expr, |$s:ident: $t:ident| $body:expr) => {
        match $sets {
            Sets::F32($s) => {
                #[allow(dead_code)]
                type $t = f32;
                $body
            }
            Sets::U8($s) => {
                #[allow(dead_code)]
                type $t = u8;
                $body
            }
        }
    };
}

/// The envs: stepped together (`Sync`), or by groups in the background (`Async`).
enum Mode {
    Sync(VecCore),
    F32(Pipeline<f32>),
    U8(Pipeline<u8>),
    /// Only while converting from one to the other.
    Moving,
}

/// Most sets of output arrays kept for reuse (`copy=True`): two are enough for the usual
/// loop (the caller holds the last step's arrays while the next step writes); more only
/// help a caller that keeps a few steps' arrays around.
const MAX_SETS: usize = 4;

/// Many games stepped together in Rust (see the Python class ``yokai_septet.VectorEnv``,
/// which wraps this one with the Gymnasium-style API).
#[pyclass(module = "yokai_septet._core", name = "VectorEnv", subclass)]
pub struct PyVectorEnv {
    mode: Mutex<Mode>,
    /// Copies of the core's settings, readable without its lock.
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

fn parse_reward(obj: &Bound<'_, PyAny>) -> PyResult<RewardMode> {
    match obj.extract::<String>() {
        Ok(s) => super::parse_reward_mode(&s),
        Err(_) => super::parse_reward_mode(&obj.repr()?.to_string()),
    }
}

/// An index argument in `0..n` (`None` when given as `None`), or a `ValueError`.
fn parse_index(obj: &Bound<'_, PyAny>, what: &str, n: usize, valid: &str) -> PyResult<Option<u8>> {
    if obj.is_none() {
        return Ok(None);
    }
    match extract_integer(obj, what)? {
        Some(v) if (0..n as i128).contains(&v) => Ok(Some(v as u8)),
        _ => Err(PyValueError::new_err(format!(
            "{what} {} is out of range: {valid}",
            obj.repr()?
        ))),
    }
}

/// `self_play`, `learner_seat` and `learner_team` as a [`Learner`] (ranges are checked
/// here, before they narrow to `u8`).
fn parse_learner(
    self_play: bool,
    learner_seat: Arg<'_>,
    learner_team: Arg<'_>,
    n: usize,
) -> PyResult<Learner> {
    let given = |a: &Arg<'_>| a.0.is_some();
    if self_play {
        if learner_seat.0.as_ref().is_some_and(|s| !s.is_none()) || given(&learner_team) {
            return Err(PyValueError::new_err(
                "learner_seat and learner_team make no sense with self_play=True \
                 (the caller plays every seat)",
            ));
        }
        return Ok(Learner::SelfPlay);
    }
    if let Some(t) = learner_team.0 {
        if given(&learner_seat) {
            return Err(PyValueError::new_err(
                "give learner_seat or learner_team, not both",
            ));
        }
        let valid = "teams are 0 (seats 0, 2) and 1 (seats 1, 3), or None: drawn per game";
        if n != 4 {
            return Err(PyValueError::new_err(
                "learner_team needs a 4-player variant (3p has no teams)",
            ));
        }
        return Ok(Learner::Team(parse_index(&t, "learner_team", 2, valid)?));
    }
    Ok(match learner_seat.0 {
        None => Learner::Seat(Some(0)),
        Some(s) => {
            let valid = format!("seats are 0..{} (or None: drawn per game)", n - 1);
            Learner::Seat(parse_index(&s, "learner_seat", n, &valid)?)
        }
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

/// A positive integer argument in `1..=max`, or `default` for `None` / not given.
fn parse_count(arg: Arg<'_>, what: &str, max: usize, default: usize) -> PyResult<usize> {
    Ok(match arg.0 {
        None => default,
        Some(t) if t.is_none() => default,
        Some(t) => match extract_integer(&t, what)? {
            Some(v) if (1..=max as i128).contains(&v) => v as usize,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "{what} {} is out of range: it must be an integer in 1..{max} (or None)",
                    t.repr()?
                )))
            }
        },
    })
}

/// `spin_us`: microseconds in `0..=10_000_000`, or `None`: [`Spin::Adaptive`].
fn parse_spin(s: &Bound<'_, PyAny>) -> PyResult<Spin> {
    if s.is_none() {
        return Ok(Spin::Adaptive);
    }
    match extract_integer(s, "spin_us")? {
        Some(v) if (0..=10_000_000).contains(&v) => {
            Ok(Spin::Fixed(Duration::from_micros(v as u64)))
        }
        _ => Err(PyValueError::new_err(format!(
            "spin_us {} is out of range: it must be an integer in 0..10_000_000",
            s.repr()?
        ))),
    }
}

/// `autoreset_mode`: a `gymnasium.vector.AutoresetMode` (its value is read), its value
/// (`"NextStep"`, ...) or the snake-case name (`"next_step"`, ...), in any case;
/// `None`: [`Autoreset::NextStep`], gymnasium's default (its vector wrappers assume it,
/// and its outputs are plain arrays: no object array that DLPack refuses).
fn parse_autoreset(arg: Arg<'_>) -> PyResult<Autoreset> {
    let Some(obj) = arg.0.filter(|o| !o.is_none()) else {
        return Ok(Autoreset::NextStep);
    };
    let text = match obj.extract::<String>() {
        Ok(s) => Some(s),
        // An enum member: gymnasium's AutoresetMode holds its name in `value`.
        Err(_) => obj
            .getattr("value")
            .ok()
            .and_then(|v| v.extract::<String>().ok()),
    };
    let key = text
        .as_deref()
        .map(|t| t.replace('_', "").to_ascii_lowercase());
    match key.as_deref() {
        Some("samestep") => Ok(Autoreset::SameStep),
        Some("nextstep") => Ok(Autoreset::NextStep),
        Some("disabled") => Ok(Autoreset::Disabled),
        _ => Err(PyValueError::new_err(format!(
            "unknown autoreset_mode {}: valid modes are gymnasium.vector.AutoresetMode's \
             NEXT_STEP, SAME_STEP and DISABLED, or \"next_step\", \"same_step\", \"disabled\"",
            obj.repr()?
        ))),
    }
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
        StepError::Over { .. } => PyRuntimeError::new_err(e.to_string()),
    }
}

fn pipeline_error(e: PipelineError) -> PyErr {
    match e {
        PipelineError::Step(s) => step_error(s),
        PipelineError::EnvIds(_) | PipelineError::BatchSize { .. } => {
            PyValueError::new_err(e.to_string())
        }
        PipelineError::Failed(_) => PyRuntimeError::new_err(format!(
            "{e} (please report this bug); this VectorEnv is unusable: create a new one"
        )),
        PipelineError::InFlight { .. }
        | PipelineError::NothingSent
        | PipelineError::NotHeld { .. } => PyRuntimeError::new_err(e.to_string()),
    }
}

/// What one pass over every env does.
#[derive(Clone, Copy)]
enum Op<'a> {
    Reset(Option<u64>),
    /// The envs whose entry is set (one per env).
    ResetSome(&'a [bool]),
    /// Actions already checked by [`VecCore::check_actions`].
    Step(&'a [i64]),
}

/// The set of `sets` the next pass writes: in `copy=True` mode one that nobody else
/// holds (recycled, or new when the caller still holds every kept set).
fn target<T: ObsValue + Elem>(
    py: Python<'_>,
    sets: &mut Vec<Outputs<Arrays, T>>,
    current: usize,
    fresh: bool,
    layout: Layout,
) -> usize {
    if !fresh {
        return current;
    }
    let free = |s: &Outputs<Arrays, T>| {
        let mut v = IsFree(py, true);
        s.visit(&mut v);
        v.1
    };
    if let Some(i) = sets.iter().position(free) {
        return i;
    }
    let new = Outputs::build(&mut NewArrays(py, layout));
    if sets.len() < MAX_SETS {
        sets.push(new);
        return sets.len() - 1;
    }
    // Forget the oldest kept set (its holder keeps it) for a new one.
    let i = (current + 1) % sets.len();
    sets[i] = new;
    i
}

/// Runs `op` over every env of `core` with the GIL released, writing into `out`.
/// `Err`: the pass did not start; `Ok(result)`: the pass's own result, `Ok(true)` when
/// some env's episode ended.
fn run_pass<T: ObsValue + Elem>(
    py: Python<'_>,
    core: &mut VecCore,
    op: Op<'_>,
    out: &Outputs<Arrays, T>,
) -> PyResult<PyResult<bool>> {
    let mut borrow = Borrow(py, None);
    let mut guards = out.map_ref(&mut borrow);
    if let Some(e) = borrow.1 {
        return Err(e);
    }
    let slices = guards.map_mut(&mut GuardSlices);
    let result = py.allow_threads(|| {
        super::guard("VectorEnv", || {
            match op {
                Op::Reset(seed) => core.reset(seed, slices),
                Op::ResetSome(mask) => core.reset_some(mask, slices),
                Op::Step(actions) => core.step_checked(actions, slices),
            }
            Ok(())
        })
    });
    // Read while the arrays are still borrowed (a borrow costs more than the read).
    let set = |g: &Option<PyReadwriteArrayDyn<'_, bool>>| {
        g.as_ref()
            .is_some_and(|g| g.as_slice().is_ok_and(|s| s.contains(&true)))
    };
    Ok(result.map(|()| set(&guards.terminated) || set(&guards.truncated)))
}

/// The arrays of a set, as a tuple in table order (`None` where not produced, and for
/// `final_obs` unless `ended`: some episode ended).
fn to_tuple<'py, T: ObsValue + Elem>(
    py: Python<'py>,
    o: &Outputs<Arrays, T>,
    ended: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let mut v = ToPy(py, Vec::with_capacity(OUTPUTS.len()), ended);
    o.visit(&mut v);
    PyTuple::new(py, v.1)
}

impl PyVectorEnv {
    /// The envs as one core (a pipeline is turned back into one: refused while groups are
    /// in flight).
    fn core(&mut self) -> PyResult<&mut VecCore> {
        if self.failed {
            return Err(poisoned());
        }
        let mode = self.mode.get_mut().map_err(|_| poisoned())?;
        if !matches!(mode, Mode::Sync(_)) {
            let back = match std::mem::replace(mode, Mode::Moving) {
                Mode::F32(p) => p.into_core().map_err(|b| (Mode::F32(b.0), b.1)),
                Mode::U8(p) => p.into_core().map_err(|b| (Mode::U8(b.0), b.1)),
                m => unreachable!("not a pipeline: {}", matches!(m, Mode::Moving)),
            };
            *mode = match back {
                Ok(core) => Mode::Sync(core),
                Err((m, e)) => {
                    *mode = m;
                    return Err(pipeline_error(e));
                }
            };
        }
        match mode {
            Mode::Sync(core) => Ok(core),
            _ => unreachable!(),
        }
    }

    /// The envs as a pipeline (a core is turned into one).
    fn pipeline(&mut self) -> PyResult<&mut Mode> {
        if self.failed {
            return Err(poisoned());
        }
        let (b, extras) = (self.batch_size, self.layout_extras());
        let u8 = matches!(self.sets, Sets::U8(_));
        let mode = self.mode.get_mut().map_err(|_| poisoned())?;
        if let Mode::Sync(_) = mode {
            let Mode::Sync(core) = std::mem::replace(mode, Mode::Moving) else {
                unreachable!()
            };
            let made = if u8 {
                core.into_pipeline::<u8>(b, extras).map(Mode::U8)
            } else {
                core.into_pipeline::<f32>(b, extras).map(Mode::F32)
            };
            *mode = match made {
                Ok(m) => m,
                Err(b) => {
                    let (core, e) = *b;
                    *mode = Mode::Sync(core);
                    return Err(pipeline_error(e));
                }
            };
        }
        Ok(mode)
    }

    /// The optional outputs the sync passes write.
    fn layout_extras(&self) -> Extras {
        Extras {
            state_tensor: self.layout.widths[Output::state as usize] > 0,
            env_ids: false,
            final_obs: self.layout.widths[Output::final_obs as usize] > 0,
        }
    }

    /// Runs `op` on every env with the GIL released, writing into the next set of output
    /// arrays, which become the current ones.
    fn run(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<()> {
        let core = self.core()?;
        if let Op::Step(actions) = op {
            // With the GIL held: a refused batch never lets another Python thread find
            // this object busy.
            core.check_actions(actions).map_err(step_error)?;
        }
        let (current, fresh, layout) = (self.current, self.fresh, self.layout);
        let Mode::Sync(core) = self.mode.get_mut().map_err(|_| poisoned())? else {
            unreachable!("core() made it a core")
        };
        // Errors before the pass (arrays borrowed elsewhere) change nothing; a caught
        // panic may leave the envs half-stepped.
        let (target, result) = with_sets!(&mut self.sets, |sets: T| {
            let t = target::<T>(py, sets, current, fresh, layout);
            (t, run_pass(py, core, op, &sets[t])?)
        });
        match result {
            Ok(ended) => {
                self.current = target;
                self.ended = ended;
                self.received.iter_mut().for_each(|r| *r = None);
                self.async_view = false;
                self.assembled = None;
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                Err(e)
            }
        }
    }

    /// The current set's arrays as a tuple.
    fn current_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        with_sets!(&self.sets, |s: T| to_tuple(
            py,
            &s[self.current],
            self.ended
        ))
    }

    /// One array of the envs' state now (`None` when it is not produced), or why it is
    /// not known (`what`: the property asked for).
    fn current_array(&mut self, py: Python<'_>, out: Output, what: &str) -> PyResult<PyObject> {
        if !self.async_view {
            let mut n = Named(py, out, None);
            with_sets!(&self.sets, |s: T| s[self.current].visit(&mut n));
            return Ok(n.2.unwrap_or_else(|| py.None()));
        }
        Ok(self.view(py, what)?.get_item(out as usize)?.unbind())
    }

    /// The arrays describing every env now, in table order: the last pass's set, or
    /// after asynchronous stepping each group's last received batch (the current set's
    /// rows for a group not received since the last pass), joined in env order (a copy,
    /// made once per recv). While batches are in flight their envs' state is unknown:
    /// an error saying so, naming `what` was asked for.
    fn view<'py>(&mut self, py: Python<'py>, what: &str) -> PyResult<Bound<'py, PyTuple>> {
        if !self.async_view {
            return self.current_tuple(py);
        }
        let in_flight = match self.mode.get_mut().map_err(|_| poisoned())? {
            Mode::F32(p) => p.in_flight(),
            Mode::U8(p) => p.in_flight(),
            _ => 0,
        };
        if in_flight > 0 {
            return Err(PyRuntimeError::new_err(format!(
                "{what} is not known while batches are being stepped: {in_flight} of the {} \
                 batches sent are not received yet. Use the arrays recv() returned (their \
                 env ids are infos[\"env_id\"]), or recv() every batch first",
                self.received.len()
            )));
        }
        if let Some(a) = &self.assembled {
            return Ok(a.bind(py).clone());
        }
        let current = self.current_tuple(py)?;
        let np = py.import("numpy")?;
        let b = self.batch_size;
        let mut joined = Vec::with_capacity(OUTPUTS.len());
        for (i, spec) in OUTPUTS.iter().enumerate() {
            let mut parts = Vec::with_capacity(self.received.len());
            for (g, r) in self.received.iter().enumerate() {
                let part = match r {
                    Some(t) => t.bind(py).get_item(i)?,
                    None => {
                        let whole = current.get_item(i)?;
                        if whole.is_none() {
                            whole
                        } else {
                            whole.get_item(pyo3::types::PySlice::new(
                                py,
                                (g * b) as isize,
                                ((g + 1) * b) as isize,
                                1,
                            ))?
                        }
                    }
                };
                parts.push(part);
            }
            let like = parts.iter().find(|p| !p.is_none()).cloned();
            let out = match like {
                // env_id belongs to a batch; the whole-env view has none.
                Some(like) if spec.name != "env_id" => {
                    let zeros = np.call_method1("zeros_like", (like,))?;
                    let filled: Vec<_> = parts
                        .into_iter()
                        .map(|p| if p.is_none() { zeros.clone() } else { p })
                        .collect();
                    np.call_method1("concatenate", (filled,))?
                }
                _ => py.None().into_bound(py),
            };
            joined.push(out);
        }
        let t = PyTuple::new(py, joined)?;
        self.assembled = Some(t.clone().unbind());
        Ok(t)
    }

    /// A 1-D int64 argument as a slice (copied when strided).
    fn ints<'a>(a: &'a PyReadonlyArray1<'_, i64>, copy: &'a mut Vec<i64>) -> PyResult<&'a [i64]> {
        Ok(match a.as_slice() {
            Ok(s) => s,
            Err(_) => {
                *copy = a.as_array().iter().copied().collect();
                &copy[..]
            }
        })
    }
}

/// Runs `$body` with `$p` bound to the typed pipeline of `$mode` (`$t`: its observation
/// type).
macro_rules! with_pipeline {
    ($mode:expr, |$p:ident: $t:ident| $body:expr) => {
        match $mode {
            Mode::F32($p) => {
                #[allow(dead_code)]
                type $t = f32;
                $body
            }
            Mode::U8($p) => {
                #[allow(dead_code)]
                type $t = u8;
                $body
            }
            _ => unreachable!("pipeline() made it a pipeline"),
        }
    };
}

/// A batch's vectors as numpy arrays (no copy), in a tuple in table order.
fn batch_tuple<'py, T: ObsValue + Elem>(
    py: Python<'py>,
    b: Batch<T>,
    layout: Layout,
) -> PyResult<(usize, Bound<'py, PyTuple>)> {
    let o = &b.outputs;
    let ended = o.terminated.contains(&true) || o.truncated.contains(&true);
    let arrays = b.outputs.map(&mut Adopt(py, layout));
    Ok((b.group, to_tuple(py, &arrays, ended)?))
}

impl InUse for PyVectorEnv {
    fn in_use_error() -> PyErr {
        VectorEnvInUseError::new_err(
            "this VectorEnv is in use by another thread or call (a VectorEnv is not shared: \
             a thread may use it only while no other thread or call does): give each thread \
             its own VectorEnv (with env_offset to split one master-seeded batch), or guard \
             it with a lock",
        )
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (
        num_envs, variant = Arg(None), scoring = Arg(None), seed = Arg(None), *,
        episode = Arg(None), max_rounds = Arg(None), self_play = false, learner_seat = Arg(None),
        learner_team = Arg(None), opponents = Arg(None), reward_mode = Arg(None),
        num_threads = Arg(None), obs_dtype = "float32", env_offset = 0, copy = true,
        state_tensor = false, batch_size = Arg(None), spin_us = Arg(None),
        autoreset_mode = Arg(None)
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
        learner_team: Arg<'_>,
        opponents: Arg<'_>,
        reward_mode: Arg<'_>,
        num_threads: Arg<'_>,
        obs_dtype: &str,
        env_offset: u64,
        copy: bool,
        state_tensor: bool,
        batch_size: Arg<'_>,
        spin_us: Arg<'_>,
        autoreset_mode: Arg<'_>,
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
        let learner = parse_learner(self_play, learner_seat, learner_team, n)?;
        let opponent_names = parse_opponents(opponents, n)?;
        let reward = match reward_mode.0 {
            None => RewardMode::Win,
            Some(r) => parse_reward(&r)?,
        };
        let all = std::thread::available_parallelism().map_or(1, |n| n.get());
        let num_threads = parse_count(num_threads, "num_threads", 1024, all)?;
        let batch_size = parse_count(batch_size, "batch_size", num_envs, num_envs)?;
        if num_envs % batch_size != 0 {
            return Err(PyValueError::new_err(format!(
                "batch_size {batch_size} must divide num_envs {num_envs}"
            )));
        }
        let spin = match spin_us.0 {
            Some(s) if !s.is_none() => Some(parse_spin(&s)?),
            _ => None,
        };
        let autoreset = parse_autoreset(autoreset_mode)?;
        let shared = Shared {
            config,
            seed,
            learner,
            reward,
            env_offset,
            autoreset,
        };
        let core =
            VecCore::new(shared, num_envs, &opponent_names, num_threads).map_err(|e| match e {
                VecCoreError::ThreadPool(_) => PyRuntimeError::new_err(e.to_string()),
                _ => PyValueError::new_err(e.to_string()),
            })?;
        if let Some(s) = spin {
            core.set_spin(s);
        }
        let obs_u8 = parse_obs_u8(obs_dtype)?;
        let layout = core.layout(Extras {
            state_tensor,
            env_ids: false,
            // Gymnasium's SAME_STEP envs hand every ended episode's last observation over
            // in `infos["final_obs"]` (a bootstrapping learner needs it on truncation).
            final_obs: autoreset == Autoreset::SameStep,
        });
        let sets = if obs_u8 {
            Sets::U8(vec![Outputs::build(&mut NewArrays(py, layout))])
        } else {
            Sets::F32(vec![Outputs::build(&mut NewArrays(py, layout))])
        };
        let mut env = PyVectorEnv {
            mode: Mutex::new(Mode::Sync(core)),
            env_offset,
            num_threads,
            num_envs,
            batch_size,
            autoreset,
            layout,
            fresh: copy,
            sets,
            current: 0,
            ended: false,
            last_recv: None,
            received: (0..num_envs / batch_size).map(|_| None).collect(),
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
                    crate::rl::vector::Dtype::Obs => "obs",
                    crate::rl::vector::Dtype::Bool => "bool",
                    crate::rl::vector::Dtype::F32 => "float32",
                    crate::rl::vector::Dtype::I64 => "int64",
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
        this.run(py, Op::Reset(seed))
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
            return Err(PyValueError::new_err(format!(
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
        with_pipeline!(mode, |p: T| p.reset(seed)).map_err(pipeline_error)?;
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
            Mode::Sync(c) => c.check_actions(acts).map_err(step_error),
            Mode::F32(p) => p.check_all(acts).map_err(pipeline_error),
            Mode::U8(p) => p.check_all(acts).map_err(pipeline_error),
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
        env_ids: Option<PyReadonlyArray1<'_, i64>>,
    ) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let mut copy = Vec::new();
        let acts = Self::ints(&actions, &mut copy)?.to_vec();
        let mut copy_ids = Vec::new();
        let ids = match &env_ids {
            Some(e) => Some(Self::ints(e, &mut copy_ids)?.to_vec()),
            None => None,
        };
        let last = this.last_recv;
        let mode = this.pipeline()?;
        with_pipeline!(mode, |p: T| {
            let (group, acts) = match ids {
                Some(ids) => p.group_of(&ids, &acts).map_err(pipeline_error)?,
                None => match last {
                    Some(g) => (g, acts),
                    None => {
                        return Err(PyRuntimeError::new_err(
                            "send(actions) without env_ids sends the batch recv() returned \
                             last, and nothing was received",
                        ))
                    }
                },
            };
            p.send(group, acts)
        })
        .map_err(pipeline_error)?;
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
            let got = py.allow_threads(|| super::guard("VectorEnv.recv", || Ok(p.recv())))?;
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
                Err(pipeline_error(e))
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
        env_ids: Option<PyReadonlyArray1<'_, i64>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut this = borrow_mut(slf)?;
        if let Some(ids) = env_ids {
            let mut copy = Vec::new();
            let ids = Self::ints(&ids, &mut copy)?.to_vec();
            let mode = this.pipeline()?;
            let out = with_pipeline!(mode, |p: T| {
                let dummy = vec![0i64; ids.len()];
                let (g, _) = p.group_of(&ids, &dummy).map_err(pipeline_error)?;
                let in_order = p.bot_actions(g).map_err(pipeline_error)?;
                let b = p.batch_size() as i64;
                ids.iter()
                    .map(|&i| in_order[(i - g as i64 * b) as usize])
                    .collect::<Vec<_>>()
            });
            return Ok(PyArray1::from_vec(py, out));
        }
        let core = this.core()?;
        let out =
            py.allow_threads(|| super::guard("VectorEnv.bot_actions", || Ok(core.bot_actions())))?;
        Ok(PyArray1::from_vec(py, out))
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
        let spin = parse_spin(us)?;
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
        this.with_slot(i, |s| s.state().to_string())
    }
}

impl PyVectorEnv {
    /// Env `i`'s slot, read through `f`. An env index like a seat: an integer
    /// (`TypeError` otherwise) in `0..num_envs` (`ValueError` otherwise, never an
    /// `OverflowError`).
    fn with_slot<T>(&mut self, i: &Bound<'_, PyAny>, f: impl FnOnce(&Slot) -> T) -> PyResult<T> {
        let k = extract_integer(i, "env index")?;
        let n = self.num_envs;
        let k = k
            .and_then(|k| usize::try_from(k).ok())
            .filter(|&k| k < n)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "env {} is out of range: envs are 0..{}",
                    i.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                    n.saturating_sub(1)
                ))
            })?;
        if self.failed {
            return Err(poisoned());
        }
        let mode = self.mode.get_mut().map_err(|_| poisoned())?;
        let slot = match mode {
            Mode::Sync(c) => c.slot(k),
            Mode::F32(p) => p.slot(k),
            Mode::U8(p) => p.slot(k),
            Mode::Moving => None,
        };
        slot.map(f).ok_or_else(|| {
            PyRuntimeError::new_err(format!(
                "env {k} is being stepped (its batch was sent): recv() it first"
            ))
        })
    }
}

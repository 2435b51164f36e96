//! The state machine of a `VectorEnv`: its envs are one [`VecCore`] stepped together
//! (`Sync`), or a [`Pipeline`] stepping groups in the background, turned from one into
//! the other as calls ask; each synchronous pass runs with the GIL released into the
//! next set of arrays, and the properties read the last pass's set (or, after
//! asynchronous stepping, the batches received, joined).

use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString, PyTuple};

use super::arrays::{
    target, to_tuple, with_sets, Arrays, Borrow, GuardSlices, Named, Sets, Written,
};
use super::PyVectorEnv;
use crate::convert::{extract_integer, shown, type_name};
use crate::errors::{guard, py_err, Class, IntoPyResult};
use yokai_septet::observation::ObsValue;
use yokai_septet_vector::{Elem, Extras, Output, Outputs, Pipeline, Slot, VecCore, OUTPUTS};

/// The envs: stepped together (`Sync`), or by groups in the background (`Async`).
pub(super) enum Mode {
    Sync(VecCore),
    F32(Pipeline<f32>),
    U8(Pipeline<u8>),
    /// Only while converting from one to the other.
    Moving,
}

pub(super) fn poisoned() -> PyErr {
    Class::State.err(
        "this VectorEnv failed earlier (an internal error left it inconsistent): create a new one",
    )
}

/// What one pass over every env does.
#[derive(Clone, Copy)]
pub(super) enum Op<'a> {
    Reset(Option<u64>),
    /// The envs whose entry is set (one per env).
    ResetSome(&'a [bool]),
    /// Actions already checked by [`VecCore::check_actions`].
    Step(&'a [i64]),
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
        guard("VectorEnv", || {
            match op {
                Op::Reset(seed) => core.reset(seed, slices),
                Op::ResetSome(mask) => core.reset_some(mask, slices),
                Op::Step(actions) => core.step_checked(actions, slices),
            }
            Ok(())
        })
    });
    // Read while the arrays are still borrowed (a borrow costs more than the read).
    let set = |g: &Option<Box<dyn Written<bool> + '_>>| {
        g.as_ref().is_some_and(|g| g.slice().contains(&true))
    };
    Ok(result.map(|()| set(&guards.terminated) || set(&guards.truncated)))
}

impl PyVectorEnv {
    /// The envs as one core (a pipeline is turned back into one: refused while groups are
    /// in flight).
    pub(super) fn core(&mut self) -> PyResult<&mut VecCore> {
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
                    return Err(py_err(e));
                }
            };
        }
        match mode {
            Mode::Sync(core) => Ok(core),
            _ => unreachable!(),
        }
    }

    /// The envs as a pipeline (a core is turned into one).
    pub(super) fn pipeline(&mut self) -> PyResult<&mut Mode> {
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
                    return Err(py_err(e));
                }
            };
        }
        Ok(mode)
    }

    /// The optional outputs the sync passes write.
    pub(super) fn layout_extras(&self) -> Extras {
        Extras {
            state_tensor: self.layout.widths[Output::state as usize] > 0,
            env_ids: false,
            final_obs: self.layout.widths[Output::final_obs as usize] > 0,
        }
    }

    /// Runs `op` on every env with the GIL released, writing into the next set of output
    /// arrays, which become the current ones.
    pub(super) fn run(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<()> {
        let core = self.core()?;
        if let Op::Step(actions) = op {
            // With the GIL held: a refused batch never lets another Python thread find
            // this object busy.
            core.check_actions(actions).py()?;
        }
        let (current, fresh, layout) = (self.current, self.fresh, self.layout);
        let Mode::Sync(core) = self.mode.get_mut().map_err(|_| poisoned())? else {
            unreachable!("core() made it a core")
        };
        // Errors before the pass (arrays borrowed elsewhere) change nothing; a caught
        // panic may leave the envs half-stepped.
        let (target, result) = with_sets!(&mut self.sets, |sets: T| {
            let t = target::<T>(py, sets, current, fresh, layout)?;
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
    pub(super) fn current_tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        with_sets!(&self.sets, |s: T| to_tuple(
            py,
            &s[self.current],
            self.ended
        ))
    }

    /// One array of the envs' state now (`None` when it is not produced), or why it is
    /// not known (`what`: the property asked for).
    pub(super) fn current_array(
        &mut self,
        py: Python<'_>,
        out: Output,
        what: &str,
    ) -> PyResult<PyObject> {
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
    pub(super) fn view<'py>(
        &mut self,
        py: Python<'py>,
        what: &str,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if !self.async_view {
            return self.current_tuple(py);
        }
        let in_flight = match self.mode.get_mut().map_err(|_| poisoned())? {
            Mode::F32(p) => p.in_flight(),
            Mode::U8(p) => p.in_flight(),
            _ => 0,
        };
        if in_flight > 0 {
            return Err(Class::State.err(format!(
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

    /// The env ids of the argument `what` (`env_id`, `env_ids`): integers, as actions are
    /// (a 1-D numpy array of an integer dtype, or a sequence of ints or numpy integers).
    /// Floats, strings and bools are a `TypeError`, an id no `int64` holds a `ValueError`,
    /// each naming the value as passed; which ids make a batch is the pipeline's check.
    pub(super) fn env_ids(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
        if let Ok(a) = obj.downcast::<PyUntypedArray>() {
            let kind = a.dtype().kind();
            if kind != b'i' && kind != b'u' {
                return Err(Class::InvalidType.err(format!(
                    "{what} must be env ids (integers), not an array of dtype {} ({})",
                    a.dtype(),
                    shown(obj)
                )));
            }
            if let Ok(ints) = obj.downcast::<PyArray1<i64>>() {
                let ints = ints.readonly();
                let mut copy = Vec::new();
                return Ok(Self::ints(&ints, &mut copy)?.to_vec());
            }
        } else if obj.is_instance_of::<PyString>()
            || obj.is_instance_of::<PyBytes>()
            || obj.is_instance_of::<PyByteArray>()
            || obj.hasattr("__index__")?
        {
            return Err(Class::InvalidType.err(format!(
                "{what} must be a sequence of env ids (integers), not {} ({})",
                type_name(obj),
                shown(obj)
            )));
        }
        let items = obj.try_iter().map_err(|_| {
            Class::InvalidType.err(format!(
                "{what} must be a sequence of env ids (integers), not {} ({})",
                type_name(obj),
                shown(obj)
            ))
        })?;
        items
            .map(|item| {
                let item = item?;
                match extract_integer(&item, what) {
                    Ok(v) => v.and_then(|v| i64::try_from(v).ok()).ok_or_else(|| {
                        Class::InvalidValue.err(format!(
                            "{what} {} holds env id {}, out of range",
                            shown(obj),
                            shown(&item)
                        ))
                    }),
                    Err(_) => Err(Class::InvalidType.err(format!(
                        "{what} must be env ids (integers), not {}: {} is a {}",
                        shown(obj),
                        shown(&item),
                        type_name(&item)
                    ))),
                }
            })
            .collect()
    }

    /// A 1-D int64 argument as a slice (copied when strided).
    pub(super) fn ints<'a>(
        a: &'a PyReadonlyArray1<'_, i64>,
        copy: &'a mut Vec<i64>,
    ) -> PyResult<&'a [i64]> {
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
pub(super) use with_pipeline;

impl PyVectorEnv {
    /// Env `i`'s slot, read through `f`. An env index like a seat: an integer
    /// (`TypeError` otherwise) in `0..num_envs` (`ValueError` otherwise, never an
    /// `OverflowError`).
    pub(super) fn with_slot<T>(
        &mut self,
        i: &Bound<'_, PyAny>,
        f: impl FnOnce(&Slot) -> T,
    ) -> PyResult<T> {
        let k = extract_integer(i, "env index")?;
        let n = self.num_envs;
        let k = k
            .and_then(|k| usize::try_from(k).ok())
            .filter(|&k| k < n)
            .ok_or_else(|| {
                Class::InvalidValue.err(format!(
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
            Class::State.err(format!(
                "env {k} is being stepped (its batch was sent): recv() it first"
            ))
        })
    }
}

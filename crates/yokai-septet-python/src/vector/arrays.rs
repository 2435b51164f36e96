//! The numpy arrays of a `VectorEnv`: one array per output of the table ([`OUTPUTS`]),
//! built, recycled, borrowed for a pass and handed to Python by the walks below, never
//! by name; and the sets of them a `copy=True` env rotates through.
//!
//! The walks are generic over the vector env's element types ([`Elem`]), which know
//! nothing of numpy: what needs numpy's `Element` of its type runs as a [`NumpyOp`], at
//! the element type [`numpy_at`] picks (every [`Elem`] is a numpy element type).

use numpy::{Element, PyArray1, PyArrayDyn, PyArrayMethods, PyReadwriteArrayDyn};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::Class;
use yokai_septet::observation::ObsValue;
use yokai_septet_vector::{
    Batch, Build, Elem, Family, ForEachElem, Layout, Map, MapMut, MapRef, Output, Outputs, Owned,
    Per, Slices, Visit, OUTPUTS,
};

/// A numpy operation of one array, written once for every element type.
trait NumpyOp {
    /// What it takes at element type `E`.
    type In<E: Elem>;
    /// What it gives at element type `E`.
    type Out<E: Elem>;
    fn run<T: Elem + Element>(self, input: Self::In<T>) -> Self::Out<T>;
}

/// `op` at the element type `E`.
fn numpy_at<E: Elem, O: NumpyOp>(op: O, input: O::In<E>) -> O::Out<E> {
    E::typed(AtEach(op), input)
}

/// A [`NumpyOp`] as the vector env's [`ForEachElem`].
struct AtEach<O>(O);
impl<O: NumpyOp> ForEachElem for AtEach<O> {
    type In<E: Elem> = O::In<E>;
    type Out<E: Elem> = O::Out<E>;
    fn bool(self, x: O::In<bool>) -> O::Out<bool> {
        self.0.run(x)
    }
    fn f32(self, x: O::In<f32>) -> O::Out<f32> {
        self.0.run(x)
    }
    fn i64(self, x: O::In<i64>) -> O::Out<i64> {
        self.0.run(x)
    }
    fn u8(self, x: O::In<u8>) -> O::Out<u8> {
        self.0.run(x)
    }
}

/// One numpy array per output (`None`: not produced).
pub(super) struct Arrays;
impl Family for Arrays {
    type Of<E: Elem> = Option<Py<PyArrayDyn<E>>>;
}

/// An array borrowed for writing, as its elements (numpy's guard, boxed so that [`Guards`]
/// can name it for every element type).
pub(super) trait Written<E> {
    /// Its elements (none if not contiguous).
    fn slice(&self) -> &[E];
    /// Its elements, to write (none if not contiguous).
    fn slice_mut(&mut self) -> &mut [E];
}
impl<T: Element> Written<T> for PyReadwriteArrayDyn<'_, T> {
    fn slice(&self) -> &[T] {
        self.as_slice().unwrap_or_default()
    }
    fn slice_mut(&mut self) -> &mut [T] {
        self.as_slice_mut().unwrap_or_default()
    }
}

/// The arrays, borrowed for writing during a pass.
pub(super) struct Guards<'py>(std::marker::PhantomData<&'py ()>);
impl<'py> Family for Guards<'py> {
    type Of<E: Elem> = Option<Box<dyn Written<E> + 'py>>;
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

/// Zeroed arrays for a layout, by numpy's own `zeros`: where the memory is not there it
/// raises `MemoryError` (the C API's `PyArray::zeros` would panic), kept as the first
/// error and the other arrays not made.
struct NewArrays<'py>(Python<'py>, Layout, Option<PyErr>);
impl Build<Arrays> for NewArrays<'_> {
    fn build<E: Elem>(&mut self, out: Output) -> Option<Py<PyArrayDyn<E>>> {
        let s = shape(&self.1, out)?;
        if self.2.is_some() {
            return None;
        }
        numpy_at::<E, _>(Zeros(self.0), s)
            .map_err(|e| self.2 = Some(e))
            .ok()
    }
}

/// A zeroed array of a shape, by `numpy.zeros`.
struct Zeros<'py>(Python<'py>);
impl NumpyOp for Zeros<'_> {
    type In<E: Elem> = Vec<usize>;
    type Out<E: Elem> = PyResult<Py<PyArrayDyn<E>>>;
    fn run<T: Elem + Element>(self, shape: Vec<usize>) -> PyResult<Py<PyArrayDyn<T>>> {
        let np = self.0.import("numpy")?;
        let a = np.call_method1("zeros", (shape, T::get_dtype(self.0)))?;
        Ok(a.downcast_into::<PyArrayDyn<T>>()?.unbind())
    }
}

/// A new set of zeroed output arrays for `layout`; `Err` says why numpy could not make
/// one (the machine lacks the memory).
pub(super) fn new_set<T: ObsValue + Elem>(
    py: Python<'_>,
    layout: Layout,
) -> Result<Outputs<Arrays, T>, String> {
    let mut make = NewArrays(py, layout, None);
    let set = Outputs::build(&mut make);
    match make.2 {
        Some(e) => Err(e.to_string()),
        None => Ok(set),
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
pub(super) struct Named<'py>(
    pub(super) Python<'py>,
    pub(super) Output,
    pub(super) Option<PyObject>,
);
impl Visit<Arrays> for Named<'_> {
    fn visit<E: Elem>(&mut self, out: Output, x: &Option<Py<PyArrayDyn<E>>>) {
        if out == self.1 {
            self.2 = x.as_ref().map(|a| a.clone_ref(self.0).into_any());
        }
    }
}

/// Borrows every array for writing (the first refusal is kept).
pub(super) struct Borrow<'py>(pub(super) Python<'py>, pub(super) Option<PyErr>);
impl<'py> MapRef<Arrays, Guards<'py>> for Borrow<'py> {
    fn map<E: Elem>(
        &mut self,
        _: Output,
        x: &Option<Py<PyArrayDyn<E>>>,
    ) -> Option<Box<dyn Written<E> + 'py>> {
        match numpy_at::<E, _>(ReadWrite(self.0), x.as_ref()?.bind(self.0).clone()) {
            Ok(g) => Some(g),
            Err(e) => {
                self.1.get_or_insert(e);
                None
            }
        }
    }
}

/// An array borrowed for writing.
struct ReadWrite<'py>(Python<'py>);
impl<'py> NumpyOp for ReadWrite<'py> {
    type In<E: Elem> = Bound<'py, PyArrayDyn<E>>;
    type Out<E: Elem> = PyResult<Box<dyn Written<E> + 'py>>;
    fn run<T: Elem + Element>(self, a: Bound<'py, PyArrayDyn<T>>) -> Self::Out<T> {
        let g = a.try_readwrite()?;
        Ok(Box::new(g))
    }
}

/// The borrowed arrays as slices (an array that is not produced: empty).
pub(super) struct GuardSlices;
impl<'s, 'py: 's> MapMut<'s, Guards<'py>, Slices<'s>> for GuardSlices {
    fn map<E: Elem>(
        &mut self,
        _: Output,
        x: &'s mut Option<Box<dyn Written<E> + 'py>>,
    ) -> &'s mut [E] {
        match x {
            Some(g) => g.slice_mut(),
            None => Default::default(),
        }
    }
}

/// Vectors handed to numpy without a copy (the asynchronous batches).
struct Adopt<'py>(Python<'py>, Layout);
impl Map<Owned, Arrays> for Adopt<'_> {
    fn map<E: Elem>(&mut self, out: Output, x: Vec<E>) -> Option<Py<PyArrayDyn<E>>> {
        let s = shape(&self.1, out)?;
        Some(numpy_at::<E, _>(FromVec(self.0, s), x))
    }
}

/// A vector as an array of a shape, without a copy.
struct FromVec<'py>(Python<'py>, Vec<usize>);
impl NumpyOp for FromVec<'_> {
    type In<E: Elem> = Vec<E>;
    type Out<E: Elem> = Py<PyArrayDyn<E>>;
    fn run<T: Elem + Element>(self, x: Vec<T>) -> Py<PyArrayDyn<T>> {
        let flat = PyArray1::from_vec(self.0, x);
        // A contiguous reshape is a view of the same buffer.
        let a = flat
            .reshape(&self.1[..])
            .unwrap_or_else(|_| flat.to_dyn().clone());
        a.unbind()
    }
}

/// The sets of output arrays, in the observation dtype.
pub(super) enum Sets {
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
pub(super) use with_sets;

/// Most sets of output arrays kept for reuse (`copy=True`): two are enough for the usual
/// loop (the caller holds the last step's arrays while the next step writes); more only
/// help a caller that keeps a few steps' arrays around.
pub(super) const MAX_SETS: usize = 4;

/// The set of `sets` the next pass writes: in `copy=True` mode one that nobody else
/// holds (recycled, or new when the caller still holds every kept set).
pub(super) fn target<T: ObsValue + Elem>(
    py: Python<'_>,
    sets: &mut Vec<Outputs<Arrays, T>>,
    current: usize,
    fresh: bool,
    layout: Layout,
) -> PyResult<usize> {
    if !fresh {
        return Ok(current);
    }
    let free = |s: &Outputs<Arrays, T>| {
        let mut v = IsFree(py, true);
        s.visit(&mut v);
        v.1
    };
    if let Some(i) = sets.iter().position(free) {
        return Ok(i);
    }
    let new = new_set(py, layout).map_err(|e| {
        Class::State.err(format!(
            "no memory for a new set of output arrays ({e}): with copy=True the arrays a \
             caller keeps are never written again, so each step's are new; let go of old \
             ones, or pass copy=False"
        ))
    })?;
    if sets.len() < MAX_SETS {
        sets.push(new);
        return Ok(sets.len() - 1);
    }
    // Forget the oldest kept set (its holder keeps it) for a new one.
    let i = (current + 1) % sets.len();
    sets[i] = new;
    Ok(i)
}

/// The arrays of a set, as a tuple in table order (`None` where not produced, and for
/// `final_obs` unless `ended`: some episode ended).
pub(super) fn to_tuple<'py, T: ObsValue + Elem>(
    py: Python<'py>,
    o: &Outputs<Arrays, T>,
    ended: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let mut v = ToPy(py, Vec::with_capacity(OUTPUTS.len()), ended);
    o.visit(&mut v);
    PyTuple::new(py, v.1)
}

/// A batch's vectors as numpy arrays (no copy), in a tuple in table order.
pub(super) fn batch_tuple<'py, T: ObsValue + Elem>(
    py: Python<'py>,
    b: Batch<T>,
    layout: Layout,
) -> PyResult<(usize, Bound<'py, PyTuple>)> {
    let o = &b.outputs;
    let ended = o.terminated.contains(&true) || o.truncated.contains(&true);
    let arrays = b.outputs.map(&mut Adopt(py, layout));
    Ok((b.group, to_tuple(py, &arrays, ended)?))
}

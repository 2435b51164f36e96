//! What a `Game` hands a learner as arrays: legal-action masks, observations and
//! privileged state tensors (into a caller's buffer when given), and their layouts.

use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::PyGame;
use crate::convert::{extract_seat, extract_text, shown, type_name};
use crate::errors::{borrow, Class};
use yokai_septet::observation::Field;
use yokai_septet::State;
use yokai_septet::{
    observation, observation::encode, observation::observation_size, observation::ObsValue,
};
use yokai_septet::{state_tensor, state_tensor::encode_state, state_tensor::state_size};

/// Layout fields as Python dicts with ``name``, ``offset``, ``len`` and ``meaning``.
fn field_dicts<'py>(py: Python<'py>, fields: &[Field]) -> PyResult<Vec<Bound<'py, PyDict>>> {
    fields
        .iter()
        .map(|f| {
            let d = PyDict::new(py);
            d.set_item("name", f.name)?;
            d.set_item("offset", f.offset)?;
            d.set_item("len", f.len)?;
            d.set_item("meaning", f.meaning)?;
            Ok(d)
        })
        .collect()
}

/// What `obj` is, for an `out` it cannot be: a numpy array's dimensions and dtype, or
/// its type and value.
fn array_kind(obj: &Bound<'_, PyAny>) -> String {
    match obj.downcast::<numpy::PyUntypedArray>() {
        Ok(a) => format!("a {}-dimensional ndarray of dtype {}", a.ndim(), a.dtype()),
        Err(_) => format!("{} ({})", type_name(obj), shown(obj)),
    }
}

/// The argument `dtype` of `state_tensor`.
fn dtype_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    extract_text(obj, "dtype")
}

#[pymethods]
impl PyGame {
    /// The legal actions as a numpy ``bool`` array of shape ``(num_actions,)``.
    ///
    /// With ``out=`` (a writable, contiguous ``bool`` array of that shape) the mask is written
    /// there and ``out`` is returned, with no allocation.
    #[pyo3(signature = (out = None))]
    fn legal_mask<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let this = borrow(slf)?;
        let n = this.state().config().num_actions();
        let arr = match out {
            Some(a) => {
                let a = a.downcast_into::<PyArray1<bool>>().map_err(|e| {
                    let a = e.into_inner();
                    Class::InvalidType.err(format!(
                        "out must be a 1-dimensional numpy array of dtype bool, not {}",
                        array_kind(&a)
                    ))
                })?;
                if a.len() != n {
                    return Err(Class::InvalidValue
                        .err(format!("out has shape {:?}, expected ({n},)", a.shape())));
                }
                a
            }
            None => PyArray1::<bool>::zeros(py, n, false),
        };
        let mut rw = arr
            .try_readwrite()
            .map_err(|e| Class::InvalidValue.err(format!("out is not writable: {e}")))?;
        let slice = rw
            .as_slice_mut()
            .map_err(|_| Class::InvalidValue.err("out must be C-contiguous"))?;
        yokai_septet::observation::write_mask(this.state().legal_actions(), slice);
        drop(rw);
        Ok(arr)
    }

    /// Length of the observation vector (``observation()``'s shape is ``(observation_size,)``).
    #[getter]
    fn observation_size(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Self::read(slf, |s| observation_size(s.variant()))
    }

    /// ``seat``'s information-state vector (numpy ``float32``; default seat: the current
    /// player). Everything public is in every seat's vector, plus what that seat saw
    /// privately; never another seat's hidden cards. Fields: :meth:`layout`.
    ///
    /// With ``out=`` (a writable, contiguous ``float32`` or ``uint8`` array of shape
    /// ``(observation_size,)``) the vector is written there and ``out`` is returned.
    /// After the end, pass ``seat`` explicitly (there is no current player).
    #[pyo3(signature = (seat = None, out = None))]
    fn observation<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
        out: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let this = borrow(slf)?;
        let s = this.state();
        let seat = match seat {
            Some(seat) => extract_seat(seat, s.num_players(), "seat")?,
            None => s.current_player().ok_or_else(|| {
                Class::InvalidValue
                    .err("the game is over, so there is no current player: pass seat= explicitly")
            })?,
        };
        let view = s.view(seat);
        let d = observation_size(s.variant());
        let Some(out) = out else {
            let arr = PyArray1::<f32>::zeros(py, d, false);
            let mut rw = arr.readwrite();
            encode(&view, rw.as_slice_mut()?);
            drop(rw);
            return Ok(arr.into_any());
        };
        fn fill<'py, T: ObsValue + numpy::Element>(
            out: &Bound<'py, PyArray1<T>>,
            view: &yokai_septet::SeatView<'_>,
            d: usize,
        ) -> PyResult<()> {
            if out.len() != d {
                return Err(Class::InvalidValue
                    .err(format!("out has shape {:?}, expected ({d},)", out.shape())));
            }
            let mut rw = out
                .try_readwrite()
                .map_err(|e| Class::InvalidValue.err(format!("out is not writable: {e}")))?;
            let slice = rw
                .as_slice_mut()
                .map_err(|_| Class::InvalidValue.err("out must be C-contiguous"))?;
            encode(view, slice);
            Ok(())
        }
        if let Ok(a) = out.downcast::<PyArray1<f32>>() {
            fill(a, &view, d)?;
        } else if let Ok(a) = out.downcast::<PyArray1<u8>>() {
            fill(a, &view, d)?;
        } else {
            return Err(Class::InvalidType.err(format!(
                "out must be a 1-dimensional numpy array of dtype float32 or uint8, not {}",
                array_kind(&out)
            )));
        }
        Ok(out)
    }

    /// The observation's fields, in vector order: a list of dicts with ``name``,
    /// ``offset``, ``len`` and ``meaning``.
    fn layout<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        field_dicts(py, observation::layout(Self::read(slf, State::variant)?))
    }

    /// Length of the privileged state tensor (``state_tensor()``'s shape is ``(state_size,)``).
    #[getter]
    fn state_size(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Self::read(slf, |s| state_size(s.variant()))
    }

    /// The privileged, full-information state (docs/state_tensor.md) as a flat ``float32``
    /// (or, with ``dtype="uint8"``, ``uint8``) array: every seat's hand and passing picks,
    /// then seat 0's observation (everything public). For centralized critics; it shows
    /// hidden cards, so never give it to a policy that plays. Fields: :meth:`state_layout`.
    #[pyo3(signature = (dtype = "float32".to_string()), text_signature = "(self, /, dtype='float32')")]
    fn state_tensor<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        #[pyo3(from_py_with = dtype_arg)] dtype: String,
    ) -> PyResult<Bound<'py, PyAny>> {
        let this = borrow(slf)?;
        fn make<'py, T: ObsValue + numpy::Element>(
            py: Python<'py>,
            s: &State,
        ) -> PyResult<Bound<'py, PyAny>> {
            let arr = PyArray1::<T>::zeros(py, state_size(s.variant()), false);
            encode_state(s, arr.readwrite().as_slice_mut()?);
            Ok(arr.into_any())
        }
        match dtype.as_str() {
            "float32" => make::<f32>(py, this.state()),
            "uint8" => make::<u8>(py, this.state()),
            other => Err(Class::InvalidValue.err(format!(
                "unknown dtype {other:?}: valid dtypes are \"float32\", \"uint8\""
            ))),
        }
    }

    /// The state tensor's fields, in vector order (dicts like :meth:`layout`'s).
    fn state_layout<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        field_dicts(
            py,
            state_tensor::state_layout(Self::read(slf, State::variant)?),
        )
    }
}

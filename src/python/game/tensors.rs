//! What a `Game` hands a learner as arrays: legal-action masks, observations and
//! privileged state tensors (into a caller's buffer when given), and their layouts.
//!
//! Each `pub(super) fn` is the body of the `Game` method of the same name (its doc is
//! there, on the method in `mod.rs`).

use crate::python::errors::{InvalidTypeError, InvalidValueError};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{field_dicts, PyGame};
use crate::python::convert::extract_seat;
use crate::python::errors::borrow;
use crate::rl::observation::{self, encode, observation_size, ObsValue};
use crate::rl::state_tensor::{self, encode_state, state_size};
use crate::rules::state::State;

pub(super) fn legal_mask<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
    out: Option<Bound<'py, PyArray1<bool>>>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let this = borrow(slf)?;
    let n = this.state().config().num_actions();
    let arr = match out {
        Some(a) => {
            if a.len() != n {
                return Err(InvalidValueError::new_err(format!(
                    "out has shape {:?}, expected ({n},)",
                    a.shape()
                )));
            }
            a
        }
        None => PyArray1::<bool>::zeros(py, n, false),
    };
    let mut rw = arr
        .try_readwrite()
        .map_err(|e| InvalidValueError::new_err(format!("out is not writable: {e}")))?;
    let slice = rw
        .as_slice_mut()
        .map_err(|_| InvalidValueError::new_err("out must be C-contiguous"))?;
    crate::rl::observation::write_mask(this.state().legal_actions(), slice);
    drop(rw);
    Ok(arr)
}

pub(super) fn observation<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
    seat: Option<&Bound<'py, PyAny>>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let this = borrow(slf)?;
    let s = this.state();
    let seat = match seat {
        Some(seat) => extract_seat(seat, s.num_players())?,
        None => s.current_player().ok_or_else(|| {
            InvalidValueError::new_err(
                "the game is over, so there is no current player: pass seat= explicitly",
            )
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
        view: &crate::infoset::view::SeatView<'_>,
        d: usize,
    ) -> PyResult<()> {
        if out.len() != d {
            return Err(InvalidValueError::new_err(format!(
                "out has shape {:?}, expected ({d},)",
                out.shape()
            )));
        }
        let mut rw = out
            .try_readwrite()
            .map_err(|e| InvalidValueError::new_err(format!("out is not writable: {e}")))?;
        let slice = rw
            .as_slice_mut()
            .map_err(|_| InvalidValueError::new_err("out must be C-contiguous"))?;
        encode(view, slice);
        Ok(())
    }
    if let Ok(a) = out.downcast::<PyArray1<f32>>() {
        fill(a, &view, d)?;
    } else if let Ok(a) = out.downcast::<PyArray1<u8>>() {
        fill(a, &view, d)?;
    } else {
        return Err(InvalidTypeError::new_err(
            "out must be a 1-dimensional numpy array of dtype float32 or uint8",
        ));
    }
    Ok(out)
}

pub(super) fn layout<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let this = borrow(slf)?;
    field_dicts(py, observation::layout(this.state().variant()))
}

pub(super) fn state_tensor<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
    dtype: &str,
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
    match dtype {
        "float32" => make::<f32>(py, this.state()),
        "uint8" => make::<u8>(py, this.state()),
        other => Err(InvalidValueError::new_err(format!(
            "unknown dtype {other:?}: valid dtypes are \"float32\", \"uint8\""
        ))),
    }
}

pub(super) fn state_layout<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let this = borrow(slf)?;
    field_dicts(py, state_tensor::state_layout(this.state().variant()))
}

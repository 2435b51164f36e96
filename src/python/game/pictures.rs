//! A `Game`'s pictures: text, SVG, pixels and the HTML replay, of the whole table or of
//! one seat's view.
//!
//! Each `pub(super) fn` is the body of the `Game` method of the same name (its doc is
//! there, on the method in `mod.rs`).

use crate::python::errors::InvalidValueError;
use numpy::PyArray3;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::PyGame;
use crate::picture::{self, Raster};
use crate::python::convert::extract_seat;
use crate::python::errors::borrow;

/// `svg` rasterised (run with the GIL released and the game not borrowed).
fn raster(svg: &str, scale: f64) -> PyResult<Raster> {
    Ok(picture::rasterize(svg, scale as f32)?)
}

impl PyGame {
    /// The seat a picture is for: `None` (the whole table) or a valid seat.
    pub(super) fn picture_seat(&self, seat: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
        seat.map(|s| extract_seat(s, self.state().num_players()))
            .transpose()
    }

    pub(super) fn svg(&self, seat: Option<usize>) -> String {
        match seat {
            Some(p) => picture::seat_svg(&self.state().view(p)),
            None => picture::table_svg(self.state()),
        }
    }
}

pub(super) fn to_text(
    slf: &Bound<'_, PyGame>,
    seat: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let this = borrow(slf)?;
    Ok(match this.picture_seat(seat)? {
        Some(p) => this.state().view(p).to_string(),
        None => this.state().to_string(),
    })
}

pub(super) fn to_svg(slf: &Bound<'_, PyGame>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let this = borrow(slf)?;
    Ok(this.svg(this.picture_seat(seat)?))
}

pub(super) fn to_rgb_array<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
    seat: Option<&Bound<'py, PyAny>>,
    scale: f64,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let this = borrow(slf)?;
    let seat = this.picture_seat(seat)?;
    let svg = this.svg(seat);
    drop(this);
    let r = py.allow_threads(|| raster(&svg, scale))?;
    let shape = [r.height as usize, r.width as usize, 3];
    let flat = numpy::ndarray::Array1::from_vec(r.rgb);
    let arr = flat
        .into_shape_with_order(shape)
        .map_err(|e| InvalidValueError::new_err(e.to_string()))?;
    Ok(PyArray3::from_owned_array(py, arr))
}

pub(super) fn to_png<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
    seat: Option<&Bound<'py, PyAny>>,
    scale: f64,
) -> PyResult<Bound<'py, PyBytes>> {
    let this = borrow(slf)?;
    let seat = this.picture_seat(seat)?;
    let svg = this.svg(seat);
    drop(this);
    let png = py.allow_threads(|| Ok::<_, PyErr>(raster(&svg, scale)?.to_png()?))?;
    Ok(PyBytes::new(py, &png))
}

pub(super) fn replay_html(slf: &Bound<'_, PyGame>) -> PyResult<String> {
    let this = borrow(slf)?;
    Ok(picture::replay_html(&this.m))
}

pub(super) fn _repr_svg_(slf: &Bound<'_, PyGame>) -> PyResult<String> {
    let this = borrow(slf)?;
    Ok(this.svg(None))
}

pub(super) fn _repr_html_(slf: &Bound<'_, PyGame>) -> PyResult<String> {
    let this = borrow(slf)?;
    Ok(format!(
        "<div style=\"max-width:100%\">{}</div>",
        this.svg(None)
    ))
}

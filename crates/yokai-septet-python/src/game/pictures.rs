//! A `Game`'s pictures: text, SVG, pixels and the HTML replay, of the whole table or of
//! one seat's view.

use numpy::PyArray3;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::PyGame;
use crate::convert::{extract_number, extract_seat, shown};
use crate::errors::{borrow, Class, IntoPyResult};
use yokai_septet_picture::{self as picture, Raster};

/// The argument `scale` of the raster pictures, in `(0, MAX_SCALE]` (checked here, as it
/// was passed: as an `f32` a huge one would read as another number).
fn scale_arg(obj: &Bound<'_, PyAny>) -> PyResult<f64> {
    let scale = extract_number(obj, "scale")?;
    if scale > 0.0 && scale <= f64::from(picture::MAX_SCALE) {
        return Ok(scale);
    }
    Err(Class::InvalidValue.err(format!(
        "scale {} is out of range: it must be in (0, {}]",
        shown(obj),
        picture::MAX_SCALE
    )))
}

/// `svg` rasterised (run with the GIL released and the game not borrowed).
fn raster(svg: &str, scale: f64) -> PyResult<Raster> {
    Ok(picture::rasterize(svg, scale as f32).py()?)
}

impl PyGame {
    /// The seat a picture is for: `None` (the whole table) or a valid seat.
    fn picture_seat(&self, seat: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
        seat.map(|s| extract_seat(s, self.state().num_players(), "seat"))
            .transpose()
    }

    fn svg(&self, seat: Option<usize>) -> String {
        match seat {
            Some(p) => picture::seat_svg(&self.state().view(p)),
            None => picture::table_svg(self.state()),
        }
    }

    /// The SVG of `seat`'s picture (a seat argument, or `None` for the table), drawn with
    /// the game borrowed only for it.
    fn seat_svg(slf: &Bound<'_, Self>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let this = borrow(slf)?;
        Ok(this.svg(this.picture_seat(seat)?))
    }
}

#[pymethods]
impl PyGame {
    /// The table as text: ``seat=None`` gives every hand (``str(game)``); a seat gives
    /// that seat's view, the other hands only counted.
    #[pyo3(signature = (seat = None))]
    fn to_text(slf: &Bound<'_, Self>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let this = borrow(slf)?;
        Ok(match this.picture_seat(seat)? {
            Some(p) => picture::seat_text(&this.state().view(p)),
            None => picture::table_text(this.state()),
        })
    }

    /// The table as an SVG document (``str``, 960×640): card faces in the suit colours,
    /// hands, the trick, captured bosses, trick counts, trump, scores and seals.
    /// ``seat=None`` shows every hand; a seat shows that seat's view, built from what it
    /// may know only (the other hands face down).
    #[pyo3(signature = (seat = None))]
    fn to_svg(slf: &Bound<'_, Self>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        Self::seat_svg(slf, seat)
    }

    /// :meth:`to_svg` rasterised: a numpy ``uint8`` array of shape ``(H, W, 3)``
    /// (``(640, 960, 3)`` at ``scale=1.0``), the same pixels on every machine (the font
    /// is bundled).
    #[pyo3(signature = (seat = None, scale = 1.0))]
    fn to_rgb_array<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: Option<&Bound<'py, PyAny>>,
        #[pyo3(from_py_with = scale_arg)] scale: f64,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let svg = Self::seat_svg(slf, seat)?;
        let r = py.allow_threads(|| raster(&svg, scale))?;
        let shape = [r.height as usize, r.width as usize, 3];
        let flat = numpy::ndarray::Array1::from_vec(r.rgb);
        let arr = flat
            .into_shape_with_order(shape)
            .map_err(|e| Class::InvalidValue.err(e.to_string()))?;
        Ok(PyArray3::from_owned_array(py, arr))
    }

    /// :meth:`to_svg` rasterised as PNG file bytes.
    #[pyo3(signature = (seat = None, scale = 1.0))]
    fn to_png<'py>(
        slf: &Bound<'py, Self>,
        seat: Option<&Bound<'py, PyAny>>,
        #[pyo3(from_py_with = scale_arg)] scale: f64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let py = slf.py();
        let svg = Self::seat_svg(slf, seat)?;
        let png = py.allow_threads(|| Ok::<_, PyErr>(raster(&svg, scale)?.to_png().py()?))?;
        Ok(PyBytes::new(py, &png))
    }

    /// The HTML replay viewer of the game so far (``str``): one self-contained page
    /// that steps through every round and trick (as ``yokai-septet replay --html``).
    fn replay_html(slf: &Bound<'_, Self>) -> PyResult<String> {
        Ok(picture::replay_html(&borrow(slf)?.m))
    }

    /// Notebooks show the whole table as SVG.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::seat_svg(slf, None)
    }

    /// Notebooks show the whole table as SVG (inline in HTML).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let svg = Self::seat_svg(slf, None)?;
        Ok(format!("<div style=\"max-width:100%\">{svg}</div>"))
    }
}

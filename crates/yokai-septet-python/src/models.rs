//! The `nn` bot's weights from Python: read the shipped or a saved model, save one.

use crate::errors::{Class, IntoPyResult};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use yokai_septet::Variant;
use yokai_septet_bots::{BeliefNet, Inputs, Mlp};

/// ``(variant, inputs, [(weight [out, in] float32, bias [out] float32), ...], metadata)``
/// of the model shipped for the variant ``variant``, or of the safetensors file ``path``.
#[pyfunction(name = "_model_read")]
#[pyo3(signature = (variant = None, path = None))]
pub(crate) fn model_read<'py>(
    py: Python<'py>,
    variant: Option<&str>,
    path: Option<std::path::PathBuf>,
) -> PyResult<(
    String,
    String,
    Vec<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)>,
    Bound<'py, PyDict>,
)> {
    let mlp = match (variant, path) {
        (Some(v), None) => {
            let v: Variant = v.parse().py()?;
            Mlp::from_bytes(Mlp::shipped_bytes(v)).py()?
        }
        // The GIL released while the file is read.
        (None, Some(p)) => py.allow_threads(|| Mlp::load(&p)).py()?,
        _ => return Err(Class::InvalidValue.err("give exactly one of variant and path")),
    };
    let widths = mlp.widths();
    let mut layers = Vec::new();
    for (i, (w, b)) in mlp.layers().into_iter().enumerate() {
        let w = PyArray1::from_vec(py, w).reshape([widths[i + 1], widths[i]])?;
        layers.push((w, PyArray1::from_vec(py, b)));
    }
    let meta = PyDict::new(py);
    for (k, v) in mlp.metadata() {
        meta.set_item(k, v)?;
    }
    Ok((
        mlp.variant().name().to_string(),
        mlp.inputs().name().to_string(),
        layers,
        meta,
    ))
}

/// Writes a model for ``variant`` whose first layer reads ``inputs`` to the safetensors file
/// ``path``; the layers are checked exactly as the ``nn`` bot checks them on loading
/// (``ValueError`` says what is wrong). With ``belief=True`` a belief model
/// (``docs/inference.md``; it reads ``observation+play_log``), checked as the `-inf` bots
/// check it. With ``half=True`` the file stores the weights as float16 (rounded to the
/// nearest; half the bytes).
#[pyfunction(name = "_model_write")]
#[pyo3(signature = (path, variant, inputs, layers, metadata, belief = false, half = false))]
pub(crate) fn model_write(
    path: std::path::PathBuf,
    variant: &str,
    inputs: &str,
    layers: Vec<(PyReadonlyArray2<'_, f32>, PyReadonlyArray1<'_, f32>)>,
    metadata: Vec<(String, String)>,
    belief: bool,
    half: bool,
) -> PyResult<()> {
    let v: Variant = variant.parse().py()?;
    let inputs = Inputs::parse(inputs).py()?;
    let layers = owned_layers(&layers)?;
    let bytes = if belief {
        if inputs != Inputs::ObservationAndPlayLog {
            return Err(Class::InvalidValue.err(
                "a belief model reads the observation and the play log: inputs must be \
                 'observation+play_log'",
            ));
        }
        let mut net = BeliefNet::new(v, layers).py()?;
        for (k, val) in &metadata {
            net.set_metadata(k, val).py()?;
        }
        net.set_half(half);
        net.to_bytes()
    } else {
        let mut mlp = Mlp::with_inputs(v, inputs, layers).py()?;
        for (k, val) in &metadata {
            mlp.set_metadata(k, val).py()?;
        }
        mlp.set_half(half);
        mlp.to_bytes()
    };
    std::fs::write(&path, bytes)
        .map_err(|e| Class::InvalidValue.err(format!("cannot write '{}': {e}", path.display())))
}

/// The layers as owned `(weight, bias)` vectors, rows checked against the biases.
fn owned_layers(
    layers: &[(PyReadonlyArray2<'_, f32>, PyReadonlyArray1<'_, f32>)],
) -> PyResult<Vec<(Vec<f32>, Vec<f32>)>> {
    let mut owned = Vec::with_capacity(layers.len());
    for (i, (w, b)) in layers.iter().enumerate() {
        let (w, b) = (w.as_array(), b.as_array());
        if w.nrows() != b.len() {
            return Err(Class::InvalidValue.err(format!(
                "layer {i}: weight has {} rows but bias has {} values",
                w.nrows(),
                b.len()
            )));
        }
        owned.push((w.iter().copied().collect(), b.to_vec()));
    }
    Ok(owned)
}

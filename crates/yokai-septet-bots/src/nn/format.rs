//! The weights file: safetensors with the metadata of
//! [`MODEL_FORMAT`](super::MODEL_FORMAT) (or [`BELIEF_FORMAT`](super::BELIEF_FORMAT)),
//! read and written (with its header rewritten so that a model always has the same bytes),
//! and the models shipped with the crate.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use half::f16;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use super::mlp::{Head, Inputs, Mlp, WeightsError};
use yokai_septet::files::{read_regular, FileError};
use yokai_septet::Variant;

/// Metadata keys the model itself sets from its shape, not the user.
const OWN_METADATA: [&str; 3] = ["format", "variant", "inputs"];

/// The baseline model shipped for `variant` (the `yokai-septet-models` crate, which has
/// one for every variant: `the_shipped_model_of_every_variant_loads_and_plays_whole_games`).
#[cfg(feature = "models")]
fn shipped_file(variant: Variant) -> &'static [u8] {
    yokai_septet_models::model(variant.name()).expect("every variant has a shipped model")
}

impl Head {
    /// The file shipped for `variant` of the model with this head, if there is one: the
    /// policy and the belief model of every variant, the value models of some.
    #[cfg(feature = "models")]
    pub(super) fn shipped_file(self, variant: Variant) -> Option<&'static [u8]> {
        match self {
            Head::Policy => Some(shipped_file(variant)),
            Head::Belief => {
                // The crate's table is in the engine's variant order (its own test).
                let (name, bytes) = yokai_septet_beliefs::BELIEFS[variant as usize];
                debug_assert_eq!(name, variant.name());
                Some(bytes)
            }
            Head::Value => yokai_septet_models::value_model(variant.name()),
        }
    }
}

/// The tensor `name` of `file` as `f32` values (row-major; stored as `F32`, or `F16`
/// widened exactly), checked to have `rank` dimensions, with its shape and storage type.
fn f32_tensor(
    file: &SafeTensors<'_>,
    name: &str,
    rank: usize,
) -> Result<(Vec<f32>, Vec<usize>, Dtype), WeightsError> {
    let problem = |problem: String| WeightsError::Tensor {
        name: name.to_string(),
        problem,
    };
    let t = file.tensor(name).map_err(|_| problem("missing".into()))?;
    if t.dtype() != Dtype::F32 && t.dtype() != Dtype::F16 {
        return Err(problem(format!(
            "dtype {:?}, expected F32 or F16",
            t.dtype()
        )));
    }
    if t.shape().len() != rank {
        return Err(problem(format!(
            "shape {:?}, expected {rank} dimensions",
            t.shape()
        )));
    }
    let values = if t.dtype() == Dtype::F16 {
        t.data()
            .chunks_exact(2)
            .map(|b| f16::from_le_bytes([b[0], b[1]]).to_f32())
            .collect()
    } else {
        t.data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    };
    Ok((values, t.shape().to_vec(), t.dtype()))
}

/// The largest weights file read (the shipped models are a few MiB each): a larger one
/// is refused before any of it is read.
pub const MAX_WEIGHTS_FILE: u64 = 256 << 20;

/// The bytes of the weights file at `path`: a regular file of at most
/// [`MAX_WEIGHTS_FILE`] bytes ([`read_regular`]: a pipe would block the reader,
/// `/dev/zero` would fill its memory).
pub(super) fn read_file(path: &Path) -> Result<Vec<u8>, WeightsError> {
    let path_text = path.display().to_string();
    read_regular(path, MAX_WEIGHTS_FILE).map_err(|e| match e {
        FileError::Io(e) => WeightsError::Io {
            path: path_text,
            message: e.to_string(),
        },
        FileError::NotAFile(kind) => WeightsError::NotAFile {
            path: path_text,
            kind,
        },
        FileError::TooLarge { bytes, cap } => WeightsError::TooLarge {
            path: path_text,
            bytes,
            cap,
        },
    })
}

/// One entry of a safetensors header: the metadata, or a tensor's place in the file.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
enum HeaderEntry {
    Metadata(BTreeMap<String, String>),
    Tensor {
        dtype: String,
        shape: Vec<usize>,
        data_offsets: (usize, usize),
    },
}

/// `safetensors::serialize` writes the metadata in `HashMap` order, which changes from run
/// to run. The header is rewritten with its keys sorted so that a model always has the same
/// bytes (and the same hash).
fn sort_header(bytes: &[u8]) -> Vec<u8> {
    let n = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")) as usize;
    let header: BTreeMap<String, HeaderEntry> = serde_json::from_slice(&bytes[8..8 + n])
        .expect("safetensors writes a JSON header of this shape");
    let mut json = serde_json::to_vec(&header).expect("a map of strings serializes");
    // The data that follows starts on an 8-byte boundary, as safetensors pads it.
    json.resize(json.len().next_multiple_of(8), b' ');
    let mut out = Vec::with_capacity(8 + json.len() + bytes.len() - 8 - n);
    out.extend_from_slice(&(json.len() as u64).to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&bytes[8 + n..]);
    out
}

impl Mlp {
    /// Reads a model from the bytes of a safetensors file (format
    /// [`MODEL_FORMAT`](super::MODEL_FORMAT)).
    pub fn from_bytes(bytes: &[u8]) -> Result<Mlp, WeightsError> {
        Mlp::read(bytes, Head::Policy)
    }

    /// Reads a model with a last layer that gives `head` (its file's format).
    pub(super) fn read(bytes: &[u8], head: Head) -> Result<Mlp, WeightsError> {
        let not_safetensors =
            |e: safetensors::SafeTensorError| WeightsError::NotSafetensors(e.to_string());
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(not_safetensors)?;
        let file = SafeTensors::deserialize(bytes).map_err(not_safetensors)?;
        let meta = header.metadata().clone().unwrap_or_default();
        let get = |key: &'static str| {
            meta.get(key).ok_or(WeightsError::Metadata {
                key,
                problem: "missing".into(),
            })
        };
        let format = get("format")?;
        if format != head.format() {
            // A belief model of an older input layout: say what changed.
            let older = if head == Head::Belief && format == "yokai-septet-belief/1" {
                " (version 1 read the observation alone; version 2 also reads the play \
                 log: retrain it with training/train_belief.py)"
            } else {
                ""
            };
            return Err(WeightsError::Metadata {
                key: "format",
                problem: format!("'{format}', expected '{}'{older}", head.format()),
            });
        }
        let variant: Variant = get("variant")?
            .parse()
            .map_err(|e| WeightsError::Metadata {
                key: "variant",
                problem: format!("{e}"),
            })?;
        let inputs = match meta.get("inputs") {
            Some(v) => Inputs::parse(v)?,
            None => Inputs::Observation,
        };
        let mut layers = Vec::new();
        let mut half = false;
        let mut width = inputs.size(variant);
        loop {
            let (w, b) = (
                format!("layers.{}.weight", layers.len()),
                format!("layers.{}.bias", layers.len()),
            );
            if file.tensor(&w).is_err() {
                break;
            }
            let (bias, shape, _) = f32_tensor(&file, &b, 1)?;
            let outputs = shape[0];
            let (weight, shape, dtype) = f32_tensor(&file, &w, 2)?;
            half |= dtype == Dtype::F16;
            if shape != [outputs, width] {
                return Err(WeightsError::Tensor {
                    name: w,
                    problem: format!(
                        "shape {shape:?}, expected [{outputs}, {width}] ([outputs, inputs]: \
                         outputs from the bias, inputs from the previous layer or the \
                         {variant} {})",
                        inputs.name()
                    ),
                });
            }
            layers.push((weight, bias));
            width = outputs;
        }
        let mut names = file.names();
        names.sort();
        if let Some(extra) = names.iter().find(|n| {
            !n.strip_prefix("layers.")
                .and_then(|r| r.split_once('.'))
                .is_some_and(|(i, t)| {
                    i.parse::<usize>().is_ok_and(|i| i < layers.len())
                        && (t == "weight" || t == "bias")
                })
        }) {
            return Err(WeightsError::Tensor {
                name: extra.to_string(),
                problem: "not part of the model (tensors are layers.{i}.weight and \
                          layers.{i}.bias, numbered from 0 without gaps)"
                    .into(),
            });
        }
        let mut mlp = Mlp::with_head(variant, inputs, head, layers)?;
        mlp.half = half;
        mlp.metadata = meta
            .into_iter()
            .filter(|(k, _)| !OWN_METADATA.contains(&k.as_str()))
            .collect();
        Ok(mlp)
    }

    /// The header metadata other than `format`, `variant` and `inputs`.
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }

    /// Sets a metadata entry (`format`, `variant` and `inputs` belong to the model and are
    /// refused).
    pub fn set_metadata(&mut self, key: &str, value: &str) -> Result<(), WeightsError> {
        if let Some(key) = OWN_METADATA.into_iter().find(|k| *k == key) {
            return Err(WeightsError::Metadata {
                key,
                problem: "set by the model itself".into(),
            });
        }
        self.metadata.insert(key.into(), value.into());
        Ok(())
    }

    /// The model as a safetensors file (format [`MODEL_FORMAT`](super::MODEL_FORMAT), or
    /// [`BELIEF_FORMAT`](super::BELIEF_FORMAT) for a belief model), its tensors `F16` if
    /// [`Mlp::is_half`], else `F32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut meta: HashMap<String, String> = self.metadata.clone().into_iter().collect();
        meta.insert("format".into(), self.head.format().into());
        meta.insert("variant".into(), self.variant.name().into());
        meta.insert("inputs".into(), self.inputs.name().into());
        let layers = self.layers();
        let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = layers
            .iter()
            .enumerate()
            .flat_map(|(i, (w, b))| {
                let le = |v: &[f32]| -> Vec<u8> {
                    if self.half {
                        v.iter()
                            .flat_map(|&x| f16::from_f32(x).to_le_bytes())
                            .collect()
                    } else {
                        v.iter().flat_map(|x| x.to_le_bytes()).collect()
                    }
                };
                let l = &self.layers[i];
                [
                    (
                        format!("layers.{i}.weight"),
                        vec![l.outputs, l.inputs],
                        le(w),
                    ),
                    (format!("layers.{i}.bias"), vec![l.outputs], le(b)),
                ]
            })
            .collect();
        let views: Vec<(String, TensorView<'_>)> = bytes
            .iter()
            .map(|(name, shape, data)| {
                let dtype = if self.half { Dtype::F16 } else { Dtype::F32 };
                let view = TensorView::new(dtype, shape.clone(), data)
                    .expect("shape and data agree by construction");
                (name.clone(), view)
            })
            .collect();
        let bytes =
            safetensors::serialize(views, Some(meta)).expect("dense tensors always serialize");
        sort_header(&bytes)
    }

    /// Reads a model from the safetensors file at `path`.
    pub fn load(path: &Path) -> Result<Mlp, WeightsError> {
        Mlp::from_bytes(&read_file(path)?)
    }

    /// The baseline model shipped for `variant` (parsed once per process; feature
    /// `models`).
    #[cfg(feature = "models")]
    pub fn shipped(variant: Variant) -> &'static Mlp {
        use std::sync::OnceLock;
        static MODELS: [OnceLock<Mlp>; 4] = [const { OnceLock::new() }; 4];
        MODELS[variant as usize].get_or_init(|| {
            Mlp::from_bytes(shipped_file(variant))
                .unwrap_or_else(|e| panic!("the shipped {variant} model is invalid: {e}"))
        })
    }

    /// The shipped model's file, byte for byte (to export, inspect or fine-tune it; feature
    /// `models`).
    #[cfg(feature = "models")]
    pub fn shipped_bytes(variant: Variant) -> &'static [u8] {
        shipped_file(variant)
    }
}

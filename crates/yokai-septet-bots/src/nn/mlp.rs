//! The network: an [`Mlp`] (dense layers with ReLU between them) over what [`Inputs`]
//! says the first layer reads, and the checks on its shape. Reading and writing its
//! weights files is [`super::format`]'s business.

use std::collections::BTreeMap;
use std::fmt;

use crate::HeuristicBot;
use yokai_septet::observation::{encode, observation_size};
use yokai_septet::play_log::{encode_play_log, play_log_size};
use yokai_septet::SeatView;
use yokai_septet::Variant;

/// What is wrong with a weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file could not be read.
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// The path is not a regular file (a named pipe, a device, a folder): not read.
    NotAFile {
        /// The path.
        path: String,
        /// What it is instead.
        kind: &'static str,
    },
    /// The file is larger than the cap on a weights file
    /// ([`MAX_WEIGHTS_FILE`](crate::MAX_WEIGHTS_FILE) bytes): not read.
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        bytes: u64,
        /// The cap.
        cap: u64,
    },
    /// The bytes are not a safetensors file.
    NotSafetensors(String),
    /// A metadata entry is missing or has a value this version does not accept.
    Metadata {
        /// The metadata key.
        key: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// A tensor is missing, of the wrong type, or of a shape that does not fit.
    Tensor {
        /// The tensor's name (`layers.{i}.weight` or `.bias`).
        name: String,
        /// What is wrong with it.
        problem: String,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Io { path, message } => write!(f, "cannot read '{path}': {message}"),
            WeightsError::NotAFile { path, kind } => write!(
                f,
                "cannot read '{path}': it is {kind}, and a model is read only from a regular file"
            ),
            WeightsError::TooLarge { path, bytes, cap } => write!(
                f,
                "cannot read '{path}': it has {bytes} bytes, over the {} MiB a model file may have",
                cap >> 20
            ),
            WeightsError::NotSafetensors(why) => write!(f, "not a safetensors file: {why}"),
            WeightsError::Metadata { key, problem } => write!(f, "metadata '{key}': {problem}"),
            WeightsError::Tensor { name, problem } => write!(f, "tensor '{name}': {problem}"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// One fully connected layer, stored input-major so that a zero input (most of the
/// observation, and every ReLU that did not fire) costs one comparison.
#[derive(Clone, Debug)]
pub(super) struct Dense {
    pub(super) inputs: usize,
    pub(super) outputs: usize,
    /// `weight_t[i * outputs + o]` is `torch`'s `weight[o][i]`.
    weight_t: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    /// `out = bias + W · x`.
    fn forward(&self, x: &[f32], out: &mut [f32]) {
        debug_assert_eq!((x.len(), out.len()), (self.inputs, self.outputs));
        out.copy_from_slice(&self.bias);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &self.weight_t[i * self.outputs..(i + 1) * self.outputs];
                for (o, &w) in out.iter_mut().zip(row) {
                    *o += xi * w;
                }
            }
        }
    }
}

/// What the first layer of an [`Mlp`] reads (metadata key `inputs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// The canonical observation ([`encode`]).
    Observation,
    /// The canonical observation, then a one-hot of the card id [`HeuristicBot::choose`]
    /// picks (one input per card id). The heuristic is deterministic and costs under a
    /// microsecond, and a network that sees its card need only learn where to deviate.
    ObservationAndHeuristic,
    /// The canonical observation, then the round's play log ([`encode_play_log`]: how
    /// each card was played, led, over, under, ruff, discard, by seat): the belief model's
    /// input, which reads leads, ducks and discards.
    ObservationAndPlayLog,
    /// The observation of the seat to play, then every other seat's hand (a card-id block
    /// per seat, the next clockwise first): the value model's input
    /// ([`super::ValueNet`]), which reads the whole determinized deal. Hidden hands are not
    /// in a [`SeatView`]: only a value model reads them, from the state
    /// ([`super::encode_value_input`]).
    ObservationAndHands,
}

impl Inputs {
    /// Every kind, in the order error messages list them.
    pub const ALL: [Inputs; 4] = [
        Inputs::Observation,
        Inputs::ObservationAndHeuristic,
        Inputs::ObservationAndPlayLog,
        Inputs::ObservationAndHands,
    ];

    /// The metadata value.
    pub fn name(self) -> &'static str {
        match self {
            Inputs::Observation => "observation",
            Inputs::ObservationAndHeuristic => "observation+heuristic",
            Inputs::ObservationAndPlayLog => "observation+play_log",
            Inputs::ObservationAndHands => "observation+hands",
        }
    }

    /// Parses a metadata value.
    pub fn parse(value: &str) -> Result<Inputs, WeightsError> {
        Inputs::ALL
            .into_iter()
            .find(|i| i.name() == value)
            .ok_or_else(|| WeightsError::Metadata {
                key: "inputs",
                problem: format!(
                    "'{value}', expected {}",
                    Inputs::ALL.map(|i| format!("'{}'", i.name())).join(" or ")
                ),
            })
    }

    /// Width of the first layer's input in `variant`.
    pub fn size(self, variant: Variant) -> usize {
        match self {
            Inputs::Observation => observation_size(variant),
            Inputs::ObservationAndHeuristic => observation_size(variant) + variant.num_actions(),
            Inputs::ObservationAndPlayLog => observation_size(variant) + play_log_size(variant),
            Inputs::ObservationAndHands => {
                observation_size(variant) + (variant.num_players() - 1) * variant.num_actions()
            }
        }
    }

    /// Writes the input of the seat of `view` into `out` (length [`Inputs::size`]).
    ///
    /// # Panics
    /// For [`Inputs::ObservationAndHands`], which reads hidden hands (a model with those
    /// inputs is a value model, and only a value model is built with them).
    pub fn encode(self, view: &SeatView, out: &mut [f32]) {
        let obs = observation_size(view.variant());
        encode(view, &mut out[..obs]);
        match self {
            Inputs::Observation => {}
            Inputs::ObservationAndHeuristic => {
                let hint = &mut out[obs..];
                hint.fill(0.0);
                hint[HeuristicBot::choose(view).id() as usize] = 1.0;
            }
            Inputs::ObservationAndPlayLog => encode_play_log(view, &mut out[obs..]),
            Inputs::ObservationAndHands => unreachable!("a value model reads the state"),
        }
    }
}

/// The `format` metadata value of a weights file this version reads.
pub const MODEL_FORMAT: &str = "yokai-septet-mlp/1";

/// The `format` metadata value of a belief model's weights file ([`super::BeliefNet`]):
/// the same tensors, a last layer of one logit per card id and other seat.
pub const BELIEF_FORMAT: &str = "yokai-septet-belief/2";

/// The `format` metadata value of a value model's weights file ([`super::ValueNet`]): the
/// same tensors, a last layer of one value per seat.
pub const VALUE_FORMAT: &str = "yokai-septet-value/1";

/// What the last layer of an [`Mlp`] gives, and the `format` of its weights file.
/// (`pub` for [`super::NetKind`], which names it; not exported.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// A policy: one logit per card id ([`MODEL_FORMAT`]).
    Policy,
    /// A belief model ([`super::BeliefNet`]): one logit per card id and other seat
    /// ([`BELIEF_FORMAT`]).
    Belief,
    /// A value model ([`super::ValueNet`]): one value per seat ([`VALUE_FORMAT`]).
    Value,
}

impl Head {
    /// The `format` metadata value of its weights files.
    pub(crate) fn format(self) -> &'static str {
        match self {
            Head::Policy => MODEL_FORMAT,
            Head::Belief => BELIEF_FORMAT,
            Head::Value => VALUE_FORMAT,
        }
    }

    /// What a model with this head is called in messages (the shipped models' only).
    #[cfg(feature = "models")]
    pub(crate) fn model_name(self) -> &'static str {
        match self {
            Head::Policy => "model",
            Head::Belief => "belief model",
            Head::Value => "value model",
        }
    }

    /// Width of the last layer in `variant`.
    pub(crate) fn outputs(self, variant: Variant) -> usize {
        match self {
            Head::Policy => variant.num_actions(),
            Head::Belief => variant.num_actions() * (variant.num_players() - 1),
            Head::Value => variant.num_players(),
        }
    }

    /// What the last layer's outputs are, for error messages.
    fn describe(self, variant: Variant) -> String {
        match self {
            Head::Policy => format!("one per card id of {variant} ({})", variant.num_actions()),
            Head::Belief => format!(
                "one per card id and other seat of {variant} ({} x {})",
                variant.num_actions(),
                variant.num_players() - 1
            ),
            Head::Value => format!(
                "one value per seat of {variant} ({})",
                variant.num_players()
            ),
        }
    }

    /// The inputs a model with this head may read: a value model reads the hidden hands,
    /// and nothing else does (a bot plays from what its seat sees).
    fn accepts(self, inputs: Inputs) -> bool {
        (self == Head::Value) == (inputs == Inputs::ObservationAndHands)
    }
}

/// A multilayer perceptron for one variant: observation (and, per [`Inputs`], the
/// heuristic's card) in; out one logit per card id (a policy, the `nn` bot), or one per
/// card id and other seat (a [`super::BeliefNet`]).
#[derive(Clone, Debug)]
pub struct Mlp {
    pub(super) variant: Variant,
    pub(super) inputs: Inputs,
    pub(super) head: Head,
    pub(super) layers: Vec<Dense>,
    /// The header's other metadata (how the model was made, say), kept by `to_bytes`.
    pub(super) metadata: BTreeMap<String, String>,
    /// Whether its file stores the weights as `F16` (read from it, kept by `to_bytes`).
    pub(super) half: bool,
}

impl Mlp {
    /// A model for `variant` from its layers, input first, each `(weight, bias)` with
    /// `weight` row-major `[outputs][inputs]` (as `torch.nn.Linear` stores it). The first
    /// layer takes the observation, the last gives one logit per card id.
    pub fn new(variant: Variant, layers: Vec<(Vec<f32>, Vec<f32>)>) -> Result<Mlp, WeightsError> {
        Mlp::with_inputs(variant, Inputs::Observation, layers)
    }

    /// [`Mlp::new`] for a first layer that reads `inputs`.
    pub fn with_inputs(
        variant: Variant,
        inputs: Inputs,
        layers: Vec<(Vec<f32>, Vec<f32>)>,
    ) -> Result<Mlp, WeightsError> {
        Mlp::with_head(variant, inputs, Head::Policy, layers)
    }

    /// [`Mlp::with_inputs`] with a last layer that gives `head`.
    pub(crate) fn with_head(
        variant: Variant,
        inputs: Inputs,
        head: Head,
        layers: Vec<(Vec<f32>, Vec<f32>)>,
    ) -> Result<Mlp, WeightsError> {
        if !head.accepts(inputs) {
            return Err(WeightsError::Metadata {
                key: "inputs",
                problem: format!(
                    "'{}' for a {} model: {}",
                    inputs.name(),
                    head.format(),
                    if head == Head::Value {
                        "a value model reads 'observation+hands'"
                    } else {
                        "only a value model reads the hidden hands"
                    }
                ),
            });
        }
        if layers.is_empty() {
            return Err(WeightsError::Tensor {
                name: "layers.0.weight".into(),
                problem: "missing: a model has at least one layer".into(),
            });
        }
        let mut width = inputs.size(variant);
        let mut dense = Vec::with_capacity(layers.len());
        for (i, (weight, bias)) in layers.into_iter().enumerate() {
            let outputs = bias.len();
            let problem = |name: &str, problem: String| WeightsError::Tensor {
                name: format!("layers.{i}.{name}"),
                problem,
            };
            if outputs == 0 || weight.len() != outputs * width {
                return Err(problem(
                    "weight",
                    format!(
                        "{} values, expected [{outputs}, {width}] (outputs from the bias, \
                         inputs from the previous layer or the {variant} {})",
                        weight.len(),
                        inputs.name()
                    ),
                ));
            }
            for (name, values) in [("weight", &weight), ("bias", &bias)] {
                if let Some(k) = values.iter().position(|v| !v.is_finite()) {
                    return Err(problem(
                        name,
                        format!("value {} at flat index {k} is not finite", values[k]),
                    ));
                }
            }
            let mut weight_t = vec![0.0; weight.len()];
            for o in 0..outputs {
                for j in 0..width {
                    weight_t[j * outputs + o] = weight[o * width + j];
                }
            }
            dense.push(Dense {
                inputs: width,
                outputs,
                weight_t,
                bias,
            });
            width = outputs;
        }
        if width != head.outputs(variant) {
            return Err(WeightsError::Tensor {
                name: format!("layers.{}.weight", dense.len() - 1),
                problem: format!("{width} outputs, expected {}", head.describe(variant)),
            });
        }
        Ok(Mlp {
            variant,
            inputs,
            head,
            layers: dense,
            metadata: BTreeMap::new(),
            half: false,
        })
    }

    /// The variant the model plays.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether its weights file stores `F16` values (half the bytes; the weights are then
    /// those values, read exactly as `f32`).
    pub fn is_half(&self) -> bool {
        self.half
    }

    /// The model with its weights rounded to `F16` (to the nearest), as its file will
    /// store them, or back to `F32` storage (the values stay as they are).
    pub fn set_half(&mut self, half: bool) {
        if half {
            for layer in &mut self.layers {
                for v in layer.weight_t.iter_mut().chain(&mut layer.bias) {
                    *v = half::f16::from_f32(*v).to_f32();
                }
            }
        }
        self.half = half;
    }

    /// What the first layer reads.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The layers as [`Mlp::new`] takes them: `(weight [outputs][inputs], bias)`.
    pub fn layers(&self) -> Vec<(Vec<f32>, Vec<f32>)> {
        self.layers
            .iter()
            .map(|l| {
                let mut w = vec![0.0; l.weight_t.len()];
                for j in 0..l.inputs {
                    for o in 0..l.outputs {
                        w[o * l.inputs + j] = l.weight_t[j * l.outputs + o];
                    }
                }
                (w, l.bias.clone())
            })
            .collect()
    }

    /// Widths from the input to the output: `[input size, hidden..., actions]`.
    pub fn widths(&self) -> Vec<usize> {
        let mut w = vec![self.layers[0].inputs];
        w.extend(self.layers.iter().map(|l| l.outputs));
        w
    }

    /// Number of weights and biases.
    pub fn parameters(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.weight_t.len() + l.bias.len())
            .sum()
    }

    /// The logits of `input` (length [`Inputs::size`], as [`Inputs::encode`] writes it) into
    /// `out` (one per card id, or per card id and other seat for a belief model), using
    /// `scratch` for the hidden layers.
    pub fn logits(&self, input: &[f32], scratch: &mut Scratch, out: &mut [f32]) {
        let (last, hidden) = self.layers.split_last().expect("at least one layer");
        scratch.hidden.resize_with(hidden.len(), Vec::new);
        let mut input = input;
        for (layer, buffer) in hidden.iter().zip(scratch.hidden.iter_mut()) {
            buffer.resize(layer.outputs, 0.0);
            layer.forward(input, buffer);
            for v in buffer.iter_mut() {
                *v = v.max(0.0);
            }
            input = buffer;
        }
        last.forward(input, out);
    }
}

/// Reusable hidden-layer buffers for [`Mlp::logits`].
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    hidden: Vec<Vec<f32>>,
}

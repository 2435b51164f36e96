//! `nn`: a small neural-network policy, run in Rust with no framework at run time.
//!
//! The network is a multilayer perceptron over the canonical observation
//! ([`yokai_septet::observation::encode`] of the seat's [`SeatView`]) with ReLU between layers and
//! one logit per card id out. The bot plays the legal card with the highest logit (ties to
//! the lowest card id), so it is deterministic and needs no random stream.
//!
//! Weights are a [safetensors](https://huggingface.co/docs/safetensors) file, format
//! [`MODEL_FORMAT`] (documented in `docs/baselines.md`):
//!
//! - tensors `layers.{i}.weight` (`[outputs, inputs]`, as `torch.nn.Linear` stores them)
//!   and `layers.{i}.bias` (`[outputs]`), `F32`, for `i = 0..L`;
//! - metadata `format` = [`MODEL_FORMAT`] and `variant` (`4p`, `3p`, `seal`, `seal-short`),
//!   and optionally `inputs` ([`Inputs`]): `observation` (the default) or
//!   `observation+heuristic`, where the first layer also reads a one-hot of the card the
//!   `heuristic` bot would play, so that the network learns where to depart from it.
//!
//! `nn` plays the model shipped for the game's variant ([`Mlp::shipped`]); `nn:PATH` plays
//! the model in the file `PATH`.
//!
//! `format.rs` reads and writes the weights files (and holds the shipped ones), `mlp.rs`
//! is the network and its maths; this module is the bot, with the cache of models read
//! from files.

mod belief;
mod format;
mod mlp;
mod net;
mod value;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::{first_best, has_decision, snapshot_words, Bot, BotError};
use yokai_septet::Card;
use yokai_septet::SeatView;
use yokai_septet::Variant;

pub use belief::{BeliefNet, BeliefScratch};
pub use format::MAX_WEIGHTS_FILE;
pub use mlp::{Inputs, Mlp, Scratch, WeightsError, BELIEF_FORMAT, MODEL_FORMAT, VALUE_FORMAT};
pub use net::{BeliefHead, Net, NetKind, ValueHead};
pub use value::{encode_value_input, ValueNet, ValueScratch};

/// Models read from files, kept while the file is unchanged (an arena builds a bot per
/// game; a training loop rewrites its file between evaluations). A
/// [`BotRegistry`](super::BotRegistry) owns one.
#[derive(Default)]
pub(crate) struct ModelCache {
    models: Mutex<HashMap<PathBuf, (ModelKey, Arc<Mlp>)>>,
}

/// What tells a rewritten model file: its modification time and length.
type ModelKey = (Option<SystemTime>, u64);

impl ModelCache {
    /// The model in the file at `path`, read again only if the file changed.
    pub(crate) fn load(&self, path: impl AsRef<Path>) -> Result<Arc<Mlp>, WeightsError> {
        let path = path.as_ref();
        let io = |e: std::io::Error| WeightsError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        let key = (meta.modified().ok(), meta.len());
        let models = || self.models.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, model)) = models().get(path) {
            if *k == key {
                return Ok(model.clone());
            }
        }
        let model = Arc::new(Mlp::load(path)?);
        models().insert(path.to_path_buf(), (key, model.clone()));
        Ok(model)
    }
}

/// Which model an [`NnBot`] plays.
#[derive(Clone, Debug)]
enum Model {
    /// The shipped baseline of whatever variant the game is.
    #[cfg(feature = "models")]
    Shipped,
    /// A model read from a file, for its own variant only.
    File { path: String, mlp: Arc<Mlp> },
}

/// The network `model` plays in a game of `variant`.
// A model file is for its own variant: only a shipped model depends on the game's.
#[cfg_attr(not(feature = "models"), allow(unused_variables))]
fn model_for(model: &Model, variant: Variant) -> &Mlp {
    match model {
        #[cfg(feature = "models")]
        Model::Shipped => Mlp::shipped(variant),
        Model::File { mlp, .. } => mlp,
    }
}

/// The `nn` bot: the legal card with the highest logit of an [`Mlp`].
#[derive(Clone, Debug)]
pub struct NnBot {
    model: Model,
    input: Vec<f32>,
    logits: Vec<f32>,
    scratch: Scratch,
}

impl NnBot {
    /// Plays the shipped baseline model of each game's variant (feature `models`).
    #[cfg(feature = "models")]
    pub fn shipped() -> NnBot {
        NnBot::with_model(Model::Shipped)
    }

    /// Plays the model in the safetensors file at `path` (read now; a
    /// [`BotRegistry`](super::BotRegistry) reads each file once).
    pub fn from_file(path: &str) -> Result<NnBot, WeightsError> {
        Ok(NnBot::with_file_model(
            path,
            Arc::new(Mlp::load(Path::new(path))?),
        ))
    }

    /// Plays `mlp`, read from the file at `path`.
    pub(crate) fn with_file_model(path: &str, mlp: Arc<Mlp>) -> NnBot {
        NnBot::with_model(Model::File {
            path: path.to_string(),
            mlp,
        })
    }

    fn with_model(model: Model) -> NnBot {
        NnBot {
            model,
            input: Vec::new(),
            logits: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    /// The variant of the model it plays in a game of `variant` (another one for a model
    /// file of another variant).
    pub(crate) fn model_variant(&self, variant: Variant) -> Variant {
        model_for(&self.model, variant).variant()
    }

    /// The logit of every card id for the seat of `view` (whatever is legal).
    pub fn logits(&mut self, view: &SeatView) -> &[f32] {
        let variant = view.variant();
        let NnBot {
            model,
            input,
            logits,
            scratch,
        } = self;
        let mlp = model_for(model, variant);
        input.resize(mlp.inputs.size(variant), 0.0);
        logits.resize(variant.num_actions(), 0.0);
        mlp.inputs.encode(view, input);
        mlp.logits(input, scratch, logits);
        logits
    }
}

impl NnBot {
    /// What it plays, as a name's fields: the shipped model, or its model file.
    fn own_spec(&self) -> crate::BotSpec {
        let model = match &self.model {
            #[cfg(feature = "models")]
            Model::Shipped => None,
            Model::File { path, .. } => Some(path.clone()),
        };
        crate::BotSpec {
            model,
            ..crate::BotSpec::bare(crate::Family::Nn)
        }
    }
}

impl Bot for NnBot {
    crate::named_by_spec!();

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        let variant = view.variant();
        let trained_for = self.model_variant(variant);
        if trained_for != variant {
            return Err(BotError::Unsupported {
                name: self.name(),
                variant,
                why: format!("its weights are for {trained_for}"),
            });
        }
        let legal = has_decision(self, view)?;
        let logits = self.logits(view);
        let best = first_best(legal.iter().map(|c| (c, logits[c.id() as usize])));
        Ok(best.expect("a non-empty legal set has a best card"))
    }

    fn reseed(&mut self, _seed: u64) {}

    /// Deterministic: nothing to carry between decisions.
    fn snapshot(&self) -> Option<Vec<u64>> {
        Some(Vec::new())
    }

    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        snapshot_words::<0>(self.name(), words).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{bot_by_name, BotError, HeuristicBot};
    use rand_core::RngCore;
    use safetensors::tensor::{Dtype, TensorView};
    use yokai_septet::observation::{encode, observation_size};
    use yokai_septet::rng::test_rng;
    use yokai_septet::GameConfig;
    use yokai_septet::State;

    /// A random model for `variant` with the given hidden widths.
    fn random_model(variant: Variant, hidden: &[usize], seed: u64) -> Mlp {
        let mut rng = test_rng(seed);
        let mut widths = vec![observation_size(variant)];
        widths.extend_from_slice(hidden);
        widths.push(variant.num_actions());
        let mut value = || (rng.next_u32() as f32 / u32::MAX as f32 - 0.5) * 0.2;
        let layers = widths
            .windows(2)
            .map(|w| {
                let weight = (0..w[0] * w[1]).map(|_| value()).collect();
                let bias = (0..w[1]).map(|_| value()).collect();
                (weight, bias)
            })
            .collect();
        Mlp::new(variant, layers).unwrap()
    }

    /// The logits of a plain dense forward pass over torch-layout weights.
    fn dense_reference(layers: &[(Vec<f32>, Vec<f32>)], x: &[f32]) -> Vec<f32> {
        let mut h = x.to_vec();
        for (i, (w, b)) in layers.iter().enumerate() {
            let inputs = h.len();
            let mut out: Vec<f32> = b
                .iter()
                .enumerate()
                .map(|(o, &bo)| bo + (0..inputs).map(|j| w[o * inputs + j] * h[j]).sum::<f32>())
                .collect();
            if i + 1 < layers.len() {
                out.iter_mut().for_each(|v| *v = v.max(0.0));
            }
            h = out;
        }
        h
    }

    #[test]
    #[cfg(feature = "models")]
    fn the_shipped_model_of_every_variant_loads_and_plays_whole_games() {
        for v in Variant::ALL {
            let mlp = Mlp::shipped(v);
            assert_eq!(mlp.variant(), v);
            // The shipped models read the heuristic's card too (docs/baselines.md).
            assert_eq!(mlp.inputs(), Inputs::ObservationAndHeuristic);
            assert_eq!(mlp.widths()[0], observation_size(v) + v.num_actions());
            assert_eq!(*mlp.widths().last().unwrap(), v.num_actions());
            let mut bot = bot_by_name("nn", 0, v).unwrap();
            let mut s = State::new(GameConfig::new(v, 3).with_max_rounds(Some(3)));
            while let Some(p) = s.current_player() {
                let card = bot.act(&s.view(p)).unwrap();
                s.apply(card).unwrap();
            }
        }
    }

    #[test]
    fn the_sparse_forward_pass_equals_a_dense_reference() {
        for v in Variant::ALL {
            let mlp = random_model(v, &[32, 16], v as u64);
            let mut s = State::new(GameConfig::new(v, 11));
            let mut scratch = Scratch::default();
            let mut bot = bot_by_name("random", 5, v).unwrap();
            for _ in 0..30 {
                let Some(p) = s.current_player() else { break };
                let mut obs = vec![0.0f32; observation_size(v)];
                encode(&s.view(p), &mut obs);
                let mut out = vec![0.0; v.num_actions()];
                mlp.logits(&obs, &mut scratch, &mut out);
                let want = dense_reference(&mlp.layers(), &obs);
                for (a, b) in out.iter().zip(&want) {
                    assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{v}: {a} vs {b}");
                }
                let card = bot.act(&s.view(p)).unwrap();
                s.apply(card).unwrap();
            }
        }
    }

    #[test]
    fn the_bot_plays_the_legal_card_with_the_highest_logit() {
        let v = Variant::FourPlayer;
        let mlp = random_model(v, &[8], 1);
        let path =
            std::env::temp_dir().join(format!("ys-nn-argmax-{}.safetensors", std::process::id()));
        std::fs::write(&path, mlp.to_bytes()).unwrap();
        let mut bot = NnBot::from_file(path.to_str().unwrap()).unwrap();
        let mut s = State::new(GameConfig::new(v, 4));
        while let Some(p) = s.current_player() {
            let view = s.view(p);
            let logits = bot.logits(&view).to_vec();
            let card = bot.act(&view).unwrap();
            for c in view.legal_actions() {
                assert!(logits[c.id() as usize] <= logits[card.id() as usize]);
            }
            s.apply(card).unwrap();
        }
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn a_model_always_has_the_same_bytes() {
        let mut mlp = random_model(Variant::SealShort, &[16], 9);
        for key in ["teacher", "seed", "stage", "labels", "trained_by"] {
            mlp.set_metadata(key, key).unwrap();
        }
        let bytes = mlp.to_bytes();
        // Each HashMap has its own random order: twenty of them all but surely differ.
        for _ in 0..20 {
            assert_eq!(mlp.to_bytes(), bytes);
        }
        let back = Mlp::from_bytes(&bytes).unwrap();
        assert_eq!(back.metadata(), mlp.metadata());
        assert_eq!(back.to_bytes(), bytes);
        let header = String::from_utf8_lossy(&bytes[8..]);
        let at = |key: &str| header.find(&format!("\"{key}\":")).unwrap();
        let keys = [
            "format",
            "inputs",
            "labels",
            "seed",
            "stage",
            "teacher",
            "trained_by",
            "variant",
        ];
        assert!(
            keys.windows(2).all(|w| at(w[0]) < at(w[1])),
            "{header:.300}"
        );
        // The shipped files were written this way: saving one again changes no byte.
        #[cfg(feature = "models")]
        for v in Variant::ALL {
            assert_eq!(Mlp::shipped(v).to_bytes(), Mlp::shipped_bytes(v), "{v}");
        }
    }

    #[test]
    fn weights_round_trip_through_a_safetensors_file_with_their_metadata() {
        let mut mlp = random_model(Variant::SealShort, &[16], 9);
        mlp.set_metadata("teacher", "pimc").unwrap();
        let back = Mlp::from_bytes(&mlp.to_bytes()).unwrap();
        assert_eq!(back.variant(), Variant::SealShort);
        assert_eq!(back.layers(), mlp.layers());
        assert_eq!(
            back.metadata().get("teacher").map(String::as_str),
            Some("pimc")
        );
        assert!(mlp.set_metadata("variant", "4p").is_err());
        assert!(mlp.set_metadata("inputs", "observation").is_err());
        assert_eq!(back.inputs(), Inputs::Observation);
    }

    /// A one-layer `observation+heuristic` model whose logits are its heuristic one-hot
    /// plays the heuristic's card at every decision, and keeps its `inputs` through a file.
    #[test]
    fn an_observation_and_heuristic_model_reads_the_heuristics_card() {
        for v in Variant::ALL {
            let (obs, act) = (observation_size(v), v.num_actions());
            let width = Inputs::ObservationAndHeuristic.size(v);
            assert_eq!(width, obs + act);
            let mut weight = vec![0.0; act * width];
            for o in 0..act {
                weight[o * width + obs + o] = 1.0;
            }
            let mlp = Mlp::with_inputs(
                v,
                Inputs::ObservationAndHeuristic,
                vec![(weight, vec![0.0; act])],
            )
            .unwrap();
            let back = Mlp::from_bytes(&mlp.to_bytes()).unwrap();
            assert_eq!(back.inputs(), Inputs::ObservationAndHeuristic);
            assert_eq!(back.widths(), vec![obs + act, act]);
            let mut bot = NnBot::with_model(Model::File {
                path: "copy-of-heuristic".into(),
                mlp: Arc::new(back),
            });
            let mut s = State::new(GameConfig::new(v, 5).with_max_rounds(Some(2)));
            let mut decisions = 0;
            while let Some(p) = s.current_player() {
                let view = s.view(p);
                let card = bot.act(&view).unwrap();
                assert_eq!(
                    card,
                    HeuristicBot::choose(&view),
                    "{v}: decision {decisions}"
                );
                s.apply(card).unwrap();
                decisions += 1;
            }
            assert!(decisions > 20);
        }
    }

    /// A safetensors file with these tensors (name, dtype, shape, values) and metadata.
    fn file(tensors: &[(&str, Dtype, Vec<usize>, Vec<u8>)], meta: &[(&str, &str)]) -> Vec<u8> {
        let views: Vec<(String, TensorView<'_>)> = tensors
            .iter()
            .map(|(n, d, s, b)| (n.to_string(), TensorView::new(*d, s.clone(), b).unwrap()))
            .collect();
        let meta: HashMap<String, String> = meta
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        safetensors::serialize(views, Some(meta)).unwrap()
    }

    fn zeros(n: usize) -> Vec<u8> {
        vec![0; 4 * n]
    }

    #[test]
    fn malformed_weights_are_refused_saying_what_is_wrong_and_where() {
        let (obs, act) = (observation_size(Variant::FourPlayer), 49);
        let ok_meta = [("format", MODEL_FORMAT), ("variant", "4p")];
        let layer0 = |shape: Vec<usize>| {
            (
                "layers.0.weight",
                Dtype::F32,
                shape.clone(),
                zeros(shape.iter().product()),
            )
        };
        let bias0 = ("layers.0.bias", Dtype::F32, vec![act], zeros(act));
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"not a model".to_vec(), "not a safetensors file"),
            (
                file(
                    &[layer0(vec![act, obs]), bias0.clone()],
                    &[("variant", "4p")],
                ),
                "metadata 'format': missing",
            ),
            (
                file(
                    &[layer0(vec![act, obs]), bias0.clone()],
                    &[("format", "other/9"), ("variant", "4p")],
                ),
                "metadata 'format': 'other/9'",
            ),
            (
                file(
                    &[layer0(vec![act, obs]), bias0.clone()],
                    &[("format", MODEL_FORMAT), ("variant", "5p")],
                ),
                "metadata 'variant'",
            ),
            (
                file(&[layer0(vec![obs, act]), bias0.clone()], &ok_meta),
                "tensor 'layers.0.weight': shape [711, 49], expected [49, 711]",
            ),
            (
                file(
                    &[layer0(vec![act, obs]), bias0.clone()],
                    &[
                        ("format", MODEL_FORMAT),
                        ("variant", "4p"),
                        ("inputs", "cards"),
                    ],
                ),
                "metadata 'inputs': 'cards', expected 'observation' or 'observation+heuristic'",
            ),
            (
                // An `observation+heuristic` first layer is 49 inputs wider.
                file(
                    &[layer0(vec![act, obs]), bias0.clone()],
                    &[
                        ("format", MODEL_FORMAT),
                        ("variant", "4p"),
                        ("inputs", "observation+heuristic"),
                    ],
                ),
                "tensor 'layers.0.weight': shape [49, 711], expected [49, 760]",
            ),
            (
                file(&[layer0(vec![act, obs])], &ok_meta),
                "tensor 'layers.0.bias': missing",
            ),
            (
                file(
                    &[
                        (
                            "layers.0.weight",
                            Dtype::F64,
                            vec![act, obs],
                            vec![0; 8 * act * obs],
                        ),
                        bias0.clone(),
                    ],
                    &ok_meta,
                ),
                "tensor 'layers.0.weight': dtype F64",
            ),
            (
                file(
                    &[
                        layer0(vec![act, obs]),
                        bias0.clone(),
                        ("extra", Dtype::F32, vec![1], zeros(1)),
                    ],
                    &ok_meta,
                ),
                "tensor 'extra': not part of the model",
            ),
            (
                file(
                    &[
                        layer0(vec![act, obs]),
                        bias0.clone(),
                        ("layers.2.bias", Dtype::F32, vec![1], zeros(1)),
                    ],
                    &ok_meta,
                ),
                "tensor 'layers.2.bias': not part of the model",
            ),
            (
                file(
                    &[
                        layer0(vec![10, obs]),
                        ("layers.0.bias", Dtype::F32, vec![10], zeros(10)),
                    ],
                    &ok_meta,
                ),
                "tensor 'layers.0.weight': 10 outputs, expected one per card id of 4p (49)",
            ),
            (file(&[], &ok_meta), "tensor 'layers.0.weight': missing"),
        ];
        for (bytes, want) in cases {
            let e = Mlp::from_bytes(&bytes).unwrap_err().to_string();
            assert!(e.contains(want), "expected '{want}' in: {e}");
        }
        let mut nan = zeros(act);
        nan[..4].copy_from_slice(&f32::NAN.to_le_bytes());
        let e = Mlp::from_bytes(&file(
            &[
                layer0(vec![act, obs]),
                ("layers.0.bias", Dtype::F32, vec![act], nan),
            ],
            &ok_meta,
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("tensor 'layers.0.bias': value NaN at flat index 0 is not finite"),
            "{e}"
        );
    }

    #[test]
    fn a_model_file_plays_only_its_own_variant_and_a_bad_path_is_named() {
        let path =
            std::env::temp_dir().join(format!("ys-nn-3p-{}.safetensors", std::process::id()));
        std::fs::write(
            &path,
            random_model(Variant::ThreePlayer, &[8], 2).to_bytes(),
        )
        .unwrap();
        let name = format!("nn:{}", path.display());
        assert!(bot_by_name(&name, 0, Variant::ThreePlayer).is_ok());
        let e = bot_by_name(&name, 0, Variant::FourPlayer).err().unwrap();
        assert!(matches!(e, BotError::Unsupported { .. }));
        assert_eq!(
            e.to_string(),
            format!("bot '{name}' cannot play 4p: its weights are for 3p")
        );
        let e = bot_by_name("nn:/no/such/model.safetensors", 0, Variant::FourPlayer)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.starts_with(
                "bot 'nn:/no/such/model.safetensors': cannot read '/no/such/model.safetensors'"
            ),
            "{e}"
        );
        std::fs::remove_file(path).ok();
    }

    /// The names that play a shipped model build only with the feature `models`; without
    /// it they are refused at build, saying what the build lacks, and a model file plays in
    /// every build.
    #[test]
    fn shipped_model_names_need_the_models_feature_and_a_model_file_never_does() {
        let v = Variant::FourPlayer;
        let path =
            std::env::temp_dir().join(format!("ys-nn-nomodels-{}.safetensors", std::process::id()));
        std::fs::write(&path, random_model(v, &[8], 3).to_bytes()).unwrap();
        for name in [
            format!("nn:{}", path.display()),
            format!("ismcts-nn:20:{}", path.display()),
        ] {
            let mut bot = bot_by_name(&name, 0, v).unwrap();
            let mut s = State::new(GameConfig::new(v, 5).with_max_rounds(Some(1)));
            while let Some(p) = s.current_player() {
                s.apply(bot.act(&s.view(p)).unwrap()).unwrap();
            }
        }
        std::fs::remove_file(path).ok();
        for name in ["nn", "ismcts-nn", "ismcts-nn:20", "ismcts:20:v50"] {
            let built = bot_by_name(name, 0, v);
            #[cfg(feature = "models")]
            assert!(built.is_ok(), "{name}");
            #[cfg(not(feature = "models"))]
            {
                let e = built.err().unwrap();
                assert_eq!(e, BotError::NoShippedModels { name: name.into() });
                assert_eq!(
                    e.to_string(),
                    format!(
                        "bot '{name}': this build of yokai-septet has no shipped models (the \
                         cargo feature `models` is off); build with it, or name a model file \
                         (nn:PATH, ismcts-nn:PATH, ismcts:N:vW@PATH), or play ismcts without \
                         value leaves (ismcts:N:v0)"
                    )
                );
            }
        }
    }

    /// A training loop rewrites its model file between evaluations: the bot reads the new
    /// weights, not the cached old ones.
    #[test]
    fn a_rewritten_model_file_is_read_again() {
        let path =
            std::env::temp_dir().join(format!("ys-nn-reload-{}.safetensors", std::process::id()));
        let first = random_model(Variant::FourPlayer, &[8], 1);
        std::fs::write(&path, first.to_bytes()).unwrap();
        let cache = ModelCache::default();
        assert_eq!(cache.load(&path).unwrap().layers(), first.layers());
        let second = random_model(Variant::FourPlayer, &[12], 2);
        std::fs::write(&path, second.to_bytes()).unwrap();
        assert_eq!(cache.load(&path).unwrap().layers(), second.layers());
        std::fs::remove_file(path).ok();
    }
}

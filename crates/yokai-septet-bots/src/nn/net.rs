//! What the belief model and the value model share: each is an [`Mlp`] of one kind (its
//! last layer, its first layer's inputs and its file's `format`), built from layers,
//! read from and written to its own safetensors files, and shipped per variant. [`Net`]
//! is that once; its kind ([`BeliefHead`], [`ValueHead`]) says which, and each model's
//! own maths is its module's (`belief.rs`, `value.rs`).

use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

use super::mlp::{Head, Inputs, Mlp, WeightsError};
use yokai_septet::Variant;

/// The kind of a [`Net`]: its last layer and the inputs of its first (sealed: the belief
/// model [`BeliefHead`] and the value model [`ValueHead`]).
pub trait NetKind: Clone + fmt::Debug + Send + Sync + Sized + 'static {
    /// What its last layer gives (and so its file's `format`).
    #[doc(hidden)]
    const HEAD: Head;
    /// What its first layer reads.
    #[doc(hidden)]
    const INPUTS: Inputs;
    /// Why a file whose first layer reads other inputs is refused.
    #[doc(hidden)]
    const WHY_INPUTS: &'static str;
}

/// A network of the kind `K` (see the module docs): [`super::BeliefNet`] or
/// [`super::ValueNet`].
#[derive(Clone, Debug)]
pub struct Net<K> {
    mlp: Mlp,
    kind: PhantomData<K>,
}

impl<K: NetKind> Net<K> {
    /// What its first layer reads.
    pub const INPUTS: Inputs = K::INPUTS;

    /// A model for `variant` from its layers, as [`Mlp::new`] takes them; the first reads
    /// [`Net::INPUTS`], the last gives what its kind gives.
    pub fn new(
        variant: Variant,
        layers: Vec<(Vec<f32>, Vec<f32>)>,
    ) -> Result<Net<K>, WeightsError> {
        let mlp = Mlp::with_head(variant, K::INPUTS, K::HEAD, layers)?;
        Ok(Net::wrap(mlp))
    }

    fn wrap(mlp: Mlp) -> Net<K> {
        Net {
            mlp,
            kind: PhantomData,
        }
    }

    /// Reads a model from the bytes of a safetensors file (its kind's `format`, inputs
    /// [`Net::INPUTS`]; weights `F32` or `F16`).
    pub fn from_bytes(bytes: &[u8]) -> Result<Net<K>, WeightsError> {
        let mlp = Mlp::read(bytes, K::HEAD)?;
        if mlp.inputs() != K::INPUTS {
            return Err(WeightsError::Metadata {
                key: "inputs",
                problem: format!(
                    "'{}', expected '{}' ({})",
                    mlp.inputs().name(),
                    K::INPUTS.name(),
                    K::WHY_INPUTS
                ),
            });
        }
        Ok(Net::wrap(mlp))
    }

    /// Reads a model from the safetensors file at `path`.
    pub fn load(path: &Path) -> Result<Net<K>, WeightsError> {
        Net::from_bytes(&super::format::read_file(path)?)
    }

    /// The model as a safetensors file (its kind's `format`).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.mlp.to_bytes()
    }

    /// The model of its kind shipped for `variant`, if it has one (parsed once per
    /// process; feature `models`).
    ///
    /// # Panics
    /// Where the shipped file is not a valid model (a broken build).
    #[cfg(feature = "models")]
    pub fn shipped(variant: Variant) -> Option<&'static Net<K>> {
        use std::any::Any;
        use std::sync::OnceLock;
        type Slot = OnceLock<Option<Box<dyn Any + Send + Sync>>>;
        // A generic function has one static for all its kinds: a slot per head and variant.
        static MODELS: [[Slot; 4]; 3] = [const { [const { OnceLock::new() }; 4] }; 3];
        let model = MODELS[K::HEAD as usize][variant as usize].get_or_init(|| {
            let net = Net::<K>::from_bytes(K::HEAD.shipped_file(variant)?).unwrap_or_else(|e| {
                panic!(
                    "the shipped {variant} {} is invalid: {e}",
                    K::HEAD.model_name()
                )
            });
            Some(Box::new(net))
        });
        let net = model.as_ref()?.downcast_ref::<Net<K>>();
        Some(net.expect("a slot holds a model of its head"))
    }

    /// Stores its weights as `F16` (as [`Mlp::set_half`]).
    pub fn set_half(&mut self, half: bool) {
        self.mlp.set_half(half);
    }

    /// Sets a metadata entry of its file (as [`Mlp::set_metadata`]).
    pub fn set_metadata(&mut self, key: &str, value: &str) -> Result<(), WeightsError> {
        self.mlp.set_metadata(key, value)
    }

    /// The variant it reads.
    pub fn variant(&self) -> Variant {
        self.mlp.variant()
    }

    /// The network (its layers, widths and metadata).
    pub fn mlp(&self) -> &Mlp {
        &self.mlp
    }
}

/// The kind of the belief model ([`super::BeliefNet`]): one logit per card id and other
/// seat, read from the observation and the play log.
#[derive(Clone, Copy, Debug)]
pub enum BeliefHead {}

/// The kind of the value model ([`super::ValueNet`]): one value per seat, read from the
/// observation and the other seats' hands.
#[derive(Clone, Copy, Debug)]
pub enum ValueHead {}

impl NetKind for BeliefHead {
    const HEAD: Head = Head::Belief;
    const INPUTS: Inputs = Inputs::ObservationAndPlayLog;
    const WHY_INPUTS: &'static str = "a belief model reads the play log";
}

impl NetKind for ValueHead {
    const HEAD: Head = Head::Value;
    const INPUTS: Inputs = Inputs::ObservationAndHands;
    const WHY_INPUTS: &'static str = "a value model reads the hidden hands";
}

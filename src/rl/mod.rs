//! The reinforcement-learning interface: the observation (its layout, encoder, masks and
//! description), the privileged state tensor, rewards, and the vectorised core behind
//! Python's `VectorEnv`.

pub(crate) mod layout;
pub(crate) mod learner;
pub mod observation;
pub mod reward;
pub mod state_tensor;
// Its items' docs come with the parallel self-play issue, which owns this file.
#[allow(missing_docs)]
pub mod vector;

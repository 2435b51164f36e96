//! The reinforcement-learning interface: rewards, the learner's seat, and the vectorised
//! core behind Python's `VectorEnv`. The encoders it writes live in `encoding/`.

pub(crate) mod learner;
pub mod reward;
// Its items' docs come with the parallel self-play issue, which owns this file.
#[allow(missing_docs)]
pub mod vector;

// The bindings (`src/python/`) still name the encoders by their old path here.
#[cfg(feature = "python")]
pub(crate) use crate::encoding::{layout, observation, state_tensor};

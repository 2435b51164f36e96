//! # yokai-septet-vector
//!
//! The reinforcement-learning interface of Yokai Septet: rewards ([`reward`]), the
//! learner's seat and the bots that play the others ([`learner`]), and the vectorised core
//! behind Python's `VectorEnv` ([`VecCore`], [`Pipeline`] and the output table
//! [`OUTPUTS`]: many games stepped together on the crate's own fork-join pool, each row
//! encoded straight into caller-provided buffers). The encoders it writes are the engine's
//! (`yokai_septet::observation`, `yokai_septet::state_tensor`); the bots come from
//! `yokai-septet-bots`.

// The only `unsafe` of the crate is the pool's (one dereference of a pass's closure, whose
// lifetime the pool's protocol guarantees, and `sched_getcpu`).
#![deny(unsafe_code)]
// Every public item says what it is.
#![warn(missing_docs)]

pub mod learner;
#[allow(unsafe_code)]
mod pool;
pub mod reward;
// Its items' docs come with the parallel self-play issue, which owns this file.
#[allow(missing_docs)]
mod vector;
pub mod yardstick;

pub use vector::*;

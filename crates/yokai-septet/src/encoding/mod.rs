//! What a seat's view and a whole state look like as numbers: the observation (its layout,
//! encoder, legal masks and description), the privileged state tensor, and the field-table
//! mechanism both are laid out by.
//!
//! It sits below `bots/` (the `nn` network encodes the seat's view with it) and below
//! `rl/` (the vector env writes it into numpy's buffers), so neither climbs to the other.

pub(crate) mod layout;
pub mod observation;
pub mod play_log;
pub mod state_tensor;

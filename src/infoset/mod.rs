//! Information sets (R10): [`SeatView`], all that one seat may know, and the sampler of
//! positions consistent with it.

pub mod sampler;
pub(crate) mod view;

pub use view::SeatView;

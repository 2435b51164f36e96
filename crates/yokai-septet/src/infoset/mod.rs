//! Information sets (R10): [`SeatView`], all that one seat may know, and the samplers of
//! positions consistent with it: uniform ([`sampler`]) or weighted by a belief about who
//! holds which card ([`belief`]).

pub mod belief;
pub mod sampler;
pub(crate) mod view;

pub use view::SeatView;

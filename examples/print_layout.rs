//! Prints the observation layout of every variant as Markdown (the content of
//! `docs/observation.md`), or with `state` the state-tensor layout (`docs/state_tensor.md`).
//!
//! `cargo run --example print_layout > docs/observation.md`
//! `cargo run --example print_layout -- state > docs/state_tensor.md`
fn main() {
    match std::env::args().nth(1).as_deref() {
        None => print!("{}", yokai_septet::observation::layout_docs()),
        Some("state") => print!("{}", yokai_septet::state_tensor::state_layout_docs()),
        Some(other) => panic!("unknown layout {other:?}: give nothing or `state`"),
    }
}

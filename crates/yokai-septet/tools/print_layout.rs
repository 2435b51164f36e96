//! Prints a generated reference document: the observation layout of every variant as
//! Markdown (`docs/observation.md`), with `state` the state-tensor layout
//! (`docs/state_tensor.md`). (The record schema, `docs/records.md`, is the crate's own:
//! `YS_WRITE_DOCS=1 cargo test -p yokai-septet --lib record_schema_docs` rewrites it.)
//!
//! `cargo run -p yokai-septet --example print_layout > docs/observation.md`
//! `cargo run -p yokai-septet --example print_layout -- state > docs/state_tensor.md`
fn main() {
    match std::env::args().nth(1).as_deref() {
        None => print!("{}", yokai_septet::observation::layout_docs()),
        Some("state") => print!("{}", yokai_septet::state_tensor::state_layout_docs()),
        Some(other) => panic!("unknown document {other:?}: give nothing or `state`"),
    }
}

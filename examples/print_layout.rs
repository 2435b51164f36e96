//! Prints the observation layout of every variant as Markdown: the content of
//! `docs/observation.md`.
//!
//! `cargo run --example print_layout > docs/observation.md`
fn main() {
    print!("{}", yokai_septet::observation::layout_docs());
}

#!/usr/bin/env bash
# The whole test suite: Rust (unit, rule, record, golden, property and allocation tests),
# then Python (contract, PettingZoo and Gymnasium checkers, VectorEnv) against a fresh
# build of the package in its own virtualenv. Needs only cargo and python3 with pip.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --locked --workspace --features cli
# The crate's default build (the engine alone, no shipped models): a test that needs a
# feature says so with `cfg`.
cargo test --locked --workspace
# The declared rust-version (Cargo.toml) really builds the crate: no std or core API newer
# than it.
cargo clippy --locked --all-targets --features python,cli,raster -- -A clippy::all -D clippy::incompatible_msrv
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps

python3 -m venv .venv-test
# shellcheck disable=SC1091
. .venv-test/bin/activate
python -m pip install -q --upgrade pip
# The package's release build goes to a target dir of its own: in target/release, beside
# the README's `cargo run --release` arena, the virtualenv's Python would make pyo3's build
# script run again and each of the two rebuild the crate after the other (about a minute).
# On a fresh clone (CI) nothing there is shared, so this costs nothing. The test helpers
# (`_core._error_examples`, cargo feature `test-helpers`) are in this build only: the
# wheel `pip install .` builds has none.
CARGO_TARGET_DIR="$PWD/target/wheel" MATURIN_PEP517_ARGS="--features test-helpers" python -m pip install -q '.[test,ray]'
python -m pytest -q

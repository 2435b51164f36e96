#!/usr/bin/env bash
# The whole test suite: every crate's Rust tests (unit, rule, record, golden, property and
# allocation tests, the layout's checks), then Python (contract, PettingZoo and Gymnasium
# checkers, VectorEnv) against a fresh build of the package in its own virtualenv. Needs
# only cargo and python3 with pip.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every crate's tests, built once, with the features the crates above turn on (the bots'
# shipped models, pixels): the same build the lint and the Python module use.
cargo test --locked --workspace
# The bots' own default build, without the shipped models: its unit tests check what such
# a build refuses (`BotError::NoShippedModels`). Only the engine, the solver and the bots
# are built again.
cargo test --locked -p yokai-septet-bots --lib
# The declared rust-version (Cargo.toml) really builds the crates: no std or core API newer
# than it.
cargo clippy --locked --workspace --all-targets -- -A clippy::all -D clippy::incompatible_msrv
RUSTDOCFLAGS="-D warnings" cargo doc --locked --workspace --no-deps

python3 -m venv .venv-test
# shellcheck disable=SC1091
. .venv-test/bin/activate
python -m pip install -q --upgrade pip
# The package builds with its own cargo profile (`wheel`, pyproject.toml), in target/wheel:
# beside the README's `cargo run --release` in target/release, neither rebuilds the other.
# The test helpers (`_core._error_examples`, cargo feature `test-helpers`) are in this
# build only: the wheel `pip install .` builds has none.
MATURIN_PEP517_ARGS="--features test-helpers" python -m pip install -q '.[test,ray]'
python -m pytest -q

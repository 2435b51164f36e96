#!/usr/bin/env bash
# The whole test suite: Rust (unit, rule, record, golden, property and allocation tests),
# then Python (contract, PettingZoo and Gymnasium checkers, VectorEnv) against a fresh
# build of the package in its own virtualenv. Needs only cargo and python3 with pip.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --locked --features cli

python3 -m venv .venv-test
# shellcheck disable=SC1091
. .venv-test/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q '.[test,ray]'
python -m pytest -q

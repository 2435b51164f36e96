#!/usr/bin/env bash
# The whole test suite: Rust (unit, rule, record, golden, property and allocation tests).
# Needs only cargo; it fetches every crate it uses.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --locked

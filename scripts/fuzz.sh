#!/usr/bin/env bash
# Bounded fuzzing run (not part of CI): each target for $FUZZ_SECONDS (default 60) seconds.
# Installs cargo-fuzz if needed; runs on the stable toolchain via RUSTC_BOOTSTRAP=1.
# Crashes land in fuzz/artifacts/<target>/; turn each into a regression test in
# crates/yokai-septet/tests/fuzz_regressions.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
secs="${FUZZ_SECONDS:-60}"
for target in actions record deal_and_codes observation; do
    echo "== fuzzing $target for ${secs}s"
    # Long inputs from the start (no slow length ramp): a byte is one decision, and a
    # whole game takes a few hundred, so short inputs would never leave the first round.
    RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" -- -max_total_time="$secs" -rss_limit_mb=4096 \
        -max_len="${FUZZ_MAX_LEN:-2048}" -len_control=0
done

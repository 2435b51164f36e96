#!/usr/bin/env bash
# The ismcts measurements of issue 58 on a many-core machine without a Rust toolchain
# (docs/search-speed.md). Takes the directory of the prebuilt release binaries:
#
#   cargo build --release -p yokai-septet-cli -p yokai-septet-bots --bins --examples
#   OUT=/tmp/out scripts/device_search.sh target/release   # OUT: where the results go
#
# OLD_BIN=DIR adds the cost of today's search from an older build's binaries (DIR holds
# crates/yokai-septet-bots/tools/search_profile.rs), the reference of the "a third of today's CPU" pairing.
# and writes to "$OUT" one text file per measurement (the arena's report: win rates with
# 95% Wilson intervals, ms per decision per side; the thread table's CPU and wall times).
# About 8 minutes on 16 cores. Every deal and bot seed comes from seeds 5_810_000 and on,
# used for nothing else (the first sitting's run used 5_800_000 and on). Tiny numbers
# for a local check:
#   GAMES=4 EQUAL_GAMES=4 DECISIONS=3 OLD=ismcts:200:classic NEW=ismcts:200 \
#   CHEAP=ismcts:70 EQUAL=ismcts:400 OUT=/tmp/o scripts/device_search.sh target/release
set -euo pipefail

BIN=${1:?usage: device_search.sh DIR_OF_RELEASE_BINARIES}
OUT=${OUT:?set OUT to the output directory}
mkdir -p "$OUT"
YS="$BIN/yokai-septet"
PROFILE="$BIN/examples/search_profile"
[ -x "$PROFILE" ] || PROFILE="$BIN/search_profile"

OLD=${OLD:-ismcts:5000:classic}   # today's search, as it was before issue 58
NEW=${NEW:-ismcts}                # the default: 5000 iterations, the exact techniques
CHEAP=${CHEAP:-ismcts:3500}       # a budget at about a third of today's CPU
EQUAL=${EQUAL:-ismcts:11000}      # a budget at about today's CPU
GAMES=${GAMES:-400}
EQUAL_GAMES=${EQUAL_GAMES:-240}
DECISIONS=${DECISIONS:-30}
CORES=${CORES:-$(nproc)}
SEED=5810000

arena() { # FILE VARIANT GAMES BOTS SEED LIMIT_SECONDS
    local file=$1 variant=$2 games=$3 bots=$4 seed=$5 limit=$6
    echo "== $variant $bots, $games games, seed $seed, $CORES arena threads" | tee -a "$OUT/log.txt"
    { echo "$YS arena --variant $variant --bots $bots --games $games --seed $seed --threads $CORES --max-rounds 30"
      nproc; uptime
      timeout "$limit" "$YS" arena --variant "$variant" --bots "$bots" --games "$games" \
          --seed "$seed" --threads "$CORES" --max-rounds 30 2>&1 | grep -v '^\s*$'
    } > "$OUT/$file.txt" 2>&1 || echo "failed or cut: $file" | tee -a "$OUT/log.txt"
}

# (c) a decision's CPU and wall time: today's search, the default on 1 to 16 threads and
# the two budgets of the pairings, the same decisions, nothing else running.
{
    echo "search_profile --decisions $DECISIONS --seed $SEED; nproc $(nproc)"
    # Today's cost is the old binary's: the heuristic's faster pricing (exact: the same
    # cards) makes the new binary's `ismcts:5000:classic` cheaper than today's search was.
    if [ -n "${OLD_BIN:-}" ]; then
        echo "before issue 58's pricing ($OLD_BIN):"
        "$OLD_BIN/examples/search_profile" --bot "$OLD" --variant 4p --decisions "$DECISIONS" --seed "$SEED"
        for v in 3p seal seal-short; do
            "$OLD_BIN/examples/search_profile" --bot "$OLD" --variant "$v" --decisions "$DECISIONS" --seed "$SEED"
        done
        echo "this build:"
    fi
    for bot in "$OLD" "$NEW" "$NEW:t2" "$NEW:t4" "$NEW:t8" "$NEW:t16" "$CHEAP" "$EQUAL"; do
        case $bot in ismcts:t*) bot="ismcts:5000:${bot#ismcts:}";; esac
        "$PROFILE" --bot "$bot" --variant 4p --decisions "$DECISIONS" --seed "$SEED"
    done
    for v in 3p seal seal-short; do
        for bot in "$OLD" "$NEW"; do
            "$PROFILE" --bot "$bot" --variant "$v" --decisions "$DECISIONS" --seed "$SEED"
        done
    done
} > "$OUT/c_threads_and_cost.txt" 2>&1 || echo "failed: threads" | tee -a "$OUT/log.txt"

# (b) about a third of today's CPU per decision against today's search.
arena b_4p_cheap_vs_old 4p "$GAMES" "$CHEAP,$OLD" $((SEED + 1)) 280
# (a) about today's CPU per decision against today's search.
arena a_4p_equal_vs_old 4p "$EQUAL_GAMES" "$EQUAL,$OLD" $((SEED + 2)) 240
echo "done" | tee -a "$OUT/log.txt"

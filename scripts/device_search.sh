#!/usr/bin/env bash
# The ismcts measurements of issue 58 on a many-core machine without a Rust toolchain
# (docs/search-speed.md). Takes the directory of the
# prebuilt release binaries:
#
#   cargo build --release --features cli --bin yokai-septet --examples
#   OUT=/tmp/out scripts/device_search.sh target/release   # OUT: where the results go
#
# and writes to "$OUT" one text file per measurement (the arena's report: win rates with
# 95% Wilson intervals, ms per decision per side; the thread table's CPU and wall times).
# About 6 minutes on 16 cores (estimated from 2-core timings: cut GAMES first if not). Every deal and bot seed comes from seeds 5_800_000 and on,
# used for nothing else. Tiny numbers for a local check:
#   GAMES=4 SMALL_GAMES=4 SEAL_GAMES=4 DECISIONS=3 OLD=ismcts:200:classic NEW=ismcts:200 \
#   REUSE=ismcts:200:reuse CHEAP=ismcts:70 THREADED=ismcts:200:t2 OUT=/tmp/o \
#   scripts/device_search.sh target/release
set -euo pipefail

BIN=${1:?usage: device_search.sh DIR_OF_RELEASE_BINARIES}
OUT=${OUT:?set OUT to the output directory}
mkdir -p "$OUT"
YS="$BIN/yokai-septet"
PROFILE="$BIN/examples/search_profile"
[ -x "$PROFILE" ] || PROFILE="$BIN/search_profile"

OLD=${OLD:-ismcts:5000:classic}          # today's search, as it was before issue 58
NEW=${NEW:-ismcts}                       # the new default
REUSE=${REUSE:-ismcts:5000:reuse}        # the default with tree reuse
CHEAP=${CHEAP:-ismcts:1600}              # a budget at about a third of today's
THREADED=${THREADED:-ismcts:5000:t2}     # today's budget split over 2 threads
GAMES=${GAMES:-400}
SMALL_GAMES=${SMALL_GAMES:-60}
SEAL_GAMES=${SEAL_GAMES:-40}
DECISIONS=${DECISIONS:-40}
CORES=${CORES:-$(nproc)}
SEED=5800000

arena() { # FILE VARIANT GAMES BOTS SEED [THREADS] [MAX_ROUNDS]
    local file=$1 variant=$2 games=$3 bots=$4 seed=$5 threads=${6:-$CORES} rounds=${7:-30}
    echo "== $variant $bots, $games games, seed $seed, $threads arena threads" | tee -a "$OUT/log.txt"
    { echo "$YS arena --variant $variant --bots $bots --games $games --seed $seed --threads $threads --max-rounds $rounds"
      nproc; uptime
      "$YS" arena --variant "$variant" --bots "$bots" --games "$games" --seed "$seed" \
          --threads "$threads" --max-rounds "$rounds" 2>&1 | grep -v '^\s*$'
    } > "$OUT/$file.txt" 2>&1 || echo "failed: $file" | tee -a "$OUT/log.txt"
}

# (c) first (short): a decision's wall and CPU time on 1, 2, 4, 8 and 16 threads, the
# same decisions, nothing else running.
{
    echo "search_profile --variant 4p --decisions $DECISIONS --seed $SEED; nproc $(nproc)"
    for bot in "$OLD" "$NEW" "$REUSE" ismcts:5000 ismcts:5000:t2 ismcts:5000:t4 \
               ismcts:5000:t8 ismcts:5000:t16 ismcts:1600; do
        "$PROFILE" --bot "$bot" --variant 4p --decisions "$DECISIONS" --seed "$SEED"
    done
    for v in seal seal-short 3p; do
        for bot in "$OLD" "$NEW"; do
            "$PROFILE" --bot "$bot" --variant "$v" --decisions "$DECISIONS" --seed "$SEED"
        done
    done
} > "$OUT/c_threads_and_cost.txt" 2>&1 || echo "failed: threads" | tee -a "$OUT/log.txt"

# (a) The default's new techniques are exact (it plays today's games: tests/search.rs),
# so its pairing with today's search is its cost, in (c). The technique that changes the
# games, tree reuse, against today's search, 4p:
arena a_4p_reuse_vs_old 4p "$GAMES" "$REUSE,$OLD" $((SEED + 2))
# (b) about a third of today's CPU per decision against today's.
arena b_4p_cheap_vs_old 4p "$GAMES" "$CHEAP,$OLD" $((SEED + 3))
# Two threads per decision at today's budget (each game then uses 2 cores).
arena c_4p_t2_vs_old 4p $((GAMES / 2)) "$THREADED,$OLD" $((SEED + 4)) $((CORES / 2))
# (d) the other variants, fewer games (seal rounds are long: 6 rounds at most).
arena d_3p_reuse_vs_old 3p "$SMALL_GAMES" "$REUSE,$OLD" $((SEED + 5))
arena d_seal_reuse_vs_old seal "$SEAL_GAMES" "$REUSE,$OLD" $((SEED + 6)) "$CORES" 6
arena d_seal-short_reuse_vs_old seal-short "$SEAL_GAMES" "$REUSE,$OLD" $((SEED + 7)) "$CORES" 6
echo "done" | tee -a "$OUT/log.txt"

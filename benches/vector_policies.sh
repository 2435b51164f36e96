#!/usr/bin/env bash
# Every table of docs/performance.md, "Policies as users run them" (issue 46), in about
# 6 minutes on 2 cores: VectorEnv with numpy's tanh(obs @ W) and a torch MLP at their
# default threads, then on one thread, quiet and with a CPU hog on one core; `step` and
# send/recv, N = 1024 and 4096, 1 and 2 env threads; MaskablePPO on SB3VecEnv with torch's
# default threads against one; and a last row with the OpenBLAS hints unset (in that
# command alone). Run it on a quiet machine, with the package installed
# (`maturin develop --release`; torch and sb3-contrib for their rows):
#
#     bash benches/vector_policies.sh | tee policies.md
set -euo pipefail
cd "$(dirname "$0")/.."
P=benches/python_speed.py
S=(--seconds 1 --rounds 3 --windows 5)
T=(--blas-threads 1 --torch-threads 1)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "## default threads, quiet";          python "$P" --real "${S[@]}"
echo "## default threads, under load";     python "$P" --real "${S[@]}" --under-load
echo "## one policy thread, quiet";        python "$P" --real "${S[@]}" "${T[@]}"
echo "## one policy thread, under load";   python "$P" --real "${S[@]}" "${T[@]}" --under-load
echo "## MaskablePPO, quiet";              python "$P" --sb3 --seconds 3 --rounds 3
echo "## MaskablePPO, under load";         python "$P" --sb3 --seconds 3 --rounds 3 --under-load
echo "## default threads, OpenBLAS hints unset (fastest numpy)"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python "$P" --real "${S[@]}" --policies tanh

#!/usr/bin/env bash
# Builds what a release ships for this machine, into dist/: the abi3 wheel (CPython 3.9+)
# for manylinux2014 (glibc 2.17 and later) and the sdist, then shows auditwheel's verdict.
# Needs cargo and python3; installs maturin, ziglang (the linker that targets an old glibc
# from a new machine) and auditwheel into .venv-wheels. The release workflow
# (.github/workflows/release.yml) builds the other platforms.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv-wheels
# shellcheck disable=SC1091
. .venv-wheels/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q 'maturin>=1.9,<2' ziglang auditwheel

rm -rf dist
maturin build --release --compatibility manylinux2014 --zig --out dist
maturin sdist --out dist
auditwheel show dist/*.whl
ls -l dist

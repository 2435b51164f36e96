#!/usr/bin/env bash
# The tests that need more than the default suite: the HTML replay viewer driven in headless
# Chromium (Playwright), an episode recorded with gymnasium.wrappers.RecordVideo (moviepy),
# the PNG plots (matplotlib), and the Rust pixel test (feature `raster`).
# Installs Chromium from the Debian package `chromium` when it is missing (as root, or
# through sudo), then the package with its `browser`, `video` and `plots` extras in .venv-test.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${YS_CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
fi

cargo test --locked -p yokai-septet-picture --features raster --test picture

python3 -m venv .venv-test
# shellcheck disable=SC1091
. .venv-test/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q '.[test,browser,video,plots]'
python -m pytest -q -m "browser or video or plots" "$@"

"""What a release ships: Python metadata, the typed marker, the release workflow and the
crate's contents. Cheap checks for the default suite; building and installing the wheels
themselves is `pytest -m wheels` (tests/python/test_wheels.py)."""

from __future__ import annotations

import importlib.resources
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def cargo_toml(crate: str | None = None) -> dict:
    """The workspace's manifest, or a crate's (`crates/<crate>/Cargo.toml`)."""
    path = ROOT / "crates" / crate / "Cargo.toml" if crate else ROOT / "Cargo.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def package(crate: str) -> dict:
    """A crate's `[package]`, with the keys it takes from the workspace filled in."""
    shared = cargo_toml()["workspace"]["package"]
    return {k: shared[k] if v == {"workspace": True} else v
            for k, v in cargo_toml(crate)["package"].items()}


def test_python_metadata_names_platforms_versions_urls_and_license_files():
    project = pyproject()["project"]
    classifiers = set(project["classifiers"])
    for os_name in ("POSIX :: Linux", "MacOS", "Microsoft :: Windows"):
        assert f"Operating System :: {os_name}" in classifiers, os_name
    low = project["requires-python"].removeprefix(">=")
    assert low == "3.9"
    for minor in range(9, 15):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers, minor
    assert "Typing :: Typed" in classifiers
    assert {"Homepage", "Documentation", "Repository", "Changelog"} <= set(project["urls"])
    assert project["license"] == package("yokai-septet")["license"]
    for name in project["license-files"]:
        assert (ROOT / name).is_file(), name


def test_the_installed_package_is_marked_typed():
    assert (importlib.resources.files("yokai_septet") / "py.typed").is_file()


def test_the_release_workflow_builds_and_tests_every_promised_platform():
    text = WORKFLOW.read_text(encoding="utf-8")
    for platform in (
        "manylinux-x86_64",
        "manylinux-aarch64",
        "musllinux-x86_64",
        "macos-x86_64",
        "macos-arm64",
        "windows-x86_64",
    ):
        # Built once, and tested (the musl wheel in its own Alpine job).
        assert text.count(f"name: {platform}") + text.count(f"wheel-{platform}") >= 2, platform
    assert "scripts/smoke_test.py --no-rust" in text
    assert "id-token: write" in text, "publishing is meant to use trusted publishing"
    assert "cargo publish --dry-run --workspace" in text


def test_the_release_workflow_is_a_valid_github_workflow():
    # check-jsonschema (test extra) carries SchemaStore's GitHub-workflow schema.
    checker = shutil.which("check-jsonschema") or str(Path(sys.executable).parent / "check-jsonschema")
    assert Path(checker).exists(), "check-jsonschema is in the test extra: pip install '.[test]'"
    run = subprocess.run(
        [checker, "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
        capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


PUBLISHED = ["yokai-septet", "yokai-septet-solver", "yokai-septet-bots", "yokai-septet-vector",
             "yokai-septet-picture", "yokai-septet-web", "yokai-septet-cli"]


@pytest.mark.parametrize("crate", PUBLISHED)
def test_the_crate_ships_only_what_a_rust_user_needs_and_stays_small(crate):
    env = {**os.environ, "CARGO_TERM_COLOR": "never"}
    listing = subprocess.run(
        ["cargo", "package", "--list", "--allow-dirty", "--locked", "-p", crate],
        cwd=ROOT, capture_output=True, text=True, env=env, check=True,
    ).stdout.split()
    tops = {name.split("/")[0] for name in listing}
    assert not tops & {"python", "training", "tests", "benches", "notes", "scripts", "tools"}, tops
    assert not any(name.endswith(".safetensors") for name in listing)
    base = ROOT / "crates" / crate
    size = sum((base / name).stat().st_size for name in listing if (base / name).is_file())
    # crates.io refuses crates over 10 MiB; the models live in yokai-septet-models.
    assert size < 2_000_000, size
    meta = package(crate)
    assert meta["rust-version"] and meta.get("publish", True) is not False
    for key in ("repository", "documentation", "keywords", "categories", "description"):
        assert meta[key], key


def test_only_the_packages_crates_stay_out_of_crates_io():
    """The Python module ships as the wheel and the test kit only serves the tests: neither
    is published; every other crate is."""
    for crate in sorted(p.name for p in (ROOT / "crates").iterdir() if (p / "Cargo.toml").is_file()):
        published = package(crate).get("publish", True) is not False
        assert published == (crate not in ("yokai-septet-python", "yokai-septet-testkit")), crate


@pytest.mark.parametrize("crate", ["yokai-septet-models", "yokai-septet-beliefs"])
def test_the_models_crate_stays_under_the_crates_io_limit(crate):
    """The models crates hold weights that barely compress: each must stay under crates.io's
    10 MiB even uncompressed (a new model that would not fit needs a crate of its own)."""
    env = {**os.environ, "CARGO_TERM_COLOR": "never"}
    listing = subprocess.run(
        ["cargo", "package", "--list", "--allow-dirty", "--locked", "-p", crate],
        cwd=ROOT, capture_output=True, text=True, env=env, check=True,
    ).stdout.split()
    assert any(name.endswith(".safetensors") for name in listing), listing
    base = ROOT / "crates" / crate
    size = sum((base / name).stat().st_size for name in listing if (base / name).is_file())
    assert 1_000_000 < size < 10 * 2**20, size


def test_the_engine_and_the_bots_alone_build_without_the_models_crates():
    """A dependency on the engine or on the bots alone must not download 9 MB of weights:
    the models crates are the bots' optional dependencies, behind the feature `models`,
    which their default build leaves off and the CLI, the web app and the wheel turn on."""
    bots = cargo_toml("yokai-septet-bots")
    assert bots["dependencies"]["yokai-septet-models"]["optional"] is True
    assert bots["dependencies"]["yokai-septet-beliefs"]["optional"] is True
    assert "models" not in bots["features"].get("default", [])
    assert set(bots["features"]["models"]) == {"dep:yokai-septet-models", "dep:yokai-septet-beliefs"}
    for crate in ("yokai-septet-cli", "yokai-septet-web", "yokai-septet-python"):
        assert "models" in cargo_toml(crate)["dependencies"]["yokai-septet-bots"]["features"], crate
    env = {**os.environ, "CARGO_TERM_COLOR": "never"}
    for crate in ("yokai-septet", "yokai-septet-bots"):
        tree = subprocess.run(
            ["cargo", "tree", "-e", "normal", "--locked", "-p", crate],
            cwd=ROOT, capture_output=True, text=True, env=env, check=True,
        ).stdout
        assert "yokai-septet-models" not in tree and "yokai-septet-beliefs" not in tree, tree
    assert "safetensors" in tree  # the bots' own tree: `nn:PATH` reads files


def test_the_engine_reaches_no_layer_above_it_under_any_feature():
    """The engine's tree, every feature on, has none of the front ends' crates: the layers
    above it are crates that depend on it, never features of it."""
    env = {**os.environ, "CARGO_TERM_COLOR": "never"}
    tree = subprocess.run(
        ["cargo", "tree", "-e", "normal", "--all-features", "--locked", "-p", "yokai-septet"],
        cwd=ROOT, capture_output=True, text=True, env=env, check=True,
    ).stdout
    packages = {re.sub(r"^[│├└─ ]*", "", line).split(" ")[0] for line in tree.splitlines()}
    above = {p for p in packages if p.startswith(("pyo3", "numpy", "tokio", "axum", "hyper", "clap"))}
    assert not above and packages & {"yokai-septet", "rand_chacha"} == {"yokai-septet", "rand_chacha"}, tree
    assert not {p for p in packages if p.startswith("yokai-septet-")}, tree

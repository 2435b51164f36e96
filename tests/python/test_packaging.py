"""What a release ships: Python metadata, the typed marker, the release workflow and the
crate's contents. Cheap checks for the default suite; building and installing the wheels
themselves is `pytest -m wheels` (tests/python/test_wheels.py)."""

from __future__ import annotations

import importlib.resources
import os
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


def cargo_toml() -> dict:
    return tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))


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
    assert project["license"] == cargo_toml()["package"]["license"]
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


def test_the_crate_ships_only_what_a_rust_user_needs_and_stays_small():
    env = {**os.environ, "CARGO_TERM_COLOR": "never"}
    listing = subprocess.run(
        ["cargo", "package", "--list", "--allow-dirty", "--locked", "-p", "yokai-septet"],
        cwd=ROOT, capture_output=True, text=True, env=env, check=True,
    ).stdout.split()
    tops = {name.split("/")[0] for name in listing}
    assert not tops & {"python", "training", "tests", "benches", "notes", "scripts"}, tops
    assert not any(name.endswith(".safetensors") for name in listing)
    size = sum((ROOT / name).stat().st_size for name in listing if (ROOT / name).is_file())
    # crates.io refuses crates over 10 MiB; the models live in yokai-septet-models.
    assert size < 2_000_000, size
    assert cargo_toml()["package"]["rust-version"]
    for key in ("repository", "documentation", "keywords", "categories", "description"):
        assert cargo_toml()["package"][key], key


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


def test_the_engine_alone_builds_without_the_models_crate():
    """An engine-alone dependency must not download 9 MB of weights: the models crate is
    optional, behind the feature `models`, which the default build leaves off and the CLI,
    the web app and the wheel turn on."""
    toml = cargo_toml()
    assert toml["dependencies"]["yokai-septet-models"]["optional"] is True
    assert toml["dependencies"]["yokai-septet-beliefs"]["optional"] is True
    features = toml["features"]

    def closure(feature):
        seen, todo = set(), [feature]
        while todo:
            for item in features.get(todo.pop(), []):
                if item not in seen:
                    seen.add(item)
                    todo.append(item)
        return seen

    for dep in ("dep:yokai-septet-models", "dep:yokai-septet-beliefs"):
        assert dep not in closure("default")
        for feature in ("cli", "web", "python"):
            assert dep in closure(feature), (dep, feature)
    env = {**os.environ, "CARGO_TERM_COLOR": "never"}
    tree = subprocess.run(
        ["cargo", "tree", "-e", "normal", "--no-default-features", "--locked", "-p", "yokai-septet"],
        cwd=ROOT, capture_output=True, text=True, env=env, check=True,
    ).stdout
    assert "yokai-septet-models" not in tree and "yokai-septet-beliefs" not in tree, tree
    assert "safetensors" in tree  # the tree is the crate's own: `nn:PATH` reads files

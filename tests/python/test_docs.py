"""The repository stands alone: its docs link only to files it has, nothing cites files
outside it, and the package's own help points at the rules and the API reference."""

from __future__ import annotations

import re
from pathlib import Path

import yokai_septet as ys

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()
LINK = re.compile(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)")


def text_files():
    for top in ("README.md", "python", "crates", "tests", "docs", "notes", "examples", "benches", "scripts"):
        path = ROOT / top
        files = [path] if path.is_file() else path.rglob("*")
        for f in files:
            # A crate's docs/ holds links to docs/ (what `cargo package` stores): read once.
            if f.is_symlink():
                continue
            if f.is_file() and f.resolve() != THIS and f.suffix in {".md", ".rs", ".py", ".pyi", ".sh", ".toml"}:
                yield f


def test_nothing_cites_files_outside_the_repository():
    # The names are split so that this file does not match its own pattern.
    folder, rules, contract = "shared" + "/", "RULES" + ".md", "CONTRACT" + ".md"
    outside = re.compile(rf"(^|[^A-Za-z_])(\.\./)?{folder}|{re.escape(rules)}|{re.escape(contract)}")
    offenders = [
        f"{f.relative_to(ROOT)}:{n}: {line.strip()}"
        for f in text_files()
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if outside.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def anchors(doc: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    slugs = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            slugs.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return slugs


def test_every_relative_link_in_the_docs_resolves():
    docs = [
        ROOT / "README.md",
        ROOT / "python" / "README.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "notes").glob("*.md"),
    ]
    broken = []
    for doc in docs:
        for target, anchor in LINK.findall(doc.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            path = (doc.parent / target) if target else doc
            if not path.exists():
                broken.append(f"{doc.relative_to(ROOT)} -> {target}")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                broken.append(f"{doc.relative_to(ROOT)} -> {target}#{anchor}")
    assert not broken, broken


def test_the_readme_and_the_docs_stay_guides_not_notebooks():
    # The README is a newcomer's page and docs/ a reference: dated run-by-run history goes
    # to notes/. Sizes are the cheap, failing proxy for that.
    assert (ROOT / "README.md").stat().st_size <= 14_000
    pages = list((ROOT / "docs").glob("*.md"))
    assert not [f.name for f in pages if f.stat().st_size > 32_000]


def test_the_package_help_points_at_the_rules_and_the_api():
    doc = ys.__doc__
    assert "yokai-septet rules" in doc and "docs/rules.md" in doc and "docs/api.md" in doc
    for name in ("docs/rules.md", "docs/api.md", "docs/observation.md"):
        assert (ROOT / name).is_file(), name


def test_the_rules_keep_every_rule_number():
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for k in range(1, 11):
        assert re.search(rf"^## R{k}\. ", rules, re.M), f"R{k}"
    for letter, suit in zip("WECLDFS", ("Wind", "Earth", "Charm", "Lightning", "Darkness", "Fire", "Snow")):
        assert re.search(rf"\| {suit}\s*\|[^|]*\| `{letter}` \|", rules), suit


def test_env_argument_table_in_api_md_is_up_to_date():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "env_arguments", ROOT / "scripts" / "env_arguments.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    text = (ROOT / "docs" / "api.md").read_text()
    assert script.updated(text) == text, "run `python scripts/env_arguments.py --write`"
    vector = (ROOT / "docs" / "vector.md").read_text()
    assert script.updated_vector(vector) == vector, "run `python scripts/env_arguments.py --write`"
    # The table reads the signatures: a changed default shows up in it.
    assert "| `opponents` | `'random'` | `'random'` | `'random'` | — |" in text


def test_the_pypi_description_and_the_readme_name_every_command():
    # The PyPI page once listed five commands of seven.
    import os
    import shutil
    import subprocess
    import sys

    script = shutil.which("yokai-septet") or os.path.join(os.path.dirname(sys.executable), "yokai-septet")
    out = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60).stdout
    listed = re.search(r"Commands:\n(.*?)\n\n", out, re.S)
    assert listed, out
    commands = [line.split()[0] for line in listed.group(1).splitlines()
                if line.startswith("  ") and not line.startswith("   ")]
    commands = [c for c in commands if c != "help"]
    assert {"arena", "play", "analyze", "ladder"} <= set(commands), commands
    pypi = (ROOT / "python" / "README.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for c in commands:
        assert f"`{c}`" in pypi, f"python/README.md does not name `{c}`"
        assert re.search(rf"^\| `{c}[` ]", readme, re.M), f"the README's command table lacks `{c}`"

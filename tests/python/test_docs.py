"""The repository stands alone: its docs link only to files it has, nothing cites files
outside it, and the package's own help points at the rules and the API reference."""

from __future__ import annotations

import re
from pathlib import Path

import yokai_septet as ys

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def text_files():
    for top in ("README.md", "python", "src", "tests", "docs", "examples", "benches", "scripts"):
        path = ROOT / top
        files = [path] if path.is_file() else path.rglob("*")
        for f in files:
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


def test_every_relative_link_in_the_docs_resolves():
    docs = [ROOT / "README.md", ROOT / "python" / "README.md", *(ROOT / "docs").glob("*.md")]
    broken = []
    for doc in docs:
        for target in LINK.findall(doc.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            if not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(ROOT)} -> {target}")
    assert not broken, broken


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

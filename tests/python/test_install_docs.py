"""The install instructions tell the truth about what `pip install` can reach.

`docs/install.md` carries one marker, `<!-- released: no -->` or `<!-- released: yes -->`,
and the README the same. Until a release exists (`no`), no page may present the PyPI or
crates.io routes (`pip install yokai-septet`, `"yokai-septet[extra]"`, `--no-binary`, a
`yokai-septet = "0.1"` dependency line) as working today: they may appear only in a section
that says "after the first release", and the README's install section leads with the source
build. With the first release the marker turns to `yes`, and the README must then lead with
`pip install yokai-septet`, and the CHANGELOG must hold the released version.
Every extra the docs name exists in pyproject.toml.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"<!-- released: (yes|no) -->")
QUALIFIER = "after the first release"
# What only a published release makes work.
RELEASE_ONLY = re.compile(
    r"pip install (-U )?\"?yokai-septet\b|--no-binary yokai-septet|^yokai-septet = \"", re.M
)


def pages() -> list[Path]:
    """Every page a user reads install lines on (docs, examples' and modules' docstrings)."""
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "examples").glob("*.py")),
        *sorted((ROOT / "python" / "yokai_septet").glob("*.py")),
        ROOT / "training" / "train_baseline.py",
    ]


def released() -> bool:
    found = {p.name: MARKER.findall(p.read_text(encoding="utf-8"))
             for p in (ROOT / "README.md", ROOT / "docs" / "install.md")}
    for name, marks in found.items():
        assert len(marks) == 1, f"{name}: one `<!-- released: yes|no -->` marker, found {marks}"
    values = {marks[0] for marks in found.values()}
    assert len(values) == 1, f"the README and docs/install.md disagree: {found}"
    return values.pop() == "yes"


def sections(text: str) -> list[str]:
    """The text cut at every Markdown heading (a docstring is one section)."""
    return re.split(r"^#+ ", text, flags=re.M)


def says_after_release(section: str) -> bool:
    """Whether the section qualifies its release-only lines (across line breaks)."""
    return QUALIFIER in " ".join(section.lower().split())


def test_no_page_presents_an_unpublished_release_as_working():
    if released():
        return
    offenders = []
    for page in pages():
        for section in sections(page.read_text(encoding="utf-8")):
            hits = RELEASE_ONLY.findall(section)
            if hits and not says_after_release(section):
                title = section.splitlines()[0][:60] if section else ""
                offenders.append(f"{page.relative_to(ROOT)} (section {title!r})")
    assert not offenders, (
        "no release exists yet: these present PyPI or crates.io as working today, without "
        f"{QUALIFIER!r}:\n" + "\n".join(offenders))


def readme_install_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## Install\b.*?(?=^## )", text, re.S | re.M)
    assert m, "the README has an `## Install...` section"
    return m.group(0)


def test_the_readme_leads_with_what_installs_today():
    section = readme_install_section()
    first = re.search(r"```sh\n(.*?)\n", section)
    assert first, "the install section shows a command"
    if released():
        assert first.group(1).startswith("pip install yokai-septet"), first.group(1)
        version = re.search(r'^version = "([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.M)
        assert version and f"## [{version.group(1)}]" in (ROOT / "CHANGELOG.md").read_text()
    else:
        assert first.group(1).startswith("pip install ."), first.group(1)
        assert "scripts/build_wheels.sh" in section, "the locally built wheel is offered"
        assert says_after_release(section)


def test_the_checker_catches_a_plain_pip_install_line():
    # The test above must be able to fail: a page that offers the PyPI line unqualified.
    page = "## Install\n\n```sh\npip install yokai-septet\n```\n"
    assert any(RELEASE_ONLY.findall(s) and not says_after_release(s) for s in sections(page))
    dep = '## Rust\n\n```toml\n[dependencies]\nyokai-septet = "0.1"\n```\n'
    assert any(RELEASE_ONLY.findall(s) and not says_after_release(s) for s in sections(dep))
    assert not RELEASE_ONLY.findall('pip install ".[train]"')


def test_every_extra_the_docs_name_exists():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
                 ["optional-dependencies"])
    named = re.compile(r"(?:\.|yokai-septet)\[([\w,-]+)\]")
    unknown = [
        f"{page.relative_to(ROOT)}: [{group}]"
        for page in pages()
        for group in named.findall(page.read_text(encoding="utf-8"))
        for extra in group.split(",")
        if extra not in extras
    ]
    assert not unknown, unknown


def test_the_version_has_a_changelog_entry_and_a_workflow_that_runs_on_its_tag():
    # The release workflow needs a `v<version>` tag to run on, and the tag a dated
    # CHANGELOG entry; later work goes under `## Unreleased`, above it.
    version = re.search(r'^version = "([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.M)
    assert version
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    entry = re.search(rf"^## \[{re.escape(version.group(1))}\] - \d{{4}}-\d\d-\d\d$", changelog, re.M)
    assert entry, f"CHANGELOG.md has no `## [{version.group(1)}] - YYYY-MM-DD` entry"
    unreleased = changelog.find("## Unreleased")
    assert 0 <= unreleased < entry.start(), "`## Unreleased` comes first, above the release"
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert re.search(r"^on:\n(?:  .*\n)*?    tags: \[\"v\*\"\]", workflow, re.M), "runs on v* tags"
    assert "if: startsWith(github.ref, 'refs/tags/v')" in workflow, "publishes on v* tags only"

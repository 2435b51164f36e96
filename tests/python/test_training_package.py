"""The training package reads every rule from the env: no module under ``training/``
names a variant (to branch on its player count, sides or hand size) or restates a
scoring target. The configs name their variant; the code asks ``Game``/``VectorEnv``."""

import ast
from pathlib import Path

import yokai_septet as ys

TRAINING = Path(__file__).resolve().parents[2] / "training"


def _constants(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Constant):
            yield node


def test_no_training_module_names_a_variant():
    variants = set(ys.VARIANTS)
    found = [f"{p.name}:{c.lineno} {c.value!r}"
             for p in sorted(TRAINING.glob("*.py")) for c in _constants(p)
             if isinstance(c.value, str) and c.value in variants]
    assert not found, f"variant names in training code (ask the env instead): {found}"


def test_no_training_module_compares_with_a_scoring_target():
    targets = {ys.Game(v).target for v in ys.VARIANTS}
    found = []
    for p in sorted(TRAINING.glob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(), str(p))):
            if isinstance(node, (ast.BinOp, ast.Compare)):
                for c in ast.walk(node):
                    if isinstance(c, ast.Constant) and type(c.value) in (int, float) \
                            and c.value in targets and c.value > 2:
                        found.append(f"{p.name}:{c.lineno} {c.value!r}")
    assert not found, f"a scoring target written in training code: {found}"

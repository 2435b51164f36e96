"""The training package reads every rule from the env: no module under ``training/``
names a variant (to branch on its player count, sides or hand size) or restates a
scoring target. The configs name their variant; the code asks ``Game``/``VectorEnv``. It
runs as a package, on torch: no module edits ``sys.path`` or imports scikit-learn, and the
value recipe trains a tiny model the engine loads (`pytest -m training`)."""

import ast
import json
from pathlib import Path

import numpy as np
import pytest

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


def test_no_training_module_edits_sys_path_or_uses_scikit_learn():
    # The package runs as modules (`python -m training.X`) on torch alone: a path edit
    # would hide a broken import, and scikit-learn is no dependency of the `train` extra.
    found = [f"{p.name}:{i} {line.strip()}"
             for p in sorted(TRAINING.glob("*.py"))
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if "sys.path" in line or "sklearn" in line]
    assert not found, f"training code edits sys.path or uses scikit-learn: {found}"


# Behind the `training` marker (the `train` extra), where a missing torch is a failure
# rather than a skip.
@pytest.mark.training
def test_a_tiny_value_net_trains_on_value_data_and_the_search_loads_it(tmp_path):
    from safetensors import safe_open

    from training import train_value

    variant = "4p"
    data = tmp_path / "data-0.safetensors"
    train_value.generate(variant, {"bots": "heuristic", "games": 4, "seed": 11,
                                   "max_rounds": 1, "threads": 1}, data, None)
    arrays, meta = train_value.load(data)
    rows = len(arrays["hand_len"])
    assert rows > 0 and arrays["targets"].shape == (rows, ys.Game(variant).num_players)
    assert len(arrays["row_starts"]) == rows + 1 and meta["inputs"] == "observation+hands"
    cfg = {"variant": variant, "seed": 3, "half": True, "model": {"hidden": [8]},
           "train": {"epochs": 2, "batch_size": 64, "learning_rate": 0.001, "l2": 0.001,
                     "validation_share": 0.25}}
    model = train_value.train(cfg, [data], tmp_path, 0)
    calibration = json.loads((tmp_path / "calibration-0.json").read_text())
    assert calibration["epoch"] in (1, 2) and calibration["positions"]["held_out"] > 0
    # Heuristic self-play: the heuristic's playout of the true deal is the game itself.
    assert calibration["mse"]["heuristic_playout"]["all"] == 0.0
    with safe_open(str(model), framework="numpy") as f:
        assert f.metadata()["format"] == "yokai-septet-value/1"
        assert f.get_tensor("layers.0.weight").shape == (8, int(meta["input_size"]))
        assert f.get_tensor("layers.1.weight").dtype == np.float16
    # The engine reads the file: a search valuing its leaves with it plays.
    g = ys.Game(variant, seed=5)
    while g.phase != "play":
        g.step(ys.Bot("heuristic").act(g))
    card = ys.Bot(f"ismcts:20:v50@{model}", seed=1).act(g)
    assert card in g.legal_actions()

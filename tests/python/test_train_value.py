"""The value model's pipeline, as a user runs it: ``python -m training.train_value``
generating its data with ``yokai_septet.models.value_data``, training in torch, and the
engine's ``ismcts:N:vW@PATH`` playing with the model. It needs torch and safetensors (the
``train`` extra), so it is marked ``training``:

    pip install ".[test,train]"
    python -m pytest -m training tests/python/test_train_value.py
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.training

import yokai_septet as ys  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """variant = "4p"
seed = 3
half = true

[[data]]
bots = "heuristic"
games = 24
seed = 11
max_rounds = 2

[[data]]
bots = "ismcts:30:v50@{model}"
games = 4
seed = 12
max_rounds = 1
iteration = 1

[model]
hidden = [16]

[train]
epochs = 2
batch_size = 256
learning_rate = 0.001
l2 = 0.001
validation_share = 0.25
"""


def test_train_value_makes_a_model_the_search_plays_and_calibrates_it(tmp_path):
    config = tmp_path / "value.toml"
    config.write_text(CONFIG)
    out = tmp_path / "run"
    subprocess.run([sys.executable, "-m", "training.train_value", str(config), "--out", str(out)],
                   cwd=ROOT, check=True)
    # Iteration 0 is heuristic self-play: the heuristic's playout from the true deal is the
    # game itself, so its error against the round results is exactly 0 there.
    first = json.loads((out / "calibration-0.json").read_text())
    assert first["mse"]["heuristic_playout"]["all"] == 0.0
    assert first["positions"]["train"] > 0 and first["positions"]["held_out"] > 0
    # Iteration 1 was played by the search with iteration 0's model, then trained on both.
    last = json.loads((out / "calibration-1.json").read_text())
    assert len(last["data"]) == 2 and "v50@" in last["data"][1]
    total = lambda c: c["positions"]["train"] + c["positions"]["held_out"]  # noqa: E731
    assert total(last) > total(first)
    for name in ("model", "constant"):
        assert last["mse"][name]["all"] > 0.0
    # The engine reads the model and plays a round with it; a 3p game refuses it.
    model = out / "model-1.safetensors"
    name = f"ismcts:40:v50@{model}"
    g = ys.Game("4p", seed=5, episode="round")
    bots = [ys.Bot(name, seed=1), ys.Bot("heuristic"), ys.Bot(name, seed=2), ys.Bot("heuristic")]
    while g.phase != "over":
        g.step(bots[g.current_player].act(g))
    g = ys.Game("3p", seed=5)
    bot = ys.Bot(name, seed=1)
    while g.phase != "play":
        g.step(ys.Bot("heuristic").act(g))
    with pytest.raises(ys.Error, match="value model is for 4p"):
        bot.act(g)

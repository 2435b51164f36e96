"""Short trainings on the Rust-stepped batch: sb3-contrib's MaskablePPO through
yokai_septet.sb3.SB3VecEnv, and the CleanRL-style loop of examples/cleanrl_ppo.py on
VectorEnv itself, and the baseline pipeline of training/train_baseline.py. They need torch (the ``train`` extra), so they are marked ``training``
and left out of the default run:

    pip install ".[test,train]"
    python -m pytest -m training tests/python/test_training.py
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.training

import yokai_septet as ys  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TRAIN_BASELINE = ROOT / "training" / "train_baseline.py"


def _load_script(path: Path):
    """A repository script (not a package module) imported by its path."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_train_baseline(config: Path, out: Path, **kwargs):
    """``python training/train_baseline.py CONFIG --out OUT``, as a user runs it."""
    return subprocess.run([sys.executable, str(TRAIN_BASELINE), str(config), "--out", str(out)],
                          **kwargs)


def test_maskable_ppo_trains_on_the_vector_env_with_its_masks():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from yokai_septet.sb3 import SB3VecEnv

    env = SB3VecEnv(8, variant="4p", seed=1, episode="round", opponents="random",
                    obs_dtype="uint8", num_threads=2)
    assert is_masking_supported(env)
    calls = []
    original = env.env_method

    def counting_env_method(name, *args, **kwargs):
        calls.append(name)
        return original(name, *args, **kwargs)

    env.env_method = counting_env_method
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=2, seed=0,
                        device="cpu")
    model.learn(total_timesteps=1024)  # an illegal action would raise IllegalActionError
    assert model.num_timesteps >= 1024
    assert calls.count("action_masks") >= 1024 // 8  # masks asked before every step
    obs = env.reset()
    for _ in range(50):
        masks = get_action_masks(env)
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(8), actions].all()
        obs, rewards, dones, infos = env.step(actions)
        assert rewards.shape == (8,) and len(infos) == 8


def test_sb3_vec_env_refuses_self_play():
    from yokai_septet.sb3 import SB3VecEnv

    with pytest.raises(ValueError, match="learner mode"):
        SB3VecEnv(2, self_play=True)


def test_cleanrl_style_ppo_example_trains_on_vector_env():
    mod = _load_script(ROOT / "examples" / "cleanrl_ppo.py")
    out = mod.train(total_steps=4096, num_envs=16, num_steps=32, threads=2)
    assert out["updates"] == 8
    assert out["episodes"] > 16
    assert np.isfinite(out["mean_return_first"]) and np.isfinite(out["mean_return_last"])
    assert isinstance(ys.VectorEnv(2), __import__("gymnasium").vector.VectorEnv)


@pytest.mark.parametrize("variant", ["4p", "seal-short"])
def test_the_baseline_pipeline_trains_a_model_the_nn_bot_plays(tmp_path, variant):
    """training/train_baseline.py end to end on a tiny copy of a shipped config: every
    stage runs, the model it writes plays as ``nn:PATH``, the learning curve has a point
    per stage, and the search labels come from games played by the config's ``players``
    (the teacher in 4p, the heuristic in seal-short)."""
    import tomllib

    config = (ROOT / "training" / "configs" / f"{variant}.toml").read_text()
    tiny = tmp_path / "tiny.toml"
    sizes = {"[pretrain]": 6, "[bootstrap]": 4, "[dagger]": 4, "[eval]": 20}
    section, lines = None, []
    for line in config.splitlines():
        if line.startswith("["):
            section = line.strip()
        if line.startswith("games = ") and section in sizes:
            line = f"games = {sizes[section]}"
        line = {"iterations = 0": "iterations = 1", "epochs = 4": "epochs = 1",
                "epochs = 3": "epochs = 1"}.get(line, line)
        lines.append(line)
    tiny.write_text("\n".join(lines))
    out = tmp_path / "run"
    _run_train_baseline(tiny, out, check=True, timeout=600)
    curve = json.loads((out / "curve.json").read_text())["curve"]
    assert [p["stage"] for p in curve] == ["untrained", "pretrain", "bootstrap", "dagger 1"]
    assert curve[-1]["labels"] > curve[1]["labels"] > 0
    assert curve[-1]["search_labels"] > curve[2]["search_labels"] > 0
    from yokai_septet import models

    m = models.load(out / "student.safetensors")
    assert m.variant == variant and m.metadata["stage"] == "dagger 1"
    assert m.inputs == "observation+heuristic"  # as the shipped configs say
    cfg = tomllib.loads(config)
    players = cfg["bootstrap"].get("players", cfg["teacher"])
    key = json.loads(str(np.load(out / "bootstrap.npz")["key"]))
    assert key["bots"] == [players, players] and key["teacher"] == cfg["teacher"]
    assert m.metadata["search_players"] == players
    s = ys.arena([f"nn:{out / 'student.safetensors'}", "random"], variant=variant, games=10,
                 threads=1)
    assert s["games"] == 10


def test_the_cosine_schedule_decays_the_learning_rate_from_one_to_zero():
    tb = _load_script(TRAIN_BASELINE)
    cosine = tb.lr_factor("cosine", 100)
    assert cosine(0) == 1.0 and abs(cosine(50) - 0.5) < 1e-12 and cosine(100) == 0.0
    assert all(cosine(t) >= cosine(t + 1) for t in range(100))
    assert tb.lr_factor("constant", 100)(100) == 1.0
    with pytest.raises(ValueError, match="schedule 'linear'"):
        tb.lr_factor("linear", 100)


@pytest.mark.parametrize("schedule", ["constant", "cosine"])
def test_training_steps_the_schedule_once_per_batch_to_its_end(monkeypatch, schedule):
    """train() on a few heuristic games: the optimizer takes one step per batch, and the
    learning rate ends at zero with the cosine, where it started with a constant rate."""
    from yokai_septet import models

    tb = _load_script(TRAIN_BASELINE)
    made = []

    class Recorded(tb.torch.optim.AdamW):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.steps = 0
            made.append(self)

        def step(self, *args, **kwargs):
            self.steps += 1
            return super().step(*args, **kwargs)

    monkeypatch.setattr(tb.torch.optim, "AdamW", Recorded)
    d = models.imitation_data(["heuristic", "heuristic"], "heuristic", labelled=[0, 1],
                              variant="4p", games=2, seed=0, max_rounds=1, threads=1)
    data = tb.Data()
    data.add(d)
    actions = d["masks"].shape[1]
    inputs = "observation+heuristic"
    net = tb.make_net(d["observations"].shape[1] + actions, [8], actions)
    cfg = {"epochs": 2, "batch_size": 16, "learning_rate": 0.01, "weight_decay": 0.0,
           "schedule": schedule}
    tb.train(net, data, cfg, np.random.default_rng(0), inputs)
    fit = len(data) - len(data) // 20
    (opt,) = made
    assert opt.steps == 2 * -(-fit // 16)
    assert opt.param_groups[0]["lr"] == (0.0 if schedule == "cosine" else 0.01)


def test_a_config_with_an_unknown_schedule_is_refused_before_any_work(tmp_path):
    config = (ROOT / "training" / "configs" / "4p.toml").read_text()
    bad = tmp_path / "bad.toml"
    lines = [line for line in config.splitlines() if not line.startswith("schedule = ")]
    at = lines.index("[train]") + 1
    bad.write_text("\n".join(lines[:at] + ['schedule = "linear"'] + lines[at:]))
    out = tmp_path / "run"
    r = _run_train_baseline(bad, out, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert f"{bad}: [train] schedule = 'linear', expected one of" in r.stderr
    assert not out.exists()


def test_a_config_that_is_not_toml_is_refused_with_the_file_and_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('variant = "4p"\nvariant = "3p"\n')
    r = _run_train_baseline(bad, tmp_path / "run", capture_output=True, text=True, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"{bad}: " in r.stderr and "line 2" in r.stderr

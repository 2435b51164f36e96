"""training/ppo.py, PPO with a privileged critic, and the shared pieces it stands on
(training/rollouts.py, runs.py, config.py): returns read from the env, resumes byte for
byte, budgets in decisions, checkpoints kept to the last few and the best, every sitting
exiting cleanly, and config refusals. They need torch (the ``train`` extra):

    pip install ".[test,train]"
    python -m pytest -m training tests/python/test_ppo.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import _training

pytestmark = pytest.mark.training

import yokai_septet as ys  # noqa: E402


TINY = _training.tiny(variant='"{variant}"', critic_hidden="[32]", critic_warmup=1,
                      keep_checkpoints=2, keep_every=3)


def _config(tmp_path: Path, variant: str = "4p", text: str = TINY, **edits) -> Path:
    return _training.config(tmp_path, text.format(variant=variant), **edits)

def _run(config: Path, out: Path, *extra: str, check: bool = True):
    return _training.run("ppo", config, out, *extra, check=check)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("variant", ["4p", "3p"])
def test_r8_returns_are_each_sides_round_margin_over_the_target(variant):
    # Every decision's return is the env's margin of its side over the target: partners
    # share it, sides sum to 0 in self-play, and it is whole points over the target.
    from training.nets import Sizes, mlp
    from training.rollouts import Rollouts, sampler

    sizes = Sizes(variant)
    actor = Rollouts(variant, 16, {"heuristic": 0.25}, 30, "observation+heuristic")
    net = mlp(sizes.policy_input("observation+heuristic"), [16], sizes.actions)
    choose = sampler(net, "observation+heuristic", sizes.actions, 1.0)
    actor.start_segment(1)
    got = {k: [] for k in ("round", "side", "seat", "target")}
    for k in range(6):
        b = actor.play(choose, None, 40, np.random.default_rng(k))
        for key in got:
            got[key].append(b[key])
    d = {k: np.concatenate(v) for k, v in got.items()}
    target = ys.VectorEnv(1, variant, seed=0).target
    assert len(d["target"]) > 200
    np.testing.assert_allclose((d["target"] * target * 2) % 1, 0, atol=1e-4)
    for r in np.unique(d["round"]):
        at = d["round"] == r
        by_side = {s: set(d["target"][at & (d["side"] == s)].tolist())
                   for s in np.unique(d["side"][at])}
        assert all(len(v) == 1 for v in by_side.values()), "one return per side and round"
        if len(by_side) == sizes_sides(variant):
            assert abs(sum(next(iter(v)) for v in by_side.values())) < 1e-5
    assert set(np.unique(d["side"])) == set(range(sizes_sides(variant)))


def sizes_sides(variant: str) -> int:
    return ys.VectorEnv(1, variant, seed=0).num_sides


def test_a_resumed_run_writes_the_same_model_and_curve_as_an_unbroken_one(tmp_path):
    cfg = _config(tmp_path)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    _run(cfg, whole, "--segments", "3")
    _run(cfg, parts, "--segments", "1")
    _run(cfg, parts, "--segments", "3")
    assert _sha(whole / "ppo.safetensors") == _sha(parts / "ppo.safetensors")
    strip = lambda c: [{k: v for k, v in p.items() if "second" not in k}  # noqa: E731
                       for p in json.loads(c.read_text())]
    assert strip(whole / "curve.json") == strip(parts / "curve.json")


def test_budgets_count_the_whole_run_and_a_finished_run_trains_nothing_more(tmp_path):
    cfg = _config(tmp_path)
    out = tmp_path / "run"
    _run(cfg, out, "--segments", "2")
    again = _run(cfg, out, "--segments", "2")
    assert "nothing to do" in again.stdout
    assert not (out / "ppo-0003.safetensors").exists()
    curve = json.loads((out / "curve.json").read_text())
    assert [p["segment"] for p in curve] == [1, 2]
    # --decisions: stops at the first checkpoint at or past the count, whatever the load.
    per_segment = curve[1]["decisions"] - curve[0]["decisions"]
    _run(cfg, out, "--decisions", str(curve[1]["decisions"] + 1))
    curve = json.loads((out / "curve.json").read_text())
    assert len(curve) == 3 and curve[2]["decisions"] >= curve[1]["decisions"] + per_segment // 2
    assert "nothing to do" in _run(cfg, out, "--decisions", str(curve[2]["decisions"])).stdout


def test_only_the_last_checkpoints_the_milestones_and_the_best_stay(tmp_path):
    cfg = _config(tmp_path)
    out = tmp_path / "run"
    _run(cfg, out, "--segments", "7")
    kept = sorted(p.name for p in out.glob("ppo-[0-9]*.safetensors"))
    assert kept == ["ppo-0003.safetensors", "ppo-0006.safetensors", "ppo-0007.safetensors"]
    curve = json.loads((out / "curve.json").read_text())
    best = max(curve, key=lambda p: p["evals"][0]["board_win_rate"])
    assert (out / "ppo-best.safetensors").exists()
    meta = __import__("yokai_septet.models", fromlist=["load"]).load(
        out / "ppo-best.safetensors").metadata
    assert meta["segment"] == str(best["segment"])
    assert meta["recipe"].startswith("ppo")


def test_a_checkpoint_plays_in_rust_and_as_a_vector_env_opponent(tmp_path):
    out = tmp_path / "run"
    _run(_config(tmp_path), out, "--segments", "1")
    model = out / "ppo.safetensors"
    s = ys.arena([f"nn:{model}", "heuristic"], variant="4p", games=4, seed=1)
    assert s["games"] == 4
    v = ys.VectorEnv(4, "4p", seed=0, opponents=f"nn:{model}")
    v.reset(seed=0)
    v.step(v.bot_actions())


def test_twenty_sittings_in_a_row_each_stopped_at_its_budget_all_exit_0(tmp_path):
    # The learner thread is joined before the interpreter exits, in every sitting (issue
    # 72: one DMC sitting in five died at exit with SIGABRT). The loop is every method's.
    cfg = _config(tmp_path, checkpoint_rollouts=1, steps=4, keep_every=0)
    out = tmp_path / "run"
    sittings = [_run(cfg, out, "--segments", str(k), check=False) for k in range(1, 21)]
    failed = [(k + 1, r.returncode, r.stderr[-400:]) for k, r in enumerate(sittings)
              if r.returncode != 0 or "terminate called" in r.stderr]
    assert not failed, failed
    assert (out / "ppo-0020.safetensors").exists()
    assert not (out / "ppo-0021.safetensors").exists()


@pytest.mark.parametrize("edit,message", [
    (dict(gae_lambda="1.5"), "gae_lambda = 1.5, expected a number in [0, 1]"),
    (dict(envs="0"), "envs = 0, expected a positive integer"),
    (dict(colour='"red"'), "unknown key 'colour'"),
    (dict(init='"missing.safetensors"'), "init = 'missing.safetensors': no such model file"),
])
def test_bad_configs_are_refused_naming_the_key(tmp_path, edit, message):
    r = _run(_config(tmp_path, **edit), tmp_path / "run", "--segments", "1", check=False)
    assert r.returncode != 0
    assert message in r.stderr
    assert not (tmp_path / "run" / "state.pt").exists()


def test_opponent_shares_of_one_or_more_are_refused(tmp_path):
    text = TINY.replace("past = 0.25", "past = 0.75")
    r = _run(_config(tmp_path, text=text), tmp_path / "run", "--segments", "1", check=False)
    assert "[opponents] shares add up to 1 or more" in r.stderr


def test_a_run_of_another_config_is_refused_naming_what_differs(tmp_path):
    out = tmp_path / "run"
    _run(_config(tmp_path), out, "--segments", "1")
    r = _run(_config(tmp_path, temperature="0.5"), out, "--segments", "2", check=False)
    assert r.returncode != 0 and "differs in temperature" in r.stderr

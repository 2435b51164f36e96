"""training/playout.py, policy iteration on privileged play-outs: its step moves the
policy towards the cards the play-outs value higher, a run labels decisions with every
card's play-out value, and it resumes byte for byte on the shared loop. They need torch
(the ``train`` extra):

    pip install ".[test,train]"
    python -m pytest -m training tests/python/test_playout.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import _training

pytestmark = pytest.mark.training


TINY = _training.tiny(seed=4, envs=16, steps=12, minibatch=64, label_share=0.5)


def _run(config: Path, out: Path, *extra: str, check: bool = True):
    return _training.run("playout", config, out, *extra, check=check)


def test_the_step_moves_the_policy_towards_the_cards_valued_higher():
    from training.nets import Sizes
    from training.playout import PlayoutPolicyIteration

    cfg = {**{k: v[1] for k, v in PlayoutPolicyIteration.KEYS.items()
              if not isinstance(v, dict)},
           "variant": "4p", "seed": 1, "init": "none", "hidden": [16],
           "learning_rate": 0.01, "minibatch": 64, "epochs": 5}
    method = PlayoutPolicyIteration(cfg, Sizes("4p"))
    rng = np.random.default_rng(0)
    n, actions = 64, 49
    obs = rng.integers(0, 2, (n, 711)).astype(np.uint8)
    mask = np.zeros((n, actions), bool)
    mask[:, [3, 10, 20]] = True
    q = np.where(mask, 0.0, np.nan).astype(np.float32)
    q[:, 10] = 0.5  # card 10 does better on every deal
    logp_all = np.where(mask, np.log(1 / 3), -1e9).astype(np.float32)
    batch = {"obs": obs, "hint": np.full(n, 3), "mask": mask, "q": q,
             "logp_all": logp_all, "target": np.zeros(n, np.float32)}

    def p10() -> float:
        import torch  # the train extra; imported here so the default suite still collects
        from training.nets import masked_logits, policy_input
        with torch.no_grad():
            x = policy_input(obs, batch["hint"], method.inputs, actions)
            return torch.softmax(masked_logits(method.policy, x, torch.from_numpy(mask),
                                               cfg["temperature"]), -1)[:, 10].mean().item()

    before = p10()
    stats = method.learn(0, batch)
    assert stats["labelled"] == n and stats["improvable"] == 1.0
    assert p10() > before + 0.05


def test_a_run_labels_decisions_and_resumes_as_an_unbroken_one(tmp_path):
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY)
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    _run(cfg, whole, "--segments", "2")
    _run(cfg, parts, "--segments", "1")
    _run(cfg, parts, "--segments", "2")
    sha = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
    assert sha(whole / "playout.safetensors") == sha(parts / "playout.safetensors")
    curve = json.loads((whole / "curve.json").read_text())
    assert all(p["labelled"] > 0 for p in curve)
    assert 0 <= curve[-1]["improvable"] <= 1

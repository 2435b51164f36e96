"""RLlib, TorchRL, Tianshou and OpenSpiel's DQN, each driven the way its users drive it,
through the examples in examples/. Heavy (torch, ray): behind the ``frameworks`` marker,
run with

    pip install -e '.[test,frameworks]'
    pytest -m frameworks
"""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.frameworks

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

import yokai_septet as ys  # noqa: E402


def run_example(name, *args, timeout=600):
    p = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                       text=True, timeout=timeout)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_rllib_ppo_with_action_masking_trains_and_is_evaluated():
    out = run_example("rllib_ppo_masked.py", "--iterations", "2", "--batch", "400",
                      "--minibatch", "100", "--epochs", "1", "--eval-games", "4")
    assert "iteration 2:" in out
    assert "rllib-ppo vs random: win rate" in out and "rllib-ppo vs heuristic" in out


def test_rllib_env_precheck_passes_with_unmasked_random_actions():
    """RLlib's env check steps unmasked random actions: with illegal_action="lose" the
    game ends instead of raising, and the observation dict has RLlib's keys."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from rllib_ppo_masked import make_env

    env = make_env({"variant": "3p"})
    assert isinstance(env, PettingZooEnv)
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    assert set(o) == {"observations", "action_mask"}
    illegal = int(next(i for i, m in enumerate(o["action_mask"]) if m == 0))
    obs, rewards, terminated, truncated, infos = env.step({agent: illegal})
    assert terminated["__all__"] and rewards[agent] == -1.0


def test_torchrl_masked_rollout_single_and_batched():
    from torchrl_rollout import batched, make_env, masked_random_policy

    env = make_env("4p")
    td = env.rollout(60, masked_random_policy(env.group_map), break_when_any_done=False)
    assert td.batch_size[0] == 60
    # Exactly one agent acts at every step.
    acting = sum(td[g, "mask"].squeeze(-1).long() for g in env.group_map)
    assert (acting == 1).all()
    envs = batched(2, "3p")
    td = envs.rollout(30, masked_random_policy(make_env("3p").group_map),
                      break_when_any_done=False)
    assert tuple(td.batch_size) == (2, 30)
    envs.close()


def test_tianshou_collector_masked_rollout():
    from tianshou_rollout import make_collector

    collector, buffer = make_collector(4, "4p")
    collector.reset()
    stats = collector.collect(n_step=400)
    assert stats.n_collected_steps >= 400
    assert len(buffer) >= 400
    # Every stored action was legal for the agent to move.
    batch, _ = buffer.sample(0)
    for mask, act in zip(batch.obs.mask, batch.act):
        assert mask[act]


def test_openspiel_dqn_example_trains_and_is_evaluated():
    out = run_example("openspiel_dqn.py", "--minutes", "0.05", "--eval-games", "4")
    assert "trained" in out
    assert "openspiel-dqn vs heuristic: win rate" in out


def test_evaluate_takes_a_torch_policy():
    import torch

    net = torch.nn.Linear(ys.Game().observation_size, 49)

    def policy(observations, masks):
        with torch.no_grad():
            q = net(torch.from_numpy(observations))
        return q.masked_fill(~torch.from_numpy(masks), float("-inf")).argmax(1).numpy()

    s = ys.evaluate([policy, "random"], games=8, max_rounds=2)
    assert s["entries"][0]["bot"] == "policy" and s["games"] == 8


def test_numpy_to_torch_wrapper_runs_whole_games_on_the_default_env():
    """gymnasium's NumpyToTorch on the default VectorEnv (NEXT_STEP): every output goes
    through DLPack (no object array), masks arrive as tensors, games end and go on."""
    import torch
    from gymnasium.wrappers.vector import NumpyToTorch

    w = NumpyToTorch(ys.VectorEnv(4, "3p", seed=2, max_rounds=1))
    obs, infos = w.reset(seed=2)
    assert isinstance(obs, torch.Tensor) and isinstance(infos["action_mask"], torch.Tensor)
    gen = torch.Generator().manual_seed(0)
    ended = 0
    for _ in range(80):
        mask = infos["action_mask"]
        keys = torch.rand(mask.shape, generator=gen)
        actions = torch.where(mask, keys, -1.0).argmax(1)  # an ended env's mask is empty
        obs, r, te, tr, infos = w.step(actions)
        assert isinstance(r, torch.Tensor) and r.shape == (4,)
        ended += int((te | tr).sum())
    assert ended > 0

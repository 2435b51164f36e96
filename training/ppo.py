"""PPO with a privileged critic: the policy sees only its seat's observation, the critic
sees every hand, and GAE(lambda) on that critic takes the deal's luck out of the
advantages (PerfectDou's "perfect-training-imperfect-execution").

    pip install ".[train]"                                              # torch (CPU is enough)
    python -m training.ppo training/configs/ppo-4p.toml --decisions 20M    # from the repo root
    python -m training.ppo training/configs/ppo-4p.toml --decisions 40M    # goes on to 40M
    python -m training.ppo curve runs/ppo-4p --opponents heuristic pimc nn --games 400

``docs/training.md`` ("PPO with a privileged critic") is the user's page; in short:

- **The policy** is the ``nn`` bot's MLP (by default the variant's shipped ``nn`` model,
  ``init = "shipped"``): it reads the observation and the heuristic's card, and its
  logits over ``temperature`` are the acting policy. A checkpoint is an ``nn`` weights
  file: Rust plays it greedily as ``nn:PATH``, with no Python.
- **The critic** reads the privileged state tensor (every hand; ``VectorEnv(state_tensor=
  True)``) and the mover's observation, and predicts the mover's side's return.
- **The return** of a decision is its round's margin for the mover's side over the game's
  target (``infos["round_margin"]`` and ``VectorEnv.target``): a round is an episode of its
  own, and a side's decisions in it (both partners' in the team variants) are one
  sequence for GAE (``training/advantages.py``). Passing picks are decisions like any other.
- **Opponents**: self-play in most envs; in a share of them one side is ``heuristic``,
  ``pimc`` or an earlier checkpoint (``past``).
- **Actor and learner overlap** with a fixed lag (``training/loop.py``, which also
  checkpoints, evaluates, resumes and keeps the budget); the stored log-probabilities are
  the acting policy's, so PPO's ratio corrects for the lag.
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
import torch
import torch.nn as nn

from . import config as configs
from . import loop
from .advantages import gae
from .nets import Sizes, critic_input, masked_logits, mlp, policy_input
from .rollouts import sampler, sub_seed


class PPO(loop.Method):
    """PPO with a privileged critic and GAE(lambda) on it."""

    prefix, title, recipe = "ppo", "PPO", "ppo (training/ppo.py)"
    state_tensor = True
    #: What the segment's line shows of the learner's statistics.
    shown = ("critic_explained", "kl", "clipped")

    KEYS: configs.Keys = {
        **loop.KEYS,
        "learning_rate": ("positive", 3e-5),
        "gae_lambda": ("rate", 0.9),
        "clip": ("rate", 0.1),
        "entropy": ("number0", 0.0),
        "critic_learning_rate": ("positive", 3e-4),
        "critic_hidden": ("widths", [256, 128]),
        "critic_warmup": ("count0", 4),
        "epochs": ("count", 1),
    }
    check = staticmethod(loop.check)

    def __init__(self, cfg: Dict[str, Any], sizes: Sizes) -> None:
        super().__init__(cfg, sizes)
        self.critic = mlp(sizes.state + sizes.observation, cfg["critic_hidden"], 1)
        self.copt = torch.optim.Adam(self.critic.parameters(),
                                     lr=cfg["critic_learning_rate"])

    def state(self) -> Dict[str, Any]:
        return {**super().state(), "critic": self.critic.state_dict(),
                "copt": self.copt.state_dict()}

    def load(self, state: Dict[str, Any]) -> None:
        super().load(state)
        self.critic.load_state_dict(state["critic"])
        self.copt.load_state_dict(state["copt"])

    def acting(self, player: nn.Module, run: Any, k: int) -> tuple:
        return sampler(player, self.inputs, self.actions, self.cfg["temperature"]), None

    def values(self, c: torch.Tensor) -> np.ndarray:
        with torch.no_grad():
            return torch.cat([self.critic(part)[:, 0] for part in c.split(8192)]).numpy()

    def learn(self, k: int, b: dict) -> Dict[str, float]:
        cfg = self.cfg
        n = len(b["target"])
        x = policy_input(b["obs"], b["hint"], self.inputs, self.actions)
        c = critic_input(b["state"], b["obs"])
        mask = torch.from_numpy(b["mask"])
        act = torch.from_numpy(b["action"]).long()
        old = torch.from_numpy(b["logp"])
        v = self.values(c)
        adv_np = gae(v, b["target"], b["round"], b["side"], b["step"], cfg["gae_lambda"])
        ret = torch.from_numpy(adv_np + v)
        adv = torch.from_numpy(adv_np)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        learn_policy = k >= cfg["critic_warmup"]
        gen = torch.Generator().manual_seed(sub_seed(cfg["seed"], "minibatch", k))
        s: Dict[str, list] = {"value_loss": [], "policy_loss": [], "kl": [], "clipped": [],
                              "entropy": []}
        for _ in range(cfg["epochs"]):
            for mb in torch.randperm(n, generator=gen).split(cfg["minibatch"]):
                vloss = (self.critic(c[mb])[:, 0] - ret[mb]).pow(2).mean()
                self.copt.zero_grad()
                vloss.backward()
                nn.utils.clip_grad_norm_(self.critic.parameters(), cfg["max_grad_norm"])
                self.copt.step()
                s["value_loss"].append(vloss.item())
                if not learn_policy:
                    continue
                logits = masked_logits(self.policy, x[mb], mask[mb], cfg["temperature"])
                logp_all = torch.log_softmax(logits, -1)
                logp = logp_all.gather(1, act[mb, None])[:, 0]
                ratio = (logp - old[mb]).exp()
                a = adv[mb]
                ploss = -torch.min(ratio * a, ratio.clamp(1 - cfg["clip"],
                                                          1 + cfg["clip"]) * a).mean()
                ent = -(logp_all.exp() * logp_all).sum(-1).mean()
                self.opt.zero_grad()
                (ploss - cfg["entropy"] * ent).backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), cfg["max_grad_norm"])
                self.opt.step()
                with torch.no_grad():
                    s["policy_loss"].append(ploss.item())
                    s["kl"].append((old[mb] - logp).mean().item())
                    s["clipped"].append(((ratio - 1).abs() > cfg["clip"]).float().mean().item())
                    s["entropy"].append(ent.item())
        target_var = float(np.var(b["target"]))
        return {
            **{key: float(np.mean(vals)) for key, vals in s.items() if vals},
            # How much of the returns' spread the critic explains, before this update.
            "critic_explained": 1 - float(np.var(b["target"] - v)) / max(target_var, 1e-12),
            "advantage_variance": float(np.var(adv_np)),
            "return_variance": target_var,
        }


if __name__ == "__main__":
    loop.main(PPO)

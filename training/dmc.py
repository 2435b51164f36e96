"""Deep Monte-Carlo (DMC) self-play: a network Q(observation, card) learned from the returns
of its own games, as DouZero learns Dou Dizhu.

    pip install ".[train]"                                               # torch (CPU is enough)
    python -m training.dmc training/configs/dmc-4p.toml --decisions 20M     # from the repo root
    python -m training.dmc curve runs/dmc-4p --opponents heuristic pimc --games 200

``docs/dmc.md`` is the user's page; in short:

- **The network** is the ``nn`` bot's MLP: the observation (and, with ``inputs =
  "observation+heuristic"``, a one-hot of the heuristic bot's card) in, one value per card
  id out. Its outputs are action values, so the bot that plays the highest is its greedy
  policy: a checkpoint plays as ``nn:PATH`` in Rust, with no Python. With ``init =
  "none"`` (the recipes) it starts from fresh weights, at the heuristic with
  ``heuristic_prior`` (``nets.heuristic_start``).
- **Acting**: every seat the network plays picks the legal card of highest value, or with
  probability ``epsilon`` a uniformly random legal card. Pass picks are decisions like
  any other. In the first ``warmup_segments`` the network's seats play the heuristic's
  card instead (exploring at ``warmup_epsilon``), so the network first learns the action
  values of the heuristic's games.
- **The return** of a decision is its round's margin for the mover's side over the game's
  target (``training/rollouts.py``), the objective ``pimc`` and ``ismcts`` play for
  without their round-win and game-win bonuses.
- **The loss** is the squared error between the value of the card played and its return.
- **Opponents, segments, resumes, budgets, the overlapping actor and learner**: as every
  method of the package (``training/loop.py``).
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
import torch
import torch.nn as nn

from . import config as configs
from . import loop
from .nets import policy_input
from .rollouts import sub_seed


class DMC(loop.Method):
    """Deep Monte-Carlo: action values regressed on the rounds' returns."""

    prefix, title, recipe = "dmc", "DMC", "dmc (training/dmc.py)"
    shown = ("loss",)

    KEYS: configs.Keys = {
        **loop.KEYS,
        "init": ("model", "none"),
        "epsilon": ("rate", 0.05),
        "warmup_segments": ("count0", 0),
        "warmup_epsilon": ("rate", 0.2),
        "minibatch": ("count", 4096),
        "epochs": ("count", 1),
        "max_grad_norm": ("positive", 40.0),
    }
    check = staticmethod(loop.check)

    def plays_past(self, segment: int) -> bool:
        """Not in the warm-up: the heuristic plays there."""
        return segment >= self.cfg["warmup_segments"]

    def acting(self, player: nn.Module, run: Any, k: int) -> tuple:
        """Greedy on ``player``'s values, exploring at ``epsilon``; the heuristic's card
        during the warm-up."""
        cfg = self.cfg
        warming = k // cfg["checkpoint_rollouts"] < cfg["warmup_segments"]
        epsilon = cfg["warmup_epsilon"] if warming else cfg["epsilon"]

        def choose(obs: np.ndarray, hint: np.ndarray, mask: np.ndarray,
                   rng: np.random.Generator) -> tuple:
            if warming:
                cards = hint.copy()
            else:
                x = policy_input(obs, hint, self.inputs, self.actions)
                cards = player(x).masked_fill(~torch.from_numpy(mask), -torch.inf) \
                    .argmax(1).numpy()
            explore = rng.random(len(cards)) < epsilon
            if explore.any():
                cards[explore] = (rng.random(mask[explore].shape) * mask[explore]).argmax(1)
            return cards, {}

        return choose, None

    def learn(self, k: int, b: dict) -> Dict[str, float]:
        cfg = self.cfg
        n = len(b["target"])
        gen = torch.Generator().manual_seed(sub_seed(cfg["seed"], "minibatch", k))
        losses = []
        for _ in range(cfg["epochs"]):
            for mb in torch.randperm(n, generator=gen).split(cfg["minibatch"]):
                i = mb.numpy()
                x = policy_input(b["obs"][i], b["hint"][i], self.inputs, self.actions)
                q = self.policy(x).gather(1, torch.from_numpy(b["action"][i]).long()[:, None])
                loss = (q[:, 0] - torch.from_numpy(b["target"][i])).pow(2).mean()
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), cfg["max_grad_norm"])
                self.opt.step()
                losses.append(loss.item())
        return {"loss": float(np.mean(losses))}


if __name__ == "__main__":
    loop.main(DMC)

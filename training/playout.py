"""Policy iteration on privileged play-outs: every legal card of a decision is valued by
playing the round out from the true deal with the current policy itself, and the policy
moves towards the cards that did better (an all-action policy gradient in a KL trust region).

    pip install ".[train]"                                                 # torch (CPU is enough)
    python -m training.playout training/configs/playout-4p.toml --decisions 4M    # from the repo root
    python -m training.playout curve runs/playout-4p --opponents heuristic pimc nn --games 400

``docs/training.md`` ("Policy iteration on privileged play-outs") is the user's page, with
the measurement that chose it; in short:

- **The policy** is the ``nn`` bot's MLP (by default the variant's shipped ``nn`` model):
  it reads the observation and the heuristic's card, its logits over ``temperature`` are
  the acting policy, and a checkpoint is an ``nn`` weights file that Rust plays greedily.
- **The values**: at a share (``label_share``) of the network's decisions with a choice,
  ``VectorEnv.playout_values`` plays each legal card, then the acting policy's greedy
  cards for every seat to the round's end, from the env's true state (every hand), in
  Rust. A card's value is the mover's side's round margin over the game's target. The deal
  is the one actually dealt, drawn from what the history implies, so over many decisions
  the values average to the information set's; and the play-out is deterministic, so the
  only spread left is the deal's effect on the difference between two cards, not the
  exploration of the rest of the round nor the luck of the whole deal.
- **The step**: a card's advantage is its value minus the acting policy's mean, over the
  batch's spread, and the policy ascends the expected advantage of its own cards,
  ``sum_a pi(a) A(a)`` over every legal card (the all-action policy gradient: no
  sampling noise from the card played), less ``kl`` times its KL divergence from the
  acting policy (a trust region). It is linear in each advantage, so a deal's luck on
  one card averages out over many decisions instead of pulling the policy towards risky
  cards.
- **Opponents, segments, resumes, budgets, the overlapping actor and learner**: as every
  method of the package (``training/loop.py``). The play-outs use the policy at every
  seat, also in the envs whose other side is a built-in bot.
"""

from __future__ import annotations

from typing import Any, Dict

import numpy as np
import torch
import torch.nn as nn

from yokai_septet import models

from . import config as configs
from . import loop
from .nets import masked_logits, policy_input
from .rollouts import Group, sampler, sub_seed


class PlayoutPolicyIteration(loop.Method):
    """Policy iteration on privileged play-outs of the policy itself."""

    prefix, title, recipe = "playout", "Play-out policy iteration", \
        "playout (training/playout.py)"
    shown = ("labelled", "improvable", "gain", "kl")

    KEYS: configs.Keys = {
        **loop.KEYS,
        "learning_rate": ("positive", 3e-5),
        # The share of the network's decisions with two legal cards or more whose every
        # card is valued by play-outs (each costs a play-out per legal card).
        "label_share": ("rate", 0.25),
        # The weight of the step's KL divergence from the acting policy (its trust region).
        "kl": ("number0", 1.0),
        "epochs": ("count", 1),
        "env_threads": ("count0", 0),
    }
    check = staticmethod(loop.check)

    def acting(self, player: nn.Module, run: Any, k: int) -> tuple:
        """Samples with ``player``, and values every card of a share of its decisions by
        play-outs of ``player``'s greedy play (its weights file, ``playout-player``)."""
        cfg = self.cfg
        path = run.out / "playout-player.safetensors"
        models.Model.from_torch(player, cfg["variant"], self.inputs).save(path)
        bot = f"nn:{path}"
        pick = np.random.default_rng(sub_seed(cfg["seed"], "label", k))

        def label(g: Group, envs: np.ndarray, part: Dict) -> None:
            q = np.full(part["mask"].shape, np.nan, np.float32)
            choice = np.flatnonzero(part["mask"].sum(1) >= 2)
            rows = choice[pick.random(choice.size) < cfg["label_share"]]
            if rows.size:
                q[rows] = g.env.playout_values(bot, env_ids=envs[rows]) / g.target
            part["q"] = q

        return sampler(player, self.inputs, self.actions, cfg["temperature"],
                       every_card=True), label

    def learn(self, k: int, b: dict) -> Dict[str, float]:
        cfg = self.cfg
        rows = np.flatnonzero(~np.isnan(b["q"]).all(1))
        if rows.size == 0:
            return {"labelled": 0.0}
        mask = b["mask"][rows]
        q = np.where(mask, b["q"][rows], 0.0)
        p_old = np.where(mask, np.exp(b["logp_all"][rows]), 0.0)
        p_old /= p_old.sum(1, keepdims=True)
        adv = np.where(mask, q - (p_old * q).sum(1, keepdims=True), 0.0)
        # One scale for the batch (its advantages' spread), so that the step is linear in
        # each card's advantage: an unbiased direction however noisy one deal's play-outs.
        adv /= np.sqrt((p_old * adv ** 2).sum(1).mean()) + 1e-6
        x = policy_input(b["obs"][rows], b["hint"][rows], self.inputs, self.actions)
        m = torch.from_numpy(mask)
        a = torch.from_numpy(adv.astype(np.float32))
        old = torch.from_numpy(np.log(np.maximum(p_old, 1e-12)).astype(np.float32))
        p_old_t = torch.from_numpy(p_old.astype(np.float32))
        gen = torch.Generator().manual_seed(sub_seed(cfg["seed"], "minibatch", k))
        losses = []
        for _ in range(cfg["epochs"]):
            for mb in torch.randperm(rows.size, generator=gen).split(cfg["minibatch"]):
                logp = torch.log_softmax(masked_logits(self.policy, x[mb], m[mb],
                                                       cfg["temperature"]), -1)
                gain = (logp.exp() * a[mb]).sum(1)
                kl = (p_old_t[mb] * (old[mb] - logp).masked_fill(~m[mb], 0)).sum(1)
                loss = (cfg["kl"] * kl - gain).mean()
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.policy.parameters(), cfg["max_grad_norm"])
                self.opt.step()
                losses.append(loss.item())
        greedy = np.where(mask, b["logp_all"][rows], -np.inf).argmax(1)
        best = np.where(mask, b["q"][rows], -np.inf).max(1)
        gap = best - q[np.arange(rows.size), greedy]
        with torch.no_grad():
            logp_new = torch.log_softmax(masked_logits(self.policy, x, m, cfg["temperature"]),
                                         -1).numpy()
        kl = (p_old * (np.log(np.maximum(p_old, 1e-12)) - np.where(mask, logp_new, 0))).sum(1)
        return {
            "labelled": float(rows.size), "loss": float(np.mean(losses)),
            # Where some card did better than the greedy one, and by how much on average
            # (over the game's target).
            "improvable": float((gap > 1e-6).mean()), "gain": float(gap.mean()),
            "kl": float(kl.mean()),
        }


if __name__ == "__main__":
    loop.main(PlayoutPolicyIteration)

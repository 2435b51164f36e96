"""The networks: the ``nn`` bot's MLP (the policy every method trains, which Rust plays
as ``nn:PATH``) and a privileged critic beside it.

A policy is a plain ``torch.nn.Sequential`` of ``Linear`` and ``ReLU`` layers: the
observation (and, for ``"observation+heuristic"`` inputs, a one-hot of the heuristic bot's
card) in, one logit or value per card id out. ``models.Model.from_torch`` writes it as an
``nn`` weights file.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch
import torch.nn as nn

import yokai_septet as ys
from yokai_septet import models


def mlp(in_size: int, hidden: Sequence[int], out_size: int) -> nn.Sequential:
    """``in_size -> hidden... -> out_size`` with a ReLU after every hidden layer."""
    layers: list = []
    widths = [in_size, *hidden]
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    layers.append(nn.Linear(widths[-1], out_size))
    return nn.Sequential(*layers)


def heuristic_start(net: nn.Sequential, actions: int, prior: float) -> nn.Sequential:
    """Sets ``net`` (an ``observation+heuristic`` MLP whose every hidden layer ends with
    ``actions`` units set aside) to play the heuristic: those units carry the input's
    heuristic one-hot through (a ReLU passes 0 and 1 unchanged), the output adds ``prior``
    to the heuristic's card, and the rest of the network starts silent. It stays a plain
    MLP the Rust ``nn`` bot runs, and every weight then trains as usual."""
    with torch.no_grad():
        *hiddens, out = [m for m in net if isinstance(m, nn.Linear)]
        for i, lin in enumerate(hiddens):
            if i:  # the units of the path feed nothing but the path
                lin.weight[:, -actions:] = 0
            lin.weight[-actions:, :] = 0  # which reads only the one-hot
            lin.weight[-actions:, -actions:] = torch.eye(actions)
            lin.bias[-actions:] = 0
        out.weight.zero_()
        out.bias.zero_()
        out.weight[:, -actions:] = prior * torch.eye(actions)
    return net


class Sizes:
    """A variant's sizes: observation, state tensor, actions, and a policy's input width."""

    def __init__(self, variant: str) -> None:
        g = ys.Game(variant=variant)
        self.variant = variant
        self.observation = g.observation_size
        self.state = g.state_size
        self.actions = g.num_actions

    def policy_input(self, inputs: str) -> int:
        return self.observation + (self.actions if inputs == "observation+heuristic" else 0)


def load_policy(source: str, variant: str) -> tuple:
    """``(net, inputs, model)`` of a model: ``"shipped"`` (the variant's shipped ``nn``
    model) or a weights file. Refuses a model of another variant, naming both."""
    m = models.load(variant if source == "shipped" else source)
    if m.variant != variant:
        raise SystemExit(f"model {source!r} is for {m.variant}, not {variant}")
    return m.to_torch(), m.inputs, m


def policy_input(obs: np.ndarray, hint: np.ndarray, inputs: str, actions: int) -> torch.Tensor:
    """A policy's input rows: observations (``uint8`` or ``float32``) and, for
    ``"observation+heuristic"``, the heuristic's card ids one-hot."""
    return torch.from_numpy(models.features(obs, hint, inputs, actions))


def critic_input(state: np.ndarray, obs: np.ndarray) -> torch.Tensor:
    """A privileged critic's input rows: the full state tensor (every hand) and the
    mover's observation (whose turn, from which seat)."""
    return torch.from_numpy(np.concatenate([state, obs], axis=1).astype(np.float32))


def masked_logits(net: nn.Sequential, x: torch.Tensor, mask: torch.Tensor,
                  temperature: float = 1.0) -> torch.Tensor:
    """The policy's logits over temperature, illegal cards at -1e9 (their probability 0,
    and no NaN where a row has few legal cards)."""
    return (net(x) / temperature).masked_fill(~mask, -1e9)

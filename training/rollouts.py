"""Self-play rollouts on the project's ``VectorEnv``: the network's decisions, each held
until the round it belongs to has ended, then handed over with that round's return.

The envs come in groups (:class:`Group`): in the ``self`` group the network plays every
seat; in the others it plays one side and the other side is a built-in bot
(``heuristic``, ``pimc``, …) or an earlier checkpoint (``past``). The network's seats are
named ``heuristic`` in the env, so ``bot_actions()`` also gives the heuristic's card
there: the extra input of an ``observation+heuristic`` network.

A decision's **return** is its round's value for the mover's side: the env's
``infos["round_margin"]`` of that side (its points, or seals, minus the other sides'
average) over the game's ``target``. The env says which rounds ended on each step, so no
rule is restated here.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Dict, List, Optional

import numpy as np
import torch

import yokai_septet as ys

from .nets import masked_logits, policy_input

#: Who plays the other side of a group's envs: a built-in bot, or ``past``.
OPPONENTS = ("heuristic", "pimc", "past")

#: The fields of every decision a rollout hands over (``state`` only with state tensors).
FIELDS = ("obs", "hint", "mask", "action", "logp", "state", "seat", "side", "round", "step",
          "target")


def sub_seed(seed: int, tag: str, *parts: int) -> int:
    """A 63-bit seed for one use of a run's seed, domain-tagged by ``tag`` and ``parts``."""
    h = hashlib.blake2b(repr((seed, tag, *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") >> 1


class Group:
    """``n`` envs in which the network plays the seats of ``learner_side`` (every seat when
    it is ``None``) and ``bot`` (a bot name, or ``"past"``) the others."""

    def __init__(self, name: str, variant: str, n: int, learner_side: Optional[int],
                 bot: str, max_rounds: int, state_tensor: bool,
                 num_threads: Optional[int] = 1) -> None:
        probe = ys.VectorEnv(1, variant, seed=0)
        side_of = np.array([probe.side_of(s) for s in range(probe.num_players)])
        self.name, self.bot = name, bot
        self.learns = np.ones(len(side_of), bool) if learner_side is None else \
            side_of == learner_side
        named = "heuristic" if bot in ("self", "past") else bot
        opponents = ["heuristic" if self.learns[s] else named for s in range(len(side_of))]
        self.env = ys.VectorEnv(
            n, variant, seed=0, episode="game", max_rounds=max_rounds, self_play=True,
            opponents=opponents, reward_mode="points", num_threads=num_threads,
            obs_dtype="uint8",
            autoreset_mode="same_step", state_tensor=state_tensor,
        )
        self.side_of = side_of
        self.target = float(self.env.target)
        self.obs = self.info = None

    def reset(self, seed: int) -> None:
        self.obs, self.info = self.env.reset(seed=seed)


class Rollouts:
    """The actor's side: the env groups, and every network decision whose round has not
    ended yet (its return is not known).

    ``shares`` maps each of :data:`OPPONENTS` to the share of ``envs`` in which the
    network plays one side against it (split evenly over the sides); the rest is
    self-play. ``num_threads``: each group's stepping threads (``None``: every core)."""

    def __init__(self, variant: str, envs: int, shares: Dict[str, float], max_rounds: int,
                 inputs: str, state_tensor: bool = False,
                 num_threads: Optional[int] = 1) -> None:
        self.variant, self.inputs, self.state_tensor = variant, inputs, state_tensor
        probe = ys.VectorEnv(1, variant, seed=0)
        sides = probe.num_sides
        self.actions = probe.single_action_space.n
        self.groups: List[Group] = []
        used = 0
        for bot in OPPONENTS:
            n = int(round(shares.get(bot, 0) * envs / sides))
            for side in range(sides if n else 0):
                self.groups.append(Group(f"{bot}/{side}", variant, n, side, bot, max_rounds,
                                         state_tensor, num_threads))
                used += n
        self.groups.insert(0, Group("self", variant, envs - used, None, "self", max_rounds,
                                    state_tensor, num_threads))
        self.pending: list = []

    def start_segment(self, seed: int) -> None:
        """Deals every env afresh from ``seed``; decisions in flight are dropped (their
        rounds will never end), so a run resumed from a checkpoint starts exactly here."""
        for i, g in enumerate(self.groups):
            g.reset(sub_seed(seed, "deal", i))
        self.pending = [{"parts": [], "uid": np.full(g.env.num_envs, -1)} for g in self.groups]
        self.next_uid = 0
        self.step_count = 0
        # Each round's margins (one per side, over the target) by its id, once it ended.
        self.round_margin = np.zeros((1024, 3), np.float32)
        self.round_ended = np.zeros(1024, bool)

    def _new_ids(self, count: int) -> np.ndarray:
        ids = self.next_uid + np.arange(count)
        self.next_uid += count
        if self.next_uid > len(self.round_ended):
            grow = max(self.next_uid, 2 * len(self.round_ended))
            self.round_margin = np.resize(self.round_margin, (grow, 3))
            self.round_ended = np.concatenate(
                [self.round_ended, np.zeros(grow - len(self.round_ended), bool)])
        return ids

    def greedy(self, net: torch.nn.Module, obs: np.ndarray, hint: np.ndarray,
               mask: np.ndarray) -> np.ndarray:
        """The legal card of highest logit (or value) to ``net`` in each row."""
        x = policy_input(obs, hint, self.inputs, self.actions)
        return net(x).masked_fill(~torch.from_numpy(mask), -torch.inf).argmax(1).numpy()

    def play(self, choose: Callable, past: Optional[torch.nn.Module], steps: int,
             rng: np.random.Generator, annotate: Optional[Callable] = None) -> dict:
        """Plays ``steps`` steps of every env. ``choose(obs, hint, mask, rng)`` picks the
        network's cards, returning ``(cards, fields)``: ``fields``, a dict of arrays (one
        row per decision, such as the acting policy's log-probabilities) kept with the
        decisions. Returns the network's decisions
        whose rounds ended (each of :data:`FIELDS`, one row per decision) and
        ``decisions``, how many the network made in these steps. ``annotate(group, envs,
        part)``, if given, sees each step's decisions (``envs``: their env indices in the
        group) before they are played, and may add fields of its own to ``part``."""
        done_parts: list = []
        decisions = 0
        for gi, (g, pend) in enumerate(zip(self.groups, self.pending)):
            uid = pend["uid"]
            if (uid < 0).any():  # a round id for every env's round in progress
                new = uid < 0
                uid[new] = self._new_ids(int(new.sum()))
            for _ in range(steps):
                obs, info = g.obs, g.info
                to_play = info["to_play"]
                hint = g.env.bot_actions()
                action = hint.copy()
                live = to_play >= 0
                mine = live & g.learns[np.maximum(to_play, 0)]
                idx = np.flatnonzero(mine)
                with torch.inference_mode():
                    if idx.size:
                        mask = info["action_mask"][idx]
                        a, fields = choose(obs[idx], hint[idx], mask, rng)
                        action[idx] = a
                        seat = to_play[idx]
                        part = {"obs": obs[idx], "hint": hint[idx], "mask": mask,
                                "action": a, "seat": seat, "side": g.side_of[seat],
                                "round": uid[idx].copy(),
                                "step": np.full(idx.size, self.step_count), **fields}
                        if self.state_tensor:
                            part["state"] = info["state"][idx]
                        if annotate is not None:
                            annotate(g, idx, part)
                        pend["parts"].append(part)
                        decisions += idx.size
                    theirs = np.flatnonzero(live & ~mine)
                    if past is not None and g.bot == "past" and theirs.size:
                        action[theirs] = self.greedy(past, obs[theirs], hint[theirs],
                                                     info["action_mask"][theirs])
                g.obs, _, _, _, g.info = g.env.step(action)
                self.step_count += 1
                ended = np.flatnonzero(g.info["round_end"])
                if ended.size:
                    m = g.info["round_margin"][ended] / g.target
                    self.round_margin[uid[ended], : m.shape[1]] = m
                    self.round_ended[uid[ended]] = True
                    uid[ended] = self._new_ids(ended.size)
            # Decisions whose rounds ended get their returns; the others wait.
            if not pend["parts"]:
                continue
            cat = {k: np.concatenate([p[k] for p in pend["parts"]]) for k in pend["parts"][0]}
            known = self.round_ended[cat["round"]]
            if known.any():
                d = {k: v[known] for k, v in cat.items()}
                d["target"] = self.round_margin[d["round"], d["side"]].astype(np.float32)
                done_parts.append(d)
            pend["parts"] = [{k: v[~known] for k, v in cat.items()}]
        if not done_parts:
            return {"decisions": decisions, "target": np.zeros(0, np.float32)}
        out = {k: np.concatenate([p[k] for p in done_parts]) for k in done_parts[0]}
        out["decisions"] = decisions
        return out


def sampler(net: torch.nn.Module, inputs: str, actions: int, temperature: float,
            every_card: bool = False) -> Callable:
    """A ``choose`` for :meth:`Rollouts.play`: samples each card from the softmax of
    ``net``'s logits over ``temperature`` (numpy's generator, through the Gumbel-max
    trick, so a run replays exactly), keeping its log-probability (``logp``) and, with
    ``every_card``, every card's (``logp_all``)."""

    def choose(obs: np.ndarray, hint: np.ndarray, mask: np.ndarray,
               rng: np.random.Generator) -> tuple:
        logits = masked_logits(net, policy_input(obs, hint, inputs, actions),
                               torch.from_numpy(mask), temperature)
        logp_all = torch.log_softmax(logits, -1).numpy()
        gumbel = -np.log(-np.log(rng.random(logp_all.shape) + 1e-12) + 1e-12)
        cards = np.where(mask, logp_all + gumbel, -np.inf).argmax(1)
        fields = {"logp": logp_all[np.arange(len(cards)), cards].astype(np.float32)}
        if every_card:
            fields["logp_all"] = logp_all.astype(np.float32)
        return cards, fields

    return choose

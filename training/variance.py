"""How much of a decision's return the deal decides, and which advantage estimate removes
it: the measurement that chose the play-out trainer (``docs/training.md``, "Which
advantage estimate").

    python -m training.variance training/configs/ppo-4p.toml --train-decisions 1M --out runs/variance-4p

It plays the trainer's own rollouts (its config: opponents, starting policy,
temperature). First ``--decisions`` held-out decisions, each with every legal card's
value by play-outs from the true state before it (``VectorEnv.playout_values``): by the
``heuristic`` bot at every seat, and by the starting policy's own greedy play. Then two
critics train side by side, as the PPO trainer's critic does, on ``--train-decisions``
other decisions: one over the observation, one over the privileged state (state tensor and
observation). On the held-out decisions it reports, as the critics learn and at the end:

- the share of the returns' variance each critic explains, and each play-out's value
  (best scaled, as a control variate);
- the variance of each advantage estimate: the Monte-Carlo return, the return minus each
  critic or play-out, GAE(lambda) on each critic for several lambda, and the paired
  play-outs (the card played against the greedy card, both played out from the true
  state), with its effective-sample gain over the plain return (``var(return) /
  var(estimate)``) and its residual against the observation critic's (``var(estimate) /
  var(return - V_obs)``).

Writes ``variance.json`` and ``variance.md`` (the table) into ``--out``, anew at every
report of the critics (after 1/64, 1/32, ... of ``--train-decisions``), so a run stopped
early leaves the table of its critics so far.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Dict, List

import numpy as np
import torch

from yokai_septet import models

from . import config as configs
from . import loop
from .ppo import PPO
from .advantages import gae
from .nets import Sizes, critic_input, mlp
from .rollouts import Group, Rollouts, sampler, sub_seed
from .runs import parse_count

LAMBDAS = (0.0, 0.5, 0.8, 0.9, 0.95, 1.0)


def rollouts(cfg: Dict) -> tuple:
    """The trainer's actor at its starting policy: ``(actor, choose)``."""
    sizes = Sizes(cfg["variant"])
    policy, inputs, _ = loop.make_policy(cfg, sizes)
    actor = Rollouts(cfg["variant"], cfg["envs"], cfg["opponents"], cfg["max_rounds"],
                     inputs, state_tensor=True)
    return actor, sampler(policy, inputs, sizes.actions, cfg["temperature"], every_card=True)


def batches(cfg: Dict, seed: int, annotate=None):
    """The trainer's rollouts at its starting policy from a segment dealt from ``seed``:
    each batch the decisions whose rounds ended, with their returns and state tensors."""
    actor, choose = rollouts(cfg)
    actor.start_segment(seed)
    k = 0
    while True:
        b = actor.play(choose, None, cfg["steps"], np.random.default_rng(
            sub_seed(seed, "act", k)), annotate=annotate)
        b.pop("decisions")
        k += 1
        if len(b["target"]):
            yield b


def held_out(cfg: Dict, decisions: int, seed: int, policy_bot: str) -> Dict[str, np.ndarray]:
    """``decisions`` decisions of rounds no critic trains on, each with every legal card's
    value by a play-out from the true state before it (``VectorEnv.playout_values``): by
    the ``heuristic`` bot at every seat (``q_heuristic``) and by the policy's own greedy
    play, ``policy_bot`` (``q_policy``)."""

    def playouts(g: Group, envs: np.ndarray, part: Dict) -> None:
        part["q_heuristic"] = g.env.playout_values("heuristic", env_ids=envs) / g.target
        part["q_policy"] = g.env.playout_values(policy_bot, env_ids=envs) / g.target

    parts: List[Dict] = []
    for b in batches(cfg, seed, annotate=playouts):
        parts.append(b)
        if sum(len(p["target"]) for p in parts) >= decisions:
            break
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


class Critics:
    """The two critics the table compares, trained side by side on the same rollouts, as
    the trainer's critic trains (Adam, squared error to the return, one pass over each
    batch): one over the observation, one over the state tensor and the observation."""

    def __init__(self, sizes: Sizes, hidden: List[int], lr: float, seed: int) -> None:
        torch.manual_seed(seed)
        self.nets = {"observation": mlp(sizes.observation, hidden, 1),
                     "privileged": mlp(sizes.state + sizes.observation, hidden, 1)}
        self.opts = {k: torch.optim.Adam(n.parameters(), lr=lr) for k, n in self.nets.items()}
        self.gen = torch.Generator().manual_seed(seed)

    @staticmethod
    def inputs(name: str, d: Dict[str, np.ndarray]) -> torch.Tensor:
        if name == "observation":
            return torch.from_numpy(d["obs"].astype(np.float32))
        return critic_input(d["state"], d["obs"])

    def train(self, b: Dict[str, np.ndarray], minibatch: int) -> None:
        y = torch.from_numpy(b["target"])
        order = torch.randperm(len(y), generator=self.gen)
        for name, net in self.nets.items():
            x = self.inputs(name, b)
            for mb in order.split(minibatch):
                loss = (net(x[mb])[:, 0] - y[mb]).pow(2).mean()
                self.opts[name].zero_grad()
                loss.backward()
                self.opts[name].step()

    def values(self, d: Dict[str, np.ndarray]) -> Dict[str, np.ndarray]:
        with torch.no_grad():
            return {name: torch.cat([net(x)[:, 0] for x in self.inputs(name, d).split(8192)])
                    .numpy() for name, net in self.nets.items()}


def explained(values: Dict[str, np.ndarray], target: np.ndarray) -> Dict[str, float]:
    return {name: 1 - float(np.var(target - v)) / float(np.var(target))
            for name, v in values.items()}


def measure(d: Dict[str, np.ndarray], values: Dict[str, np.ndarray]) -> Dict:
    """The variance table of the held-out decisions ``d`` under the critics' ``values``."""
    g = d["target"]
    rows = np.arange(len(g))
    taken = d["action"]
    # The greedy card of the policy that acted (its most probable), and the heuristic's.
    greedy = np.where(d["mask"], d["logp_all"], -np.inf).argmax(1)
    v_heur = d["q_heuristic"][rows, d["hint"]]
    v_pol = d["q_policy"][rows, greedy]
    v_obs, v_priv = values["observation"], values["privileged"]
    var_g = float(np.var(g))

    def scaled(v: np.ndarray) -> np.ndarray:
        return v * (np.cov(g, v)[0, 1] / np.var(v)) if np.var(v) > 0 else 0 * v

    shares = {
        "observation critic": 1 - np.var(g - v_obs) / var_g,
        "privileged critic (state tensor + observation)": 1 - np.var(g - v_priv) / var_g,
        "heuristic play-out from the true state (best-scaled)":
            1 - np.var(g - scaled(v_heur)) / var_g,
        "the policy's greedy play-out from the true state (best-scaled)":
            1 - np.var(g - scaled(v_pol)) / var_g,
    }
    estimates = {"Monte-Carlo return": g, "return - observation critic": g - v_obs,
                 "return - privileged critic": g - v_priv,
                 "return - heuristic play-out (best-scaled)": g - scaled(v_heur),
                 "return - the policy's play-out (best-scaled)": g - scaled(v_pol)}
    for lam in LAMBDAS[:-1]:
        for name, v in (("observation", v_obs), ("privileged", v_priv)):
            estimates[f"GAE({lam:g}) on the {name} critic"] = gae(
                v, g, d["round"], d["side"], d["step"], lam)
    estimates["paired play-outs: Q(s, card played) - Q(s, greedy card)"] = \
        d["q_policy"][rows, taken] - v_pol
    var_obs = float(np.var(estimates["return - observation critic"]))
    table_rows = [{"estimate": k, "variance": float(np.var(a)),
                   "gain_over_return": var_g / max(float(np.var(a)), 1e-12),
                   "residual_vs_observation_critic": float(np.var(a)) / var_obs}
                  for k, a in estimates.items()]
    return {"held_out": int(len(g)), "rounds": int(len(np.unique(d["round"]))),
            "return_variance": var_g,
            "played_not_greedy": float((taken != greedy).mean()),
            "playout_changed_by_card": float((d["q_policy"][rows, taken] != v_pol).mean()),
            "explained": {k: float(v) for k, v in shares.items()},
            "estimates": table_rows}


def table(r: Dict) -> str:
    lines = [f"Held out: {r['held_out']:,} decisions of {r['rounds']:,} rounds; the critics "
             f"trained on {r['trained']:,} other decisions; the return's variance "
             f"{r['return_variance']:.4f}.", "",
             "| critic trained on | " + " | ".join(r["curve"][0]["explained"]) + " |",
             "|---:|" + "---:|" * len(r["curve"][0]["explained"])]
    lines += [f"| {p['trained']:,} | " + " | ".join(f"{v:.1%}" for v in p["explained"].values())
              + " |" for p in r["curve"]]
    lines += ["", "| predictor | share of the return's variance explained (held out) |",
              "|---|---:|"]
    lines += [f"| {k} | {v:.1%} |" for k, v in r["explained"].items()]
    lines += ["", "| advantage estimate | variance | effective-sample gain over the return "
              "| variance / (return - observation critic)'s |", "|---|---:|---:|---:|"]
    lines += [f"| {e['estimate']} | {e['variance']:.4f} | {e['gain_over_return']:.2f}x "
              f"| {e['residual_vs_observation_critic']:.3f} |" for e in r["estimates"]]
    return "\n".join(lines) + "\n"


def main(argv: List[str] = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m training.variance",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("config", type=Path, help="a training.ppo config")
    ap.add_argument("--train-decisions", type=parse_count, default=2_000_000,
                    help="decisions the critics train on (e.g. 2M)")
    ap.add_argument("--decisions", type=parse_count, default=100_000,
                    help="held-out decisions the table is measured on")
    ap.add_argument("--seed", type=int, default=9_000_000)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    cfg = configs.read(args.config, PPO.KEYS, PPO.check)
    if cfg["torch_threads"]:
        torch.set_num_threads(cfg["torch_threads"])
    args.out.mkdir(parents=True, exist_ok=True)
    t = time.monotonic()
    policy_bot = "nn"
    if cfg["init"] != "shipped":
        policy_bot = f"nn:{args.out / 'start.safetensors'}"
        net, inputs, _ = loop.make_policy(cfg, Sizes(cfg["variant"]))
        models.Model.from_torch(net, cfg["variant"], inputs).save(args.out / "start.safetensors")
    test = held_out(cfg, args.decisions, sub_seed(args.seed, "held-out"), policy_bot)
    print(f"{len(test['target']):,} held-out decisions in {time.monotonic() - t:.0f} s",
          file=sys.stderr, flush=True)
    critics = Critics(Sizes(cfg["variant"]), cfg["critic_hidden"],
                      cfg["critic_learning_rate"], args.seed)
    curve, trained, report = [], 0, args.train_decisions / 64
    for b in batches(cfg, sub_seed(args.seed, "train")):
        critics.train(b, cfg["minibatch"] // 8)
        trained += len(b["target"])
        if trained >= report or trained >= args.train_decisions:
            values = critics.values(test)
            curve.append({"trained": trained, "explained": explained(values, test["target"])})
            print(json.dumps(curve[-1]), file=sys.stderr, flush=True)
            report *= 2
            # The table at every report, so that a run stopped early still leaves one.
            r = measure(test, values)
            r.update(trained=trained, curve=curve, config=str(args.config), seed=args.seed,
                     hidden=cfg["critic_hidden"], seconds=round(time.monotonic() - t))
            (args.out / "variance.json").write_text(json.dumps(r, indent=1))
            (args.out / "variance.md").write_text(table(r))
        if trained >= args.train_decisions:
            break
    print(table(r))


if __name__ == "__main__":
    main()

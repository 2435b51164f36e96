"""A typical user script, checked by ``mypy --strict`` in tests/python/test_typing.py
(never run by pytest: the file name does not start with ``test_``)."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import yokai_septet as ys


def first_legal(observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Any:
    return masks.argmax(axis=1)


def main() -> None:
    g = ys.Game(variant="4p", scoring="advanced", seed=0)
    while g.phase != "over":
        g.step(g.legal_actions()[0])
    winners: list[int] = g.winners
    print(winners, g.scores, g.record_json()[:10])

    bot = ys.Bot("heuristic", seed=1)
    g2 = ys.Game("4p", seed=2)
    g2.step(bot.act(g2))

    summary: dict[str, Any] = ys.arena(["heuristic", "random"], "4p", games=8, seed=0)
    summary = ys.arena("heuristic,random", games=8, threads=1, progress=False)
    summary = ys.evaluate([first_legal, "random"], games=8, progress=False)
    print(summary["entries"])

    analysis: dict[str, Any] = ys.analyze(g.record(), budget=1000)
    print(analysis.keys())

    venv = ys.VectorEnv(4, seed=0)
    obs, infos = venv.reset(seed=0)
    obs, rewards, terminated, truncated, infos = venv.step(
        first_legal(obs, infos["action_mask"])
    )
    venv.close()

    aec: ys.AECEnvProtocol = ys.env(variant="4p", max_rounds=1)
    aec.reset(seed=0)
    for agent in aec.agent_iter(max_iter=8):
        seen, cumulative, ended, cut, details = aec.last()
        total: float = cumulative
        done: bool = ended or cut
        mask: Any = seen["action_mask"] if seen is not None else None
        aec.step(None if done else int(np.flatnonzero(mask)[0]))
        print(agent, total, details)
    raw: ys.raw_env = aec.unwrapped
    print(raw.game.round, aec.rewards, aec.state().shape)
    aec.close()

    env = gymnasium.make("YokaiSeptet-v0", opponents="heuristic")
    o, info = env.reset(seed=0)
    o, reward, done, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.close()


if __name__ == "__main__":
    main()

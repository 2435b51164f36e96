"""Yokai Septet: a fast, exact reinforcement-learning environment for the trick-taking
card game Yokai Septet (Rust engine, Python bindings).

Rules: ``yokai-septet rules`` prints the rules reference (R1..R10; ``docs/rules.md`` in the
repository and the source distribution). The stable API, its errors and the record schema:
``docs/api.md`` there. In short::

    import yokai_septet as ys
    g = ys.Game(variant="4p", scoring="advanced", seed=0)
    while g.phase != "over":
        g.step(g.legal_actions()[0])
    print(g.winners, g.scores)

Also here:

- :func:`env` / :func:`raw_env`: a PettingZoo AEC environment.
- ``gymnasium.make("YokaiSeptet-v0", ...)``: a single-agent Gymnasium environment whose
  other seats are played by built-in bots (registered on import).
- :class:`VectorEnv`: many games stepped in Rust across threads, into numpy buffers.
- :func:`arena`: duplicate-deal bot arenas in Rust on every core, summarized (win rates,
  Wilson intervals, Elo, points per game).
- ``yokai_septet.distributed`` (needs the ``ray`` extra): the same arena, and self-play
  trajectory collection, split across Ray tasks on one machine or a cluster.
"""

from ._core import (  # noqa: F401
    EPISODES,
    Bot,
    SCORINGS,
    VARIANTS,
    Game,
    IllegalActionError,
    __version__,
    arena,
)

from ._pettingzoo import env, raw_env  # noqa: E402
from ._vector import VectorEnv  # noqa: E402
from ._gym import YokaiSeptetEnv  # noqa: E402


def _register() -> None:
    import gymnasium

    if "YokaiSeptet-v0" not in gymnasium.registry:
        gymnasium.register(
            id="YokaiSeptet-v0", entry_point="yokai_septet._gym:YokaiSeptetEnv"
        )


_register()

__all__ = [
    "Bot",
    "VectorEnv",
    "YokaiSeptetEnv",
    "env",
    "raw_env",
    "Game",
    "IllegalActionError",
    "arena",
    "VARIANTS",
    "SCORINGS",
    "EPISODES",
    "__version__",
]

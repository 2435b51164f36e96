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
- :class:`ArenaResult`: what arenas return, a dict that prints as the command line's
  table.
- :class:`ArenaSpec`: an arena's settings (variant, games, seed …) in one typed value,
  accepted as ``spec=`` by every arena function.
- :func:`analyze`: the double-dummy analysis of a game record (every card play's best
  cards and cost); ``Game.solve()`` / ``Game.solve_moves()`` score the current position
  with every hand visible.
- :func:`evaluate`: the same arena with your own agents in the line-up (a batched policy
  on observations and masks, or an object with ``act(game)``); ``arena`` hands such
  line-ups to it.
- ``yokai_septet.distributed`` (needs the ``ray`` extra): the same arena, and self-play
  trajectory collection, split across Ray tasks on one machine or a cluster.
"""

from typing import Optional, Sequence, Union

from ._core import (  # noqa: F401
    EPISODES,
    Bot,
    SCORINGS,
    VARIANTS,
    Error,
    Game,
    GameInUseError,
    IllegalActionError,
    InUseError,
    InvalidTypeError,
    InvalidValueError,
    MissingExtraError,
    StateError,
    VectorEnvInUseError,
    __version__,
    analyze,
)
from ._core import arena as _rust_arena

from ._arena_result import ArenaResult, TruncationWarning  # noqa: E402
from ._arena_spec import DEFAULT as _SPEC, ArenaSpec, resolve as _resolve_spec  # noqa: E402
from ._pettingzoo import AECEnvProtocol, env, raw_env  # noqa: E402
from ._vector import SeatReward, VectorEnv  # noqa: E402
from ._gym import YokaiSeptetEnv  # noqa: E402
from ._evaluate import Entry, evaluate  # noqa: E402
from ._progress import Progress, ProgressLog, progress_bar  # noqa: E402


def arena(
    bots: Union[str, Sequence[Entry], None] = None,
    variant: str = _SPEC.variant,
    games: int = _SPEC.games,
    seed: int = _SPEC.seed,
    *,
    scoring: Optional[str] = _SPEC.scoring,
    max_rounds: Optional[int] = _SPEC.max_rounds,
    duplicate: bool = _SPEC.duplicate,
    rounds: bool = _SPEC.rounds,
    sequential: bool = _SPEC.sequential,
    threads: Optional[int] = _SPEC.threads,
    batch_size: int = _SPEC.batch_size,
    progress: Progress = None,
    spec: Optional[ArenaSpec] = None,
) -> ArenaResult:
    """Plays a duplicate-deal arena and returns its summary, an :class:`ArenaResult` (a
    dict that prints as the command line's table; see ``_core.arena``: built-in bots in
    Rust on every core). Where the round cap decides the result, the table says so and a
    :class:`TruncationWarning` is issued. A line-up holding your own agents (a batched policy, or
    an object with ``act(game)``) is played by :func:`evaluate` with the same deals and
    statistics. The settings are the fields of :class:`ArenaSpec`, given as keywords or as
    ``spec=ArenaSpec(...)`` (not both). ``progress``: a bar on stderr where it is a
    terminal (``None``, the default), always (``True``), never (``False``), or your
    callable ``progress(done, total)``; ``tqdm``'s bar where it is installed."""
    settings = _resolve_spec(
        spec, variant=variant, games=games, seed=seed, scoring=scoring,
        max_rounds=max_rounds, duplicate=duplicate, rounds=rounds, sequential=sequential,
        threads=threads, batch_size=batch_size,
    )
    if bots is None or isinstance(bots, str) or all(isinstance(b, str) for b in bots):
        names = bots if bots is None or isinstance(bots, str) else [str(b) for b in bots]
        callback, close = progress_bar(progress, "arena")
        try:
            result = _rust_arena(names, progress=callback, spec=settings)
        finally:
            close()
        return result.warn()
    return evaluate(bots, progress=progress, spec=settings)


arena.__doc__ = (arena.__doc__ or "") + "\n\n" + (_rust_arena.__doc__ or "")


def _register() -> None:
    import gymnasium

    if "YokaiSeptet-v0" not in gymnasium.registry:
        gymnasium.register(
            id="YokaiSeptet-v0",
            entry_point="yokai_septet._gym:YokaiSeptetEnv",
            vector_entry_point="yokai_septet._vector:make_vec",
        )


_register()

__all__ = [
    "Bot",
    "VectorEnv",
    "SeatReward",
    "YokaiSeptetEnv",
    "env",
    "raw_env",
    "AECEnvProtocol",
    "Game",
    "Error",
    "InvalidValueError",
    "InvalidTypeError",
    "StateError",
    "IllegalActionError",
    "InUseError",
    "GameInUseError",
    "VectorEnvInUseError",
    "MissingExtraError",
    "analyze",
    "arena",
    "ArenaSpec",
    "ArenaResult",
    "TruncationWarning",
    "evaluate",
    "VARIANTS",
    "SCORINGS",
    "EPISODES",
    "__version__",
]

"""``yokai_septet.evaluate``: your own agents in the duplicate-deal arena.

Games, seats and seeds come from the Rust arena (``_arena_setup``) and every finished game
is counted by it (``_arena_game_counts``), then summarized by it (``_arena_summary``): a
line-up of built-in bot names gives exactly the summary of :func:`yokai_septet.arena`, and
a Python policy is measured with the same deals, win rate, Wilson interval and Elo.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _core
from ._arena_result import ArenaResult
from ._arena_spec import DEFAULT, ArenaSpec, resolve
from ._core import Bot, Game, IllegalActionError, InvalidTypeError, InvalidValueError
from ._progress import Progress, progress_bar

#: A batched policy: ``policy(observations, masks) -> actions``, with observations
#: ``float32 [B, observation_size]``, masks ``bool [B, num_actions]`` and one action per
#: row (anything ``numpy.asarray`` turns into ``B`` integers).
BatchPolicy = Callable[[np.ndarray, np.ndarray], Any]

#: A line-up entry: a built-in bot name, a :data:`BatchPolicy`, or an object with
#: ``act(game) -> action`` (like :class:`yokai_septet.Bot`).
Entry = Union[str, BatchPolicy, Any]


def entry_label(entry: Entry) -> str:
    """How an entry is named in a summary: the bot name, else the entry's ``name``
    attribute, else its function or class name."""
    if isinstance(entry, str):
        return entry
    name = getattr(entry, "name", None)
    if isinstance(name, str):
        return name
    return getattr(entry, "__name__", None) or type(entry).__name__


def _is_acting_object(entry: Entry) -> bool:
    return callable(getattr(entry, "act", None))


def _check_entry(i: int, entry: Entry) -> None:
    if isinstance(entry, str) or _is_acting_object(entry) or callable(entry):
        return
    raise InvalidTypeError(
        f"line-up entry {i} ({entry!r}) is neither a bot name, a callable "
        "policy(observations, masks) nor an object with act(game)"
    )


class _Table:
    """One game of the arena in progress, with per-seat bookkeeping."""

    def __init__(
        self, index: int, lineup: Sequence[Entry], names: List[str], settings: ArenaSpec
    ):
        deal_seed, entry_of_seat, bot_seeds = _core._arena_setup(index, names, spec=settings)
        self.index = index
        self.game = Game(
            settings.variant,
            settings.scoring,
            deal_seed,
            # An arena of single rounds plays each game's first round as its episode.
            **({"episode": "round"} if settings.rounds else {"max_rounds": settings.max_rounds}),
        )
        n = self.game.num_players
        self.entry_of_seat = entry_of_seat
        # Built-in names become this game's bots with the arena's own seeds, so that
        # their moves are the Rust arena's.
        self.actor: List[Any] = []
        for s in range(n):
            e = lineup[entry_of_seat[s]]
            self.actor.append(Bot(e, seed=bot_seeds[s]) if isinstance(e, str) else e)
        self.decisions = [0] * n
        self.act_nanos = [0] * n
        self.act_max_nanos = [0] * n

    def record_time(self, seat: int, nanos: int) -> None:
        self.decisions[seat] += 1
        self.act_nanos[seat] += nanos
        self.act_max_nanos[seat] = max(self.act_max_nanos[seat], nanos)

    def step(self, seat: int, action: Any) -> None:
        try:
            self.game.step(action)
        except (IllegalActionError, TypeError) as e:
            raise type(e)(
                f"{entry_label(self.actor[seat])} (seat {seat}) in arena game "
                f"{self.index}: {e}"
            ) from None

    def advance(self, batched: Callable[[Any], bool]) -> Optional[int]:
        """Plays the seats that decide one game at a time until a batched policy is to
        move (returns its seat) or the game ends (returns ``None``)."""
        g = self.game
        while True:
            seat = g.current_player
            if seat < 0:
                return None
            actor = self.actor[seat]
            if batched(actor):
                return seat
            t = time.perf_counter_ns()
            action = actor.act(g)
            self.record_time(seat, time.perf_counter_ns() - t)
            self.step(seat, action)


def evaluate(
    lineup: Union[str, Sequence[Entry]] = ("heuristic", "random"),
    variant: str = DEFAULT.variant,
    games: int = DEFAULT.games,
    seed: int = DEFAULT.seed,
    *,
    scoring: Optional[str] = DEFAULT.scoring,
    max_rounds: Optional[int] = DEFAULT.max_rounds,
    duplicate: bool = DEFAULT.duplicate,
    rounds: bool = DEFAULT.rounds,
    sequential: bool = DEFAULT.sequential,
    threads: Optional[int] = DEFAULT.threads,
    batch_size: int = DEFAULT.batch_size,
    progress: Progress = None,
    spec: Optional[ArenaSpec] = None,
) -> ArenaResult:
    """Plays a duplicate-deal arena whose line-up may mix built-in bot names with your own
    agents, and returns the arena's summary (an :class:`ArenaResult`, a dict: per entry
    ``win_rate``, its Wilson 95% interval ``ci95``, ``elo``, ``points_per_game``,
    ``wins``, ``draws``, and the paired board statistics ``board_win_rate`` and
    ``board_margin`` (each ``mean``, ``ci95``, ``sd``) with
    ``unpaired_games_for_same_width``; and ``games``, ``boards``, ``board_size``,
    ``rounds_per_game``, ``truncated``, ``decisions``, ``sequential``; see
    ``docs/ladder.md``). ``print(result)`` shows it as the command line's table; where the
    round cap (``max_rounds``) decides the result, the table says so and a
    :class:`TruncationWarning` is issued.

    ``lineup`` has one entry per side (team) or per seat, as for :func:`arena`. An entry
    is

    - a built-in bot name (``"heuristic"``, ``"random"``, ``"pimc"`` …);
    - a batched policy: a callable ``policy(observations, masks) -> actions`` on a
      ``float32 [B, observation_size]`` array of observations (``Game.observation``) and a
      ``bool [B, num_actions]`` array of legal-action masks, returning ``B`` card ids. Up
      to ``batch_size`` games are played at once, and every call decides for all of them
      that wait on this policy;
    - an object with ``act(game) -> action`` (like :class:`Bot`), called one decision at
      a time with the :class:`Game`; it must use only what ``game.current_player`` may
      know (``game.observation()``, ``game.legal_actions()``, its own ``hand``).

    Games, seats, deals and the built-in bots' seeds are the Rust arena's, and the
    statistics are its own: a line-up of names alone gives exactly
    ``arena(lineup, ...)`` (and is run by it, on ``threads`` threads). With a
    deterministic policy the summary does not depend on ``batch_size``. An illegal action
    raises :class:`IllegalActionError` naming the entry, the seat and the game.

    ``progress`` shows the games played on stderr: where stderr is a terminal (``None``,
    the default), always (``True``), never (``False``); or it is your callable
    ``progress(done, total)``. The bar is ``tqdm``'s where it is installed.

    The settings are the fields of :class:`yokai_septet.ArenaSpec`, given as keywords or
    as ``spec=ArenaSpec(...)`` (not both).
    """
    settings = resolve(
        spec, variant=variant, games=games, seed=seed, scoring=scoring,
        max_rounds=max_rounds, duplicate=duplicate, rounds=rounds, sequential=sequential,
        threads=threads, batch_size=batch_size,
    )
    if isinstance(lineup, str):
        lineup = [b.strip() for b in lineup.split(",")]
    lineup = list(lineup)
    for i, e in enumerate(lineup):
        _check_entry(i, e)
    callback, close = progress_bar(progress, "evaluate")
    try:
        result = _evaluate(lineup, settings, callback)
    finally:
        close()
    return result.warn()


def _evaluate(
    lineup: List[Entry],
    settings: ArenaSpec,
    progress: Optional[Callable[[int, int], None]],
) -> ArenaResult:
    if all(isinstance(e, str) for e in lineup):
        names = [e for e in lineup if isinstance(e, str)]
        return _core.arena(names, progress=progress, spec=settings)
    batch_size = settings.batch_size
    # The Rust side validates the line-up's shape and the names; Python entries stand in
    # as a built-in name there and are relabelled in the summary.
    names = [e if isinstance(e, str) else "random" for e in lineup]
    total = _core._arena_total_games(names, spec=settings)
    start = time.perf_counter()

    def batched(actor: Any) -> bool:
        return not _is_acting_object(actor)

    counts: List[dict[str, Any]] = []
    tables: List[_Table] = []
    waiting: List[int] = []
    next_index = 0
    looked_at = 0
    labels = [entry_label(e) for e in lineup]
    while tables or next_index < total:
        if settings.sequential and len(counts) - looked_at >= batch_size:
            # The stop is looked for board by board in board order (so the result does
            # not depend on when it is looked for), once per batch of finished games.
            looked_at = len(counts)
            verdict = _core._arena_sequential(
                counts, labels=labels, seconds=time.perf_counter() - start, bots=names,
                spec=settings,
            )
            if verdict is not None:
                return verdict
        while len(tables) < batch_size and next_index < total:
            tables.append(_Table(next_index, lineup, names, settings))
            next_index += 1
        still: List[_Table] = []
        waiting = []
        for t in tables:
            seat = t.advance(batched)
            if seat is None:
                counts.append(
                    _core._arena_game_counts(
                        t.index, t.game, t.decisions, t.act_nanos, t.act_max_nanos,
                        names, spec=settings,
                    )
                )
                if progress is not None:
                    progress(len(counts), total)
            else:
                still.append(t)
                waiting.append(seat)
        tables = still
        _decide_batches(tables, waiting)
    seconds = time.perf_counter() - start
    if settings.sequential:
        # Every board played: the budget is spent, so there is a verdict.
        verdict = _core._arena_sequential(
            counts, labels=labels, seconds=seconds, bots=names, spec=settings
        )
        assert verdict is not None
        return verdict
    return _core._arena_summary(counts, labels=labels, seconds=seconds, bots=names, spec=settings)


def _decide_batches(tables: List[_Table], seats: List[int]) -> None:
    """One call of each batched policy for every game waiting on it, then the steps."""
    groups: Dict[int, List[int]] = {}
    for i, (t, seat) in enumerate(zip(tables, seats)):
        groups.setdefault(id(t.actor[seat]), []).append(i)
    for rows in groups.values():
        first = tables[rows[0]]
        policy = first.actor[seats[rows[0]]]
        g0 = first.game
        obs = np.empty((len(rows), g0.observation_size), dtype=np.float32)
        masks = np.empty((len(rows), g0.num_actions), dtype=bool)
        for k, i in enumerate(rows):
            tables[i].game.observation(seats[i], out=obs[k])
            tables[i].game.legal_mask(out=masks[k])
        t0 = time.perf_counter_ns()
        actions = np.asarray(policy(obs, masks))
        per_decision = (time.perf_counter_ns() - t0) // len(rows)
        if actions.shape != (len(rows),):
            raise InvalidValueError(
                f"{entry_label(policy)} returned actions of shape {actions.shape} for "
                f"{len(rows)} observations: expected ({len(rows)},)"
            )
        for k, i in enumerate(rows):
            tables[i].record_time(seats[i], per_decision)
            a = actions[k]
            tables[i].step(seats[i], a.item() if a.dtype.kind in "iu" else a)


def load_policy(spec: str) -> "tuple[Any, bool]":
    """The policy named ``spec`` = ``"module:attribute"`` (what ``yokai-septet play --bots``
    seats), and whether it is batched. ``attribute`` (dots allowed) is a policy — an
    object with ``act(game)``, or a batched ``policy(observations, masks)`` — or a
    function of no arguments that returns one. The working directory is importable, as
    with ``python -m``."""
    import importlib
    import inspect
    import os
    import sys

    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        raise InvalidValueError(f"{spec!r} is not of the form module:attribute")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    obj: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    if not _is_acting_object(obj) and callable(obj):
        try:
            params = inspect.signature(obj).parameters.values()
            required: list[Any] = [p for p in params if p.default is p.empty and p.kind in (
                p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            required = [None, None]
        if not required:
            obj = obj()
    _check_entry(0, obj)
    if isinstance(obj, str):
        raise InvalidTypeError(f"{spec} is a string, not a policy")
    return obj, not _is_acting_object(obj)

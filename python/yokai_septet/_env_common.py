"""What the Gymnasium, PettingZoo and vector environments share: the observation bound,
the check of a seat argument against the game's seats (the other arguments are parsed by
the settings tables, ``_core._check_settings``), the episodes' seeds, and rendering: ``"ansi"`` (text), ``"human"``
(the text, printed) and ``"rgb_array"`` (the table's picture as pixels), of the whole
table or of one seat's view (the other hands hidden)."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Optional, TypedDict

import numpy as np

from . import _core
from ._core import InvalidTypeError, InvalidValueError

# Every observation value is 0/1 or a count clipped to 255 (docs/observation.md).
OBS_HIGH = 255

# The single envs' render modes (their settings tables' render_mode choices).
RENDER_MODES = [m for m in _core._settings_spec()["gym"] if m["name"] == "render_mode"][0]["choices"]


class EpisodeSeeds:
    """The seeds of a single env's episodes, from the crate's seed domains (``rng.rs``),
    never from numpy: after ``next(seed=s)`` the env's ``d``-th episode is dealt, and its
    bots and drawn learner seat seeded, as env 0's ``d``-th game of ``VectorEnv(...,
    seed=s)`` (``_core._episode_seeds``). So the same seed gives the same games, and a
    seeded env replays what the vector env deals. Given no seed, the master seed is drawn
    from the operating system's entropy once, as every env of the package draws it
    (``_core._fresh_seed``), and stays readable as ``master``."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.master: int = _core._fresh_seed() if seed is None else seed
        self.episode = -1

    def next(self, seed: Optional[int], num_players: int) -> tuple[int, list[int], int]:
        """``(game_seed, bot_seeds, draw)`` of the next episode (``seed``: start the
        stream again from it): the game's seed, each seat's bot seed, and the number a
        drawn learner seat is ``draw % num_players`` of."""
        if seed is not None:
            master, episode = seed, 0
        else:
            master, episode = self.master, self.episode + 1
        seeds = _core._episode_seeds(master, episode, num_players)  # checks the seed first
        self.master, self.episode = master, episode
        return seeds


class Seeded:
    """A base of the single envs: their episodes' seeds (``_seeds``, an
    :class:`EpisodeSeeds`) and the master seed they derive from, readable."""

    _seeds: EpisodeSeeds

    @property
    def seed(self) -> int:
        """The master seed the env's games derive from: the one given (to the constructor
        or the last ``reset(seed=...)``), or the one drawn from the operating system where
        none was (docs/api.md, "Seeds"). ``reset(seed=env.seed)`` deals the same games
        again, from the first."""
        return self._seeds.master


def check_keywords(kind: str, f: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    """Refuses a keyword argument that ``f`` does not take before Python binds the call,
    with the settings table ``kind``'s error: a ``TypeError`` naming the closest setting
    ("did you mean 'opponents'?"). The others, and every keyword of an ``f`` that takes
    ``**kwargs`` (a subclass's ``__init__``), are left to the call."""
    params = inspect.signature(f).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    unknown = {k: v for k, v in kwargs.items() if k not in params}
    if unknown:
        _core._check_settings(kind, f.__qualname__.split(".")[0], unknown)


class KeywordsChecked:
    """A base of the env classes: a misspelt keyword argument gets :func:`check_keywords`'s
    error (against the settings table ``_settings_table``) before Python binds the call to
    ``__init__``, which, defined by the env class itself, stays the signature that
    ``inspect`` and type checkers show."""

    _settings_table = ""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        check_keywords(cls._settings_table, cls.__init__, kwargs)
        return super().__new__(cls)


class GameSettings(TypedDict, total=False):
    """The game's settings, for type checkers (the table ``"game"`` but the seed): the
    first settings of every env's table; a ``TypedDict`` that types an env function's
    ``**settings`` extends it."""

    variant: str
    scoring: Optional[str]
    episode: str
    max_rounds: Optional[int]


def check_seat(seat: Any, num_players: int, what: str = "render_seat") -> Optional[int]:
    """A seat for a picture: ``None`` (the whole table) or an int in ``0..num_players-1``."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
        raise InvalidTypeError(f"{what} must be an int or None, not {seat!r}")
    if not 0 <= seat < num_players:
        raise InvalidValueError(f"{what} {seat} is out of range: seats are 0..{num_players - 1}")
    return int(seat)


def render(game: Any, render_mode: Optional[str], seat: Optional[int]) -> Any:
    """What ``env.render()`` returns for ``game`` (``None`` without a render mode)."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    if render_mode == "rgb_array":
        return game.to_rgb_array(seat)
    text = game.to_text(seat)
    if render_mode == "ansi":
        return text
    print(text)
    return None

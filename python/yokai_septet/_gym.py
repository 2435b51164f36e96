"""Single-agent Gymnasium environment ``YokaiSeptet-v0``: the learner plays one seat, the
other seats are played by built-in Rust bots."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import _core
from ._core import Bot, Game, IllegalActionError, InvalidValueError, StateError
from ._env_common import (
    OBS_HIGH, RENDER_MODES, EpisodeSeeds, KeywordsChecked, Seeded, check_seat, render,
)

# The env's settings (crates/yokai-septet-python/src/env_settings.rs): its signature's defaults and the
# parsing of its arguments come from this table.
_SETTINGS = {row["name"]: row for row in _core._settings_spec()["gym"]}


class YokaiSeptetEnv(KeywordsChecked, Seeded, gym.Env):
    """Yokai Septet for one learner against built-in bots.

    Observations are the learner seat's float32 information-state vector
    (``Game.layout()``); actions are card ids (``Discrete(num_actions)``), passing picks
    included. ``info["action_mask"]`` and :meth:`action_masks` give the legal actions
    (for ``sb3_contrib.MaskablePPO``).

    Args:
        variant, scoring, episode, max_rounds: as for :class:`yokai_septet.Game`.
        learner_seat: the learner's seat, or ``None`` to draw it at every reset.
        opponents: a bot name for every other seat, or a list of one name per seat (the
            learner's entry is ignored). Default ``"random"``.
        reward_mode: ``"win"`` (+1/-1 at the end) or ``"points"`` (per round, zero-sum).
        illegal_action: what an action outside the mask does: ``"lose"`` (the default,
            as for every env of the package) ends the episode as lost, with reward
            ``illegal_reward`` and ``info["illegal_action"] = True`` (Gymnasium's contract:
            ``step`` accepts every element of ``action_space``, and its ``check_env``
            steps unmasked random actions); ``"raise"`` raises ``IllegalActionError``
            and changes nothing (for debugging a policy that should never do it).
        illegal_reward: the reward of an illegal action under ``"lose"``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text),
            ``"human"`` (prints it) or ``"rgb_array"`` (``render()`` returns the table's
            picture, a ``uint8`` array of shape ``(640, 960, 3)``, e.g. for
            ``gymnasium.wrappers.RecordVideo``).
        render_seat: whose view ``render()`` shows: ``None`` (default, every hand),
            ``"learner"`` (the learner's seat, the other hands hidden) or a seat number.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    _settings_table = "gym"  # a misspelt keyword names the closest setting

    def __init__(
        self,
        variant: str = _SETTINGS["variant"]["default"],
        scoring: Optional[str] = _SETTINGS["scoring"]["default"],
        episode: str = _SETTINGS["episode"]["default"],
        max_rounds: Optional[int] = _SETTINGS["max_rounds"]["default"],
        learner_seat: Optional[int] = _SETTINGS["learner_seat"]["default"],
        opponents: Union[str, Sequence[str]] = _SETTINGS["opponents"]["default"],
        reward_mode: str = _SETTINGS["reward_mode"]["default"],
        illegal_action: str = _SETTINGS["illegal_action"]["default"],
        illegal_reward: float = _SETTINGS["illegal_reward"]["default"],
        render_mode: Optional[str] = _SETTINGS["render_mode"]["default"],
        render_seat: Union[None, int, str] = _SETTINGS["render_seat"]["default"],
    ) -> None:
        super().__init__()
        given = {k: v for k, v in locals().items() if k in _SETTINGS}
        _core._check_settings("gym", "YokaiSeptetEnv", given)  # every value, named if wrong
        self._config: dict[str, Any] = dict(
            variant=variant, scoring=scoring, episode=episode, max_rounds=max_rounds
        )
        self.game = Game(variant, scoring, 0, episode=episode, max_rounds=max_rounds)
        n = self.game.num_players
        check_seat(learner_seat, n, "learner_seat")
        if isinstance(opponents, str):
            names = [opponents] * n
        else:
            names = list(opponents)
            if len(names) != n:
                raise InvalidValueError(
                    f"opponents lists {len(names)} names, expected one per seat ({n})"
                )
        self._bots = [Bot(name, seed=0) for name in names]  # ValueError on unknown names
        self._seeds = EpisodeSeeds()
        if render_seat != "learner":
            check_seat(render_seat, n)
        self.opponents = names
        self.reward_mode = reward_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.render_seat = render_seat
        self._fixed_seat = learner_seat
        self.learner_seat = 0 if learner_seat is None else int(learner_seat)
        self.observation_space = spaces.Box(
            0.0, OBS_HIGH, (self.game.observation_size,), np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._done = True

    # ------------------------------------------------------------------ helpers

    def _play_bots(self) -> float:
        """Lets the bots move until the learner's turn or the end; the learner's reward."""
        return self.game.play_bots(self._bots, self.learner_seat, self.reward_mode)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks(),
            "to_play": self.game.current_player,
            "learner_seat": self.learner_seat,
        }

    # ------------------------------------------------------------------ API

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now (bool, shape ``(num_actions,)``). Once the
        episode has ended the mask offers one action, ``0``, as ``VectorEnv``'s ended rows
        do: a vector env of these envs resets such an env at its next step whatever the
        action (gymnasium's ``NEXT_STEP`` autoreset), and a row with no action would make
        a masked softmax NaN. (``step`` itself refuses until ``reset``.)"""
        if self._done:
            mask = np.zeros(self.game.num_actions, dtype=bool)
            mask[0] = True  # VectorEnv's IGNORED_ACTION (crates/yokai-septet-vector/src/vector/slot.rs)
            return mask
        if self.game.current_player != self.learner_seat:
            return np.zeros(self.game.num_actions, dtype=bool)
        return self.game.legal_mask()

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deals a new game and lets the bots move until the learner's first decision.
        Its seeds (the deal, the bots', a drawn learner seat) come from the crate's seed
        domains (:class:`EpisodeSeeds`): ``reset(seed=s)`` deals env 0's first game of
        ``VectorEnv(1, seed=s)``, and each ``reset()`` after it the next one."""
        n = len(self._bots)
        game_seed, bot_seeds, draw = self._seeds.next(seed, n)  # checks the seed first
        # gymnasium's np_random (unused here), which takes a Python int only.
        super().reset(seed=None if seed is None else int(seed))
        self.game = Game(seed=game_seed, **self._config)
        if self._fixed_seat is None:
            self.learner_seat = draw % n
        for bot, bot_seed in zip(self._bots, bot_seeds):
            bot.reseed(bot_seed)
        self._play_bots()
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self.game.observation(self.learner_seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Applies the learner's action, then the bots' until the learner's next turn."""
        g = self.game
        illegal = False
        if self._done:
            raise StateError("step() called after the episode ended: call reset()")
        try:
            reward = g.step_rewards(action, self.reward_mode)[self.learner_seat]
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            illegal = True
            reward = self.illegal_reward
        if not illegal:
            reward += self._play_bots()
        terminated = illegal or (g.phase == "over" and not g.truncated)
        truncated = not illegal and g.truncated
        self._done = terminated or truncated
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        if self.render_mode == "human":
            self.render()
        return g.observation(self.learner_seat), float(reward), terminated, truncated, info

    def render(self) -> Union[None, str, np.ndarray]:
        """``"ansi"``: the table as text; ``"human"``: prints it; ``"rgb_array"``: the
        table's picture (``uint8``, ``(640, 960, 3)``). Whose view: ``render_seat``."""
        seat = self.learner_seat if self.render_seat == "learner" else self.render_seat
        assert not isinstance(seat, str)  # "learner" is the only string __init__ accepts
        frame: Union[None, str, np.ndarray] = render(self.game, self.render_mode, seat)
        return frame

"""PettingZoo AEC environment for Yokai Septet (``yokai_septet.env``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional, Protocol, cast, runtime_checkable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _core
from ._core import Game, IllegalActionError, InvalidTypeError
from ._env_common import (
    OBS_HIGH, RENDER_MODES, EpisodeSeeds, GameSettings, KeywordsChecked, Seeded, check_seat,
    render,
)
from ._signatures import settings_parameters, show_signature

if TYPE_CHECKING:
    from typing_extensions import Unpack

# The settings of env() (crates/yokai-septet-python/src/env_settings.rs): its signature and the parsing of its
# arguments come from this table; raw_env takes all but the two settings of illegal
# actions, which env() gives to PettingZoo's TerminateIllegalWrapper (its defaults here).
_SETTINGS = {row["name"]: row for row in _core._settings_spec()["aec"]}

@runtime_checkable
class AECEnvProtocol(Protocol):
    """The type of what :func:`env` returns: the PettingZoo AEC interface of :class:`raw_env`
    behind PettingZoo's ``OrderEnforcingWrapper`` (PettingZoo ships no type information,
    so its own ``AECEnv`` reads as ``Any`` to a type checker). ``unwrapped`` is the
    :class:`raw_env`, with its ``game``."""

    metadata: dict[str, Any]
    possible_agents: list[str]
    agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    render_mode: Optional[str]

    @property
    def unwrapped(self) -> "raw_env": ...
    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None: ...
    def step(self, action: Any) -> None: ...
    def observe(self, agent: str) -> Optional[dict[str, Any]]: ...
    def last(
        self, observe: bool = True
    ) -> tuple[Optional[dict[str, Any]], float, bool, bool, dict[str, Any]]: ...
    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]: ...
    def observation_space(self, agent: str) -> spaces.Space[Any]: ...
    def action_space(self, agent: str) -> spaces.Space[Any]: ...
    def state(self) -> np.ndarray: ...
    def render(self) -> Any: ...
    def close(self) -> None: ...


class EnvSettings(GameSettings, total=False):
    """:func:`env`'s keyword arguments, for type checkers: its settings table's rows
    (``inspect`` shows them, with their defaults, from the table itself)."""

    reward_mode: str
    render_mode: Optional[str]
    seed: Optional[int]
    render_seat: Optional[int]
    illegal_action: str
    illegal_reward: float
    observation_key: str


def env(**settings: Unpack[EnvSettings]) -> AECEnvProtocol:
    """The Yokai Septet AEC environment, wrapped as PettingZoo's own environments are: in
    ``OrderEnforcingWrapper`` and (by default, ``illegal_action="lose"``)
    ``TerminateIllegalWrapper``.

    Keyword arguments (its settings table's, crates/yokai-septet-python/src/env_settings.rs): those of
    :class:`raw_env`, and

    - ``illegal_action``: what an action outside the mask does. ``"lose"`` (the default,
      as for every env of the package; PettingZoo's convention): PettingZoo's
      ``TerminateIllegalWrapper`` ends the game at once, every agent terminated (and
      truncated, as that wrapper marks them), the offender rewarded ``illegal_reward`` and
      the others 0, with ``infos[offender]["illegal_action"] = True`` (clients that step
      unmasked random actions, such as RLlib's environment pre-check, need it).
      ``"raise"``: ``IllegalActionError``, nothing changes (for debugging). An action
      that is no card id (not an integer, or out of range) is refused either way
      (``InvalidTypeError`` / ``IllegalActionError``).
    - ``illegal_reward``: the offender's reward under ``"lose"``.
    """
    # Every value (and a misspelt name) checked by the table, named if wrong; the defaults
    # of the others filled in.
    parsed = dict(_core._check_settings("aec", "env", dict(settings)))
    illegal_action, illegal_reward = parsed.pop("illegal_action"), parsed.pop("illegal_reward")
    aec: Any = raw_env(**parsed)
    if illegal_action == "lose":
        aec = _TerminateIllegal(aec, float(illegal_reward))
    return cast(AECEnvProtocol, wrappers.OrderEnforcingWrapper(aec))


show_signature(env, settings_parameters("aec", keyword_only=True))


class _TerminateIllegal(wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper``, which reads the legality of an action off
    the observation's ``action_mask``. Added: an action that is no card id is refused as
    :class:`raw_env` refuses it (the wrapper would index the mask with it), the offender's
    infos say ``illegal_action``, and the ended game's masks are empty."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        base = self.env.unwrapped
        if not (self.terminations[agent] or self.truncations[agent]):
            base.check_card_id(action)
        ended = self._terminated
        super().step(action)
        if self._terminated and not ended:
            base.infos[agent] = {**base.infos[agent], "illegal_action": True}
            base._ended_by_illegal_action = True


class raw_env(KeywordsChecked, Seeded, AECEnv):
    """Yokai Septet as a PettingZoo AEC environment.

    Agents are ``player_0 .. player_{n-1}`` (seat order). Each observation is a dict with
    ``observation`` (the seat's float32 information-state vector, see
    ``Game.layout()``; the key is ``observation_key``) and ``action_mask`` (int8, 1 for
    the legal actions of the agent to move, all 0 for the others). Actions are card ids
    (``Discrete(num_actions)``); passing picks are actions too. An illegal action raises
    ``yokai_septet.IllegalActionError`` and changes nothing (:func:`env`, by default,
    ends the game instead: ``illegal_action="lose"``). :meth:`state` (with :attr:`state_space`) is the
    privileged full-information state, for centralized critics (docs/state_tensor.md).

    Rewards (``reward_mode``): ``"win"`` gives +1 to the winners and -1 to the others when
    the game ends; ``"points"`` gives, at each round's end, the points a seat gained minus
    its opponents' average (zero-sum).

    Args:
        variant, scoring, episode, max_rounds: as for :class:`yokai_septet.Game`.
        reward_mode: ``"win"`` or ``"points"``.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text), ``"human"``
            (prints it) or ``"rgb_array"`` (``render()`` returns the table's picture, a
            ``uint8`` array of shape ``(640, 960, 3)``).
        render_seat: whose view ``render()`` shows: ``None`` (default, every hand) or a
            seat number (that seat's view, the other hands hidden).
        seed: the master seed of the games if ``reset`` is called without one (``None``:
            drawn from the operating system; :attr:`seed` reads it).
        observation_key: the key of the observation vector in each observation dict:
            ``"observation"`` (PettingZoo's convention, the default) or
            ``"observations"`` (what RLlib's action-masking RLModule reads).
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "yokai_septet_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    _settings_table = "aec"  # a misspelt keyword names the closest setting

    def __init__(
        self,
        variant: str = _SETTINGS["variant"]["default"],
        scoring: Optional[str] = _SETTINGS["scoring"]["default"],
        episode: str = _SETTINGS["episode"]["default"],
        max_rounds: Optional[int] = _SETTINGS["max_rounds"]["default"],
        reward_mode: str = _SETTINGS["reward_mode"]["default"],
        render_mode: Optional[str] = _SETTINGS["render_mode"]["default"],
        seed: Optional[int] = _SETTINGS["seed"]["default"],
        render_seat: Optional[int] = _SETTINGS["render_seat"]["default"],
        observation_key: str = _SETTINGS["observation_key"]["default"],
    ) -> None:
        super().__init__()
        given = {k: v for k, v in locals().items() if k in _SETTINGS}
        _core._check_settings("aec", "raw_env", given)  # every value, named if wrong
        self.observation_key = observation_key
        self._ended_by_illegal_action = False
        self._config: dict[str, Any] = dict(
            variant=variant, scoring=scoring, episode=episode, max_rounds=max_rounds
        )
        # Validates the configuration now (ValueError / TypeError like Game).
        self.game = Game(variant, scoring, 0 if seed is None else seed,
                         episode=episode, max_rounds=max_rounds)
        self.reward_mode = reward_mode
        self.render_mode = render_mode
        self.render_seat = check_seat(render_seat, self.game.num_players)
        self._seeds = EpisodeSeeds(seed)
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.game.observation_size
        na = self.game.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    observation_key: spaces.Box(0.0, OBS_HIGH, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (na,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(na) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, OBS_HIGH, (self.game.state_size,), np.float32)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The (cached) action space of ``agent``: ``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """Starts a new game. With ``seed`` the game (and the seeds of later resets) is
        fixed by it; without, the env's next game. The seeds come from the crate's seed
        domains (:class:`EpisodeSeeds`): ``reset(seed=s)`` deals env 0's first game of
        ``VectorEnv(1, seed=s)``, each later ``reset()`` the next one."""
        game_seed = self._seeds.next(seed, len(self.possible_agents))[0]
        self.game = Game(seed=game_seed, **self._config)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._ended_by_illegal_action = False
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation dict (``observation``, ``action_mask``)."""
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self.game.current_player == seat and not self._ended_by_illegal_action:
            mask[self.game.legal_mask()] = 1
        return {self.observation_key: self.game.observation(seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The privileged, full-information state (``Game.state_tensor()``, float32, in
        :attr:`state_space`): every hand and passing pick, then everything public. For
        centralized critics only: it shows the cards the agents cannot see."""
        return self.game.state_tensor()

    def step(self, action: Any) -> None:
        """Applies the selected agent's action (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rewards = self.game.step_rewards(action, self.reward_mode)
        self._cumulative_rewards[agent] = 0.0
        for a, seat in self.agent_name_mapping.items():
            self.rewards[a] = float(rewards[seat])
        if self.game.phase == "over":
            done = {a: True for a in self.agents}
            if self.game.truncated:
                self.truncations = done
            else:
                self.terminations = done
            # Finished agents are removed one by one by `_was_dead_step`, starting here.
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def check_card_id(self, action: Any) -> None:
        """Refuses an action that is no card id of the game, as :meth:`step` would:
        ``InvalidTypeError`` for a non-integer, ``IllegalActionError`` out of range."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise InvalidTypeError(f"action must be an int or a numpy integer, not {action!r}")
        if not 0 <= action < self.game.num_actions:
            raise IllegalActionError(
                f"illegal action: {action} is out of range 0..{self.game.num_actions - 1}"
            )

    def render(self) -> Any:
        """``"ansi"``: returns the table as text; ``"human"``: prints it;
        ``"rgb_array"``: returns the table's picture (``uint8``, ``(640, 960, 3)``).
        Whose view: ``render_seat``."""
        return render(self.game, self.render_mode, self.render_seat)

    def close(self) -> None:
        """Nothing to release."""

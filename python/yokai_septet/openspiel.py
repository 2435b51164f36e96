"""Yokai Septet as an OpenSpiel game: ``import yokai_septet.openspiel`` registers
``python_yokai_septet`` with ``pyspiel`` (needs the ``openspiel`` extra)::

    import pyspiel
    import yokai_septet.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_yokai_septet", {"variant": "3p", "max_rounds": 5})

Parameters: ``variant`` (``"4p"``, ``"3p"``, ``"seal"``, ``"seal-short"``), ``scoring``
(``"advanced"`` or ``"basic"``; ignored by the seal variants) and ``max_rounds`` (the
round cap, default 100, which keeps the game finite as OpenSpiel requires; a game stopped
by it returns 0 to everyone).

The game, position for position, is the engine's (``yokai_septet.Game``), with one
difference: every round is dealt by OpenSpiel's chance player, one card per chance node.
Chance outcome ``k`` of a round is a card id: outcomes ``0 .. h-1`` are seat 0's hand,
``h .. 2h-1`` seat 1's, and so on (``h`` = hand size); in ``4p`` and ``3p`` the last one
is the face-up trump card. Each undealt card is equally likely. Player actions are card
ids too (passing picks and plays), as in the engine.

Returns: +1 to the game's winners and -1 to everyone else when the game ends (0 to all if
the round cap stopped it): zero-sum in the team variants, general-sum in ``3p``.

Information: the observation and information-state tensors are the engine's
information-state vector (``Game.observation``, fields in ``Game.layout()``), written
straight into OpenSpiel's buffers; the observer's ``dict`` has one entry per field. It is
a summary of what the seat knows (everything the rules make relevant), not a replay of
the history: algorithms that need perfect recall should key on the information-state
string, which is the seat's whole history (its cards dealt, its picks and what it was
passed, every play). While a round is being dealt the tensors are zero. The observation
string is the seat's hand plus the observation vector in hex.

``state.resample_from_infostate(player, sampler)`` draws the hidden cards uniformly among
all deals consistent with what ``player`` knows, with the engine's determinization
sampler (``Game.sample_determinization``); the other seats' histories in the returned
state are reduced to what ``player`` saw, plus their sampled hands. A resampled state plays
on but cannot be serialized (its hidden history is unknown).
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Tuple

import numpy as np

from ._extras import missing_extra

try:
    import pyspiel
except ModuleNotFoundError as e:
    raise missing_extra(e, "openspiel", "yokai_septet.openspiel") from e

from ._core import Game, InvalidValueError, _settings_spec

#: Parameters and their defaults: the game settings as an arena takes them (its settings
#: table's rows), whose round cap ends every game.
DEFAULT_PARAMS: Dict[str, Any] = {
    row["name"]: row["default"]
    for row in _settings_spec()["arena"]
    if row["name"] in ("variant", "scoring", "max_rounds")
}

_CARD_NAMES = [Game.card_name(i) for i in range(56)]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

# Move kinds in a state's log.
_DEAL, _PICK, _PLAY, _RECEIVED = "d", "p", "x", "r"


def _game_type(utility: "pyspiel.GameType.Utility") -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name="python_yokai_septet",
        long_name="Python Yokai Septet",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )


_REGISTERED_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class _Spec(NamedTuple):
    """What states need to know of their game (plain data: states are pickled)."""

    variant: str
    scoring: Optional[str]
    max_rounds: int
    num_seats: int
    deck_size: int
    hand_size: int
    has_trump_card: bool
    observation_size: int


class YokaiSeptetGame(pyspiel.Game):
    """The OpenSpiel game ``python_yokai_septet`` (see the module docs)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        p = {**DEFAULT_PARAMS, **(params or {})}
        max_rounds = p["max_rounds"]
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise InvalidValueError(
                f"max_rounds {max_rounds!r} is out of range: OpenSpiel games are finite, "
                "so it must be an integer >= 1"
            )
        # Validates variant and scoring (ValueError naming the valid values).
        probe = Game(p["variant"], p["scoring"], 0, max_rounds=max_rounds)
        spec = _Spec(
            variant=probe.variant,
            scoring=p["scoring"],
            max_rounds=max_rounds,
            num_seats=probe.num_players,
            deck_size=probe.num_actions,
            hand_size=len(probe.hand(0)),
            has_trump_card=probe.trump_card is not None,
            observation_size=probe.observation_size,
        )
        team_game = spec.num_seats == 4
        decisions_per_round = spec.num_seats * (3 + spec.hand_size)  # 3 picks each (R4.2)
        super().__init__(
            _game_type(
                pyspiel.GameType.Utility.ZERO_SUM
                if team_game
                else pyspiel.GameType.Utility.GENERAL_SUM
            ),
            pyspiel.GameInfo(
                num_distinct_actions=spec.deck_size,
                max_chance_outcomes=spec.deck_size,
                num_players=spec.num_seats,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if team_game else None,
                max_game_length=max_rounds * decisions_per_round,
            ),
            p,
        )
        self.spec = spec
        self.layout = probe.layout()

    def new_initial_state(self) -> "YokaiSeptetState":
        """The start of a game: the chance player deals round 0."""
        return YokaiSeptetState(self)

    def make_py_observer(
        self, iig_obs_type: Optional["pyspiel.IIGObservationType"] = None, params: Any = None
    ) -> "YokaiSeptetObserver":
        """The observer of the acting seat (tensor: the engine's encoder)."""
        return YokaiSeptetObserver(self, iig_obs_type, params)


class YokaiSeptetState(pyspiel.State):
    """A position: the engine's game, plus the deal in progress and a log of the moves."""

    def __init__(self, game: YokaiSeptetGame) -> None:
        super().__init__(game)
        self._g = game.spec
        self._game: Optional[Game] = None
        # Cards dealt so far in the round being dealt (None when no deal is in progress),
        # and the cards still to deal.
        self._dealing: Optional[List[int]] = []
        self._undealt = list(range(self._g.deck_size))
        # The player to move (pyspiel asks for it several times per action).
        self._current = _CHANCE
        # (kind, seat, card or cards) per move, for the information-state strings.
        self._log: List[Tuple[str, int, Any]] = []
        # In a resampled state, the other seats' moves before this log index are hidden.
        self._hidden_before = [0] * game.spec.num_seats

    # ------------------------------------------------------------------ the game

    @property
    def _live(self) -> Game:
        """The engine's game (there is one once the first round is dealt)."""
        assert self._game is not None, "no game before the first deal"
        return self._game

    @property
    def _deal_cards(self) -> List[int]:
        """The cards dealt so far in the deal in progress."""
        assert self._dealing is not None, "no deal in progress"
        return self._dealing

    def current_player(self) -> int:
        return self._current

    def _update_current(self) -> None:
        if self._dealing is not None:
            self._current = _CHANCE
        elif self._live.is_over:
            self._current = _TERMINAL
        else:
            self._current = self._live.current_player

    def _legal_actions(self, player: int) -> List[int]:
        return self._live.legal_actions()

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        p = 1.0 / len(self._undealt)
        return [(c, p) for c in self._undealt]

    def _apply_action(self, action: int) -> None:
        if self._dealing is not None:
            self._deal(action)
            self._update_current()
            return
        g = self._live
        seat = g.current_player
        phase = g.phase
        # The engine stops at a round's end ("round_over"); the chance player deals next.
        g.step_in_round(action)
        self._log.append((_PICK if phase == "pass" else _PLAY, seat, action))
        if phase == "pass" and g.phase != "pass":
            # The exchange: each seat now sees the cards passed to it.
            self._log.append((_RECEIVED, -1, [g.received(p) for p in range(self._g.num_seats)]))
        if g.phase == "round_over":
            self._dealing = []
            self._undealt = list(range(self._g.deck_size))
        self._update_current()

    def _deal(self, card: int) -> None:
        dealt = self._deal_cards
        dealt.append(card)
        self._undealt.remove(card)
        self._log.append((_DEAL, len(dealt) - 1, card))
        if len(dealt) < self._g.deck_size:
            return
        n, h = self._g.num_seats, self._g.hand_size
        hands = [sorted(dealt[p * h:(p + 1) * h]) for p in range(n)]
        trump = dealt[n * h] if self._g.has_trump_card else None
        if self._game is None:
            self._game = Game.from_deal(
                hands, trump, self._g.variant, self._g.scoring, 0,
                max_rounds=self._g.max_rounds,
            )
        else:
            self._live.apply_deal(hands, trump)
        self._dealing = None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {_CARD_NAMES[action]}"
        return _CARD_NAMES[action]

    def is_terminal(self) -> bool:
        return self._current == _TERMINAL

    def returns(self) -> List[float]:
        n = self._g.num_seats
        if not self.is_terminal():
            return [0.0] * n
        winners = self._live.winners
        if not winners:
            return [0.0] * n
        return [1.0 if p in winners else -1.0 for p in range(n)]

    def __str__(self) -> str:
        if self._game is None:
            return f"dealing round 0: {len(self._deal_cards)} cards dealt"
        text = str(self._game)
        if self._dealing is not None:
            # The game shows the finished round's last position until the deal is complete.
            text += f"\ndealing round {self._live.round + 1}: {len(self._deal_cards)} cards dealt"
        return text

    # ------------------------------------------------------------------ what a seat knows

    def _dealt_to(self, k: int) -> int:
        """The seat that chance outcome ``k`` of a round goes to (-1: the face-up card)."""
        seat = k // self._g.hand_size
        return seat if seat < self._g.num_seats else -1

    def _information_state_string(self, player: int) -> str:
        hidden_before = self._hidden_before[player]
        out = [f"p{player}"]
        for i, (kind, who, what) in enumerate(self._log):
            if kind == _DEAL:
                to = self._dealt_to(who)
                if who == 0:
                    out.append("|deal")
                seen = (to == player and i >= hidden_before) or to == -1
                out.append(_CARD_NAMES[what] if seen else "?")
            elif kind == _PICK:
                out.append(f"{who}:{_CARD_NAMES[what] if who == player and i >= hidden_before else '?'}")
            elif kind == _PLAY:
                out.append(f"{who}>{_CARD_NAMES[what]}")
            elif i >= hidden_before:
                out.append("got:" + ",".join(_CARD_NAMES[c] for c in what[player]))
        if hidden_before and self._game is not None:
            # A resampled seat: its sampled hand stands for its hidden history.
            out.append("|hand:" + ",".join(_CARD_NAMES[c] for c in self._live.hand(player)))
        return " ".join(out)

    def _observation_string(self, player: int) -> str:
        if self._dealing is not None:
            mine = [
                _CARD_NAMES[c] for k, c in enumerate(self._dealing) if self._dealt_to(k) == player
            ]
            return f"p{player} dealing: {','.join(mine)}"
        g = self._live
        hand = ",".join(_CARD_NAMES[c] for c in g.hand(player))
        obs = g.observation(player, out=np.empty(g.observation_size, dtype=np.uint8))
        return f"p{player} hand:{hand} obs:{obs.tobytes().hex()}"

    def _write_observation(self, player: int, out: np.ndarray) -> None:
        if self._dealing is not None:
            out.fill(0)
        else:
            self._live.observation(player, out=out)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "YokaiSeptetState":
        """A state drawn uniformly from ``player_id``'s information set (the engine's
        determinization sampler; ``probability_sampler()`` gives its seed)."""
        seed = int(probability_sampler() * 2.0**53)
        clone: YokaiSeptetState = self.clone()
        if self._dealing is None:
            clone._game = self._live.sample_determinization(player_id, seed)
        elif self._dealing:
            # A deal in progress: the cards dealt to others may be any of those not seen.
            rng = np.random.default_rng(seed)
            hidden = [k for k in range(len(self._deal_cards)) if self._dealt_to(k) not in (player_id, -1)]
            cards = rng.permutation([self._deal_cards[k] for k in hidden])
            for k, c in zip(hidden, cards):
                clone._deal_cards[k] = int(c)
        n = len(clone._log)
        clone._hidden_before = [0 if p == player_id else n for p in range(self._g.num_seats)]
        return clone


class YokaiSeptetObserver:
    """OpenSpiel's ``PyObserver`` for the acting seat: ``tensor`` is the engine's
    information-state vector, ``dict`` its fields (``Game.layout()``)."""

    def __init__(self, game: YokaiSeptetGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise InvalidValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise InvalidValueError(
                "python_yokai_septet observes for one seat (public and that seat's private "
                "information); other IIGObservationType settings are not supported"
            )
        self._perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.spec.observation_size, np.float32)
        self.dict = {
            f["name"]: self.tensor[f["offset"]:f["offset"] + f["len"]] for f in game.layout
        }

    def set_from(self, state: YokaiSeptetState, player: int) -> None:
        state._write_observation(player, self.tensor)

    def string_from(self, state: YokaiSeptetState, player: int) -> str:
        if self._perfect_recall:
            return state._information_state_string(player)
        return state._observation_string(player)


pyspiel.register_game(_REGISTERED_TYPE, YokaiSeptetGame)

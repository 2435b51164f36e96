"""``yokai_septet.VectorEnv``: many games stepped in Rust across a thread pool."""

from __future__ import annotations

import inspect
import reprlib
from typing import Any, Optional, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _core
from ._core import InUseError, InvalidTypeError, InvalidValueError, StateError
from ._core import VectorEnv as _CoreVectorEnv
from ._env_common import OBS_HIGH
from ._signatures import settings_parameters, show_signature


_SPEC = _CoreVectorEnv._output_spec()
# The constructor's settings table: its parameters, defaults and ranges, declared once.
_SETTINGS = {row["name"]: row for row in _core._settings_spec()["vector"]}
_NAMES = [name for name, *_ in _SPEC]
# Where each output goes: the step tuple (obs, rewards, terminated, truncated) or infos.
_OBS, _MASK, _REWARD, _TERM, _TRUNC, _FINAL_OBS = (
    _NAMES.index(n) for n in ("obs", "mask", "reward", "terminated", "truncated", "final_obs")
)
# final_obs goes to infos the way gymnasium's own vector envs write it (_with_final).
_INFOS = [
    (i, key) for i, (_, key, *_) in enumerate(_SPEC) if key is not None and i != _FINAL_OBS
]


# gymnasium declares num_envs a plain attribute; here it is the Rust env's read-only property.
class VectorEnv(_CoreVectorEnv, gymnasium.vector.VectorEnv):  # type: ignore[override]
    """``num_envs`` games stepped together in Rust, with the GIL released, on a small
    pool of ``num_threads`` threads (the calling one included): a
    ``gymnasium.vector.VectorEnv``.

    ``VectorEnv(num_envs, variant="4p", scoring="advanced", seed=0, *, episode="game",
    ...)``: every parameter, its default and range is a row of one settings table
    (``_core._settings_spec()["vector"]``; docs/api.md prints it).

    Three modes:

    - learner mode (``self_play=False``): in every env the caller plays ``learner_seat``
      (``None``: drawn per game) and the other seats are played by built-in bots
      (``opponents``: a bot name, or one per seat). Rewards have shape ``(num_envs,)``.
    - team mode (``learner_team=0`` or ``1``, 4-player variants; ``None``: drawn per
      game): the caller plays both seats of a team (side 0: seats 0 and 2; side 1: seats 1
      and 3), deciding for whichever is to move (``infos["to_play"]``); bots play the other
      team. Rewards have shape ``(num_envs,)``: the team's.
    - self-play (``self_play=True``): the caller decides for whichever seat is to move
      (``infos["to_play"]``); observations are that seat's. Rewards have shape
      ``(num_envs, num_players)``: every seat's reward for the step.

    ``illegal_action`` says what an action outside an env's mask does: ``"lose"`` (the
    default, as for every env of the package; Gymnasium's contract is that ``step``
    takes every element of ``action_space``) ends that env's episode as lost
    (``terminated``, the acting seat, or team, rewarded ``illegal_reward``, the other
    seats 0, ``infos["illegal_action"]`` set for it) and the others step as usual;
    ``"raise"`` (for debugging) raises ``IllegalActionError`` naming the env, and nothing
    changes.

    ``autoreset_mode`` (a ``gymnasium.vector.AutoresetMode``, its value, or
    ``"same_step"``, ``"next_step"``, ``"disabled"``) says what a step does to an env whose
    episode it ends, as gymnasium's ``SyncVectorEnv`` does:

    - ``NEXT_STEP`` (the default, as in gymnasium): the step returns the ended game's last
      observation, its mask row offering exactly one action (``0``, so that a masked
      softmax over the row stays finite) and ``to_play`` -1; the env's next step ignores
      its action and returns the next game's first observation, with reward 0 and no
      flags. Every output is a plain array, so
      every gymnasium vector wrapper works (``NumpyToTorch`` included).
    - ``SAME_STEP``: the same step deals the next game; when ``terminated[i]`` or
      ``truncated[i]`` is set, ``obs[i]`` already belongs to it, and
      ``infos["final_obs"][i]`` holds the ended game's last observation
      (``infos["_final_obs"][i]`` is set; ``final_info`` likewise holds its infos).
      ``final_obs`` is an object array, as gymnasium writes it (DLPack and so
      ``NumpyToTorch`` refuse it). SB3 expects this mode (``SB3VecEnv`` asks for it).
    - ``DISABLED``: the env keeps its ended game until ``reset(options={"reset_mask":
      mask})`` names it; stepping it before raises ``RuntimeError``, and its mask row is
      empty (it takes no action).

    Env ``i``'s ``d``-th game since the last seeded reset is dealt from a seed
    derived from ``(seed, i, d)`` (see :meth:`game_seed`), so trajectories are identical at
    any thread count and batch size. ``reset()`` without a seed moves every env on to its
    next game (it never replays one); ``reset(seed=s)`` starts every env's stream again.

    Buffers: with the default ``copy=True`` every array a call returns is the caller's:
    no later call writes into it. Rust writes each step's results straight into a set of
    arrays nobody else holds (inside the parallel pass, no copy afterwards): sets the
    caller has let go of are reused, so the usual loop allocates nothing. With
    ``copy=False`` every call overwrites one set of buffers in place (the arrays
    returned, and the ``observations``/``masks``/... properties, are that set), so a result
    is valid only until the next ``step``/``reset``.

    Threads: between steps the idle stepping threads poll for the next one for a while
    before they sleep, so that a step that follows a policy's forward pass finds them
    awake. By default (``spin_us=None``) that while adapts: about twice the recent gaps
    between steps (at most 5 ms), and it ends at once when another thread needs the core
    (numpy's BLAS or torch's threads running the policy, another process). An integer
    ``spin_us`` polls exactly that long (``0``: sleep at once). See docs/vector.md.

    Asynchronous stepping (EnvPool's API), with ``batch_size`` dividing ``num_envs``:
    :meth:`async_reset`, then :meth:`recv` returns one batch of ``batch_size`` envs
    (``infos["env_id"]`` names them) and :meth:`send` hands their actions back; Rust steps
    that batch in the background while you compute the next one's actions.
    :meth:`step_async`/:meth:`step_wait` step every env in the background. Per-env
    trajectories are the same as with :meth:`step`. The properties (``observations``,
    ``masks``, ``rewards``, ...) and :meth:`action_masks` then describe every env's state
    as last received (joined from the batches); while batches are in flight they raise
    ``RuntimeError`` saying so.

    Gymnasium: ``single_observation_space`` (``Box(0, 255, (D,), obs_dtype)``),
    ``single_action_space`` (``Discrete(num_actions)``), their batched
    ``observation_space``/``action_space``, ``metadata["autoreset_mode"]`` (and the
    ``autoreset_mode`` attribute), ``infos["action_mask"]`` and ``infos["to_play"]``.
    With ``state_tensor=True``, ``infos["state"]`` also holds every env's privileged
    full-information state (``[num_envs, state_size]``, docs/state_tensor.md), for
    centralized critics; ``single_state_space`` is its space. In self-play the rewards
    are one per seat, ``(num_envs, num_players)``, unlike Gymnasium's ``(num_envs,)``.

    ``env_offset`` numbers this object's envs from
    ``env_offset`` in that derivation, so several objects (say, one per Ray task) can step
    disjoint slices of one master-seeded batch. :meth:`bot_actions` gives the actions the
    ``opponents`` bots would choose now (in self-play: the bot of the seat to move), which
    makes a built-in bot a deterministic self-play policy.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}
    # The constructor's real parameters (set below, from the settings table).
    __signature__: inspect.Signature

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # The Rust constructor (__new__) has already validated and built everything.
        self.autoreset_mode = AutoresetMode(self._autoreset_mode)
        # (Rust has checked it.)
        self.illegal_action = kwargs.get("illegal_action", _SETTINGS["illegal_action"]["default"])
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        obs, masks = self.observations, self.masks
        self.single_action_space_n = int(masks.shape[1])
        self.self_play = self.rewards.shape[1] != 1 or kwargs.get("self_play", False)
        self.single_observation_space = spaces.Box(0, OBS_HIGH, obs.shape[1:], obs.dtype)
        self.single_action_space = spaces.Discrete(self.single_action_space_n)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        states = self.states
        self.single_state_space = (
            None if states is None
            else spaces.Box(0, OBS_HIGH, states.shape[1:], states.dtype)
        )
        del states
        self._stepping_async = False
        del obs, masks  # let the first set of buffers be reused

    def _rewards(self, r: np.ndarray) -> np.ndarray:
        return r.view(SelfPlayRewards) if self.self_play else r[:, 0]

    def _result(self, outs: tuple[Any, ...]) -> tuple[Any, ...]:
        """``(obs, rewards, terminated, truncated, infos)`` from the arrays of every output
        (in ``_output_spec`` order): each output with an infos key and an array goes to
        ``infos``, the final observations as gymnasium writes them."""
        infos = {key: outs[i] for i, key in _INFOS if outs[i] is not None}
        term, trunc = outs[_TERM], outs[_TRUNC]
        if outs[_FINAL_OBS] is not None:  # Rust hands it over when an episode ended
            ended = term | trunc
            which = ended.nonzero()[0].tolist()
            if which:
                _with_final(infos, outs[_FINAL_OBS], self._final_constants(outs[_MASK].shape), ended, which)
        return outs[_OBS], self._rewards(outs[_REWARD]), term, trunc, infos

    def _final_constants(self, mask_shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """``final_info``'s ``action_mask`` (all False) and ``to_play`` (-1) arrays, made
        once per shape and read-only: with many envs some episode ends on almost every
        step, and allocating them each time was a large share of that step's Python work."""
        cached: Optional[tuple[np.ndarray, np.ndarray]] = getattr(self, "_final_cache", None)
        if cached is None or cached[0].shape != mask_shape:
            masks = np.zeros(mask_shape, dtype=bool)
            to_play = np.full(mask_shape[0], -1, dtype=np.int64)
            masks.flags.writeable = False
            to_play.flags.writeable = False
            cached = (masks, to_play)
            self._final_cache = cached
        return cached

    def _infos(self) -> dict[str, Any]:
        infos: dict[str, Any] = self._result(self._outputs())[4]
        return infos

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every env. With ``seed``: a new master seed, every env's stream starts
        again (the same seed gives the same games; gymnasium's ``np_random`` is seeded
        from it too). Without: every env moves on to its next game (a new object's first
        reset deals the first one). ``options={"reset_mask": mask}`` (a bool array, one
        per env, as gymnasium's vector envs take it) resets only the envs it sets, each to
        its next game; the others keep theirs (``DISABLED`` mode's way to go on). Other
        options are ignored. Returns ``(obs, infos)``."""
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            self._reset_some(_reset_mask(mask, self.num_envs, seed))
            return self.observations, self._infos()
        self.reset_all(seed)  # validates the seed first: a bad one changes nothing
        # (gymnasium's np_random takes a Python int only; Rust took any integer.)
        gymnasium.vector.VectorEnv.reset(self, seed=None if seed is None else int(seed))
        return self.observations, self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per env. Returns ``(obs, rewards, terminated, truncated, infos)``;
        ``infos["action_mask"]`` holds the next legal actions. An action outside an env's
        mask ends its episode as lost (``illegal_action="lose"``, the default:
        ``infos["illegal_action"]`` marks it) or, with ``illegal_action="raise"``, raises
        ``IllegalActionError`` naming the env, and nothing changes; non-integer actions
        raise ``TypeError``. Under ``NEXT_STEP`` the action of an env whose episode the
        last step ended is ignored (its mask offers one action, 0; any integer will do); under
        ``DISABLED`` stepping such an env raises ``RuntimeError`` (reset it first)."""
        if type(actions) is np.ndarray and actions.dtype == np.int64 and actions.ndim == 1:
            a = actions  # the common case, checked in Rust
        else:
            a = self._actions(actions, self.num_envs)
        return self._result(self._step(a))

    def _actions(self, actions: Any, n: int) -> np.ndarray:
        """Any integer array-like as a contiguous int64 array of shape ``(n,)``."""
        a = np.asarray(actions)
        if a.dtype == object and a.shape == (n,):
            a = self._python_ints(a)
        if a.dtype.kind not in "iu":
            raise InvalidTypeError(
                f"actions must be integers, got an array of dtype {a.dtype} ({reprlib.repr(actions)})"
            )
        if a.shape != (n,):
            raise InvalidValueError(
                f"actions has shape {a.shape}, expected ({n},): {reprlib.repr(actions)}"
            )
        if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
            # Out of range either way: named as given (no int64 holds them), as Python ints.
            return self._python_ints(a.astype(object))
        return np.ascontiguousarray(a, dtype=np.int64)

    def _python_ints(self, a: np.ndarray) -> np.ndarray:
        """Python ints too large for int64 make an object array: out of range, so
        IllegalActionError naming the env, or with ``illegal_action="lose"`` -1, an
        illegal action like any other (a non-integer is left to the TypeError)."""
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in a):
            return a
        a = a.copy()  # (np.asarray may have returned the caller's array)
        for i, x in enumerate(a):
            if not 0 <= x < self.single_action_space_n and self.illegal_action == "lose":
                a[i] = -1
            elif not 0 <= x < self.single_action_space_n:
                from ._core import IllegalActionError

                raise IllegalActionError(
                    f"illegal action in env {i}: action {x} is out of range: actions are "
                    f"card ids 0..{self.single_action_space_n - 1}"
                )
        return a.astype(np.int64)

    def action_masks(self) -> np.ndarray:
        """Legal-action masks ``[num_envs, num_actions]`` for the pending decisions."""
        return self.masks

    # ------------------------------------------------------------ asynchronous stepping

    def async_reset(self, seed: Optional[int] = None) -> None:
        """Resets every env as :meth:`reset` does and sends every batch of ``batch_size``
        envs: the next ``num_envs // batch_size`` calls of :meth:`recv` return them (envs
        ``0..batch_size`` first). Refused while batches sent are not received."""
        self._async_reset(seed)
        if seed is not None:
            gymnasium.vector.VectorEnv.reset(self, seed=int(seed))

    def send(self, actions: Any, env_id: Any = None) -> None:
        """Hands one batch's actions to Rust and returns at once; Rust steps those envs
        while you compute (where its background thread was asleep, the batch is stepped
        before ``send`` returns, as :meth:`step` would: docs/vector.md). ``env_id``: the envs of one batch :meth:`recv` returned, in any
        order, one action each (``None``: the batch it returned last, actions in its
        order). The actions are checked first: with ``illegal_action="raise"`` an illegal
        one raises ``IllegalActionError`` naming the env, and nothing is sent."""
        b = self.batch_size
        a = actions
        if not (type(a) is np.ndarray and a.dtype == np.int64 and a.ndim == 1):
            a = self._actions(a, b)
        self._send(a, env_id)  # ids are integers, as actions are: Rust checks them

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Waits for the oldest batch sent and returns ``(obs, rewards, terminated,
        truncated, infos)`` for its ``batch_size`` envs, ``infos["env_id"]`` naming them
        (ascending). The arrays are new and never written again."""
        return self._result(self._recv())

    def step_async(self, actions: Any) -> None:
        """Starts stepping every env with ``actions`` (one per env) in the background and
        returns (as :meth:`send` does); :meth:`step_wait` returns the results. Actions are checked first
        (with ``illegal_action="raise"`` an illegal one raises and nothing starts)."""
        a = self._actions(actions, self.num_envs)
        b = self.batch_size
        if self._stepping_async:
            raise StateError("step_async called twice without step_wait")
        self._check(a)  # every batch's actions, before any is sent
        ids = np.arange(self.num_envs, dtype=np.int64)
        for g in range(self.num_envs // b):
            self._send(a[g * b:(g + 1) * b], ids[g * b:(g + 1) * b])
        self._stepping_async = True

    def step_wait(
        self, **kwargs: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """The results of :meth:`step_async`: what :meth:`step` returns (with
        ``batch_size < num_envs`` the batches are concatenated, a copy)."""
        if not self._stepping_async:
            raise StateError("step_wait called without step_async")
        self._stepping_async = False
        parts = [self._recv() for _ in range(self.num_envs // self.batch_size)]
        if len(parts) == 1:
            outs = parts[0]
        else:
            outs = tuple(_concatenate(p) for p in zip(*parts))
        obs, r, te, tr, infos = self._result(outs)
        infos.pop("env_id", None)
        return obs, r, te, tr, infos

    def __repr__(self) -> str:
        """Gymnasium's, or ``<VectorEnv in use>`` while another thread or call uses it
        (a repr never raises)."""
        try:
            return str(gymnasium.vector.VectorEnv.__repr__(self))
        except InUseError:
            return f"<{type(self).__name__} in use>"

    def __reduce__(self) -> Any:
        raise InvalidTypeError(
            "a VectorEnv cannot be pickled (its games and stepping threads live in Rust): "
            "send its constructor arguments instead and build it in the worker, with "
            "env_offset so that several workers step disjoint slices of one master-seeded "
            "batch (docs/vector.md)"
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release (the threads end with the object)."""


class SelfPlayRewards(np.ndarray):
    """A self-play step's rewards, ``(num_envs, num_players)``: a numpy array in every
    way but one. Gymnasium's reward wrappers (``RecordEpisodeStatistics``,
    ``NormalizeReward``) keep one value per env and combine it with the rewards, which
    numpy would refuse with a shape message or, where ``num_envs`` equals the number of
    seats, broadcast into nonsense; so any arithmetic between these rewards and an array
    of one value per env (``(num_envs,)``, or as many rows as the rewards have) raises a
    ``TypeError`` naming ``ys.SeatReward``, the per-seat view those wrappers need.
    ``rewards[:, seat]``, scalars, ``(num_envs, k)`` arrays, and per-seat vectors (when
    ``num_envs`` differs from the number of seats; else ``weights[None, :]``) work as
    on any array, and results are plain arrays."""

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        outs = kwargs.get("out", ())
        for x in (*inputs, *outs):
            if isinstance(x, SelfPlayRewards) and x.ndim == 2:
                rows = x.shape[0]
                if any(
                    isinstance(y, np.ndarray) and not isinstance(y, SelfPlayRewards)
                    and y.ndim == 1 and y.shape[0] == rows
                    for y in (*inputs, *outs)
                ):
                    raise InvalidTypeError(
                        "self-play rewards are one per seat, (num_envs, num_players), and "
                        f"{ufunc.__name__} met an array of one value per env: a reward "
                        "wrapper (RecordEpisodeStatistics, NormalizeReward) needs one "
                        "reward per env, so wrap the env in ys.SeatReward(env, seat) "
                        "first (docs/vector.md); for a per-seat vector use "
                        "weights[None, :]"
                    )
        plain = tuple(x.view(np.ndarray) if isinstance(x, SelfPlayRewards) else x for x in inputs)
        if outs:
            kwargs["out"] = tuple(
                x.view(np.ndarray) if isinstance(x, SelfPlayRewards) else x for x in outs
            )
        return getattr(ufunc, method)(*plain, **kwargs)


class SeatReward(gymnasium.vector.VectorRewardWrapper):
    """A self-play :class:`VectorEnv` seen from one seat: ``rewards`` become that seat's
    column, shape ``(num_envs,)`` (in the team variants, its team's), so that gymnasium's
    reward wrappers, which expect one reward per env, work on top:
    ``RecordEpisodeStatistics(SeatReward(env, seat=0))`` records seat 0's episode returns,
    ``NormalizeReward(SeatReward(env, seat=0))`` scales seat 0's rewards. Every seat's
    rewards stay in ``infos["seat_rewards"]`` (``(num_envs, num_players)``, unscaled).
    Observations, masks and actions are untouched: the caller still decides for the seat
    to move (``infos["to_play"]``). Learner and team modes need no view (their rewards are
    already ``(num_envs,)``): they are refused with a ``ValueError``."""

    def __init__(self, env: Any, seat: int = 0) -> None:
        base = env.unwrapped
        rewards = getattr(base, "rewards", None)
        if not getattr(base, "self_play", False) or rewards is None or rewards.ndim != 2:
            raise InvalidValueError(
                "SeatReward is for self-play VectorEnvs (rewards (num_envs, num_players)); "
                "learner and team modes already give one reward per env"
            )
        players = int(rewards.shape[1])
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise InvalidTypeError(f"seat must be an int, got {type(seat).__name__}")
        if not 0 <= seat < players:
            raise InvalidValueError(f"seat {seat} is out of range: seats are 0..{players - 1}")
        super().__init__(env)
        self.seat = int(seat)

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, rewards, terminated, truncated, infos = self.env.step(actions)
        infos["seat_rewards"] = rewards
        return obs, self.rewards(rewards), terminated, truncated, infos

    def rewards(self, rewards: np.ndarray) -> np.ndarray:
        """Seat ``self.seat``'s column of every seat's rewards."""
        return np.ascontiguousarray(rewards[:, self.seat])


def _concatenate(parts: Sequence[Optional[np.ndarray]]) -> Optional[np.ndarray]:
    """One output's arrays of several batches as one (``None`` if no batch has it): a
    batch where no episode ended has no ``final_obs``, and its rows there are unused."""
    like = next((p for p in parts if p is not None), None)
    if like is None:
        return None
    return np.concatenate([np.zeros_like(like) if p is None else p for p in parts])


def _reset_mask(mask: Any, n: int, seed: Optional[int]) -> np.ndarray:
    """``options["reset_mask"]``, checked as gymnasium's vector envs check it."""
    if seed is not None:
        raise InvalidValueError(
            "reset(seed=..., options={'reset_mask': ...}) is not supported: a seed restarts "
            "every env's stream, so give it to a full reset(seed=...)"
        )
    if not isinstance(mask, np.ndarray):
        raise InvalidTypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
    if mask.shape != (n,):
        raise InvalidValueError(f"`options['reset_mask']` must have shape `({n},)`, got {mask.shape}")
    if mask.dtype != np.bool_:
        raise InvalidTypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}")
    if not mask.any():
        raise InvalidValueError(
            "`options['reset_mask']` must contain a boolean array with at least one True "
            f"value, got reset_mask={mask}"
        )
    return np.ascontiguousarray(mask)


def _with_final(
    infos: dict[str, Any],
    final_obs: np.ndarray,
    constants: tuple[np.ndarray, np.ndarray],
    ended: np.ndarray,
    which: list[int],
) -> None:
    """Adds to ``infos`` what gymnasium's ``SyncVectorEnv`` (``SAME_STEP``) adds for the
    envs whose episode the step ended: ``final_obs`` (an object array holding each such
    env's last observation, ``None`` elsewhere), ``final_info`` (their infos at the end:
    no decision pending, so an empty ``action_mask`` and ``to_play`` -1, the read-only
    ``constants``) and the masks ``_final_obs``/``_final_info``. The observations are
    rows of one array Rust wrote, not copies. ``which``: the indices of ``ended``."""
    obs = np.empty(len(ended), dtype=object)  # every entry None
    for i in which:
        obs[i] = final_obs[i]
    masks, to_play = constants
    infos["final_obs"], infos["_final_obs"] = obs, ended
    infos["final_info"] = {
        "action_mask": masks,
        "_action_mask": ended.copy(),
        "to_play": to_play,
        "_to_play": ended.copy(),
    }
    infos["_final_info"] = ended.copy()


# The subclass's __init__ takes (*args, **kwargs): show the constructor's real parameters,
# the rows of the settings table it binds them to (crates/yokai-septet-vector/src/vector/settings.rs).
VectorEnv.__signature__ = inspect.Signature(settings_parameters("vector"))


def make_vec(
    num_envs: int = 1,
    *,
    max_episode_steps: Optional[int] = None,
    **vector_options: Any,
) -> VectorEnv:
    """``gymnasium.make_vec("YokaiSeptet-v0", num_envs=N, ...)``'s vector entry point:
    the Rust-backed :class:`VectorEnv`, taking ``gymnasium.make``'s options (same names,
    same defaults: the settings tables', checked by the tests) and any other ``VectorEnv``
    option (``seed``, ``num_threads``, ``obs_dtype``, ``autoreset_mode``, ...). Options of
    the single env that a vector env cannot honour are refused with the reason: there is
    no rendering, and episodes are shortened by ``max_rounds``."""
    options: dict[str, Any] = {**_MAKE_DEFAULTS, **vector_options}
    if options.pop("render_mode") is not None or options.pop("render_seat", None) is not None:
        raise InvalidValueError(
            "the vector env does not render: use VectorEnv.render_env(i) for one env's "
            "text, or vectorization_mode='sync' with render_mode"
        )
    if max_episode_steps is not None:
        raise InvalidValueError(
            "max_episode_steps is not available in the vector env: use max_rounds or "
            "episode='round' to shorten episodes"
        )
    return VectorEnv(num_envs, **options)


# make's options (the single env's table but render_seat, which make_vec refuses), with
# make's defaults: shown between num_envs and max_episode_steps, given to every env.
_MAKE = settings_parameters("gym", keyword_only=True, leave_out={"render_seat"})
_MAKE_DEFAULTS = {p.name: p.default for p in _MAKE}
_num_envs, *_rest = inspect.signature(make_vec).parameters.values()
show_signature(make_vec, [_num_envs, *_MAKE, *_rest])

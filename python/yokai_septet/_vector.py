"""``yokai_septet.VectorEnv``: many games stepped in Rust across a thread pool."""

from __future__ import annotations

from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._core import VectorEnv as _CoreVectorEnv
from ._env_common import OBS_HIGH


class VectorEnv(_CoreVectorEnv, gymnasium.vector.VectorEnv):
    """``num_envs`` games stepped together in Rust, with the GIL released, on a private
    rayon pool (``num_threads`` threads, the calling one included): a
    ``gymnasium.vector.VectorEnv``.

    ``VectorEnv(num_envs, variant="4p", scoring="advanced", seed=0, *, episode="game",
    max_rounds=None, self_play=False, learner_seat=0, opponents="random",
    reward_mode="win", num_threads=None, obs_dtype="float32", env_offset=0, copy=True,
    state_tensor=False)``

    Two modes:

    - learner mode (``self_play=False``): in every env the caller plays ``learner_seat``
      (``None``: drawn per episode) and the other seats are played by built-in bots
      (``opponents``: a bot name, or one per seat). Rewards have shape ``(num_envs,)``.
    - self-play (``self_play=True``): the caller decides for whichever seat is to move
      (``infos["to_play"]``); observations are that seat's. Rewards have shape
      ``(num_envs, num_players)``: every seat's reward for the step.

    Episodes reset automatically in the same step (Gymnasium's ``SAME_STEP`` autoreset):
    when ``terminated[i]`` or ``truncated[i]`` is set, ``obs[i]`` already belongs to the
    next episode. Env ``i``'s ``e``-th episode is dealt from a seed derived from
    ``(seed, i, e)`` (see :meth:`game_seed`), so trajectories are identical at any thread
    count.

    Buffers: with the default ``copy=True`` every array a call returns is the caller's:
    no later call writes into it. Rust writes each step's results straight into a set of
    arrays nobody else holds (inside the parallel pass, no copy afterwards): sets the
    caller has let go of are reused, so the usual loop allocates nothing. With
    ``copy=False`` every call overwrites one set of buffers in place (the arrays
    returned, and the ``observations``/``masks``/... properties, are that set), so a result
    is valid only until the next ``step``/``reset``.

    Gymnasium: ``single_observation_space`` (``Box(0, 255, (D,), obs_dtype)``),
    ``single_action_space`` (``Discrete(num_actions)``), their batched
    ``observation_space``/``action_space``, ``metadata["autoreset_mode"] ==
    AutoresetMode.SAME_STEP`` (no ``final_obs`` in ``infos``: the episode's last
    observation is not kept), ``infos["action_mask"]`` and ``infos["to_play"]``.
    With ``state_tensor=True``, ``infos["state"]`` also holds every env's privileged
    full-information state (``[num_envs, state_size]``, docs/state_tensor.md), for
    centralized critics; ``single_state_space`` is its space.
    ``step_async``/``step_wait`` are synchronous (``step_wait`` steps). In self-play the
    rewards are one per seat, ``(num_envs, num_players)``, unlike Gymnasium's ``(num_envs,)``.

    ``env_offset`` numbers this object's envs from
    ``env_offset`` in that derivation, so several objects (say, one per Ray task) can step
    disjoint slices of one master-seeded batch. :meth:`bot_actions` gives the actions the
    ``opponents`` bots would choose now (in self-play: the bot of the seat to move), which
    makes a built-in bot a deterministic self-play policy.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # The Rust constructor (__new__) has already validated and built everything.
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
        self._actions_pending: Any = None
        del obs, masks  # let the first set of buffers be reused

    def _rewards(self, r: np.ndarray) -> np.ndarray:
        return r if self.self_play else r[:, 0]

    def _infos(self) -> dict:
        info = {"action_mask": self.masks, "to_play": self.to_play}
        if self.states is not None:
            info["state"] = self.states
        return info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[np.ndarray, dict]:
        """Resets every env (with ``seed``: a new master seed; gymnasium's ``np_random`` is
        seeded from it too). ``options`` is accepted and ignored. Returns ``(obs, infos)``."""
        self.reset_all(seed)  # validates the seed first: a bad one changes nothing
        gymnasium.vector.VectorEnv.reset(self, seed=seed)
        return self.observations, self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """One action per env. Returns ``(obs, rewards, terminated, truncated, infos)``;
        ``infos["action_mask"]`` holds the next legal actions. An illegal action raises
        ``IllegalActionError`` naming the env, and nothing changes; non-integer actions
        raise ``TypeError``."""
        if type(actions) is np.ndarray and actions.dtype == np.int64 and actions.ndim == 1:
            a = actions  # the common case, checked in Rust
        else:
            a = self._actions(actions)
        obs, r, te, tr, mask, to_play, state = self._step(a)
        info = {"action_mask": mask, "to_play": to_play}
        if state is not None:
            info["state"] = state
        return obs, self._rewards(r), te, tr, info

    def _actions(self, actions: Any) -> np.ndarray:
        """Any integer array-like as a contiguous int64 array of shape ``(num_envs,)``."""
        a = np.asarray(actions)
        if a.dtype == object and a.shape == (self.num_envs,):
            a = self._python_ints(a)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got an array of dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions has shape {a.shape}, expected ({self.num_envs},)")
        if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
            a = np.minimum(a, 2**62).astype(np.int64)  # out of range either way
        return np.ascontiguousarray(a, dtype=np.int64)

    def _python_ints(self, a: np.ndarray) -> np.ndarray:
        """Python ints too large for int64 make an object array: out of range, so
        IllegalActionError naming the env (a non-integer is left to the TypeError)."""
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in a):
            return a
        for i, x in enumerate(a):
            if not 0 <= x < self.single_action_space_n:
                from ._core import IllegalActionError

                raise IllegalActionError(
                    f"illegal action in env {i}: action {x} is out of range: actions are "
                    f"card ids 0..{self.single_action_space_n - 1}"
                )
        return a.astype(np.int64)

    def action_masks(self) -> np.ndarray:
        """Legal-action masks ``[num_envs, num_actions]`` for the pending decisions."""
        return self.masks

    def step_async(self, actions: Any) -> None:
        """Stores ``actions`` for :meth:`step_wait`, which steps: stepping is synchronous
        (the Rust pass already keeps ``num_threads`` cores busy, see docs/vector.md)."""
        self._actions_pending = actions

    def step_wait(self, **kwargs: Any):
        """Steps with the actions given to :meth:`step_async`; returns what :meth:`step`
        returns."""
        actions, self._actions_pending = self._actions_pending, None
        if actions is None:
            raise RuntimeError("step_wait called without step_async")
        return self.step(actions)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release (the thread pool ends with the object)."""

"""``yokai_septet.VectorEnv``: many games stepped in Rust across a thread pool."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._core import VectorEnv as _CoreVectorEnv


class VectorEnv(_CoreVectorEnv):
    """``num_envs`` games stepped together in Rust, with the GIL released, on a private
    rayon pool of ``num_threads`` threads, writing into preallocated numpy buffers.

    ``VectorEnv(num_envs, variant="4p", scoring="advanced", seed=0, *, episode="game",
    max_rounds=None, self_play=False, learner_seat=0, opponents="random",
    reward_mode="win", num_threads=None, obs_dtype="float32", env_offset=0, copy=True)``

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
    count. With ``copy=False`` the returned arrays are the internal buffers, overwritten
    by the next call (fastest). ``env_offset`` numbers this object's envs from
    ``env_offset`` in that derivation, so several objects (say, one per Ray task) can step
    disjoint slices of one master-seeded batch. :meth:`bot_actions` gives the actions the
    ``opponents`` bots would choose now (in self-play: the bot of the seat to move), which
    makes a built-in bot a deterministic self-play policy.
    """

    def __init__(self, *args: Any, copy: bool = True, **kwargs: Any) -> None:
        # The Rust constructor (__new__) has already validated and built everything.
        self.copy = bool(copy)
        self.single_action_space_n = int(self.masks.shape[1])
        self.self_play = self.rewards.shape[1] != 1 or kwargs.get("self_play", False)

    def __new__(cls, *args: Any, copy: bool = True, **kwargs: Any) -> "VectorEnv":
        return super().__new__(cls, *args, **kwargs)

    def _out(self, x: np.ndarray) -> np.ndarray:
        return x.copy() if self.copy else x

    def _rewards(self) -> np.ndarray:
        r = self.rewards
        return self._out(r if self.self_play else r[:, 0])

    def _infos(self) -> dict:
        return {"action_mask": self._out(self.masks), "to_play": self._out(self.to_play)}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> tuple[np.ndarray, dict]:
        """Resets every env (with ``seed``: a new master seed). Returns ``(obs, infos)``."""
        self.reset_all(seed)
        return self._out(self.observations), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """One action per env. Returns ``(obs, rewards, terminated, truncated, infos)``;
        ``infos["action_mask"]`` holds the next legal actions. An illegal action raises
        ``IllegalActionError`` naming the env, and nothing changes; non-integer actions
        raise ``TypeError``."""
        a = np.asarray(actions)
        if a.dtype == object and a.shape == (self.num_envs,):
            a = self._python_ints(a)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, got an array of dtype {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions has shape {a.shape}, expected ({self.num_envs},)")
        if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
            a = np.minimum(a, 2**62).astype(np.int64)  # out of range either way
        self.step_all(np.ascontiguousarray(a, dtype=np.int64))
        return (
            self._out(self.observations),
            self._rewards(),
            self._out(self.terminated),
            self._out(self.truncated),
            self._infos(),
        )

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
        return self._out(self.masks)

    def close(self) -> None:
        """Nothing to release (the thread pool ends with the object)."""

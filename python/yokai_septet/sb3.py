"""``yokai_septet.sb3``: Stable-Baselines3 ``VecEnv`` over :class:`yokai_septet.VectorEnv`
(needs the ``train`` extra: ``pip install ".[train]"``).

Wrap it in SB3's ``VecMonitor`` to get episode statistics (``ep_rew_mean``, ``ep_len_mean``):
SB3 reads them from ``infos[i]["episode"]``, which only ``VecMonitor`` writes.

``SB3VecEnv(num_envs, **kwargs)`` (or ``SB3VecEnv(env=VectorEnv(...))``) lets SB3 and
sb3-contrib's ``MaskablePPO`` train on the batch stepped in Rust::

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from yokai_septet.sb3 import SB3VecEnv

    env = VecMonitor(SB3VecEnv(64, variant="4p", opponents="heuristic", obs_dtype="uint8"))
    MaskablePPO("MlpPolicy", env, n_steps=64).learn(100_000)

Learner mode only (one seat per env is the agent, the built-in bots play the others):
SB3 expects one reward per env. The legal-action masks reach ``MaskablePPO`` through the
vec-env mask protocol: ``env_method("action_masks")`` returns one mask per env (rows of
``VectorEnv.masks``).

Episodes reset in the same step, as SB3 expects: ``SB3VecEnv(num_envs, ...)`` makes its
VectorEnv with ``autoreset_mode="same_step"`` (the VectorEnv's default is gymnasium's
``NEXT_STEP``); an ``env=`` given must have that mode. On a step that ends env ``i``'s episode, ``infos[i]`` holds what SB3's own
``DummyVecEnv`` puts there: ``"terminal_observation"``, the finished episode's last
observation (the VectorEnv's ``infos["final_obs"][i]``), and ``"TimeLimit.truncated"``,
true when the round cap (``max_rounds``) cut the game rather than the rules ending it.
SB3's algorithms read both to bootstrap a cut-off episode from the value of its last
observation instead of treating it as ended. ``infos[i]`` of an env whose episode goes on
is empty (SB3 reads ``TimeLimit.truncated`` with a default of false).

Threads: SB3 runs its policy in torch, whose intra-op threads default to one per core.
Where torch's threads and the VectorEnv's stepping threads together are more than the
cores, torch's threads (which spin after each operation) and the env's fight for them, and
a small MLP policy gains nothing from several threads anyway: ``SB3VecEnv`` then warns
once, with the fix (``torch.set_num_threads(1)``). It does not change torch's settings
itself: they are the whole process's (docs/vector.md, "Threads").
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Optional, Sequence

import numpy as np
from gymnasium.vector import AutoresetMode

from ._core import InvalidTypeError, InvalidValueError, StateError
from ._extras import missing_extra
from ._vector import VectorEnv

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv
except ModuleNotFoundError as e:
    raise missing_extra(e, "train", "yokai_septet.sb3") from e


_warned_oversubscribed = False


def _cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _warn_if_oversubscribed(env: VectorEnv) -> None:
    """Warns once per process when torch's intra-op threads and ``env``'s stepping
    threads together are more than the cores (see the module's docstring)."""
    global _warned_oversubscribed
    if _warned_oversubscribed:
        return
    try:
        import torch
    except ModuleNotFoundError:
        return
    torch_threads, cores = int(torch.get_num_threads()), _cores()
    if torch_threads > 1 and torch_threads + env.num_threads > cores:
        _warned_oversubscribed = True
        warnings.warn(
            f"torch runs on {torch_threads} threads and the VectorEnv steps on "
            f"{env.num_threads}, on {cores} cores: their threads take cores from each "
            "other (on a loaded 2-core machine MaskablePPO ran 5-50x slower than with torch "
            "on one thread). Call torch.set_num_threads(1) before training (a small MLP "
            "policy loses nothing), or give the VectorEnv fewer num_threads. SB3VecEnv "
            "leaves torch's settings as they are.",
            RuntimeWarning,
            stacklevel=3,
        )


class SB3VecEnv(VecEnv):
    """A Stable-Baselines3 ``VecEnv`` stepping a :class:`VectorEnv` (learner mode)."""

    def __init__(self, num_envs: Optional[int] = None, *, env: Optional[VectorEnv] = None,
                 **kwargs: Any) -> None:
        if env is None:
            if num_envs is None:
                raise InvalidTypeError("give num_envs (and VectorEnv keyword arguments) or env=")
            kwargs.setdefault("autoreset_mode", AutoresetMode.SAME_STEP)
            env = VectorEnv(num_envs, **kwargs)
        elif num_envs is not None or kwargs:
            raise InvalidTypeError("give either env= or VectorEnv arguments, not both")
        if env.self_play:
            raise InvalidValueError(
                "SB3VecEnv needs a VectorEnv in learner mode (self_play=False): SB3 expects "
                "one reward per env"
            )
        if env.autoreset_mode != AutoresetMode.SAME_STEP:
            raise InvalidValueError(
                f"SB3VecEnv needs a VectorEnv with autoreset_mode=SAME_STEP, got "
                f"{env.autoreset_mode.name}: SB3 expects an ended episode to reset in the "
                "same step, its last observation in infos. Make it with "
                "VectorEnv(..., autoreset_mode='same_step'), or let SB3VecEnv(num_envs, ...) "
                "make it"
            )
        if not env.copy:
            raise InvalidValueError(
                "SB3VecEnv needs a VectorEnv with copy=True (the default): SB3 keeps each "
                "step's observations until after the next step, which copy=False overwrites"
            )
        _warn_if_oversubscribed(env)
        self.venv = env
        self._actions: Optional[np.ndarray] = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> np.ndarray:
        """Resets every env (with the seed given to :meth:`seed`, if any)."""
        seed = self._seeds[0] if self._seeds and self._seeds[0] is not None else None
        obs, _ = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Steps every env: ``(obs, rewards, dones, infos)``, ``infos`` one dict per env."""
        if self._actions is None:
            raise StateError("step_wait called without step_async")
        actions, self._actions = self._actions, None
        obs, rewards, term, trunc, info = self.venv.step(actions)
        dones = term | trunc
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        ended = dones.nonzero()[0].tolist()
        if ended:  # only then does the VectorEnv hand over final_obs
            final_obs = info["final_obs"]
            for i in ended:
                infos[i] = {"terminal_observation": final_obs[i],
                            "TimeLimit.truncated": bool(trunc[i] and not term[i])}
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """Legal-action masks ``[num_envs, num_actions]`` of the pending decisions."""
        return self.venv.action_masks()

    def _indices(self, indices: Any) -> Sequence[int]:
        return list(self._get_indices(indices))

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks``: one mask per env. Any other method is the VectorEnv's, called
        once; a result with a row per env is split into rows, anything else repeated."""
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in idx]
        out = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        if isinstance(out, (np.ndarray, list)) and len(out) == self.num_envs:
            return [out[i] for i in idx]
        return [out for _ in idx]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The VectorEnv's attribute (``action_masks`` included, which tells sb3-contrib
        that masks are supported), once per index."""
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def close(self) -> None:
        self.venv.close()

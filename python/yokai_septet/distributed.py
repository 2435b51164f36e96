"""``yokai_septet.distributed``: arenas and self-play collection split across Ray tasks.

Needs the ``ray`` extra (``pip install ".[ray]"``). Every task runs a batch in
Rust on its own rayon pool, with the GIL released; Ray spreads the tasks over the cores of
one machine or the nodes of a cluster.

Two ways to run:

- **Local**: start Ray in this process, with as many CPUs as it may use::

      import ray
      from yokai_septet import distributed

      ray.init(num_cpus=2, include_dashboard=False)
      summary = distributed.arena(["heuristic", "random"], "4p", games=100_000, seed=1)

- **An existing cluster** (started with ``ray start --head`` on one node and
  ``ray start --address=HEAD:6379`` on the others): connect to it, then call the same
  functions. ``yokai-septet`` must be installed in the workers' Python as well (the same
  image or virtualenv on every node, or a ``runtime_env`` with ``pip``)::

      ray.init(address="auto")             # on a node of the cluster
      ray.init(address="ray://HEAD:10001") # or from outside, through Ray Client

  Recent Ray versions enable token authentication: a driver connecting to an existing
  cluster needs the cluster's token (``RAY_AUTH_TOKEN``, or the file that
  ``ray get-auth-token`` reads), as any Ray driver does.

If Ray is not initialised yet, the first call runs ``ray.init()`` with Ray's defaults
(which connects to a cluster started on this machine, or starts a local instance).

Exactness: :func:`arena` splits the game indices ``0..total`` of one master-seeded arena
into contiguous slices, one per task; every game's deal and bot seeds depend only on the
master seed and its index, and the tasks return integer counts that are merged exactly in
Rust before the summary (win rates, Wilson intervals, Elo, points per game) is computed.
The summary therefore equals :func:`yokai_septet.arena`'s for the same arguments, at any
number of tasks, nodes or threads. :func:`collect` likewise gives task ``k`` a contiguous
slice of the envs of one master-seeded :class:`~yokai_septet.VectorEnv` batch
(``env_offset``), so with a deterministic policy (a built-in bot, or any deterministic
callable) its batches are identical at any task count.

Failures: a task whose worker process dies (or, with ``retry_exceptions=True``, raises) is
re-run by Ray up to ``max_retries`` times; a re-run recomputes exactly the same slice, so
the merged result stays complete and exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Union

import numpy as np

from ._core import InvalidTypeError, InvalidValueError
from ._extras import missing_extra

try:
    import ray
except ModuleNotFoundError as e:
    raise missing_extra(e, "ray", "yokai_septet.distributed") from e

from . import _core
from ._arena_result import ArenaResult
from ._arena_spec import (
    DEFAULT, ArenaKeywords, ArenaSpec, check_arena_keywords, resolve, show_arena_keywords,
)
from ._vector import VectorEnv

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["arena", "collect", "split"]

Policy = Union[str, Callable[[np.ndarray, np.ndarray], Any]]


def split(total: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous half-open slices of ``range(total)``, sizes differing by at
    most one (the first ``total % parts`` are one longer); empty slices are dropped."""
    if parts < 1:
        raise InvalidValueError(f"the number of tasks must be at least 1, not {parts}")
    q, r = divmod(total, parts)
    out, start = [], 0
    for k in range(parts):
        end = start + q + (k < r)
        if end > start:
            out.append((start, end))
        start = end
    return out


def _ensure_ray() -> None:
    if not ray.is_initialized():
        ray.init()


def _default_tasks(cpus_per_task: float, factor: int = 2) -> int:
    """``factor`` tasks per slot of ``cpus_per_task`` CPUs in the cluster (some slack so
    that fast nodes take more work)."""
    cpus = ray.cluster_resources().get("CPU", 1.0)
    return max(1, int(cpus // max(cpus_per_task, 1e-9)) * factor)


def _positive(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidValueError(f"{what} must be an integer >= 1, not {value!r}")
    return int(value)


@ray.remote
def _task(index: int, before: Optional[Callable[[int], None]], fn: Callable[..., Any], *args: Any) -> Any:
    if before is not None:
        before(index)
    return fn(*args)


def _map_slices(
    fn: Callable[..., Any],
    slices: list[tuple[int, int]],
    args: tuple[Any, ...],
    cpus_per_task: float,
    max_retries: int,
    retry_exceptions: bool,
    before: Optional[Callable[[int], None]],
) -> list[Any]:
    """``[fn(start, end, *args) for (start, end) in slices]``, one Ray task each."""
    task = _task.options(
        num_cpus=cpus_per_task, max_retries=max_retries, retry_exceptions=retry_exceptions
    )
    args = tuple(ray.put(a) for a in args)  # stored once, shared by every task
    results: list[Any] = ray.get(
        [task.remote(k, before, fn, a, b, *args) for k, (a, b) in enumerate(slices)]
    )
    return results


def _arena_slice(
    start: int, end: int, bots: Union[str, list[str]], spec: ArenaSpec
) -> dict[str, Any]:
    return _core._arena_counts(start, end, bots, spec=spec)


def arena(
    bots: Union[str, Sequence[str]] = ("heuristic", "random"),
    variant: str = DEFAULT.variant,
    games: int = DEFAULT.games,
    seed: int = DEFAULT.seed,
    *,
    spec: Optional[ArenaSpec] = None,
    num_tasks: Optional[int] = None,
    cpus_per_task: float = 1,
    max_retries: int = 3,
    retry_exceptions: bool = False,
    _before_task: Optional[Callable[[int], None]] = None,
    **keywords: Unpack[ArenaKeywords],
) -> ArenaResult:
    """:func:`yokai_septet.arena` split across Ray tasks; returns the same summary (an
    :class:`yokai_septet.ArenaResult`, without the timing line in its table).

    The arena arguments mean what they mean locally (``threads``: rayon threads inside
    each task; ``0``/``None`` = ``cpus_per_task``), given as keywords or as
    ``spec=ArenaSpec(...)`` (not both; its ``batch_size`` is not used). Distribution:

    - ``num_tasks``: how many slices of the games to run as tasks (default: two per
      ``cpus_per_task`` CPUs of the cluster). The result does not depend on it.
    - ``cpus_per_task``: CPUs Ray reserves for each task (its rayon pool gets as many
      threads). On a cluster, whole nodes per task (e.g. 16) cut the overhead.
    - ``max_retries``: re-runs of a task whose worker dies; ``retry_exceptions``: re-run
      on exceptions too (a bad argument fails fast without it).

    ``_before_task(task_index)`` runs in the worker before each attempt (fault-injection
    hook for tests).
    """
    check_arena_keywords("arena", keywords)
    settings = resolve(spec, variant=variant, games=games, seed=seed, **keywords)
    if settings.sequential:
        # Checked before Ray starts: slices cannot stop at a board that depends on every
        # board before it.
        raise InvalidValueError(
            "distributed.arena plays an arena in slices, and a sequential arena stops at a "
            "board that depends on every board before it: play it with yokai_septet.arena, "
            "or set sequential=False"
        )
    _ensure_ray()
    lineup = bots if isinstance(bots, str) else list(bots)
    # Validates everything (names, line-up, ranges) here, before any task starts.
    total = _core._arena_total_games(lineup, spec=settings)
    settings = settings.replace(threads=settings.threads or max(1, int(cpus_per_task)))
    if num_tasks is None:
        num_tasks = _default_tasks(cpus_per_task)
    slices = split(total, _positive(num_tasks, "num_tasks"))
    counts = _map_slices(
        _arena_slice, slices, (lineup, settings), cpus_per_task, max_retries,
        retry_exceptions, _before_task,
    )
    return _core._arena_summary(counts, lineup, spec=settings)


show_arena_keywords(arena)


def _collect_slice(
    env_start: int, env_end: int, num_steps: int, policy: Policy, env_kwargs: dict[str, Any]
) -> dict[str, Any]:
    n = env_end - env_start
    bot = isinstance(policy, str)
    # SAME_STEP: every step of the rollout is a decision (NEXT_STEP would add a step with
    # no decision, its mask offering only the ignored action 0, after each episode).
    # "raise": a policy's illegal action is its bug, not a lost game in the data.
    env = VectorEnv(
        n,
        self_play=True,
        env_offset=env_start,
        opponents=policy if bot else "random",
        **{"autoreset_mode": "same_step", "illegal_action": "raise", **env_kwargs},
    )
    obs, infos = env.reset()
    mask = infos["action_mask"]
    seat = infos["to_play"]
    out = {
        "observations": np.empty((num_steps,) + obs.shape, obs.dtype),
        "masks": np.empty((num_steps,) + mask.shape, np.bool_),
        "actions": np.empty((num_steps, n), np.int64),
        "rewards": np.empty((num_steps, n, env.rewards.shape[1]), np.float32),
        "terminated": np.empty((num_steps, n), np.bool_),
        "truncated": np.empty((num_steps, n), np.bool_),
        "seats": np.empty((num_steps, n), np.int64),
    }
    for t in range(num_steps):
        out["observations"][t] = obs
        out["masks"][t] = mask
        out["seats"][t] = seat
        if isinstance(policy, str):
            actions = env.bot_actions()
        else:
            actions = np.asarray(policy(obs, mask))
            if actions.shape != (n,):
                raise InvalidValueError(
                    f"the policy returned actions of shape {actions.shape}, expected ({n},)"
                )
        obs, rewards, term, trunc, infos = env.step(actions)
        mask, seat = infos["action_mask"], infos["to_play"]
        out["actions"][t] = actions
        out["rewards"][t] = rewards
        out["terminated"][t] = term
        out["truncated"][t] = trunc
    out["last_observations"] = obs
    out["last_masks"] = mask
    out["last_seats"] = seat
    return out


def collect(
    policy: Policy,
    num_steps: int,
    num_envs: int = 64,
    variant: str = "4p",
    seed: int = 0,
    *,
    scoring: Optional[str] = "advanced",
    episode: str = "game",
    max_rounds: Optional[int] = None,
    reward_mode: str = "win",
    obs_dtype: str = "float32",
    num_tasks: Optional[int] = None,
    cpus_per_task: float = 1,
    max_retries: int = 3,
    retry_exceptions: bool = False,
    _before_task: Optional[Callable[[int], None]] = None,
) -> dict[str, np.ndarray]:
    """Self-play trajectories from ``num_envs`` games stepped ``num_steps`` times, the envs
    split across ``num_tasks`` Ray tasks, each stepping its slice in a self-play
    :class:`~yokai_septet.VectorEnv` (same-step autoreset).

    ``policy`` is a built-in bot name (``"random"``, ``"heuristic"``, ``"pimc:8"``, ...:
    the bot of the seat to move decides, seeded per env and episode from ``seed``), or a
    callable ``policy(obs_batch, mask_batch) -> actions`` (``[n, D]`` observations of the
    seat to move, ``[n, A]`` bool masks, returning ``n`` integer actions) that Ray can
    serialise (a function, a lambda, an object with ``__call__`` holding numpy weights).

    Returns a dict of numpy arrays, time-major ``[T, E, ...]`` with ``T = num_steps`` and
    ``E = num_envs`` (``x.reshape(T * E, ...)`` gives a flat batch):

    - ``observations [T, E, D]``, ``masks [T, E, A]``: what the policy saw;
    - ``actions [T, E]`` (int64), ``seats [T, E]``: the action and the seat that took it;
    - ``rewards [T, E, P]`` (float32): every seat's reward for the step;
    - ``terminated``, ``truncated``, ``dones [T, E]``: the step ended the episode (the
      next row of that env belongs to a new one);
    - ``env_ids [T, E]``: the env's index in ``0..E``; ``episode_ids [T, E]``: the
      episode's index within its env;
    - ``last_observations [E, D]``, ``last_masks [E, A]``, ``last_seats [E]``: the state
      after the last step, for bootstrapping.

    An action outside the mask raises ``IllegalActionError`` (a policy's bug, not a lost
    game in the data). With a deterministic policy the result depends only on the
    arguments, never on ``num_tasks``; ``max_retries`` and ``retry_exceptions`` are as in
    :func:`arena`.
    """
    _ensure_ray()
    num_steps = _positive(num_steps, "num_steps")
    num_envs = _positive(num_envs, "num_envs")
    if isinstance(policy, str):
        _core.Bot(policy)  # a ValueError listing the names, before any task starts
    elif not callable(policy):
        raise InvalidTypeError(f"policy must be a bot name or a callable, not {policy!r}")
    env_kwargs = dict(
        variant=variant,
        scoring=scoring,
        seed=seed,
        episode=episode,
        max_rounds=max_rounds,
        reward_mode=reward_mode,
        obs_dtype=obs_dtype,
        num_threads=max(1, int(cpus_per_task)),
    )
    VectorEnv(1, self_play=True, **env_kwargs)  # validates the env arguments here
    if num_tasks is None:
        num_tasks = min(_default_tasks(cpus_per_task, factor=1), num_envs)
    slices = split(num_envs, _positive(num_tasks, "num_tasks"))
    parts = _map_slices(
        _collect_slice, slices, (num_steps, policy, env_kwargs), cpus_per_task,
        max_retries, retry_exceptions, _before_task,
    )
    batch = {
        key: np.concatenate([p[key] for p in parts], axis=0 if key.startswith("last_") else 1)
        for key in parts[0]
    }
    batch["dones"] = batch["terminated"] | batch["truncated"]
    batch["env_ids"] = np.broadcast_to(
        np.arange(num_envs, dtype=np.int64), (num_steps, num_envs)
    ).copy()
    ended = np.cumsum(batch["dones"], axis=0, dtype=np.int64)
    batch["episode_ids"] = ended - batch["dones"]
    return batch


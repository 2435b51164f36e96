"""Baseline models: the neural-network policies shipped with the package, their weights
format, imitation data, and evaluation against the shipped baseline.

The ``nn`` bot (``ys.Bot("nn")``, ``--bots nn``, a ``VectorEnv`` opponent, the ladder)
plays the model shipped for the game's variant; ``"nn:PATH"`` plays a model you saved.
It runs in Rust (no torch at run time): a multilayer perceptron over the canonical
observation (``Game.observation()``), ReLU between layers, one logit per card id; the
bot plays the legal card with the highest logit. A model whose ``inputs`` are
``"observation+heuristic"`` also reads a one-hot of the card the ``heuristic`` bot would
play (the shipped baselines do: they learn where to depart from it).

Weights are a safetensors file: tensors ``layers.{i}.weight`` (``[outputs, inputs]``,
as ``torch.nn.Linear`` stores them) and ``layers.{i}.bias``, float32, and metadata
``format = "yokai-septet-mlp/1"``, ``variant`` and ``inputs``. ``docs/baselines.md`` has
the details, the training pipeline and its results.

    import yokai_septet as ys
    from yokai_septet import models

    m = models.load("4p")                      # the shipped 4p baseline
    net = m.to_torch()                         # a torch.nn.Sequential (needs torch)
    ...                                        # fine-tune it
    models.Model.from_torch(net, "4p").save("mine.safetensors")
    ys.arena(["nn:mine.safetensors", "heuristic"], games=1000)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._core import InvalidTypeError, InvalidValueError
from ._arena_spec import DEFAULT, ArenaSpec, resolve
from ._extras import missing_extra

#: The ``format`` metadata of the weights files this version reads and writes.
MODEL_FORMAT = "yokai-septet-mlp/1"

#: What a model's first layer may read (its ``inputs``).
INPUTS = ("observation", "observation+heuristic")

Layers = List[Tuple[np.ndarray, np.ndarray]]


def features(
    observations: np.ndarray, heuristic: Optional[np.ndarray], inputs: str, num_actions: int
) -> np.ndarray:
    """The float32 input rows of a model whose first layer reads ``inputs``: the
    observations ``[B, observation_size]``, then, for ``"observation+heuristic"``, a
    one-hot ``[B, num_actions]`` of the ``heuristic`` bot's card ids ``heuristic`` (the
    ``heuristic`` column of :func:`imitation_data`)."""
    x = np.asarray(observations, np.float32)
    if inputs == "observation":
        return x
    if inputs != "observation+heuristic":
        raise InvalidValueError(f"inputs '{inputs}', expected one of {INPUTS}")
    if heuristic is None:
        raise InvalidValueError(
            "this model also reads the heuristic bot's card: pass heuristic= (card ids), "
            "or play it as Bot('nn:PATH'), which computes it"
        )
    ids = np.asarray(heuristic, np.int64)
    if ids.shape != (x.shape[0],):
        raise InvalidValueError(f"heuristic has shape {ids.shape}, expected ({x.shape[0]},)")
    hint = np.zeros((x.shape[0], num_actions), np.float32)
    hint[np.arange(x.shape[0]), ids] = 1.0
    return np.concatenate([x, hint], axis=1)


@dataclass
class Model:
    """An MLP policy for one variant: ``layers`` from the input to the logits, each
    ``(weight [outputs, inputs], bias [outputs])`` as float32 arrays. ``inputs`` is what
    the first layer reads (:data:`INPUTS`, :func:`features`)."""

    variant: str
    layers: Layers
    metadata: Dict[str, str] = field(default_factory=dict)
    inputs: str = "observation"

    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the model as a safetensors file that ``Bot("nn:PATH")`` plays. The
        shapes are checked as the bot checks them (``ValueError`` says what is wrong)."""
        layers = [
            (np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32))
            for w, b in self.layers
        ]
        meta = [(str(k), str(v)) for k, v in self.metadata.items()]
        _core._model_write(os.fspath(path), self.variant, self.inputs, layers, meta)

    def logits(
        self, observations: np.ndarray, heuristic: Optional[np.ndarray] = None
    ) -> np.ndarray:
        """The logits of a batch of observations ``[B, observation_size]`` (numpy; the
        same numbers the Rust bot computes, up to float rounding). An
        ``"observation+heuristic"`` model also needs the heuristic bot's card ids."""
        num_actions = self.layers[-1][1].shape[0]
        h = features(observations, heuristic, self.inputs, num_actions)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w.T + b
            if i + 1 < len(self.layers):
                h = np.maximum(h, 0.0)
        return h

    def policy(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        heuristic: Optional[np.ndarray] = None,
    ) -> np.ndarray:
        """The legal card with the highest logit (ties to the lowest card id), as the
        ``nn`` bot plays. An ``"observation"`` model is a batched policy for
        :func:`yokai_septet.evaluate`; an ``"observation+heuristic"`` model needs the
        heuristic's card ids too (seat it by name, ``"nn:PATH"``, instead)."""
        logits = np.where(
            np.asarray(masks, bool), self.logits(observations, heuristic), -np.inf
        )
        actions: np.ndarray = logits.argmax(axis=1)
        return actions

    def act(self, game: Any) -> int:
        """The card id this model plays for the seat to act in ``game`` (a
        :class:`yokai_septet.Game`), as ``Bot("nn:PATH")`` would; so a model is also an
        agent for :func:`yokai_septet.evaluate` and :func:`evaluate_vs_baseline`."""
        from . import Bot

        hint = None
        if self.inputs == "observation+heuristic":
            hint = np.array([Bot("heuristic").act(game)])
        return int(self.policy(game.observation()[None, :], game.legal_mask()[None, :], hint)[0])

    def to_torch(self) -> Any:
        """The model as a ``torch.nn.Sequential`` of ``Linear`` and ``ReLU`` layers
        (needs torch: the ``train`` extra)."""
        try:
            import torch
        except ModuleNotFoundError as e:
            raise missing_extra(e, "train", "Model.to_torch") from e

        modules: list[Any] = []
        for i, (w, b) in enumerate(self.layers):
            lin = torch.nn.Linear(w.shape[1], w.shape[0])
            with torch.no_grad():
                lin.weight.copy_(torch.from_numpy(np.array(w, np.float32)))
                lin.bias.copy_(torch.from_numpy(np.array(b, np.float32)))
            modules.append(lin)
            if i + 1 < len(self.layers):
                modules.append(torch.nn.ReLU())
        return torch.nn.Sequential(*modules)

    @classmethod
    def from_torch(
        cls, module: Any, variant: str, inputs: str = "observation", **metadata: str
    ) -> "Model":
        """The ``torch.nn.Linear`` layers of ``module``, in order, as a model for
        ``variant`` whose first layer reads ``inputs``. The module must compute exactly
        Linear → ReLU → … → Linear (the bot applies ReLU between every two layers)."""
        try:
            import torch
        except ModuleNotFoundError as e:
            raise missing_extra(e, "train", "Model.from_torch") from e

        linears = [m for m in module.modules() if isinstance(m, torch.nn.Linear)]
        if not linears:
            raise InvalidValueError("the module has no torch.nn.Linear layers")
        layers = [
            (
                lin.weight.detach().cpu().numpy().astype(np.float32),
                lin.bias.detach().cpu().numpy().astype(np.float32),
            )
            for lin in linears
        ]
        return cls(variant, layers, {k: str(v) for k, v in metadata.items()}, inputs)


def load(source: Union[str, os.PathLike[str]]) -> Model:
    """The shipped baseline of a variant (``load("4p")``), or the model saved in a
    safetensors file (``load("mine.safetensors")``): a regular file of at most 256 MiB,
    read with the GIL released (a named pipe, a device or a larger file is refused with
    the rule that refused it, without being read)."""
    if not isinstance(source, (str, os.PathLike)):
        raise InvalidTypeError(
            f"source must be a variant name or a path (str or os.PathLike), not "
            f"{type(source).__name__} ({source!r})"
        )
    src = os.fspath(source)
    if src in _core.VARIANTS:
        variant, inputs, layers, meta = _core._model_read(variant=src)
    else:
        variant, inputs, layers, meta = _core._model_read(path=src)
    return Model(
        variant, [(np.asarray(w), np.asarray(b)) for w, b in layers], dict(meta), inputs
    )


#: The training-data functions' defaults (:func:`imitation_data`, :func:`value_data`):
#: the arena's, with 100 games.
_DATA = DEFAULT.replace(games=100)


def imitation_data(
    bots: Union[str, Sequence[str]],
    teacher: str,
    labelled: Sequence[int] = (0,),
    variant: str = _DATA.variant,
    games: int = _DATA.games,
    seed: int = _DATA.seed,
    *,
    scoring: Optional[str] = _DATA.scoring,
    max_rounds: Optional[int] = _DATA.max_rounds,
    duplicate: bool = _DATA.duplicate,
    rounds: bool = _DATA.rounds,
    sequential: bool = _DATA.sequential,
    threads: Optional[int] = _DATA.threads,
    progress: Any = None,
    spec: Optional[ArenaSpec] = None,
) -> Dict[str, np.ndarray]:
    """Plays the arena ``bots`` (as :func:`yokai_septet.arena`: one name per side or per
    seat, the same deals and seeds) in Rust on ``threads`` threads (0 or None: every
    core) and records every decision of the line-up entries ``labelled`` with the card
    ``teacher`` (a bot name) chooses there. A labelled entry named as the teacher plays
    the teacher's cards; any other plays its own (DAgger: label a student's games).

    Returns a dict of numpy arrays, one row per decision, in game order:
    ``observations`` (uint8 ``[N, observation_size]``, the canonical observation),
    ``masks`` (bool ``[N, num_actions]``), ``labels`` (the teacher's card ids),
    ``values`` (float32 ``[N, num_actions]``: the teacher's value of each card where it
    searched, else NaN), ``visits`` (float32 ``[N, num_actions]``: a tree search
    teacher's, ``ismcts`` or ``ismcts-nn``, share of its root visits of each legal card,
    its own policy, whose most visited card is the label; NaN elsewhere), ``played`` (the card ids played), ``heuristic`` (the card ids the
    ``heuristic`` bot would play: an ``"observation+heuristic"`` model's extra input),
    ``games`` (arena game index) and ``seats``; a belief model's input after the
    observation, ``play_log`` (uint8 ``[N, play_log_size]``: how each card of the round
    was played, led, over, under, ruff or discard, by relative seat); and its labels
    (``docs/inference.md``): ``holders`` (uint8 ``[N, num_actions]``:
    the relative seat, 0 the decider, whose hand holds each card, 255 elsewhere),
    ``possible`` (uint8 ``[N, num_actions]``: a bit per relative seat that may hold each
    card the decider cannot see, in the play phase; 0 elsewhere) and ``uniform`` (float32
    ``[N, num_actions, num_players]``: the uniform sampler's probability of each relative
    seat holding each card). The
    result depends on the arguments, never on ``threads``. ``progress`` shows the games
    played on stderr, as for :func:`yokai_septet.evaluate` (by default where stderr is a
    terminal). The arena's settings are the fields of :class:`yokai_septet.ArenaSpec`
    (here ``games`` defaults to 100), given as keywords or as ``spec=ArenaSpec(...)``
    (not both; its ``batch_size`` is not used)."""
    from ._progress import progress_bar

    settings = resolve(
        spec, _DATA, variant=variant, games=games, seed=seed, scoring=scoring,
        max_rounds=max_rounds, duplicate=duplicate, rounds=rounds, sequential=sequential,
        threads=threads,
    )
    callback, close = progress_bar(progress, "imitation_data")
    try:
        return _core._imitation_data(
            teacher, list(labelled), bots=bots, progress=callback, spec=settings
        )
    finally:
        close()


def value_data(
    bots: Union[str, Sequence[str]],
    variant: str = _DATA.variant,
    games: int = _DATA.games,
    seed: int = _DATA.seed,
    *,
    scoring: Optional[str] = _DATA.scoring,
    max_rounds: Optional[int] = _DATA.max_rounds,
    duplicate: bool = _DATA.duplicate,
    rounds: bool = _DATA.rounds,
    sequential: bool = _DATA.sequential,
    threads: Optional[int] = _DATA.threads,
    progress: Any = None,
    spec: Optional[ArenaSpec] = None,
) -> Dict[str, Any]:
    """A value model's training data (``training/train_value.py``): plays the arena
    ``bots`` (as :func:`yokai_septet.arena`) in Rust on ``threads`` threads and records
    every play-phase position of the true game. A position's input is the observation of
    the seat to play and the other seats' hands (the ``"observation+hands"`` input of a
    value model); its targets each seat's round value of the round's end, from the seat to
    play clockwise. A round the round cap cuts off has no result and is left out.

    Returns a dict, one row per position in game order: the inputs as compressed sparse
    rows (``row_starts`` uint64 ``[N + 1]``, ``columns`` uint16 and ``values`` uint8, as
    ``scipy.sparse.csr_matrix((values, columns, row_starts))`` reads them, ``input_size``
    columns), ``targets`` and ``playout`` (float32 ``[N, num_players]``: the round values,
    and what one heuristic playout of the true deal from the position gives, the baseline
    a model is measured against), ``hand_len`` (uint8: the hand size of the seat to play)
    and ``games`` (uint64: the arena game index). The result depends on the arguments,
    never on ``threads``. ``progress`` and the settings as for :func:`imitation_data`."""
    from ._progress import progress_bar

    settings = resolve(
        spec, _DATA, variant=variant, games=games, seed=seed, scoring=scoring,
        max_rounds=max_rounds, duplicate=duplicate, rounds=rounds, sequential=sequential,
        threads=threads,
    )
    callback, close = progress_bar(progress, "value_data")
    try:
        return _core._value_data(bots=bots, progress=callback, spec=settings)
    finally:
        close()


def evaluate_vs_baseline(
    agent: Union[str, Callable[..., Any], Any],
    variant: str = "4p",
    games: int = 200,
    seed: int = 0,
    *,
    baseline: str = "nn",
    **kwargs: Any,
) -> Dict[str, Any]:
    """Your agent's duplicate-deal record against the shipped baseline (``nn``) of
    ``variant``: ``{"win_rate", "ci95", "board_win_rate", "board_ci95", "elo", "games",
    "baseline"}`` for your agent's side (``board_*``: the duplicate pairs' mean and its
    interval, narrower where the deal decides much). ``agent`` is anything :func:`yokai_septet.evaluate` seats: a batched policy
    ``policy(observations, masks) -> actions``, an object with ``act(game)``, or a bot
    name (``"nn:mine.safetensors"``). In ``3p`` the agent plays one seat against two
    baselines (a fair share is 1/3). Other keyword arguments go to ``evaluate``."""
    from . import evaluate

    summary = evaluate([agent, baseline], variant=variant, games=games, seed=seed, **kwargs)
    mine = summary["entries"][0]
    return {
        "win_rate": mine["win_rate"],
        "ci95": mine["ci95"],
        "board_win_rate": mine["board_win_rate"]["mean"],
        "board_ci95": mine["board_win_rate"]["ci95"],
        "elo": mine["elo"],
        "games": summary["games"],
        "baseline": baseline,
    }


__all__ = [
    "MODEL_FORMAT",
    "INPUTS",
    "Model",
    "features",
    "load",
    "imitation_data",
    "value_data",
    "evaluate_vs_baseline",
]

"""Advantage estimates over a side's decisions in one round.

A round is an episode of its own here: the only reward is the round's return, paid after
the side's last decision in it, and nothing is discounted (gamma 1). A side's decisions in
a round (both partners' in the team variants), in the order they were taken, form one
sequence; :func:`gae` computes GAE(lambda) along each sequence from a critic's values:

    delta_k = V(s_{k+1}) - V(s_k)        (the last decision: R - V(s_k))
    A_k     = delta_k + lambda * A_{k+1}

``lambda = 1`` gives the Monte-Carlo return minus the baseline, ``R - V(s_k)``;
``lambda = 0`` the one-step estimate. ``A + V`` is the lambda-return, the critic's target.
"""

from __future__ import annotations

import numpy as np


def sequences(round_id: np.ndarray, side: np.ndarray, step: np.ndarray) -> tuple:
    """``(order, next_in_seq)``: the decisions sorted by round, side and step, and for each
    sorted position whether the next one continues its sequence."""
    order = np.lexsort((step, side, round_id))
    r, s = round_id[order], side[order]
    cont = np.zeros(len(order), bool)
    cont[:-1] = (r[1:] == r[:-1]) & (s[1:] == s[:-1])
    return order, cont


def gae(values: np.ndarray, targets: np.ndarray, round_id: np.ndarray, side: np.ndarray,
        step: np.ndarray, lam: float) -> np.ndarray:
    """GAE(``lam``) of every decision (in the input order), from the critic's ``values``
    and the rounds' returns ``targets``; each decision's sequence is its ``(round_id,
    side)``, ordered by ``step``."""
    order, cont = sequences(round_id, side, step)
    v = values[order].astype(np.float64)
    nxt = np.empty_like(v)
    nxt[:-1] = v[1:]
    nxt = np.where(cont, nxt, targets[order])
    delta = nxt - v
    # Each position's distance to the end of its sequence (0 for its last decision).
    ends = np.flatnonzero(~cont)
    rank = ends[np.searchsorted(ends, np.arange(len(v)))] - np.arange(len(v))
    adv = delta.copy()
    for level in range(1, int(rank.max(initial=0)) + 1):
        at = np.flatnonzero(rank == level)
        adv[at] += lam * adv[at + 1]
    out = np.empty(len(v), np.float32)
    out[order] = adv
    return out

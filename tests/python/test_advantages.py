"""training/advantages.py: GAE(lambda) over each side's decisions in a round, against a
plain per-sequence loop, and its two ends (lambda 1: the return minus the baseline;
lambda 0: the one-step estimate). numpy only, so it runs in the default suite."""

import numpy as np
import pytest

from training.advantages import gae


def reference(values, targets, round_id, side, step, lam):
    """A loop over each (round, side) sequence in step order, written out."""
    out = np.zeros(len(values))
    for key in {(r, s) for r, s in zip(round_id, side)}:
        idx = [i for i in range(len(values)) if (round_id[i], side[i]) == key]
        idx.sort(key=lambda i: step[i])
        a = 0.0
        for j in reversed(range(len(idx))):
            i = idx[j]
            nxt = values[idx[j + 1]] if j + 1 < len(idx) else targets[i]
            a = nxt - values[i] + lam * a
            out[i] = a
    return out


def random_batch(rng, n=300):
    round_id = rng.integers(0, 12, n)
    side = rng.integers(0, 3, n)
    step = rng.permutation(n)  # distinct steps, in any order
    ret = rng.normal(size=(12, 3))
    return rng.normal(size=n).astype(np.float32), ret[round_id, side].astype(np.float32), \
        round_id, side, step


@pytest.mark.parametrize("lam", [0.0, 0.5, 0.9, 1.0])
def test_gae_matches_a_loop_over_each_sides_sequence(lam):
    rng = np.random.default_rng(int(lam * 10))
    v, t, r, s, k = random_batch(rng)
    np.testing.assert_allclose(gae(v, t, r, s, k, lam), reference(v, t, r, s, k, lam),
                               rtol=1e-5, atol=1e-5)


def test_lambda_one_is_the_return_minus_the_baseline_and_zero_the_next_value():
    rng = np.random.default_rng(7)
    v, t, r, s, k = random_batch(rng)
    np.testing.assert_allclose(gae(v, t, r, s, k, 1.0), t - v, atol=1e-5)
    a0 = gae(v, t, r, s, k, 0.0)
    # The last decision of each sequence: R - V; the others: V(next) - V.
    for i in range(len(v)):
        same = [j for j in range(len(v)) if r[j] == r[i] and s[j] == s[i] and k[j] > k[i]]
        nxt = v[min(same, key=lambda j: k[j])] if same else t[i]
        assert a0[i] == pytest.approx(nxt - v[i], abs=1e-5)


def test_a_perfect_critic_leaves_no_advantage():
    # Values equal to the return everywhere: every estimate is 0, whatever lambda.
    rng = np.random.default_rng(3)
    _, t, r, s, k = random_batch(rng)
    for lam in (0.0, 0.7, 1.0):
        assert not gae(t.copy(), t, r, s, k, lam).any()

"""The shipped baseline models (the ``nn`` bot), their weights files, imitation data and
evaluation against the baseline."""

import json

import numpy as np
import pytest

import yokai_septet as ys
from yokai_septet import models

VARIANTS = ["4p", "3p", "seal", "seal-short"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_shipped_model_of_each_variant_is_small_and_fits_its_variant(variant):
    m = models.load(variant)
    g = ys.Game(variant=variant)
    assert m.variant == variant
    hint = len(g.legal_mask()) if m.inputs == "observation+heuristic" else 0
    assert m.layers[0][0].shape[1] == len(g.observation()) + hint
    assert m.layers[-1][0].shape[0] == len(g.legal_mask())
    for (w, b), (w2, _) in zip(m.layers, m.layers[1:]):
        assert w2.shape[1] == w.shape[0] == b.shape[0]
    params = sum(w.size + b.size for w, b in m.layers)
    assert params * 4 < 4 * 2**20  # "a few MB per variant" at most, as float32


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rust_bot_plays_what_the_numpy_forward_pass_chooses(variant):
    """``Model.policy`` (numpy) and ``Bot("nn")`` (Rust) are the same policy."""
    m = models.load(variant)
    bot, heuristic = ys.Bot("nn"), ys.Bot("heuristic")
    g = ys.Game(variant=variant, seed=3, max_rounds=2)
    checked = 0
    while g.phase != "over":
        obs = g.observation()[None, :]
        mask = g.legal_mask()[None, :]
        hint = np.array([heuristic.act(g)]) if m.inputs == "observation+heuristic" else None
        logits = np.where(mask, m.logits(obs, hint), -np.inf)[0]
        a = bot.act(g)
        # Equal up to float rounding: the Rust sum runs in another order.
        assert logits[a] >= logits.max() - 1e-4 * (1 + abs(logits.max()))
        if np.sort(logits)[-2] < logits.max() - 1e-3:
            assert a == int(m.policy(obs, mask, hint)[0]) == m.act(g)
            checked += 1
        g.step(a)
    assert checked > 20


def test_a_saved_model_round_trips_and_plays_as_nn_path(tmp_path):
    m = models.load("4p")
    path = tmp_path / "mine.safetensors"
    models.Model(m.variant, m.layers, {"note": "copy"}, m.inputs).save(path)
    back = models.load(path)
    assert back.metadata["note"] == "copy" and back.inputs == m.inputs
    for (w, b), (w2, b2) in zip(m.layers, back.layers):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)
    # The copy plays exactly as the shipped model: a duplicate arena between them is even.
    s = ys.arena([f"nn:{path}", "nn"], variant="4p", games=40, seed=1, threads=1)
    assert s["entries"][0]["win_rate"] == pytest.approx(0.5)
    assert s["games"] == 40


@pytest.mark.training
def test_a_torch_round_trip_keeps_the_weights():
    import torch
    m = models.load("3p")
    net = m.to_torch()
    back = models.Model.from_torch(net, "3p", m.inputs)
    assert back.inputs == m.inputs
    for (w, b), (w2, b2) in zip(m.layers, back.layers):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)
    rng = np.random.default_rng(0)
    obs = rng.integers(0, 2, (5, len(ys.Game(variant="3p").observation()))).astype(np.uint8)
    actions = m.layers[-1][1].shape[0]
    ids = rng.integers(0, actions, 5) if m.inputs == "observation+heuristic" else None
    x = models.features(obs, ids, m.inputs, actions)
    np.testing.assert_allclose(net(torch.from_numpy(x)).detach().numpy(), m.logits(obs, ids),
                               rtol=1e-5, atol=1e-5)


def test_bad_weights_are_refused_with_what_and_where(tmp_path):
    m = models.load("4p")
    w0, b0 = m.layers[0]
    with pytest.raises(ValueError, match=r"layer 0: weight has \d+ rows but bias has 3 values"):
        models.Model("4p", [(w0, b0[:3])] + m.layers[1:]).save(tmp_path / "a.safetensors")
    with pytest.raises(ValueError, match=r"layers\.0\.weight.*expected \["):
        models.Model("4p", [(w0[:, :10], b0)] + m.layers[1:]).save(tmp_path / "b.safetensors")
    with pytest.raises(ValueError, match="expected one per card id of 3p"):
        models.Model("3p", [(np.zeros((7, 587), np.float32), np.zeros(7, np.float32))]).save(
            tmp_path / "c.safetensors")
    bad = w0.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        models.Model("4p", [(bad, b0)] + m.layers[1:], {}, m.inputs).save(tmp_path / "d.safetensors")
    with pytest.raises(ValueError, match="metadata 'variant': set by the model"):
        models.Model("4p", m.layers, {"variant": "3p"}, m.inputs).save(tmp_path / "e.safetensors")
    for name in "abcde":
        assert not (tmp_path / f"{name}.safetensors").exists()  # nothing half-written
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"hello")
    with pytest.raises(ValueError, match="not a safetensors file"):
        models.load(junk)
    with pytest.raises(ValueError, match="bot 'nn:.*junk.safetensors': not a safetensors file"):
        ys.Bot(f"nn:{junk}")
    with pytest.raises(ValueError, match="cannot read"):
        ys.arena([f"nn:{tmp_path / 'missing.safetensors'}", "random"], games=2)


def test_a_model_plays_only_its_own_variant(tmp_path):
    path = tmp_path / "three.safetensors"
    models.load("3p").save(path)
    with pytest.raises(ValueError, match=r"cannot play 4p: its weights are for 3p"):
        ys.arena([f"nn:{path}", "random"], variant="4p", games=2)
    with pytest.raises(ValueError, match=r"cannot play 4p: its weights are for 3p"):
        ys.Bot(f"nn:{path}").act(ys.Game(variant="4p"))
    with pytest.raises(ValueError, match=r"cannot play 4p"):
        ys.VectorEnv(num_envs=2, variant="4p", opponents=f"nn:{path}")


def test_nn_is_a_vector_env_and_gymnasium_opponent():
    """``opponents="nn"`` seats the shipped model: in the Gymnasium env every opponent move
    is the move ``Bot("nn")`` makes from the same position (the model is deterministic),
    and the vector env plays whole episodes against it."""
    env = ys.VectorEnv(num_envs=4, variant="seal-short", opponents="nn", seed=2)
    env.reset(seed=2)
    ended = 0
    for _ in range(400):
        actions = env.masks.argmax(1)  # an ended env (NEXT_STEP) has an empty mask
        _, _, term, trunc, _ = env.step(actions)
        ended += int((term | trunc).sum())
    assert ended > 0
    import gymnasium

    genv = gymnasium.make("YokaiSeptet-v0", variant="3p", opponents="nn", max_rounds=1)
    single = genv.unwrapped
    nn = ys.Bot("nn")
    obs, info = genv.reset(seed=1)
    done, moves = False, 0
    while not done:
        mine = int(np.flatnonzero(info["action_mask"])[0])
        expected = single.game.clone()
        expected.step(mine)
        while expected.phase != "over" and expected.current_player != single.learner_seat:
            expected.step(nn.act(expected))
            moves += 1
        obs, _, term, trunc, info = genv.step(mine)
        assert single.game.record() == expected.record()
        done = term or trunc
    assert moves > 10


def test_imitation_data_labels_the_teachers_cards_whatever_the_thread_count():
    args = dict(variant="4p", games=4, seed=3, max_rounds=2)
    one = models.imitation_data(["heuristic", "random"], "heuristic", [0], threads=1, **args)
    two = models.imitation_data(["heuristic", "random"], "heuristic", [0], threads=2, **args)
    for k in one:
        np.testing.assert_array_equal(one[k], two[k])
    n = len(one["labels"])
    assert one["observations"].shape == (n, len(ys.Game(variant="4p").observation()))
    assert one["masks"][np.arange(n), one["labels"]].all()
    np.testing.assert_array_equal(one["labels"], one["played"])  # the teacher's own entry
    np.testing.assert_array_equal(one["labels"], one["heuristic"])  # the teacher is it
    # A student entry plays its own cards; the labels are still the teacher's.
    st = models.imitation_data(["random", "heuristic"], "heuristic", [0], threads=1, **args)
    assert (st["labels"] != st["played"]).any()
    assert st["masks"][np.arange(len(st["labels"])), st["played"]].all()
    with pytest.raises(ValueError, match="labelled entry 5 is out of range"):
        models.imitation_data(["random", "heuristic"], "heuristic", [5], **args)


def test_imitation_data_carries_a_tree_searchs_visits_and_a_pimc_teachers_values():
    """A tree search teacher (``ismcts``, ``ismcts-nn``) reports its share of root visits
    of each card, which sums to one where it searched, and its label is its most visited
    card (the card it plays); ``pimc`` reports values and no visits."""
    args = dict(variant="4p", games=2, seed=5, max_rounds=1, threads=1)
    for teacher in ("ismcts:64", "ismcts-nn:64"):
        d = models.imitation_data(["heuristic", "heuristic"], teacher, [0, 1], **args)
        searched = ~np.isnan(d["visits"]).all(axis=1)
        assert searched.any() and not searched.all()  # passing and forced cards: none
        v = d["visits"][searched]
        np.testing.assert_allclose(np.nansum(v, axis=1), 1.0, rtol=1e-5)
        assert (d["masks"][searched] | np.isnan(v)).all()  # only legal cards have visits
        assert (np.isnan(v) | (v >= 0)).all()
        np.testing.assert_array_equal(np.nanargmax(v, axis=1), d["labels"][searched])
        # Its mean values are there where a card was tried at all.
        tried = np.nan_to_num(v) > 0
        assert not np.isnan(d["values"][searched][tried]).any()
    p = models.imitation_data(["heuristic", "heuristic"], "pimc:20", [0, 1], **args)
    assert np.isnan(p["visits"]).all() and not np.isnan(p["values"]).all()


def test_evaluate_vs_baseline_seats_an_agent_against_the_shipped_model():
    m = models.load("4p")
    # The baseline's own model, in numpy, is the baseline: exactly even on duplicate deals.
    r = models.evaluate_vs_baseline(m, variant="4p", games=20, seed=4)
    assert r["win_rate"] == pytest.approx(0.5) and r["games"] == 20
    # Every duplicate pair splits: each board is a half, with no spread at all.
    assert r["board_win_rate"] == pytest.approx(0.5) and r["board_ci95"] == pytest.approx(
        [0.5, 0.5])
    weak = models.evaluate_vs_baseline("random", variant="4p", games=20, seed=4)
    assert weak["win_rate"] < 0.5 and weak["baseline"] == "nn"


def test_nn_is_listed_and_on_the_ladder():
    assert "nn" in ys.Bot.names() and "nn:PATH" in ys.Bot.names()
    with pytest.raises(ValueError, match="nn:PATH"):
        ys.Bot("neural")


def test_the_shipped_models_record_how_they_were_trained():
    for v in VARIANTS:
        meta = models.load(v).metadata
        assert meta.get("trained_by") == "training/train_baseline.py", (v, meta)
        labels = int(meta["pretrain_labels"]) + int(meta["search_labels"])
        assert labels > 0 and meta["search_teacher"] in ("pimc", "none"), meta
        json.dumps(meta)


def _copy_of_heuristic(variant):
    """An ``observation+heuristic`` model whose logits are its heuristic one-hot."""
    g = ys.Game(variant=variant)
    obs, act = len(g.observation()), len(g.legal_mask())
    w = np.zeros((act, obs + act), np.float32)
    w[:, obs:] = np.eye(act, dtype=np.float32)
    return models.Model(variant, [(w, np.zeros(act, np.float32))], {}, "observation+heuristic")


@pytest.mark.parametrize("variant", ["4p", "seal"])
def test_an_observation_and_heuristic_model_reads_the_heuristics_card(tmp_path, variant):
    m = _copy_of_heuristic(variant)
    path = tmp_path / "copy.safetensors"
    m.save(path)
    back = models.load(path)
    assert back.inputs == "observation+heuristic"
    assert back.layers[0][0].shape[1] == m.layers[0][0].shape[1]
    # In Rust (the arena) and in numpy (Model.act) it plays exactly the heuristic's cards.
    s = ys.arena([f"nn:{path}", "heuristic"], variant=variant, games=10, seed=2, threads=1)
    assert s["entries"][0]["win_rate"] == pytest.approx(0.5)
    g, h = ys.Game(variant=variant, seed=6, max_rounds=1), ys.Bot("heuristic")
    while g.phase != "over":
        a = h.act(g)
        assert back.act(g) == a
        g.step(a)
    # Its logits need the heuristic's cards; the error says how to give them.
    obs = ys.Game(variant=variant).observation()[None, :]
    with pytest.raises(ValueError, match="pass heuristic="):
        back.logits(obs)
    with pytest.raises(ValueError, match=r"heuristic has shape \(2,\), expected \(1,\)"):
        back.logits(obs, heuristic=np.array([0, 1]))
    with pytest.raises(ValueError, match="metadata 'inputs': 'cards'"):
        models.Model(variant, m.layers, {}, "cards").save(tmp_path / "bad.safetensors")
    # An observation-only layer does not fit an observation+heuristic model.
    narrow = models.Model(variant, [(m.layers[0][0][:, :len(obs[0])], m.layers[0][1])], {},
                          "observation+heuristic")
    with pytest.raises(ValueError, match=r"layers\.0\.weight.*observation\+heuristic"):
        narrow.save(tmp_path / "narrow.safetensors")


def test_value_data_is_sparse_rows_of_every_position_whatever_the_threads():
    one = models.value_data("heuristic", variant="3p", games=3, seed=4, max_rounds=1, threads=1)
    two = models.value_data("heuristic", variant="3p", games=3, seed=4, max_rounds=1, threads=2)
    assert one.keys() == two.keys()
    for k in one:
        assert np.array_equal(one[k], two[k]), k
    rows = len(one["hand_len"])
    assert rows > 0 and one["targets"].shape == one["playout"].shape == (rows, 3)
    starts = one["row_starts"]
    assert starts[0] == 0 and starts[-1] == len(one["columns"]) == len(one["values"])
    assert (np.diff(starts.astype(np.int64)) > 0).all()
    assert one["columns"].max() < one["input_size"]
    with pytest.raises(ys.InvalidValueError, match="records every game"):
        models.value_data(["heuristic", "random"], variant="3p", games=3, sequential=True)

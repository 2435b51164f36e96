"""What training reads from the env instead of restating a rule (issue 74): which envs'
rounds a step ended and each side's margin in them (``infos["round_end"]``,
``infos["round_margin"]``), the sides (``num_sides``, ``side_of``), the game's target, the
variant and player count, on ``Game`` and ``VectorEnv``; and ``VectorEnv.game(i)``, a copy
of an env's true state for training-time analysis."""

import numpy as np
import pytest

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]
TARGETS = {("4p", "advanced"): 7, ("4p", "basic"): 2, ("3p", "advanced"): 7,
           ("3p", "basic"): 2, ("seal", "advanced"): 7, ("seal-short", "advanced"): 4}


@pytest.mark.parametrize("variant,scoring", sorted(TARGETS))
def test_r8_r9_the_target_is_the_points_or_seals_that_win_the_game(variant, scoring):
    g = ys.Game(variant, scoring, seed=1)
    v = ys.VectorEnv(2, variant, scoring, seed=1)
    assert g.target == v.target == TARGETS[variant, scoring]


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_sides_players_and_variant_on_game_and_vector_env(variant):
    g = ys.Game(variant, seed=0)
    v = ys.VectorEnv(2, variant, seed=0)
    teams = variant != "3p"
    assert v.variant == g.variant == variant
    assert v.num_players == g.num_players == (4 if teams else 3)
    assert v.num_sides == g.num_sides == (2 if teams else 3)
    for seat in range(g.num_players):
        assert v.side_of(seat) == g.side_of(seat) == (seat % 2 if teams else seat)
    for bad in (-1, g.num_players, 2**64):
        with pytest.raises(ys.InvalidValueError, match=f"seat {bad} is out of range"):
            g.side_of(bad)
        with pytest.raises(ys.InvalidValueError, match=f"seat {bad} is out of range"):
            v.side_of(bad)
    with pytest.raises(ys.InvalidTypeError):
        v.side_of(1.0)


def _margins(game: ys.Game, before: list) -> np.ndarray:
    """Each side's margin from the scores' change over a round, computed here: the side's
    points minus the other sides' average."""
    gained = [game.scores[next(p for p in range(game.num_players) if game.side_of(p) == s)]
              - before[s] for s in range(game.num_sides)]
    n = game.num_sides
    return np.array([gained[s] - (sum(gained) - gained[s]) / (n - 1) for s in range(n)])


@pytest.mark.parametrize("variant", VARIANTS)
def test_r8_a_step_flags_the_rounds_it_ended_with_the_margins_of_a_game_replaying_it(variant):
    # Env 0 replayed move by move in a Game dealt from its seed: the env flags exactly the
    # steps at which the Game's round ends, with the margins of the Game's scores.
    v = ys.VectorEnv(4, variant, seed=11, self_play=True, reward_mode="points",
                     max_rounds=3, autoreset_mode="same_step", opponents="heuristic")
    obs, info = v.reset(seed=11)
    game = ys.Game(variant, seed=v.game_seed(0), max_rounds=3)
    side_points = lambda: [game.scores[next(p for p in range(game.num_players)  # noqa: E731
                                            if game.side_of(p) == s)]
                           for s in range(game.num_sides)]
    before, ends = side_points(), 0
    assert game.round_margin is None
    for _ in range(400):
        a = v.bot_actions()
        start = game.round
        game.step(int(a[0]))
        obs, r, term, trunc, info = v.step(a)
        ended = game.round != start or game.is_over
        assert info["round_end"][0] == ended
        assert info["round_margin"].shape == (4, game.num_sides)
        if ended:
            ends += 1
            expected = _margins(game, before)
            np.testing.assert_allclose(info["round_margin"][0], expected)
            np.testing.assert_allclose(game.round_margin, expected)
            # The points rewards are each seat's side's margin.
            for p in range(game.num_players):
                assert r[0, p] == info["round_margin"][0, v.side_of(p)]
            before = side_points()
        else:
            assert not info["round_margin"][0].any()
        if game.is_over:
            game = ys.Game(variant, seed=v.game_seed(0), max_rounds=3)
            before = side_points()
    assert ends >= 4
    # Margins sum to 0 over the sides, on every row.
    assert abs(info["round_margin"].sum(axis=1)).max() < 1e-5


def test_round_end_reaches_learner_modes_and_async_batches():
    v = ys.VectorEnv(8, "4p", seed=2, learner_team=1, reward_mode="points",
                     opponents="heuristic", batch_size=4)
    v.async_reset(seed=2)
    seen = 0
    for _ in range(200):
        obs, r, term, trunc, info = v.recv()
        ended = info["round_end"]
        seen += int(ended.sum())
        r = np.asarray(r).reshape(len(ended), -1)[:, 0]
        np.testing.assert_array_equal(r[ended], info["round_margin"][ended, 1])
        assert not r[~ended].any()
        v.send(info["action_mask"].argmax(1), info["env_id"])
    assert seen > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_of_an_env_is_a_copy_of_its_true_state(variant):
    v = ys.VectorEnv(3, variant, seed=4, self_play=True, state_tensor=True,
                     obs_dtype="float32")
    obs, info = v.reset(seed=4)
    for _ in range(17):
        obs, _, _, _, info = v.step(v.bot_actions())
    g = v.game(2)
    np.testing.assert_array_equal(g.state_tensor(), info["state"][2])
    np.testing.assert_array_equal(g.observation(), obs[2])
    assert g.current_player == info["to_play"][2]
    # Stepping the copy leaves the env alone.
    g.step(g.legal_actions()[0])
    np.testing.assert_array_equal(v.states[2], info["state"][2])
    with pytest.raises(ys.InvalidValueError, match="env 3 is out of range"):
        v.game(3)


def _played_out(game: ys.Game, card: int, bot: ys.Bot, side: int) -> float:
    """The side's round margin when ``card`` is played, then ``bot`` plays every seat to
    the round's end: written here with a Game, independently of the env's Rust loop."""
    g = game.clone()
    start = g.round
    g.step(card)
    while g.round == start and not g.is_over:
        g.step(bot.act(g))
    return g.round_margin[side]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bot", ["heuristic", "nn"])
def test_playout_values_play_each_legal_card_then_the_bot_to_the_rounds_end(variant, bot):
    v = ys.VectorEnv(4, variant, seed=6, self_play=True, opponents="heuristic")
    obs, info = v.reset(seed=6)
    for t in range(9):
        obs, _, _, _, info = v.step(v.bot_actions())
    q = v.playout_values(bot, env_ids=[3, 1])
    assert q.shape == (2, v.single_action_space.n) and q.dtype == np.float32
    for row, i in zip(q, [3, 1]):
        g = v.game(i)
        legal = g.legal_actions()
        assert np.isnan(np.delete(row, legal)).all()
        side = g.side_of(g.current_player)
        for card in legal:
            assert row[card] == _played_out(g, card, ys.Bot(bot), side), (i, card)
    # Nothing in the envs changed, and the same call gives the same values.
    np.testing.assert_array_equal(v.playout_values(bot, env_ids=[3, 1]), q)
    np.testing.assert_array_equal(v.playout_values(bot)[[3, 1]], q)


def test_playout_values_refuse_bad_ids_and_names_and_change_nothing():
    v = ys.VectorEnv(3, "4p", seed=1, self_play=True)
    v.reset(seed=1)
    obs = v.observations.copy()
    with pytest.raises(ys.InvalidValueError, match="holds env id 3, out of range: envs are 0..2"):
        v.playout_values("heuristic", env_ids=[0, 3])
    with pytest.raises(ys.InvalidTypeError, match="0.5 is a float"):
        v.playout_values("heuristic", env_ids=[0.5])
    with pytest.raises(ys.InvalidTypeError, match="env_ids must be a sequence"):
        v.playout_values("heuristic", env_ids=7)
    with pytest.raises(ys.InvalidValueError, match="unknown bot"):
        v.playout_values("heuristik")
    np.testing.assert_array_equal(v.observations, obs)

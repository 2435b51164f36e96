"""The privileged state tensor from Python: Game.state_tensor(), PettingZoo env.state()
with env.state_space, and VectorEnv(state_tensor=True)'s infos["state"], all the same
tensor (its no-leak complement is tested in Rust: crates/yokai-septet/tests/state_tensor.rs)."""

import numpy as np
import pytest

import yokai_septet as ys

VARIANTS = ["4p", "3p", "seal", "seal-short"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_game_state_tensor_shows_every_hand_and_seat_0s_observation(variant):
    g = ys.Game(variant, seed=3)
    rng = np.random.default_rng(0)
    lay = {f["name"]: f for f in g.state_layout()}
    d = lay["hands"]["len"] // g.num_players
    for _ in range(60):
        t = g.state_tensor()
        assert t.shape == (g.state_size,) and t.dtype == np.float32
        assert np.array_equal(g.state_tensor("uint8"), t.astype(np.uint8))
        obs0 = t[lay["seat0_observation"]["offset"]:]
        assert np.array_equal(obs0, g.observation(0))
        hands = t[: lay["hands"]["len"]].reshape(g.num_players, d)
        if g.phase == "play":
            seat = g.current_player
            assert set(np.flatnonzero(hands[seat])) >= set(g.legal_actions())
        g.step(int(rng.choice(g.legal_actions())))
    with pytest.raises(ValueError, match="dtype"):
        g.state_tensor("int64")


def test_pettingzoo_state_is_the_game_state_tensor():
    env = ys.env(variant="3p")
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    for agent in env.agent_iter(200):
        s = env.state()
        assert env.state_space.contains(s)
        assert np.array_equal(s, env.unwrapped.game.state_tensor())
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("obs_dtype", ["float32", "uint8"])
def test_vector_env_state_buffer_matches_replayed_games(obs_dtype):
    v = ys.VectorEnv(4, "seal", seed=2, self_play=True, state_tensor=True, obs_dtype=obs_dtype,
                     autoreset_mode="same_step")
    obs, info = v.reset()
    assert v.single_state_space.shape == info["state"].shape[1:]
    games = [ys.Game("seal", seed=v.game_seed(i)) for i in range(4)]
    rng = np.random.default_rng(2)
    for _ in range(200):
        for i, g in enumerate(games):
            assert np.array_equal(info["state"][i], g.state_tensor(obs_dtype))
        acts = np.array([int(rng.choice(g.legal_actions())) for g in games])
        obs, r, te, tr, info = v.step(acts)
        for i, g in enumerate(games):
            g.step(int(acts[i]))
            if g.phase == "over":
                games[i] = ys.Game("seal", seed=v.game_seed(i))
    assert ys.VectorEnv(2).states is None

"""``python_yokai_septet`` in OpenSpiel, tested with OpenSpiel itself: its conformance
check (``random_sim_test``), ``evaluate_bots``, serialization, the observer API, and its
Python IS-MCTS bot on the engine's determinization sampler."""

import numpy as np
import pytest

# open-spiel publishes wheels for Python >= 3.11 only; the test extra installs it there.
pyspiel = pytest.importorskip("pyspiel")

import yokai_septet as ys  # noqa: E402
import yokai_septet.openspiel  # noqa: E402,F401  (registers the game)

VARIANTS = ["4p", "3p", "seal", "seal-short"]


def load(variant="4p", **params):
    return pyspiel.load_game("python_yokai_septet", {"variant": variant, **params})


def deal_outcomes(game):
    """The chance outcomes that deal each round of the seeded engine game ``game``."""
    out = []
    for r in game.record()["rounds"]:
        out.append([c for h in r["hands"] for c in h] + (
            [r["trump_card"]] if r["trump_card"] is not None else []))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_conformance_random_sim_test(variant):
    pyspiel.random_sim_test(load(variant, max_rounds=4), num_sims=3, serialize=True,
                            verbose=False)


def test_openspiel_conformance_with_default_parameters():
    game = pyspiel.load_game("python_yokai_septet")
    assert game.get_parameters() == {"variant": "4p", "scoring": "advanced", "max_rounds": 100}
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_type_and_info():
    g4, g3 = load("4p"), load("3p", scoring="basic")
    assert g4.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert g3.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert g4.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (g4.num_players(), g4.num_distinct_actions(), g4.max_chance_outcomes()) == (4, 49, 49)
    assert (g3.num_players(), load("seal").num_distinct_actions()) == (3, 56)
    assert g4.max_game_length() == 100 * 4 * (3 + 12)
    with pytest.raises(ValueError, match="variant"):
        load("5p")
    with pytest.raises(ValueError, match="max_rounds"):
        load(max_rounds=0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_round_is_dealt_by_chance_nodes_one_card_each(variant):
    engine = ys.Game(variant, seed=7, max_rounds=3)
    state = load(variant, max_rounds=3).new_initial_state()
    rng = np.random.default_rng(0)
    while not engine.is_over:
        for card in deal_outcomes(engine)[engine.round]:
            assert state.is_chance_node()
            outcomes = state.chance_outcomes()
            assert card in dict(outcomes)
            assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
            state.apply_action(card)
        # The position is the engine's, seat for seat, until the round ends.
        rnd = engine.round
        while not engine.is_over and engine.round == rnd:
            assert not state.is_chance_node()
            assert state.current_player() == engine.current_player
            assert state.legal_actions() == engine.legal_actions()
            for p in range(engine.num_players):
                assert np.array_equal(state.observation_tensor(p), engine.observation(p))
                assert np.array_equal(state.information_state_tensor(p), engine.observation(p))
            a = int(rng.choice(engine.legal_actions()))
            engine.step(a)
            state.apply_action(a)
    assert state.is_terminal()
    winners = engine.winners
    assert state.returns() == [
        (1.0 if p in winners else -1.0) if winners else 0.0 for p in range(engine.num_players)
    ]


def random_state(game, moves, seed=0):
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
        else:
            outcomes = state.legal_actions()
        state.apply_action(int(rng.choice(outcomes)))
    return state


@pytest.mark.parametrize("moves", [0, 20, 49, 49 + 30, 400])
def test_serialization_round_trips_mid_deal_and_mid_round(moves):
    game = load("4p", max_rounds=5)
    state = random_state(game, moves)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    for p in range(4):
        assert state2.information_state_string(p) == state.information_state_string(p)
        assert state2.observation_string(p) == state.observation_string(p)
    # And it plays on identically.
    if not state.is_terminal():
        a = (state.chance_outcomes() if state.is_chance_node() else
             [(x, 0) for x in state.legal_actions()])[0][0]
        state.apply_action(a)
        state2.apply_action(a)
        assert str(state2) == str(state)


def test_observer_api_writes_the_engines_vector_into_openspiels_buffers():
    from open_spiel.python.observation import make_observation

    game = load("3p")
    state = random_state(game, 49 + 10)
    engine_layout = ys.Game("3p").layout()
    for perfect_recall in (False, True):
        obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=perfect_recall))
        assert list(obs.dict) == [f["name"] for f in engine_layout]
        p = state.current_player()
        obs.set_from(state, p)
        assert np.array_equal(obs.tensor, state._game.observation(p))
        assert obs.string_from(state, p) == (
            state.information_state_string(p) if perfect_recall else state.observation_string(p)
        )
    with pytest.raises(ValueError, match="IIGObservationType"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True,
            private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_information_state_string_hides_other_hands_and_is_perfect_recall():
    game = load("4p")
    state = random_state(game, 49 + 14)
    p = state.current_player()
    mine = state.information_state_string(p)
    other = state.information_state_string((p + 1) % 4)
    assert mine != other
    hidden = set(state._game.hand((p + 1) % 4))
    names = set(mine.split())
    assert not {ys.Game.card_name(c) for c in hidden} & names - {
        ys.Game.card_name(c) for c in state._game.hand(p)}
    # Perfect recall: every earlier string of p is a prefix of the later ones.
    before = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(p).startswith(before.information_state_string(p))


@pytest.mark.parametrize("variant", VARIANTS)
def test_resample_from_infostate_uses_the_engine_sampler(variant):
    game = load(variant, max_rounds=2)
    state = random_state(game, game.max_chance_outcomes() + 25, seed=3)
    p = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = set()
    for _ in range(10):
        r = state.resample_from_infostate(p, sampler)
        assert r.information_state_string(p) == state.information_state_string(p)
        assert np.array_equal(r.information_state_tensor(p), state.information_state_tensor(p))
        assert r.legal_actions() == state.legal_actions()
        seen.add(tuple(tuple(r._game.hand(q)) for q in range(game.num_players()) if q != p))
        while not r.is_terminal():  # it plays on to the end
            r.apply_action((r.chance_outcomes()[0][0] if r.is_chance_node()
                            else r.legal_actions()[-1]))
    assert len(seen) > 1


def test_evaluate_bots_runs():
    game = load("4p", max_rounds=2)
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(4)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    assert len(returns) == 4 and set(returns) <= {-1.0, 0.0, 1.0}
    assert sum(returns) == 0


def test_ismcts_bot_with_the_rust_resampler_plays_whole_games():
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("4p", max_rounds=1)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    resampled = []

    class CountingISMCTS(ismcts.ISMCTSBot):
        def resample_from_infostate(self, state):
            resampled.append(1)
            return super().resample_from_infostate(state)

    search = [CountingISMCTS(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=8,
                             random_state=np.random.RandomState(p)) for p in range(2)]
    rand = [pyspiel.make_uniform_random_bot(p, p) for p in (1, 3)]
    for seed in range(2):
        returns = pyspiel.evaluate_bots(game.new_initial_state(),
                                        [search[0], rand[0], search[1], rand[1]], seed)
        assert len(returns) == 4 and returns[0] == returns[2] and sum(returns) == 0
    assert resampled

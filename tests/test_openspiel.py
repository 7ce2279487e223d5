"""Samurai as an OpenSpiel Python game (samurai.interop.openspiel, registered as "knizia").

OpenSpiel's own random simulation test passes; one of OpenSpiel's bots plays games to the end;
what a seat observes is its view and nothing more.
"""

from __future__ import annotations

import json

import pyspiel
import pytest

import samurai.interop.openspiel  # noqa: F401  (registers knizia)
from samurai_plugins.knizia.adapters.encoding import SHORT_NAME
from samurai_plugins.knizia.engine import reference as engine


@pytest.mark.parametrize("edition,players", [("ffg2015", 2), ("original", 3)])
def test_openspiel_random_simulation_test_passes(edition, players):
    game = pyspiel.load_game(SHORT_NAME, {"edition": edition, "players": players, "seed": 5})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("players", [2, 4])
def test_openspiels_uniform_random_bot_plays_to_the_end(players):
    game = pyspiel.load_game(SHORT_NAME, {"edition": "ffg2015", "players": players, "seed": 9})
    bots = [pyspiel.make_uniform_random_bot(seat, 100 + seat) for seat in range(players)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0) and max(returns) > 0


def test_the_same_seed_and_actions_give_the_same_game():
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "seed": 4})
    first, second = game.new_initial_state(), game.new_initial_state()
    while not first.is_terminal():
        action = first.legal_actions()[len(first.history()) % len(first.legal_actions())]
        first.apply_action(action)
        second.apply_action(action)
    assert second.is_terminal() and first.returns() == second.returns()
    assert first.position.state.fingerprint() == second.position.state.fingerprint()


def test_a_seat_observes_its_view_and_not_the_others_hands():
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "seed": 1})
    state = game.new_initial_state()
    for _ in range(7):  # seat 0 chooses its five starting tiles, seat 1 two of its own
        state.apply_action(state.legal_actions()[-1])
    view = json.loads(state.observation_string(0))
    assert view == state.position.view(0) and "unchosen" in view
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    # Each seat sees which tiles it chose itself, and only that the other seat chose one.
    assert f"0:[{engine.CHOOSE}, " in mine and "1:choose" in mine and f"1:[{engine.CHOOSE}, " not in mine
    assert f"1:[{engine.CHOOSE}, " in theirs and "0:choose" in theirs and f"0:[{engine.CHOOSE}, " not in theirs


def test_an_illegal_action_is_refused():
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "seed": 1})
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(illegal)


def test_resampling_from_an_information_state_is_the_engines_determinize():
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "seed": 6})
    state = game.new_initial_state()
    bots = [pyspiel.make_uniform_random_bot(seat, 10 + seat) for seat in range(3)]
    for _ in range(60):
        state.apply_action(bots[state.current_player()].step(state))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = False
    for _ in range(10):
        sampled = state.resample_from_infostate(0, sampler)
        assert sampled.information_state_string(0) == state.information_state_string(0)
        assert sampled.observation_string(0) == state.observation_string(0)
        assert sorted(sampled.legal_actions()) == sorted(state.legal_actions()) or state.current_player() != 0
        differed |= sampled.position.state.hands[1] != state.position.state.hands[1]
    assert differed  # what seat 0 cannot see is drawn anew


def test_openspiels_ismcts_bot_plays_samurai_to_the_end():
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(SHORT_NAME, {"edition": "original", "players": 2, "seed": 3})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=1.4, max_simulations=4, random_state=np.random.RandomState(2))
    opponent = pyspiel.make_uniform_random_bot(1, 5)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action((searcher if state.current_player() == 0 else opponent).step(state))
    assert sum(state.returns()) == pytest.approx(1.0)

"""The cheap estimate the MCTS bot scores its leaves with (samurai_plugins.knizia.engine.evaluation)."""

from __future__ import annotations

import random

import pytest

from samurai_plugins.knizia.adapters.game_state import start
from samurai_plugins.knizia.core.state import PLAY
from samurai_plugins.knizia.engine.evaluation import estimate_returns

# About the Python engine's own lists and paths (the native engine is pinned to it in test_native_engine.py).
pytestmark = pytest.mark.usefixtures("python_engine")


def _in_play(players: int, seed: int):
    state = start("ffg2015", players, seed=seed)
    rng = random.Random(seed)
    while state.state.phase != PLAY:
        state.apply(state.sample_action(rng))
    return state


def test_captured_figures_put_a_seat_ahead():
    state = _in_play(3, 1)
    before = estimate_returns(state.rules, state.state)
    state.state.captured[3:6] = [2, 2, 2]  # seat 1 has captured two of each caste
    after = estimate_returns(state.rules, state.state)
    assert after[1] > before[1] and after[1] == max(after)


def test_each_strong_tile_of_a_seat_next_to_figures_raises_its_estimate():
    state = _in_play(2, 3)
    rules, st = state.rules, state.state
    board = rules.board
    settlement = next(s for s, mask in enumerate(st.figures) if mask)
    hexes = [h for h in rules.settlement_neighbours[settlement] if h in board.land_hexes and st.tile_owner[h] < 0]
    strong = max(range(len(rules.tile_types)), key=lambda t: sum(rules.tile_value[t * 3:t * 3 + 3]))
    base = estimate_returns(rules, st)[0]
    gains = []
    for h in hexes[:-1]:  # seat 0's strong tiles one by one around the settlement, all but the last hex
        st.tile_owner[h], st.tile_type[h] = 0, strong
        st.empty_around[settlement] -= 1
        now = estimate_returns(rules, st)[0]
        gains.append(now - base)
        base = now
    assert all(gain > 0 for gain in gains)


def test_a_lead_in_an_open_settlement_counts_for_less_the_more_opponents_may_answer():
    from samurai_plugins.knizia.engine.evaluation import _SLOPES, INFLUENCE_SHARPNESS, OPPONENT_DAMPING

    for empty in range(1, 65):
        assert _SLOPES[2][empty - 1] > _SLOPES[3][empty - 1] > _SLOPES[4][empty - 1] > 0
    assert _SLOPES[2][0] == INFLUENCE_SHARPNESS  # two players: the slope the 2-player levels were measured with
    assert _SLOPES[4][0] == INFLUENCE_SHARPNESS * (1 - 2 * OPPONENT_DAMPING)
    assert _SLOPES[2][2] == INFLUENCE_SHARPNESS / 2  # halved with every two more empty hexes


def _one_capture_ahead(players: int):
    """A position with nothing left on the board in which seat 0 has captured one figure and nobody else any."""
    state = _in_play(players, 5)
    st = state.state
    st.figures[:] = [0] * len(st.figures)
    st.captured[:] = [0] * (3 * players)
    st.captured[0] = 1
    return state.rules, st


def test_with_4_or_more_players_a_lead_turns_more_sharply_into_winning(monkeypatch):
    from samurai_plugins.knizia.engine import evaluation

    assert evaluation.CROWDED_WIN_SHARPNESS > evaluation.WIN_SHARPNESS
    four = estimate_returns(*_one_capture_ahead(4))
    two = estimate_returns(*_one_capture_ahead(2))
    three = estimate_returns(*_one_capture_ahead(3))
    monkeypatch.setattr(evaluation, "CROWDED_WIN_SHARPNESS", evaluation.WIN_SHARPNESS)
    four_flat = estimate_returns(*_one_capture_ahead(4))
    assert four[0] > four_flat[0] and four[1] < four_flat[1]  # the leader's edge is larger with the sharper slope
    assert estimate_returns(*_one_capture_ahead(2)) == two  # two and three players keep theirs
    assert estimate_returns(*_one_capture_ahead(3)) == three

"""The game protocol (samurai.protocol) as Knizia's Samurai implements it
(samurai_plugins.knizia.adapters.game_state)."""

from __future__ import annotations

import random

import pytest

import samurai
from samurai.protocol import GameState, Knowledge
from samurai_plugins.knizia.adapters.game_state import HexGameState, start
from samurai_plugins.knizia.engine import reference as engine

from helpers import TINY_EDITION


def test_a_random_game_through_the_protocol_ends_with_returns_summing_to_one() -> None:
    rng = random.Random(3)
    for players in (2, 3, 4):
        state = start("ffg2015", players, seed=players)
        while not state.is_over:
            seat = state.to_act
            assert seat is not None and 0 <= seat < players
            action = state.sample_action(rng)
            assert state.check(action) is None
            before = state.move_number
            state.apply(action)
            assert state.move_number == before + 1
        assert state.to_act is None and state.legal_actions() == []
        assert sum(state.returns()) == pytest.approx(1.0)
        assert all(r in (0.0, 1.0) or 0 < r < 1 for r in state.returns())


EACH_CASTE = {"castle": 1, "buddha": 1, "rice": 1}
SHARED_WIN = {"players": 2, "to_act": 1, "turn": 5,
              "figures": {"Kita": ["castle"], "Higashi": ["buddha"], "Nishi": ["rice"]},
              "tiles": [{"at": [2, 1], "tile": "samurai-1", "owner": 0}],
              "seats": [{"hand": ["samurai-1", "samurai-2", "ronin", "ship-2", "move"], "captured": EACH_CASTE}] * 2}
"""Tiny map: both seats have captured one figure of each caste, and Kita holds the last castle one."""


def test_returns_split_a_shared_win_and_are_zero_before_the_end() -> None:
    state = HexGameState.of_game(samurai.new_game(TINY_EDITION, seed=1, scenario=SHARED_WIN))
    assert state.returns() == (0.0, 0.0)
    # Seat 1 closes Kita 1 against 1: the tie removes the last castle figure, the game ends, and the seats tie.
    for wanted in ({"action": "PlaceTile", "tile": "samurai-1", "at": [2, 2]}, {"action": "EndTurn"}):
        state.apply(next(action for action in state.legal_actions() if state.describe(action) == wanted))
    assert state.is_over and state.view(0)["result"]["winners"] == [0, 1]
    assert state.returns() == (0.5, 0.5)


def test_copy_continues_exactly_as_the_original() -> None:
    state = start("original", 3, seed=5)
    rng = random.Random(0)
    for _ in range(30):
        state.apply(state.sample_action(rng))
    twin = state.copy()
    a, b = random.Random(9), random.Random(9)
    while not state.is_over:
        state.apply(state.sample_action(a))
        twin.apply(twin.sample_action(b))
    assert state.state.fingerprint() == twin.state.fingerprint()
    assert state.returns() == twin.returns()


def test_check_refuses_what_is_not_legal_without_changing_the_position() -> None:
    state = start("ffg2015", 2, seed=2)
    before = state.state.fingerprint()
    for bad in [(), (engine.END,), (99, 1, 2), (engine.PLACE, 0), ("x",), [engine.END], (True,), (engine.CHOOSE, -50)]:
        assert state.check(bad) is not None  # type: ignore[arg-type]
    assert state.state.fingerprint() == before and state.move_number == 0


def test_describe_and_view_are_json_ready() -> None:
    import json
    state = HexGameState.of_game(samurai.new_game("ffg2015", players=2, seed=4))
    action = state.legal_actions()[0]
    assert state.describe(action) == {"action": "ChooseTile", "tile": state.rules.tile_name(action[1])}
    json.dumps(state.view(0))


def test_the_position_of_a_game_is_a_copy() -> None:
    game = samurai.new_game("ffg2015", players=2, seed=4)
    state = HexGameState.of_game(game)
    state.apply(state.legal_actions()[0])
    assert game.history == () and state.move_number == 1


def test_start_refuses_a_negative_seed() -> None:
    with pytest.raises(samurai.DataError, match="seed"):
        start("ffg2015", 2, seed=-3)


def test_the_protocol_is_what_hexgame_offers() -> None:
    members = [m for m in dir(GameState) if not m.startswith("_")]
    missing = [m for m in members if not hasattr(HexGameState, m)]
    assert missing == []
    state = start("ffg2015", 2, seed=1)
    assert isinstance(state, GameState)
    assert isinstance(state.knowledge(0), Knowledge)


def test_ask_hands_the_bot_the_same_knowledge_as_knowledge_does():
    from samurai_plugins.knizia.adapters.search_bots import make_bot

    state = start("original", 3, seed=6)
    rng = random.Random(1)
    for _ in range(60):
        state.apply(state.sample_action(rng))
    seat = state.to_act
    for name in ("random", "greedy", "mcts:10"):
        assert state.ask(make_bot(name, 4)) == make_bot(name, 4).act(state.knowledge(seat))


def test_evaluate_estimates_returns_summing_to_one_and_is_the_returns_at_the_end():
    state = start("ffg2015", 4, seed=2)
    rng = random.Random(2)
    while not state.is_over:
        estimate = state.evaluate()
        assert len(estimate) == 4 and sum(estimate) == pytest.approx(1.0) and min(estimate) > 0
        state.apply(state.sample_action(rng))
    assert state.evaluate() == state.returns()

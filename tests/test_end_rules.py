"""The end of the game (RULES.md "End (all editions)"; seed 000 §7).

The ruling "it also ends when no player can play a tile", and "a player who
cannot play passes", are set up by emptying hands and stacks directly: no
short sequence of legal moves reaches them on a real board.
"""

from __future__ import annotations

import random

import pytest

from samurai import EndTurn, PlaceTile
from samurai.knizia import engine
from samurai.knizia.state import OVER

from helpers import setup_tiny


def test_a_player_who_cannot_play_passes(tiny):
    game = setup_tiny(tiny, players=3)
    game.state.hands[1].clear()
    game.state.stacks[1].clear()
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert game.current_player == 2  # seat 1 had nothing to play and passed
    assert {"event": "pass", "seat": 1} in game.events()


def test_a_player_holding_only_ships_with_no_empty_sea_passes(tiny):
    game = setup_tiny(tiny)
    st = game.state
    ship = game.rules.tile_index["ship-1"]
    st.hands[1][:] = [ship, ship]
    st.stacks[1].clear()
    for h in list(st.empty_sea):
        engine.put_tile(game.rules, st, 0, ship, h)
    assert not engine.can_play(game.rules, st, 1)
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert game.current_player == 0


def test_the_game_ends_when_no_player_can_play(tiny):
    game = setup_tiny(tiny)
    game.apply(PlaceTile("ronin", (4, 2)))
    for seat in range(2):
        game.state.stacks[seat].clear()
    game.state.hands[0].clear()
    game.state.hands[1].clear()
    game.apply(EndTurn())
    assert game.is_over
    assert game.result.end_reason == "no_tiles"


def _random_game_checking_each_turn(rules, seed):
    """Play a random game; after every action check the FFG end rule held at that moment."""
    st = engine.new_state(rules, seed)
    rng = random.Random(seed)
    while st.phase != OVER:
        action = engine.sample_action(rules, st, rng)
        engine.apply(rules, st, action)
        if st.phase != OVER and action[0] != engine.END:
            continue  # FFG: nothing ends mid-turn
        if st.phase != engine.PLAY and st.phase != OVER:
            continue
        exhausted = min(st.on_board) == 0
        ties = st.removed_total >= rules.removed_limit
        nobody = not any(engine.can_play(rules, st, seat) for seat in range(rules.players))
        if st.phase == OVER:
            expected = ("caste_exhausted" if exhausted else "removed_by_ties" if ties else "no_tiles")
            assert st.end_reason == expected
            if expected == "no_tiles":
                assert nobody
            return st
        assert not exhausted and not ties and not nobody
    raise AssertionError("unreachable")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_exactly_when_a_caste_runs_out_or_the_fourth_tie_falls(ffg, players):
    rules = ffg.rules(players)
    reasons = {_random_game_checking_each_turn(rules, seed).end_reason for seed in range(60)}
    assert {"caste_exhausted", "removed_by_ties"} <= reasons


def test_caste_exhausted_counts_captured_and_removed_figures_alike(ffg):
    rules = ffg.rules(2)
    for seed in range(200):
        st = _random_game_checking_each_turn(rules, seed)
        if st.end_reason == "caste_exhausted":
            caste = st.on_board.index(0)
            taken = sum(st.captured[s * 3 + caste] for s in range(2)) + st.removed[caste]
            assert taken == rules.figures_per_caste
            return
    raise AssertionError("no game ended by an exhausted caste in 200 seeds")

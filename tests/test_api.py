"""The embedding API (issue "A complete, rules-exact game", point 6) and player views."""

from __future__ import annotations

import json

import pytest

import samurai
from samurai import EndTurn, PlaceTile

from helpers import KITA_LAND, capture_kita, setup_tiny


def test_the_public_api_is_exported():
    for name in samurai.__all__:
        assert hasattr(samurai, name), name
    assert issubclass(samurai.IllegalAction, ValueError)


def test_a_game_in_a_few_lines():
    game = samurai.new_game("ffg2015", players=3, seed=7)
    assert game.current_player == 0 and not game.is_over
    with pytest.raises(samurai.SamuraiError, match="not over"):  # a result only once over: typed as never None
        game.result  # noqa: B018
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(samurai.SamuraiError, match="the game is over"):
        game.current_player  # noqa: B018
    assert set(game.result.to_dict()) == {"winners", "reason", "explanation", "end_reason"}


def test_actions_are_hashable_comparable_and_json_ready(ffg):
    game = samurai.new_game(ffg, players=2, seed=1)
    actions = game.legal_actions()
    assert len(set(actions)) == len(actions)
    assert sorted(actions) == actions
    assert samurai.PlaceTile("castle-2", [3, 4]) == samurai.PlaceTile("castle-2", (3, 4))
    assert json.loads(json.dumps(actions[0].to_dict())) == {"action": "ChooseTile", "tile": actions[0].tile}


def test_new_game_takes_options_and_a_map(ffg):
    game = samurai.new_game("ffg2015", players=2, seed=7, options={"first_player": 1}, map="japan")
    assert game.current_player == 1
    with pytest.raises(samurai.DataError, match="no map named 'mars'"):
        samurai.new_game("ffg2015", players=2, map="mars")
    with pytest.raises(samurai.DataError, match="seed must be a whole number"):
        samurai.new_game(ffg, players=2, seed="seven")


def test_views_are_json_ready_and_show_only_what_the_seat_may_know(tiny):
    game = setup_tiny(tiny, hands={0: ("castle-4", "samurai-1", "ship-2", "ronin", "move"),
                                   1: ("buddha-4", "rice-4", "ship-1", "ronin", "switch")})
    game.apply(PlaceTile("castle-4", KITA_LAND[0]))
    game.apply(EndTurn())
    view = game.view(0)
    assert json.loads(json.dumps(view)) == view
    assert "buddha-4" not in json.dumps(view)  # seat 1's hand stays hidden
    assert view["seats"][1] == {"seat": 1, "hand_size": 5, "stack_size": 15}
    own = game.view(1)
    assert sorted(own["hand"]) == sorted(["buddha-4", "rice-4", "ship-1", "ronin", "switch"])
    assert "castle-4" in json.dumps(own)  # tiles on the board are public
    assert "rng" not in json.dumps(own) and "stacks" not in own


def test_two_games_that_differ_only_in_a_hidden_hand_look_the_same_to_the_other_seat(tiny):
    a = setup_tiny(tiny, hands={0: ("castle-4", "samurai-1", "ship-2", "ronin", "move")})
    b = setup_tiny(tiny, hands={0: ("castle-3", "samurai-2", "ship-1", "ronin", "switch")})
    assert a.view(1) == b.view(1)
    assert a.view(0) != b.view(0)


def test_view_refuses_a_seat_that_is_not_in_the_game(ffg):
    game = samurai.new_game(ffg, players=2)
    with pytest.raises(ValueError, match="seat must be"):
        game.view(2)


def test_a_copy_is_independent(ffg):
    game = samurai.new_game(ffg, players=2, seed=2)
    copy = game.copy()
    copy.apply(copy.legal_actions()[0])
    assert game.history == () and len(copy.history) == 1


def test_events_tell_captures_refills_and_the_end_in_words(tiny):
    game = capture_kita(tiny)
    events = game.events()
    assert {"event": "refill", "seat": 0, "drawn": 1} in events
    assert {"event": "capture", "settlement": "Kita", "at": [1, 1], "caste": "castle", "seat": 0,
            "influence": [4, 1]} in events
    assert json.loads(json.dumps(events)) == events


@pytest.mark.parametrize("at", [(1.5, 2), "ab", (1, 2, 3), (True, 2)])
def test_a_hex_must_be_two_whole_numbers(at):
    with pytest.raises(ValueError, match="a hex is"):
        PlaceTile("castle-2", at)


def test_everything_public_is_documented():
    import inspect

    for name in samurai.__all__:
        obj = getattr(samurai, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert obj.__doc__, name
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and (inspect.isfunction(member) or isinstance(member, property)):
                    assert member.__doc__, f"{name}.{attr}"


def test_play_bots_takes_every_bot_name_and_refuses_unknown_ones_in_one_line():
    game = samurai.new_game("ffg2015", players=2, seed=1)
    samurai.play_bots(game, ["easy", "mcts:20"], seed=1, actions=12)
    assert len(game.history) == 12
    for bots, message in ([["nope"]], "unknown bot 'nope'"), ([["mcts:0"]], "the MCTS budget"), ([[3]], "a string"):
        with pytest.raises(samurai.DataError, match=message):
            samurai.play_bots(game, *bots)
    assert len(game.history) == 12


def test_a_view_for_a_seat_that_is_not_there_is_refused_by_type_or_range():
    game = samurai.new_game("ffg2015", players=2, seed=1)
    for seat in ("0", None, True, 1.0):
        with pytest.raises(TypeError, match="seat must be a whole number from 0 to 1"):
            game.view(seat)
    for seat in (2, -1):
        with pytest.raises(samurai.DataError, match="seat must be a whole number from 0 to 1"):
            game.view(seat)

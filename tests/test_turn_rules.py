"""The turn, common to every edition (docs/rules/samurai.md#turn).

Positions are set up on the tiny map (maps/tiny.toml) through ordinary actions;
see helpers.setup_tiny for the default hands and figures.
"""

from __future__ import annotations

import pytest

from samurai import EndTurn, PlaceTile

from helpers import (
    KITA,
    KITA_LAND,
    KITA_SEA,
    MACHI,
    MACHI_LAND,
    MIYAKO,
    MIYAKO_LAND,
    assert_refused_unchanged,
    capture_kita,
    captured,
    figures_at,
    hand,
    play_turn,
    setup_tiny,
    tile_at,
    tiny_scenario,
)

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

# --- 1. at least one tile: one normal tile, any number of fast tiles ---------------------

def test_turn_allows_at_most_one_normal_tile(tiny):
    game = setup_tiny(tiny)
    game.apply(PlaceTile("castle-4", (2, 1)))
    assert_refused_unchanged(game, PlaceTile("samurai-1", (4, 2)), match="one normal tile")
    assert PlaceTile("samurai-1", (4, 2)) not in game.legal_actions()


def test_turn_allows_any_number_of_fast_tiles_beside_the_normal_one(tiny):
    game = setup_tiny(tiny)
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(PlaceTile("castle-4", (2, 1)))
    game.apply(PlaceTile("ship-2", (1, 0)))
    assert game.view(0)["this_turn"] == {"tiles_played": 3, "normal_tile_played": True}
    game.apply(EndTurn())
    assert game.current_player == 1


def test_turn_may_consist_of_fast_tiles_only(tiny):
    game = setup_tiny(tiny)
    play_turn(game, PlaceTile("ship-2", (1, 0)))
    assert game.current_player == 1
    assert tile_at(game, (1, 0)) == {"at": [1, 0], "tile": "ship-2", "owner": 0}


def test_turn_needs_at_least_one_tile_before_it_ends(tiny):
    game = setup_tiny(tiny)
    assert EndTurn() not in game.legal_actions()
    assert_refused_unchanged(game, EndTurn(), match="at least one tile")


def test_turn_passes_to_the_next_seat(tiny):
    game = setup_tiny(tiny, players=3)
    for seat, sea in zip((0, 1, 2), KITA_SEA, strict=False):
        assert game.current_player == seat
        play_turn(game, PlaceTile("ship-2", sea))
    assert game.current_player == 0


# --- where tiles go --------------------------------------------------------------------

def test_tiles_never_go_on_a_settlement(tiny):
    game = setup_tiny(tiny)
    assert_refused_unchanged(game, PlaceTile("castle-4", KITA), match="empty land")
    assert all(getattr(a, "at", None) not in (KITA, MIYAKO, MACHI) for a in game.legal_actions())


def test_ships_go_on_empty_sea_only(tiny):
    game = setup_tiny(tiny)
    assert_refused_unchanged(game, PlaceTile("ship-2", (2, 1)), match="sea")
    game.apply(PlaceTile("ship-2", (1, 0)))
    assert tile_at(game, (1, 0))["tile"] == "ship-2"


def test_other_tiles_never_go_on_sea(tiny):
    game = setup_tiny(tiny)
    assert_refused_unchanged(game, PlaceTile("castle-4", (1, 0)), match="land")
    assert_refused_unchanged(game, PlaceTile("ronin", (1, 0)), match="land")


def test_a_hex_holds_one_tile(tiny):
    game = setup_tiny(tiny)
    play_turn(game, PlaceTile("castle-4", (2, 1)))
    assert_refused_unchanged(game, PlaceTile("castle-4", (2, 1)), match="already holds")


def test_a_tile_must_come_from_the_hand(tiny):
    game = setup_tiny(tiny)
    assert "buddha-4" not in hand(game, 0)
    assert_refused_unchanged(game, PlaceTile("buddha-4", (2, 1)), match="no buddha-4 tile in your hand")


def test_unknown_tiles_and_hexes_are_refused(tiny):
    game = setup_tiny(tiny)
    assert_refused_unchanged(game, PlaceTile("dragon-9", (2, 1)), match="unknown tile")
    assert_refused_unchanged(game, PlaceTile("castle-4", (40, 40)), match="not on this board")
    assert_refused_unchanged(game, "castle-4 to 2,1", match="not an action")


# --- 2. surrounding and resolution -----------------------------------------------------

def test_surrounded_when_every_adjacent_land_hex_holds_a_tile_even_with_empty_sea(tiny):
    game = setup_tiny(tiny)
    play_turn(game, PlaceTile("castle-4", KITA_LAND[0]))
    assert figures_at(game, KITA) == ["castle"]
    play_turn(game, PlaceTile("samurai-1", KITA_LAND[1]))
    assert all(tile_at(game, sea) is None for sea in KITA_SEA)
    assert figures_at(game, KITA) == []
    assert captured(game, 0)["castle"] == 1


def test_a_settlement_with_empty_land_beside_it_is_not_resolved(tiny):
    game = setup_tiny(tiny)
    for at in MIYAKO_LAND[:5]:
        play_turn(game, PlaceTile(_any_land_tile(game), at))
    assert figures_at(game, MIYAKO) == ["buddha", "rice", "castle"]


def _any_land_tile(game):
    tiles = [t for t in hand(game, game.current_player) if t not in ("ship-1", "ship-2", "move", "switch")]
    return tiles[0]


def test_a_caste_tile_counts_only_for_its_own_caste(tiny):
    # Machi holds buddha and rice: castle-4 adds nothing to either, so seat 1's
    # samurai-1 captures both.
    game = setup_tiny(tiny)
    play_turn(game, PlaceTile("castle-4", MACHI_LAND[0]))
    play_turn(game, PlaceTile("samurai-1", MACHI_LAND[1]))
    play_turn(game, PlaceTile("ronin", MACHI_LAND[2]))  # fast, wild: seat 0 now has 1 for each caste
    play_turn(game, PlaceTile("ronin", MACHI_LAND[3]))  # seat 1: 2 for each caste
    assert figures_at(game, MACHI) == []
    assert captured(game, 1) == {"buddha": 1, "rice": 1, "castle": 0}
    assert captured(game, 0) == {"buddha": 0, "rice": 0, "castle": 0}


@pytest.mark.parametrize("wild", ["samurai-2", "ronin", "ship-1"])
def test_samurai_ronin_and_ship_tiles_count_for_every_caste(tiny, wild):
    # Kita holds a castle figure; seat 1's wild tile beside it decides the capture.
    seat1 = ("buddha-2", "samurai-2", "ronin", "ship-1", "rice-2")
    game = setup_tiny(tiny, hands={0: ("buddha-4", "rice-4", "ship-2", "ronin", "move"), 1: seat1})
    play_turn(game, PlaceTile("buddha-4", KITA_LAND[0]))  # counts 0 for the castle figure
    at = KITA_SEA[0] if wild == "ship-1" else KITA_LAND[1]
    actions = [PlaceTile(wild, at)]
    if wild == "ship-1":
        actions.append(PlaceTile("buddha-2", KITA_LAND[1]))
    play_turn(game, *actions)
    assert captured(game, 1)["castle"] == 1


def test_highest_influence_captures_and_each_figure_is_resolved_separately(tiny):
    # Machi: seat 0 leads buddha with buddha-4, seat 1 leads rice with rice-4.
    hands = {0: ("buddha-4", "castle-2", "ship-2", "ronin", "move"),
             1: ("rice-4", "castle-3", "ship-1", "ronin", "move")}
    game = setup_tiny(tiny, hands=hands)
    play_turn(game, PlaceTile("buddha-4", MACHI_LAND[0]))
    play_turn(game, PlaceTile("rice-4", MACHI_LAND[1]))
    play_turn(game, PlaceTile("castle-2", MACHI_LAND[2]))
    play_turn(game, PlaceTile("castle-3", MACHI_LAND[3]))
    assert captured(game, 0) == {"buddha": 1, "rice": 0, "castle": 0}
    assert captured(game, 1) == {"buddha": 0, "rice": 1, "castle": 0}


def test_a_tie_for_highest_influence_removes_the_figure(tiny):
    game = setup_tiny(tiny, hands={0: ("samurai-1", "castle-2", "ship-2", "ronin", "move"),
                                   1: ("samurai-1", "castle-3", "ship-1", "ronin", "move")})
    play_turn(game, PlaceTile("samurai-1", KITA_LAND[0]))
    play_turn(game, PlaceTile("samurai-1", KITA_LAND[1]))
    assert figures_at(game, KITA) == []
    assert captured(game, 0)["castle"] == captured(game, 1)["castle"] == 0
    assert game.view(0)["removed"] == {"buddha": 0, "rice": 0, "castle": 1}


def test_zero_against_zero_is_a_tie_and_removes_the_figure(tiny):
    game = setup_tiny(tiny, hands={0: ("buddha-2", "castle-2", "ship-2", "ronin", "move"),
                                   1: ("rice-2", "castle-3", "ship-1", "ronin", "move")})
    play_turn(game, PlaceTile("buddha-2", KITA_LAND[0]))
    play_turn(game, PlaceTile("rice-2", KITA_LAND[1]))
    assert game.view(0)["removed"]["castle"] == 1


# --- 3. refill -------------------------------------------------------------------------

def test_refill_draws_from_the_stack_up_to_five(tiny):
    game = setup_tiny(tiny)
    assert game.view(0)["seats"][0]["stack_size"] == 15
    play_turn(game, PlaceTile("castle-4", (2, 1)), PlaceTile("ronin", (4, 2)))
    view = game.view(0)
    assert len(view["hand"]) == 5
    assert view["seats"][0]["stack_size"] == 13


def test_an_empty_stack_draws_nothing(tiny):
    game = tiny_scenario(tiny, stacks={0: []})  # the default position, as if seat 0 had drawn every tile
    assert game.view(0)["seats"][0]["stack_size"] == 0
    play_turn(game, PlaceTile("castle-4", (2, 1)), PlaceTile("ronin", (4, 2)))
    assert len(hand(game, 0)) == 3
    assert {"event": "refill", "seat": 0, "drawn": 0} in game.events()


def test_refill_draws_at_random_from_the_games_generator(tiny):
    hands = [hand(_after_one_turn(tiny, seed), 0) for seed in range(6)]
    assert len({tuple(h) for h in hands}) > 1  # different seeds draw differently
    assert hand(_after_one_turn(tiny, 3), 0) == hand(_after_one_turn(tiny, 3), 0)  # same seed, same draw


def _after_one_turn(tiny, seed):
    game = setup_tiny(tiny, seed=seed)
    play_turn(game, PlaceTile("castle-4", (2, 1)), PlaceTile("ronin", (4, 2)))
    return game


# --- influence reaches adjacent hexes only (docs/rules/samurai.md#influence) -----------

def test_influence_does_not_reach_beyond_adjacent_hexes(tiny):
    # Seat 1's castle-4 two hexes from Kita counts for nothing there; seat 0's samurai-1 beside it wins.
    game = setup_tiny(tiny, hands={0: ("samurai-1", "castle-2", "ship-2", "ronin", "move")})
    play_turn(game, PlaceTile("samurai-1", KITA_LAND[0]))
    play_turn(game, PlaceTile("castle-4", (3, 1)))  # next to (2, 1), not to Kita
    play_turn(game, PlaceTile("castle-2", KITA_LAND[1]))
    assert captured(game, 0)["castle"] == 1


def test_captured_figures_do_not_count_toward_the_removed_ones(tiny):
    game = capture_kita(tiny)
    assert captured(game, 0)["castle"] == 1
    assert sum(game.view(0)["removed"].values()) == 0

"""Move and Switch (docs/rules/samurai.md#move-tile, docs/rules/samurai.md#switch-tile)."""

from __future__ import annotations

import pytest

from samurai import MoveTile, PlaceTile, SwitchFigures

from helpers import (
    HIGASHI,
    KITA,
    KITA_LAND,
    KITA_SEA,
    MACHI,
    MINAMI,
    MIYAKO,
    NISHI,
    assert_refused_unchanged,
    capture_kita,
    captured,
    figures_at,
    hand,
    play_turn,
    setup_tiny,
    tile_at,
)

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

WITH_SWITCH = ("castle-4", "samurai-1", "ship-2", "ronin", "switch")


def moved_once(tiny):
    """Seat 0 has castle-4 on Kita's land and a ronin beside Miyako; seat 1 a samurai-1; seat 0 to play."""
    game = setup_tiny(tiny)
    play_turn(game, PlaceTile("castle-4", KITA_LAND[0]), PlaceTile("ronin", (4, 2)))
    play_turn(game, PlaceTile("samurai-1", (3, 4)))
    return game


# --- Move ------------------------------------------------------------------------------

def test_move_relocates_your_normal_tile_and_leaves_the_move_tile_in_its_place(tiny):
    game = moved_once(tiny)
    game.apply(MoveTile(KITA_LAND[0], (4, 4)))
    assert tile_at(game, (4, 4)) == {"at": [4, 4], "tile": "castle-4", "owner": 0}
    assert tile_at(game, KITA_LAND[0]) == {"at": [2, 1], "tile": "move", "owner": 0}
    assert "move" not in hand(game, 0)


def test_the_move_tile_has_no_influence(tiny):
    game = moved_once(tiny)
    play_turn(game, MoveTile(KITA_LAND[0], (4, 4)))
    # Seat 1 closes Kita: its ronin (1) beats the Move tile (0) for the castle figure.
    play_turn(game, PlaceTile("ronin", KITA_LAND[1]))
    assert captured(game, 1)["castle"] == 1


def test_move_can_surround_a_settlement_at_its_target(tiny):
    game = moved_once(tiny)
    assert_refused_unchanged(game, MoveTile((4, 2), KITA_LAND[1]), match="only normal")  # the ronin
    play_turn(game, MoveTile(KITA_LAND[0], KITA_LAND[1]))
    # Kita's land now holds the Move tile and castle-4: surrounded, seat 0 captures.
    assert figures_at(game, KITA) == []
    assert captured(game, 0)["castle"] == 1


def test_move_cannot_take_an_opponents_tile(tiny):
    game = moved_once(tiny)
    assert_refused_unchanged(game, MoveTile((3, 4), (4, 4)), match="your own")


@pytest.mark.parametrize("fast_tile, at", [("ronin", (4, 2)), ("ship-2", KITA_SEA[0])])
def test_move_cannot_take_a_fast_tile(tiny, fast_tile, at):
    game = setup_tiny(tiny)
    play_turn(game, PlaceTile(fast_tile, at))
    play_turn(game, PlaceTile("samurai-1", (3, 4)))
    assert_refused_unchanged(game, MoveTile(at, (4, 4)))


def test_move_counts_as_the_turns_normal_tile(tiny):
    game = moved_once(tiny)
    game.apply(MoveTile(KITA_LAND[0], (4, 4)))
    assert_refused_unchanged(game, PlaceTile("samurai-1", (5, 2)), match="one normal tile")
    other = moved_once(tiny)
    other.apply(PlaceTile("samurai-1", (5, 2)))
    assert_refused_unchanged(other, MoveTile(KITA_LAND[0], (4, 4)), match="one normal tile")


def test_move_cannot_take_a_tile_placed_this_turn(tiny):
    game = setup_tiny(tiny)
    game.apply(PlaceTile("castle-4", KITA_LAND[0]))
    assert all(not isinstance(a, MoveTile) for a in game.legal_actions())
    assert_refused_unchanged(game, MoveTile(KITA_LAND[0], (4, 4)))


def test_move_needs_an_empty_land_target(tiny):
    game = moved_once(tiny)
    assert_refused_unchanged(game, MoveTile(KITA_LAND[0], (3, 4)), match="empty land")  # occupied
    assert_refused_unchanged(game, MoveTile(KITA_LAND[0], KITA_SEA[0]), match="empty land")  # sea
    assert_refused_unchanged(game, MoveTile(KITA_LAND[0], MACHI), match="empty land")  # settlement


def test_move_with_nothing_to_move_is_not_offered(tiny):
    game = setup_tiny(tiny)
    assert not any(isinstance(a, MoveTile) for a in game.legal_actions())


# --- Switch ----------------------------------------------------------------------------

def test_switch_exchanges_two_figures_of_different_castes(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    game.apply(SwitchFigures(KITA, "castle", HIGASHI, "buddha"))
    assert figures_at(game, KITA) == ["buddha"]
    assert figures_at(game, HIGASHI) == ["castle"]


def test_switch_is_fast_and_combines_with_a_normal_tile(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    game.apply(PlaceTile("castle-4", KITA_LAND[0]))
    play_turn(game, SwitchFigures(KITA, "castle", HIGASHI, "buddha"))
    assert game.current_player == 1


def test_switch_leaves_the_game(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    play_turn(game, SwitchFigures(KITA, "castle", HIGASHI, "buddha"))
    view = game.view(0)
    assert all(t["tile"] != "switch" for t in view["board"]["tiles"])
    assert "switch" not in view["hand"]
    on_board = sum(1 for t in view["board"]["tiles"] if t["owner"] == 0)
    assert len(view["hand"]) + view["seats"][0]["stack_size"] + on_board == 19  # 20 tiles, one gone


def test_switch_needs_different_castes(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    assert_refused_unchanged(game, SwitchFigures(KITA, "castle", MINAMI, "castle"), match="different castes")


def test_switch_needs_two_different_settlements(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    assert_refused_unchanged(game, SwitchFigures(MACHI, "buddha", MACHI, "rice"), match="two different settlements")


def test_switch_never_leaves_two_figures_of_one_caste_in_a_settlement(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    # Machi holds buddha and rice: taking Nishi's rice for its buddha would make two rice.
    assert_refused_unchanged(game, SwitchFigures(MACHI, "buddha", NISHI, "rice"), match="two rice")


def test_switch_never_leaves_two_figures_of_one_caste_in_edo(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    for caste, other, other_caste in (("castle", HIGASHI, "buddha"), ("buddha", KITA, "castle"),
                                      ("rice", MINAMI, "castle")):
        assert_refused_unchanged(game, SwitchFigures(MIYAKO, caste, other, other_caste), match="would hold two")
    assert not any(isinstance(a, SwitchFigures) and MIYAKO in (a.first, a.second) for a in game.legal_actions())


def test_switch_needs_the_figures_it_names(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    assert_refused_unchanged(game, SwitchFigures(KITA, "rice", HIGASHI, "buddha"), match="no rice figure in Kita")


def test_switch_cannot_use_a_resolved_settlement(tiny):
    game = capture_kita(tiny, hands={1: WITH_SWITCH})
    play_turn(game, PlaceTile("samurai-1", (3, 4)))
    assert_refused_unchanged(game, SwitchFigures(KITA, "castle", HIGASHI, "buddha"), match="no castle figure")


def test_switch_refuses_hexes_that_are_not_settlements(tiny):
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    assert_refused_unchanged(game, SwitchFigures((2, 1), "castle", HIGASHI, "buddha"), match="not a settlement")


def test_a_switch_named_either_way_round_is_the_same_action(tiny):
    assert SwitchFigures(HIGASHI, "buddha", KITA, "castle") == SwitchFigures(KITA, "castle", HIGASHI, "buddha")
    game = setup_tiny(tiny, hands={0: WITH_SWITCH})
    assert SwitchFigures(HIGASHI, "buddha", KITA, "castle") in game.legal_actions()
    game.apply(SwitchFigures(HIGASHI, "buddha", KITA, "castle"))
    assert figures_at(game, KITA) == ["buddha"]

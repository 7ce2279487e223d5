"""The FFG 2015 column of docs/rules/samurai.md#edition-differences: board, setup, timing and hidden captures."""

from __future__ import annotations

import pytest

import samurai
from samurai import ChooseTile, EndTurn, IllegalAction, PlaceFigure, PlaceTile

from helpers import (
    CLOSING_HANDS,
    DEFAULT_HAND,
    HIGASHI,
    KITA,
    KITA_LAND,
    KITA_SEA,
    MACHI,
    MINAMI,
    NISHI,
    capture_kita,
    captured,
    figures_at,
    hand,
    setup_tiny,
)

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

PIECES = {2: 3, 3: 4, 4: 5}
FIGURES_PER_CASTE = {2: 7, 3: 10, 4: 13}
SEA = {2: 44, 3: 64, 4: 84}


# --- board (docs/rules/samurai.md#players-and-islands) ------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_pieces_and_figures_by_player_count(ffg, players):
    rules = ffg.rules(players)
    assert len(rules.board.pieces) == PIECES[players]
    assert rules.figures_per_caste == FIGURES_PER_CASTE[players]
    assert len(rules.board.sea_hexes) == SEA[players]
    slots = sum(s.capacity for s in rules.board.settlements)
    assert slots == 3 * FIGURES_PER_CASTE[players]  # the figures fill the slots exactly


def test_each_player_has_the_same_twenty_tiles(ffg):
    rules = ffg.rules(4)
    names = sorted(rules.tile_name(t) for t in rules.player_tiles)
    assert names == sorted(["castle-2", "castle-3", "castle-4", "buddha-2", "buddha-3", "buddha-4", "rice-2",
                            "rice-3", "rice-4", "samurai-1", "samurai-1", "samurai-2", "samurai-2", "samurai-3",
                            "ronin", "ship-1", "ship-1", "ship-2", "move", "switch"])
    fast = sorted(rules.tile_name(t) for t in rules.player_tiles if rules.tile_fast[t])
    assert fast == ["ronin", "ship-1", "ship-1", "ship-2", "switch"]


# --- setup (docs/rules/samurai.md#setting-up) ----------------------------------------

def test_edo_starts_with_one_figure_of_each_caste(ffg):
    game = samurai.new_game(ffg, players=4, seed=3)
    edo = next(s for s in game.view(0)["board"]["settlements"] if s["kind"] == "capital")
    assert edo["name"] == "Edo"
    assert edo["figures"] == ["buddha", "rice", "castle"]
    assert game.view(0)["supply"] == {"buddha": 12, "rice": 12, "castle": 12}


def test_each_seat_secretly_chooses_five_tiles_first_and_the_rest_become_its_stack(ffg):
    game = samurai.new_game(ffg, players=2, seed=3)
    assert game.phase == "choose_hands"
    for tile in ("castle-4", "buddha-4", "rice-4", "samurai-3", "ronin"):
        assert game.current_player == 0
        game.apply(ChooseTile(tile))
    assert game.current_player == 1
    other = game.view(1)
    assert "castle-4" not in str(other["hand"]) and other["seats"][0] == {"seat": 0, "hand_size": 5,
                                                                         "stack_size": 15}
    for tile in DEFAULT_HAND:
        game.apply(ChooseTile(tile))
    assert game.phase == "place_figures"
    assert sorted(game.view(0)["hand"]) == sorted(["castle-4", "buddha-4", "rice-4", "samurai-3", "ronin"])
    assert game.view(0)["seats"][0]["stack_size"] == 15


def test_a_seat_cannot_choose_a_tile_it_no_longer_has(ffg):
    game = samurai.new_game(ffg, players=2, seed=3)
    game.apply(ChooseTile("ronin"))
    with pytest.raises(IllegalAction, match="no ronin tile left"):
        game.apply(ChooseTile("ronin"))
    game.apply(ChooseTile("samurai-1"))
    game.apply(ChooseTile("samurai-1"))  # two samurai-1 tiles exist
    assert hand(game, 0).count("samurai-1") == 2


def _to_figures(game, players):
    for _seat in range(players):
        for tile in DEFAULT_HAND:
            game.apply(ChooseTile(tile))
    assert game.phase == "place_figures"


def test_cities_are_filled_before_villages_two_different_castes_each(ffg):
    game = samurai.new_game(ffg, players=2, seed=5)
    _to_figures(game, 2)
    kinds = {tuple(s["at"]): s["kind"] for s in game.view(0)["board"]["settlements"]}
    cities = [at for at, kind in kinds.items() if kind == "city"]
    for _ in range(2 * len(cities)):
        legal = game.legal_actions()
        assert {kinds[a.at] for a in legal} == {"city"}
        game.apply(legal[-1])
    for city in cities:
        figures = figures_at(game, city)
        assert len(figures) == 2 and len(set(figures)) == 2
    assert {kinds[a.at] for a in game.legal_actions()} == {"village"}
    with pytest.raises(IllegalAction, match="full"):
        game.apply(PlaceFigure("castle", cities[0]))


def test_seats_place_figures_in_turn_from_seat_0(ffg):
    game = samurai.new_game(ffg, players=3, seed=5)
    _to_figures(game, 3)
    seats = []
    while game.phase == "place_figures":
        seats.append(game.current_player)
        game.apply(game.legal_actions()[0])
    assert seats == [i % 3 for i in range(len(seats))]
    assert len(seats) == 3 * 10 - 3  # Edo's three figures were placed by the setup
    assert game.phase == "play" and game.current_player == 0


def test_a_city_never_takes_a_second_figure_of_one_caste(tiny):
    game = samurai.new_game(tiny, players=2, seed=1)
    _to_figures(game, 2)
    game.apply(PlaceFigure("buddha", MACHI))
    with pytest.raises(IllegalAction, match="already holds a buddha"):
        game.apply(PlaceFigure("buddha", MACHI))


def test_figure_placement_must_leave_the_rest_placeable(tiny_core):
    # Ruling (docs/rules/samurai.md#ruling-figures-fit): with the engine's any-order setup, castle,
    # castle and buddha in three villages leave buddha 1, rice 2 for one village and the city.
    # Buddha in the last village would leave rice, rice for the city: refused.
    game = samurai.new_game(tiny_core, players=2, seed=1)
    for _seat in range(2):
        for tile in ("castle-2", "castle-3", "castle-4", "samurai-1", "samurai-2"):
            game.apply(ChooseTile(tile))
    for caste, at in (("castle", KITA), ("castle", HIGASHI), ("buddha", NISHI)):
        game.apply(PlaceFigure(caste, at))
    assert PlaceFigure("buddha", MINAMI) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="cannot fill"):
        game.apply(PlaceFigure("buddha", MINAMI))
    game.apply(PlaceFigure("rice", MINAMI))
    assert sorted(a.caste for a in game.legal_actions()) == ["buddha", "rice"]


def test_first_player_option_changes_who_starts(ffg):
    game = samurai.new_game(ffg, players=3, seed=5, options={"first_player": 2})
    assert game.current_player == 2


# --- timing (docs/rules/samurai.md#resolution-timing, docs/rules/samurai.md#end-check) ----

def test_surrounds_resolve_at_the_end_of_the_turn_after_all_its_tiles(tiny):
    game = setup_tiny(tiny, hands=CLOSING_HANDS)
    game.apply(PlaceTile("castle-2", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # Kita is surrounded: castle 2 against 1
    assert figures_at(game, KITA) == ["castle"]  # not resolved yet
    game.apply(PlaceTile("ship-2", KITA_SEA[0]))  # now 2 against 3
    game.apply(EndTurn())
    assert figures_at(game, KITA) == []
    assert captured(game, 1)["castle"] == 1
    assert captured(game, 0)["castle"] == 0


def test_the_end_is_checked_after_the_whole_turn_placement_capture_and_refill(tiny):
    # With the end at the first tie (option), the turn that ties still refills, then the game ends.
    game = samurai.new_game(tiny, players=2, seed=1, options={"removed_to_end": 1})
    for _seat in range(2):
        for tile in ("samurai-1", "castle-2", "ship-2", "ronin", "move"):
            game.apply(ChooseTile(tile))
    for caste, at in (("buddha", MACHI), ("rice", MACHI), ("castle", KITA), ("buddha", HIGASHI),
                      ("rice", NISHI), ("castle", MINAMI)):
        game.apply(PlaceFigure(caste, at))
    game.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))
    game.apply(PlaceTile("ronin", (4, 2)))
    assert not game.is_over
    game.apply(EndTurn())
    assert game.is_over
    assert game.result.end_reason == "removed_by_ties"
    with pytest.raises(samurai.SamuraiError, match="no seat is to act"):
        game.current_player  # noqa: B018 (once over, no seat is to act)
    assert len(hand(game, 1)) == 5  # the refill happened before the end
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        game.apply(EndTurn())


def test_by_default_the_fourth_removed_figure_ends_the_game(ffg):
    assert ffg.manifest.options["removed_to_end"].default == 4
    assert ffg.rules(3).removed_limit == 4


# --- hidden information (docs/rules/samurai.md#hidden-information) ---------------

def test_captured_figures_are_hidden_from_the_other_seats_until_the_end(tiny):
    game = capture_kita(tiny)
    assert captured(game, 0)["castle"] == 1
    assert "captured" not in game.view(1)["seats"][0]
    assert game.view(1)["removed"] == {"buddha": 0, "rice": 0, "castle": 0}
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert all("captured" in seat for seat in game.view(1)["seats"])


"""The original edition's column of docs/rules/samurai.md#edition-differences: islands, setup, timing, visible
captures."""

from __future__ import annotations

import pytest

import samurai
from samurai import ChooseTile, EndTurn, IllegalAction, PlaceTile

from helpers import (
    CLOSING_HANDS,
    KITA,
    KITA_LAND,
    KITA_SEA,
    MACHI,
    MACHI_LAND,
    capture_kita,
    captured,
    figures_at,
    hand,
    setup_tiny,
)

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

ISLANDS = {2: {"honshu-north", "honshu-central", "honshu-west"},
           3: {"honshu-north", "honshu-central", "honshu-west", "kyushu-shikoku"},
           4: {"honshu-north", "honshu-central", "honshu-west", "kyushu-shikoku", "hokkaido"}}
SEA = {2: 44, 3: 64, 4: 84}
FIGURES_PER_CASTE = {2: 7, 3: 10, 4: 13}


# --- board and tiles (docs/rules/samurai.md#players-and-islands, docs/rules/samurai.md#tiles) -

@pytest.mark.parametrize("players", [2, 3, 4])
def test_islands_by_player_count_honshu_then_kyushu_and_shikoku_then_hokkaido(original, players):
    rules = original.rules(players)
    assert set(rules.board.pieces) == ISLANDS[players]
    assert len(rules.board.sea_hexes) == SEA[players]
    assert rules.figures_per_caste == FIGURES_PER_CASTE[players]
    assert sum(s.capacity for s in rules.board.settlements) == 3 * FIGURES_PER_CASTE[players]


def test_the_original_tiles_are_the_same_twenty(original, ffg):
    assert sorted(original.rules(3).tile_index) == sorted(ffg.rules(3).tile_index)
    names = sorted(original.rules(3).tile_name(t) for t in original.rules(3).player_tiles)
    assert names == sorted(ffg.rules(3).tile_name(t) for t in ffg.rules(3).player_tiles)


# --- setup (docs/rules/samurai.md#figure-setup, docs/rules/samurai.md#setup-order) -

HAND = ("castle-2", "castle-3", "castle-4", "samurai-1", "samurai-2")


def _place_all_figures(game: samurai.Game) -> list[int]:
    """Place figures until the phase ends; the seats that placed them, in order."""
    seats = []
    while game.phase == "place_figures":
        seats.append(game.current_player)
        game.apply(game.legal_actions()[-1])
    return seats


def test_setup_order_figures_are_placed_first_then_each_seat_takes_its_five_tiles(original):
    # docs/rules/samurai.md#setup-order: "each player takes their five tiles once every figure is placed".
    game = samurai.new_game(original, players=3, seed=4)
    assert game.phase == "place_figures" and game.current_player == 0
    view = game.view(1)
    assert view["hand"] == [] and "unchosen" not in view  # no tile is taken before the figures are down
    assert [s["stack_size"] for s in view["seats"]] == [20, 20, 20] and view["supply"]["castle"] == 10 - 1
    assert {type(a) for a in game.legal_actions()} == {samurai.PlaceFigure}
    with pytest.raises(IllegalAction, match="placing figures"):
        game.apply(ChooseTile("castle-2"))
    _place_all_figures(game)
    assert game.phase == "choose_hands" and game.current_player == 0  # seat 0 chooses first
    assert game.view(0)["supply"] == {"buddha": 0, "rice": 0, "castle": 0}
    assert len(game.view(0)["unchosen"]) == 20
    for seat in range(3):
        assert game.current_player == seat
        for tile in HAND:
            game.apply(ChooseTile(tile))
    # The unchosen fifteen become each seat's stack, and seat 0 plays the first turn.
    assert game.phase == "play" and game.current_player == 0 and game.turn == 1
    view = game.view(2)
    assert view["hand"] == sorted(HAND) and "unchosen" not in view
    assert [(s["hand_size"], s["stack_size"]) for s in view["seats"]] == [(5, 15)] * 3
    game.apply(PlaceTile("castle-2", _empty_land(game)))
    game.apply(EndTurn())
    assert len(hand(game, 0)) == 5 and game.view(0)["seats"][0]["stack_size"] == 14  # refilled from the stack


def _empty_land(game: samurai.Game) -> tuple[int, int]:
    return next(a.at for a in game.legal_actions() if isinstance(a, PlaceTile) and a.tile == "castle-2")


def test_setup_order_ffg_2015_keeps_hands_first(ffg):
    # docs/rules/samurai.md#setup-order: hands first, then figures.
    game = samurai.new_game(ffg, players=2, seed=4)
    assert game.phase == "choose_hands"


def test_the_first_player_option_starts_both_setup_phases_and_play(original):
    game = samurai.new_game(original, players=3, seed=2, options={"first_player": 1})
    assert game.phase == "place_figures" and game.current_player == 1
    assert _place_all_figures(game)[:4] == [1, 2, 0, 1]
    assert game.phase == "choose_hands" and game.current_player == 1
    for _seat in range(3):
        for tile in HAND:
            game.apply(ChooseTile(tile))
    assert game.phase == "play" and game.current_player == 1


def test_edo_is_prefilled_and_figures_go_to_any_city_or_village_from_the_start(original):
    game = samurai.new_game(original, players=4, seed=4)
    settlements = game.view(0)["board"]["settlements"]
    edo = next(s for s in settlements if s["kind"] == "capital")
    assert edo["figures"] == ["buddha", "rice", "castle"]
    kinds = {tuple(s["at"]): s["kind"] for s in settlements}
    first = game.legal_actions()
    assert {kinds[a.at] for a in first} == {"city", "village"}
    village = next(a for a in first if kinds[a.at] == "village")
    game.apply(village)  # a village before any city: allowed in the original edition
    assert game.current_player == 1
    seats = [0] + _place_all_figures(game)
    assert seats == [i % 4 for i in range(3 * 13 - 3)]
    for s in game.view(0)["board"]["settlements"]:
        assert len(s["figures"]) == len(set(s["figures"])) == {"village": 1, "city": 2, "capital": 3}[s["kind"]]


# --- timing (docs/rules/samurai.md#resolution-timing, docs/rules/samurai.md#end-check) ----

def test_a_surround_resolves_immediately_after_the_tile(tiny_original):
    game = setup_tiny(tiny_original, hands=CLOSING_HANDS)
    game.apply(PlaceTile("castle-2", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # castle 2 against 1: seat 0 captures at once
    assert figures_at(game, KITA) == []
    assert captured(game, 0)["castle"] == 1
    game.apply(PlaceTile("ship-2", KITA_SEA[0]))  # would have made it 2 against 3: too late
    game.apply(EndTurn())
    assert captured(game, 0)["castle"] == 1
    assert captured(game, 1)["castle"] == 0


def test_play_stops_the_moment_the_end_is_triggered_without_refill(tiny_original):
    hands = {0: ("samurai-1", "castle-2", "ship-2", "ronin", "move"),
             1: ("samurai-1", "castle-2", "ship-2", "ronin", "move")}
    game = setup_tiny(tiny_original, hands=hands, options={"removed_to_end": 1})
    game.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # 1 against 1: the tie that ends the game
    assert game.is_over
    assert game.result.end_reason == "removed_by_ties"
    assert len(hand(game, 1)) == 4  # stopped at once: no refill
    with pytest.raises(IllegalAction, match="over"):
        game.apply(PlaceTile("ronin", (4, 2)))


def test_every_figure_the_ending_tile_surrounds_resolves_before_play_stops(tiny_original):
    # Ruling (docs/rules/samurai.md#ruling-resolution-order): Machi's two figures are decided by the same four tiles, so
    # both resolve (two ties) although the first tie already reaches the limit of one.
    hands = {0: ("samurai-1", "samurai-2", "ship-2", "ronin", "move"),
             1: ("samurai-1", "samurai-2", "ship-2", "ronin", "move")}
    game = setup_tiny(tiny_original, hands=hands, options={"removed_to_end": 1})
    for tile, at in zip(("samurai-1", "samurai-1", "samurai-2"), MACHI_LAND[:3], strict=True):
        game.apply(PlaceTile(tile, at))
        game.apply(EndTurn())
    assert figures_at(game, MACHI) == ["buddha", "rice"]
    game.apply(PlaceTile("samurai-2", MACHI_LAND[3]))  # 3 against 3 for both figures
    assert game.is_over
    assert figures_at(game, MACHI) == []
    assert game.view(0)["removed"] == {"buddha": 1, "rice": 1, "castle": 0}


# --- information (docs/rules/samurai.md#hidden-information) --------------------

def test_captured_figures_stay_visible_in_a_two_player_game(tiny_original):
    game = capture_kita(tiny_original)
    assert game.view(1)["seats"][0]["captured"]["castle"] == 1
    assert game.view(0)["seats"][1]["captured"] == {"buddha": 0, "rice": 0, "castle": 0}


def test_captured_figures_are_hidden_with_three_players(original, tiny_original):
    assert original.rules(2).public_captures
    assert not original.rules(3).public_captures
    assert not original.rules(4).public_captures
    game = capture_kita(tiny_original, players=3, hands={2: ("samurai-1", "castle-2", "ship-2", "ronin", "move")})
    assert captured(game, 0)["castle"] == 1
    assert "captured" not in game.view(1)["seats"][0]


# --- whole games ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_original_edition_plays_complete_seeded_games(original, players):
    for seed in range(5):
        game = samurai.new_game(original, players=players, seed=seed)
        actions = 0
        while not game.is_over:
            game.apply(game.legal_actions()[seed * 7 % len(game.legal_actions())])
            actions += 1
        assert game.result.end_reason in samurai.END_REASONS
        assert game.result.winners
        assert game.result.reason in {"two_majorities", "other_figures", "total_figures", "shared_win",
                                      "no_majority_total", "no_majority_shared"}

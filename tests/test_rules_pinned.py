"""Rules of docs/rules/samurai.md that no other test pinned: each test names its rule and section, and fails when the
engine breaks that one rule (issue 20, point 7: the mutants that passed every other test).

The positions are built through the public API only (``samurai.new_game`` with a scenario given as data,
``Game.apply``, ``Game.view``, ``samurai.score``), so the same tests can be run against another engine.
The tiny map (maps/tiny.toml): Kita (1, 1) is a castle village with two land hexes, (2, 1) and (2, 2),
and sea at (0, 1), (1, 0), (2, 0), (1, 2); Minami (4, 5) has land (3, 5), (5, 4), (4, 4).
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import samurai
from samurai import EndTurn, IllegalAction, MoveTile, PlaceTile
from samurai_plugins.knizia.adapters.game_state import HexGameState

from helpers import KITA, KITA_LAND, KITA_SEA, MINAMI, assert_refused_unchanged, captured, figures_at, hand, tile_at

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

HAND = ["samurai-1", "samurai-2", "samurai-3", "ronin", "ship-2"]
"""A full hand for the scenarios below (each seat owns two samurai-1, two samurai-2 and two ship-1)."""

EVERY_FIGURE = {"Kita": ["castle"], "Higashi": ["buddha"], "Miyako": ["buddha", "rice", "castle"],
                "Machi": ["buddha", "rice"], "Nishi": ["rice"], "Minami": ["castle"]}
"""The tiny map's nine figures where the default setup of the tests puts them (three of each caste)."""


def scenario_game(edition: samurai.Edition, players: int, to_act: int,
                  tiles: Sequence[tuple[tuple[int, int], str, int]], *,
                  figures: Mapping[str, list[str]] = EVERY_FIGURE, hands: Mapping[int, list[str]] | None = None,
                  captures: Mapping[int, Mapping[str, int]] | None = None,
                  removed: Mapping[str, int] | None = None) -> samurai.Game:
    """A game of ``edition`` on the tiny map, in play at turn 5, from a scenario given as data.

    ``tiles`` are ``(hex, tile, owner)`` placed on earlier turns; every seat holds ``HAND`` unless
    ``hands`` says otherwise, with the rest of its tiles in its stack.
    """
    data: dict[str, Any] = {
        "players": players, "to_act": to_act, "turn": 5, "figures": dict(figures),
        "tiles": [{"at": list(at), "tile": tile, "owner": owner} for at, tile, owner in tiles],
        "seats": [{"hand": list((hands or {}).get(seat, HAND)), "captured": dict((captures or {}).get(seat, {}))}
                  for seat in range(players)],
    }
    if removed:
        data["removed"] = dict(removed)
    return samurai.new_game(edition, seed=7, scenario=data)


def variant(tmp_path: Path, name: str, tiles: str) -> samurai.Edition:
    """The FFG 2015 rules on the tiny map with the ``[tiles...]`` tables of ``tiles`` merged in."""
    manifest = tmp_path / f"{name}.toml"
    manifest.write_text(textwrap.dedent(f"""\
        id = "{name}"
        name = "{name}"
        version = "1.0.0"
        extends = "ffg2015"
        map = "tiny"
        """) + "".join(f'[players.{n}]\npieces = ["west", "east"]\nfigures_per_caste = 3\n' for n in (2, 3, 4))
                        + textwrap.dedent(tiles))
    return samurai.load_edition(str(manifest))


# --- Move (docs/rules/samurai.md#move-tile: "placed on an earlier turn"; not ronin, ship or move) ----

def test_move_never_takes_a_tile_placed_this_same_turn(tmp_path: Path) -> None:
    """docs/rules/samurai.md#move-tile: only a normal tile "placed on an earlier turn" moves.

    Under the published rules Move is the turn's one normal tile, so no other normal tile can have been
    placed before it; a variant in which Move is fast reaches the rule: a samurai placed this turn stays,
    while the castle placed on an earlier turn may move.
    """
    fast_move = variant(tmp_path, "fast-move", """\
        [tiles.move]
        fast = true
        """)
    game = scenario_game(fast_move, 2, 0, [((2, 1), "castle-4", 0)],
                         hands={0: ["samurai-1", "samurai-2", "ronin", "ship-2", "move"]})
    game.apply(PlaceTile("samurai-1", (4, 2)))
    sources = {action.source for action in game.legal_actions() if isinstance(action, MoveTile)}
    assert sources == {(2, 1)}  # the castle-4 of an earlier turn, not the samurai-1 of this one
    assert_refused_unchanged(game, MoveTile((4, 2), (4, 4)), match="placed this turn")
    game.apply(MoveTile((2, 1), (4, 4)))
    assert tile_at(game, (4, 4)) == {"at": [4, 4], "tile": "castle-4", "owner": 0}
    assert tile_at(game, (4, 2)) == {"at": [4, 2], "tile": "samurai-1", "owner": 0}


def test_a_fast_move_with_only_this_turns_tile_to_take_is_not_playable(tmp_path: Path) -> None:
    """docs/rules/samurai.md#move-tile: when the only tile Move could take was placed this turn, Move
    has no target, so it is not offered, and random play (which samples without listing) never picks it."""
    fast_move = variant(tmp_path, "fast-move-alone", """\
        [tiles.move]
        fast = true
        """)
    game = scenario_game(fast_move, 2, 0, [], hands={0: ["samurai-1", "samurai-2", "ronin", "ship-2", "move"]})
    game.apply(PlaceTile("samurai-1", (4, 2)))
    assert not any(isinstance(action, MoveTile) for action in game.legal_actions())
    position = HexGameState.of_game(game)  # the game protocol's position, which samples without listing
    legal = set(position.legal_actions())
    for seed in range(200):  # each draw is one of the legal actions, never a Move without a source
        assert position.sample_action(random.Random(seed)) in legal


def test_move_never_takes_a_tile_it_moved_this_same_turn(tmp_path: Path) -> None:
    """docs/rules/samurai.md#move-tile: the tile a Move put down this turn was not "placed on an
    earlier turn", so a second (fast) Move tile of a variant cannot take it again."""
    two_moves = variant(tmp_path, "two-fast-moves", """\
        [tiles.move]
        influence = [0, 0]
        fast = true
        """)
    game = scenario_game(two_moves, 2, 0, [((2, 1), "castle-4", 0)],
                         hands={0: ["samurai-1", "samurai-2", "ronin", "move", "move"]})
    game.apply(MoveTile((2, 1), (4, 4)))
    assert not any(isinstance(action, MoveTile) for action in game.legal_actions())
    assert_refused_unchanged(game, MoveTile((4, 4), (4, 2)), match="placed this turn")


def test_move_never_takes_a_move_tile(tmp_path: Path) -> None:
    """docs/rules/samurai.md#move-tile: "one of your own caste or samurai tiles"; "ronin, ships and move tiles
    cannot be moved": a Move tile left on the board by an earlier turn is no source for another Move."""
    two_moves = variant(tmp_path, "two-moves", """\
        [tiles.move]
        influence = [0, 0]
        """)
    game = scenario_game(two_moves, 2, 0, [((2, 1), "castle-4", 0)],
                         hands={0: ["samurai-1", "samurai-2", "ronin", "move", "move"]})
    game.apply(MoveTile((2, 1), (4, 4)))  # the Move tile now stands on (2, 1)
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", (4, 2)))
    game.apply(EndTurn())
    assert tile_at(game, (2, 1)) == {"at": [2, 1], "tile": "move", "owner": 0} and "move" in hand(game, 0)
    sources = {action.source for action in game.legal_actions() if isinstance(action, MoveTile)}
    assert sources == {(4, 4)}  # the castle-4, not the Move tile
    assert_refused_unchanged(game, MoveTile((2, 1), (3, 2)), match="only normal")


# --- ties among three or more players (docs/rules/samurai.md#capture) -----------------------------------

TIES = {
    # name: (players, tiles around Kita before the last one, the seat closing Kita with samurai-2, influence)
    "seats 0 and 1 tie above seat 2": (3, [((2, 1), "samurai-2", 0), (KITA_SEA[0], "ship-1", 2)], 1, (2, 2, 1)),
    "seats 1 and 2 tie above seat 0": (3, [((2, 1), "samurai-2", 1), (KITA_SEA[0], "ship-1", 0)], 2, (1, 2, 2)),
    "seats 0 and 2 tie above seat 1": (3, [((2, 1), "samurai-2", 0), (KITA_SEA[0], "ship-1", 1)], 2, (2, 1, 2)),
    "seats 2 and 3 tie above seats 0 and 1": (4, [((2, 1), "samurai-2", 2), (KITA_SEA[0], "ship-1", 0),
                                                  (KITA_SEA[1], "ship-1", 1)], 3, (1, 1, 2, 2)),
    "seats 0 and 3 tie above seats 1 and 2": (4, [((2, 1), "samurai-2", 0), (KITA_SEA[0], "ship-1", 1),
                                                  (KITA_SEA[1], "ship-1", 2)], 3, (2, 1, 1, 2)),
}


@pytest.mark.parametrize("case", sorted(TIES))
def test_a_two_seat_tie_for_highest_influence_removes_the_figure_with_three_or_four_players(tiny, case):
    """docs/rules/samurai.md#capture: "A tie for the highest ... takes it out of the game": with 3 or 4
    players a tie of two seats at the top removes the figure whichever seats tie, though a third seat is lower."""
    players, tiles, closer, influence = TIES[case]
    game = scenario_game(tiny, players, closer, tiles)
    game.apply(PlaceTile("samurai-2", KITA_LAND[1]))
    game.apply(EndTurn())
    assert figures_at(game, KITA) == []
    assert game.view(0)["removed"]["castle"] == 1
    assert all(captured(game, seat)["castle"] == 0 for seat in range(players))
    removal = [e for e in game.events() if e["event"] == "remove"]
    assert len(removal) == 1 and tuple(removal[0]["influence"]) == influence


def test_the_unique_highest_of_three_seats_captures_although_the_others_tie_below(tiny):
    """docs/rules/samurai.md#capture: "The highest influence takes the figure": seat 2's 2 beats seats 0 and 1 at 1
    each."""
    game = scenario_game(tiny, 3, 2, [((2, 1), "samurai-1", 0), (KITA_SEA[0], "ship-1", 1)])
    game.apply(PlaceTile("samurai-2", KITA_LAND[1]))
    game.apply(EndTurn())
    assert figures_at(game, KITA) == []
    assert [captured(game, seat)["castle"] for seat in range(3)] == [0, 0, 1]
    assert game.view(0)["removed"]["castle"] == 0


# --- the end (docs/rules/samurai.md#end; when the end is checked: docs/rules/samurai.md#end-check) -----------

def _three_ties_then_a_fourth(edition: samurai.Edition) -> samurai.Game:
    """Two figures already removed by ties; seat 1 closes Kita 1 against 1 (the third tie), ends its turn,
    and seat 0 closes Minami 3 against 3 (the fourth); every caste keeps a figure on the board."""
    figures = {name: castes for name, castes in EVERY_FIGURE.items() if name not in ("Higashi", "Nishi")}
    game = scenario_game(edition, 2, 1, [((2, 1), "samurai-1", 0), ((3, 5), "samurai-3", 1), ((5, 4), "samurai-2", 0)],
                         figures=figures, removed={"buddha": 1, "rice": 1},
                         hands={seat: ["samurai-1", "samurai-2", "ronin", "ship-2", "move"] for seat in (0, 1)})
    assert not game.is_over
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))
    return game


def test_original_the_third_tie_does_not_end_the_game_the_fourth_ends_it_at_once(tiny_original):
    """docs/rules/samurai.md#end: the game ends "when the fourth figure has been removed by a tie",
    not the third; the original edition stops at once (docs/rules/samurai.md#end-check)."""
    game = _three_ties_then_a_fourth(tiny_original)
    assert not game.is_over  # three removed: play goes on
    assert figures_at(game, KITA) == []
    game.apply(EndTurn())
    assert not game.is_over and game.current_player == 0
    game.apply(PlaceTile("samurai-1", (4, 4)))  # Minami: 2 + 1 against 3
    assert figures_at(game, MINAMI) == []
    assert game.view(0)["removed"] == {"buddha": 1, "rice": 1, "castle": 2}
    assert game.is_over and game.result.end_reason == "removed_by_ties"
    assert len(hand(game, 0)) == 4  # stopped at the tile: no refill


def test_ffg_the_third_tie_does_not_end_the_game_the_fourth_ends_it_after_the_turn(tiny):
    """docs/rules/samurai.md#end: the fourth figure removed by a tie ends the game, not the third; under
    FFG 2015 the end comes after the whole turn (docs/rules/samurai.md#end-check)."""
    game = _three_ties_then_a_fourth(tiny)
    game.apply(EndTurn())
    assert not game.is_over and game.view(0)["removed"] == {"buddha": 1, "rice": 1, "castle": 1}
    game.apply(PlaceTile("samurai-1", (4, 4)))
    assert not game.is_over
    game.apply(EndTurn())
    assert game.is_over and game.result.end_reason == "removed_by_ties"
    assert game.view(0)["removed"] == {"buddha": 1, "rice": 1, "castle": 2}


def test_the_published_editions_end_at_the_fourth_tie_by_default():
    """docs/rules/samurai.md#end: "the fourth figure has been removed by a tie", for every player count."""
    for edition in ("ffg2015", "original"):
        for players in (2, 3, 4):
            assert samurai.load_edition(edition).rules(players).removed_limit == 4, (edition, players)


LAST_CASTLE = {"Kita": ["castle"], "Higashi": ["buddha"], "Machi": ["buddha", "rice"], "Nishi": ["rice"]}
"""Kita holds the last castle figure on the board; Miyako and Minami were resolved earlier."""
LAST_CASTLE_CAPTURES = {0: {"castle": 1, "buddha": 1, "rice": 1}, 1: {"castle": 1}}


def test_original_play_stops_at_once_when_a_caste_runs_out(tiny_original):
    """docs/rules/samurai.md#end: a caste with no figure left on the board ends the game; the original
    stops at the tile that captures the last one (docs/rules/samurai.md#end-check): no further tile, no refill."""
    game = scenario_game(tiny_original, 2, 1, [((2, 1), "castle-4", 0)], figures=LAST_CASTLE,
                         captures=LAST_CASTLE_CAPTURES)
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))
    assert game.is_over and game.result.end_reason == "caste_exhausted"
    assert captured(game, 0)["castle"] == 2 and len(hand(game, 1)) == 4
    with pytest.raises(IllegalAction, match="over"):
        game.apply(PlaceTile("ronin", (4, 2)))


def test_ffg_a_caste_running_out_mid_turn_ends_the_game_after_the_turn(tiny):
    """docs/rules/samurai.md#end and docs/rules/samurai.md#end-check (FFG 2015): the last castle
    figure is decided at the end of the turn, and the game ends after placement, capture and refill."""
    game = scenario_game(tiny, 2, 1, [((2, 1), "castle-4", 0)], figures=LAST_CASTLE, captures=LAST_CASTLE_CAPTURES)
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))
    assert not game.is_over and figures_at(game, KITA) == ["castle"]
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert game.is_over and game.result.end_reason == "caste_exhausted"
    assert captured(game, 0)["castle"] == 2 and len(hand(game, 1)) == 5


# --- scoring (docs/rules/samurai.md#original-scoring, docs/rules/samurai.md#ffg2015-scoring) ---------------------

def test_original_tied_holders_compare_totals_among_themselves_only():
    """docs/rules/samurai.md#original-scoring: "the most 'other' figures ... wins; still tied, the most
    figures in total": only the holders tied on others compare totals; a holder with fewer others stays out
    however many it has.

    Seat 0 holds buddha (others 3, total 8), seat 1 rice (others 3, total 7), seat 2 castle (others 2,
    total 9): seats 0 and 1 tie on others and seat 0 wins on total; seat 2 is not in that comparison.
    """
    result = samurai.score("original", {0: {"buddha": 5, "rice": 3, "castle": 0},
                                        1: {"buddha": 0, "rice": 4, "castle": 3},
                                        2: {"buddha": 2, "rice": 0, "castle": 7}})
    assert (result.winners, result.reason) == ((0,), "total_figures")


def test_ffg_tied_leaders_compare_all_castes_among_themselves_only():
    """docs/rules/samurai.md#ffg2015-scoring: leaders still tied on the other castes compare "all three castes":
    only those still tied; a leader with fewer other figures stays out however many it has in total."""
    result = samurai.score("ffg2015", {0: {"buddha": 5, "rice": 3, "castle": 0},
                                       1: {"buddha": 0, "rice": 4, "castle": 3},
                                       2: {"buddha": 2, "rice": 0, "castle": 7}})
    assert (result.winners, result.reason) == ((0,), "all_castes")


# --- information (docs/rules/samurai.md#hidden-information: captured figures) --------------------------

def test_original_captured_figures_are_hidden_with_four_players(tiny_original):
    """docs/rules/samurai.md#hidden-information, captured figures (original): "except with two players":
    with four players a capture shows only to its owner."""
    game = scenario_game(tiny_original, 4, 1, [((2, 1), "castle-4", 0)])
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # resolves at once: castle 4 against 1
    assert captured(game, 0)["castle"] == 1
    for seat in (1, 2, 3):
        assert "captured" not in game.view(seat)["seats"][0]

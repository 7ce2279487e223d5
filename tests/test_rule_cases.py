"""Rule cases the other rule tests do not reach: Move and Switch under the original timing, a Move
away from a settlement surrounded earlier in the turn, one tile surrounding two settlements, ties
among three and four players under both scorings, every tile kind against every caste, FFG play
after a mid-turn end trigger, and passing reached through legal play (docs/rules/samurai.md#turn,
docs/rules/samurai.md#end, docs/rules/samurai.md#edition-differences, docs/rules/samurai.md#ffg2015-scoring,
docs/rules/samurai.md#original-scoring).
"""

from __future__ import annotations

import pytest

import samurai
from samurai import EndTurn, IllegalAction, MoveTile, PlaceTile, SwitchFigures
from samurai_plugins.knizia.core.tiles import CASTES

from helpers import (
    DATA,
    HIGASHI,
    KITA,
    KITA_LAND,
    KITA_SEA,
    MACHI,
    MINAMI,
    MIYAKO,
    captured,
    figures_at,
    hand,
    setup_tiny,
    tile_at,
)

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

MOVE_HAND = ("castle-4", "samurai-1", "ship-2", "ronin", "move")
SWITCH_HAND = ("castle-4", "samurai-1", "ship-2", "ronin", "switch")


# --- Move and Switch under the original edition (docs/rules/samurai.md#resolution-timing) ----

def test_original_a_move_that_surrounds_a_settlement_resolves_it_at_once(tiny_original):
    game = setup_tiny(tiny_original, hands={0: MOVE_HAND, 1: MOVE_HAND})
    game.apply(PlaceTile("castle-4", (4, 2)))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(MoveTile((4, 2), KITA_LAND[1]))  # castle 4 against 1 closes Kita
    assert figures_at(game, KITA) == [] and captured(game, 0)["castle"] == 1  # before the turn ends
    assert tile_at(game, (4, 2))["tile"] == "move" and tile_at(game, KITA_LAND[1])["tile"] == "castle-4"
    game.apply(PlaceTile("ronin", (3, 2)))  # the turn goes on with fast tiles
    game.apply(EndTurn())
    assert game.current_player == 1


def test_ffg_the_same_move_waits_for_the_end_of_the_turn(tiny):
    game = setup_tiny(tiny, hands={0: MOVE_HAND, 1: MOVE_HAND})
    game.apply(PlaceTile("castle-4", (4, 2)))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(MoveTile((4, 2), KITA_LAND[1]))
    assert figures_at(game, KITA) == ["castle"]
    game.apply(EndTurn())
    assert figures_at(game, KITA) == [] and captured(game, 0)["castle"] == 1


def test_original_switch_exchanges_figures_and_the_next_surround_resolves_the_switched_figure(tiny_original):
    game = setup_tiny(tiny_original, hands={0: SWITCH_HAND, 1: SWITCH_HAND})
    game.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(SwitchFigures(KITA, "castle", HIGASHI, "buddha"))  # fast: seat 1 plays a tile after it
    assert figures_at(game, KITA) == ["buddha"] and figures_at(game, HIGASHI) == ["castle"]
    game.apply(PlaceTile("castle-4", KITA_LAND[1]))  # castle-4 counts nothing for buddha: 1 against 0
    assert figures_at(game, KITA) == [] and captured(game, 0)["buddha"] == 1
    view = game.view(1)  # the Switch tile left the game: one of seat 1's 20 tiles is nowhere
    on_board = sum(1 for tile in view["board"]["tiles"] if tile["owner"] == 1)
    assert "switch" not in view["hand"] and len(view["hand"]) + view["seats"][1]["stack_size"] + on_board == 19


def test_original_switch_cannot_use_a_settlement_resolved_earlier_in_the_same_turn(tiny_original):
    game = setup_tiny(tiny_original, hands={0: SWITCH_HAND, 1: SWITCH_HAND})
    game.apply(PlaceTile("castle-4", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # resolved at once: castle 4 against 1
    with pytest.raises(IllegalAction, match="no castle figure in Kita"):
        game.apply(SwitchFigures(KITA, "castle", HIGASHI, "buddha"))
    assert SwitchFigures(MACHI, "buddha", MINAMI, "castle") in game.legal_actions()


# --- a Move away from a settlement surrounded earlier in the turn (docs/rules/samurai.md#move-tile) ----

KITA_WITH_SHIP = {0: ("castle-4", "samurai-1", "ship-2", "ronin", "move"),
                  1: ("samurai-1", "ship-2", "ship-1", "ronin", "move")}


def _kita_closed_then_castle_moved_away(edition: samurai.Edition) -> samurai.Game:
    """Seat 0's castle-4 beside Kita and seat 1's ship-2 in the sea beside it (earlier turns); then
    seat 0 closes Kita with its ronin and, in the same turn, moves the castle-4 away."""
    game = setup_tiny(edition, hands=KITA_WITH_SHIP)
    game.apply(PlaceTile("castle-4", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("ship-2", KITA_SEA[0]))
    game.apply(PlaceTile("samurai-1", (4, 2)))
    game.apply(EndTurn())
    game.apply(PlaceTile("ronin", KITA_LAND[1]))  # Kita surrounded: castle 4 + 1 against 2
    game.apply(MoveTile(KITA_LAND[0], (3, 2)))  # the Move tile (0) now stands beside Kita
    game.apply(EndTurn())
    return game


def test_ffg_a_move_away_from_a_settlement_surrounded_this_turn_counts_at_resolution(tiny):
    # FFG 2015 resolves at the end of the turn (docs/rules/samurai.md#resolution-timing): the castle-4 has left,
    # 1 against 2.
    game = _kita_closed_then_castle_moved_away(tiny)
    assert figures_at(game, KITA) == []
    assert captured(game, 1)["castle"] == 1 and captured(game, 0)["castle"] == 0
    assert tile_at(game, KITA_LAND[0])["tile"] == "move"


def test_original_a_move_away_after_the_surround_changes_nothing(tiny_original):
    # The original resolves immediately (docs/rules/samurai.md#resolution-timing): Kita went to seat 0, 5 against 2,
    # before the Move.
    game = _kita_closed_then_castle_moved_away(tiny_original)
    assert captured(game, 0)["castle"] == 1 and captured(game, 1)["castle"] == 0


# --- one tile surrounding two settlements (docs/rules/samurai.md#surround) -------------------

def _two_settlements_one_hex_apart() -> dict:
    """Miyako (capital) and Machi (city) each one empty land hex from surrounded: the same hex (4, 3)."""
    def tile(at, name, owner):
        return {"at": list(at), "tile": name, "owner": owner}

    return {
        "players": 2, "to_act": 0, "turn": 6,
        "figures": {"Kita": ["castle"], "Higashi": ["buddha"], "Miyako": ["buddha", "rice", "castle"],
                    "Machi": ["buddha", "rice"], "Nishi": ["rice"], "Minami": ["castle"]},
        "tiles": [tile((4, 2), "castle-4", 0), tile((3, 2), "buddha-4", 0), tile((5, 4), "rice-2", 0),
                  tile((2, 3), "samurai-3", 1), tile((4, 4), "rice-4", 1), tile((3, 4), "samurai-1", 1),
                  tile((6, 2), "buddha-2", 1), tile((5, 2), "castle-3", 1)],
        "seats": [{"hand": ["samurai-2", "ronin", "ship-1", "move", "switch"]},
                  {"hand": ["samurai-2", "ronin", "ship-1", "move", "switch"]}],
    }


EXPECTED_TWO = [  # (event, settlement, caste, seat or None, influence); the engine's fixed order does not matter
    ("capture", "Miyako", "buddha", 0, [6, 4]), ("capture", "Miyako", "rice", 1, [2, 8]),
    ("capture", "Miyako", "castle", 0, [6, 4]), ("remove", "Machi", "buddha", None, [2, 2]),
    ("capture", "Machi", "rice", 0, [4, 0])]


def _resolutions(game: samurai.Game) -> list[tuple]:
    return [(e["event"], e["settlement"], e["caste"], e.get("seat"), e["influence"])
            for e in game.events() if e["event"] in ("capture", "remove")]


@pytest.mark.parametrize("fixture, resolves_at_once", [("tiny", False), ("tiny_original", True)])
def test_one_tile_surrounding_two_settlements_resolves_every_figure_of_both(request, fixture, resolves_at_once):
    edition = request.getfixturevalue(fixture)
    game = samurai.new_game(edition, scenario=_two_settlements_one_hex_apart())
    game.apply(PlaceTile("samurai-2", (4, 3)))  # beside Miyako and Machi
    assert (figures_at(game, MIYAKO) == []) == resolves_at_once
    game.apply(EndTurn())
    assert figures_at(game, MIYAKO) == [] and figures_at(game, MACHI) == []
    assert sorted(_resolutions(game), key=str) == sorted(EXPECTED_TWO, key=str)
    assert captured(game, 0) == {"buddha": 1, "rice": 1, "castle": 1}
    assert captured(game, 1) == {"buddha": 0, "rice": 1, "castle": 0}
    assert game.view(0)["removed"] == {"buddha": 1, "rice": 0, "castle": 0} and not game.is_over


def test_original_a_tile_closing_two_settlements_resolves_both_before_play_stops(tiny_original):
    # Ruling (docs/rules/samurai.md#ruling-resolution-order): every figure the same tile surrounds resolves
    # before the immediate end check, here in both settlements though Machi's tie ends the game.
    game = samurai.new_game(tiny_original, scenario=_two_settlements_one_hex_apart(), options={"removed_to_end": 1})
    game.apply(PlaceTile("samurai-2", (4, 3)))
    assert game.is_over and game.result.end_reason == "removed_by_ties"
    assert sorted(_resolutions(game), key=str) == sorted(EXPECTED_TWO, key=str)


# --- ties among three or more players (docs/rules/samurai.md#ffg2015-scoring, docs/rules/samurai.md#original-scoring) -

def _captures(*rows: tuple[int, int, int]) -> dict[int, dict[str, int]]:
    """Rows of (castle, buddha, rice) by seat."""
    return {seat: {"castle": c, "buddha": b, "rice": r} for seat, (c, b, r) in enumerate(rows)}


TIES = {
    # A tie at the top of a caste gives nobody its token or majority, whatever the tie below it; a unique
    # top above a tie below it does: seat 0 leads buddha (4 against 2, 2, 0) and holds the only one.
    "unique top over a tie below": (_captures((3, 4, 1), (3, 2, 1), (1, 2, 3), (1, 0, 3)),
                                    {"ffg2015": ((0,), "most_leader_tokens"), "original": ((0,), "other_figures")}),
    # Nobody leads any caste (three tied at 2 over one at 1): all compare totals, three tie at 6.
    "three tied at the top of every caste": (_captures((2, 2, 2), (2, 2, 2), (2, 2, 2), (1, 1, 1)),
                                             {"ffg2015": ((0, 1, 2), "no_tokens_shared"),
                                              "original": ((0, 1, 2), "no_majority_shared")}),
    # Three one-caste leaders: seats 0 and 1 tie on other figures (4, 4) above seat 2 (2); totals tie too.
    "two leaders tied above a third": (_captures((5, 2, 2), (2, 5, 2), (1, 1, 5), (0, 0, 0)),
                                       {"ffg2015": ((0, 1), "shared_win"), "original": ((0, 1), "shared_win")}),
    # The same tie on other figures (4, 4) over seat 2 (2), broken by totals: 9 against 10.
    "two leaders tied above a third, totals decide": (_captures((5, 2, 2), (1, 6, 3), (1, 1, 5)),
                                                      {"ffg2015": ((1,), "all_castes"),
                                                       "original": ((1,), "total_figures")}),
}


@pytest.mark.parametrize("edition", ["ffg2015", "original"])
@pytest.mark.parametrize("case", sorted(TIES))
def test_ties_among_three_or_more_players_a_tie_at_the_top_against_a_tie_below(edition, case):
    captures, expected = TIES[case]
    result = samurai.score(edition, captures)
    assert (result.winners, result.reason) == expected[edition]


# --- every tile kind against every caste (docs/rules/samurai.md#tiles) -------------------------

INFLUENCE = {  # tile: (castle, buddha, rice), from the table in docs/rules/samurai.md#tiles
    "castle-2": (2, 0, 0), "castle-3": (3, 0, 0), "castle-4": (4, 0, 0),
    "buddha-2": (0, 2, 0), "buddha-3": (0, 3, 0), "buddha-4": (0, 4, 0),
    "rice-2": (0, 0, 2), "rice-3": (0, 0, 3), "rice-4": (0, 0, 4),
    "samurai-1": (1, 1, 1), "samurai-2": (2, 2, 2), "samurai-3": (3, 3, 3),
    "ronin": (1, 1, 1), "ship-1": (1, 1, 1), "ship-2": (2, 2, 2), "move": (0, 0, 0), "switch": (0, 0, 0)}


@pytest.mark.parametrize("edition", ["ffg2015", "original"])
def test_the_influence_table_of_every_tile_kind_on_every_caste(edition):
    rules = samurai.load_edition(edition).rules(3)
    assert sorted(rules.tile_index) == sorted(INFLUENCE)
    for name, values in INFLUENCE.items():
        tile = rules.tile_index[name]
        by_caste = dict(zip(("castle", "buddha", "rice"), values, strict=True))
        assert [rules.tile_value[tile * 3 + c] for c in range(3)] == [by_caste[caste] for caste in CASTES], name


def _lone_figure(caste: str, tile: str, at: tuple[int, int]) -> dict:
    """Kita holds one ``caste`` figure with seat 0's ``tile`` beside it; every other figure is in Miyako
    or already captured by seat 1."""
    others = {c: (1 if c == caste else 2) for c in CASTES}
    return {"players": 2, "to_act": 1,
            "figures": {"Kita": [caste], "Miyako": list(CASTES)},
            "tiles": [{"at": list(at), "tile": tile, "owner": 0}],
            "seats": [{"hand": ["samurai-1", "samurai-2", "ship-1", "move", "switch"]},
                      {"hand": ["samurai-1", "ronin", "castle-3", "buddha-3", "rice-3"], "captured": others}]}


@pytest.mark.parametrize("caste", CASTES)
@pytest.mark.parametrize("tile", sorted(set(INFLUENCE) - {"move", "switch"}))
def test_a_placed_tile_of_every_kind_exerts_its_influence_on_every_caste(tiny, tile, caste):
    # docs/rules/samurai.md#influence: each player's influence is the sum of its adjacent tiles counting for the caste.
    ship = tile.startswith("ship")
    game = samurai.new_game(tiny, scenario=_lone_figure(caste, tile, KITA_SEA[0] if ship else KITA_LAND[0]))
    game.apply(PlaceTile("samurai-1", KITA_LAND[1 if not ship else 0]))
    if ship:
        game.apply(PlaceTile("ronin", KITA_LAND[1]))
    game.apply(EndTurn())
    (event,) = [e for e in game.events() if e["event"] in ("capture", "remove")]
    value = INFLUENCE[tile][("castle", "buddha", "rice").index(caste)]
    assert event["caste"] == caste and event["influence"] == [value, 2 if ship else 1]


def test_the_move_tile_left_on_the_board_exerts_no_influence_on_any_caste(tiny):
    game = setup_tiny(tiny, hands={0: MOVE_HAND, 1: MOVE_HAND})
    game.apply(PlaceTile("castle-4", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    game.apply(MoveTile(KITA_LAND[0], (3, 2)))  # the Move tile of seat 0 stays beside Kita
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))
    game.apply(EndTurn())
    (event,) = [e for e in game.events() if e["event"] in ("capture", "remove")]
    assert event["influence"] == [0, 1] and event["seat"] == 1


# --- FFG: the whole turn finishes after an end trigger (docs/rules/samurai.md#end-check) -----

FFG_TRIGGER_HANDS = {0: ("samurai-1", "castle-2", "ship-2", "ronin", "move"),
                     1: ("samurai-1", "ship-2", "ship-1", "ronin", "move")}


def _tie_closes_kita(edition: samurai.Edition) -> samurai.Game:
    """With the end at the first tie, seat 1 closes Kita 1 against 1: the tile that triggers the end."""
    game = setup_tiny(edition, hands=FFG_TRIGGER_HANDS, options={"removed_to_end": 1})
    game.apply(PlaceTile("samurai-1", KITA_LAND[0]))
    game.apply(EndTurn())
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))
    return game


def test_ffg_play_goes_on_after_a_mid_turn_end_trigger_and_the_rest_of_the_turn_counts(tiny):
    game = _tie_closes_kita(tiny)
    assert not game.is_over and EndTurn() in game.legal_actions()
    game.apply(PlaceTile("ship-2", KITA_SEA[0]))  # now 1 against 3: no tie after all
    game.apply(PlaceTile("ronin", (4, 2)))
    game.apply(EndTurn())
    assert not game.is_over and captured(game, 1)["castle"] == 1
    assert game.current_player == 0 and len(hand(game, 1)) == 5


def test_ffg_the_end_comes_after_the_whole_turn_when_the_trigger_stands(tiny):
    game = _tie_closes_kita(tiny)
    game.apply(PlaceTile("ronin", (4, 2)))  # a tile after the trigger still goes down
    assert not game.is_over
    game.apply(EndTurn())
    assert game.is_over and game.result.end_reason == "removed_by_ties"
    assert tile_at(game, (4, 2))["owner"] == 1 and len(hand(game, 1)) == 5  # placed, resolved, refilled


def test_original_the_same_trigger_stops_play_at_once(tiny_original):
    game = _tie_closes_kita(tiny_original)
    assert game.is_over and game.result.end_reason == "removed_by_ties"


# --- passing and "no player can play" through legal play (docs/rules/samurai.md#ruling-nobody-can-play) -

@pytest.fixture(scope="module")
def few_tiles() -> samurai.Edition:
    """FFG 2015 rules on the tiny map with six tiles a seat (tests/data/tiny-few-tiles.toml)."""
    return samurai.load_edition(str(DATA / "tiny-few-tiles.toml"))


def play_until_dry(game: samurai.Game) -> list[tuple[int, dict]]:
    """Seat 0 plays every tile it can each turn, the others one tile a turn, always on the last listed
    hex: seat 0 runs dry first. Returns (action number, event) for each pass and the end."""
    while game.phase != "play":
        game.apply(game.legal_actions()[0])
    log = []
    while not game.is_over:
        seen = len(game.events())
        places = [a for a in game.legal_actions() if isinstance(a, PlaceTile)]
        if places and (game.current_player == 0 or not game.view(game.current_player)["this_turn"]["tiles_played"]):
            game.apply(places[-1])
        else:
            game.apply(EndTurn())
        log += [(len(game.history), e) for e in game.events()[seen:] if e["event"] in ("pass", "end")]
    return log


def test_a_player_who_cannot_play_passes_and_the_game_ends_when_no_player_can(few_tiles):
    game = samurai.new_game(few_tiles, players=2, seed=3)
    log = play_until_dry(game)
    first_pass, first_event = log[0]
    assert first_event == {"event": "pass", "seat": 0}
    # Seat 0 passed while seat 1 still had a tile: seat 1 played on, then nobody could play.
    assert [e for n, e in log if n > first_pass] == [{"event": "pass", "seat": 0}, {"event": "pass", "seat": 1},
                                                     {"event": "end", "reason": "no_tiles"}]
    assert any(isinstance(a, PlaceTile) for a in game.history[first_pass:])
    assert game.result.end_reason == "no_tiles"
    view = game.view(0)
    assert all(s["hand_size"] == 0 and s["stack_size"] == 0 for s in view["seats"])

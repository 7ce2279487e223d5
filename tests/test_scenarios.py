"""Scenarios: starting from a hand-written position (samurai_plugins.knizia.play.scenarios; issue "Scenarios")."""

from __future__ import annotations

import pytest

import samurai
from samurai import DataError, EndTurn, MoveTile, PlaceTile
from samurai.catalog.editions import load_edition
from samurai.cli import main
from samurai_plugins.knizia.editions.rules import compile_rules
from samurai_plugins.knizia.play.record_files import record_from_dict, record_to_dict
from samurai_plugins.knizia.play.scenarios import scenario_state

from helpers import (
    DATA,
    KITA,
    KITA_LAND,
    ROOT,
    TINY_EDITION,
    assert_refused_unchanged,
    captured,
    figures_at,
    hand,
    tile_at,
)

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")

SCENARIO = DATA / "scenarios" / "tiny-midgame.toml"
BROKEN = DATA / "broken-scenarios"
EXAMPLE = ROOT / "docs" / "examples" / "late-game.toml"


@pytest.fixture
def game():
    # The scenario names its edition by the manifest's path: a manifest is used only when vouched for.
    return samurai.new_game(scenario=SCENARIO, seed=3, trust=[TINY_EDITION])


def test_the_game_starts_at_the_described_position(game):
    assert game.edition == "tiny-ffg2015"  # the scenario names the edition relative to its own file
    assert game.players == 2 and game.phase == "play" and game.turn == 4 and game.current_player == 1
    assert figures_at(game, KITA) == ["castle"]
    assert figures_at(game, (3, 3)) == ["buddha", "rice", "castle"]
    assert figures_at(game, (1, 5)) == []  # Nishi is not named: resolved
    assert tile_at(game, (2, 1)) == {"at": [2, 1], "tile": "castle-4", "owner": 0}
    assert tile_at(game, (1, 0))["tile"] == "ship-1"
    assert sorted(hand(game, 1)) == sorted(["samurai-1", "castle-2", "ship-2", "switch", "rice-4"])
    assert captured(game, 0) == {"buddha": 0, "rice": 1, "castle": 0}
    view = game.view(1)
    assert view["seats"][1]["stack_size"] == 4  # as listed
    assert view["seats"][0]["stack_size"] == 20 - 5 - 1  # by default, every other tile of the seat
    assert view["supply"] == {"buddha": 0, "rice": 0, "castle": 0}
    assert view["removed"] == {"buddha": 0, "rice": 0, "castle": 0}


def test_tiles_a_scenario_leaves_out_are_spent(game):
    # Seat 1: 5 in hand, 4 in its stack, 2 on the board: the other 9 of its 20 tiles have left the game.
    for seat, kept in ((0, 20), (1, 11)):
        view = game.view(seat)
        on_board = sum(1 for tile in view["board"]["tiles"] if tile["owner"] == seat)
        assert len(view["hand"]) + view["seats"][seat]["stack_size"] + on_board == kept
    assert game.state.spent[1] == 9 and game.state.spent[0] == 0


def test_play_goes_on_under_the_editions_rules(game):
    game.apply(PlaceTile("samurai-1", KITA_LAND[1]))  # closes Kita: castle 4 against 1
    game.apply(EndTurn())  # FFG 2015: resolved at the end of the turn
    assert figures_at(game, KITA) == []
    assert captured(game, 0)["castle"] == 1
    assert game.current_player == 0 and game.turn == 5


def test_tiles_of_a_scenario_were_placed_on_earlier_turns(game):
    game.apply(PlaceTile("ship-2", (2, 0)))
    game.apply(EndTurn())
    # Seat 0 may move its castle-4 at once: it was placed before this turn.
    game.apply(MoveTile((2, 1), (2, 2)))
    assert tile_at(game, (2, 1))["tile"] == "move" and tile_at(game, (2, 2))["tile"] == "castle-4"


def test_an_illegal_action_from_a_scenario_changes_nothing(game):
    assert_refused_unchanged(game, PlaceTile("castle-4", KITA_LAND[1]), match="no castle-4 tile in your hand")


def test_a_scenario_game_round_trips_through_its_record(tmp_path, game):
    while not game.is_over:
        game.apply(game.legal_actions()[len(game.history) % len(game.legal_actions())])
    for suffix in (".json", ".toml"):
        path = samurai.save(game, tmp_path / f"g{suffix}")
        loaded = samurai.load(path, trust=[TINY_EDITION])
        assert loaded.state.fingerprint() == game.state.fingerprint()
        assert loaded.result == game.result
    record = samurai.to_record(game)
    assert record.scenario["figures"]["Kita"] == ["castle"]  # the record stands alone
    assert record_from_dict(record_to_dict(record)) == record


def test_the_scenario_can_come_as_data(game):
    import tomllib

    data = tomllib.loads(SCENARIO.read_text())
    data["edition"] = str(DATA / "tiny-ffg2015.toml")
    same = samurai.new_game(scenario=data, seed=3, trust=[TINY_EDITION])
    assert same.state.fingerprint() == game.state.fingerprint()


def test_a_seat_that_cannot_play_passes_at_the_start(tmp_path):
    text = SCENARIO.read_text().replace('hand = ["samurai-1", "castle-2", "ship-2", "switch", "rice-4"]', "hand = []")
    text = text.replace('stack = ["buddha-2", "buddha-4", "castle-3", "samurai-3"]', "stack = []")
    path = tmp_path / "s.toml"
    path.write_text(text.replace('"../tiny-ffg2015.toml"', repr(str(DATA / "tiny-ffg2015.toml"))))
    game = samurai.new_game(scenario=path, trust=[TINY_EDITION])
    assert game.current_player == 0
    assert game.events() == [{"event": "pass", "seat": 1}]


def test_new_game_arguments_must_agree_with_the_scenario():
    with pytest.raises(DataError, match="for 2 players, not 3"):
        samurai.new_game(scenario=SCENARIO, players=3, trust=[TINY_EDITION])
    with pytest.raises(DataError, match="a position of edition '../tiny-ffg2015.toml', not 'ffg2015'"):
        samurai.new_game("ffg2015", scenario=SCENARIO)  # a scenario is played only under its own edition


def test_the_documented_example_plays_out(tmp_path, capsys):
    assert main(["play-scenario", str(EXAMPLE), "--bots", "greedy,random", "--seed", "2",
                 "--save", str(tmp_path / "late.json")]) == 0
    out = capsys.readouterr().out
    assert "Result: " in out and "saved:" in out
    game = samurai.load(tmp_path / "late.json")
    assert game.is_over and game.scenario is not None


BROKEN_SCENARIOS = {
    "already-over.toml": ("already over", "figures"),
    # Positions that cannot arise in play (docs/rules/samurai.md#turn, docs/rules/samurai.md#end; the edition's figure
    # counts).
    "capital-half-full.toml": ("Edo is a capital of 3 figures and holds 2", "figures.Edo"),
    "fewer-figures-than-the-edition.toml": ("3 short of the 10 of the edition", "figures"),
    "figure-left-in-the-supply.toml": ("1 short of the 3 of the edition", "figures"),
    "hand-short-with-a-stack.toml": ("seat 0 holds 4 tiles with 15 in its stack", "seats[0].hand"),
    "settlement-half-full.toml": ("Machi is a city of 2 figures and holds 1", "figures.Machi"),
    "hand-too-big.toml": ("at most 5 tiles, not 6", "seats[0].hand"),
    "hex-off-board.toml": ("not on the board", "tiles[1].at"),
    "map-outside-the-folder.toml": ("neither a bundled map nor a map file in the folder", "map"),
    "more-figures-than-the-edition.toml": ("more than the 3 of the edition", "figures"),
    "nobody-can-play.toml": ("already over (no tiles): no seat can play a tile", "seats"),
    "owner-not-a-seat.toml": ("owner 7 is not a seat", "tiles[1].owner"),
    "seat-count.toml": ("2 [[seats]] tables for 3 players", "seats"),
    "ship-on-land.toml": ("ship-2 goes on empty sea", "tiles[2].at"),
    "surrounded-with-figures.toml": ("Kita is surrounded", "figures.Kita"),
    "tile-on-settlement.toml": ("settlements never hold tiles", "tiles[0].at"),
    "to-act-not-a-seat.toml": ("to_act 2 is not a seat", "to_act"),
    "too-many-copies.toml": ("2 castle-4 tiles", "seats[0]"),
    "truncated.toml": ("not valid TOML", None),
    "two-of-one-caste.toml": ("never holds two figures of one caste", "figures.Machi"),
    "unknown-caste.toml": ("unknown caste 'dragon'", "figures.Higashi"),
    "unknown-key.toml": ("unknown key 'colour'", "colour"),
    "unknown-settlement.toml": ("no settlement named 'Atlantis'", "figures.Atlantis"),
    "unknown-tile.toml": ("unknown tile 'castle-9'", "tiles[0].tile"),
    "village-overfull.toml": ("room for 1 figure, not 2", "figures.Higashi"),
}


def test_the_broken_scenario_corpus_is_complete():
    assert sorted(BROKEN_SCENARIOS) == sorted(p.name for p in BROKEN.iterdir())


@pytest.mark.parametrize("name", sorted(BROKEN_SCENARIOS))
def test_a_broken_scenario_is_refused_naming_the_file_and_the_field(name, capsys):
    message, key = BROKEN_SCENARIOS[name]
    with pytest.raises(DataError) as refused:
        samurai.new_game(scenario=BROKEN / name, trust=[TINY_EDITION])
    assert message in refused.value.message
    assert refused.value.source == str(BROKEN / name) and refused.value.key == key
    assert main(["play-scenario", str(BROKEN / name), "--trust", TINY_EDITION]) == 2
    err = capsys.readouterr().err
    assert err.startswith("samurai: error: ") and err.count("\n") == 1 and str(BROKEN / name) in err


@pytest.mark.parametrize("name, line", [("hex-off-board.toml", 20), ("owner-not-a-seat.toml", 22),
                                        ("hand-too-big.toml", 30), ("unknown-settlement.toml", 12),
                                        ("to-act-not-a-seat.toml", 4), ("unknown-key.toml", 6)])
def test_scenario_errors_give_the_line_of_the_field(name, line):
    with pytest.raises(DataError) as refused:
        samurai.new_game(scenario=BROKEN / name, trust=[TINY_EDITION])
    assert refused.value.line == line
    text = (BROKEN / name).read_text().splitlines()[line - 1]
    assert refused.value.key.split(".")[-1].split("[")[0] in text or text.startswith("[[")


def test_a_position_that_disagrees_with_its_board_is_refused_by_either_engine(game):
    # A scenario's position reaches the game through the engine's of_state; one whose kept fields disagree with its
    # board is refused there in one line, the same line on both engines (samurai_plugins.knizia.engine.consistency).
    python_state = scenario_state(game.rules, game.scenario, 3)
    bad = python_state.copy()
    bad.empty_around[0] += 1
    with pytest.raises(DataError, match=r"the engine refuses the position: empty_around\[\d+\] is") as refused:
        game.engine.of_state(game.rules, bad)
    assert "\n" not in str(refused.value)
    game.engine.of_state(game.rules, python_state)  # the scenario's own position is taken


def test_an_edition_whose_starting_position_cannot_be_set_up_is_refused(monkeypatch):
    from samurai_plugins.knizia.engine import edition as editions

    def compiled_with_too_few_tiles(*arguments):
        rules = compile_rules(*arguments)
        rules.template.pools[0] = rules.template.pools[0][:1]
        return rules

    monkeypatch.setattr(editions, "compile_rules", compiled_with_too_few_tiles)
    with pytest.raises(DataError, match="the starting position cannot be set up: seat 0 has 1 tiles to choose a hand"):
        load_edition("ffg2015").rules(2)  # refused when compiled, on either engine, before any game

"""Games on the framework: an edition manifest names the game it plays (issue 12 items 2-3; samurai.catalog.games)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pluggy
import pytest

import samurai
import samurai.catalog.editions
from samurai import DataError
from samurai.catalog.editions import available_editions, installed_games, installed_plugins, load_edition
from samurai.catalog.games import GAMES_RESULT, GameDefinition, GameEditions, GameFaces, GameRunner
from samurai.cli import main
from samurai.hooks import specs as hookspecs
from samurai_plugins import daimyo
from samurai_plugins.knizia.adapters.game_state import HexGameState
from samurai_plugins.knizia.core.identity import KNIZIA
from samurai_plugins.knizia.editions import hookspecs as knizia_hookspecs
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.plugin import GAME as KNIZIA_GAME

from helpers import ROOT

DAIMYO_EDITIONS = ("daimyo", "daimyo-shinobi", "daimyo-nobori")


def test_a_manifest_without_a_game_key_plays_knizias_game():
    edition = load_edition("ffg2015")
    assert edition.manifest.game == KNIZIA and edition.game.name == KNIZIA
    assert isinstance(edition.start(3, 5), HexGameState)
    assert edition.player_counts == (2, 3, 4)


def test_the_daimyo_editions_are_installed_and_play_daimyo():
    assert set(DAIMYO_EDITIONS) <= set(available_editions())
    for ident in DAIMYO_EDITIONS:
        edition = load_edition(ident)
        assert edition.manifest.game == "daimyo" and edition.game is daimyo.GAME
        assert edition.player_counts == (2,)
        assert isinstance(edition.start(2, 1), daimyo.DaimyoState)


def test_the_base_editions_options_are_the_rulings_of_the_daimyo_module():
    edition = load_edition("daimyo")
    defaults = {name: spec.default for name, spec in edition.manifest.options.items()}
    assert defaults == {name: value for name, value in daimyo.DEFAULT_OPTIONS.items() if name in defaults}
    # The start squares are the board's (maps/battlefield.toml), and they are the module's ruling (start).
    assert dict(edition.board.start) == {name: value for name, value in daimyo.DEFAULT_OPTIONS.items()
                                         if name not in defaults}
    assert edition.start(2, 3).options == {**daimyo.DEFAULT_OPTIONS}


def test_the_variants_turn_on_their_optional_rule_and_nothing_else():
    base = load_edition("daimyo").start(2, 0).options
    assert load_edition("daimyo-shinobi").start(2, 0).options == {**base, "shinobi_wo_tsukau": True}
    assert load_edition("daimyo-nobori").start(2, 0).options == {**base, "nobori": True}


def test_the_same_seed_starts_the_same_daimyo_game_as_the_module():
    state = load_edition("daimyo").start(2, 42)
    assert state.tile == daimyo.new_state(42).tile and state.piece == daimyo.new_state(42).piece


def test_the_board_file_sets_the_start_squares(tmp_path: Path):
    board = (ROOT / "maps" / "battlefield.toml").read_text().replace('white_daimyo = "b1"', 'white_daimyo = "a1"')
    (tmp_path / "field.toml").write_text(board)
    manifest = (ROOT / "editions" / "daimyo.toml").read_text().replace('id = "daimyo"', 'id = "daimyo-a1"')
    (tmp_path / "a1.toml").write_text(manifest.replace('map = "battlefield"', 'map = "field.toml"'))
    state = load_edition(str(tmp_path / "a1.toml")).start(2, 0)
    assert state.piece[daimyo.square_of("a1")] == daimyo.DAIMYO and state.piece[daimyo.square_of("b1")] == -1


@pytest.mark.parametrize("old, new, message", [
    ("files = 6", "files = 13", r"battlefield.toml:\d+ \[files\]: files must be from 4 to 12, not 13"),
    ('white_shinobi = "e1"', 'white_shinobi = "b1"', r"start.white_shinobi.*b1 is already a start square"),
    ('black_daimyo = "b7"', 'black_daimyo = "b9"', r"start.black_daimyo.*not 'b9'"),
    ('game = "daimyo"', 'game = "go"', r"not a board of the 'daimyo' game"),
])
def test_a_bad_board_file_is_refused_naming_the_file_and_key(tmp_path: Path, old: str, new: str, message: str):
    board = (ROOT / "maps" / "battlefield.toml").read_text()
    assert old in board
    (tmp_path / "battlefield.toml").write_text(board.replace(old, new))
    manifest = (ROOT / "editions" / "daimyo.toml").read_text().replace('id = "daimyo"', 'id = "daimyo-x"')
    (tmp_path / "x.toml").write_text(manifest.replace('map = "battlefield"', 'map = "battlefield.toml"'))
    with pytest.raises(DataError, match=message):
        load_edition(str(tmp_path / "x.toml"))


@pytest.mark.parametrize("old, new, message", [
    ('game = "daimyo"', 'game = "chess"', r"no plugin of this edition plays game 'chess'"),
    ('map = "battlefield"', 'map = "battlefield"\nhand_size = 5', r"unknown key 'hand_size'"),
    ("[options.nobori]", "[options.noboru]", r"option 'noboru' is not a ruling of this game"),
])
def test_a_bad_daimyo_manifest_is_refused_in_one_line(tmp_path: Path, old: str, new: str, message: str):
    manifest = (ROOT / "editions" / "daimyo.toml").read_text()
    assert old in manifest
    (tmp_path / "x.toml").write_text(manifest.replace('id = "daimyo"', 'id = "daimyo-x"').replace(old, new))
    with pytest.raises(DataError, match=message) as caught:
        load_edition(str(tmp_path / "x.toml"))
    assert "\n" not in str(caught.value) and "x.toml" in str(caught.value)


def test_starting_a_daimyo_game_refuses_bad_players_seed_and_options():
    edition = load_edition("daimyo")
    with pytest.raises(DataError, match="for 2 players, not 3"):
        edition.start(3, 0)
    with pytest.raises(DataError, match="seed must be a whole number"):
        edition.start(2, -1)
    with pytest.raises(DataError, match="has no option 'shinobi'"):
        edition.start(2, 0, {"shinobi": True})
    with pytest.raises(DataError, match="must be one of 'draw', 'loss'"):
        edition.start(2, 0, {"stalemate": "win"})


def test_a_daimyo_edition_has_no_hex_rules_and_says_so_in_one_line():
    edition = load_edition("daimyo")
    assert not hasattr(edition, "rules") and not hasattr(edition, "map")  # Knizia's editions hold those
    assert isinstance(samurai.new_game(edition, players=2), samurai.ProtocolGame)  # the front door serves every game
    with pytest.raises(DataError, match="plays 'daimyo', not Knizia's game"):
        knizia_edition(edition)


def test_games_are_contributed_through_the_entry_points_of_their_plugins():
    games = installed_games()
    assert list(games) == [KNIZIA, "daimyo"]  # the default game first
    assert games[KNIZIA] is KNIZIA_GAME and games["daimyo"] is daimyo.GAME
    assert installed_plugins()["knizia"].module == "samurai_plugins.knizia.plugin"
    assert all(isinstance(d, GameDefinition) for d in games.values())
    # A Daimyo edition's plugins contribute Daimyo only: Knizia's game is no plugin of it.
    both = load_edition("daimyo").plugin_manager.hook.samurai_games()
    assert [definition.name for contributed in both for definition in contributed] == ["daimyo"]


def test_a_daimyo_manifest_without_its_plugin_still_plays_the_installed_game(tmp_path: Path):
    manifest = (ROOT / "editions" / "daimyo.toml").read_text().replace('id = "daimyo"', 'id = "daimyo-x"')
    assert 'plugins = ["daimyo"]' in manifest
    (tmp_path / "x.toml").write_text(manifest.replace('plugins = ["daimyo"]', "plugins = []"))
    edition = load_edition(str(tmp_path / "x.toml"))
    assert edition.game is daimyo.GAME and isinstance(edition.start(2, 0), daimyo.DaimyoState)


def test_a_contributed_definition_is_checked_group_by_group():
    # What samurai_games returns is held against GAMES_RESULT: a group of the wrong kind, or a wrong field inside a
    # group, is named by its place in the definition; both games' definitions pass.
    assert GAMES_RESULT.problem([KNIZIA_GAME, daimyo.GAME], {}) is None
    game = daimyo.GAME
    wrong: dict[str, GameDefinition] = {
        "faces": attrs.evolve(game, faces=GameEditions()),
        "faces.web": attrs.evolve(game, faces=GameFaces(web="page")),  # type: ignore[arg-type]
        "editions.check_manifest": attrs.evolve(game, editions=GameEditions(check_manifest=None)),  # type: ignore
        "editions.manifest_keys": attrs.evolve(game, editions=GameEditions(manifest_keys={"players"})),  # type: ignore
        "runner.bot_seed_offset": attrs.evolve(game, runner=GameRunner(bot_seed_offset=-1)),
    }
    for place, definition in wrong.items():
        problem = GAMES_RESULT.problem([definition], {})
        assert problem is not None, place
        assert problem.startswith(f"a list holding a GameDefinition 'daimyo', whose {place} is "), problem


def test_a_manifest_without_a_game_plays_the_game_that_says_it_is_the_default(tmp_path: Path, monkeypatch):
    edition = load_edition(str(ROOT / "tests" / "data" / "tiny-core.toml"))
    assert edition.manifest.game == KNIZIA and edition.game is KNIZIA_GAME and KNIZIA_GAME.default_game
    assert not daimyo.GAME.default_game
    two = {KNIZIA: KNIZIA_GAME, "daimyo": attrs.evolve(daimyo.GAME, default_game=True)}
    monkeypatch.setattr(samurai.catalog.editions, "installed_games", lambda: two)
    with pytest.raises(DataError, match=r"tiny-core.toml \[game\]: games 'knizia' and 'daimyo' both say it is the "
                                        r"default game"):
        load_edition(str(ROOT / "tests" / "data" / "tiny-core.toml"))
    none = {KNIZIA: attrs.evolve(KNIZIA_GAME, default_game=False), "daimyo": daimyo.GAME}
    monkeypatch.setattr(samurai.catalog.editions, "installed_games", lambda: none)
    with pytest.raises(DataError, match="no installed game says it is the default game"):
        load_edition(str(ROOT / "tests" / "data" / "tiny-core.toml"))
    assert load_edition("daimyo").game is daimyo.GAME  # a manifest that names its game needs no default


def test_a_daimyo_editions_plugin_manager_holds_none_of_knizias_hooks():
    knizia_hooks = {name for name in dir(knizia_hookspecs) if name.startswith("samurai_")}
    daimyo_hooks = {name for name, caller in vars(load_edition("daimyo").plugin_manager.hook).items()
                    if isinstance(caller, pluggy.HookCaller)}
    assert knizia_hooks and not knizia_hooks & daimyo_hooks
    assert daimyo_hooks == {name for name in dir(hookspecs) if name.startswith("samurai_")}
    ffg = load_edition("ffg2015").plugin_manager
    assert knizia_hooks <= {name for name, caller in vars(ffg.hook).items() if isinstance(caller, pluggy.HookCaller)}
    assert [name for name, _ in KNIZIA_GAME.editions.plugins] == ["samurai_plugins.knizia.editions.defaults",
                                                                   "samurai_plugins.knizia.engine.special_tiles"]
    assert all(ffg.get_plugin(name) is module for name, module in KNIZIA_GAME.editions.plugins)


def test_samurai_editions_lists_the_daimyo_editions_with_their_game(capsys: pytest.CaptureFixture[str]):
    assert main(["editions"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for ident in DAIMYO_EDITIONS:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{ident} 1.0.0: "))
        assert lines[at + 1].startswith("  game: daimyo"), ident
        assert lines[at + 3] == "  players: 2; map: Battlefield", ident
    at = next(i for i, line in enumerate(lines) if line.startswith("ffg2015 1.0.0: "))
    assert lines[at + 1].startswith("  game: knizia")

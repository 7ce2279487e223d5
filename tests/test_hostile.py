"""Hostile input: data never runs code, and every bad input is one line, exit 2 (issue 8, items 1, 2, 8).

``tests/data/hostile`` holds records, scenarios, manifests and maps a careless or hostile person
could send. Files that cannot be kept in the repository (a pipe, a link to /dev/zero, huge files,
absolute paths, links leading out of a folder) are made in ``tmp_path``. Each is refused through
the API (``DataError``, ``IllegalAction`` or ``TypeError``, never another exception) and through the
command (exit code 2, exactly one line on stderr, no traceback). The hostile plugin
(``hostile/plugin/evil.py``) writes a marker file when it is imported: no case may create it, and
one test shows it does when its manifest is vouched for, so the marker can tell.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import samurai
from samurai import DataError, IllegalAction
from samurai.cli import main
from samurai_plugins.knizia.core.maps import load_map

from helpers import DATA, ROOT, TINY_EDITION

HOSTILE = DATA / "hostile"
EVIL = HOSTILE / "plugin" / "evil.toml"
RECORDS = HOSTILE / "records"
SCENARIOS = HOSTILE / "scenarios"
MANIFESTS = HOSTILE / "manifests"
MAPS = HOSTILE / "maps"
SECRET = "hunter2"
"""The content of the files hostile data points at: no message may quote it."""


@pytest.fixture(autouse=True)
def marker(tmp_path, monkeypatch):
    """Where the hostile plugin would leave its mark; checked after every test."""
    path = tmp_path / "hostile-plugin-ran"
    monkeypatch.setenv("SAMURAI_HOSTILE_MARKER", str(path))
    yield path
    assert not path.exists(), "the hostile plugin ran"


def command_refuses(argv, capsys):
    """Run the command: exit code 2, one line on stderr naming the error, nothing on stdout; return it."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit:  # argparse refuses bad arguments by exiting
        code = exit.code
    out, err = capsys.readouterr()
    assert code == 2, err
    assert err.startswith("samurai: error: ") or err.startswith("samurai ") and ": error: " in err, err
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err
    assert SECRET not in err and SECRET not in out
    return err


def api_refuses(call, *args, **kwargs):
    """The API refuses with one of the errors it promises, with a one-line message."""
    with pytest.raises((DataError, IllegalAction, TypeError)) as refused:
        call(*args, **kwargs)
    text = str(refused.value)
    assert text and "\n" not in text and SECRET not in text
    return refused.value


# --- records -----------------------------------------------------------------------------------

RECORD_CORPUS = {
    "action-a-list.json": ("an action is a table", "actions[0]"),
    "duplicate-key.json": ("key 'edition' is given twice", "edition"),
    "edition-empty.json": ("an edition is named by its id", "edition"),
    "edition-id-of-a-manifest.json": ("no edition named 'evil' is installed", "edition"),
    "edition-manifest-path.json": ("names the edition manifest '../plugin/evil.toml'", "edition"),
    "edition-manifest-with-plugin-action.json": ("names the edition manifest", "edition"),
    "edition-not-text.json": ("expected str, got int", "edition"),
    "edition-with-a-nul.json": ("names the edition manifest", "edition"),
    "forged-line.json": ("unknown field", None),
    "infinite-option.toml": ("inf is not a number", "options.removed_to_end"),
    "map-absolute.json": ("neither a bundled map nor a map file in the folder", "map"),
    "map-beside-that-is-not-a-map.json": ("is not a valid map", "map"),
    "map-hidden-file.json": ("neither a bundled map nor a map file in the folder", "map"),
    "map-name-too-long.json": ("is not in the folder", "map"),
    "map-in-a-sub-folder.json": ("neither a bundled map nor a map file in the folder", "map"),
    "map-not-text.json": ("expected str", "map"),
    "map-outside-the-folder.json": ("neither a bundled map nor a map file in the folder", "map"),
    "negative-seed.json": ("from 0 to 2**63-1, not -7", "seed"),
    "nested-deeply.json": ("nested deeper than 32 levels", None),
    "nested-deeply.toml": ("nested deeper than 32 levels", None),
    "not-a-number.json": ("NaN is not a number", None),
    "not-utf8.json": ("is not UTF-8 text", None),
    "players-huge.json": ("is for 2, 3, 4 players", "players"),
    "scenario-names-a-manifest.json": ("a position of edition '../plugin/evil.toml', not 'ffg2015'",
                                       "scenario.edition"),
    "schema-huge.json": ("newer than this engine reads", "schema"),
    "seed-beyond-64-bits.json": ("1180591620717411303424 is out of range", "seed"),
    "seed-too-long.json": ("(5000 digits) is out of range", "seed"),
}
BESIDE_THE_RECORDS = {"not-a-map.toml", ".secret.toml"}
"""Files the hostile records point at, not records themselves."""


def test_the_record_corpus_lists_every_file():
    assert sorted(RECORD_CORPUS) == sorted(p.name for p in RECORDS.iterdir() if p.name not in BESIDE_THE_RECORDS)


@pytest.mark.parametrize("name", sorted(RECORD_CORPUS))
def test_a_hostile_record_is_refused_by_the_api_naming_the_file_and_the_field(name):
    message, key = RECORD_CORPUS[name]
    error = api_refuses(samurai.load, RECORDS / name)
    assert message in error.message and error.source == str(RECORDS / name) and error.key == key


@pytest.mark.parametrize("name", sorted(RECORD_CORPUS))
def test_a_hostile_record_is_refused_by_replay_in_one_line(name, capsys):
    err = command_refuses(["replay", RECORDS / name], capsys)
    assert str(RECORDS / name) in err


def test_a_record_naming_a_manifest_says_exactly_how_to_vouch_for_it(capsys):
    err = command_refuses(["replay", RECORDS / "edition-manifest-path.json"], capsys)
    assert f"--trust {EVIL}" in err and f"trust=['{EVIL}']" in err


def test_the_marker_shows_when_the_hostile_plugin_runs(marker, capsys):
    # The control: vouching for the manifest runs its plugin, so the marker would catch a leak.
    with pytest.raises(DataError):  # the record is refused later, for its unknown action
        samurai.load(RECORDS / "edition-manifest-with-plugin-action.json", trust=[EVIL])
    assert marker.exists() and "HOSTILE PLUGIN RAN" in capsys.readouterr().out
    marker.unlink()


def test_a_record_names_a_manifest_by_absolute_path_or_link_and_nothing_runs(tmp_path, capsys):
    record = json.loads((RECORDS / "edition-manifest-path.json").read_text())
    record["edition"] = str(EVIL)
    (tmp_path / "absolute.json").write_text(json.dumps(record))
    (tmp_path / "link.toml").symlink_to(EVIL)
    record["edition"] = "link.toml"
    (tmp_path / "link.json").write_text(json.dumps(record))
    for name in ("absolute.json", "link.json"):
        error = api_refuses(samurai.load, tmp_path / name)
        assert error.key == "edition" and "which is not installed" in error.message
        command_refuses(["replay", tmp_path / name], capsys)
        command_refuses(["analyse", tmp_path], capsys)


def test_a_record_is_replayed_only_under_the_edition_it_names(original):
    game = samurai.new_game("ffg2015", players=2, seed=1)
    samurai.play_bots(game, ["random"], seed=1, actions=30)
    error = api_refuses(samurai.from_record, samurai.to_record(game), edition=original)
    assert error.key == "edition" and "not 'original'" in error.message


def test_a_folder_of_records_and_maps_works_from_any_working_folder(tmp_path, monkeypatch):
    # A game on a map file beside its record: the record names the map by its file name.
    folder = tmp_path / "shared"
    folder.mkdir()
    shutil.copy(SCENARIOS / "island.toml", folder / "island.toml")
    game = samurai.new_game(TINY_EDITION, players=2, seed=4, map=str(folder / "island.toml"))
    samurai.play_bots(game, ["greedy"], seed=2, actions=40)
    path = samurai.save(game, folder / "game.json")
    assert json.loads(path.read_text())["map"] == "island.toml"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    loaded = samurai.load(path, trust=[TINY_EDITION])
    assert loaded.state.fingerprint() == game.state.fingerprint()
    assert main(["replay", str(path), "--trust", TINY_EDITION]) == 0


# --- scenarios ---------------------------------------------------------------------------------

SCENARIO_CORPUS = {
    "edition-manifest-path.toml": ("names the edition manifest '../plugin/evil.toml'", "edition"),
    "edition-not-text.toml": ("edition must be str", "edition"),
    "edition-unknown.toml": ("no edition named 'atlantis' is installed", "edition"),
    "map-absolute.toml": ("neither a bundled map nor a map file in the folder", "map"),
    "map-beside-that-is-not-a-map.toml": ("is not a valid map", "map"),
    "map-does-not-fit-the-edition.toml": ("edition 'tiny-ffg2015' does not fit map 'Japan'", "map"),
    "map-missing.toml": ("map file 'nowhere.toml' is not in the folder", "map"),
    "map-outside-the-folder.toml": ("neither a bundled map nor a map file in the folder", "map"),
    "map-unknown.toml": ("no map named 'atlantis'", "map"),
    "nested-deeply.toml": ("nested deeper than 32 levels", None),
}
BESIDE_THE_SCENARIOS = {"not-a-map.toml", "island.toml", "island-beside.toml"}


def test_the_scenario_corpus_lists_every_file():
    assert sorted(SCENARIO_CORPUS) == sorted(p.name for p in SCENARIOS.iterdir()
                                             if p.name not in BESIDE_THE_SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIO_CORPUS))
def test_a_hostile_scenario_is_refused_naming_the_scenario_and_the_field(name, capsys):
    message, key = SCENARIO_CORPUS[name]
    # The tiny edition is vouched for (the map cases name it by path), the hostile one never.
    error = api_refuses(samurai.new_game, scenario=SCENARIOS / name, trust=[TINY_EDITION])
    assert message in error.message and error.source == str(SCENARIOS / name) and error.key == key
    err = command_refuses(["play-scenario", SCENARIOS / name, "--trust", TINY_EDITION], capsys)
    assert str(SCENARIOS / name) in err


def test_a_scenario_and_its_map_beside_it_play_from_any_working_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    scenario = SCENARIOS / "island-beside.toml"
    game = samurai.new_game(scenario=scenario, seed=2, trust=[TINY_EDITION])
    assert game.rules.board.map.source == str(SCENARIOS / "island.toml")
    assert main(["play-scenario", str(scenario), "--trust", TINY_EDITION, "--save", "out.json"]) == 0
    capsys.readouterr()
    assert samurai.load(tmp_path / "out.json", trust=[TINY_EDITION, str(SCENARIOS / "island.toml")]).is_over


def test_a_scenario_is_played_only_under_the_edition_it_names(capsys):
    error = api_refuses(samurai.new_game, "original", scenario=SCENARIOS / "island-beside.toml")
    assert error.key == "edition" and "a position of edition 'tiny-ffg2015', not 'original'" in error.message
    command_refuses(["play-scenario", SCENARIOS / "island-beside.toml", "--edition", "original"], capsys)


# --- manifests ---------------------------------------------------------------------------------

MANIFEST_CORPUS = {
    "extends-a-manifest-path.toml": ("which is not an installed edition", "extends"),
    "figures-per-caste-huge.toml": ("4294967296 is out of range (1 to 99)", "players.2.figures_per_caste"),
    "hand-size-huge.toml": ("1000000 is out of range (1 to 20)", "hand_size"),
    "influence-past-32-bits.toml": ("2147483647 is out of range (0 to 99)", "tiles.buddha.influence"),
    "map-in-parent-folder.toml": ("must lie in the manifest's folder", "map"),
    "map-missing.toml": ("map file nowhere.toml not found in the manifest's folder", "map"),
    "nested-deeply.toml": ("nested deeper than 32 levels", None),
    "option-choices-mixed.toml": ("choices must all be int like the default 1", "options.speed.choices"),
    "pieces-twice.toml": ("names a piece twice", "players.2.pieces"),
    "plugin-absolute-path.toml": ("must lie in the manifest's folder", "plugins"),
    "plugin-in-parent-folder.toml": ("must lie in the manifest's folder", "plugins"),
    "tiles-of-a-kind-too-many.toml": ("100 tiles is out of range (1 to 99)", "tiles.rice.influence"),
    "players-key-not-ascii.toml": ("the key must be a player count from 2 to 8", "players.²"),
    "unknown-piece.toml": ("has no piece 'atlantis'", "players.2.pieces"),
}


def test_the_manifest_corpus_lists_every_file():
    assert sorted(MANIFEST_CORPUS) == sorted(p.name for p in MANIFESTS.iterdir())


@pytest.mark.parametrize("name", sorted(MANIFEST_CORPUS))
def test_a_hostile_manifest_is_refused_naming_the_manifest_and_the_field(name, capsys):
    message, key = MANIFEST_CORPUS[name]
    error = api_refuses(samurai.load_edition, str(MANIFESTS / name))
    assert message in error.message and error.source == str(MANIFESTS / name) and error.key == key
    command_refuses(["editions", MANIFESTS / name], capsys)
    command_refuses(["simulate", "--edition", MANIFESTS / name, "--games", "1", "--no-progress"], capsys)


def test_a_plugin_file_linked_from_outside_the_manifests_folder_is_refused(tmp_path, capsys):
    (tmp_path / "variant.py").symlink_to(HOSTILE / "plugin" / "evil.py")
    manifest = tmp_path / "variant.toml"
    manifest.write_text('id = "variant"\nname = "v"\nversion = "1.0.0"\nextends = "ffg2015"\n'
                        'plugins = ["variant.py"]\n')
    error = api_refuses(samurai.load_edition, str(manifest))
    assert error.key == "plugins" and "links leading out are refused" in error.message
    command_refuses(["editions", manifest], capsys)


# --- maps --------------------------------------------------------------------------------------

MAP_CORPUS = {
    "control-characters.toml": "unknown key",
    "empty.toml": "missing key 'name'",
    "integer-too-long.toml": "an integer has too many digits",
    "nested-deeply.toml": "nested deeper than 32 levels",
    "not-utf8.toml": "is not UTF-8 text",
    "piece-name-a-number.toml": "must be a non-empty string",
    "settlements-not-a-list.toml": "settlements must be list",
    "terrain-a-table.toml": "terrain must be str",
}


def test_the_map_corpus_lists_every_file():
    assert sorted(MAP_CORPUS) == sorted(p.name for p in MAPS.iterdir())


@pytest.mark.parametrize("name", sorted(MAP_CORPUS))
def test_a_hostile_map_is_refused_in_one_line(name, tmp_path, capsys):
    error = api_refuses(load_map, MAPS / name)
    assert MAP_CORPUS[name] in error.message and error.source == str(MAPS / name)
    # Through the command: a manifest beside a copy of the map names it.
    shutil.copy(MAPS / name, tmp_path / "board.toml")
    manifest = tmp_path / "variant.toml"
    manifest.write_text('id = "variant"\nname = "v"\nversion = "1.0.0"\nextends = "ffg2015"\nmap = "board.toml"\n')
    err = command_refuses(["editions", manifest], capsys)
    assert "\\x1b" in err or "\x1b" not in err


def test_a_map_with_far_more_hexes_than_a_board_is_refused_before_the_work(tmp_path):
    row = " ".join("." for _ in range(200))
    picture = "\n".join((" " if r % 2 else "") + row for r in range(200))
    path = tmp_path / "vast.toml"
    path.write_text(f'name = "Vast"\nsettlements = []\nterrain = """\n{picture}\n"""\n'
                    f'pieces = """\n{picture.replace(".", "1")}\n"""\n[piece_names]\n1 = "all"\n')
    assert "a map has at most 10,000" in api_refuses(load_map, path).message


# --- comparison folders ------------------------------------------------------------------------

def tamper(folder, side, number, **changes):
    path = folder / side / f"game-{number:05d}.json"
    record = json.loads(path.read_text())
    record.update(changes)
    path.write_text(json.dumps(record))


FOLDER_CASES = {
    "another player count": (lambda d: tamper(d, "b", 1, players=3), "players"),
    "other options": (lambda d: tamper(d, "a", 1, options={"first_player": 1, "removed_to_end": 4,
                                                          "starting_hands": "choose",
                                                          "figure_distribution": "choose"}), "options"),
    "a hostile manifest": (lambda d: tamper(d, "a", 0, edition=str(EVIL)), "edition"),
    "another edition": (lambda d: tamper(d, "a", 1, edition="original"), "edition"),
    "an unfinished game": (lambda d: tamper(d, "a", 1, actions=json.loads((d / "a" / "game-00001.json").read_text())
                                             ["actions"][:40], check=None), "actions"),
    "a pipe": (lambda d: ((d / "a" / "game-00000.json").unlink(), os.mkfifo(d / "a" / "game-00000.json")), None),
    "a missing side": (lambda d: shutil.rmtree(d / "b"), None),
}


@pytest.fixture(scope="module")
def saved_comparison(tmp_path_factory):
    from samurai.runs.compare import compare

    folder = tmp_path_factory.mktemp("comparison")
    compare("ffg2015", "ffg2015", players=2, games=3, seed=2, save_dir=folder)
    return folder


@pytest.mark.parametrize("case", sorted(FOLDER_CASES))
def test_a_tampered_comparison_folder_is_refused_naming_the_file(case, saved_comparison, tmp_path, capsys):
    from samurai.runs.compare import analyse_records

    folder = tmp_path / "run"
    shutil.copytree(saved_comparison, folder)
    change, key = FOLDER_CASES[case]
    change(folder)
    error = api_refuses(analyse_records, folder)
    assert error.key == key and str(folder) in str(error)
    command_refuses(["analyse", folder], capsys)


def test_a_comparison_of_a_designers_edition_is_analysed_once_its_manifest_is_vouched_for(tmp_path, capsys):
    from samurai.runs.compare import analyse_records, compare

    saved = compare("ffg2015", TINY_EDITION, players=2, games=2, seed=3, save_dir=tmp_path)
    assert json.loads((tmp_path / "b" / "game-00000.json").read_text())["edition"] == "tiny-ffg2015"
    error = api_refuses(analyse_records, tmp_path)
    assert error.key == "edition" and "--trust MANIFEST.toml" in error.message
    command_refuses(["analyse", tmp_path], capsys)
    again = analyse_records(tmp_path, trust=[TINY_EDITION])
    assert [m.to_dict() for m in again.metrics] == [m.to_dict() for m in saved.metrics]
    assert main(["analyse", str(tmp_path), "--trust", TINY_EDITION]) == 0


# --- files that are not files, and files far too big ---------------------------------------------

SPECIAL = {"pipe": "not a regular file", "zero": "not a regular file", "folder": "a folder, not a regular file",
           "huge": "larger than any file samurai reads"}


def special_file(folder, kind, suffix):
    """A pipe, a link to /dev/zero, a folder, or a file far larger than any record."""
    path = folder / f"{kind}{suffix}"
    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_text('{"schema": 1, "actions": [' + ", ".join(['{"action": "EndTurn"}'] * 250_000) + "]}")
    return path


@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_pipes_devices_folders_and_huge_files_are_refused_at_once(tmp_path, capsys, kind):
    record = special_file(tmp_path, kind, ".json")
    assert SPECIAL[kind] in api_refuses(samurai.load, record).message
    command_refuses(["replay", record], capsys)
    toml = special_file(tmp_path, kind, ".toml")
    assert SPECIAL[kind] in api_refuses(samurai.new_game, scenario=toml).message
    command_refuses(["play-scenario", toml], capsys)
    assert SPECIAL[kind] in api_refuses(samurai.load_edition, str(toml)).message
    command_refuses(["editions", toml], capsys)
    assert SPECIAL[kind] in api_refuses(load_map, toml).message


def test_a_pipe_cannot_make_the_command_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    done = subprocess.run([sys.executable, "-m", "samurai", "replay", str(tmp_path / "pipe.json")],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a regular file" in done.stderr


def test_deeply_nested_files_made_on_the_spot_are_refused(tmp_path, capsys):
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "deep.toml").write_text("a = " + "[" * 100_000 + "]" * 100_000)
    (tmp_path / "tables.toml").write_text("[" + ".".join(["a"] * 5000) + "]\n")
    for name in ("deep.json", "deep.toml", "tables.toml"):
        api_refuses(samurai.load, tmp_path / name)
        command_refuses(["replay", tmp_path / name], capsys)
    api_refuses(samurai.new_game, scenario=tmp_path / "deep.toml")
    api_refuses(samurai.load_edition, str(tmp_path / "tables.toml"))


# --- the API given the wrong things ------------------------------------------------------------

@pytest.fixture(scope="module")
def game():
    return samurai.new_game("ffg2015", players=2, seed=1)


class Impostor:
    """Looks like a PlaceTile to someone reading only its name and fields."""

    def __init__(self):
        self.tile, self.at = "castle-4", (8, 14)


MoveTile = type("MoveTile", (), {"source": (1, 1), "target": (2, 2)})
"""A class named like the real MoveTile but no action."""


@pytest.mark.parametrize("action", [["PlaceTile", "castle-4", [8, 14]], {"action": "EndTurn"}, "EndTurn", None, 3,
                                    Impostor(), MoveTile(), samurai.PlaceTile("castle-4", (99, 99)),
                                    samurai.ChooseTile(["castle-4"])])
def test_apply_refuses_what_is_not_an_action_of_this_game_and_changes_nothing(game, action):
    before = game.state.fingerprint()
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert game.state.fingerprint() == before


def test_apply_refuses_an_action_class_of_another_edition_with_other_fields(game):
    import attrs

    from samurai_plugins.knizia.core.actions import Action

    # Another edition's "SwitchFigures", with fields of its own: matched by name, refused by its fields.
    other = attrs.frozen(type("SwitchFigures", (Action,), {"__annotations__": {"where": "int"}}))(where=3)
    before = game.state.fingerprint()
    error = api_refuses(game.apply, other)
    assert isinstance(error, IllegalAction) and game.state.fingerprint() == before


@pytest.mark.parametrize("call, args, kwargs", [
    (samurai.new_game, (123,), {}),
    (samurai.new_game, ("ffg2015",), {"players": "3"}),
    (samurai.new_game, ("ffg2015",), {"seed": -3}),
    (samurai.new_game, ("ffg2015",), {"seed": 2**64}),
    (samurai.new_game, ("ffg2015",), {"seed": 1.5}),
    (samurai.new_game, ("ffg2015",), {"options": [("first_player", 1)]}),
    (samurai.new_game, ("ffg2015",), {"map": 7}),
    (samurai.new_game, ("ffg2015",), {"scenario": 7}),
    (samurai.new_game, ("ffg2015",), {"trust": 7}),
    (samurai.new_game, ("ffg2015",), {"trust": [7]}),
    (samurai.new_game, ("ffg2015",), {"trust": ["/nowhere/at/all.toml"]}),
    (samurai.load_edition, (None,), {}),
    (samurai.load_edition, ([],), {}),
    (samurai.load_edition, ("",), {}),
    (samurai.score, (None, {0: {"buddha": 1}}), {}),
    (samurai.score, ("ffg2015", {}), {}),
    (samurai.score, ("ffg2015", []), {}),
    (samurai.save, (None, "x.json"), {}),
    (samurai.save, ("game", "x.json"), {}),
    (samurai.load, (None,), {}),
    (samurai.from_record, ({"schema": 1},), {}),
    (samurai.from_record, (None,), {}),
    (samurai.play_bots, ("game", ["random"]), {}),
])
def test_the_api_refuses_wrong_types_with_a_message(call, args, kwargs):
    api_refuses(call, *args, **kwargs)


def test_the_api_refuses_bad_bots_and_seeds_for_bots(game):
    api_refuses(samurai.play_bots, game.copy(), [])
    api_refuses(samurai.play_bots, game.copy(), "random")
    api_refuses(samurai.play_bots, game.copy(), ["random"], seed=-1)
    api_refuses(samurai.play_bots, game.copy(), ["chess"])
    api_refuses(samurai.play_bots, game.copy(), ["random"], actions=-1)


def test_a_record_built_in_code_with_wrong_types_is_refused(game):
    import attrs

    record = samurai.to_record(game)
    for change in ({"players": "2"}, {"seed": -1}, {"actions": [samurai.EndTurn()]}, {"actions": ("EndTurn",)},
                   {"options": None}, {"edition": 5}, {"map": ["tiny"]}):
        api_refuses(samurai.from_record, attrs.evolve(record, **change))


# --- the command given the wrong things --------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["simulate", "--seed", "-3", "--games", "1"],
    ["compare", "ffg2015", "original", "--seed", "-1", "--games", "1"],
    ["play-scenario", str(ROOT / "docs" / "examples" / "late-game.toml"), "--seed", "-2"],
    ["bench", "--seed", "-1", "--games", "1"],
    ["simulate", "--seed", "9" * 5000, "--games", "1"],
    ["simulate", "--option", "removed_to_end=" + "[" * 50_000, "--games", "1"],
    ["replay", "/"],
    ["replay", "/dev/null"],
    ["replay", str(RECORDS / "edition-manifest-path.json"), "--trust", "/nowhere.toml"],
    ["analyse", str(HOSTILE)],
    ["play-scenario", str(SCENARIOS / "edition-manifest-path.toml"), "--edition", str(HOSTILE / "nowhere.toml")],
])
def test_the_command_refuses_bad_arguments_in_one_line(argv, capsys):
    command_refuses(argv, capsys)


def test_negative_seeds_are_refused_rather_than_played_as_another_seed():
    api_refuses(samurai.new_game, "ffg2015", players=2, seed=-3)
    record = json.loads((RECORDS / "negative-seed.json").read_text())
    assert record["seed"] == -7  # and the record is refused (see the corpus), not replayed as seed 7


def test_runs_of_many_games_refuse_negative_seeds_too():
    from samurai.runs.compare import compare
    from samurai_plugins.knizia.adapters.runner import simulate

    api_refuses(simulate, samurai.load_edition("ffg2015"), 2, 1, -1, ["random"])
    api_refuses(compare, "ffg2015", "original", players=2, games=1, seed=-5)

"""Records, replay, render and simulate for a game other than Knizia's (issue 12; samurai.records,
samurai.runs.matches), with Daimyo and Shinobi as the example."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from samurai import DataError
from samurai.catalog.editions import load_edition
from samurai.cli import main
from samurai.records import (
    is_play_record,
    play_record_from_dict,
    play_record_of,
    play_record_to_dict,
    position_check_of,
    read_play_record,
    replay_play_record,
    replayed,
    write_play_record,
)
from samurai.runs.matches import check_bots_play, play_match, simulate_matches

from helpers import ROOT


@pytest.fixture(scope="module")
def played():
    edition = load_edition("daimyo")
    state, actions = play_match(edition, 2, 11, ["random"])
    return edition, state, actions


def record_file(tmp_path: Path, played, **changes) -> Path:
    edition, state, actions = played
    data = play_record_to_dict(play_record_of(edition, 2, 11, None, actions, state))
    data.update(changes)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return path


def test_a_record_of_a_daimyo_game_replays_to_the_same_position(played, tmp_path: Path):
    edition, state, actions = played
    path = write_play_record(play_record_of(edition, 2, 11, None, actions, state), tmp_path / "game.json")
    record = read_play_record(path)
    assert record.game == "daimyo" and record.edition == "daimyo" and record.edition_version == "1.0.0"
    assert record.options == {"shinobi_wo_tsukau": False, "nobori": False, "no_progress_limit": 100,
                              "stalemate": "draw", "tiles_run_out": "turn_ends", "self_check": "forbidden",
                              "shinobi_turn": "ends"}
    final = replayed(record)
    assert final.is_over and final.returns() == state.returns()
    assert position_check_of(final) == record.check == position_check_of(state)
    assert json.loads(path.read_text())["actions"][0] == list(actions[0])


def test_a_record_may_give_actions_in_the_games_own_words(played, tmp_path: Path):
    edition, state, actions = played
    start = edition.start(2, 11)
    described = []
    for action in actions:
        described.append(start.describe(action))
        start.apply(action)
    record = play_record_from_dict(json.loads(record_file(tmp_path, played, actions=described).read_text()))
    assert position_check_of(replayed(record)) == position_check_of(state)


def test_replay_yields_the_start_then_each_action(played):
    edition, state, actions = played
    record = play_record_of(edition, 2, 11, None, actions[:5], None)
    steps = [(s.move_number, a) for s, a in replay_play_record(record)]
    assert steps == [(0, None), *((n + 1, actions[n]) for n in range(5))]


def test_a_changed_seed_is_caught_by_the_check(played, tmp_path: Path):
    record = read_play_record(record_file(tmp_path, played, seed=12))
    with pytest.raises(DataError, match=r"actions\[\d+\]|does not match the record's check"):
        replayed(record)


def test_an_illegal_action_is_refused_naming_its_index(played, tmp_path: Path):
    _, _, actions = played
    bad = [list(a) for a in actions]
    bad[3] = [1, 0, 41]
    record = read_play_record(record_file(tmp_path, played, actions=bad))
    with pytest.raises(DataError, match=r"actions\[3\].*action 3 \[1, 0, 41\] cannot be replayed"):
        replayed(record)


@pytest.mark.parametrize("change, message", [
    ({"edition": "daimyo-x"}, r"edition.*no edition named 'daimyo-x' is installed"),
    ({"edition": "ffg2015"}, r"game.*edition 'ffg2015' plays 'knizia', not 'daimyo'"),
    ({"edition": "evil.toml"}, r"evil.toml.*not installed.*--trust"),
    ({"players": 3}, r"players.*for 2 players, not 3"),
    ({"options": {"nobori": "yes"}}, r"option 'nobori' must be bool"),
    ({"colour": "red"}, r"colour.*unknown field 'colour'"),
    ({"actions": [[0, "a1"]]}, r"actions\[0\].*list of whole numbers"),
    ({"seed": -1}, r"seed.*whole number from 0 to 2\*\*63-1, not -1"),
])
def test_a_bad_record_is_refused_in_one_line(played, tmp_path: Path, change, message):
    (tmp_path / "evil.toml").write_text('id = "evil"\ngame = "daimyo"\nplugins = ["evil.py"]\n')
    with pytest.raises(DataError, match=message) as caught:
        replayed(read_play_record(record_file(tmp_path, played, **change)), folder=tmp_path)
    assert "\n" not in str(caught.value)


def test_knizia_records_are_not_play_records():
    assert not is_play_record({"edition": "ffg2015", "actions": []})
    assert not is_play_record({"game": "knizia"})
    assert is_play_record({"game": "daimyo"})


def test_greedy_is_refused_for_daimyo_and_random_and_mcts_play_it():
    with pytest.raises(DataError, match="bot 'greedy' plays only knizia, not 'daimyo'"):
        check_bots_play("daimyo", ["random", "greedy"])
    assert check_bots_play("daimyo", ["random", "mcts:10", "easy"]) == ("random", "mcts:10", "easy")
    assert check_bots_play("knizia", ["greedy"]) == ("greedy",)


def test_the_same_seed_plays_the_same_match():
    edition = load_edition("daimyo-shinobi")
    first = simulate_matches(edition, 2, 3, 5, ["random"]).to_dict()
    assert first == simulate_matches(edition, 2, 3, 5, ["random"]).to_dict()
    assert first["games"] == 3 and sum(seat["score"] for seat in first["seats"]) == 3


def test_mcts_beats_random_in_daimyo_over_a_small_seeded_match():
    edition = load_edition("daimyo")
    # Both seatings, so neither side's first move decides it.
    as_white = simulate_matches(edition, 2, 3, 1, ["mcts:60", "random"]).to_dict()["seats"][0]["score"]
    as_black = simulate_matches(edition, 2, 3, 2, ["random", "mcts:60"]).to_dict()["seats"][1]["score"]
    assert as_white + as_black >= 5  # out of 6


# --- the command line -----------------------------------------------------------------------

def test_simulate_plays_whole_daimyo_games(capsys: pytest.CaptureFixture[str]):
    assert main(["simulate", "--edition", "daimyo", "--games", "6", "--seed", "3", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "daimyo" and data["players"] == 2 and data["games"] == 6
    assert sum(seat["score"] for seat in data["seats"]) == 6 and sum(data["end_reasons"].values()) == 6


def test_simulate_saves_records_that_replay_and_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    run = tmp_path / "run"
    assert main(["simulate", "--edition", "daimyo-nobori", "--games", "2", "--bots", "random,mcts:5",
                 "--save-dir", str(run), "--no-progress"]) == 0
    capsys.readouterr()
    record = run / "game-00001.json"
    assert main(["replay", str(record)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("daimyo-nobori 1.0.0 (daimyo), 2 players, seed ")
    assert lines[1].startswith("    1  seat 0 flip ") or lines[1].startswith("    1  seat 0 move ")
    assert lines[-1].startswith("Result: ")
    assert main(["replay", str(record), "--to", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Position after 3 actions: ")
    picture = tmp_path / "seat1.svg"
    assert main(["render", str(record), "-o", str(picture), "--seat", "1", "--to", "4"]) == 0
    svg = picture.read_text()
    assert 'data-game="daimyo"' in svg and 'data-bottom="1"' in svg


@pytest.mark.parametrize("args, message", [
    (["simulate", "--edition", "daimyo", "--games", "2", "--bots", "greedy"], "--bots: bot 'greedy' plays only"),
    (["simulate", "--edition", "daimyo", "--games", "2", "--players", "3"], "players: Daimyo and Shinobi is a "
                                                                            "game for 2 players, not 3"),
    (["simulate", "--edition", "daimyo", "--games", "2", "--option", "nobori=3"], "option 'nobori' must be bool"),
    (["simulate", "--edition", "daimyo", "--games", "2", "--option", "white_daimyo=\"a1\""],
     "has no option 'white_daimyo'"),
    (["simulate", "--edition", "daimyo", "--games", "2", "--backend", "nosuch"], "--backend: unknown backend "
                                                                                "'nosuch'"),
])
def test_bad_daimyo_commands_are_one_line_and_exit_2(args, message, capsys: pytest.CaptureFixture[str]):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("samurai: error: ")


def test_render_refuses_a_seat_the_game_does_not_have(played, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = record_file(tmp_path, played)
    assert main(["render", str(path), "-o", str(tmp_path / "x.svg"), "--seat", "2"]) == 2
    assert "--seat: the game has seats 0 to 1, not 2" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_a_record_naming_an_unvouched_manifest_imports_nothing(played, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]):
    manifest = (ROOT / "editions" / "daimyo.toml").read_text().replace('id = "daimyo"', 'id = "mine"')
    (tmp_path / "mine.toml").write_text(manifest.replace('plugins = ["daimyo"]', 'plugins = ["daimyo", "boom.py"]'))
    (tmp_path / "boom.py").write_text("raise SystemExit('the plugin ran')\n")
    path = record_file(tmp_path, played, edition="mine.toml")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "not installed" in err and "--trust" in err and "the plugin ran" not in err


def test_knizias_record_reader_points_a_daimyo_record_to_its_reader(played, tmp_path: Path):
    from samurai_plugins.knizia.play.record_files import load

    with pytest.raises(DataError, match=r"game.*a record of the game 'daimyo', not of Knizia's"):
        load(record_file(tmp_path, played))


def test_the_front_doors_load_replays_a_daimyo_record(played, tmp_path: Path):
    import samurai

    game = samurai.load(record_file(tmp_path, played))
    assert isinstance(game, samurai.ProtocolGame) and list(game.history) == played[2]


def test_a_daimyo_record_in_toml_replays_too(played, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    import tomli_w

    data = json.loads(record_file(tmp_path, played).read_text())
    (tmp_path / "game.toml").write_text(tomli_w.dumps(data))
    assert main(["replay", str(tmp_path / "game.toml")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Result: ")


def test_replay_tells_what_each_flip_turned_up(played, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["replay", str(record_file(tmp_path, played))]) == 0
    lines = capsys.readouterr().out.splitlines()
    flips = [n for n, line in enumerate(lines) if " flip " in line and not line.startswith("       ")]
    assert flips
    for n in flips:  # the face each flip turned up is told under it, as every seat saw it
        assert lines[n + 1].startswith("       It is "), lines[n:n + 2]


# --- tournament -----------------------------------------------------------------------------

def test_a_tournament_plays_daimyo_through_the_protocol(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from samurai.runs.tournament import tournament

    result = tournament(["random", "mcts:30"], players=(2,), games=2, seed=3, edition="daimyo-shinobi",
                        bootstrap=20)
    assert len(result.games) == 2  # one round: both seatings of the one table
    assert {g.seating for g in result.games} == {("random", "mcts:30"), ("mcts:30", "random")}
    assert all(abs(sum(g.returns) - 1) < 1e-9 for g in result.games)
    assert tournament(["random", "mcts:30"], players=(2,), games=2, seed=3, edition="daimyo-shinobi",
                      bootstrap=20).games == result.games
    out = tmp_path / "t.json"
    assert main(["tournament", "--edition", "daimyo", "--bots", "random,mcts:10", "--games", "2", "--no-progress",
                 "--workers", "1", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["edition"] == "daimyo"


@pytest.mark.parametrize("args, message", [
    (["--bots", "random,greedy"], "--bots: bot 'greedy' plays only knizia, not 'daimyo'"),
    (["--bots", "random,easy", "--players", "3"], "players: Daimyo and Shinobi is a game for 2 players, not 3"),
])
def test_a_daimyo_tournament_refuses_bad_input_in_one_line(args, message, capsys: pytest.CaptureFixture[str]):
    assert main(["tournament", "--edition", "daimyo", "--games", "2", "--no-progress", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


# --- one record module for every game: the files written so far load and replay as they did ----------------------

_RECORD_FILES = ["tests/data/records/ffg2015-3p-seed7.json", "tests/data/records/original-2p-seed11.toml",
                 "tests/data/records/daimyo-2p-v0.1.json", "docs/examples/four-players.json"]


@pytest.mark.parametrize("name", _RECORD_FILES)
def test_every_record_of_the_repository_reads_and_replays_through_the_one_record_module(name, tmp_path):
    """``samurai.records`` reads every game's file as its game's own reader does, tells it as before, and a record
    it writes again reads back to the same record and the same game."""
    from samurai.records import play_replay_lines, read_play_record, read_record_file, replay_lines
    from samurai_plugins.knizia.play.record_files import read_record
    from samurai_plugins.knizia.play.replays import replay_lines as knizia_lines
    from tests.helpers import ROOT

    path = ROOT / name
    read = read_record_file(path)
    told = list(replay_lines(read.records, read.record, source=str(path), folder=path.parent))
    if read.game == "knizia":
        assert read.record == read_record(path)
        assert told == list(knizia_lines(read_record(path), source=str(path), folder=path.parent))
    else:
        assert read.record == read_play_record(path)
        assert told == list(play_replay_lines(read_play_record(path), source=str(path), folder=path.parent))
    assert told[-1].startswith("Result:")
    again = tmp_path / "again.json"
    read.records.write(read.record, again)
    reread = read_record_file(again)
    assert reread.game == read.game and reread.record == read.record
    assert list(replay_lines(reread.records, reread.record, source=str(again), folder=path.parent)) == told


def test_saved_runs_and_scenario_records_of_both_games_read_through_the_one_record_module(tmp_path, capsys):
    """Save folders of ``simulate`` (Knizia's game and Daimyo) and a record saved by ``play-scenario`` read and
    replay through ``samurai.records``, Knizia's written without a ``game`` key as before."""
    import json

    from samurai.records import read_record_file, replay_lines
    from tests.helpers import DATA, TINY_EDITION

    for edition in ("ffg2015", "daimyo"):
        folder = tmp_path / edition
        assert main(["simulate", "--edition", edition, "--games", "3", "--save-dir", str(folder), "--no-progress",
                     "--workers", "1"]) == 0
        for file in sorted(folder.glob("game-*.json")):
            data = json.loads(file.read_text())
            assert ("game" in data) == (edition == "daimyo")
            read = read_record_file(file)
            assert list(replay_lines(read.records, read.record, source=str(file)))[-1].startswith("Result:")
    saved = tmp_path / "scenario.json"
    assert main(["play-scenario", str(DATA / "scenarios" / "tiny-midgame.toml"), "--trust", TINY_EDITION,
                 "--save", str(saved)]) == 0
    read = read_record_file(saved, trust=[TINY_EDITION])
    assert read.game == "knizia" and read.record.scenario is not None
    assert "from a scenario" in next(iter(replay_lines(read.records, read.record, source=str(saved),
                                                         trust=[TINY_EDITION])))
    capsys.readouterr()


# --- what a changed record is blamed on (issue 38) -----------------------------------------------------------

def test_an_action_a_changed_seed_cannot_replay_says_the_seed_may_be_the_cause(played, tmp_path: Path, capsys):
    path = record_file(tmp_path, played, seed=12)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"samurai: error: {path} [actions[16]]: action 16 [0, 14] cannot be replayed: there is no tile on c3 to flip; "
        f"the seed or the actions do not match the record (the field seed decides every hidden draw)\n")


@pytest.mark.parametrize("changes, said", [
    ({"check": "nonsense"}, "[check]: a malformed check: it is 'sha256:' and 64 hexadecimal digits, not 'nonsense'"),
    ({"check": 5}, "[check]: a malformed check: it is 'sha256:' and 64 hexadecimal digits, not int 5"),
    ({"players": 0}, "[players]: edition 'daimyo' is for 2 players, not 0"),
    ({"players": "two"}, "[players]: players must be a whole number, not str 'two'"),
])
def test_a_malformed_check_or_a_player_count_the_edition_is_not_for_is_said_as_such(played, tmp_path: Path, capsys,
                                                                                   changes, said):
    path = record_file(tmp_path, played, **changes)
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"samurai: error: {path} {said}\n"

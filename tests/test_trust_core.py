"""Trust, round three, in the core (issue 20, point 6): inputs and interruptions that must not slip through.

- A scenario in which nobody can play is refused like every other finished position.
- A whole number out of its field's range in a record, a play record, a scenario or a ``run.json`` is refused
  in one line naming the file, the field, the value and the range (``samurai.files.reading.whole_number``).
- The one atomic writer (``samurai.files.writing``) leaves no temporary file and the old file whole when SIGTERM,
  Ctrl-C or an error comes during a write.
- Worker processes (the local pool's and the Dask local cluster's) end by themselves when the process that
  started them dies, even by SIGKILL (``samurai.lifelines``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import samurai
from samurai import DataError
from samurai.catalog.editions import make_plugin_manager, register_plugin
from samurai.cli import EXIT_INTERRUPTED, main
from samurai.files.reading import INT_HIGH, whole_number
from samurai.files.writing import new_file_mode, write_atomically
from samurai.hooks.specs import hookimpl
from samurai.interrupts import interruptible
from samurai.lifelines import EXIT_ORPHANED
from samurai.records import play_record_of, play_record_to_dict, read_play_record
from samurai_plugins.knizia.engine.edition import KniziaEdition
from samurai_plugins.knizia.play import record_files as records

from helpers import DATA, TINY_EDITION, living_group_members

SCENARIO = DATA / "scenarios" / "tiny-midgame.toml"


def _scenario_copy(tmp_path: Path, *replacements: tuple[str, str]) -> Path:
    """The tiny mid-game scenario with ``replacements`` made, in ``tmp_path`` (its edition by absolute path)."""
    text = SCENARIO.read_text().replace('"../tiny-ffg2015.toml"', repr(TINY_EDITION))
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    return path


# --- a scenario in which nobody can play ---------------------------------------------------------------

EMPTY_HANDS = (('hand = ["samurai-1", "ship-2", "ronin", "move", "buddha-3"]', "hand = []\nstack = []"),
               ('hand = ["samurai-1", "castle-2", "ship-2", "switch", "rice-4"]', "hand = []"),
               ('stack = ["buddha-2", "buddha-4", "castle-3", "samurai-3"]', "stack = []"))


def test_a_scenario_in_which_no_seat_can_play_is_refused_as_already_over(tmp_path, capsys):
    path = _scenario_copy(tmp_path, *EMPTY_HANDS)
    with pytest.raises(DataError) as refused:
        samurai.new_game(scenario=path, trust=[TINY_EDITION])
    assert refused.value.source == str(path) and refused.value.key == "seats"
    assert "already over (no tiles): no seat can play a tile" in refused.value.message
    assert main(["play-scenario", str(path), "--trust", TINY_EDITION]) == 2
    err = capsys.readouterr().err
    assert err.startswith("samurai: error: ") and err.count("\n") == 1 and str(path) in err


def test_a_scenario_in_which_only_the_seat_to_act_cannot_play_still_starts(tmp_path):
    path = _scenario_copy(tmp_path, EMPTY_HANDS[1], EMPTY_HANDS[2])  # seat 1 (to act) holds nothing
    game = samurai.new_game(scenario=path, trust=[TINY_EDITION])
    assert not game.is_over and game.current_player == 0  # seat 1 passes (docs/rules/samurai.md#passing)


def test_where_the_edition_ends_the_game_when_the_seat_to_act_cannot_play_such_a_scenario_is_refused(tmp_path, tiny):
    module = type(sys)("end-when-stuck")
    module.samurai_cannot_play = hookimpl(lambda edition, options: "end")
    manager = make_plugin_manager(("ffg2015",))
    register_plugin(manager, module, "end-when-stuck")
    stuck = KniziaEdition(tiny.manifest, manager, tiny.map, game=tiny.game)
    path = _scenario_copy(tmp_path, EMPTY_HANDS[1], EMPTY_HANDS[2])
    with pytest.raises(DataError, match=r"\[seats\].*already over \(no tiles\): seat 1, the seat to act, can play"):
        samurai.new_game(stuck, scenario=path, trust=[TINY_EDITION])
    assert not samurai.new_game(tiny, scenario=path, trust=[TINY_EDITION]).is_over  # passing is the default


# --- whole numbers out of range ------------------------------------------------------------------------

def test_whole_number_names_the_field_the_value_and_the_range():
    assert whole_number(5, "turn", 1, 9, source="f.toml") == 5
    for value, shown in ((0, "not 0"), (10, "not 10"), (True, "not bool True"), ("5", "not str '5'"),
                         (2.0, "not float 2.0"), (10 ** 60, "(61 digits)")):
        with pytest.raises(DataError) as refused:
            whole_number(value, "turn", 1, 9, source="f.toml")
        assert refused.value.key == "turn" and refused.value.source == "f.toml"
        assert refused.value.message.startswith("turn must be a whole number from 1 to 9, ") and shown in str(
            refused.value)


def _record_data(**changes) -> dict:
    game = samurai.new_game("original", players=2, seed=3)
    data = records.record_to_dict(records.to_record(game))
    data.update(changes)
    return data


@pytest.mark.parametrize("changes, key, message", [
    ({"seed": 2 ** 63}, "seed", "9223372036854775808 is out of range: a whole number here is from -2**63 to 2**63-1"),
    ({"seed": -1}, "seed", "seed must be a whole number from 0 to 2**63-1, not -1"),
    ({"players": -2}, "players", "edition 'original' is for 2, 3, 4 players, not -2"),
    ({"players": 2 ** 64}, "players", "18446744073709551616 is out of range"),
    ({"schema": 0}, "schema", "schema version 0 does not exist"),
    ({"actions": [{"action": "PlaceTile", "tile": "castle-2", "at": [1, 2 ** 70]}]}, "actions[0].at[1]",
     "1180591620717411303424 is out of range"),
])
def test_a_record_with_a_whole_number_out_of_range_is_refused_naming_its_field(tmp_path, capsys, changes, key,
                                                                                message):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record_data(**changes)))
    with pytest.raises(DataError) as refused:
        samurai.load(path)
    assert refused.value.key == key and refused.value.source == str(path) and message in refused.value.message
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"samurai: error: {path} [{key}]: ") and err.count("\n") == 1


def test_a_number_of_thousands_of_digits_is_refused_naming_its_field_without_reading_it(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_record_data()).replace('"seed": 3', '"seed": ' + "7" * 5000))
    with pytest.raises(DataError) as refused:
        samurai.load(path)
    assert refused.value.key == "seed"
    assert "77777777777777777777…77777 (5000 digits) is out of range" in str(refused.value)


def test_a_toml_record_with_a_seed_of_2_to_the_63_is_refused_naming_the_seed(tmp_path):
    path = tmp_path / "game.toml"
    game = samurai.new_game("original", players=2, seed=3)
    samurai.save(game, path)
    path.write_text(path.read_text().replace("seed = 3", f"seed = {2 ** 63}"))
    with pytest.raises(DataError) as refused:
        samurai.load(path)
    assert refused.value.key == "seed" and "out of range" in refused.value.message


def test_the_largest_seed_is_recorded_and_loaded(tmp_path):
    game = samurai.new_game("original", players=2, seed=2 ** 63 - 1)
    assert samurai.load(samurai.save(game, tmp_path / "game.json")).seed == 2 ** 63 - 1


@pytest.fixture(scope="module")
def daimyo_game():
    edition = samurai.load_edition("daimyo")
    state = edition.start(2, 11, None)
    return edition, state


@pytest.mark.parametrize("field, value, message", [
    ("seed", 2 ** 63, "out of range"),
    ("seed", -5, "seed must be a whole number from 0 to 2**63-1, not -5"),
    ("players", "two", "players must be a whole number, not str 'two'"),
])
def test_a_play_record_with_a_whole_number_out_of_range_is_refused_naming_its_field(tmp_path, daimyo_game, field,
                                                                                     value, message):
    edition, state = daimyo_game
    data = play_record_to_dict(play_record_of(edition, 2, 11, None, [], state))
    data[field] = value
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    with pytest.raises(DataError) as refused:
        read_play_record(path)
    assert refused.value.key == field and refused.value.source == str(path) and message in refused.value.message


@pytest.mark.parametrize("replacement, key, message, line", [
    (("turn = 4", "turn = 0"), "turn", "turn must be a whole number from 1 to 2**63-1, not 0", 5),
    (("players = 2", "players = -1"), "players", "players must be a whole number from 1 to 2**63-1, not -1", 3),
    (("to_act = 1", "to_act = -1"), "to_act", "to_act must be a whole number from 0 to 2**63-1, not -1", 4),
    (("captured = { rice = 1 }", "captured = { rice = -1 }"), "seats[0].captured.rice",
     "seats[0].captured.rice must be a whole number from 0 to 2**63-1, not -1", 31),
    (("owner = 0", "owner = -1"), "tiles[0].owner", "tiles[0].owner must be a whole number from 0", 17),
    (("at = [2, 1]", "at = [2, true]"), "tiles[0].at", "tiles[0].at must be a whole number", 15),
    (("turn = 4", f"turn = {2 ** 64}"), "turn", "18446744073709551616 is out of range", None),
])
def test_a_scenario_with_a_whole_number_out_of_range_is_refused_naming_its_field(tmp_path, replacement, key,
                                                                                  message, line):
    path = _scenario_copy(tmp_path, replacement)
    with pytest.raises(DataError) as refused:
        samurai.new_game(scenario=path, trust=[TINY_EDITION])
    assert refused.value.key == key and refused.value.source == str(path) and message in refused.value.message
    if line is not None:
        assert refused.value.line == line


def test_a_run_manifest_with_games_out_of_range_is_refused_naming_it(tmp_path):
    from samurai.runs.folders import RUN_FILE, read_run

    (tmp_path / RUN_FILE).write_text(json.dumps({"run": "simulate", "games": 2 ** 63}))
    with pytest.raises(DataError) as refused:
        read_run(tmp_path)
    assert refused.value.key == "games" and refused.value.source == str(tmp_path / RUN_FILE)
    (tmp_path / RUN_FILE).write_text(json.dumps({"run": "simulate", "games": INT_HIGH}))
    assert read_run(tmp_path)["games"] == INT_HIGH


# --- the atomic writer ------------------------------------------------------------------------------------

def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_an_atomic_write_replaces_the_file_whole_with_a_normal_files_mode(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    assert write_atomically(target, "new\n") == target
    assert target.read_text() == "new\n" and _leftovers(tmp_path) == []
    assert target.stat().st_mode & 0o777 == new_file_mode()


@pytest.mark.parametrize("stage", ["fsync", "replace"])
@pytest.mark.parametrize("interrupt", [KeyboardInterrupt("SIGTERM"), SystemExit(1), OSError("disk full")])
def test_an_interrupted_atomic_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch, stage,
                                                                                interrupt):
    target = tmp_path / "game.json"
    target.write_text("old\n")

    def fail(*_args):
        raise interrupt

    monkeypatch.setattr(f"samurai.files.writing.os.{stage}", fail)
    with pytest.raises(type(interrupt)):
        write_atomically(target, "new\n")
    assert target.read_text() == "old\n" and _leftovers(tmp_path) == []


@pytest.mark.parametrize("stage", ["fsync", "replace"])
def test_a_sigterm_during_an_atomic_write_waits_for_the_rename_then_stops_the_run(tmp_path, monkeypatch, stage):
    target = tmp_path / "game.json"
    target.write_text("old\n")
    real = getattr(os, stage)

    def terminated_then(*args):
        os.kill(os.getpid(), signal.SIGTERM)  # a polite kill arriving between the write and the rename
        return real(*args)

    monkeypatch.setattr(f"samurai.files.writing.os.{stage}", terminated_then)
    with pytest.raises(KeyboardInterrupt, match="SIGTERM"), interruptible():
        records.write_record(records.to_record(samurai.new_game("original", players=2, seed=3)), target)
    assert samurai.load(target).seed == 3 and _leftovers(tmp_path) == []


def test_a_sigterm_during_a_write_in_a_process_that_leaves_it_to_the_default_still_ends_it_with_no_temporary_file(
        tmp_path):
    """A program embedding the engine, where SIGTERM ends the process where it stands."""
    target = tmp_path / "game.json"
    target.write_text("old\n")
    script = textwrap.dedent(f"""
        import os, signal, samurai
        from samurai.files import writing as atomicfile
        real = os.fsync
        def terminated_then(fd):
            os.kill(os.getpid(), signal.SIGTERM)
            real(fd)
        atomicfile.os.fsync = terminated_then
        samurai.save(samurai.new_game("original", players=2, seed=3), {str(target)!r})
        print("not reached: SIGTERM ends the process after the write")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGTERM and "not reached" not in done.stdout
    assert samurai.load(target).seed == 3 and _leftovers(tmp_path) == []


def test_rendering_writes_through_the_atomic_writer(tmp_path, monkeypatch):
    record = tmp_path / "game.json"
    samurai.save(samurai.new_game("original", players=2, seed=3), record)
    picture = tmp_path / "board.svg"
    picture.write_text("old")
    monkeypatch.setattr("samurai.files.writing.os.replace", lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    assert main(["render", str(record), "-o", str(picture), "--force"]) == EXIT_INTERRUPTED
    assert picture.read_text() == "old" and _leftovers(tmp_path) == []


# --- worker processes end with the process that started them ---------------------------------------------

def _wait_for(condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _killed_leaves_nobody(argv: list[str], at_least: int, ready: Path | None = None) -> None:
    """Start ``argv`` in its own process group, wait for ``at_least`` processes in it (and the file ``ready``),
    SIGKILL the first and check that the rest end by themselves within seconds."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _wait_for(lambda: len(living_group_members(process.pid)) >= at_least or process.poll() is not None,
                  "the workers never started")
        if ready is not None:
            _wait_for(lambda: ready.exists() or process.poll() is not None, "the worker never got ready")
        assert process.poll() is None, process.communicate()[1]
        process.kill()  # no clean-up runs: only the workers themselves can notice
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while living_group_members(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = living_group_members(process.pid)
    finally:
        for pid in living_group_members(process.pid):  # leave nothing running, whatever the outcome
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait()
    assert left == [], f"worker processes {left} outlived the run killed with SIGKILL"


LONG_RUN = [sys.executable, "-m", "samurai", "simulate", "--players", "2", "--games", "100000", "--no-progress",
            "--workers", "2"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process groups are read from /proc")
def test_the_local_pools_workers_end_when_the_run_is_killed_with_sigkill():
    _killed_leaves_nobody(LONG_RUN, 3)  # the run and its two workers


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process groups are read from /proc")
def test_a_local_dask_clusters_workers_end_when_the_run_is_killed_with_sigkill():
    pytest.importorskip("distributed")
    _killed_leaves_nobody([*LONG_RUN, "--backend", "dask"], 3)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process groups are read from /proc")
@pytest.mark.parametrize("kernel_signal", [True, False], ids=["kernel signal and thread", "thread alone"])
def test_exit_with_parent_ends_a_worker_whose_parent_was_killed(tmp_path, kernel_signal):
    """The watching thread alone (as on a system without prctl) also ends the orphan, within a poll or two."""
    worker = textwrap.dedent(f"""
        import sys, time
        from samurai.lifelines import exit_with_parent
        exit_with_parent(int(sys.argv[1]), kernel_signal={kernel_signal})  # the parent may be gone already
        open(sys.argv[2], "w").close()
        time.sleep(600)
    """)
    parent = textwrap.dedent(f"""
        import os, subprocess, sys, time
        subprocess.Popen([sys.executable, "-c", {worker!r}, str(os.getpid()), {str(tmp_path / "ready")!r}])
        time.sleep(600)
    """)
    _killed_leaves_nobody([sys.executable, "-c", parent], 2, ready=tmp_path / "ready")


def test_exit_with_parent_ends_a_worker_at_once_when_the_process_it_watches_is_already_gone():
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait(timeout=60)
    script = f"from samurai.lifelines import exit_with_parent; exit_with_parent({gone.pid}); print('alive')"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == EXIT_ORPHANED and "alive" not in done.stdout

"""Interrupted and saved runs (issue 8, point 5).

Real signals: ``samurai simulate --save-dir`` and ``compare --save-dir`` run as a separate process; once
some records exist it gets SIGINT or SIGTERM (or Ctrl-C's SIGINT to the whole process group). It must
exit 130 with one stderr line, leave no temporary file, keep every record complete and loadable, and
leave no worker process behind. Then: ``run.json`` says how many games were asked for, ``analyse``
refuses a cut-short folder unless ``--partial``, and saved files honour the umask.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import samurai
from samurai.cli import main
from samurai.errors import DataError
from samurai.interrupts import deferred_interrupts, interruptible
from samurai.runs.compare import analyse_records, compare
from samurai.runs.folders import RUN_FILE, prepare_save_dir, read_run
from samurai_plugins.knizia.play.record_files import write_record

from helpers import living_group_members

GAMES = "100000"  # far more than can finish before the signal


def start(command: list[str], folder: Path, *, group: bool = False) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "samurai", *command, "--players", "2", "--games", GAMES, "--no-progress",
            "--save-dir", str(folder)]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def wait_for_records(process: subprocess.Popen[str], folder: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(list(folder.rglob("game-*.json"))) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no records were written"
        time.sleep(0.02)


def stop(command: list[str], folder: Path, *, records: int = 2, signal_number: int = signal.SIGINT,
         to_group: bool = True, before: Callable[[subprocess.Popen[str]], None] | None = None) \
        -> tuple[subprocess.Popen[str], str]:
    """Start ``command`` saving its run in ``folder``, wait for ``records`` records (then call ``before``), and stop
    it with ``signal_number`` (to its whole process group, as Ctrl-C in a terminal does, when ``to_group``): the
    finished process and its standard error. The exit, the one line and no traceback are checked here."""
    process = start(command, folder)
    try:
        wait_for_records(process, folder, records)
        if before is not None:
            before(process)
        if to_group:
            os.killpg(process.pid, signal_number)
        else:
            process.send_signal(signal_number)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert err.count("\n") == 1 and err.startswith("samurai: interrupted; ") and "Traceback" not in err, err
    return process, err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process groups are read from /proc")
@pytest.mark.parametrize("command", [["simulate"], ["compare", "ffg2015", "original", "--workers", "2"]],
                         ids=["simulate", "compare"])
@pytest.mark.parametrize("signal_number, to_group", [(signal.SIGINT, False), (signal.SIGTERM, False),
                                                     (signal.SIGINT, True)],
                         ids=["SIGINT", "SIGTERM", "Ctrl-C to the group"])
def test_a_signal_stops_the_run_keeping_every_finished_record(tmp_path, command, signal_number, to_group):
    folder = tmp_path / "run"

    def workers_run(process: subprocess.Popen[str]) -> None:
        if command[0] == "compare":
            assert len(living_group_members(process.pid)) >= 2, "the workers should be running"

    process, err = stop(command, folder, signal_number=signal_number, to_group=to_group, before=workers_run)
    assert living_group_members(process.pid) == [], "a worker process was left behind"
    leftovers = [p.name for p in folder.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"]
    assert leftovers == []
    assert json.loads((folder / RUN_FILE).read_text())["games"] == int(GAMES)
    if command[0] == "compare":
        sides = [sorted(p.name for p in (folder / side).glob("game-*.json")) for side in "ab"]
        assert sides[0] == sides[1] and sides[0], "every pair saved whole"
        records = [folder / side / name for side in "ab" for name in sides[0]]
    else:
        records = sorted(folder.glob("game-*.json"))
    assert f"keeps the {len(records) // (2 if command[0] == 'compare' else 1)} finished games" in err
    for record in records:
        assert samurai.load(record).is_over


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process groups are read from /proc")
def test_ctrl_c_stops_a_sweep_keeping_whole_games_and_saying_how_to_resume(tmp_path):
    folder = tmp_path / "run"
    process, err = stop(["sweep", "ffg2015", "--option", "removed_to_end=3,4", "--bots", "greedy", "--workers",
                         "2"], folder, records=4)
    assert living_group_members(process.pid) == [], "a worker process was left behind"
    sides = [sorted(p.name for p in (folder / "players-2" / f"setting-{k}").glob("game-*.json")) for k in (0, 1)]
    assert sides[0] == sides[1] and sides[0], "every game saved under both settings"
    assert (f"{folder} keeps the {len(sides[0])} finished games of the {GAMES} asked for (each under every "
            f"setting); samurai sweep --resume {folder} carries the run on") in err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process groups are read from /proc")
def test_ctrl_c_stops_a_run_on_a_local_dask_cluster_and_its_workers(tmp_path):
    folder = tmp_path / "run"

    def cluster_runs(process: subprocess.Popen[str]) -> None:
        assert len(living_group_members(process.pid)) >= 3, "the cluster's worker processes should be running"

    # Ctrl-C reaches the workers too: they leave it to the command.
    process, err = stop(["compare", "ffg2015", "original", "--backend", "dask", "--workers", "2"], folder,
                        before=cluster_runs)
    # multiprocessing's resource tracker (Dask starts its workers with spawn) ends when it reads the end of its pipe
    deadline = time.monotonic() + 10
    while living_group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:100]
            for pid in living_group_members(process.pid)]
    assert left == [], "a process was left behind"
    sides = [sorted(p.name for p in (folder / side).glob("game-*.json")) for side in "ab"]
    assert sides[0] == sides[1] and f"keeps the {len(sides[0])} finished games" in err
    assert [p.name for p in folder.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"] == []


def test_deferred_interrupts_hold_a_signal_until_the_block_is_done():
    done = []
    with pytest.raises(KeyboardInterrupt), interruptible():
        with deferred_interrupts():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.01)
            done.append("finished")
        done.append("not reached")
    assert done == ["finished"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_a_record_interrupted_while_written_leaves_no_temporary_file(tmp_path, tiny):
    game = samurai.new_game(tiny, players=2, seed=3)
    record = samurai.to_record(game)
    with pytest.raises(KeyboardInterrupt), interruptible():
        with deferred_interrupts():
            os.kill(os.getpid(), signal.SIGINT)
            write_record(record, tmp_path / "game.json")
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert samurai.load(tmp_path / "game.json", trust=[tiny]).seed == 3


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_saved_records_honour_the_umask(tmp_path, tiny, umask, mode):
    previous = os.umask(umask)
    try:
        path = samurai.save(samurai.new_game(tiny, players=2, seed=1), tmp_path / "game.json")
    finally:
        os.umask(previous)
    assert path.stat().st_mode & 0o777 == mode


def test_a_saved_run_says_how_many_games_were_asked_for(tmp_path):
    assert main(["simulate", "--players", "2", "--games", "3", "--seed", "5", "--save-dir", str(tmp_path / "s"),
                 "--json"]) == 0
    run = read_run(tmp_path / "s")
    assert run is not None
    assert (run["run"], run["games"], run["players"], run["seed"], run["edition"]) == ("simulate", 3, 2, 5, "ffg2015")
    assert len(list((tmp_path / "s").glob("game-*.json"))) == 3


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("saved") / "run"
    compare("ffg2015", "original", players=2, games=6, seed=2, save_dir=folder)
    return folder


def copy_of(run: Path, into: Path, *, keep: int) -> Path:
    """The saved run with only its first ``keep`` pairs, as a run cut short leaves it."""
    target = into / "cut"
    for side in "ab":
        (target / side).mkdir(parents=True)
        for record in sorted((run / side).glob("game-*.json"))[:keep]:
            (target / side / record.name).write_bytes(record.read_bytes())
    (target / RUN_FILE).write_bytes((run / RUN_FILE).read_bytes())
    return target


def test_analyse_refuses_a_cut_short_folder_unless_partial(tmp_path, capsys, saved_run):
    cut = copy_of(saved_run, tmp_path, keep=4)
    with pytest.raises(DataError, match="holds 4 of the 6 paired games its run asked for"):
        analyse_records(cut)
    assert main(["analyse", str(cut)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pass --partial" in err
    partial = analyse_records(cut, partial=True)
    assert (partial.games, partial.games_asked) == (4, 6)
    assert main(["analyse", str(cut), "--partial"]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"samurai: warning: {cut} holds 4 of the 6 paired games its run asked for (cut short); " \
                           f"analysing those\n"
    assert "4 paired games" in captured.out
    whole = analyse_records(saved_run)
    assert (whole.games, whole.games_asked) == (6, 6)


@pytest.mark.parametrize("manifest, message", [
    ('{"games": 2}', "holds 6 paired games, more than the 2 its run.json asked for"),
    ('{"games": "6"}', "run.json [games]: games must be a whole number from 1 to 2**63-1, not str '6'"),
    ('{"games": 0}', "run.json [games]: games must be a whole number from 1 to 2**63-1, not 0"),
    ('{"games": true}', "run.json [games]: games must be a whole number from 1 to 2**63-1, not bool True"),
    ("[6]", "a run manifest is a JSON object"),
    ("{", "run.json:1: not valid JSON"),
    ('{"games": ' + "9" * 5000 + "}", "run.json [games]: 99999999999999999999…99999 (5000 digits) is out of range"),
])
def test_a_bad_run_manifest_is_refused_naming_it(tmp_path, saved_run, manifest, message):
    cut = copy_of(saved_run, tmp_path, keep=6)
    (cut / RUN_FILE).write_text(manifest)
    with pytest.raises(DataError, match=re.escape(message)):
        analyse_records(cut, partial=True)


def test_a_folder_saved_before_run_manifests_is_analysed_as_it_is(tmp_path, saved_run):
    cut = copy_of(saved_run, tmp_path, keep=3)
    (cut / RUN_FILE).unlink()
    comparison = analyse_records(cut)
    assert (comparison.games, comparison.games_asked) == (3, None)


def test_a_save_folder_holding_a_run_is_replaced_only_with_force(tmp_path, capsys, saved_run):
    folder = copy_of(saved_run, tmp_path, keep=6)
    (folder / "notes.txt").write_text("mine\n")
    with pytest.raises(DataError, match="already holds a saved run"):
        prepare_save_dir(folder, sides=("a", "b"))
    assert main(["compare", "ffg2015", "original", "--players", "2", "--games", "2", "--workers", "1",
                 "--save-dir", str(folder), "--force", "--no-progress"]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in (folder / "a").iterdir()) == ["game-00000.json", "game-00001.json"]
    assert (folder / "notes.txt").read_text() == "mine\n"
    assert analyse_records(folder).games == 2


def test_a_record_written_in_another_thread_does_not_hold_back_the_main_threads_signal(tmp_path, tiny):
    import threading

    record = samurai.to_record(samurai.new_game(tiny, players=2, seed=4))
    entered, release = threading.Event(), threading.Event()

    def writer() -> None:
        with deferred_interrupts():
            entered.set()
            release.wait(5)
            write_record(record, tmp_path / "game.json")

    thread = threading.Thread(target=writer)
    with pytest.raises(KeyboardInterrupt), interruptible():
        thread.start()
        entered.wait(5)
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.5)  # the signal is not held by the other thread's block: it interrupts this sleep
        finally:
            release.set()
            thread.join()
    assert (tmp_path / "game.json").exists()

"""A simulation cut short (issue 24 point 3): its finished games are summed up, marked partial, and
``samurai simulate --resume DIR`` carries the saved run on to the summary the whole run would have given."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from samurai.cli import main
from samurai.runs.folders import RUN_FILE

from helpers import DATA


def _simulate_json(capsys, *argv: str) -> dict:
    assert main(["simulate", *argv, "--json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)


def _cut_short(folder: Path, numbers: list[int]) -> None:
    for number in numbers:
        (folder / f"game-{number:05d}.json").unlink()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_resumed_run_sums_up_as_the_whole_run(tmp_path, capsys, workers):
    run = ["--players", "3", "--games", "40", "--seed", "11", "--bots", "greedy,random", "--workers", workers]
    whole = _simulate_json(capsys, *run, "--save-dir", str(tmp_path / "run"))
    _cut_short(tmp_path / "run", [0, 7, 8, 9, 39])
    resumed = _simulate_json(capsys, "--resume", str(tmp_path / "run"), "--workers", workers)
    assert resumed == whole
    assert sorted(p.name for p in (tmp_path / "run").glob("game-*.json")) == [f"game-{i:05d}.json" for i in range(40)]


def test_a_run_of_the_second_game_resumes_too(tmp_path, capsys):
    run = ["--edition", "daimyo", "--games", "6", "--seed", "4", "--workers", "1"]
    whole = _simulate_json(capsys, *run, "--save-dir", str(tmp_path / "run"))
    _cut_short(tmp_path / "run", [2, 5])
    assert _simulate_json(capsys, "--resume", str(tmp_path / "run")) == whole


def test_a_designers_edition_resumes_only_when_vouched_for(tmp_path, capsys):
    manifest = str(DATA / "tiny-ffg2015.toml")
    whole = _simulate_json(capsys, "--edition", manifest, "--players", "2", "--games", "5", "--workers", "1",
                           "--save-dir", str(tmp_path / "run"))
    _cut_short(tmp_path / "run", [1])
    assert main(["simulate", "--resume", str(tmp_path / "run"), "--no-progress"]) == 2
    assert "vouch for its manifest" in capsys.readouterr().err
    assert _simulate_json(capsys, "--resume", str(tmp_path / "run"), "--trust", manifest) == whole


@pytest.fixture
def saved_run(tmp_path, capsys):
    assert main(["simulate", "--players", "2", "--games", "6", "--seed", "3", "--save-dir", str(tmp_path / "run"),
                 "--no-progress", "--workers", "1"]) == 0
    capsys.readouterr()
    return tmp_path / "run"


@pytest.mark.parametrize(("change", "message"), [
    (lambda run: (run / RUN_FILE).write_text('{"run": "compare", "games": 6}'),
     "run.json [run]: the run of samurai compare, not of simulate"),
    (lambda run: (run / "game-00001.json").rename(run / "game-00099.json"),
     "game-00099.json: not a game of this run of 6 games"),
    (lambda run: (run / "game-00004.json").write_text((run / "game-00005.json").read_text()),
     "game-00004.json: the record is not game 4 of the run in run.json"),
    (lambda run: (run / RUN_FILE).unlink(), "no run.json here"),
], ids=["another command", "a number past the run", "another game's record", "no run.json"])
def test_a_folder_that_is_not_the_run_it_says_is_refused_naming_what(saved_run, capsys, change, message):
    change(saved_run)
    assert main(["simulate", "--resume", str(saved_run), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: ") and message in err, err


@pytest.mark.parametrize("given", [["--players", "3"], ["--games", "9"], ["--bots", "greedy"], ["--seed", "2"],
                                   ["--save-dir", "elsewhere"]])
def test_resume_takes_the_runs_settings_from_its_folder(saved_run, capsys, given):
    assert main(["simulate", "--resume", str(saved_run), *given, "--no-progress"]) == 2
    assert f"drop {given[0]}" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="signals to a child process")
def test_an_interrupted_simulation_prints_the_summary_of_its_finished_games(tmp_path):
    folder = tmp_path / "run"
    process = subprocess.Popen([sys.executable, "-m", "samurai", "simulate", "--players", "2", "--games", "100000",
                                "--no-progress", "--json", "--save-dir", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(list(folder.glob("game-*.json"))) < 2:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no records were written"
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    kept = len(list(folder.glob("game-*.json")))
    summary = json.loads(out)
    assert summary["games"] == kept and summary["partial"] == {"games_asked": 100000}
    assert sum(seat["win_share"] for seat in summary["seats"]) == pytest.approx(1.0)
    assert err.count("\n") == 1 and f"samurai simulate --resume {folder} carries the run on" in err

"""A corpus of bad command-line arguments (issue 8, point 8): each is refused with exit code 2 and exactly one
stderr line, ``samurai...: error: ...``, naming what was wrong, with no traceback and before any work.

Keep it growing: whenever a new kind of bad argument is found, add it here. ``{tmp}`` is a fresh folder,
``{file}`` an existing file in it, ``{scenario}`` a scenario file and ``{edition}`` a manifest path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from samurai.cli import main

from helpers import DATA, TINY_EDITION

SCENARIO = str(DATA / "scenarios" / "tiny-midgame.toml")
DIGITS_5000 = "9" * 5000
DEEP = "[" * 100_000

CAPTURED = [
    ('{"0": {"buddha": 3}, "1": {"buddha": 99}}', "seat 1: 99 buddha figures, but a 2-player game"),
    ('{"0": {"rice": 5}, "1": {"rice": 4}}', "9 rice figures captured in all, but a 2-player game"),
    ('{"0": {}, "5": {}}', "seats must be numbered 0 to 1"),
    ('{"1": {}, "2": {}, "3": {}}', "seats must be numbered 0 to 2"),
    ('{"0": {}}', "1 seat given; edition 'ffg2015' is for 2, 3, 4 players"),
    ('{"0": {}, "1": {}, "2": {}, "3": {}, "4": {}}', "5 seats given"),
    ('{"٣": {}, "0": {}}', "seat '٣' must be a seat number"),
    ('{"+1": {}, "0": {}}', "seat '+1' must be a seat number"),
    ('{" 1": {}, "0": {}}', "seat ' 1' must be a seat number"),
    ('{"01": {}, "0": {}}', "seat '01' must be a seat number"),
    ('{"-1": {}, "0": {}}', "seat '-1' must be a seat number"),
    ('{"0": {}, "0": {}}', "key '0' is given twice"),
    ('{"0": {"rice": 1, "rice": 2}, "1": {}}', "key 'rice' is given twice"),
    ('{"0": {"rice": 3.0}, "1": {}}', "3.0 is not a whole number"),
    ('{"0": {"rice": 1e2}, "1": {}}', "1e2 is not a whole number"),
    ('{"0": {"rice": NaN}, "1": {}}', "NaN is not a whole number"),
    ('{"0": {"rice": Infinity}, "1": {}}', "Infinity is not a whole number"),
    ('{"0": {"rice": true}, "1": {}}', "rice count must be a whole number >= 0, not True"),
    ('{"0": {"rice": "3"}, "1": {}}', "rice count must be a whole number >= 0, not '3'"),
    ('{"0": {"rice": -1}, "1": {}}', "rice count must be a whole number >= 0, not -1"),
    ('{"0": {"rice": null}, "1": {}}', "rice count must be a whole number >= 0, not None"),
    ('{"0": {"rice": ' + DIGITS_5000 + '}, "1": {}}', "a number is too long"),
    ('{"0": {"dragons": 1}, "1": {}}', "seat 0: unknown caste 'dragons'"),
    ('{"0": [1, 2], "1": {}}', "seat 0: expected {caste: count}"),
    ('{"0": {}, "1": 3}', "seat 1: expected {caste: count}"),
    ("[1, 2]", "captured figures must be a non-empty mapping"),
    ("{}", "captured figures must be a non-empty mapping"),
    ("3", "captured figures must be a non-empty mapping"),
    ("", "not valid JSON"),
    ("{'0': {}}", "not valid JSON"),
    (DEEP, "JSON nested too deeply"),
]

NUMBERS = [
    (["simulate", "--players", "٣"], "argument --players: '٣' is not a whole number"),
    (["simulate", "--players", "+3"], "'+3' is not a whole number"),
    (["simulate", "--players", " 3"], "' 3' is not a whole number"),
    (["simulate", "--players", "3.0"], "'3.0' is not a whole number"),
    (["simulate", "--players", ""], "'' is not a whole number"),
    (["simulate", "--players", "-1"], "--players: must be at least 0, not -1"),
    (["simulate", "--players", DIGITS_5000[:40]], "is not a whole number"),
    (["simulate", "--players", "9", "--games", "1"], "is for 2, 3, 4 players, not 9"),
    (["simulate", "--players", "0", "--games", "1"], "is for 2, 3, 4 players, not 0"),
    (["simulate", "--games", "0"], "--games: must be at least 1, not 0"),
    (["simulate", "--games", "-5"], "--games: must be at least 1, not -5"),
    (["simulate", "--games", "1_000"], "'1_000' is not a whole number"),
    (["simulate", "--games", "1e3"], "'1e3' is not a whole number"),
    (["simulate", "--games", "٣"], "'٣' is not a whole number"),
    (["simulate", "--games", "10000001"], "--games: must be at most 10000000"),
    (["simulate", "--seed", "-3"], "--seed: must be at least 0, not -3"),
    (["simulate", "--seed", "1.5"], "'1.5' is not a whole number"),
    (["simulate", "--seed", "9223372036854775808"], "--seed: must be at most 9223372036854775807"),
    (["simulate", "--seed", "٠"], "'٠' is not a whole number"),
    (["compare", "ffg2015", "original", "--workers", "0"], "--workers: must be at least 1, not 0"),
    (["compare", "ffg2015", "original", "--workers", "1000"], "--workers: must be at most 256"),
    (["compare", "ffg2015", "original", "--seed", "-1"], "--seed: must be at least 0"),
    (["play-scenario", SCENARIO, "--seed", "-3"], "--seed: must be at least 0, not -3"),
    (["replay", "x.json", "--to", "-1"], "--to: must be at least 0, not -1"),
    (["replay", "x.json", "--to", "two"], "'two' is not a whole number"),
    (["bench", "--games", "0"], "--games: must be at least 1"),
    (["bench", "--seed", "-2"], "--seed: must be at least 0"),
    (["bench", "--players", "2,x"], "expected player counts like 2,3,4, got '2,x'"),
    (["bench", "--players", "٣"], "expected player counts like 2,3,4"),
    (["bench", "--players", ""], "expected player counts like 2,3,4"),
    (["bench", "--players", "2,,3"], "expected player counts like 2,3,4"),
    (["bench", "--players", "9", "--games", "1"], "is for 2, 3, 4 players, not 9"),
]

OPTIONS = [
    (["simulate", "--option", "=3", "--games", "1"], "expected NAME=VALUE, got '=3'"),
    (["simulate", "--option", "noequals", "--games", "1"], "expected NAME=VALUE, got 'noequals'"),
    (["simulate", "--option", "weather=rain", "--games", "1"], "has no option 'weather'"),
    (["simulate", "--option", "removed_to_end=many", "--games", "1"], "option 'removed_to_end' must be int"),
    (["simulate", "--option", "removed_to_end=true", "--games", "1"], "option 'removed_to_end' must be int"),
    (["simulate", "--option", "removed_to_end=" + DIGITS_5000, "--games", "1"],
     "[removed_to_end]: option 'removed_to_end' must be int like its default 4"),
    (["simulate", "--option", "removed_to_end=" + DEEP, "--games", "1"], "must be int like its default"),
    (["simulate", "--option", "removed_to_end=1e400", "--games", "1"], "must be int like its default"),
    (["simulate", "--option", "removed_to_end=5", "--option", "removed_to_end=6", "--games", "1"],
     "option 'removed_to_end' is given twice"),
    (["simulate", "--bots", "", "--games", "1"], "unknown bot ''"),
    (["simulate", "--bots", "random,,greedy", "--games", "1"], "unknown bot ''"),
    (["simulate", "--bots", "clever", "--games", "1"], "unknown bot 'clever'"),
    (["simulate", "--edition", "nonesuch", "--games", "1"], "no edition named 'nonesuch'"),
    (["simulate", "--edition", "", "--games", "1"], "name an edition: an installed id or a manifest path"),
    (["simulate", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["compare", "ffg2015", "original", "--option-a", "x", "--games", "1"], "expected NAME=VALUE, got 'x'"),
    (["compare", "ffg2015", "original", "--plot", "out.pdf", "--games", "1"], "saved as .png or .svg"),
    (["compare", "ffg2015", "original", "--plot", "out", "--games", "1"], "saved as .png or .svg"),
    (["compare", "ffg2015"], "the following arguments are required: B"),
    (["score", "--captured", '{"0": {}, "1": {}}', "--option", "a=1"], "score takes no options"),
    (["score"], "the following arguments are required: --captured"),
    (["play-scenario", SCENARIO, "--bots", "nobody"], "unknown bot 'nobody'"),
    (["fly"], "invalid choice: 'fly'"),
]

OUTPUTS = [
    (["compare", "ffg2015", "original", "--games", "1", "--json", "/nonexistent/x.json"],
     "--json: the folder of /nonexistent/x.json does not exist"),
    (["compare", "ffg2015", "original", "--games", "1", "--csv", "{tmp}"], "is a folder, not a file"),
    (["compare", "ffg2015", "original", "--games", "1", "--json", "{file}"], "already exists; pass --force"),
    (["compare", "ffg2015", "original", "--games", "1", "--json", "{tmp}/m.out", "--csv", "{tmp}/m.out"],
     "--csv: {tmp}/m.out is also the --json file"),
    (["compare", "ffg2015", "original", "--games", "1", "--save-dir", "{file}"], "is a file, not a folder"),
    (["compare", "ffg2015", "original", "--games", "1", "--save-dir", "/proc/no/such"], "cannot make the folder"),
    (["compare", "ffg2015", "original", "--games", "1", "--save-dir", "{run}", "--json", "{run}/run.json",
      "--force"], "is also the run file"),
    (["compare", "ffg2015", "{edition}", "--games", "1", "--json", "{edition}", "--force"],
     "is an input of this command"),
    (["simulate", "--games", "1", "--save-dir", "{file}"], "is a file, not a folder"),
    (["simulate", "--games", "1", "--save-dir", ""], "--save-dir: name a folder"),
    (["compare", "ffg2015", "original", "--games", "1", "--json", ""], "--json: name a file"),
    (["compare", "ffg2015", "original", "--games", "1", "--save-dir", "{tmp}/x", "--csv", "{tmp}/x/a/game-00000.json"],
     "is a record file of the run folder"),
    (["simulate", "--games", "1", "--save-dir", "/dev/null/runs"], "cannot make the folder /dev/null/runs"),
    (["simulate", "--games", "1", "--save-dir", "{run}"], "already holds a saved run"),
    (["analyse", "{run}", "--json", "{file}"], "already exists; pass --force"),
    (["analyse", "{run}", "--json", "{run}/a/game-00000.json", "--force"], "is a record file of the run folder"),
    (["analyse", "{run}", "--csv", "/nonexistent/x.csv"], "the folder of /nonexistent/x.csv does not exist"),
    (["analyse", "{tmp}/missing"], "no such folder"),
    (["analyse", "{file}"], "no such folder"),
    (["play-scenario", SCENARIO, "--edition", TINY_EDITION, "--save", SCENARIO, "--force"],
     "is an input of this command"),
    (["play-scenario", SCENARIO, "--edition", TINY_EDITION, "--save", TINY_EDITION, "--force"],
     "is an input of this command"),
    (["play-scenario", SCENARIO, "--edition", TINY_EDITION, "--save", "{file}"], "a record file ends in"),
    (["play-scenario", SCENARIO, "--edition", TINY_EDITION, "--save", "{tmp}/kept.json"], "already exists"),
    (["play-scenario", SCENARIO, "--edition", TINY_EDITION, "--save", "{tmp}/none/x.json"], "does not exist"),
    (["replay", "{tmp}/missing.json"], "file not found"),
]


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    """The files and folders the corpus names: nothing in them may change when a command is refused."""
    existing = tmp_path / "existing.txt"
    existing.write_text("keep me\n")
    (tmp_path / "kept.json").write_text("{}\n")
    run = tmp_path / "run"
    assert main(["compare", "ffg2015", "original", "--players", "2", "--games", "2", "--workers", "1",
                 "--save-dir", str(run), "--no-progress"]) == 0
    edition = tmp_path / "mine.toml"
    edition.write_text((DATA / "tiny-ffg2015.toml").read_text())
    return {"tmp": str(tmp_path), "file": str(existing), "run": str(run), "edition": str(edition)}


def refused_in_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse refuses before a command runs
        code = exit_.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert code == 2, (argv, captured)
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    assert captured.err.startswith("samurai") and ": error: " in captured.err
    return captured.err


def snapshot(folder: str) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in Path(folder).rglob("*") if p.is_file()}


@pytest.mark.parametrize("captured, message", CAPTURED, ids=[c[1][:40] for c in CAPTURED])
def test_bad_captured_figures_are_refused_in_one_line(capsys, captured, message):
    err = refused_in_one_line(["score", "--edition", "ffg2015", "--captured", captured], capsys)
    assert message in err and "--captured" in err


@pytest.mark.parametrize("argv, message", NUMBERS + OPTIONS, ids=[" ".join(a[1:])[:50] for a, _ in NUMBERS + OPTIONS])
def test_bad_numbers_and_options_are_refused_in_one_line(capsys, argv, message):
    assert message in refused_in_one_line(argv, capsys)


@pytest.mark.parametrize("argv, message", OUTPUTS, ids=[" ".join(a)[:60] for a, _ in OUTPUTS])
def test_bad_outputs_are_refused_before_the_work_and_overwrite_nothing(capsys, places, argv, message):
    before = snapshot(places["tmp"])
    scenario = Path(SCENARIO).read_bytes()
    argv = [arg.format(**places) for arg in argv]
    assert message.format(**places) in refused_in_one_line(argv, capsys)
    assert snapshot(places["tmp"]) == before
    assert Path(SCENARIO).read_bytes() == scenario


def test_outputs_are_replaced_with_force(capsys, places):
    out = Path(places["tmp"]) / "kept.json"
    assert main(["play-scenario", SCENARIO, "--edition", TINY_EDITION, "--save", str(out), "--force"]) == 0
    assert '"actions"' in out.read_text()
    assert main(["analyse", places["run"], "--json", places["file"], "--force"]) == 0
    assert '"metrics"' in Path(places["file"]).read_text()
    capsys.readouterr()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_an_output_in_a_folder_without_write_permission_is_refused(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    err = refused_in_one_line(["compare", "ffg2015", "original", "--games", "1", "--json", str(locked / "m.json")],
                              capsys)
    assert "cannot write into the folder" in err

"""A designer's balance bench, its sweep (issue 26 point 1 and 3): ``samurai sweep EDITION --option NAME=V1,V2,...``
plays every combination of the values at every player count on paired games, gives every metric under every
setting with its interval, tests each for a change with the value (Holm-corrected), and writes a table, JSON, CSV
and a plot; a sweep cut short resumes to the numbers of the whole run; bad input is one line."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from samurai.catalog.editions import load_edition
from samurai.cli import main
from samurai.runs.compare import compare
from samurai.runs.folders import RUN_FILE
from samurai.runs.statistics import Estimate, difference_p_value, holm, share_p_value, wilson_interval
from samurai.runs.sweep import SWEEP_TEST, sweep

from helpers import DATA

UNFAIR = str(DATA / "unfair" / "unfair-first-seat.toml")
"""A test edition: FFG 2015 with a head start for seat 0, and an option no rule reads (``table_colour``)."""

QUICK = ["--bots", "greedy", "--workers", "1", "--no-progress"]


def exit_code(argv: list[str]) -> int:
    """``main(argv)``'s exit code, a refusal of argparse's (which exits) included."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)


def _sweep_json(capsys, tmp_path: Path, *argv: str, name: str = "sweep.json") -> dict:
    assert main(["sweep", *argv, "--json", str(tmp_path / name), "--no-progress"]) == 0, capsys.readouterr().err
    return json.loads((tmp_path / name).read_text())


def test_a_sweep_of_two_options_gives_a_table_json_csv_and_plot(capsys, tmp_path):
    out = tmp_path / "s"
    assert main(["sweep", "ffg2015", "--option", "removed_to_end=3,6", "--option", "starting_hands=choose,random",
                 "--players", "2,3", "--games", "30", "--seed", "5", *QUICK, "--json", f"{out}.json",
                 "--csv", f"{out}.csv", "--plot", f"{out}.png"]) == 0
    printed = capsys.readouterr().out
    flat = " ".join(printed.split())
    for players in (2, 3):
        assert (f"ffg2015, sweeping removed_to_end, starting_hands: {players} players, 30 games, seed 5, bots greedy "
                f"per setting") in flat
    assert "3, choose (first)" in printed and "6, random" in printed
    assert f"Test: {SWEEP_TEST}" in flat and "beyond chance" in flat  # the legend under the tables

    data = json.loads(Path(f"{out}.json").read_text())
    assert data["options"] == {"removed_to_end": [3, 6], "starting_hands": ["choose", "random"]}
    assert data["settings"] == [{"removed_to_end": 3, "starting_hands": "choose"},
                                {"removed_to_end": 3, "starting_hands": "random"},
                                {"removed_to_end": 6, "starting_hands": "choose"},
                                {"removed_to_end": 6, "starting_hands": "random"}]
    assert [table["players"] for table in data["tables"]] == [2, 3] and data["test"] == SWEEP_TEST
    for table in data["tables"]:
        metrics = {m["name"]: m for m in table["metrics"]}
        assert {"turns", "figures_removed", "first_player_advantage", "win_rate_seat_0"} <= set(metrics)
        assert table["tests"] == 3 * len(metrics)  # three settings after the first, each metric
        for metric in metrics.values():
            first, *others = metric["settings"]
            assert first["difference"] is None and first["p"] is None and 0 < first["estimate"]["n"] <= 30
            assert all(0.0 <= s["p"] <= s["p_holm"] <= 1.0 for s in others)
            assert metric["changes"] == (min(s["p_holm"] for s in others) < 0.05)
        # Six figures removed by ties end a game later than three: every game of a setting is longer on average.
        turns = metrics["turns"]["settings"]
        assert [s["estimate"]["n"] for s in turns] == [30] * 4
        assert turns[2]["estimate"]["value"] > turns[0]["estimate"]["value"] and metrics["turns"]["changes"]

    with open(f"{out}.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == sum(4 * len(table["metrics"]) for table in data["tables"])
    assert rows[0]["removed_to_end"] == "3" and rows[0]["starting_hands"] == "choose" and rows[0]["setting"] == "0"
    turns_row = next(r for r in rows if r["players"] == "3" and r["metric"] == "turns" and r["setting"] == "3")
    assert float(turns_row["value"]) == data["tables"][1]["metrics"][
        [m["name"] for m in data["tables"][1]["metrics"]].index("turns")]["settings"][3]["estimate"]["value"]

    assert Path(f"{out}.png").read_bytes().startswith(b"\x89PNG") and Path(f"{out}.png").stat().st_size > 20_000


def test_a_sweep_of_two_values_is_the_comparison_of_the_two_on_the_same_games():
    swept = sweep("ffg2015", {"removed_to_end": [3, 5]}, players=[3], games=40, seed=9, bots=["greedy"])
    compared = compare("ffg2015", "ffg2015", players=3, games=40, seed=9, bots=["greedy"],
                       options_a={"removed_to_end": 3}, options_b={"removed_to_end": 5})
    by_name = {m.name: m for m in compared.metrics}
    (table,) = swept.tables
    assert [row.metric.name for row in table.rows] == [m.name for m in compared.metrics if m.difference is not None]
    for row in table.rows:
        metric = by_name[row.metric.name]
        assert row.metric.estimates == (metric.a, metric.b) and row.metric.differences == (None, metric.difference)


@pytest.mark.parametrize(("edition", "option"), [(UNFAIR, "table_colour=red,blue,green"),
                                                 ("daimyo", "shinobi_turn=ends,goes_on")],
                         ids=["a manifest's own option no rule reads", "a Daimyo ruling that waits for another"])
def test_an_option_the_edition_ignores_changes_nothing_beyond_chance(capsys, tmp_path, edition, option):
    bots = ["--bots", "greedy"] if edition == UNFAIR else []
    data = _sweep_json(capsys, tmp_path, edition, "--option", option, "--players", "2", "--games", "8",
                       "--workers", "1", *bots)
    (table,) = data["tables"]
    for metric in table["metrics"]:
        first, *others = metric["settings"]
        assert not metric["changes"] and metric["p_holm"] == 1.0, metric["name"]
        for other in others:  # the games went alike: every paired difference is exactly zero
            assert other["estimate"] == first["estimate"] and other["difference"]["value"] == 0.0
            assert other["difference"]["low"] == other["difference"]["high"] == 0.0 and other["p"] == 1.0
    assert "yes" not in capsys.readouterr().out.split("Each setting")[0].split()


def test_a_daimyo_sweep_finds_what_its_optional_rule_changes(capsys, tmp_path):
    data = _sweep_json(capsys, tmp_path, "daimyo", "--option", "shinobi_wo_tsukau=false,true", "--games", "12",
                       "--seed", "3", "--workers", "1")
    assert data["game"] == "daimyo" and data["players"] == [2] and data["bots"] == ["random"]
    metrics = {m["name"]: m for m in data["tables"][0]["metrics"]}
    gained = metrics["shinobi_gained"]["settings"]
    assert gained[0]["estimate"]["value"] == 0.0 and gained[1]["estimate"]["value"] > 0.0
    assert "has no greedy bot: sweeping with random bots" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["ffg2015", "--option", "removed_to_ned=3,4"], "--option [removed_to_ned]: edition 'ffg2015' has no option "
                                                    "'removed_to_ned'; its options are: figure_distribution, "),
    (["ffg2015", "--option", "removed_to_end=3,four"], "option 'removed_to_end' takes a whole number like its default "
                                                       "4, not 'four'"),
    (["ffg2015", "--option", "removed_to_end=3,0"], "--option [options.removed_to_end]: removed_to_end=0: option "
                                                    "removed_to_end must be a whole number from 1 to 999, not 0"),
    (["ffg2015", "--option", "starting_hands=choose,dealt"], "option 'starting_hands' must be one of 'choose', "
                                                             "'random', not 'dealt'"),
    (["ffg2015", "--option", "first_player=0,3", "--players", "2,4"], "first_player=3 with 2 players: option "
                                                                      "first_player 3 is not a seat of a 2-player"),
    (["daimyo", "--option", "nobori=yes"], "option 'nobori' takes true or false like its default False, not 'yes'"),
    (["ffg2015", "--option", "removed_to_end=3,,4"], "option 'removed_to_end' has an empty value in '3,,4'"),
    (["ffg2015", "--option", "removed_to_end=3,4,3"], "option 'removed_to_end' is given the value 3 twice"),
    (["ffg2015", "--option", "removed_to_end=3", "--option", "removed_to_end=4"], "option 'removed_to_end' is given "
                                                                                  "twice"),
    (["ffg2015", "--option", "removed_to_end"], "--option: expected NAME=V1,V2,..., got 'removed_to_end'"),
    (["ffg2015"], "--option: name an option to sweep and its values, --option NAME=V1,V2,..."),
    (["ffg2015", "--option", "removed_to_end=5"], "--option: a sweep needs an option given two values or more"),
    (["ffg2015", "--option", "removed_to_end=3,4", "--players", "2,5"], "--players: edition 'ffg2015' plays 2, 3, 4 "
                                                                        "players, not 5"),
    (["ffg2015", "--option", "removed_to_end=3,4", "--players", "2,x"], "argument --players: 'x' is not a whole "
                                                                        "number"),
    (["ffg2015", "--option", "removed_to_end=3,4", "--players", "3,3"], "argument --players: '3,3' names a player "
                                                                        "count twice"),
    (["--option", "removed_to_end=3,4"], "sweep: name the EDITION (an id or a manifest path), or --resume DIR"),
    (["ffg2015", "--option", "removed_to_end=3,4", "--bots", "greedy,nosuch"], "--bots"),
    (["ffg2015", "--option", "removed_to_end=3,4", "--plot", "out.gif"], "--plot: the plot is saved as .png or .svg"),
], ids=lambda value: value if isinstance(value, str) and len(value) < 30 else None)
def test_bad_input_is_one_line_and_touches_no_save_folder(capsys, tmp_path, argv, message):
    folder = tmp_path / "run"
    argv = ["sweep", *argv, "--games", "2", "--save-dir", str(folder), "--no-progress", "--workers", "1"]
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: ") and message in err, err
    assert not folder.exists()


# --- save folders, resuming ------------------------------------------------------------------------

def _cut_short(folder: Path, files: list[str]) -> None:
    for name in files:
        (folder / name).unlink()


def test_a_sweep_cut_short_resumes_to_the_numbers_of_the_whole_run(capsys, tmp_path):
    folder = tmp_path / "run"
    argv = [UNFAIR, "--option", "removed_to_end=3,5", "--players", "2,3", "--games", "10", "--seed", "4",
            "--bots", "greedy,random", "--workers", "1"]
    whole = _sweep_json(capsys, tmp_path, *argv, "--save-dir", str(folder), name="whole.json")
    records = sorted(path.relative_to(folder).as_posix() for path in folder.rglob("game-*.json"))
    assert len(records) == 2 * 2 * 10 and "players-3/setting-1/game-00009.json" in records
    assert json.loads((folder / RUN_FILE).read_text())["settings"] == [{"removed_to_end": 3}, {"removed_to_end": 5}]
    # A run stopped early lacks some games; a game with only one setting's record is played again.
    _cut_short(folder, ["players-2/setting-0/game-00000.json", "players-2/setting-1/game-00000.json",
                        "players-3/setting-1/game-00004.json", "players-3/setting-0/game-00009.json",
                        "players-3/setting-1/game-00009.json"])
    capsys.readouterr()
    assert main(["sweep", "--resume", str(folder), "--trust", UNFAIR, "--json", str(tmp_path / "resumed.json"),
                 "--no-progress", "--workers", "2"]) == 0
    assert "samurai: resumed" in capsys.readouterr().err
    assert json.loads((tmp_path / "resumed.json").read_text()) == whole
    assert sorted(path.relative_to(folder).as_posix() for path in folder.rglob("game-*.json")) == records


@pytest.mark.parametrize(("change", "argv", "message"), [
    (lambda run: None, ["--option", "removed_to_end=3"], "the run's settings come from "),
    (lambda run: None, ["ffg2015"], "drop EDITION"),
    (lambda run: (run / RUN_FILE).write_text('{"run": "balance", "games": 3}'), [], "not of sweep: only sweep runs"),
    (lambda run: (run / "players-2" / "setting-0" / "game-00001.json").rename(
        run / "players-2" / "setting-0" / "game-00007.json"), [], "not a game of this run of 3 games"),
    (lambda run: (run / "players-2" / "setting-1" / "game-00000.json").write_text(
        (run / "players-2" / "setting-1" / "game-00002.json").read_text()), [], "the record is not game 0 of the run"),
    (lambda run: (run / RUN_FILE).write_text((run / RUN_FILE).read_text().replace('"players": [\n  2\n ]',
                                                                                   '"players": [\n  7\n ]')), [],
     "run.json [players]: edition 'ffg2015' plays 2, 3, 4 players, not 7"),
], ids=["a setting given again", "an edition given again", "another command's run", "a number past the run",
        "another game's record", "a player count the edition does not play"])
def test_a_folder_that_is_not_the_sweep_it_says_is_refused_naming_what(capsys, tmp_path, change, argv, message):
    folder = tmp_path / "run"
    assert main(["sweep", "ffg2015", "--option", "removed_to_end=3,4", "--players", "2", "--games", "3",
                 "--save-dir", str(folder), *QUICK]) == 0
    capsys.readouterr()
    change(folder)
    assert main(["sweep", "--resume", str(folder), *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: ") and message in err, err


def test_a_save_folder_holding_a_run_is_replaced_only_with_force(capsys, tmp_path):
    argv = ["sweep", "ffg2015", "--option", "removed_to_end=3,4", "--players", "2", "--games", "2",
            "--save-dir", str(tmp_path), *QUICK]
    assert main(argv) == 0
    assert main(argv) == 2 and "already holds a saved run" in capsys.readouterr().err
    assert main([*argv, "--force"]) == 0


# --- the statistics behind the verdicts ---------------------------------------------------------

def test_a_difference_with_no_spread_is_no_change_when_zero_and_a_change_otherwise():
    assert difference_p_value(Estimate(0.0, 0.0, 0.0, 50)) == 1.0
    assert difference_p_value(Estimate(1.5, 1.5, 1.5, 50)) == 0.0
    assert difference_p_value(Estimate(2.0, 2.0, 2.0, 1)) == 1.0  # one game tests nothing
    assert difference_p_value(Estimate(math.nan, math.nan, math.nan, 0)) == 1.0
    # The z-test whose 95% interval this is: an interval touching 0 is p = 0.05.
    assert difference_p_value(Estimate(1.0, 0.0, 2.0, 100)) == pytest.approx(0.05)
    assert difference_p_value(Estimate(-1.0, -3.0, 1.0, 100)) > 0.3


def test_holm_multiplies_the_smallest_by_the_family_and_keeps_the_order():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.2, 0.9]) == [0.4, 0.9] and holm([0.5, 0.9]) == [1.0, 1.0] and holm([]) == [] and holm([0.3]) == [0.3]
    assert holm([0.2, 0.2, 0.2, 0.2, 0.2, 0.2]) == [1.0] * 6


@pytest.mark.parametrize(("successes", "n", "par"), [(30, 100, 0.25), (40, 100, 0.25), (17, 40, 0.5), (0, 20, 0.2)])
def test_the_share_test_rejects_par_exactly_when_wilsons_interval_excludes_it(successes, n, par):
    interval = wilson_interval(successes, n)
    assert (share_p_value(successes, n, par) < 0.05) == (not interval.low <= par <= interval.high)


def test_options_are_read_as_the_type_their_edition_declares():
    options = load_edition("daimyo").manifest.options
    assert options["nobori"].read("true") is True and options["nobori"].read("False") is False
    assert options["no_progress_limit"].read("-3") == -3 and options["stalemate"].read("loss") == "loss"


def test_a_number_option_reads_finite_decimals_and_refuses_the_rest_in_one_line():
    from samurai.catalog.manifests import OptionSpec
    from samurai.errors import DataError

    share = OptionSpec("share", 0.5, "a share")
    assert share.read("0.25") == 0.25 and share.read("2") == 2.0
    for text in ("nan", "1e400", "half", "٠٫٥"):
        with pytest.raises(DataError, match=f"option 'share' takes a number like its default 0.5, not '{text}'"):
            share.read(text)

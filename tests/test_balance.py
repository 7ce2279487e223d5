"""A designer's balance bench, its report (issue 26 point 2 and 3): ``samurai balance EDITION`` gives, per player
count, every metric of the game with its interval, each seat's share of the games won alone against par with a
verdict line, and writes JSON, CSV and a plot; a deliberately unfair edition is caught; a run cut short resumes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from samurai.cli import main
from samurai.runs.balance import SEAT_TEST, BalanceReport, SeatShare, balance
from samurai.runs.statistics import wilson_interval

from helpers import DATA

UNFAIR = str(DATA / "unfair" / "unfair-first-seat.toml")
"""FFG 2015 where seat 0 scores a figure of every caste more than it captured."""


def _balance_json(capsys, tmp_path: Path, *argv: str, name: str = "balance.json") -> dict:
    assert main(["balance", *argv, "--json", str(tmp_path / name), "--no-progress"]) == 0, capsys.readouterr().err
    return json.loads((tmp_path / name).read_text())


def test_an_unfair_edition_is_caught_favouring_its_first_seat(capsys, tmp_path):
    data = _balance_json(capsys, tmp_path, UNFAIR, "--players", "2,3,4", "--games", "40", "--bots", "greedy",
                         "--workers", "1")
    out = " ".join(capsys.readouterr().out.split())
    assert [report["players"] for report in data["reports"]] == [2, 3, 4] and data["test"] == SEAT_TEST
    for report in data["reports"]:
        seats = report["seats"]
        assert seats[0]["verdict"] == "favoured" and seats[0]["p_holm"] < 0.05
        assert all(seat["verdict"] != "favoured" for seat in seats[1:])
        assert report["par"] == pytest.approx(1 / report["players"])
        assert seats[0]["share"]["low"] > report["par"]
        assert sum(seat["wins_alone"] for seat in seats) == report["won_alone"] == seats[0]["share"]["n"]
        assert report["verdict"].startswith(f"{report['players']} players: seat 0 wins ")
        assert "seat 0 is favoured beyond chance" in report["verdict"] and report["verdict"] in out


def test_a_balance_report_shows_every_metric_the_seats_and_a_legend_and_writes_csv_and_plot(capsys, tmp_path):
    out = tmp_path / "b"
    assert main(["balance", "ffg2015", "--players", "2,4", "--games", "30", "--seed", "3", "--bots", "greedy",
                 "--workers", "1", "--no-progress", "--json", f"{out}.json", "--csv", f"{out}.csv",
                 "--plot", f"{out}.png"]) == 0
    printed = capsys.readouterr().out
    flat = " ".join(printed.split())
    assert "ffg2015: 30 games, seed 3, bots greedy per player count" in flat
    for words in ("seat 3 wins alone", "first player's edge", "shared win", "turns per game", "ended: ",
                  "figures removed by ties per game", "Each seat's share of the games won alone",
                  "(par 50.0%)", "(par 25.0%)", f"Test: {SEAT_TEST}"):
        assert words in flat, words
    data = json.loads(Path(f"{out}.json").read_text())
    for report in data["reports"]:
        assert report["verdict"].startswith(f"{report['players']} players: ") and report["verdict"] in flat
        names = [metric["name"] for metric in report["metrics"]]
        assert {"first_player_advantage", "shared_win_rate", "turns", "figures_captured"} <= set(names)
        assert [f"win_rate_seat_{seat}" in names for seat in range(4)] == [True] * report["players"] + \
            [False] * (4 - report["players"])
        turns = next(m for m in report["metrics"] if m["name"] == "turns")["estimate"]
        assert turns["n"] == 30 and turns["low"] <= turns["value"] <= turns["high"]
    with open(f"{out}.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == sum(len(r["metrics"]) + r["players"] for r in data["reports"])
    seat_rows = [row for row in rows if row["row"] == "seat"]
    assert [row["name"] for row in seat_rows] == ["seat_0", "seat_1", "seat_0", "seat_1", "seat_2", "seat_3"]
    assert Path(f"{out}.png").read_bytes().startswith(b"\x89PNG")


def test_balance_of_daimyo_judges_white_and_black(capsys, tmp_path):
    data = _balance_json(capsys, tmp_path, "daimyo", "--games", "8", "--seed", "2", "--workers", "1")
    (report,) = data["reports"]
    assert report["players"] == 2 and [seat["seat"] for seat in report["seats"]] == [0, 1]
    names = {metric["name"] for metric in report["metrics"]}
    assert {"win_rate_seat_0", "draw_rate", "first_player_advantage", "flips"} <= names
    assert "playing with random bots" in capsys.readouterr().err


def test_a_balance_run_cut_short_resumes_to_the_whole_report(capsys, tmp_path):
    folder = tmp_path / "run"
    argv = ["ffg2015", "--option", "removed_to_end=5", "--players", "3,4", "--games", "12", "--seed", "8",
            "--bots", "greedy", "--workers", "2"]
    whole = _balance_json(capsys, tmp_path, *argv, "--save-dir", str(folder), name="whole.json")
    assert whole["options"] == {"removed_to_end": 5}
    assert len(list((folder / "players-4").glob("game-*.json"))) == 12
    for name in ("players-3/game-00000.json", "players-4/game-00011.json", "players-4/game-00005.json"):
        (folder / name).unlink()
    capsys.readouterr()
    assert main(["balance", "--resume", str(folder), "--json", str(tmp_path / "resumed.json"), "--no-progress",
                 "--workers", "1"]) == 0
    assert json.loads((tmp_path / "resumed.json").read_text()) == whole
    assert len(list(folder.rglob("game-*.json"))) == 24


@pytest.mark.parametrize(("argv", "message"), [
    (["ffg2015", "--option", "removed_to_end=3,4"], "option 'removed_to_end' takes a whole number like its default "
                                                    "4, not '3,4'"),
    (["ffg2015", "--option", "nosuch=1"], "edition 'ffg2015' has no option 'nosuch'"),
    (["ffg2015", "--players", "1"], "--players: edition 'ffg2015' plays 2, 3, 4 players, not 1"),
    (["daimyo", "--players", "3"], "--players: edition 'daimyo' plays 2 players, not 3"),
    (["ffg2015", "--option", "first_player=4", "--players", "4"], "first_player=4: option first_player 4 is not a "
                                                                  "seat"),
    ([], "balance: name the EDITION (an id or a manifest path), or --resume DIR"),
])
def test_bad_input_is_one_line(capsys, tmp_path, argv, message):
    folder = tmp_path / "run"
    assert main(["balance", *argv, "--games", "2", "--save-dir", str(folder), "--no-progress", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: ") and message in err, err
    assert not folder.exists()


def _report(players: int, wins: list[int]) -> BalanceReport:
    from samurai.runs.balance import _seats
    from samurai.runs.paired import SettingMetric

    games = sum(wins) + 10
    metrics = [SettingMetric(f"win_rate_seat_{seat}", f"seat {seat}", "rate",
                             (wilson_interval(count, games),), (None,)) for seat, count in enumerate(wins)]
    return BalanceReport(players, games, tuple(metrics), _seats(metrics, players, None))


def test_the_verdict_names_each_seat_beyond_chance_and_otherwise_the_furthest_from_par():
    fair = _report(3, [102, 95, 103])
    assert all(seat.verdict == "within chance" for seat in fair.seats)
    assert fair.verdict() == ("3 players: no seat is favoured or disfavoured beyond chance; the furthest from par "
                              "33.3%: seat 1 wins 31.7% (26.7–37.1%) of the 300 games won alone (97% of 310).")
    lopsided = _report(4, [160, 80, 80, 80])
    assert [seat.verdict for seat in lopsided.seats] == ["favoured", "within chance", "within chance",
                                                         "within chance"]
    assert lopsided.verdict().startswith("4 players: seat 0 wins 40.0% (35.3–44.9%) of the 400 games won alone "
                                         "(98% of 410), par 25.0%: seat 0 is favoured beyond chance")
    two = _report(2, [60, 40])  # 60 of 100: p = 0.046 for both seats, one test with two players
    assert [seat.verdict for seat in two.seats] == ["favoured", "disfavoured"]
    assert two.verdict().endswith("seat 0 is favoured beyond chance.") and "seat 1" not in two.verdict()
    assert isinstance(two.seats[0], SeatShare) and two.seats[0].p == two.seats[0].p_holm


def test_balance_takes_a_loaded_edition_and_gives_the_same_report_on_two_workers():
    from samurai.catalog.editions import load_edition

    edition = load_edition(UNFAIR)
    one = balance(edition, players=[2], games=20, seed=6, bots=["greedy"])
    two = balance(UNFAIR, players=[2], games=20, seed=6, bots=["greedy"], workers=2)
    assert one.to_dict() == two.to_dict()


def test_a_balance_run_stopped_by_ctrl_c_says_what_it_keeps_and_resumes_to_the_whole_report(capsys, tmp_path,
                                                                                           monkeypatch):
    import contextlib

    import samurai.cli.progress

    argv = ["balance", "ffg2015", "--players", "2,3", "--games", "40", "--seed", "5", "--bots", "greedy",
            "--workers", "1"]
    whole = _balance_json(capsys, tmp_path, *argv[1:], name="whole.json")

    def stopped_after_a_batch(label: str, total: int, enabled: bool) -> contextlib.AbstractContextManager:
        def advance(done: int) -> None:
            raise KeyboardInterrupt  # Ctrl-C once the first batch is saved

        return contextlib.nullcontext(advance)

    folder = tmp_path / "run"
    with monkeypatch.context() as patched:
        patched.setattr(samurai.cli.progress, "progress_bar", stopped_after_a_batch)
        assert main([*argv, "--save-dir", str(folder)]) == 130
    kept = len(list(folder.rglob("game-*.json")))
    assert 0 < kept < 80
    assert capsys.readouterr().err == (f"samurai: interrupted; {folder} keeps the {kept} finished games of the 80 "
                                       f"asked for; samurai balance --resume {folder} carries the run on\n")
    assert main(["balance", "--resume", str(folder), "--json", str(tmp_path / "resumed.json"), "--no-progress"]) == 0
    assert json.loads((tmp_path / "resumed.json").read_text()) == whole

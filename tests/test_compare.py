"""``samurai compare``: paired games under two editions, metrics with intervals, JSON, CSV, plots."""

from __future__ import annotations

import csv
import json

import pytest

from samurai.cli import main
from samurai.runs.compare import analyse_records, compare

from helpers import TINY_EDITION, TINY_ORIGINAL_EDITION

METRICS = {"win_rate_seat_0", "win_rate_seat_1", "win_rate_seat_2", "first_player_advantage",
           "shared_win_rate", "turns", "tiles_played",
           "end_caste_exhausted", "end_removed_by_ties", "end_no_tiles", "figures_captured", "figures_removed",
           "decisiveness", "scoring_disagreement"}


@pytest.fixture(scope="module")
def tiny_comparison():
    return compare(TINY_EDITION, TINY_ORIGINAL_EDITION, players=3, games=120, seed=4, bots=("random", "greedy"))


def test_an_edition_against_itself_differs_by_exactly_nothing():
    # Game i under A and under B share seed and bots: identical rules give identical games.
    same = compare(TINY_EDITION, TINY_EDITION, players=2, games=60, seed=9)
    for metric in same.metrics:
        assert metric.a == metric.b, metric.name
        if metric.difference is not None:
            assert metric.difference.value == metric.difference.low == metric.difference.high == 0


def test_the_same_seed_gives_the_same_numbers_with_any_number_of_workers(tiny_comparison):
    again = compare(TINY_EDITION, TINY_ORIGINAL_EDITION, players=3, games=120, seed=4, bots=("random", "greedy"),
                    workers=3)
    assert again.to_dict() == tiny_comparison.to_dict()
    other = compare(TINY_EDITION, TINY_ORIGINAL_EDITION, players=3, games=120, seed=5, bots=("random", "greedy"))
    assert other.to_dict() != tiny_comparison.to_dict()


def test_every_metric_comes_with_its_interval(tiny_comparison):
    data = tiny_comparison.to_dict()
    assert {m["name"] for m in data["metrics"]} == METRICS
    assert data["bots"] == ["random", "greedy", "random"]
    for metric in data["metrics"]:
        for side in ("a", "b"):
            assert metric[side]["low"] <= metric[side]["value"] <= metric[side]["high"]
            assert metric[side]["n"] > 0
        if metric["name"] != "scoring_disagreement":
            assert metric["difference"]["low"] <= metric["difference"]["value"] <= metric["difference"]["high"]


def test_seat_win_rates_and_shared_wins_account_for_every_game(tiny_comparison):
    metrics = {m.name: m for m in tiny_comparison.metrics}
    for side in ("a", "b"):
        total = sum(getattr(metrics[f"win_rate_seat_{s}"], side).value for s in range(3))
        assert total + getattr(metrics["shared_win_rate"], side).value == pytest.approx(1)
        reasons = sum(getattr(metrics[f"end_{r}"], side).value for r in ("caste_exhausted", "removed_by_ties",
                                                                          "no_tiles"))
        assert reasons == pytest.approx(1)


def test_saved_records_can_be_analysed_again(tmp_path, tiny_comparison):
    saved = compare(TINY_EDITION, TINY_ORIGINAL_EDITION, players=3, games=120, seed=4, bots=("random", "greedy"),
                    save_dir=tmp_path, workers=2)
    assert len(list((tmp_path / "a").glob("game-*.json"))) == 120
    again = analyse_records(tmp_path, trust=[TINY_EDITION, TINY_ORIGINAL_EDITION])
    assert [m.to_dict() for m in again.metrics] == [m.to_dict() for m in saved.metrics]
    assert [m.to_dict() for m in again.metrics] == [m.to_dict() for m in tiny_comparison.metrics]


def test_the_compare_command_writes_json_csv_and_a_plot(tmp_path, capsys):
    out_json, out_csv, out_png = tmp_path / "c.json", tmp_path / "c.csv", tmp_path / "c.png"
    base = ["compare", TINY_EDITION, TINY_ORIGINAL_EDITION, "--players", "3", "--games", "60", "--seed", "2",
            "--bots", "random", "--workers", "2", "--no-progress"]
    assert main([*base, "--json", str(out_json), "--csv", str(out_csv), "--plot", str(out_png)]) == 0
    printed = capsys.readouterr().out
    assert "B − A" in printed and "seat 0 wins alone" in printed
    data = json.loads(out_json.read_text())
    assert {m["name"] for m in data["metrics"]} == METRICS
    rows = list(csv.DictReader(out_csv.open()))
    assert {row["metric"] for row in rows} == METRICS
    assert out_png.read_bytes().startswith(b"\x89PNG")
    assert main([*base, "--workers", "1", "--json", str(tmp_path / "again.json")]) == 0
    assert json.loads((tmp_path / "again.json").read_text()) == data


def test_the_plot_can_be_svg(tmp_path, tiny_comparison):
    from samurai.runs.plot import plot_comparison

    path = plot_comparison(tiny_comparison, tmp_path / "c.svg")
    assert "<svg" in path.read_text()


@pytest.mark.parametrize("argv, message", [
    (["compare", "ffg2015", "nonesuch"], "no edition named 'nonesuch'"),
    (["compare", "ffg2015", "original", "--players", "5"], "is for 2, 3, 4 players, not 5"),
    (["compare", "ffg2015", "original", "--bots", "clever"], "unknown bot 'clever'"),
    (["compare", "ffg2015", "original", "--plot", "out.pdf", "--games", "1"], "saved as .png or .svg"),
    (["analyse", "/nonexistent/folder"], "no such folder (expected one written by compare --save-dir)"),
])
def test_bad_compare_arguments_are_refused_in_one_line(capsys, argv, message):
    assert main([*argv, "--no-progress"] if argv[0] == "compare" else argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_bad_number_of_games_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["compare", "ffg2015", "original", "--games", "0"])
    assert stopped.value.code == 2
    assert "argument --games: must be at least 1, not 0" in capsys.readouterr().err


def test_plugins_contribute_metrics_that_compare_shows_once():
    from helpers import ROOT

    open_screens = str(ROOT / "docs" / "examples" / "open-screens.toml")
    both = compare("ffg2015", open_screens, players=3, games=40, seed=3)
    names = [m.name for m in both.metrics]
    assert names.count("close_finish") == 1 and names.count("turns") == 1
    assert names.index("turns") < names.index("close_finish")  # the engine's metrics first
    assert names[-2:] == ["decisiveness", "scoring_disagreement"]
    close = next(m for m in both.metrics if m.name == "close_finish")
    assert close.kind == "rate" and 0 <= close.a.value <= 1 and close.a.n == 40
    # Both editions score with Leader tokens: the scorings cannot disagree.
    assert next(m for m in both.metrics if m.name == "scoring_disagreement").a.value == 0


def test_an_edition_can_be_compared_with_itself_under_another_option(tmp_path, capsys):
    early = compare(TINY_EDITION, TINY_EDITION, players=2, games=80, seed=6, options_b={"removed_to_end": 1},
                    save_dir=tmp_path)
    assert early.side("b") == f"{TINY_EDITION} (removed_to_end=1)" and early.side("a") == TINY_EDITION
    ties = next(m for m in early.metrics if m.name == "end_removed_by_ties")
    turns = next(m for m in early.metrics if m.name == "turns")
    assert ties.b.value > ties.a.value and ties.difference.low > 0  # the first tie now ends the game
    assert turns.difference.high < 0
    assert analyse_records(tmp_path, trust=[TINY_EDITION]).options_b == {"removed_to_end": 1}
    assert main(["compare", TINY_EDITION, TINY_EDITION, "--option-b", "removed_to_end=1", "--players", "2",
                 "--games", "20", "--no-progress"]) == 0
    assert "(removed_to_end=1)" in capsys.readouterr().out
    assert main(["compare", TINY_EDITION, TINY_EDITION, "--option-b", "removed_to_end=zero", "--games", "5",
                 "--no-progress"]) == 2
    assert "option 'removed_to_end' must be int" in capsys.readouterr().err


def test_an_output_file_in_a_missing_folder_is_refused_before_the_games(tmp_path, capsys):
    missing = tmp_path / "nowhere" / "c.json"
    assert main(["compare", TINY_EDITION, TINY_EDITION, "--games", "5", "--json", str(missing), "--no-progress"]) == 2
    assert "--json: the folder of" in capsys.readouterr().err

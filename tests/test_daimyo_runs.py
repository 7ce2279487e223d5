"""``samurai compare`` and ``samurai simulate`` for a game other than Knizia's (issue 12): the metrics a game
supplies through its definition (``samurai.catalog.games.GameMeasures``), Daimyo and Shinobi's own, paired games on the
same seeds, saved runs analysed again, and protocol games played in batches on the executors."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from daimyo_helpers import flip, move, position

from samurai import DataError
from samurai.catalog.editions import load_edition
from samurai.cli import main
from samurai.records import read_play_record
from samurai.runs.compare import analyse_records, compare
from samurai.runs.matches import play_match, simulate_matches
from samurai.seeds import derive_seed
from samurai_plugins import daimyo as d

DAIMYO_METRICS = ["win_rate_seat_0", "win_rate_seat_1", "draw_rate", "first_player_advantage", "turns", "actions",
                  "end_daimyo_captured", "end_haisen", "end_yonhon_no_ki", "end_no_progress", "end_stalemate",
                  "flips", "heiya_removed", "engun", "shinobi_gained", "ki_pairs", "move_turns", "captures",
                  "tiles_left"]


@pytest.fixture(scope="module")
def shinobi_comparison():
    return compare("daimyo", "daimyo-shinobi", players=2, games=30, seed=1)


def test_a_daimyo_comparison_reports_the_games_own_metrics(shinobi_comparison):
    data = shinobi_comparison.to_dict()
    assert [m["name"] for m in data["metrics"]] == DAIMYO_METRICS
    assert data["games"] == 30 and data["players"] == 2 and data["bots"] == ["random", "random"]
    for metric in data["metrics"]:
        for side in ("a", "b"):
            assert metric[side]["low"] <= metric[side]["value"] <= metric[side]["high"] and metric[side]["n"] == 30
        assert metric["difference"]["low"] <= metric["difference"]["value"] <= metric["difference"]["high"]


def test_daimyo_results_and_endings_account_for_every_game(shinobi_comparison):
    metrics = {m.name: m for m in shinobi_comparison.metrics}
    for side in ("a", "b"):
        results = sum(getattr(metrics[name], side).value for name in ("win_rate_seat_0", "win_rate_seat_1",
                                                                         "draw_rate"))
        assert results == pytest.approx(1)
        endings = sum(getattr(metrics[name], side).value for name in DAIMYO_METRICS if name.startswith("end_"))
        assert endings == pytest.approx(1)
        edge = getattr(metrics["first_player_advantage"], side).value
        white, black = getattr(metrics["win_rate_seat_0"], side).value, getattr(metrics["win_rate_seat_1"], side).value
        assert edge == pytest.approx(white - black)


def test_shinobi_wo_tsukau_shows_in_the_shinobi_gained_and_nowhere_without_it(shinobi_comparison):
    gained = {m.name: m for m in shinobi_comparison.metrics}["shinobi_gained"]
    assert gained.a.value == 0  # the base game never gains a Shinobi
    assert gained.b.value > 0 and gained.difference is not None and gained.difference.low > 0


def test_a_daimyo_edition_against_itself_differs_by_exactly_nothing():
    # Game i under A and under B share seed and bots: identical rules give identical games.
    same = compare("daimyo", "daimyo", players=2, games=12, seed=9)
    for metric in same.metrics:
        assert metric.a == metric.b, metric.name
        assert metric.difference is not None
        assert metric.difference.value == metric.difference.low == metric.difference.high == 0


def test_a_daimyo_comparison_is_the_same_for_any_number_of_workers_and_analysed_again(tmp_path,
                                                                                       shinobi_comparison):
    saved = compare("daimyo", "daimyo-shinobi", players=2, games=30, seed=1, workers=2, save_dir=tmp_path)
    assert saved.to_dict() == shinobi_comparison.to_dict()
    assert len(list((tmp_path / "a").glob("game-*.json"))) == 30
    record = read_play_record(tmp_path / "b" / "game-00007.json")
    assert (record.game, record.edition, record.seed) == ("daimyo", "daimyo-shinobi", derive_seed(1, 7))
    again = analyse_records(tmp_path)
    assert [m.to_dict() for m in again.metrics] == [m.to_dict() for m in shinobi_comparison.metrics]
    assert (again.edition_a, again.edition_b, again.games) == ("daimyo", "daimyo-shinobi", 30)
    assert again.options_b == {}  # the variant's own default, not an option set on the command line


def test_a_daimyo_comparison_of_option_values_names_the_options():
    changed = compare("daimyo", "daimyo", players=2, games=6, seed=2, options_b={"no_progress_limit": 10})
    assert changed.side("b") == "daimyo (no_progress_limit=10)"
    ended = {m.name: m for m in changed.metrics}["end_no_progress"]
    assert ended.b.value > ended.a.value


def test_the_compare_command_takes_daimyo_editions_with_json_csv_save_dir_and_analyse(tmp_path, capsys):
    out_json, out_csv, folder = tmp_path / "c.json", tmp_path / "c.csv", tmp_path / "run"
    base = ["compare", "daimyo", "daimyo-nobori", "--games", "8", "--seed", "3", "--workers", "2", "--no-progress"]
    assert main([*base, "--json", str(out_json), "--csv", str(out_csv), "--save-dir", str(folder)]) == 0
    printed = capsys.readouterr().out
    assert "2 players, 8 paired games" in printed and "White wins" in printed  # 2 players by default
    data = json.loads(out_json.read_text())
    assert [m["name"] for m in data["metrics"]] == DAIMYO_METRICS
    rows = list(csv.DictReader(out_csv.open()))
    assert [row["metric"] for row in rows] == DAIMYO_METRICS
    again = tmp_path / "again.json"
    assert main(["analyse", str(folder), "--json", str(again)]) == 0
    assert json.loads(again.read_text())["metrics"] == data["metrics"]


def test_the_plot_of_a_daimyo_comparison_draws_the_games_own_panels(tmp_path, capsys):
    picture = tmp_path / "c.svg"
    assert main(["compare", "daimyo", "daimyo-shinobi", "--games", "4", "--workers", "1", "--no-progress",
                 "--plot", str(picture)]) == 0
    svg = picture.read_text()
    assert "Tiles and pieces" in svg and "Figures (per game)" not in svg


def test_compare_refuses_editions_of_two_different_games_in_one_line(tmp_path, capsys):
    folder = tmp_path / "run"
    for pair in (["daimyo", "ffg2015"], ["original", "daimyo-shinobi"]):
        assert main(["compare", *pair, "--games", "2", "--save-dir", str(folder), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("samurai: error: compare: compare pairs games of one game, "
                                                       "but "), err
        assert "plays 'daimyo'" in err and "plays 'knizia'" in err
    assert not folder.exists()  # refused before anything was written
    with pytest.raises(DataError, match="compare pairs games of one game"):
        compare("ffg2015", "daimyo", players=2, games=2)


def test_analyse_refuses_a_folder_whose_sides_are_two_different_games(tmp_path):
    compare("daimyo", "daimyo", players=2, games=2, seed=1, save_dir=tmp_path / "daimyo")
    compare("ffg2015", "ffg2015", players=2, games=2, seed=1, save_dir=tmp_path / "knizia")
    (tmp_path / "daimyo" / "b").rename(tmp_path / "moved")
    (tmp_path / "knizia" / "b").rename(tmp_path / "daimyo" / "b")
    with pytest.raises(DataError, match="a/ holds records of game 'daimyo' and b/ of game 'knizia': the two "
                                        "sides of a comparison play one game"):
        analyse_records(tmp_path / "daimyo")


def test_the_daimyo_watch_counts_flips_heiya_engun_ki_pairs_and_moves_of_a_game():
    """docs/rules/daimyo.md#flip: a Heiya is removed and another tile flipped; two identical army tiles are Engun;
    two Ki on two turns in a row lose the game (Yonhon no ki). The watch counts each from the game's public log."""
    state = position("""
        bD .. .. .. .. ..
        .. .. .. .. .. ..
        ki ki .. .. .. ..
        .. .. .. .. .. ..
        Nr Nr he .. .. ..
        .. .. .. .. .. ..
        wD .. .. .. .. ..
    """)
    watch = d.DaimyoWatch()
    flip(state, "c3", "a3", "b3")   # White: Heiya removed, then Engun (a Kibatai on b3)
    flip(state, "a5", "b5")         # Black: two Ki, turned back
    move(state, "a1", "a2")         # White moves
    flip(state, "a5", "b5")         # Black: two Ki again: Yonhon no ki, Black loses
    assert state.is_over
    facts = watch.facts(state)
    assert facts == {"returns": [1.0, 0.0], "reason": "yonhon_no_ki", "actions": 8, "turns": 4, "flips": 7,
                     "heiya_removed": 1, "engun": 1, "shinobi_gained": 0, "moves": 1, "captures": 0, "ki_pairs": 2,
                     "tiles_left": 2}


def test_the_daimyo_facts_of_random_games_agree_with_their_actions_and_the_tile_count():
    edition = load_edition("daimyo-shinobi")
    for seed in range(6):
        watch = d.DaimyoWatch()
        final, actions = play_match(edition, 2, seed, ["random"], watch=watch.see)
        facts = watch.facts(final)
        assert facts["actions"] == len(actions)
        assert facts["flips"] == sum(1 for a in actions if a[0] == d.FLIP)
        assert facts["moves"] == sum(1 for a in actions if a[0] == d.MOVE)
        # Tiles leave the board only as removed Heiya and Engun pairs: 38 = left + Heiya + 2 per Engun.
        assert facts["tiles_left"] + facts["heiya_removed"] + 2 * facts["engun"] == len(d.TILE_SET)
        assert facts["turns"] >= facts["moves"] + facts["engun"] + facts["shinobi_gained"]


# --- simulate on the executors ------------------------------------------------------------------

def test_daimyo_simulate_gives_the_same_summary_for_any_number_of_workers(capsys):
    argv = ["simulate", "--edition", "daimyo", "--games", "20", "--seed", "4", "--json", "--no-progress"]
    outputs = []
    for workers in ("1", "2", "3"):
        assert main([*argv, "--workers", workers]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    summary = json.loads(outputs[0])
    assert summary["games"] == 20 and summary["game"] == "daimyo"


def test_daimyo_simulate_in_batches_plays_game_i_on_its_derived_seed_one_after_another(tmp_path):
    edition = load_edition("daimyo-nobori")
    run = simulate_matches(edition, 2, 18, 6, ["random"], workers=2, save_dir=tmp_path)
    for index, game in enumerate(run.games):
        state, actions = play_match(edition, 2, derive_seed(6, index), ["random"])
        assert (game.seed, game.returns, game.actions) == (derive_seed(6, index), state.returns(), len(actions))
        assert read_play_record(tmp_path / f"game-{index:05d}.json").actions == tuple(actions)
    assert json.loads((tmp_path / "run.json").read_text())["games"] == 18


def test_daimyo_simulate_refuses_a_bad_worker_count_before_playing():
    with pytest.raises(DataError, match="workers must be at least 1"):
        simulate_matches(load_edition("daimyo"), 2, 3, 1, ["random"], workers=0)


def test_a_saved_daimyo_run_keeps_every_game_of_the_batches(tmp_path: Path, capsys):
    folder = tmp_path / "run"
    assert main(["simulate", "--edition", "daimyo", "--games", "17", "--workers", "2", "--save-dir", str(folder),
                 "--no-progress", "--json"]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in folder.glob("game-*.json")) == [f"game-{i:05d}.json" for i in range(17)]
    assert main(["replay", str(folder / "game-00016.json")]) == 0
    assert "Result: " in capsys.readouterr().out

"""``samurai tournament``: the seat-balanced schedule, games through the protocol, results, JSON, CSV, CLI."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest

from samurai.cli import main
from samurai.errors import DataError
from samurai.runs.tournament import schedule, tournament
from samurai.seeds import derive_seed

from helpers import TINY_EDITION


def test_every_bot_sits_in_every_seat_equally_often():
    bots = ("a", "b", "c", "d")
    tables, games = schedule(bots, (2, 3, 4), 24)
    for players in (2, 3, 4):
        seats = Counter((seat, bot) for g in games if len(g.seating) == players for seat, bot in enumerate(g.seating))
        assert len(set(seats.values())) == 1, players  # every (seat, bot) the same number of times
        assert {bot for _, bot in seats} == set(bots)
    # Every table is played the same number of games, each distinct seat order equally often.
    for number, table in enumerate(tables):
        orders = Counter(g.seating for g in games if g.table == number)
        assert set(orders) == set(table.seatings) and set(orders.values()) == {24 // len(table.seatings)}
    assert [len([t for t in tables if t.players == n]) for n in (2, 3, 4)] == [6, 4, 1]


def test_a_bot_named_twice_sits_twice_and_same_bot_tables_are_left_out():
    tables, games = schedule(("medium", "greedy", "greedy", "greedy"), (2, 4), 8)
    assert [t.bots for t in tables] == [("medium", "greedy"), ("medium", "greedy", "greedy", "greedy")]
    four = tables[1]
    assert len(four.seatings) == 4  # medium in each of the four seats
    medium_seats = Counter(g.seating.index("medium") for g in games if g.table == 1)
    assert medium_seats == {0: 2, 1: 2, 2: 2, 3: 2}


def test_a_round_plays_every_seat_order_on_one_deal():
    _, games = schedule(("random", "greedy"), (2,), 6)
    assert [g.round for g in games] == [0, 0, 1, 1, 2, 2]
    assert [g.seating for g in games[:2]] == [("random", "greedy"), ("greedy", "random")]


@pytest.mark.parametrize(("bots", "players", "games", "message"), [
    (("random", "greedy"), (2,), 5, "seat orders"),
    (("a", "b", "c"), (3,), 8, "multiple, e.g. 6 or 12"),
    (("random", "greedy"), (3,), 6, "at least 3 bots"),
    (("greedy", "greedy"), (2,), 2, "two different bots"),
])
def test_a_schedule_that_cannot_be_balanced_is_refused(bots, players, games, message):
    with pytest.raises(DataError, match=message):
        schedule(bots, players, games)


@pytest.fixture(scope="module")
def small():
    return tournament(("random", "greedy"), players=(2,), games=20, seed=3, edition=TINY_EDITION, bootstrap=200)


def test_game_seeds_and_bot_seats_follow_the_schedule(small):
    games = small.games
    assert [g.index for g in games] == list(range(20))
    for g in games:
        assert g.seed == derive_seed(3, g.round)
        assert sum(g.returns) == pytest.approx(1)
    assert games[0].seed == games[1].seed and games[0].seating == games[1].seating[::-1]


def test_the_same_seed_gives_the_same_tournament_with_any_number_of_workers(small):
    again = tournament(("random", "greedy"), players=(2,), games=20, seed=3, edition=TINY_EDITION, bootstrap=200,
                       workers=2)
    assert again.workers == 2
    assert again.games == small.games and again.ratings == small.ratings
    timing = ("seconds", "workers", "cpu_seconds")  # how long it took, not what came out
    assert {k: v for k, v in again.to_dict().items() if k not in timing} == \
        {k: v for k, v in small.to_dict().items() if k not in timing}
    other = tournament(("random", "greedy"), players=(2,), games=20, seed=4, edition=TINY_EDITION, bootstrap=200)
    assert other.games != small.games


def test_win_rates_split_shared_wins_and_account_for_every_game(small):
    standings = small.standings(players=2)
    assert sum(s.games for s in standings) == 2 * len(small.games)
    assert sum(s.score for s in standings) == pytest.approx(len(small.games))
    for s in standings:
        shared = sum(v for g in small.games for bot, v in zip(g.seating, g.returns, strict=True)
                     if bot == s.bot and 0 < v < 1)
        assert s.score == pytest.approx(s.wins + shared)
        assert s.rate.low <= s.rate.value <= s.rate.high


def test_greedy_rates_above_random_on_the_real_map():
    result = tournament(("random", "greedy"), players=(2,), games=30, seed=1, bootstrap=200)
    assert [r.bot for r in result.ratings] == ["greedy", "random"]
    assert result.ratings[0].rating > 0 and result.ratings[1].rating == 0
    greedy = next(s for s in result.standings(players=2) if s.bot == "greedy")
    assert greedy.rate.value > 0.5


def test_json_and_csv_hold_the_ratings_rates_and_every_seat_of_every_game(small, tmp_path):
    assert main(["tournament", "--bots", "random,greedy", "--games", "20", "--seed", "3", "--workers", "1",
                 "--edition", TINY_EDITION, "--bootstrap", "200", "--json", str(tmp_path / "t.json"),
                 "--csv", str(tmp_path / "t.csv"), "--no-progress"]) == 0
    data = json.loads((tmp_path / "t.json").read_text())
    expected = small.to_dict()
    for key in ("bots", "players", "games_per_table", "seed", "games", "ratings", "win_rates", "tables", "game_list"):
        assert data[key] == expected[key], key
    assert data["ratings"]["anchor"] == "random"
    assert [r["bot"] for r in data["ratings"]["bots"]] == [r.bot for r in small.ratings]
    assert data["tables"][0]["bots"] == ["random", "greedy"] and data["tables"][0]["games"] == 20
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert len(rows) == 40  # two seats of twenty games
    first = small.games[0]
    assert [(int(r["seat"]), r["bot"], float(r["return"])) for r in rows[:2]] == \
        [(seat, first.seating[seat], first.returns[seat]) for seat in range(2)]
    assert sum(int(r["won_alone"]) for r in rows) == sum(s.wins for s in small.standings())


def test_the_command_prints_ratings_and_win_rates(capsys):
    assert main(["tournament", "--bots", "random,greedy", "--players", "2", "--games", "4", "--workers", "1",
                 "--edition", TINY_EDITION, "--bootstrap", "20", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Ratings" in out and "random = 0" in out
    assert "Win shares with 2 players (par 50%)" in out and "random vs greedy" in out and "won alone" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--bots", "random,nobody"], "unknown bot 'nobody'"),
    (["--bots", "random,greedy", "--games", "3"], "seat orders"),
    (["--bots", "random,greedy", "--players", "2,x"], "player counts"),
    (["--bots", "random,greedy", "--players", "3"], "at least 3 bots"),
    (["--bots", "random,greedy,greedy,greedy,greedy,random", "--players", "6", "--games", "6"], "players"),
    (["--bots", "random,greedy", "--anchor", "medium"], "anchor"),
    (["--bots", "random,greedy", "--json", "/no/such/folder/t.json"], "does not exist"),
    (["--bots", "random,greedy", "--games", "0"], "at least 1"),
])
def test_bad_arguments_are_one_line_and_exit_2(argv, message, capsys):
    try:
        code = main(["tournament", "--no-progress", "--workers", "1", *argv])
    except SystemExit as exc:  # argparse's own refusals exit from inside the parser
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_progress_off_a_terminal_is_a_line_now_and_then_and_nothing_for_a_short_run():
    import io

    from samurai.cli.progress import ProgressLines

    now = [100.0]
    stream = io.StringIO()
    lines = ProgressLines("tournament", 200, every=60.0, clock=lambda: now[0], stream=stream)
    for done, at in [(1, 110.0), (5, 159.9), (20, 160.0), (21, 200.0), (40, 221.0), (200, 400.0)]:
        now[0] = at
        lines(done)
    assert stream.getvalue().splitlines() == [
        "samurai: tournament: 20 of 200 done after 1 min 00 s",
        "samurai: tournament: 40 of 200 done after 2 min 01 s",
        "samurai: tournament: 200 of 200 done after 5 min 00 s",
    ]


def test_the_command_writes_progress_lines_to_a_log(monkeypatch, capsys):
    import samurai.cli.progress

    monkeypatch.setattr(samurai.cli.progress, "_PROGRESS_LINE_SECONDS", 0.0)  # a line for every batch of games
    assert main(["tournament", "--bots", "random,greedy", "--players", "2", "--games", "4", "--workers", "1",
                 "--edition", TINY_EDITION, "--bootstrap", "20"]) == 0
    err = capsys.readouterr().err.splitlines()  # captured: not a terminal
    assert err and err[-1] == f"samurai: tournament: 4 of 4 done after {err[-1].split('after ')[1]}"
    assert all(line.startswith("samurai: tournament: ") for line in err)
    assert main(["tournament", "--bots", "random,greedy", "--players", "2", "--games", "4", "--workers", "1",
                 "--edition", TINY_EDITION, "--bootstrap", "20", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""

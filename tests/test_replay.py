"""``samurai replay`` and ``simulate --save-dir``: a saved game told action by action."""

from __future__ import annotations

import json

import samurai
from samurai.cli import main

from helpers import TINY_EDITION, scripted_game


def test_replay_tells_who_played_what_where_with_captures_ties_refills_and_the_explanation(tmp_path, tiny, capsys):
    path = samurai.save(scripted_game(tiny), tmp_path / "game.toml")
    assert main(["replay", str(path), "--trust", TINY_EDITION]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "tiny-ffg2015 1.0.0, 2 players, seed 1: 28 actions"
    assert "    1  seat 0 chooses castle-4 for the starting hand" in lines
    assert "   11  seat 0 puts a buddha figure in Machi (5, 3)" in lines
    assert "   17  seat 0 places castle-4 on (2, 1)" in lines
    assert "   20  seat 1 ends the turn" in lines
    after = lines[lines.index("   20  seat 1 ends the turn") + 1:]
    assert after[0] == "       seat 0 captures the castle figure in Kita (seat 0 4, seat 1 1)"
    assert after[1].startswith("       seat 1 draws 1 tile")
    assert "       the buddha figure in Machi is removed by a tie (seat 0 3, seat 1 3)" in lines
    assert "       the game ends: enough figures were removed by tied influence" in lines
    assert lines[-1].startswith("Result: seat 0 wins. Buddha is tied at 0")
    assert lines[-1].endswith("Seat 0 holds 1 Leader token, more than every opponent, and wins.")


def test_replay_to_an_action_prints_the_position_there(tmp_path, tiny, capsys):
    path = samurai.save(scripted_game(tiny), tmp_path / "game.json")
    assert main(["replay", str(path), "--to", "20", "--trust", TINY_EDITION]) == 0
    out = capsys.readouterr().out
    assert "   21  " not in out
    assert "Position after 20 actions: phase play, turn 3, seat 0 to act" in out
    assert "  tile castle-4 of seat 0 on (2, 1)" in out
    assert "  village Kita (1, 1): empty; 0 empty land around" in out
    assert "captured buddha 0, rice 0, castle 1" in out


def test_replay_refuses_a_position_outside_the_record(tmp_path, tiny, capsys):
    path = samurai.save(scripted_game(tiny), tmp_path / "game.json")
    assert main(["replay", str(path), "--to", "29", "--trust", TINY_EDITION]) == 2
    assert "--to must be from 0 to 28" in capsys.readouterr().err


def test_simulate_can_save_every_game_and_each_replays(tmp_path, capsys):
    assert main(["simulate", "--edition", "original", "--players", "3", "--games", "4", "--json",
                 "--save-dir", str(tmp_path), "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-{i:05d}.json" for i in range(4)]
    winners = [samurai.load(f).result.winners for f in files]
    wins = [sum(1 for w in winners if w == (seat,)) for seat in range(3)]
    assert wins == [seat["wins"] for seat in summary["seats"]]
    assert main(["replay", str(files[0])]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Result: ")

"""The samurai command (issue point 8): output, JSON, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from samurai.cli import main


def run(*args):
    """The command as a user runs it: a separate process."""
    return subprocess.run([sys.executable, "-m", "samurai", *args], capture_output=True, text=True, timeout=300)


def test_simulate_prints_wins_by_seat_shared_wins_turns_and_end_reasons(capsys):
    assert main(["simulate", "--edition", "ffg2015", "--players", "4", "--games", "30", "--seed", "1",
                 "--bots", "random,greedy"]) == 0
    out = capsys.readouterr().out
    for text in ("seat", "greedy", "shared wins", "turns", "ended:", "decided by:"):
        assert text in out


def test_simulate_json_is_machine_readable(capsys):
    assert main(["simulate", "--players", "3", "--games", "25", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 25 and data["players"] == 3
    assert {"seats", "shared_games", "turns", "end_reasons", "win_reasons"} <= set(data)
    again = main(["simulate", "--players", "3", "--games", "25", "--seed", "2", "--json"])
    assert again == 0 and json.loads(capsys.readouterr().out) == data


def test_score_prints_winners_reason_and_explanation_as_json(capsys):
    captured = '{"0": {"castle": 3, "buddha": 5, "rice": 3}, "1": {"castle": 3, "buddha": 1, "rice": 4}}'
    assert main(["score", "--edition", "ffg2015", "--captured", captured]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"winners", "reason", "explanation"}
    assert data["winners"] == [0]


def test_editions_lists_editions_plugins_and_their_hooks(capsys):
    assert main(["editions"]) == 0
    out = capsys.readouterr().out
    assert "ffg2015 1.0.0" in out
    assert "plugin ffg2015 (samurai-engine" in out and "samurai_score" in out


def test_bench_prints_games_per_second(capsys):
    assert main(["bench", "--games", "20", "--players", "2,4", "--no-paths", "--compare-games", "0",
                 "--engine", "python"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split() == ["players", "engine", "games", "seconds", "games/s", "games/cpu-s"]
    assert [line.split()[:2] for line in lines[1:]] == [["2", "python"], ["4", "python"]]


def test_bench_times_a_copy_legal_actions_and_compare(capsys):
    assert main(["bench", "--games", "5", "--players", "4", "--compare-games", "4", "--engine", "python"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[2].startswith("python engine at a 4-player opening (") and "given a generator" in lines[2]
    assert "on the protocol: copy " in lines[2] and "Game.legal_actions " in lines[2]
    assert "; a random playout from there " in lines[2] and lines[2].endswith(" us")
    for line, bots in zip(lines[3:5], ("random", "greedy"), strict=True):
        assert line.startswith(f"compare ffg2015 original --bots {bots}, 3 players, 4 pairs on one core, python "
                               f"engine: ")
        assert line.endswith(" games/s")


@pytest.mark.parametrize("args, message", [
    (["simulate", "--players", "9"], "for 2, 3, 4 players, not 9"),
    (["simulate", "--bots", "genius"], "unknown bot 'genius'"),
    (["simulate", "--games", "0"], "must be at least 1"),
    (["simulate", "--edition", "nope"], "no edition named 'nope'"),
    (["simulate", "--option", "turbo=1"], "has no option 'turbo'"),
    (["score", "--captured", "{not json"], "--captured: not valid JSON"),
    (["score", "--captured", '{"0": {"dragons": 2}}'], "unknown caste 'dragons'"),
    (["bench", "--players", "two"], "expected player counts"),
    (["bench", "--compare-games", "-1"], "argument --compare-games: must be at least 0, not -1"),
    (["bench", "--compare-with", "nope"], "no edition named 'nope'"),
    (["fly"], "invalid choice: 'fly'"),
])
def test_bad_input_is_one_line_and_exit_code_2_without_traceback(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_the_console_script_is_installed():
    script = Path(sys.executable).parent / "samurai"
    assert script.exists()
    result = subprocess.run([str(script), "simulate", "--games", "3", "--players", "2", "--json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and json.loads(result.stdout)["games"] == 3


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: COMMAND"),
    (["serve", "--port", "x"], "argument --port: 'x' is not a whole number"),
    (["serve", "--port", "70000"], "argument --port: must be at most 65535, not 70000"),
    (["render"], "the following arguments are required: FILE, -o/--output"),
    (["simulate", "--games", "0"], "argument --games: must be at least 1, not 0"),
    (["score", "--edition", "ffg2015"], "the following arguments are required: --captured"),
    (["bench", "--mcts", "--simulations", "two"], "argument --simulations: 'two' is not a whole number"),
    (["replay", "a.json", "--colour"], "unrecognized arguments: --colour"),
])
def test_every_argument_error_is_one_samurai_error_line_whichever_command_it_is_in(argv, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr().err == f"samurai: error: {message}\n"


@pytest.mark.parametrize("argv, command", [
    (["score", "--edition", "daimyo", "--captured", '{"0": {}, "1": {}}'], "score"),
    (["bench", "--edition", "daimyo", "--games", "1"], "bench"),
    (["bench", "--edition", "daimyo", "--mcts"], "bench"),
])
def test_a_command_the_editions_game_does_not_offer_is_refused_in_one_line(argv, command, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err == f"samurai: error: --edition: the game 'daimyo' of edition 'daimyo' does not offer samurai {command}\n"
    assert out == ""


def test_knizias_score_bench_and_render_come_from_its_game_definition():
    from samurai.catalog.editions import load_edition
    from samurai_plugins.knizia.adapters import commands

    game = load_edition("ffg2015").game
    assert game.commands is commands.COMMANDS
    assert game.commands.score is commands.score_captured and game.commands.bench is commands.bench_lines
    assert game.commands.render_file is commands.render_file
    assert load_edition("daimyo").game.commands is None


def test_reading_the_arguments_loads_no_game_module():
    program = ("import json, sys\nimport samurai.cli.program as program\nprogram.build_parser().format_help()\n"
               "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True)
    loaded = json.loads(done.stdout)
    assert "samurai.cli.bench" in loaded
    assert not [name for name in loaded if name.startswith(("samurai_plugins.knizia", "samurai_plugins"))]


# --- messages that say what they mean (issue 38) --------------------------------------------------------------

@pytest.mark.parametrize("variable, built, engine", [("", True, "native"), ("auto", True, "native"),
                                                     ("python", True, "python"), ("", False, "python"),
                                                     ("native", False, "none (SAMURAI_ENGINE=native, which is not "
                                                                       "built)")])
def test_the_version_names_the_engine_in_use_and_whether_the_native_one_was_built(variable, built, engine, capsys,
                                                                                   monkeypatch):
    from importlib.metadata import version

    from samurai_plugins.knizia.engine import backends as engines

    monkeypatch.setenv("SAMURAI_ENGINE", variable)
    if not built:
        monkeypatch.setattr(engines, "native_module", lambda: None)
    elif engines.native_module() is None:
        pytest.skip("the native engine is not built here")
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    state = "built" if built else "not built"
    assert capsys.readouterr().out == f"samurai {version('samurai-engine')} (engine: {engine}; native engine {state})\n"


def test_an_unknown_bot_is_refused_naming_the_budgeted_bots_readably(capsys):
    assert main(["simulate", "--bots", "nope", "--games", "1"]) == 2
    assert capsys.readouterr().err == (
        "samurai: error: --bots: unknown bot 'nope' for game 'knizia'; its bots are random, greedy, easy, medium, "
        "hard, expert, mcts:<simulations>, mcts:<seconds>s, mcts-replies:<simulations>, mcts-replies:<seconds>s, "
        "mcts-finish:<simulations>, mcts-finish:<seconds>s, mcts-rollouts:<simulations>, mcts-rollouts:<seconds>s\n")


def test_the_cap_of_256_workers_is_in_the_help_the_docs_and_the_refusal(capsys):
    for command in (["simulate"], ["compare", "ffg2015", "original"], ["tournament", "random,greedy"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        assert "worker processes, 1 to 256" in " ".join(capsys.readouterr().out.split()), command
        with pytest.raises(SystemExit) as stopped:
            main([*command, "--workers", "257"])
        assert stopped.value.code == 2
        assert capsys.readouterr().err == "samurai: error: argument --workers: must be at most 256, not 257\n"
    assert "`--workers N`, 1 to 256" in (Path(__file__).parent.parent / "docs" / "scale.md").read_text()

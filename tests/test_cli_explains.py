"""A command line that explains itself (issue 24 point 3): a version, help for every argument with its default,
one meaning of a win in every summary with a legend under it, and comparisons that say what their bots and their
stars measure."""

from __future__ import annotations

import argparse
import json
import tomllib

import pytest

from samurai import __version__
from samurai.cli import main
from samurai.cli.program import build_parser

from helpers import DATA


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (commands,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    return dict(commands.choices)


def test_samurai_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.startswith(f"samurai {__version__} (engine: ")  # the engine: tests/test_cli.py


@pytest.mark.parametrize("command", sorted(_commands()))
def test_every_argument_has_help_that_names_its_default(command):
    """Each option and positional says what it is; one with a default value says that value's word."""
    for action in _commands()[command]._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"samurai {command} {name} has no help"
        plain_flag = isinstance(action, argparse._StoreTrueAction)
        if action.default not in (None, [], argparse.SUPPRESS) and not plain_flag:
            assert "default" in action.help, f"samurai {command} {name} does not say its default"


def test_help_texts_print_as_written(capsys):
    """argparse formats help strings but not descriptions: a description says 95%, not 95%%."""
    for command, parser in _commands().items():
        assert "%%" not in parser.format_help(), command


def test_bots_help_names_every_kind_of_bot():
    for command in ("simulate", "compare", "tournament", "play-scenario"):
        (bots,) = [a for a in _commands()[command]._actions if "--bots" in a.option_strings]
        for kind in ("greedy", "medium", "expert", "mcts:N", "mcts-replies:N", "mcts-finish:N", "mcts-rollouts:N"):
            assert kind in bots.help, (command, kind)


def test_simulate_says_won_alone_and_win_share_with_a_legend(capsys):
    assert main(["simulate", "--players", "3", "--games", "40", "--seed", "4", "--bots", "greedy",
                 "--no-progress", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "won alone" in out and "win share" in out and "win rate" not in out
    # The legend explains the columns and the per-game figures.
    assert "a win shared by k counted 1/k" in out and "decided by: the step of the edition's scoring" in out


def test_simulate_json_win_share_counts_a_shared_win_as_a_part(capsys):
    assert main(["simulate", "--players", "4", "--games", "60", "--seed", "9", "--bots", "greedy", "--json",
                 "--no-progress", "--workers", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    seats = data["seats"]
    # Every game hands out one win in shares, and a seat's share is its sole wins plus parts of shared ones.
    assert sum(seat["win_share"] for seat in seats) == pytest.approx(1.0)
    for seat in seats:
        assert seat["won_alone"] == seat["wins"] / data["games"]
        assert seat["won_alone"] <= seat["win_share"] <= seat["won_alone"] + seat["shared_wins"] / data["games"]
    assert data["shared_games"] > 0 or all(seat["won_alone"] == seat["win_share"] for seat in seats)


def test_a_game_without_greedy_shows_win_shares_too(capsys):
    assert main(["simulate", "--edition", "daimyo", "--games", "6", "--seed", "3", "--no-progress",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "won alone" in out and "win share" in out and "shared (drawn): games no seat won alone" in out


def test_compare_plays_greedy_bots_unless_told(capsys):
    assert main(["compare", "ffg2015", "original", "--players", "3", "--games", "6", "--no-progress",
                 "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "bots greedy, greedy, greedy" in " ".join(out.split())


def test_compare_says_what_random_bots_measure_where_the_game_has_no_greedy(capsys):
    assert main(["compare", "daimyo", "daimyo-shinobi", "--games", "4", "--no-progress", "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "has no greedy bot: comparing with random bots, which measure aimless play" in captured.err
    assert "these figures describe aimless play" in " ".join(captured.out.split())


def test_compare_says_how_many_stars_chance_alone_would_give(capsys, tmp_path):
    assert main(["compare", "ffg2015", "original", "--players", "3", "--games", "30", "--no-progress",
                 "--workers", "1", "--json", str(tmp_path / "m.json")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    differences = [m["difference"] for m in json.loads((tmp_path / "m.json").read_text())["metrics"]
                   if m["difference"] is not None and m["difference"]["n"]]
    starred = sum(1 for d in differences if d["low"] > 0 or d["high"] < 0)
    assert f"{starred} of {len(differences)} metrics are starred" in out
    assert f"chance alone would star about {0.05 * len(differences):.1f} of them" in out


def test_analyse_names_the_manifest_to_trust_that_its_run_json_holds(tmp_path, monkeypatch, capsys):
    """A comparison saved against a designer's manifest is refused without trust, naming the path to vouch for."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "variant.toml").write_text((DATA / "tiny-ffg2015.toml").read_text().replace(
        'id = "tiny-ffg2015"', 'id = "tiny-variant"'))
    assert main(["compare", str(DATA / "tiny-ffg2015.toml"), "variant.toml", "--players", "2", "--games", "3",
                 "--save-dir", "run", "--no-progress", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["analyse", "run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: ")
    assert "run/run.json names the manifests" in err and "--trust variant.toml for those you vouch for" in err
    assert main(["analyse", "run", "--trust", "variant.toml", "--trust", str(DATA / "tiny-ffg2015.toml")]) == 0


def test_editions_merged_prints_the_effective_manifest_without_running_a_plugin(tmp_path, capsys):
    (tmp_path / "boom.py").write_text("raise RuntimeError('a plugin ran')\n")
    (tmp_path / "variant.toml").write_text('id = "boom-variant"\nname = "Boom"\nversion = "1.0.0"\n'
                                           'extends = "ffg2015"\nplugins = ["boom.py"]\nhand_size = 6\n')
    assert main(["editions", str(tmp_path / "variant.toml"), "--merged"]) == 0
    out = capsys.readouterr().out
    merged = tomllib.loads(out)
    assert merged["id"] == "boom-variant" and merged["hand_size"] == 6  # the variant's own keys win
    assert merged["map"] == "japan" and "4" in merged["players"]  # the rest comes from ffg2015
    assert merged["players"]["4"]["figures_per_caste"] == 13
    assert main(["editions", str(tmp_path / "variant.toml")]) == 2  # listing it loads it: the plugin runs
    assert "a plugin ran" in capsys.readouterr().err


def test_editions_merged_refuses_a_missing_or_broken_manifest_in_one_line_and_prints_nothing(tmp_path, capsys):
    (tmp_path / "broken.toml").write_text("not toml [")
    for name, message in (("nosuch.toml", "file not found"), ("nosuch", "no edition named 'nosuch'"),
                          (str(tmp_path / "broken.toml"), "not valid TOML")):
        assert main(["editions", "ffg2015", name, "--merged"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and message in err

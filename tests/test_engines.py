"""Choosing Knizia's engine, and the commands and protocol on both engines (issue 22, points 1, 3, 4 and 6).

``SAMURAI_ENGINE`` and the ``engine=`` argument pick the engine (``samurai_plugins.knizia.engine.backends``): auto plays
the shipped editions natively, an edition whose plugin brings a tile behaviour of its own plays on Python (and says
why), a designer's scoring hook in Python still plays natively. Whichever engine plays, the commands print the same
bytes, records replay on the other engine, and the protocol (copies, checks, bots' actions, determinized positions, the
OpenSpiel and PettingZoo environments) gives the same values. ``samurai bench`` shows both engines side by side.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

import samurai
from samurai.cli import main
from samurai.errors import DataError
from samurai.kit.conformance import ConformanceFailure
from samurai_plugins.knizia.adapters.conformance import check_engines_agree
from samurai_plugins.knizia.adapters.game_state import start
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.engine.backends import (
    ENGINE_VARIABLE,
    NATIVE,
    PYTHON,
    engine_for,
    engine_report,
    native_module,
)
from samurai_plugins.knizia.play.record_files import from_record, position_check, read_record

from helpers import write_plugin_edition

needs_native = pytest.mark.skipif(native_module() is None,
                                  reason="the native engine is not built here (installed without a Rust toolchain)")

SHIPPED = ("ffg2015", "ffg2015-beginner", "original")


def other_engine(name: str) -> str:
    return "native" if name == "python" else "python"


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], engine_name: str,
            *argv: str) -> str:
    """The command run in this process with ``SAMURAI_ENGINE=engine_name``; what it printed (it must succeed)."""
    monkeypatch.setenv(ENGINE_VARIABLE, engine_name)
    capsys.readouterr()
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


# --- a variant with a tile behaviour of its own, and variants scoring in Python ----------------------------------

CAREFUL_MOVE = '''
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.engine.special_tiles import MoveBehaviour


class CarefulMove(MoveBehaviour):
    """The Move tile played by this plugin's own behaviour (the native engine knows only the engine's)."""
    name = "careful-move"


@hookimpl
def samurai_tile_behaviours():
    return [CarefulMove()]
'''

MOST_RICE = '''
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.editions.native_scoring import native_scoring
from samurai_plugins.knizia.core.result import Result


@hookimpl
{claim}
def samurai_score(edition, captured, options):
    most = max(castes["rice"] for castes in captured.values())
    winners = tuple(sorted(seat for seat, castes in captured.items() if castes["rice"] == most))
    return Result(winners, "most_rice", f"the most rice fields captured: {{most}}")
'''


def write_variant(folder: Path, plugin: str, extra: str = "") -> Path:
    return write_plugin_edition(folder, plugin, extra, key="variant", name="A designer's variant")


@pytest.fixture
def careful_manifest(tmp_path: Path) -> Path:
    return write_variant(tmp_path / "careful", CAREFUL_MOVE, '\n[tiles.move]\nspecial = "careful-move"\n')


@pytest.fixture
def most_rice_manifest(tmp_path: Path) -> Path:
    return write_variant(tmp_path / "rice", MOST_RICE.format(claim=""))


def play_out(game: samurai.Game, seed: int) -> samurai.Game:
    """Random legal actions to the end, drawn from a generator seeded ``seed``."""
    rng = random.Random(seed)
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    return game


# --- 1. choosing the engine --------------------------------------------------------------------------------------


@needs_native
@pytest.mark.parametrize("edition", SHIPPED)
def test_auto_is_the_default_and_plays_the_shipped_editions_natively(edition, monkeypatch):
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    loaded = samurai.load_edition(edition)
    for players in (2, 3, 4):
        assert engine_report(loaded.rules(players)) == ("native", None)
        assert samurai.new_game(edition, players=players, seed=1).engine is NATIVE
        assert start(edition, players, 1).engine is NATIVE


def test_samurai_engine_python_plays_every_game_on_the_python_engine(monkeypatch):
    monkeypatch.setenv(ENGINE_VARIABLE, "python")
    rules = samurai.load_edition("ffg2015").rules(3)
    assert engine_report(rules) == ("python", "SAMURAI_ENGINE=python")
    assert engine_for(rules) is PYTHON
    assert samurai.new_game("ffg2015", players=3, seed=1).engine is PYTHON
    assert start("ffg2015", 3, 1).engine is PYTHON


@needs_native
@pytest.mark.parametrize("variable, argument", [("python", "native"), ("native", "python"), ("python", "auto")])
def test_the_engine_argument_beats_the_variable(variable, argument, monkeypatch):
    monkeypatch.setenv(ENGINE_VARIABLE, variable)
    expected = NATIVE if argument in ("native", "auto") else PYTHON
    assert samurai.new_game("ffg2015", players=2, seed=1, engine=argument).engine is expected
    assert start("ffg2015", 2, 1, engine=argument).engine is expected
    assert engine_for(samurai.load_edition("ffg2015").rules(2), argument) is expected


@pytest.mark.parametrize("where", ["variable", "argument"])
def test_a_bad_engine_value_is_one_data_error_naming_where_and_the_choices(where, monkeypatch):
    if where == "variable":
        monkeypatch.setenv(ENGINE_VARIABLE, "fast")
        asked, named = {}, "SAMURAI_ENGINE"
    else:
        monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
        asked, named = {"engine": "fast"}, "engine"
    with pytest.raises(DataError) as refused:
        samurai.new_game("ffg2015", players=2, **asked)
    message = str(refused.value)
    assert message.startswith(f"{named}: ") and "\n" not in message
    assert "python, native, auto" in message and "'fast'" in message


def test_simulate_with_a_bad_engine_variable_exits_2_with_one_error_line(monkeypatch, capsys):
    monkeypatch.setenv(ENGINE_VARIABLE, "bogus")
    assert main(["simulate", "--games", "2", "--players", "2", "--workers", "1", "--no-progress"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("samurai: error: ")
    assert "SAMURAI_ENGINE" in lines[0] and "python, native, auto" in lines[0] and "'bogus'" in lines[0]
    assert captured.out == ""


@needs_native
def test_a_plugins_own_tile_behaviour_plays_on_python_under_auto_and_says_why(careful_manifest, monkeypatch,
                                                                                capsys):
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    edition = samurai.load_edition(str(careful_manifest))
    engine_name, why = engine_report(edition.rules(2))
    assert engine_name == "python"
    assert why is not None and "'move'" in why and "'careful-move'" in why and "only the Python engine" in why
    game = play_out(samurai.new_game(edition, players=2, seed=3), seed=3)
    assert game.engine is PYTHON and game.result is not None
    assert main(["editions", str(careful_manifest)]) == 0
    printed = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert f"engine: python ({why})" in printed


@needs_native
@pytest.mark.parametrize("how", ["argument", "variable"])
def test_asking_native_for_a_plugins_own_tile_behaviour_is_a_data_error_saying_why(how, careful_manifest,
                                                                                   monkeypatch):
    edition = samurai.load_edition(str(careful_manifest))
    if how == "variable":
        monkeypatch.setenv(ENGINE_VARIABLE, "native")
    with pytest.raises(DataError) as refused:
        samurai.new_game(edition, players=2, seed=1, engine="native" if how == "argument" else None)
    message = str(refused.value)
    assert "the native engine cannot play edition 'variant'" in message
    assert "'careful-move'" in message and "only the Python engine runs" in message and "\n" not in message


@needs_native
def test_simulate_asked_for_native_on_a_plugins_own_tile_behaviour_exits_2_saying_why(careful_manifest, monkeypatch,
                                                                                      capsys):
    monkeypatch.setenv(ENGINE_VARIABLE, "native")
    assert main(["simulate", "--edition", str(careful_manifest), "--players", "2", "--games", "2", "--workers", "1",
                 "--no-progress"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("samurai: error: ")
    assert "the native engine cannot play edition 'variant'" in lines[0] and "'careful-move'" in lines[0]


# --- 2. a designer's scoring in Python, and a wrong claim ---------------------------------------------------------


@needs_native
def test_a_scoring_hook_in_python_still_plays_native_and_decides_the_result(most_rice_manifest, monkeypatch):
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    edition = samurai.load_edition(str(most_rice_manifest))
    rules = edition.rules(3)
    assert rules.native_scoring == "python"
    assert engine_report(rules) == ("native", None)
    for seed in range(3):
        native = play_out(samurai.new_game(edition, players=3, seed=seed), seed)
        python = play_out(samurai.new_game(edition, players=3, seed=seed, engine="python"), seed)
        assert native.engine is NATIVE and python.engine is PYTHON
        assert native.result == python.result
        assert native.result is not None and native.result.reason == "most_rice"
        rice = [native.view(seat)["seats"][seat]["captured"]["rice"] for seat in range(3)]
        assert native.result.winners == tuple(seat for seat in range(3) if rice[seat] == max(rice))


@needs_native
def test_simulate_json_of_a_scoring_hook_in_python_is_the_same_on_both_engines(most_rice_manifest, monkeypatch,
                                                                                capsys):
    argv = ("simulate", "--edition", str(most_rice_manifest), "--players", "3", "--games", "8", "--seed", "5",
            "--bots", "random,greedy", "--workers", "1", "--no-progress", "--json")
    native = run_cli(monkeypatch, capsys, "native", *argv)
    assert run_cli(monkeypatch, capsys, "python", *argv) == native
    assert set(json.loads(native)["win_reasons"]) == {"most_rice"}


@needs_native
def test_the_kit_catches_a_scoring_hook_claiming_a_native_scoring_it_does_not_decide(tmp_path, most_rice_manifest):
    check_engines_agree(samurai.load_edition(str(most_rice_manifest)), 2, 0, 2)  # no claim: the engines agree
    wrong = write_variant(tmp_path / "wrong", MOST_RICE.format(claim='@native_scoring("most_figures")'))
    edition = samurai.load_edition(str(wrong))
    assert edition.rules(2).native_scoring == "most_figures"
    with pytest.raises(ConformanceFailure) as caught:
        check_engines_agree(edition, 2, 0, 2)
    assert caught.value.rule == "both engines play the same games"
    assert "claims the native scoring 'most_figures'" in str(caught.value)


# --- 3. the commands print the same bytes on both engines ---------------------------------------------------------


@needs_native
@pytest.mark.parametrize("bots", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_prints_the_same_bytes_on_both_engines(bots, players, monkeypatch, capsys):
    base = ("simulate", "--players", str(players), "--games", "6", "--seed", "11", "--bots", bots, "--workers", "1",
            "--no-progress")
    for argv in (base, (*base, "--json")):
        native = run_cli(monkeypatch, capsys, "native", *argv)
        assert run_cli(monkeypatch, capsys, "python", *argv) == native
    assert json.loads(native)["games"] == 6


@needs_native
@pytest.mark.parametrize("bots, players", [("random", 2), ("greedy", 3), ("random,greedy", 4)])
def test_compare_writes_and_prints_the_same_bytes_on_both_engines(bots, players, tmp_path, monkeypatch, capsys):
    printed = {}
    for name in ("python", "native"):
        printed[name] = run_cli(monkeypatch, capsys, name, "compare", "ffg2015", "original", "--players",
                                str(players), "--games", "5", "--seed", "7", "--bots", bots, "--workers", "1",
                                "--no-progress", "--json", str(tmp_path / f"{name}.json"))
    assert printed["python"] == printed["native"]
    assert (tmp_path / "python.json").read_bytes() == (tmp_path / "native.json").read_bytes()
    assert json.loads((tmp_path / "native.json").read_text())["games"] == 5


@needs_native
def test_a_tournament_gives_the_same_games_and_ratings_on_both_engines(tmp_path, monkeypatch, capsys):
    timing = ("seconds", "workers", "cpu_seconds")  # how long it took, not what came out
    outcomes, printed = {}, {}
    for name in ("python", "native"):
        out = tmp_path / f"{name}.json"
        printed[name] = run_cli(monkeypatch, capsys, name, "tournament", "--bots", "random,greedy", "--players", "2",
                                "--games", "4", "--seed", "3", "--bootstrap", "50", "--workers", "1",
                                "--no-progress", "--json", str(out))
        outcomes[name] = {k: v for k, v in json.loads(out.read_text()).items() if k not in timing}
    assert outcomes["python"] == outcomes["native"]
    # The header says how long the run took (", 0.1s" and "(0.0s of processor time)"): the rest is the same.
    untimed = {name: re.sub(r"\d+(\.\d+)?s\b", "<time>", text, count=2) for name, text in printed.items()}
    assert "<time>" in untimed["native"]
    assert untimed["python"] == untimed["native"]
    assert len(outcomes["native"]["game_list"]) == 4


@needs_native
@pytest.mark.parametrize("saved_on", ["python", "native"])
def test_records_saved_on_one_engine_replay_on_the_other(saved_on, tmp_path, monkeypatch, capsys):
    here, there = tmp_path / saved_on, tmp_path / other_engine(saved_on)
    argv = ("simulate", "--players", "3", "--games", "4", "--seed", "9", "--bots", "greedy,random", "--workers",
            "1", "--no-progress", "--json")
    summary = run_cli(monkeypatch, capsys, saved_on, *argv, "--save-dir", str(here))
    again = run_cli(monkeypatch, capsys, other_engine(saved_on), *argv, "--save-dir", str(there))
    assert again == summary
    files = sorted(here.glob("game-*.json"))
    assert len(files) == 4
    for path in files:
        assert path.read_bytes() == (there / path.name).read_bytes()  # the records are engine-independent
        record = read_record(path)
        # from_record checks the replayed position against the record's digest, so each replay is the game saved.
        games = {}
        for name in ("python", "native"):
            monkeypatch.setenv(ENGINE_VARIABLE, name)
            games[name] = from_record(record)
            assert games[name].engine.name == name and games[name].is_over
            assert position_check(games[name].state) == record.check
        assert games["native"].result == games["python"].result and games["native"].result is not None
        replayed = run_cli(monkeypatch, capsys, other_engine(saved_on), "replay", str(path))
        assert run_cli(monkeypatch, capsys, saved_on, "replay", str(path)) == replayed


@needs_native
def test_a_compare_saved_on_python_analyses_to_the_same_metrics_on_native(tmp_path, monkeypatch, capsys):
    run_cli(monkeypatch, capsys, "python", "compare", "ffg2015", "original", "--players", "3", "--games", "4",
            "--seed", "2", "--bots", "greedy", "--workers", "1", "--no-progress", "--json",
            str(tmp_path / "compared.json"), "--save-dir", str(tmp_path / "run"))
    for name in ("native", "python"):
        run_cli(monkeypatch, capsys, name, "analyse", str(tmp_path / "run"), "--json", str(tmp_path / f"{name}.json"))
    analysed = json.loads((tmp_path / "native.json").read_text())
    assert analysed == json.loads((tmp_path / "python.json").read_text())
    assert analysed["metrics"] == json.loads((tmp_path / "compared.json").read_text())["metrics"]


# --- 4. the protocol on the native engine ------------------------------------------------------------------------

BAD_ACTIONS = [(), (1.5,), (-1,), (True,), "place", (9,), (engine.END, 0), (engine.PLACE, 0),
               (engine.PLACE, 999, 0), (engine.PLACE, 0, 99_999), (engine.CHOOSE, 999), (engine.FIGURE, 7, 0),
               (engine.FIGURE, 0, 99_999), (engine.SPECIAL, 999, 0, 0)]
"""Actions of every wrong kind: not tuples of whole numbers, unknown kinds, wrong lengths, numbers past the tables."""


@needs_native
@pytest.mark.parametrize("edition, players", [("ffg2015", 3), ("original", 4), ("ffg2015-beginner", 2)])
def test_a_native_position_on_the_protocol_gives_the_python_positions_values(edition, players):
    native, python = start(edition, players, 21, engine="native"), start(edition, players, 21, engine="python")
    assert native.engine is NATIVE and python.engine is PYTHON
    draws, twin = random.Random(4), random.Random(4)
    step = 0
    while not python.is_over:
        assert native.state.fingerprint() == python.state.fingerprint(), step
        assert native.to_act == python.to_act and native.move_number == python.move_number
        assert native.legal_actions() == python.legal_actions()
        assert [native.check(bad) for bad in BAD_ACTIONS] == [python.check(bad) for bad in BAD_ACTIONS]
        assert native.evaluate() == python.evaluate() and native.returns() == python.returns()
        seat = native.to_act
        assert seat is not None and native.view(seat) == python.view(seat)
        copied = native.copy()
        assert copied.engine is NATIVE and copied.state.fingerprint() == native.state.fingerprint()
        if step % 7 == 0:
            assert native.policy_action(random.Random(step)) == python.policy_action(random.Random(step))
            drawn = native.determinize(seat, random.Random(step))
            assert drawn.engine is NATIVE and type(drawn.state) is type(native.state)
            assert drawn.state.fingerprint() == python.determinize(seat, random.Random(step)).state.fingerprint()
            assert drawn.view(seat) == native.view(seat)
            assert native.knowledge(seat).determinize(random.Random(step)).engine is NATIVE
        action = native.sample_action(draws)
        assert action == python.sample_action(twin) and native.check(action) is None
        native.apply(action)
        python.apply(action)
        assert copied.move_number == native.move_number - 1  # the copy is independent of the position
        step += 1
    assert native.is_over and native.state.fingerprint() == python.state.fingerprint()
    assert native.returns() == python.returns() == native.evaluate() and sum(native.returns()) == pytest.approx(1)
    assert native.state.result == python.state.result


@needs_native
@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_gives_the_same_game_on_both_engines(players, monkeypatch):
    pyspiel = pytest.importorskip("pyspiel")
    import samurai.interop.openspiel  # noqa: F401  (registers knizia)
    from samurai_plugins.knizia.adapters.encoding import SHORT_NAME

    played = {}
    for name in ("python", "native"):
        monkeypatch.setenv(ENGINE_VARIABLE, name)
        state = pyspiel.load_game(SHORT_NAME, {"edition": "ffg2015", "players": players, "seed": 6}) \
            .new_initial_state()
        assert state.position.engine.name == name
        rng = random.Random(8)
        seen = []
        while not state.is_terminal():
            legal = state.legal_actions()
            seen.append((state.current_player(), legal, state.observation_string(state.current_player()),
                         state.information_state_string(state.current_player())))
            state.apply_action(legal[int(rng.random() * len(legal))])
        played[name] = (seen, state.returns())
    assert played["native"] == played["python"]


@needs_native
def test_pettingzoo_gives_the_same_observations_and_rewards_on_both_engines(monkeypatch):
    from samurai_plugins.knizia.adapters.pettingzoo import SamuraiEnv

    played = {}
    for name in ("python", "native"):
        monkeypatch.setenv(ENGINE_VARIABLE, name)
        env = SamuraiEnv("original", players=3)
        env.reset(seed=12)
        assert env.position.engine.name == name
        rng = np.random.default_rng(3)
        seen = []
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            seen.append((agent, observation["observation"].tolist(), observation["action_mask"].tolist(), reward,
                         termination, truncation))
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        played[name] = seen
    assert played["native"] == played["python"]
    assert any(reward > 0 for *_, reward, _, _ in played["native"][-3:])


# --- 5. samurai bench and samurai editions ------------------------------------------------------------------------


@needs_native
def test_bench_prints_both_engines_and_their_ratio(capsys):
    assert main(["bench", "--games", "20", "--compare-games", "5", "--players", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split() == ["players", "engine", "games", "seconds", "games/s", "games/cpu-s", "native/python"]
    python_row, native_row = lines[1].split(), lines[2].split()
    assert python_row[:3] == ["2", "python", "20"] and len(python_row) == 6
    assert native_row[:3] == ["2", "native", "20"] and len(native_row) == 7 and native_row[-1].endswith("x")
    float(native_row[-1][:-1])  # the ratio is a number
    assert any(line.startswith("python engine at a 4-player opening") for line in lines)
    native_paths = [line for line in lines if line.startswith("native engine at a 4-player opening")]
    assert len(native_paths) == 1
    assert ", 100 in one native call: " in native_paths[0] and native_paths[0].endswith("the Python engine's playout)")
    compares = [line for line in lines if line.startswith("compare ffg2015 original")]
    assert [("python engine" in line, "native engine" in line) for line in compares] == \
        [(True, False), (False, True)] * 2
    assert all(line.endswith("the Python engine's speed") for line in compares if "native engine" in line)


def test_bench_with_engine_python_prints_only_the_python_engine(capsys):
    assert main(["bench", "--games", "20", "--compare-games", "5", "--players", "2", "--engine", "python"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert lines[0].split() == ["players", "engine", "games", "seconds", "games/s", "games/cpu-s"]
    assert lines[1].split()[:3] == ["2", "python", "20"] and len(lines) >= 3
    assert "native" not in out


@needs_native
def test_editions_says_ffg2015_plays_natively_with_its_native_scoring(monkeypatch, capsys):
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    assert main(["editions", "ffg2015"]) == 0
    printed = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "engine: native (the winner decided natively: leader tokens)" in printed

"""Every hook's answer is checked against its specification (``samurai.hooks.calls.HOOK_RESULTS``).

A wrong answer (a wrong type, a value out of range, a bool-like int or string) is refused where the engine
uses it, as one line naming the plugin file, the hook and the value: a ``DataError`` in the API,
``samurai: error: ...`` with exit code 2 on the command line. The conformance kit calls every hook an
edition's plugins implement and fails its first rule on such an answer. Correct answers, and None (pluggy's
"no answer", which leaves the decision to the next plugin), still work.

Each case is a plugin file in tmp_path beside a manifest that extends ffg2015, as in test_plugin_failures.py;
the hooks only installed plugins are asked (``samurai_edition_manifests``, ``samurai_executors``) are also
tried through a plugin installed for the test.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

import samurai
import samurai.catalog.editions
from samurai.catalog.editions import PluginInfo
from samurai.cli import main
from samurai.errors import DataError
from samurai.hooks.calls import HOOK_RESULTS
from samurai.kit.conformance import PROTOCOL_CHECKS, check_hook_results, run_checks
from samurai_plugins.knizia.adapters.conformance import CHECKS

MANIFEST = ('id = "wrong"\nname = "wrong answers"\nversion = "1"\nextends = "ffg2015"\n'
            'plugins = ["variant.py"]\n')
HEAD = ("from samurai.hooks.specs import hookimpl\nfrom samurai_plugins.knizia.core.result import Result\n"
        "from samurai_plugins.knizia.editions.setup import SetupProcedure\n"
        "from samurai.runs.statistics import GameMetric\n"
        "from samurai.runs.executors import ExecutorFactory\n"
        "from samurai_plugins.knizia.engine.special_tiles import MoveBehaviour\n\n\n"
        "@hookimpl\n")
MANIFEST_RULE = "the manifest and its hooks are valid"


def edition_with(folder: Path, plugin: str) -> str:
    (folder / "variant.py").write_text(HEAD + plugin, encoding="utf-8")
    manifest = folder / "wrong.toml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    return str(manifest)


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the command; it must exit 2 with exactly one stderr line and no traceback. Returns that line."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: ") and "Traceback" not in err, err
    return err


def naming(folder: Path, hook: str, value: str) -> str:
    """The regex of a refusal naming the plugin file, the hook and the value it returned."""
    return re.escape(f"plugin {folder / 'variant.py'}: {hook} returned {value}")


# --- hooks asked when an edition is compiled: refused when it loads ---------------------------------------

SETUP = "def samurai_setup_procedure(edition, players, options):\n    return {}\n"
TIMING = "def samurai_resolution_timing(edition, options):\n    return {}\n"
END_TIMING = "def samurai_end_check_timing(edition, options):\n    return {}\n"
CANNOT_PLAY = "def samurai_cannot_play(edition, options):\n    return {}\n"
PUBLIC = "def samurai_public_captures(edition, players, options):\n    return {}\n"
BEHAVIOURS = "def samurai_tile_behaviours():\n    return {}\n"
NAMELESS = "class Nameless(MoveBehaviour):\n    name = ''\n\n\n@hookimpl\n"
NO_ACTION = "class NoAction(MoveBehaviour):\n    name = 'no-action'\n    action_type = int\n\n\n@hookimpl\n"
NO_APPLY = "class NoApply(MoveBehaviour):\n    name = 'no-apply'\n    apply = None\n\n\n@hookimpl\n"

COMPILED = [
    # samurai_setup_procedure: a wrong type, fields out of range, bool-like values
    ("samurai_setup_procedure", SETUP.format("'beginner'"), "'beginner', not a SetupProcedure"),
    ("samurai_setup_procedure", SETUP.format("SetupProcedure(first_player=5)"),
     "a SetupProcedure whose first_player 5 is not a seat of a 2-player game (0 to 1)"),
    ("samurai_setup_procedure", SETUP.format("SetupProcedure(first_player=True)"),
     "a SetupProcedure whose first_player True is not a seat"),
    ("samurai_setup_procedure", SETUP.format("SetupProcedure(figures_must_fit=1)"),
     "a SetupProcedure whose figures_must_fit is 1, not True or False"),
    ("samurai_setup_procedure", SETUP.format("SetupProcedure(hands='deal')"),
     "a SetupProcedure whose hands is 'deal', not 'choose' or 'random'"),
    ("samurai_setup_procedure", SETUP.format("SetupProcedure(order=('hands',))"),
     "a SetupProcedure whose order is ('hands',), not each of 'hands', 'figures' once"),
    ("samurai_setup_procedure", SETUP.format("SetupProcedure(figure_stages=('city', 'village'))"),
     "a SetupProcedure whose figure_stages is ('city', 'village'), not a list of stages"),
    ("samurai_setup_procedure", SETUP.format("SetupProcedure(prefilled=('castle',))"),
     "a SetupProcedure whose prefilled is ('castle',), not a list of settlement kinds"),
    # the timings and the cannot-play ruling: texts among their choices
    ("samurai_resolution_timing", TIMING.format("'later'"), "'later', not one of 'end_of_turn', 'each_tile'"),
    ("samurai_resolution_timing", TIMING.format("1"), "1, not one of 'end_of_turn', 'each_tile'"),
    ("samurai_resolution_timing", TIMING.format("True"), "True, not one of"),
    ("samurai_end_check_timing", END_TIMING.format("'now'"), "'now', not one of 'end_of_turn', 'immediate'"),
    ("samurai_end_check_timing", END_TIMING.format("0"), "0, not one of 'end_of_turn', 'immediate'"),
    ("samurai_cannot_play", CANNOT_PLAY.format("'skip'"), "'skip', not one of 'pass', 'end'"),
    ("samurai_cannot_play", CANNOT_PLAY.format("False"), "False, not one of 'pass', 'end'"),
    # public captures: exactly True or False
    ("samurai_public_captures", PUBLIC.format("'no'"), "'no', not True or False"),
    ("samurai_public_captures", PUBLIC.format("1"), "1, not True or False"),
    ("samurai_public_captures", PUBLIC.format("0"), "0, not True or False"),
    ("samurai_public_captures", PUBLIC.format("'false'"), "'false', not True or False"),
    ("samurai_public_captures", PUBLIC.format("[]"), "[], not True or False"),
    # tile behaviours: a list of behaviours with a name, an action class and every method
    ("samurai_tile_behaviours", BEHAVIOURS.format("5"), "5, not a list of TileBehaviour"),
    ("samurai_tile_behaviours", BEHAVIOURS.format("'move'"), "'move', not a list of TileBehaviour"),
    ("samurai_tile_behaviours", BEHAVIOURS.format("[5]"), "a list holding a tile behaviour whose name is None"),
    ("samurai_tile_behaviours", NAMELESS + BEHAVIOURS.format("[Nameless()]"),
     "a list holding a tile behaviour whose name is '', not a text naming the behaviour"),
    ("samurai_tile_behaviours", NO_ACTION + BEHAVIOURS.format("[NoAction()]"),
     "a list holding a tile behaviour 'no-action', whose action_type is <class 'int'>, "
     "not a samurai_plugins.knizia.core.actions.Action"),
    ("samurai_tile_behaviours", NO_APPLY + BEHAVIOURS.format("[NoApply()]"),
     "a list holding a tile behaviour 'no-apply' without the method apply"),
]


@pytest.mark.parametrize("hook, plugin, value", COMPILED)
def test_a_wrong_answer_of_a_hook_asked_when_compiling_is_refused_naming_plugin_hook_and_value(
        tmp_path, capsys, hook, plugin, value):
    manifest = edition_with(tmp_path, plugin)
    expected = naming(tmp_path, hook, value)
    with pytest.raises(DataError, match=expected):
        samurai.load_edition(manifest)
    for argv in (["editions", manifest], ["simulate", "--edition", manifest, "--players", "2", "--games", "2",
                                          "--no-progress"]):
        line = refused(capsys, argv)
        assert line.startswith(f"samurai: error: {manifest}: ") and re.search(expected, line), line
    failures = run_checks(manifest, games=1)
    assert [failure.rule for failure in failures] == [MANIFEST_RULE]
    assert re.search(expected, str(failures[0])), failures[0]


def test_public_captures_of_no_no_longer_makes_captures_public(tmp_path, capsys):
    """The issue's case: ``"no"`` was read as true, simulate exited 0 and the kit passed."""
    manifest = edition_with(tmp_path, PUBLIC.format("'no'"))
    line = refused(capsys, ["simulate", "--edition", manifest, "--players", "3", "--games", "5", "--no-progress"])
    assert "samurai_public_captures returned 'no', not True or False" in line
    assert run_checks(manifest, games=1)[0].rule == MANIFEST_RULE


# --- an answer that is wrong only for some options: the kit asks with each listed choice ------------------

CHOOSY = ("def samurai_public_captures(edition, players, options):\n"
          "    return 1 if options['starting_hands'] == 'random' else False\n")


def test_the_kit_asks_the_hooks_with_each_listed_choice_of_every_option(tmp_path, capsys):
    manifest = edition_with(tmp_path, CHOOSY)
    edition = samurai.load_edition(manifest)  # the default options compile
    assert not edition.rules(2).public_captures
    with pytest.raises(DataError, match=naming(tmp_path, "samurai_public_captures", "1, not True or False")):
        samurai.new_game(edition, players=2, seed=1, options={"starting_hands": "random"})
    line = refused(capsys, ["simulate", "--edition", manifest, "--players", "2", "--games", "1",
                            "--option", "starting_hands=random", "--no-progress"])
    assert "samurai_public_captures returned 1, not True or False" in line
    failures = run_checks(manifest, games=1)
    assert {failure.rule for failure in failures} == {MANIFEST_RULE}
    assert all("samurai_public_captures returned 1" in str(failure) for failure in failures)


# --- hooks asked at a game's end or by compare: the scoring and the metrics -------------------------------

SCORE = "def samurai_score(edition, captured, options):\n    return {}\n"
METRICS = "def samurai_game_metrics(players, first_player):\n    return {}\n"

PLAYED = [
    ("samurai_score", SCORE.format("'seat 0'"), "'seat 0', not a Result naming winning seats"),
    ("samurai_score", SCORE.format("Result((0, 0), 'twice', 'x')"), "a seat is named twice among the winners"),
    ("samurai_score", SCORE.format("Result((True,), 'bool', 'x')"), "True is not a seat of the"),
    ("samurai_score", SCORE.format("Result((7,), 'far', 'x')"), "7 is not a seat of the"),
    ("samurai_score", SCORE.format("Result([0], 'list', 'x')"), "winners must be a tuple of one seat or more"),
    ("samurai_score", SCORE.format("Result((), 'nobody', 'x')"), "winners must be a tuple of one seat or more"),
    ("samurai_score", SCORE.format("Result((0,), '', 'x')"), "reason must be a short code (text), not ''"),
    ("samurai_score", SCORE.format("Result((0,), 3, 'x')"), "reason must be a short code (text), not 3"),
    ("samurai_score", SCORE.format("Result((0,), 'r', 5)"), "the explanation must be text or a function"),
    ("samurai_score", SCORE.format("Result((0,), 'r', 'x', 'won')"), "end_reason is the engine's to fill in"),
    ("samurai_game_metrics", METRICS.format("5"), "5, not a list of GameMetric"),
    ("samurai_game_metrics", METRICS.format("[5]"), "a list holding 5, not a GameMetric"),
    ("samurai_game_metrics", METRICS.format("[GameMetric('m', 'm', 'ratio', len)]"),
     "a list holding a GameMetric 'm', whose kind is 'ratio', not 'rate' or 'mean'"),
    ("samurai_game_metrics", METRICS.format("[GameMetric('m', 'm', 'mean', 4)]"),
     "a list holding a GameMetric 'm', whose value is 4, not a function of one game's facts"),
    ("samurai_game_metrics", METRICS.format("[GameMetric(3, 'm', 'mean', len)]"),
     "a list holding a GameMetric whose name is 3, not a text"),
]


@pytest.mark.parametrize("hook, plugin, value", PLAYED)
def test_a_wrong_answer_of_the_scoring_or_metric_hook_is_refused_naming_plugin_hook_and_value(
        tmp_path, capsys, hook, plugin, value):
    manifest = edition_with(tmp_path, plugin)
    edition = samurai.load_edition(manifest)
    if hook == "samurai_score":
        with pytest.raises(DataError, match=re.escape(f"{tmp_path / 'variant.py'}: samurai_score returned")) as error:
            samurai.score(edition, {0: {"rice": 1}, 1: {}})
        assert value in str(error.value)
        commands = [["editions", manifest], ["score", "--edition", manifest, "--captured", '{"0": {}, "1": {}}'],
                    ["simulate", "--edition", manifest, "--players", "2", "--games", "2", "--no-progress"]]
    else:
        commands = [["editions", manifest], ["compare", "ffg2015", manifest, "--players", "2", "--games", "2",
                                             "--workers", "1", "--no-progress"]]
    for argv in commands:
        line = refused(capsys, argv)
        assert f"{tmp_path / 'variant.py'}: {hook} returned" in line and value in line, line
    with pytest.raises(AssertionError, match=re.escape(value)) as failure:
        CHECKS[0].run(edition, 2, 0, 1)
    assert MANIFEST_RULE in str(failure.value) and hook in str(failure.value)


def test_a_metric_that_gives_no_number_fails_the_kit(tmp_path):
    manifest = edition_with(tmp_path, METRICS.format("[GameMetric('weather', 'w', 'mean', lambda game: 'fine')]"))
    failures = run_checks(manifest, games=1)
    assert failures and {failure.rule for failure in failures} == {MANIFEST_RULE}
    assert "samurai_game_metrics metric 'weather' returned 'fine', not a number" in str(failures[0])


# --- hooks that contribute games, manifests and executors ------------------------------------------------

GAMES = "def samurai_games():\n    return {}\n"
MANIFESTS = "def samurai_edition_manifests():\n    return {}\n"
EXECUTORS = "def samurai_executors():\n    return {}\n"

CONTRIBUTED = [
    ("samurai_games", GAMES.format("[5]"), "a list holding 5, not a GameDefinition"),
    ("samurai_games", GAMES.format("'daimyo'"), "'daimyo', not a list of GameDefinition"),
    ("samurai_edition_manifests", MANIFESTS.format("'mine.toml'"), "'mine.toml', not a list of manifest paths"),
    ("samurai_edition_manifests", MANIFESTS.format("[5]"), "a list holding 5, not a manifest path"),
    ("samurai_executors", EXECUTORS.format("'local'"), "'local', not a list of ExecutorFactory"),
    ("samurai_executors", EXECUTORS.format("[ExecutorFactory(1, 'one', print)]"),
     "a list holding a ExecutorFactory whose name is 1, not a text"),
    ("samurai_executors", EXECUTORS.format("[ExecutorFactory('x', 'x', None)]"),
     "a list holding a ExecutorFactory 'x', whose make is None, not a function"),
]


@pytest.mark.parametrize("hook, plugin, value", CONTRIBUTED)
def test_the_kit_refuses_a_wrong_contribution_naming_plugin_hook_and_value(tmp_path, hook, plugin, value):
    manifest = edition_with(tmp_path, plugin)
    expected = naming(tmp_path, hook, value)
    if hook == "samurai_games":  # an edition's games are asked when it loads
        with pytest.raises(DataError, match=expected):
            samurai.load_edition(manifest)
    failures = run_checks(manifest, games=1)
    assert failures and {failure.rule for failure in failures} == {MANIFEST_RULE}
    assert re.search(expected, str(failures[0])), failures[0]


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """Install a plugin file for the test: ``installed(source)`` makes it an entry point named ``wrong-answers``."""
    real = samurai.catalog.editions.installed_plugins()

    def install(source: str) -> Path:
        file = tmp_path / "installed_variant.py"
        file.write_text(HEAD + source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location("installed_variant", file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        monkeypatch.setitem(sys.modules, "installed_variant", module)
        plugins = {**real, "wrong-answers": PluginInfo("wrong-answers", "installed_variant", "test", "1")}
        monkeypatch.setattr(samurai.catalog.editions, "installed_plugins", lambda: plugins)
        return file

    return install


@pytest.mark.parametrize("answer, value", [("'mine.toml'", "'mine.toml', not a list of manifest paths"),
                                           ("[None]", "a list holding None, not a manifest path")])
def test_an_installed_plugin_contributing_wrong_manifests_is_refused_where_editions_are_listed(
        installed, capsys, answer, value):
    file = installed(MANIFESTS.format(answer))
    expected = f"plugin {file}: samurai_edition_manifests returned {value}"
    with pytest.raises(DataError, match=re.escape(expected)):
        samurai.catalog.editions.available_editions()
    assert expected in refused(capsys, ["editions"])
    assert expected in refused(capsys, ["simulate", "--edition", "ffg2015", "--games", "1"])


@pytest.mark.parametrize("answer, value", [
    ("[ExecutorFactory(True, 'x', print)]", "a list holding a ExecutorFactory whose name is True, not a text"),
    ("5", "5, not a list of ExecutorFactory")])
def test_an_installed_plugin_contributing_wrong_executors_is_refused_when_a_run_starts(installed, capsys, answer,
                                                                                      value):
    from samurai.runs.executors import executor_factories

    file = installed(EXECUTORS.format(answer))
    expected = f"plugin {file}: samurai_executors returned {value}"
    with pytest.raises(DataError, match=re.escape(expected)):
        executor_factories()
    line = refused(capsys, ["simulate", "--edition", "ffg2015", "--players", "2", "--games", "4", "--workers", "2",
                            "--no-progress"])
    assert expected in line


# --- correct answers still work -------------------------------------------------------------------------

GOOD = (
    "def samurai_public_captures(edition, players, options):\n    return True\n\n\n@hookimpl\n"
    "def samurai_resolution_timing(edition, options):\n    return None  # no answer: the next plugin decides\n\n\n"
    "@hookimpl\ndef samurai_cannot_play(edition, options):\n    return 'end'\n\n\n"
    "@hookimpl\ndef samurai_score(edition, captured, options):\n"
    "    return Result(tuple(sorted(captured)), 'all_share', lambda: 'everybody shares the win')\n\n\n"
    "@hookimpl\ndef samurai_game_metrics(players, first_player):\n"
    "    return [GameMetric('long_game', 'long game', 'rate', lambda game: game.turns > 20)]\n\n\n"
    "@hookimpl\ndef samurai_edition_manifests():\n    return []\n\n\n"
    "@hookimpl\ndef samurai_executors():\n    return []\n"
)


def test_correct_answers_pass_everywhere_and_none_leaves_the_decision_to_the_next_plugin(tmp_path, capsys):
    manifest = edition_with(tmp_path, GOOD)
    edition = samurai.load_edition(manifest)
    rules = edition.rules(3)
    assert rules.public_captures is True and not rules.pass_when_unable and not rules.resolve_each_tile
    assert samurai.score(edition, {0: {}, 1: {"rice": 2}}).winners == (0, 1)
    assert main(["editions", manifest]) == 0
    assert main(["simulate", "--edition", manifest, "--players", "2", "--games", "2", "--no-progress"]) == 0
    capsys.readouterr()
    assert run_checks(manifest, games=1) == []


def test_every_hook_has_a_specification_and_the_kit_calls_it_for_every_game():
    from samurai.catalog.editions import installed_games
    from samurai.hooks import specs as hookspecs
    from samurai.kit.conformance import FRAMEWORK_HOOK_RESULTS

    assert set(FRAMEWORK_HOOK_RESULTS) == {name for name in dir(hookspecs) if name.startswith("samurai_")}
    assert set(HOOK_RESULTS) < set(FRAMEWORK_HOOK_RESULTS)
    for game in installed_games().values():  # each game's own hooks have their checkers in its definition
        own = {name for specs in game.editions.hookspecs for name in dir(specs) if name.startswith("samurai_")}
        assert set(game.editions.hook_results) == own and not own & set(FRAMEWORK_HOOK_RESULTS), game.name
    assert PROTOCOL_CHECKS[0].check is check_hook_results and PROTOCOL_CHECKS[0].rule == CHECKS[0].rule


def test_a_daimyo_edition_with_a_wrong_answer_fails_the_kits_first_rule(tmp_path):
    # A Daimyo edition's plugin manager holds the framework's hooks only (Knizia's are its game's own).
    (tmp_path / "variant.py").write_text(HEAD + MANIFESTS.format("'yes'"), encoding="utf-8")
    manifest = tmp_path / "wrong-daimyo.toml"
    manifest.write_text('id = "wrong-daimyo"\nname = "wrong"\nversion = "1"\nextends = "daimyo"\n'
                        'plugins = ["variant.py"]\n', encoding="utf-8")
    edition = samurai.load_edition(str(manifest))
    with pytest.raises(AssertionError, match=re.escape(f"{tmp_path / 'variant.py'}: samurai_edition_manifests "
                                                       "returned 'yes', not a list of manifest paths")):
        PROTOCOL_CHECKS[0].run(edition, 2, 0, 1)
    failures = run_checks(edition, games=1)
    assert [failure.rule for failure in failures] == [MANIFEST_RULE]


@pytest.mark.parametrize("field, value, refusal", [
    ("name", " ", "a GameDefinition whose name is ' ', not a text (what a manifest's game key says)"),
    ("title", None, "a GameDefinition 'daimyo', whose title is None, not a text"),
    ("start", None, "a GameDefinition 'daimyo', whose start is None, not a function"),
    ("runner.summary", "table", "a GameDefinition 'daimyo', whose runner.summary is 'table', not a function or None"),
    ("editions.manifest_keys", {"a"},
     "a GameDefinition 'daimyo', whose editions.manifest_keys is {'a'}, not a frozenset of key names"),
    ("records", 3, "a GameDefinition 'daimyo', whose records is 3, not a GameRecords or None"),
    ("runner.bot_seed_offset", True,
     "a GameDefinition 'daimyo', whose runner.bot_seed_offset is True, not a whole number from 0"),
])
def test_one_field_checker_refuses_a_game_definitions_wrong_field_by_name(field, value, refusal):
    """The one checker of named records (``samurai.hooks.calls.record_problem``) names the first wrong field."""
    import attrs

    from samurai.catalog.games import GAMES_RESULT

    daimyo = samurai.catalog.editions.installed_games()["daimyo"]
    assert GAMES_RESULT.problem([daimyo], {}) is None
    group, _, name = field.rpartition(".")
    wrong = attrs.evolve(daimyo, **({group: attrs.evolve(getattr(daimyo, group), **{name: value})} if group
                                    else {name: value}))
    assert GAMES_RESULT.problem([wrong], {}) == f"a list holding {refusal}"

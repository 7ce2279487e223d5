"""A plugin that fails at play time or at import is one line naming the plugin file, the hook and the error.

Each case is a small plugin file in tmp_path beside a manifest that extends ffg2015. On the command
line the failure is ``samurai: error: ...`` on one line with exit code 2; in the API a ``DataError``.
``samurai editions`` calls the scoring and metric hooks once, so such a plugin is caught when listed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import samurai
from samurai.cli import main
from samurai.errors import DataError

MANIFEST = 'id = "broken"\nname = "broken"\nversion = "1"\nextends = "ffg2015"\nplugins = ["variant.py"]\n'
HOOK = "from samurai.hooks.specs import hookimpl\nfrom samurai.runs.statistics import GameMetric\n\n\n@hookimpl\n"

SCORE_RAISES = HOOK + "def samurai_score(edition, captured, options):\n    return 1 / 0\n"
SCORE_WRONG_TYPE = HOOK + "def samurai_score(edition, captured, options):\n    return 'seat 0'\n"
SCORE_NO_SEAT = HOOK + ("def samurai_score(edition, captured, options):\n"
                        "    from samurai_plugins.knizia.core.result import Result\n"
                        "    return Result((9,), 'mine', 'seat 9 wins')\n")
SCORE_EXITS = HOOK + "def samurai_score(edition, captured, options):\n    raise SystemExit(4)\n"
METRIC_RAISES = (HOOK + "def samurai_game_metrics(players, first_player):\n"
                 "    return [GameMetric('broken', 'broken', 'mean', lambda game: game.weather)]\n")
METRIC_WRONG_TYPE = (HOOK + "def samurai_game_metrics(players, first_player):\n"
                     "    return [GameMetric('broken', 'broken', 'mean', lambda game: 'many')]\n")
METRICS_NOT_A_LIST = HOOK + "def samurai_game_metrics(players, first_player):\n    return 5\n"


def edition_with(folder: Path, plugin: str) -> Path:
    (folder / "variant.py").write_text(plugin, encoding="utf-8")
    manifest = folder / "broken.toml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    return manifest


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the command; it must exit 2 with exactly one stderr line and no traceback. Returns that line."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("samurai: error: ") and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("plugin, message", [
    (SCORE_RAISES, r"variant.py:7: samurai_score failed: ZeroDivisionError: division by zero"),
    (SCORE_WRONG_TYPE, r"variant.py: samurai_score returned 'seat 0', not a Result"),
    (SCORE_NO_SEAT, r"variant.py: samurai_score returned Result\(winners=\(9,\).*not a Result naming winning seats"),
    (SCORE_EXITS, r"variant.py:7: samurai_score failed: SystemExit: 4"),
])
def test_a_failing_scoring_hook_is_one_line_naming_the_plugin_and_hook(tmp_path, capsys, plugin, message):
    manifest = str(edition_with(tmp_path, plugin))
    for argv in (["simulate", "--edition", manifest, "--players", "2", "--games", "2", "--no-progress"],
                 ["compare", "ffg2015", manifest, "--players", "2", "--games", "2", "--workers", "1",
                  "--no-progress"],
                 ["score", "--edition", manifest, "--captured", '{"0": {"rice": 1}, "1": {}}'],
                 ["editions", manifest]):
        line = refused(capsys, argv)
        assert manifest in line and str(tmp_path / "variant.py") in line
        assert re.search(message, line), line


def test_the_api_raises_a_data_error_when_the_scoring_hook_fails(tmp_path):
    edition = samurai.load_edition(str(edition_with(tmp_path, SCORE_RAISES)))
    with pytest.raises(DataError, match=r"variant.py:7: samurai_score failed: ZeroDivisionError"):
        samurai.score(edition, {0: {"rice": 1}, 1: {}})
    with pytest.raises(DataError, match=r"samurai_score failed"):
        samurai.play_bots(samurai.new_game(edition, players=2, seed=3), ["random"])


@pytest.mark.parametrize("plugin, message", [
    (METRIC_RAISES, r"variant.py:7: samurai_game_metrics metric 'broken' failed: AttributeError: .*weather"),
    (METRIC_WRONG_TYPE, r"variant.py: samurai_game_metrics metric 'broken' returned 'many', not a number"),
    (METRICS_NOT_A_LIST, r"variant.py: samurai_game_metrics returned 5, not a list of GameMetric"),
])
def test_a_failing_metric_hook_is_one_line_naming_the_plugin_and_hook(tmp_path, capsys, plugin, message):
    manifest = str(edition_with(tmp_path, plugin))
    for argv in (["compare", "ffg2015", manifest, "--players", "2", "--games", "2", "--workers", "1",
                  "--no-progress"],
                 ["editions", manifest]):
        line = refused(capsys, argv)
        assert manifest in line
        assert re.search(message, line), line
    # The play itself does not call metrics: simulate still works with such a plugin.
    assert main(["simulate", "--edition", manifest, "--players", "2", "--games", "1", "--json"]) == 0


class_boom = "class Boom(BaseException):\n    pass\n\n\nraise Boom('bang')\n"


@pytest.mark.parametrize("plugin, message, line", [
    ("raise SystemExit(3)\n", r"plugin failed to import: SystemExit: 3", 1),
    ("import sys\n\nsys.exit('bye')\n", r"plugin failed to import: SystemExit: bye", 3),
    (class_boom, r"plugin failed to import: Boom: bang", 5),
    ("raise KeyboardInterrupt\n", r"plugin failed to import: KeyboardInterrupt$", 1),
])
def test_a_plugin_that_exits_or_raises_a_base_exception_at_import_is_refused(tmp_path, capsys, plugin, message,
                                                                            line):
    manifest = str(edition_with(tmp_path, plugin))
    with pytest.raises(DataError, match=message) as error:
        samurai.load_edition(manifest)
    assert error.value.line == line and "variant.py" in str(error.value)
    for argv in (["editions", manifest], ["simulate", "--edition", manifest, "--games", "1"]):
        assert "plugin failed to import" in refused(capsys, argv)


def test_editions_lists_a_healthy_designer_edition(tmp_path, capsys):
    plugin = HOOK + "def samurai_public_captures(edition, players, options):\n    return True\n"
    manifest = str(edition_with(tmp_path, plugin))
    assert main(["editions", manifest]) == 0
    assert "samurai_public_captures" in capsys.readouterr().out


BEHAVIOUR_RAISES = ("from samurai.hooks.specs import hookimpl\n"
                    "from samurai_plugins.knizia.engine.special_tiles import MoveBehaviour\n\n\n"
                    "class Broken(MoveBehaviour):\n    def can_play(self, rules, st, seat, tile):\n"
                    "        raise RuntimeError('no moves today')\n\n\n"
                    "@hookimpl\ndef samurai_tile_behaviours():\n    return [Broken()]\n")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_special_tile_behaviour_failing_in_play_names_the_plugin_file_line_and_function(tmp_path, capsys, workers):
    manifest = str(edition_with(tmp_path, BEHAVIOUR_RAISES))
    expected = f"plugin {tmp_path / 'variant.py'}:7: can_play failed: RuntimeError: no moves today"
    line = refused(capsys, ["compare", manifest, "ffg2015", "--players", "2", "--games", "120", "--workers", workers,
                            "--no-progress"])
    assert expected in line
    assert expected in refused(capsys, ["simulate", "--edition", manifest, "--players", "2", "--games", "2"])


def test_an_engine_error_is_not_blamed_on_a_plugin():
    from samurai.hooks.calls import plugin_failure

    try:
        {}["missing"]
    except KeyError as exc:
        assert plugin_failure(exc) is None

"""The conformance kit (samurai.kit.conformance, samurai.kit.pytest_plugin) and a third-party edition package.

The shipped editions pass every check; editions broken on purpose fail the check of the rule they
break, and the failure names that rule and the seed that reproduces it; the example package in
docs/examples/edition-package installs into a fresh virtual environment, shows up in
``samurai editions``, plays, and passes the kit there (a broken copy of it fails).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import samurai
from samurai.kit.conformance import ConformanceFailure, run_checks
from samurai_plugins.knizia.adapters.conformance import CHECKS

from helpers import write_plugin_edition

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data"
PACKAGE = ROOT / "docs" / "examples" / "edition-package"


@pytest.mark.parametrize("edition", ["ffg2015", "ffg2015-beginner", "original"])
def test_the_shipped_editions_pass_every_check(edition):
    assert run_checks(edition, seed=1, games=2) == []


def write_edition(folder: Path, plugin: str, extra: str = "") -> Path:
    return write_plugin_edition(folder, plugin, extra, key="broken", name="Broken on purpose")


SCORING_OUT_OF_RANGE = '''
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.result import Result

@hookimpl
def samurai_score(edition, captured, options):
    return Result((len(captured) + 5,), "nobody", "a seat that does not exist wins")
'''

SCORING_WITH_MEMORY = '''
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.result import Result

CALLS = [0]

@hookimpl
def samurai_score(edition, captured, options):
    # Global state across games: the same seed ends differently the second time.
    CALLS[0] += 1
    return Result((CALLS[0] % len(captured),), "memory", "whoever is next in line wins")
'''

LEAKY_MOVE = '''
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.engine.special_tiles import MoveBehaviour

class LeakyMove(MoveBehaviour):
    """Move, but the tile it moves is counted as spent too: a tile appears from nowhere in the count."""
    name = "leaky-move"

    def apply(self, rules, st, seat, tile, params):
        super().apply(rules, st, seat, tile, params)
        st.spent[seat] += 1

@hookimpl
def samurai_tile_behaviours():
    return [LeakyMove()]
'''


def only_failures(edition: samurai.Edition) -> dict[str, list[ConformanceFailure]]:
    found: dict[str, list[ConformanceFailure]] = {}
    for check in CHECKS:
        try:
            check.run(edition, 2, 0, 5)
        except ConformanceFailure as failure:
            found.setdefault(check.rule, []).append(failure)
    return found


def test_a_scoring_hook_naming_a_seat_that_does_not_exist_breaks_the_manifest_rule(tmp_path):
    edition = samurai.load_edition(str(write_edition(tmp_path / "e", SCORING_OUT_OF_RANGE)))
    failures = only_failures(edition)
    assert "the manifest and its hooks are valid" in failures
    assert "winning seats" in str(failures["the manifest and its hooks are valid"][0])


def test_scoring_that_remembers_earlier_games_breaks_same_seed_same_game(tmp_path):
    edition = samurai.load_edition(str(write_edition(tmp_path / "e", SCORING_WITH_MEMORY)))
    failures = only_failures(edition)
    # The same memory makes the two engines' games end differently too (each asks the hook at its own time).
    assert "same seed, same game" in failures
    assert set(failures) <= {"same seed, same game", "both engines play the same games"}
    failure = failures["same seed, same game"][0]
    assert failure.seed is not None and f"seed {failure.seed}" in str(failure)


def test_a_special_tile_that_miscounts_tiles_breaks_conservation(tmp_path):
    manifest = write_edition(tmp_path / "e", LEAKY_MOVE, '\n[tiles.move]\nspecial = "leaky-move"\n')
    edition = samurai.load_edition(str(manifest))
    failure = None
    for seed in range(20):  # the Move tile has to be played for the leak to show
        try:
            CHECKS[2].run(edition, 2, seed, 3)
        except ConformanceFailure as found:
            failure = found
            break
    assert failure is not None and failure.rule == "figures and tiles are conserved"
    assert "spent" in str(failure) and "seed" in str(failure)


def run_pytest(args: list[str], cwd: Path, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    return subprocess.run([python, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_the_pytest_plugin_runs_the_kit_on_an_edition_named_on_the_command_line(tmp_path):
    passed = run_pytest(["--samurai-edition", "original", "--samurai-games", "1", "-q"], tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert f"{len(CHECKS) * 3} passed" in passed.stdout
    manifest = write_edition(tmp_path / "e", SCORING_WITH_MEMORY)
    failed = run_pytest(["--samurai-edition", str(manifest), "--samurai-games", "2", "-q"], tmp_path)
    assert failed.returncode == 1
    assert "rule broken: same seed, same game" in failed.stdout and "seed" in failed.stdout
    assert f"samurai-edition[{manifest}]::determinism[2p]" in failed.stdout


def test_the_pytest_plugin_refuses_an_unknown_edition_in_one_line(tmp_path):
    result = run_pytest(["--samurai-edition", "no-such-edition"], tmp_path)
    assert result.returncode == 4  # pytest's usage error
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ERROR: --samurai-edition no-such-edition:")
    assert "no edition named 'no-such-edition'" in lines[0]


def test_without_the_option_the_plugin_adds_nothing(tmp_path):
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
    result = run_pytest(["-q"], tmp_path)
    assert result.returncode == 0 and "1 passed" in result.stdout


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory):
    """A new virtual environment with the engine, pytest and the example edition package installed."""
    where = tmp_path_factory.mktemp("venv")
    venv.create(where / "env", with_pip=True)
    bin_dir = where / "env" / "bin"
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, str(ROOT), "pytest"], check=True, capture_output=True, timeout=600)
    subprocess.run([*pip, str(PACKAGE)], check=True, capture_output=True, timeout=600)
    return bin_dir


def test_an_edition_package_installs_shows_up_plays_and_passes_the_kit(fresh_env, tmp_path):
    listing = subprocess.run([str(fresh_env / "samurai"), "editions", "shogun"], capture_output=True, text=True)
    assert listing.returncode == 0, listing.stderr
    assert "shogun 1.0.0" in listing.stdout and "plugin shogun (samurai-shogun 1.0.0)" in listing.stdout
    played = subprocess.run([str(fresh_env / "samurai"), "simulate", "--edition", "shogun", "--players", "3",
                             "--games", "20", "--json"], capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    assert '"edition": "shogun"' in played.stdout
    kit = run_pytest(["--samurai-edition", "shogun", "--samurai-games", "2", "-q"], tmp_path,
                     python=str(fresh_env / "python"))
    assert kit.returncode == 0, kit.stdout + kit.stderr
    assert f"{len(CHECKS) * 3} passed" in kit.stdout


def test_a_broken_copy_of_the_package_fails_the_kit_naming_the_rule(fresh_env, tmp_path):
    broken = tmp_path / "broken-package"
    shutil.copytree(PACKAGE, broken, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    plugin = broken / "samurai_shogun" / "__init__.py"
    text = plugin.read_text()
    # Break it: scoring names a seat one past the last.
    plugin.write_text(text.replace("    totals = {seat:", "    return Result((len(captured),), 'x', 'x')\n"
                                   "    totals = {seat:", 1))
    subprocess.run([str(fresh_env / "python"), "-m", "pip", "install", "-q", str(broken)], check=True,
                   capture_output=True, timeout=600)
    try:
        kit = run_pytest(["--samurai-edition", "shogun", "--samurai-games", "1", "-q"], tmp_path,
                         python=str(fresh_env / "python"))
        assert kit.returncode == 1
        assert "rule broken: the manifest and its hooks are valid" in kit.stdout
    finally:  # leave the module's environment with the good package for any later test
        subprocess.run([str(fresh_env / "python"), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps",
                        str(PACKAGE)], check=True, capture_output=True, timeout=600)


def test_an_edition_the_engine_refuses_to_load_breaks_the_first_rule(tmp_path):
    manifest = write_edition(tmp_path / "e", SCORING_OUT_OF_RANGE, "\nweather = 'rain'\n")
    failures = run_checks(str(manifest))
    assert [f.rule for f in failures] == ["the manifest and its hooks are valid"]
    assert "does not load" in str(failures[0]) and "weather" in str(failures[0])
    result = run_pytest(["--samurai-edition", str(manifest), "-q"], tmp_path)
    assert result.returncode == 1
    assert "rule broken: the manifest and its hooks are valid: the edition does not load" in result.stdout

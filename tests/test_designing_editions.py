"""Designing variants (docs/designing-editions.md): the example variants, ``samurai new-edition``,
and the clear refusal of manifests and plugins with a mistake."""

from __future__ import annotations

import json
import re
import shlex
import textwrap
from pathlib import Path

import pytest

import samurai
from samurai import DataError
from samurai.cli import main
from samurai_plugins.knizia.adapters.runner import simulate

from helpers import ROOT, capture_kita

EXAMPLES = ROOT / "docs" / "examples"
GUIDE = ROOT / "docs" / "designing-editions.md"


# --- the examples of the guide -------------------------------------------------------------

def test_the_guide_shows_the_example_files_exactly_as_they_are_in_the_repository():
    guide = GUIDE.read_text(encoding="utf-8")
    for name in ("open-screens.toml", "open_screens.py", "strong-samurai.toml"):
        content = (EXAMPLES / name).read_text(encoding="utf-8")
        assert f"docs/examples/{name}" in guide
        assert content.strip() in guide, f"{name} in the guide differs from docs/examples/{name}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_open_screens_shows_every_seats_captures(players):
    edition = samurai.load_edition(str(EXAMPLES / "open-screens.toml"))
    assert edition.rules(players).public_captures
    assert not samurai.load_edition("ffg2015").rules(players).public_captures


def test_open_screens_changes_what_a_seat_sees_in_play(tmp_path):
    # The example plugin on the tiny map: seat 1 sees seat 0's capture at once. A plugin file lies in
    # its manifest's folder, so the example plugin is copied beside this manifest.
    (tmp_path / "open_screens.py").write_text((EXAMPLES / "open_screens.py").read_text())
    manifest = tmp_path / "tiny-open.toml"
    manifest.write_text(textwrap.dedent("""\
        id = "tiny-open"
        name = "open screens on the tiny map"
        version = "1.0.0"
        extends = "ffg2015"
        map = "tiny"
        plugins = ["open_screens.py"]
        [players.2]
        pieces = ["west", "east"]
        figures_per_caste = 3
        [players.3]
        pieces = ["west", "east"]
        figures_per_caste = 3
        [players.4]
        pieces = ["west", "east"]
        figures_per_caste = 3
        """))
    game = capture_kita(samurai.load_edition(str(manifest)))
    assert game.view(1)["seats"][0]["captured"]["castle"] == 1


def test_strong_samurai_raises_every_samurai_tile_by_one():
    rules = samurai.load_edition(str(EXAMPLES / "strong-samurai.toml")).rules(3)
    values = sorted(rules.tile_types[t].influence for t in rules.player_tiles if rules.tile_types[t].kind == "samurai")
    assert values == [2, 2, 3, 3, 4]


@pytest.mark.parametrize("name", ["open-screens.toml", "strong-samurai.toml"])
def test_the_example_variants_play_complete_games(name):
    edition = samurai.load_edition(str(EXAMPLES / name))
    for players in (2, 3, 4):
        summary = simulate(edition, players=players, games=10, seed=5, bots=("random", "greedy"))
        assert all(game.winners for game in summary.games)


# --- samurai new-edition ---------------------------------------------------------------------

def test_new_edition_writes_a_manifest_and_plugin_that_load_and_play(tmp_path, capsys):
    assert main(["new-edition", "my-variant", "--extends", "ffg2015", "--dir", str(tmp_path)]) == 0
    manifest, plugin = tmp_path / "my-variant.toml", tmp_path / "my_variant.py"
    assert manifest.is_file() and plugin.is_file()
    assert "wrote" in capsys.readouterr().out
    edition = samurai.load_edition(str(manifest))
    assert edition.manifest.extends == "ffg2015"
    assert edition.manifest.plugins[-1].endswith("my_variant.py")
    assert main(["simulate", "--edition", str(manifest), "--players", "3", "--games", "5", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["editions", str(manifest)]) == 0
    listing = capsys.readouterr().out
    assert listing.startswith("my-variant 0.1.0:") and "extends ffg2015" in listing
    assert "my_variant.py (file): samurai_public_captures" in listing
    # Editing the starter hook changes the rule at once.
    plugin.write_text(plugin.read_text().replace("return None", "return True"))
    assert samurai.load_edition(str(manifest)).rules(3).public_captures


def test_new_edition_of_another_game_starts_from_that_games_hooks_and_plays(tmp_path, capsys):
    # Daimyo offers no starter of its own: the framework's names Daimyo's hooks (none beyond the framework's) and
    # implements none, so the variant loads and plays as its base does.
    assert main(["new-edition", "border-war", "--extends", "daimyo", "--dir", str(tmp_path)]) == 0
    assert "--players 2 --games 100" in capsys.readouterr().out  # the hint names a count Daimyo plays
    plugin = (tmp_path / "border_war.py").read_text()
    assert "a variant of daimyo" in plugin and "@hookimpl\ndef" not in plugin
    edition = samurai.load_edition(str(tmp_path / "border-war.toml"))
    assert edition.game.name == "daimyo" and edition.manifest.extends == "daimyo"
    assert main(["simulate", "--edition", str(tmp_path / "border-war.toml"), "--games", "2", "--no-progress"]) == 0
    capsys.readouterr()


def test_new_edition_can_extend_the_original_edition(tmp_path):
    assert main(["new-edition", "house", "--extends", "original", "--dir", str(tmp_path)]) == 0
    edition = samurai.load_edition(str(tmp_path / "house.toml"))
    assert edition.rules(2).resolve_each_tile


@pytest.mark.parametrize("argv, message", [
    (["new-edition", "Bad Name"], "must start with a lowercase letter"),
    (["new-edition", "ffg2015"], "already installed"),
    (["new-edition", "mine", "--extends", "nope"], "cannot extend 'nope'"),
])
def test_new_edition_refuses_bad_names_and_bases(tmp_path, capsys, argv, message):
    assert main([*argv, "--dir", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_new_edition_does_not_overwrite_files_without_force(tmp_path, capsys):
    (tmp_path / "mine.toml").write_text("keep me")
    assert main(["new-edition", "mine", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "mine.toml").read_text() == "keep me"
    assert main(["new-edition", "mine", "--dir", str(tmp_path), "--force"]) == 0


# --- mistakes are refused with the file and the problem -----------------------------------------

HEADER = 'id = "broken"\nname = "broken"\nversion = "1"\nextends = "ffg2015"\n'
GOOD_PLUGIN = ("from samurai.hooks.specs import hookimpl\n\n@hookimpl\n"
               "def samurai_public_captures(edition, players, options):\n    return True\n")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("body, message", [
    ("colour = 'red'\n", r"unknown key 'colour' in the edition manifest"),
    ("[tiles.samurai]\ninfluence = [2]\nstrength = 3\n", r"unknown key 'strength' in tiles.samurai"),
    ("[tiles.samuri]\ninfluence = [2, 2, 3, 3, 4]\n",
     r"broken.toml:5 \[tiles.samuri\]: unknown tile kind 'samuri'.*castle"),
    ("[tiles.castle]\nspecial = 'teleport'\n", r"no installed plugin provides the special tile behaviour 'teleport'"),
    ("[tiles.castle]\ncounts_for = ['dragons']\n", r"unknown caste 'dragons'"),
    ("[options.starting_hands]\ndefault = 'draft'\n", r"default 'draft' is not one of its choices"),
    ("plugins = ['missing.py']\n", r"plugin file missing.py not found in the manifest's folder"),
    ("plugins = ['nonesuch']\n", r"no installed plugin is named 'nonesuch'"),
    ("plugins = 3\n", r"plugins must be a list of plugin names or .py files, not 3"),
    ("[options.removed_to_end]\ndefault = 0\n", r"option removed_to_end must be a whole number from 1 to 999, not 0"),
    ("[options.first_player]\ndefault = 'first'\n",
     r"samurai_setup_procedure failed for options .*ValueError: invalid literal for int"),
])
def test_a_manifest_with_a_mistake_is_refused_naming_the_file(tmp_path, body, message):
    path = write(tmp_path, "broken.toml", HEADER + body)
    with pytest.raises(DataError, match=message) as refused:
        samurai.load_edition(str(path))
    assert str(path) in str(refused.value)


@pytest.mark.parametrize("plugin, message, line", [
    ("from samurai.hooks.specs import hookimpl\n\n@hookimpl\n"
     "def samurai_public_captures(edition, players, options, weather):\n    return True\n",
     r"hook samurai_public_captures asks for 'weather', which the hook does not give; it gives edition, players, "
     r"options", 3),
    ("from samurai.hooks.specs import hookimpl\n\n@hookimpl\n"
     "def samurai_public_capture(edition, players, options):\n    return True\n",
     r"samurai_public_capture is not a samurai hook \(did you mean samurai_public_captures\?\)", 3),
    ("def samurai_score(edition, captured, options)\n    return None\n", r"syntax error", 1),
    ("import math\n\nVALUE = math.sqrt(-1)\n", r"failed to import: ValueError", 3),
])
def test_a_plugin_with_a_mistake_is_refused_naming_its_file(tmp_path, plugin, message, line):
    write(tmp_path, "variant.py", plugin)
    path = write(tmp_path, "broken.toml", HEADER + "plugins = ['variant.py']\n")
    with pytest.raises(DataError, match=message) as refused:
        samurai.load_edition(str(path))
    assert "variant.py" in str(refused.value)
    if line is not None:
        assert refused.value.line == line


def test_two_plugins_deciding_the_same_thing_with_no_order_are_refused(tmp_path):
    write(tmp_path, "first.py", GOOD_PLUGIN)
    write(tmp_path, "second.py", GOOD_PLUGIN.replace("True", "False"))
    path = write(tmp_path, "broken.toml", HEADER + "plugins = ['first.py', 'second.py']\n")
    with pytest.raises(DataError, match=r"both decide samurai_public_captures and nothing says which goes first"):
        samurai.load_edition(str(path))


def test_tryfirst_gives_two_deciding_plugins_an_order(tmp_path):
    write(tmp_path, "first.py", GOOD_PLUGIN.replace("@hookimpl", "@hookimpl(tryfirst=True)"))
    write(tmp_path, "second.py", GOOD_PLUGIN.replace("True", "False"))
    path = write(tmp_path, "ordered.toml", HEADER + "plugins = ['first.py', 'second.py']\n")
    assert samurai.load_edition(str(path)).rules(3).public_captures


def test_a_variant_plugin_overrides_its_base_edition_without_ambiguity(tmp_path):
    # ffg2015 decides public captures too, but it belongs to the base manifest: the variant goes first.
    write(tmp_path, "variant.py", GOOD_PLUGIN)
    path = write(tmp_path, "variant.toml", HEADER + "plugins = ['variant.py']\n")
    assert samurai.load_edition(str(path)).rules(3).public_captures


def test_the_cli_refuses_a_broken_manifest_in_one_line(tmp_path, capsys):
    path = write(tmp_path, "broken.toml", HEADER + "colour = 'red'\n")
    assert main(["simulate", "--edition", str(path), "--games", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert re.search(r"broken.toml.*unknown key 'colour'", err)


# --- tuning a rule: the worked example of section 5 ---------------------------------------------

def test_the_guides_sweep_and_balance_run_as_written_on_fewer_games_and_quick_bots(capsys, tmp_path, monkeypatch):
    """The worked example's two commands run as the guide writes them (here on 6 games of greedy bots: the guide's
    medium bots take minutes), and its abridged table names metrics and values the sweep reports."""
    section = GUIDE.read_text(encoding="utf-8").split("## 5. Tune a rule")[1].split("## 6. ")[0]
    sweep_line, balance_line = re.findall(r"```sh\n(.*?)\n```", section, re.DOTALL)
    monkeypatch.chdir(tmp_path)
    quick = ["--games", "6", "--bots", "greedy", "--workers", "1", "--no-progress"]
    assert main([*shlex.split(sweep_line)[1:], *quick, "--json", "sweep.json"]) == 0
    assert (tmp_path / "removed-to-end.png").read_bytes().startswith(b"\x89PNG")
    data = json.loads((tmp_path / "sweep.json").read_text())
    assert data["options"] == {"removed_to_end": [3, 4, 5, 6]} and data["players"] == [3]
    header, *rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    assert header == "| metric | 3 (first) | 4 | 5 | 6 | changes? (Holm) |"
    labels = [metric["label"] for metric in data["tables"][0]["metrics"]]
    for row in rows:
        shown = row.split(" | ")[0].removeprefix("| ")
        assert any(label.startswith(shown) for label in labels), shown
    assert f"(here {len(labels)} metrics times 3 values, {3 * len(labels)} tests)" in " ".join(section.split())
    capsys.readouterr()
    assert main([*shlex.split(balance_line)[1:], *quick]) == 0
    verdicts = " ".join(capsys.readouterr().out.split()).split("(par 33.3%)")[-1]
    assert "3 players: " in verdicts and "par 33.3%" in verdicts

"""docs/designing-games.md: the worked example (Daimyo and Shinobi) is shown as it is in the repository: the table
of a game definition's parts names every field in its group, the example definition uses public names only, and
Daimyo's own definition is listed as it is."""

from __future__ import annotations

import re

import attrs

from samurai.catalog.games import (
    GameCommands,
    GameDefinition,
    GameEditions,
    GameFaces,
    GameMeasures,
    GameRecords,
    GameRunner,
)
from samurai_plugins import daimyo
from samurai_plugins.knizia.plugin import GAME as KNIZIA_GAME

from helpers import ROOT

GUIDE = (ROOT / "docs" / "designing-games.md").read_text(encoding="utf-8")

GROUPS = {"editions": GameEditions, "faces": GameFaces, "runner": GameRunner}
"""The groups a definition holds by default (each an instance with its own defaults), by field name."""
REQUIRED = {"name", "title", "load_board", "player_counts", "start", "render"}
"""The fields every game gives."""


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", GUIDE, flags=re.S)


def test_every_file_the_guide_names_exists():
    for path in re.findall(r"`((?:plugins|editions|maps|framework/samurai)/[\w/.-]+\.(?:py|toml))`", GUIDE):
        assert (ROOT / path).is_file(), path


def test_the_toml_shown_is_in_the_repository_files():
    files = {"daimyo-shinobi": ROOT / "editions" / "daimyo-shinobi.toml", "Battlefield": ROOT / "maps" /
             "battlefield.toml", "daimyo": ROOT / "editions" / "daimyo.toml",
             "Small field": ROOT / "maps" / "small-field.toml"}
    for block in blocks("toml"):
        name = re.search(r'^(?:id|name) = "([^"]+)"', block, flags=re.M)
        assert name is not None
        text = files[name.group(1)].read_text(encoding="utf-8")
        for line in block.splitlines():
            if line.strip() and not line.startswith("description = \"Optional rule Nobori: ..."):
                assert line in text, f"{line!r} is not in {files[name.group(1)].name}"


def _set_fields(definition: GameDefinition) -> set[str]:
    """The fields ``definition`` sets beyond the required ones, a group's as ``group.field``."""
    bare = GameDefinition(name="x", title="x", load_board=definition.load_board,
                          player_counts=definition.player_counts, start=definition.start, render=definition.render)
    changed: set[str] = set()
    for field in attrs.fields(GameDefinition):
        value, default = getattr(definition, field.name), getattr(bare, field.name)
        if field.name in GROUPS and value is not default:
            changed |= {f"{field.name}.{inner.name}" for inner in attrs.fields(type(value))
                        if getattr(value, inner.name) is not getattr(default, inner.name)}
        elif value is not default and field.name not in REQUIRED:
            changed.add(field.name)
    return changed


def test_the_table_of_the_definition_names_every_field_in_its_group():
    table = {}
    for part, names in re.findall(r"^\| (.+?) \| ((?:`\w+`(?:, )?)+) \|", GUIDE, flags=re.M):
        table[part] = re.findall(r"`(\w+)`", names)
    groups = {"editions": GameEditions, "faces": GameFaces, "runner": GameRunner, "measures": GameMeasures,
              "records": GameRecords, "commands": GameCommands}
    top = table.pop("what every game gives") + table.pop("the definition's own")
    assert set(top) == REQUIRED | {"default_game", "checks", "earlier_views", "bots"}
    assert [next(iter(re.findall(r"`(\w+)`", part))) for part in table] == list(groups)
    assert {field.name for field in attrs.fields(GameDefinition)} == set(top) | set(groups)
    for part, names in table.items():
        group = groups[re.findall(r"`(\w+)`", part)[0]]
        assert names == [field.name for field in attrs.fields(group)], part
        assert f"a `{group.__name__}`" in part


def test_the_example_definition_uses_public_names_only():
    (shown,) = [block for block in blocks("python") if "\nGAME = GameDefinition(" in block]
    assert not re.search(r"(?:\.|import |, )_\w", shown), "the example reaches a private name"
    assert set(re.findall(r"^    (\w+)=", shown, flags=re.M)) - REQUIRED == {"faces", "measures"}


def test_the_guide_lists_the_fields_daimyos_definition_sets():
    said = GUIDE[GUIDE.index("Daimyo's own definition, `GAME`"):]
    said = said[:said.index(". ")]  # the first sentence: what it sets
    named = set(re.findall(r"`([\w.]+)`", said)) - {"GAME", "plugins/daimyo/plugin.py"}
    assert named == _set_fields(daimyo.GAME)
    assert _set_fields(KNIZIA_GAME) >= {"editions.hookspecs", "faces.web", "runner.play_batch", "records", "commands"}

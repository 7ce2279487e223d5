"""docs/designing-games.md: the worked example (Daimyo and Shinobi) is shown as it is in the repository."""

from __future__ import annotations

import re

import attrs

from samurai.catalog.games import GameDefinition
from samurai_plugins import daimyo

from helpers import ROOT

GUIDE = (ROOT / "docs" / "designing-games.md").read_text(encoding="utf-8")


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


def test_the_definition_shown_sets_exactly_the_fields_the_plugin_sets():
    shown = next(block for block in blocks("python") if "\nGAME = GameDefinition(" in block)
    fields = set(re.findall(r"^    (\w+)=", shown, flags=re.M))
    defaults = GameDefinition(name="x", title="x", load_board=daimyo.GAME.load_board,
                              player_counts=daimyo.GAME.player_counts, start=daimyo.GAME.start,
                              render=daimyo.GAME.render)
    changed = {field.name for field in attrs.fields(GameDefinition)
               if getattr(daimyo.GAME, field.name) is not getattr(defaults, field.name)}
    assert fields == changed | {"name", "title", "load_board", "player_counts", "start", "render"}

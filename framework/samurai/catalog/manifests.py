"""Edition manifests: the TOML data that describes an edition.

A manifest names the edition, the plugins that implement its rules, the map,
the board pieces and figures per caste by player count, the tile set, and the
options a game may set (with defaults)::

    id = "ffg2015"
    name = "Samurai (Fantasy Flight Games, 2015)"
    version = "1.0.0"
    plugins = ["ffg2015"]          # entry-point names in the "samurai" group
    map = "japan"                  # a bundled map, or a path relative to this file

    [players.2]
    pieces = ["honshu-north", "honshu-central", "honshu-west"]
    figures_per_caste = 7

    [tiles.castle]
    influence = [2, 3, 4]
    counts_for = ["castle"]

    [options.first_player]
    default = 0
    description = "Seat that places the first figure and plays the first turn."

    [options.starting_hands]
    default = "choose"
    choices = ["choose", "random"]     # optional: the values a game may pick
    description = "How starting hands are formed."

A manifest may name the game it plays, ``game = "daimyo"`` (a game a plugin
contributes through ``samurai_games``, see ``samurai.catalog.games``); without it the
game is the installed game whose definition says it is the default (Knizia's
hex tile-placement game, whose manifests carry the ``players``, ``tiles`` and
``hand_size`` shown above). This module reads the common keys (id, name,
version, description, source, extends, plugins, map, options, game); each game
reads the keys it adds (``GameDefinition.editions``: ``manifest_keys`` and ``read_manifest``:
Knizia's are read by ``samurai_plugins.knizia.editions.manifest_keys``).

A manifest may ``extends = "other-id"``: tables are merged key by key, other
values replaced, and ``plugins`` appended after the parent's (so the child's
hook implementations run first).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import DataError
from ..files.reading import check_keys, key_line, require

__all__ = ["OptionSpec", "EditionManifest", "parse_manifest", "merge_manifests", "manifest_game"]

_COMMON_KEYS = {"id", "name", "version", "description", "source", "extends", "plugins", "map", "options", "game"}
_OPTION_KEYS = {"default", "description", "choices"}


@attrs.frozen
class OptionSpec:
    """An option a game may set, with its default and what it does."""

    name: str
    default: bool | int | float | str
    description: str
    choices: tuple[bool | int | float | str, ...] = ()
    """The values allowed, when the manifest lists them (empty: any value of the default's type)."""

    def read(self, text: str, *, source: str = "--option") -> bool | int | float | str:
        """A value of this option written as text (a command line's), read as the type of its default: ``true``
        or ``false`` for a boolean option, ASCII digits (a leading minus allowed) for a whole number, a finite
        decimal for a float, the text itself for a text option. ``DataError`` in one line when the text is not
        of that type; whether the value is allowed (its ``choices``, an edition's own range) is the edition's to
        check (``EditionManifest.resolve_options``, then starting a game)."""
        default = self.default
        if isinstance(default, bool):
            if text.strip().lower() in ("true", "false"):
                return text.strip().lower() == "true"
            kind = "true or false"
        elif isinstance(default, int):
            digits = text.removeprefix("-")
            if digits.isascii() and digits.isdigit() and len(digits) <= 30:
                return int(text)
            kind = "a whole number"
        elif isinstance(default, float):
            try:
                number = float(text)
            except ValueError:
                number = math.nan
            if text.isascii() and math.isfinite(number):
                return number
            kind = "a number"
        else:
            return text
        raise DataError(f"option {self.name!r} takes {kind} like its default {default!r}, not {text!r}",
                        source=source, key=self.name)


@attrs.frozen
class EditionManifest:
    """A validated edition manifest (after ``extends`` has been merged in): the keys every game's manifest has.

    A game whose manifests add keys reads them into a subclass (``GameDefinition.editions.read_manifest``; Knizia's
    ``samurai_plugins.knizia.editions.manifest_keys.KniziaManifest`` adds ``hand_size``, ``players`` and ``tiles``).
    """

    id: str
    name: str
    version: str
    description: str
    source: str
    """Where the rules come from (for readers), e.g. "the FFG 2015 rules of play" and a section of
    ``docs/rules``."""
    path: str
    """The manifest file this was read from."""
    extends: str | None
    plugins: tuple[str, ...]
    map: str
    options: Mapping[str, OptionSpec]
    game: str
    """The game this edition plays (``samurai.catalog.games``): the one the manifest names, or the default game."""

    def resolve_options(self, given: Mapping[str, Any] | None, *, source: str = "options") -> dict[str, Any]:
        """The defaults overlaid with ``given``; unknown names and wrong types are refused."""
        values = {name: spec.default for name, spec in self.options.items()}
        for name, value in (given or {}).items():
            if name not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise DataError(f"edition {self.id!r} has no option {name!r}; its options are: {known}",
                                source=source, key=name)
            default = self.options[name].default
            if type(value) is not type(default) and not (isinstance(default, float) and type(value) is int):
                raise DataError(f"option {name!r} must be {type(default).__name__} like its default "
                                f"{default!r}, not {value!r}", source=source, key=name)
            allowed = self.options[name].choices
            if allowed and value not in allowed:
                raise DataError(f"option {name!r} must be one of {', '.join(map(repr, allowed))}, not {value!r}",
                                source=source, key=name)
            values[name] = value
        return values


def merge_manifests(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """Overlay ``child`` on ``parent``: tables merge, ``plugins`` append, the rest is replaced."""
    merged: dict[str, Any] = dict(parent)
    for key, value in child.items():
        if key == "plugins":
            merged[key] = list(parent.get("plugins", [])) + [p for p in value if p not in parent.get("plugins", [])]
        elif isinstance(value, dict) and isinstance(parent.get(key), dict):
            merged[key] = merge_manifests(parent[key], value)
        else:
            merged[key] = value
    return merged


def manifest_game(data: Mapping[str, Any], *, path: str, text: str = "") -> str | None:
    """The game a manifest's ``game`` key names (letters, digits, '-' or '_'), or None when it names none."""
    game = require(data, "game", str, source=path, where="the edition manifest", text=text, default=None)
    if game is not None and (not game or not all(ch.isalnum() or ch in "-_" for ch in game)):
        raise DataError(f"game {game!r} must be letters, digits, '-' or '_'", source=path,
                        line=key_line(text, "game"), key="game")
    return game


def parse_manifest(data: Mapping[str, Any], *, path: str, game: str, text: str = "",
                   game_keys: frozenset[str] = frozenset()) -> EditionManifest:
    """Validate manifest data (already merged with its parent) into an ``EditionManifest`` of ``game`` (the game
    it names, or the default game).

    The manifest is checked for the common keys and ``game_keys`` (those its game adds); the game reads and
    checks the rest (``samurai.catalog.games.GameEditions.read_manifest`` and ``check_manifest``).
    """
    where = "the edition manifest"
    manifest_game(data, path=path, text=text)
    check_keys(data, _COMMON_KEYS | game_keys, source=path, where=where, text=text)
    ident = require(data, "id", str, source=path, where=where, text=text)
    if not ident or not all(ch.isalnum() or ch in "-_" for ch in ident):
        raise DataError(f"id {ident!r} must be letters, digits, '-' or '_'", source=path,
                        line=key_line(text, "id"), key="id")
    plugins = require(data, "plugins", list, source=path, where=where, text=text, default=[])
    for plugin in plugins:
        if not isinstance(plugin, str):
            raise DataError(f"plugins must be a list of plugin names, found {plugin!r}", source=path,
                            line=key_line(text, "plugins"), key="plugins")
    return EditionManifest(
        id=ident,
        name=require(data, "name", str, source=path, where=where, text=text),
        version=require(data, "version", str, source=path, where=where, text=text),
        description=require(data, "description", str, source=path, where=where, text=text, default=""),
        source=require(data, "source", str, source=path, where=where, text=text, default=""),
        path=path,
        extends=require(data, "extends", str, source=path, where=where, text=text, default=None),
        plugins=tuple(plugins),
        map=require(data, "map", str, source=path, where=where, text=text),
        options=_parse_options(require(data, "options", dict, source=path, where=where, text=text, default={}),
                               path, text),
        game=game,
    )


def _parse_options(table: Mapping[str, Any], path: str, text: str) -> dict[str, OptionSpec]:
    options = {}
    for name, entry in table.items():
        where = f"options.{name}"
        if not isinstance(entry, dict):
            raise DataError(f"{where} must be a table with 'default' and 'description'", source=path, key=where)
        check_keys(entry, _OPTION_KEYS, source=path, where=where, text=text)
        default = require(entry, "default", (bool, int, float, str), source=path, where=where, text=text)
        description = require(entry, "description", str, source=path, where=where, text=text)
        choices = require(entry, "choices", list, source=path, where=where, text=text, default=[])
        if any(type(choice) is not type(default) for choice in choices):
            raise DataError(f"{where}.choices must all be {type(default).__name__} like the default {default!r}",
                            source=path, key=f"{where}.choices")
        if choices and default not in choices:
            raise DataError(f"{where}: default {default!r} is not one of its choices {choices!r}", source=path,
                            key=f"{where}.default")
        options[name] = OptionSpec(name, default, description, tuple(choices))
    return options

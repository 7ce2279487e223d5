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
game is Knizia's hex tile-placement game, whose manifests carry the
``players``, ``tiles`` and ``hand_size`` shown above. Another game's manifest
has the common keys (id, name, version, description, source, extends,
plugins, map, options) and the keys its game adds.

A manifest may ``extends = "other-id"``: tables are merged key by key, other
values replaced, and ``plugins`` appended after the parent's (so the child's
hook implementations run first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import DataError
from ..files.reading import check_keys, key_line, require
from ..knizia.tiles import CASTES, PLACEMENTS, TileSpec

__all__ = ["OptionSpec", "PlayerCount", "EditionManifest", "parse_manifest", "merge_manifests"]

_COMMON_KEYS = {"id", "name", "version", "description", "source", "extends", "plugins", "map", "options", "game"}
_KNIZIA_KEYS = {"hand_size", "players", "tiles"}
_TOP_KEYS = _COMMON_KEYS | _KNIZIA_KEYS
_PLAYER_KEYS = {"pieces", "figures_per_caste"}
_TILE_KEYS = {"influence", "counts_for", "fast", "on", "special"}
_OPTION_KEYS = {"default", "description", "choices"}


@attrs.frozen
class OptionSpec:
    """An option a game may set, with its default and what it does."""

    name: str
    default: bool | int | float | str
    description: str
    choices: tuple[bool | int | float | str, ...] = ()
    """The values allowed, when the manifest lists them (empty: any value of the default's type)."""


@attrs.frozen
class PlayerCount:
    """What a player count uses: the board pieces and the figures of each caste."""

    pieces: tuple[str, ...]
    figures_per_caste: int


@attrs.frozen
class EditionManifest:
    """A validated edition manifest (after ``extends`` has been merged in)."""

    id: str
    name: str
    version: str
    description: str
    source: str
    """Where the rules come from (for readers), e.g. "seed 000"."""
    path: str
    """The manifest file this was read from."""
    extends: str | None
    plugins: tuple[str, ...]
    map: str
    hand_size: int
    players: Mapping[int, PlayerCount]
    tiles: tuple[TileSpec, ...]
    options: Mapping[str, OptionSpec]
    game: str = "knizia"
    """The game this edition plays (``samurai.catalog.games``): ``"knizia"`` unless the manifest names another."""

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


def parse_manifest(data: Mapping[str, Any], *, path: str, text: str = "",
                   game_keys: frozenset[str] = frozenset()) -> EditionManifest:
    """Validate manifest data (already merged with its parent) into an ``EditionManifest``.

    A manifest of another game than Knizia's is checked for the common keys
    and ``game_keys`` (those its game adds); the game checks the rest
    (``samurai.catalog.games.GameDefinition.check_manifest``).
    """
    where = "the edition manifest"
    game = require(data, "game", str, source=path, where=where, text=text, default="knizia")
    if game == "knizia":
        check_keys(data, _TOP_KEYS, source=path, where=where, text=text)
    else:
        if not game or not all(ch.isalnum() or ch in "-_" for ch in game):
            raise DataError(f"game {game!r} must be letters, digits, '-' or '_'", source=path,
                            line=key_line(text, "game"), key="game")
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
    common: dict[str, Any] = {
        "id": ident,
        "name": require(data, "name", str, source=path, where=where, text=text),
        "version": require(data, "version", str, source=path, where=where, text=text),
        "description": require(data, "description", str, source=path, where=where, text=text, default=""),
        "source": require(data, "source", str, source=path, where=where, text=text, default=""),
        "path": path,
        "extends": require(data, "extends", str, source=path, where=where, text=text, default=None),
        "plugins": tuple(plugins),
        "map": require(data, "map", str, source=path, where=where, text=text),
        "options": _parse_options(require(data, "options", dict, source=path, where=where, text=text, default={}),
                                  path, text),
        "game": game,
    }
    if game != "knizia":  # the hand size, player counts and tiles are Knizia's game's own keys
        return EditionManifest(hand_size=0, players={}, tiles=(), **common)
    hand_size = require(data, "hand_size", int, source=path, where=where, text=text, default=5)
    if hand_size < 1:
        raise DataError("hand_size must be at least 1", source=path, line=key_line(text, "hand_size"),
                        key="hand_size")
    return EditionManifest(
        hand_size=hand_size,
        players=_parse_players(require(data, "players", dict, source=path, where=where, text=text), path, text),
        tiles=_parse_tiles(require(data, "tiles", dict, source=path, where=where, text=text), path, text),
        **common,
    )


def _parse_players(table: Mapping[str, Any], path: str, text: str) -> dict[int, PlayerCount]:
    players: dict[int, PlayerCount] = {}
    for key, entry in table.items():
        if not (key.isascii() and key.isdigit()) or not 2 <= int(key) <= 8:
            raise DataError(f"players.{key}: the key must be a player count from 2 to 8", source=path,
                            key=f"players.{key}")
        where = f"players.{key}"
        if not isinstance(entry, dict):
            raise DataError(f"{where} must be a table", source=path, key=where)
        check_keys(entry, _PLAYER_KEYS, source=path, where=where, text=text)
        pieces = require(entry, "pieces", list, source=path, where=where, text=text)
        if not pieces or not all(isinstance(p, str) for p in pieces):
            raise DataError(f"{where}.pieces must be a non-empty list of piece names", source=path,
                            key=f"{where}.pieces")
        if len(set(pieces)) != len(pieces):
            raise DataError(f"{where}.pieces names a piece twice", source=path, key=f"{where}.pieces")
        figures = require(entry, "figures_per_caste", int, source=path, where=where, text=text)
        if figures < 1:
            raise DataError(f"{where}.figures_per_caste must be at least 1", source=path,
                            key=f"{where}.figures_per_caste")
        players[int(key)] = PlayerCount(tuple(pieces), figures)
    if not players:
        raise DataError("[players] must describe at least one player count", source=path, key="players")
    return dict(sorted(players.items()))


def _parse_tiles(table: Mapping[str, Any], path: str, text: str) -> tuple[TileSpec, ...]:
    specs = []
    for kind, entry in table.items():
        where = f"tiles.{kind}"
        if not isinstance(entry, dict):
            raise DataError(f"{where} must be a table", source=path, key=where)
        check_keys(entry, _TILE_KEYS, source=path, where=where, text=text)
        influence = require(entry, "influence", list, source=path, where=where, text=text)
        if not influence or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in influence):
            raise DataError(f"{where}.influence must list one whole number >= 0 per tile", source=path,
                            key=f"{where}.influence")
        counts_for = require(entry, "counts_for", list, source=path, where=where, text=text, default=[])
        for caste in counts_for:
            if caste not in CASTES:
                raise DataError(f"{where}.counts_for: unknown caste {caste!r}; castes are {', '.join(CASTES)}",
                                source=path, key=f"{where}.counts_for")
        on = require(entry, "on", str, source=path, where=where, text=text, default="land")
        if on not in PLACEMENTS:
            raise DataError(f"{where}.on must be one of {', '.join(PLACEMENTS)}, not {on!r}", source=path,
                            key=f"{where}.on")
        special = require(entry, "special", str, source=path, where=where, text=text, default=None)
        if on == "none" and special is None:
            raise DataError(f"{where}: a tile that never goes on the board needs a 'special' behaviour",
                            source=path, key=f"{where}.special")
        specs.append(TileSpec(kind, tuple(influence), frozenset(counts_for),
                              require(entry, "fast", bool, source=path, where=where, text=text, default=False),
                              on, special))
    if not specs:
        raise DataError("[tiles] must describe at least one tile", source=path, key="tiles")
    return tuple(specs)


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

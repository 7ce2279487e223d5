"""The keys a manifest of Knizia's game adds to the common ones (``samurai.catalog.manifests``): the hand size,
the board pieces and figures per caste by player count, and the tile set::

    hand_size = 5

    [players.2]
    pieces = ["honshu-north", "honshu-central", "honshu-west"]
    figures_per_caste = 7

    [tiles.castle]
    influence = [2, 3, 4]
    counts_for = ["castle"]

``read_manifest`` is the game definition's ``read_manifest``: it reads them into a ``KniziaManifest``.
``check_extends`` is its ``check_extends``: a variant's tile table the base lacks must describe a whole new kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from samurai.catalog.manifests import EditionManifest
from samurai.errors import DataError
from samurai.files.reading import check_keys, key_line, require, table_line
from samurai_plugins.knizia.core.tiles import CASTES, PLACEMENTS, TileSpec

__all__ = ["PlayerCount", "KniziaManifest", "read_manifest", "check_extends", "MANIFEST_KEYS"]

MANIFEST_KEYS = frozenset({"hand_size", "players", "tiles"})
"""The top-level keys a manifest of Knizia's game adds to the common ones."""
_PLAYER_KEYS = {"pieces", "figures_per_caste"}
_TILE_KEYS = {"influence", "counts_for", "fast", "on", "special"}

BOUNDS = {"hand_size": (1, 20), "figures_per_caste": (1, 99), "influence": (0, 99), "tiles_of_a_kind": (1, 99)}
"""The range of every number of a manifest that reaches an engine: far beyond any printed edition (hands of 5,
7 figures a caste, influence up to 4, 5 tiles of a kind) yet small enough that no sum an engine makes can wrap
in the native engine's fixed-width integers, so both engines play any accepted edition alike."""


@attrs.frozen
class PlayerCount:
    """What a player count uses: the board pieces and the figures of each caste."""

    pieces: tuple[str, ...]
    figures_per_caste: int



@attrs.frozen
class KniziaManifest(EditionManifest):
    """A validated manifest of Knizia's game: the common keys and the game's own."""

    hand_size: int
    players: Mapping[int, PlayerCount]
    tiles: tuple[TileSpec, ...]


def read_manifest(common: EditionManifest, data: Mapping[str, Any], text: str) -> KniziaManifest:
    """The hand size, player counts and tiles of the merged manifest ``data`` read beside its ``common`` keys;
    ``DataError`` naming the file, line and field of a wrong one."""
    path, where = common.path, "the edition manifest"
    hand_size = require(data, "hand_size", int, source=path, where=where, text=text, default=5)
    _check_bound(hand_size, "hand_size", path, key_line(text, "hand_size"), "hand_size")
    return KniziaManifest(
        **{field.name: getattr(common, field.name) for field in attrs.fields(EditionManifest)},
        hand_size=hand_size,
        players=_parse_players(require(data, "players", dict, source=path, where=where, text=text), path, text),
        tiles=_parse_tiles(require(data, "tiles", dict, source=path, where=where, text=text), path, text),
    )


def check_extends(child: Mapping[str, Any], parent: Mapping[str, Any], path: str, text: str) -> None:
    """A tile table the base lacks must describe a whole new kind, or it is a misspelt one."""
    tiles, known = child.get("tiles"), parent.get("tiles")
    if not isinstance(tiles, dict) or not isinstance(known, dict):
        return
    for kind, entry in tiles.items():
        if kind not in known and not (isinstance(entry, dict) and {"influence", "counts_for"} <= entry.keys()):
            raise DataError(f"unknown tile kind {kind!r}: the base edition's kinds are {', '.join(known)}; "
                            f"a new kind must give both influence and counts_for",
                            source=path, line=table_line(text, f"tiles.{kind}"), key=f"tiles.{kind}")


def _check_bound(value: int, bound: str, path: str, line: int | None, key: str, unit: str = "") -> None:
    """``DataError`` naming ``key`` and the allowed range when ``value`` is outside ``BOUNDS[bound]``."""
    low, high = BOUNDS[bound]
    if not low <= value <= high:
        raise DataError(f"{value}{unit} is out of range ({low} to {high})", source=path, line=line, key=key)


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
        _check_bound(figures, "figures_per_caste", path, table_line(text, where), f"{where}.figures_per_caste")
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
        _check_bound(len(influence), "tiles_of_a_kind", path, table_line(text, where), f"{where}.influence",
                     " tiles")
        for value in influence:
            _check_bound(value, "influence", path, table_line(text, where), f"{where}.influence")
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

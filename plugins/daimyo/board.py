"""Daimyo's board files (``maps/battlefield.toml``, ``maps/small-field.toml``): read and checked into a
``Battlefield``, each problem named by file, line and key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.catalog.editions import resolve_board
from samurai.errors import DataError
from samurai.files.reading import check_keys, key_line, read_toml, require, table_line
from samurai_plugins.daimyo.rules import BOARD_SIZES, KAMON, START_KEYS, Battlefield, square_name, square_of, tile_set

__all__ = ["load_battlefield", "load_board"]

_BOARD_KEYS = {"game", "name", "description", "files", "ranks", "start", "tiles"}
_TILE_KEYS = ("kamon", "heiya", "ki")
_TILE_DEFAULTS = {"kamon": len(KAMON), "heiya": 8, "ki": 6}


def load_battlefield(path: Any) -> Battlefield:
    """Read and check a board file; ``DataError`` naming the file, line and key for anything this game
    cannot play on: a size outside 4..12 files or ranks, a start square off the board or taken twice, or
    tiles (``[tiles]``: ``kamon`` 1..4, ``heiya``, ``ki``; 4, 8 and 6 by default) that do not fill exactly
    the squares that are not start squares."""
    data, text = read_toml(path)
    where, source = "the board", str(path)
    check_keys(data, _BOARD_KEYS, source=source, where=where, text=text)
    if require(data, "game", str, source=source, where=where, text=text) != "daimyo":
        raise DataError("this is not a board of the 'daimyo' game (game must be \"daimyo\")", source=source,
                        line=key_line(text, "game"), key="game")
    size: dict[str, int] = {}
    for key in ("files", "ranks"):
        value = require(data, key, int, source=source, where=where, text=text)
        if value not in BOARD_SIZES:
            raise DataError(f"{key} must be from {BOARD_SIZES.start} to {BOARD_SIZES.stop - 1}, not {value}",
                            source=source, line=key_line(text, key), key=key)
        size[key] = value
    files, ranks = size["files"], size["ranks"]
    start = require(data, "start", dict, source=source, where=where, text=text)
    check_keys(start, START_KEYS, source=source, where="start", text=text)
    squares: dict[str, str] = {}
    for key in START_KEYS:
        name = require(start, key, str, source=source, where="start", text=text)
        try:
            square = square_name(square_of(name, files, ranks), files)
        except ValueError as error:
            raise DataError(str(error), source=source, line=key_line(text, key), key=f"start.{key}") from None
        if square in squares.values():
            raise DataError(f"{square} is already a start square", source=source, line=key_line(text, key),
                            key=f"start.{key}")
        squares[key] = square
    tiles = _board_tiles(data, text, source, files * ranks - len(START_KEYS))
    return Battlefield(require(data, "name", str, source=source, where=where, text=text), source, files, ranks,
                       squares, tiles)


def _board_tiles(data: Mapping[str, Any], text: str, source: str, free: int) -> tuple[int, ...]:
    """The board file's tile set (``[tiles]``), which must fill the ``free`` squares exactly."""
    table = require(data, "tiles", dict, source=source, where="the board", text=text, default={})
    check_keys(table, set(_TILE_KEYS), source=source, where="tiles", text=text)
    counts = dict(_TILE_DEFAULTS)
    for key in _TILE_KEYS:
        value = require(table, key, int, source=source, where="tiles", text=text, default=_TILE_DEFAULTS[key])
        low, high = (1, len(KAMON)) if key == "kamon" else (0, free)
        if not low <= value <= high:
            raise DataError(f"must be from {low} to {high}, not {value}", source=source,
                            line=key_line(text, key), key=f"tiles.{key}")
        counts[key] = value
    tiles = tile_set(counts["kamon"], counts["heiya"], counts["ki"])
    if len(tiles) != free:
        raise DataError(f"the tiles ({len(tiles)}: {6 * counts['kamon']} army tiles for {counts['kamon']} kamon, "
                        f"{counts['heiya']} Heiya, {counts['ki']} Ki) must fill the {free} squares that are not "
                        f"start squares, one tile a square", source=source,
                        line=table_line(text, "tiles") or key_line(text, "files"), key="tiles")
    return tiles


def load_board(name: str, manifest: str) -> Battlefield:
    """The board a manifest's ``map = NAME`` names (a file beside the manifest or an installed board), read."""
    return load_battlefield(resolve_board(name, manifest))



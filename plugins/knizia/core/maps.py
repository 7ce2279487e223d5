"""Maps: a hex picture of land, sea and settlements, cut into board pieces.

A map file (TOML) holds::

    name = "Japan"
    terrain = '''            # one character a hex, see samurai_plugins.knizia.core.hexgrid
     ~ ~ . v
    ~ . E . ~
    '''
    pieces = '''             # same shape; one letter or digit a hex, naming its piece
     1 1 1 1
    1 1 1 1 1
    '''
    settlements = ["Kyoto", ...]   # names, in reading order (top to bottom, left to right)

    [piece_names]
    1 = "honshu-north"

Terrain symbols: ``~`` sea, ``.`` land, ``v`` village (1 figure), ``c`` city
(2 figures), ``E`` capital (3 figures). An edition picks the pieces in play for
each player count; ``build_board`` turns that selection into the flat,
numbered tables the rules engine runs on.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from samurai.errors import DataError
from samurai.files.reading import check_keys, key_line, read_toml, require
from samurai_plugins.knizia.core.hexgrid import Coord, neighbours, parse_picture

__all__ = ["SETTLEMENT_CAPACITY", "Settlement", "GameMap", "Board", "load_map", "parse_map", "build_board"]

TERRAIN_SYMBOLS = {"~": "sea", ".": "land", "v": "village", "c": "city", "E": "capital"}
SETTLEMENT_CAPACITY = {"village": 1, "city": 2, "capital": 3}
"""How many figures (of different castes) each kind of settlement holds."""

SEA, LAND, SETTLEMENT = 0, 1, 2
MAX_HEXES = 10_000
"""The most hexes a map may have: the Japan map has a few hundred; a bigger picture is a mistake or an attack."""
_MAP_KEYS = {"name", "description", "terrain", "pieces", "settlements", "piece_names"}


@attrs.frozen
class Settlement:
    """A village, city or capital: where figures stand."""

    name: str
    at: Coord
    kind: str
    capacity: int


@attrs.frozen
class GameMap:
    """A validated map: every hex's terrain, the board pieces and the settlements."""

    name: str
    description: str
    source: str
    terrain: dict[Coord, str] = attrs.field(eq=False)
    pieces: dict[str, frozenset[Coord]] = attrs.field(eq=False)
    settlements: tuple[Settlement, ...]

    def piece_of(self, coord: Coord) -> str:
        """The name of the board piece holding ``coord``."""
        for name, coords in self.pieces.items():
            if coord in coords:
                return name
        raise KeyError(coord)


@attrs.frozen(eq=False)
class Board:
    """The hexes of the pieces in play, numbered 0..N-1, with precomputed tables.

    Settlement hexes are numbered too (they never hold tiles). The tables are
    tuples so a Board is shared, read-only, by every game on it.
    """

    map: GameMap
    pieces: tuple[str, ...]
    coords: tuple[Coord, ...]
    index: dict[Coord, int]
    terrain: tuple[int, ...]
    """SEA, LAND or SETTLEMENT for each hex."""
    neighbours: tuple[tuple[int, ...], ...]
    settlements: tuple[Settlement, ...]
    settlement_hex: tuple[int, ...]
    settlement_at: tuple[int, ...]
    """For each hex, the settlement standing on it, or -1."""
    settlement_land: tuple[tuple[int, ...], ...]
    """For each settlement, its adjacent land hexes: all must hold tiles to surround it."""
    adjacent_settlements: tuple[tuple[int, ...], ...]
    """For each hex, the settlements next to it (its tile's influence reaches them)."""
    land_hexes: tuple[int, ...]
    sea_hexes: tuple[int, ...]

    @property
    def size(self) -> int:
        """The number of hexes on the board."""
        return len(self.coords)

    def place_words(self, at: Sequence[int]) -> str:
        """A hex ``(col, row)`` in the game's words: ``"Kyoto (4, 5)"`` where a settlement stands, else ``"(4, 5)"``."""
        h = self.index.get((at[0], at[1]))
        settlement = self.settlement_at[h] if h is not None else -1
        where = f"({at[0]}, {at[1]})"
        return f"{self.settlements[settlement].name} {where}" if settlement >= 0 else where

    def near_words(self, h: int) -> str:
        """``" next to Kyoto and Edo"``: the settlements next to hex ``h`` (its tile's influence reaches them), as
        words to follow a noun; empty next to none."""
        names = [self.settlements[s].name for s in self.adjacent_settlements[h]]
        if not names:
            return ""
        return " next to " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


def load_map(path: Path | Any) -> GameMap:
    """Load and validate a map file; refuse a malformed one with a ``DataError``."""
    data, text = read_toml(path)
    return parse_map(data, text=text, source=str(path))


def parse_map(data: dict[str, Any], *, text: str = "", source: str = "<map>") -> GameMap:
    """Validate parsed map data (``text`` is the raw file, used to give line numbers)."""
    check_keys(data, _MAP_KEYS, source=source, where="the map", text=text)
    name = require(data, "name", str, source=source, where="the map", text=text)
    description = require(data, "description", str, source=source, where="the map", text=text, default="")
    terrain_text = _picture(data, "terrain", source, text)
    pieces_text = _picture(data, "pieces", source, text)
    names = require(data, "settlements", list, source=source, where="the map", text=text)
    piece_names = require(data, "piece_names", dict, source=source, where="the map", text=text)

    terrain_line = _picture_first_line(text, "terrain")
    symbols = parse_picture(terrain_text, source=source, first_line=terrain_line, field="terrain")
    if not symbols:
        raise DataError("terrain has no hexes", source=source, key="terrain")
    if len(symbols) > MAX_HEXES:
        raise DataError(f"terrain has {len(symbols):,} hexes; a map has at most {MAX_HEXES:,}", source=source,
                        key="terrain")
    terrain: dict[Coord, str] = {}
    for coord, symbol in symbols.items():
        if symbol not in TERRAIN_SYMBOLS:
            legend = ", ".join(f"{s!r} {t}" for s, t in TERRAIN_SYMBOLS.items())
            raise DataError(f"terrain hex {coord} has unknown symbol {symbol!r}; the legend is {legend}",
                            source=source, line=_line(terrain_line, coord[1]), key="terrain")
        terrain[coord] = TERRAIN_SYMBOLS[symbol]

    pieces_line = _picture_first_line(text, "pieces")
    letters = parse_picture(pieces_text, source=source, first_line=pieces_line, field="pieces")
    for coord in terrain:
        if coord not in letters:
            raise DataError(f"hex {coord} is in the terrain picture but has no piece in the pieces picture",
                            source=source, line=_line(pieces_line, coord[1]), key="pieces")
    for coord in letters:
        if coord not in terrain:
            raise DataError(f"hex {coord} is in the pieces picture but not in the terrain picture",
                            source=source, line=_line(pieces_line, coord[1]), key="pieces")
    for letter, piece in piece_names.items():
        if not isinstance(piece, str) or not piece:
            raise DataError(f"piece_names.{letter} must be a non-empty string",
                            source=source, line=key_line(text, letter), key=f"piece_names.{letter}")
    pieces: dict[str, set[Coord]] = {}
    for coord, letter in letters.items():
        if letter not in piece_names:
            raise DataError(f"piece letter {letter!r} at hex {coord} has no entry in [piece_names]",
                            source=source, line=_line(pieces_line, coord[1]), key="pieces")
        pieces.setdefault(piece_names[letter], set()).add(coord)
    if len(set(piece_names.values())) != len(piece_names):
        raise DataError("two letters in [piece_names] name the same piece", source=source, key="piece_names")

    settlement_coords = sorted((c for c, t in terrain.items() if t in SETTLEMENT_CAPACITY),
                               key=lambda c: (c[1], c[0]))
    if len(names) != len(settlement_coords):
        raise DataError(f"the terrain has {len(settlement_coords)} settlements but 'settlements' lists "
                        f"{len(names)} names (one per settlement, in reading order)",
                        source=source, line=key_line(text, "settlements"), key="settlements")
    for settlement_name in names:
        if not isinstance(settlement_name, str) or not settlement_name.strip():
            raise DataError(f"settlement name {settlement_name!r} must be a non-empty string",
                            source=source, line=key_line(text, "settlements"), key="settlements")
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise DataError(f"settlement names must be unique; repeated: {', '.join(twice)}",
                        source=source, line=key_line(text, "settlements"), key="settlements")
    settlements = tuple(Settlement(label, coord, terrain[coord], SETTLEMENT_CAPACITY[terrain[coord]])
                        for label, coord in zip(names, settlement_coords, strict=False))
    by_coord = {s.at: s for s in settlements}
    for s in settlements:
        for other in neighbours(s.at):
            if other in by_coord:
                raise DataError(
                    f"settlements {s.name} {s.at} and {by_coord[other].name} {other} touch: a settlement "
                    f"hex never holds a tile, so neither could ever be surrounded",
                    source=source, line=_line(terrain_line, s.at[1]), key="terrain")
    game_map = GameMap(name=name, description=description, source=source, terrain=terrain,
                       pieces={k: frozenset(v) for k, v in sorted(pieces.items())}, settlements=settlements)
    build_board(game_map, tuple(game_map.pieces))  # the whole map must make a playable board
    return game_map


def build_board(game_map: GameMap, pieces: Sequence[str]) -> Board:
    """Number the hexes of ``pieces`` and precompute every table the engine needs."""
    unknown = [p for p in pieces if p not in game_map.pieces]
    if unknown:
        raise DataError(f"map {game_map.name!r} has no piece {unknown[0]!r}; its pieces are "
                        f"{', '.join(game_map.pieces)}", source=game_map.source, key="pieces")
    in_play = set().union(*(game_map.pieces[p] for p in pieces))
    coords = tuple(sorted(in_play, key=lambda c: (c[1], c[0])))
    index = {c: i for i, c in enumerate(coords)}
    kinds = {c: game_map.terrain[c] for c in coords}
    terrain = tuple(SEA if kinds[c] == "sea" else LAND if kinds[c] == "land" else SETTLEMENT for c in coords)
    nbrs = tuple(tuple(index[n] for n in neighbours(c) if n in index) for c in coords)
    settlements = tuple(s for s in game_map.settlements if s.at in index)
    settlement_hex = tuple(index[s.at] for s in settlements)
    settlement_at = [-1] * len(coords)
    for number, h in enumerate(settlement_hex):
        settlement_at[h] = number
    settlement_land = tuple(tuple(n for n in nbrs[h] if terrain[n] == LAND) for h in settlement_hex)
    for s, land in zip(settlements, settlement_land, strict=False):
        if not land:
            raise DataError(f"settlement {s.name} {s.at} has no land neighbour on pieces "
                            f"{', '.join(pieces)}, so it would be surrounded before play began",
                            source=game_map.source, key="terrain")
    adjacent = tuple(tuple(settlement_at[n] for n in nbrs[h] if settlement_at[n] >= 0) for h in range(len(coords)))
    return Board(
        map=game_map, pieces=tuple(pieces), coords=coords, index=index, terrain=terrain, neighbours=nbrs,
        settlements=settlements, settlement_hex=settlement_hex, settlement_at=tuple(settlement_at),
        settlement_land=settlement_land, adjacent_settlements=adjacent,
        land_hexes=tuple(i for i, t in enumerate(terrain) if t == LAND),
        sea_hexes=tuple(i for i, t in enumerate(terrain) if t == SEA),
    )


def _picture(data: dict[str, Any], key: str, source: str, text: str) -> str:
    value: str = require(data, key, str, source=source, where="the map", text=text)
    # A TOML multi-line string drops the newline right after the opening quotes.
    return value.rstrip("\n")


def _picture_first_line(text: str, key: str) -> int | None:
    line = key_line(text, key)
    if line is None:
        return None
    opening = text.split("\n")[line - 1]
    # '''\n starts the picture on the next line; ''' followed by text starts it on this one.
    after = opening.split("=", 1)[1].strip()
    return line + 1 if after in ("'''", '"""') else line


def _line(first_line: int | None, row: int) -> int | None:
    return None if first_line is None else first_line + row

"""Hex coordinates, neighbours and the text pictures maps are drawn in.

Coordinates are "odd-r" offset coordinates ``(col, row)``: odd rows sit half a
hex to the right. In a picture each hex is one character; a row's hexes stand
on every second character, even rows starting at column 0 and odd rows at
column 1, so the text looks like the board::

    ~ . v .
     . E . ~

Inside the picture that is "doubled" coordinates ``(x, row)`` with
``x = 2 * col + row % 2``, where the six neighbours are simply
``(x ± 2, row)`` and ``(x ± 1, row ± 1)``.
"""

from __future__ import annotations

from collections.abc import Iterator

from samurai.errors import DataError

__all__ = ["Coord", "neighbours", "parse_picture"]

Coord = tuple[int, int]
"""A hex as ``(col, row)`` in odd-r offset coordinates."""

_DOUBLED_STEPS = ((2, 0), (-2, 0), (1, -1), (-1, -1), (1, 1), (-1, 1))


def neighbours(coord: Coord) -> Iterator[Coord]:
    """The six hexes that share a border with ``coord`` (some may be off the map)."""
    col, row = coord
    x = 2 * col + (row & 1)
    for dx, dy in _DOUBLED_STEPS:
        nx, ny = x + dx, row + dy
        yield (nx - (ny & 1)) // 2, ny


def parse_picture(text: str, *, source: str, first_line: int | None, field: str) -> dict[Coord, str]:
    """Read a hex picture into ``{coord: symbol}``; spaces are "no hex".

    ``first_line`` is the file line of the picture's first row, so errors can
    point at the exact line and column.
    """
    cells: dict[Coord, str] = {}
    for row, line in enumerate(text.split("\n")):
        for x, symbol in enumerate(line):
            if symbol == " ":
                continue
            if symbol == "\t":
                raise DataError(f"{field} row {row}: tabs are not allowed in a hex picture; use spaces",
                                source=source, line=_line(first_line, row), key=field)
            if (x - row) % 2:
                raise DataError(
                    f"{field} row {row}, column {x + 1}: {symbol!r} is off the hex grid "
                    f"(hexes stand on {'even' if row % 2 == 0 else 'odd'} columns in "
                    f"{'even' if row % 2 == 0 else 'odd'} rows, counting from 0)",
                    source=source, line=_line(first_line, row), key=field)
            cells[(x // 2, row)] = symbol
    return cells


def _line(first_line: int | None, row: int) -> int | None:
    return None if first_line is None else first_line + row

"""A fixed, flat numbering of every action a game under some ``Rules`` could ever allow.

Learning libraries (PettingZoo, OpenSpiel) want actions as numbers ``0..size-1``
that mean the same thing in every position, plus a mask of the legal ones.
The engine's actions are tuples of small ints (``samurai_plugins.knizia.engine.reference``); this
numbers them block by block, in a mixed radix inside each block:

- choose a starting tile: one per tile type;
- place a figure: caste × settlement;
- place a tile: tile type × hex;
- end the turn: one;
- each special tile type: the product of its behaviour's ``parameter_ranges``.

The numbering depends only on the rules (edition, player count, options,
map), never on a position, so a trained agent's action 17 is always the
same action under the same rules.
"""

from __future__ import annotations

from math import prod

from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import SPECIAL_TILE, Rules
from samurai_plugins.knizia.engine import reference as engine

__all__ = ["ActionSpace"]


class ActionSpace:
    """Numbers every engine action under ``rules`` as ``0..size-1`` (and back)."""

    __slots__ = ("rules", "size", "_choose", "_figure", "_place", "_end", "_special", "_special_blocks")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        tiles, hexes = len(rules.tile_types), rules.board.size
        settlements = len(rules.board.settlements)
        self._choose = 0
        self._figure = self._choose + tiles
        self._place = self._figure + len(CASTES) * settlements
        self._end = self._place + tiles * hexes
        offset = self._end + 1
        self._special: dict[int, tuple[int, tuple[int, ...]]] = {}
        blocks = []
        for tile, behaviour in enumerate(rules.behaviours):
            if behaviour is None or rules.tile_on[tile] != SPECIAL_TILE:
                continue
            ranges = tuple(behaviour.parameter_ranges(rules))
            self._special[tile] = (offset, ranges)
            blocks.append((offset, tile, ranges))
            offset += prod(ranges)
        self._special_blocks = tuple(blocks)
        self.size = offset
        """How many numbers there are."""

    def index(self, action: tuple[int, ...]) -> int:
        """The number of an engine action; ``ValueError`` for a tuple no action of these rules has."""
        kind = action[0]
        try:
            if kind == engine.CHOOSE:
                return self._checked(self._choose, action[1:], (len(self.rules.tile_types),))
            if kind == engine.FIGURE:
                return self._checked(self._figure, action[1:], (len(CASTES), len(self.rules.board.settlements)))
            if kind == engine.PLACE:
                return self._checked(self._place, action[1:], (len(self.rules.tile_types), self.rules.board.size))
            if kind == engine.END and len(action) == 1:
                return self._end
            if kind == engine.SPECIAL and action[1] in self._special:
                offset, ranges = self._special[action[1]]
                return self._checked(offset, action[2:], ranges)
        except IndexError:
            pass
        raise ValueError(f"{action!r} is not an action of these rules")

    def action(self, index: int) -> tuple[int, ...]:
        """The engine action numbered ``index``; ``ValueError`` outside ``0..size-1``."""
        if isinstance(index, bool) or not 0 <= index < self.size:
            raise ValueError(f"action numbers run from 0 to {self.size - 1}, not {index!r}")
        if index < self._figure:
            return engine.CHOOSE, index
        if index < self._place:
            caste, settlement = divmod(index - self._figure, len(self.rules.board.settlements))
            return engine.FIGURE, caste, settlement
        if index < self._end:
            tile, h = divmod(index - self._place, self.rules.board.size)
            return engine.PLACE, tile, h
        if index == self._end:
            return (engine.END,)
        for offset, tile, ranges in reversed(self._special_blocks):
            if index >= offset:
                return (engine.SPECIAL, tile, *_digits(index - offset, ranges))
        raise ValueError(f"no action is numbered {index}")  # unreachable: the blocks cover every number

    @staticmethod
    def _checked(offset: int, values: tuple[int, ...], ranges: tuple[int, ...]) -> int:
        if len(values) != len(ranges) or any(not 0 <= v < r for v, r in zip(values, ranges, strict=True)):
            raise IndexError(values)
        number = 0
        for value, size in zip(values, ranges, strict=True):
            number = number * size + value
        return offset + number


def _digits(number: int, ranges: tuple[int, ...]) -> tuple[int, ...]:
    digits = []
    for size in reversed(ranges):
        number, digit = divmod(number, size)
        digits.append(digit)
    return tuple(reversed(digits))

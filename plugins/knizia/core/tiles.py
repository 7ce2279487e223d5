"""Castes and influence tiles as data.

Every edition of Samurai has the same three castes. A tile is described by its
kind (``castle``, ``samurai``, ``ship``...), its influence, the castes it
counts for, whether it is fast, and where it goes: ``land``, ``sea`` or
``none`` (never on the board, like Switch). A tile with ``special`` set is
played through a special tile behaviour (see ``samurai_plugins.knizia.engine.special_tiles``).
"""

from __future__ import annotations

import attrs

__all__ = ["CASTES", "PLACEMENTS", "TileSpec", "TileType"]

CASTES: tuple[str, ...] = ("buddha", "rice", "castle")
"""The three castes, in the order used everywhere (docs/rules/samurai.md#tiles)."""

PLACEMENTS = ("land", "sea", "none")


@attrs.frozen
class TileSpec:
    """One kind of tile in an edition's tile set: ``influence`` has one entry per tile."""

    kind: str
    influence: tuple[int, ...]
    counts_for: frozenset[str]
    fast: bool = False
    on: str = "land"
    special: str | None = None


@attrs.frozen
class TileType:
    """A distinct tile (kind and influence); a player's 20 tiles are several of these.

    ``name`` is how people and actions refer to it: the kind alone when every
    tile of the kind has the same influence (``ronin``, ``move``), otherwise
    ``kind-influence`` (``castle-3``, ``ship-1``).
    """

    name: str
    kind: str
    influence: int
    counts_for: frozenset[str]
    fast: bool
    on: str
    special: str | None

    @property
    def movable(self) -> bool:
        """Whether the Move tile may pick it up: a normal, non-special tile (docs/rules/samurai.md#move-tile)."""
        return not self.fast and self.special is None and self.on == "land"

    def value_for(self, caste: str) -> int:
        """The influence this tile adds to a figure of ``caste``."""
        return self.influence if caste in self.counts_for else 0

"""The mutable state of one game, in flat lists of small ints for speed.

Hexes, settlements, tile types, seats and castes are all numbered; a State
holds only numbers and lists, so a copy takes microseconds and the playout
loop never touches an object per hex. The rules that change it live in
``samurai.engine`` (play) and ``samurai.setup_rules`` (setup); the friendly
face over it is ``samurai.game.Game``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .result import Result

__all__ = ["State", "HANDS", "FIGURES", "PLAY", "OVER", "PHASE_NAMES", "EMPTY", "UNSEEDED"]

HANDS, FIGURES, PLAY, OVER = range(4)
PHASE_NAMES = ("choose_hands", "place_figures", "play", "over")
EMPTY = -1

UNSEEDED = random.Random(0)
"""Marks the generator of a starting-position template, which no game draws from:
``samurai.engine.new_state`` gives every game its own seeded generator."""


class State:
    """Everything that changes during a game. Seats, hexes, settlements and castes are indexes."""

    __slots__ = (
        "phase", "setup_queue", "current", "turn", "pools", "hands", "stacks", "spent",
        "tile_owner", "tile_type", "tile_turn", "empty_land", "empty_land_pos", "empty_sea", "empty_sea_pos",
        "movable_count", "figures", "empty_around", "pending", "supply", "on_board", "captured", "removed",
        "removed_total", "open_by_stage", "cut", "normal_played", "played", "tiles_played", "end_reason",
        "result", "rng", "events",
    )

    phase: int
    setup_queue: list[int]
    current: int
    turn: int
    pools: list[list[int]]
    hands: list[list[int]]
    stacks: list[list[int]]
    spent: list[int]
    tile_owner: list[int]
    tile_type: list[int]
    tile_turn: list[int]
    empty_land: list[int]
    empty_land_pos: list[int]
    empty_sea: list[int]
    empty_sea_pos: list[int]
    movable_count: list[int]
    figures: list[int]
    empty_around: list[int]
    pending: list[int]
    supply: list[int]
    on_board: list[int]
    captured: list[int]
    removed: list[int]
    removed_total: int
    open_by_stage: list[list[int]]
    cut: list[int]
    normal_played: bool
    played: int
    tiles_played: int
    end_reason: str | None
    result: Result | None
    rng: random.Random
    events: list[tuple[Any, ...]] | None

    def copy(self) -> State:
        """An independent copy (the random generator included)."""
        other = State.__new__(State)
        for name in ("phase", "current", "turn", "removed_total", "normal_played", "played", "tiles_played",
                     "end_reason", "result"):
            setattr(other, name, getattr(self, name))
        for name in ("setup_queue", "spent", "tile_owner", "tile_type", "tile_turn", "empty_land",
                     "empty_land_pos", "empty_sea", "empty_sea_pos", "movable_count", "figures",
                     "empty_around", "pending", "supply", "on_board", "captured", "removed", "cut"):
            setattr(other, name, getattr(self, name)[:])
        other.pools = [p[:] for p in self.pools]
        other.hands = [h[:] for h in self.hands]
        other.stacks = [s[:] for s in self.stacks]
        other.open_by_stage = [s[:] for s in self.open_by_stage]
        if self.rng is UNSEEDED:
            other.rng = UNSEEDED
        else:
            other.rng = random.Random()
            other.rng.setstate(self.rng.getstate())
        other.events = None if self.events is None else self.events[:]
        return other

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that defines the position, as one comparable tuple (for tests and replays)."""
        return (self.phase, tuple(self.setup_queue), self.current, self.turn,
                tuple(map(tuple, self.pools)), tuple(map(tuple, self.hands)),
                tuple(map(tuple, self.stacks)), tuple(self.spent), tuple(self.tile_owner),
                tuple(self.tile_type), tuple(self.tile_turn), tuple(self.empty_land),
                tuple(self.empty_sea), tuple(self.figures), tuple(self.empty_around),
                tuple(self.pending), tuple(self.supply), tuple(self.on_board), tuple(self.captured),
                tuple(self.removed), self.normal_played, self.played, self.end_reason,
                self.rng.getstate())

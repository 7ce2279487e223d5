"""The mutable state of one game, in flat lists of small ints for speed.

Hexes, settlements, tile types, seats and castes are all numbered; a State
holds only numbers and lists, so a copy takes microseconds and the playout
loop never touches an object per hex. The rules that change it live in
``samurai_plugins.knizia.engine.reference`` (play) and ``samurai_plugins.knizia.editions.setup`` (setup); the friendly
face over it is ``samurai_plugins.knizia.play.game.Game``.
"""

from __future__ import annotations

import _random
import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from samurai_plugins.knizia.core.result import Result

__all__ = ["State", "HANDS", "FIGURES", "PLAY", "OVER", "PHASE_NAMES", "EMPTY", "UNSEEDED", "seeded_random"]

HANDS, FIGURES, PLAY, OVER = range(4)
PHASE_NAMES = ("choose_hands", "place_figures", "play", "over")
EMPTY = -1

_new_state = object.__new__
_new_random = random.Random.__new__
_copy_list = list.copy
_seed_generator = _random.Random.seed

UNSEEDED = random.Random(0)
"""Marks the generator of a starting-position template, which no game draws from:
``samurai_plugins.knizia.engine.reference.new_state`` gives every game its own seeded generator."""


def seeded_random(seed: int) -> random.Random:
    """``random.Random(seed)``: the same generator state, made faster for a whole number ``seed``.

    ``Random(seed)`` goes through ``Random.__init__`` and ``Random.seed`` in Python before the C seeding;
    every random game seeds one of these per seat and one for itself, so the bare instance seeded in C
    directly saves a few percent of a game. ``gauss_next`` is what ``Random.seed`` would leave (None).
    Any other seed (``Random.seed`` hashes text in Python first) takes the ordinary path.
    """
    if type(seed) is not int:
        return random.Random(seed)
    rng = _new_random(random.Random)
    _seed_generator(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


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

    def copy(self, *, rng: random.Random | None = None) -> State:
        """An independent copy; its generator is a copy of this one's, or ``rng`` when given.

        Copying a generator's state costs more than the rest of the position, so
        a search that reseeds its copies anyway passes its own generator (shared
        by the copies, or a fresh one per copy) and skips that cost.
        """
        other = _new_state(State)
        other.phase = self.phase
        other.current = self.current
        other.turn = self.turn
        other.removed_total = self.removed_total
        other.normal_played = self.normal_played
        other.played = self.played
        other.tiles_played = self.tiles_played
        other.end_reason = self.end_reason
        other.result = self.result
        other.setup_queue = self.setup_queue[:]
        other.spent = self.spent[:]
        other.tile_owner = self.tile_owner[:]
        other.tile_type = self.tile_type[:]
        other.tile_turn = self.tile_turn[:]
        other.empty_land = self.empty_land[:]
        other.empty_land_pos = self.empty_land_pos[:]
        other.empty_sea = self.empty_sea[:]
        other.empty_sea_pos = self.empty_sea_pos[:]
        other.movable_count = self.movable_count[:]
        other.figures = self.figures[:]
        other.empty_around = self.empty_around[:]
        other.pending = self.pending[:]
        other.supply = self.supply[:]
        other.on_board = self.on_board[:]
        other.captured = self.captured[:]
        other.removed = self.removed[:]
        other.cut = self.cut[:]
        other.pools = [*map(_copy_list, self.pools)]  # faster than a comprehension of [:]
        other.hands = [*map(_copy_list, self.hands)]
        other.stacks = [*map(_copy_list, self.stacks)]
        other.open_by_stage = [*map(_copy_list, self.open_by_stage)]
        if rng is not None:
            other.rng = rng
        elif self.rng is UNSEEDED:
            other.rng = UNSEEDED
        else:
            # A bare instance skips seeding from the operating system, which setstate overwrites anyway.
            other.rng = _new_random(random.Random)
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

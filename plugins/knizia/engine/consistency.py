"""What a position handed to an engine from outside must satisfy before either engine plays it.

The Python engine trusts the fields it keeps beside the board (the lists of empty hexes, the empty land around
each settlement, the figures on the board, each seat's movable tiles, the setup's cut counts) on every action,
as the native one does: a position that breaks one would index past a list, never resolve a settlement, end at
once or loop for ever. So a position that crosses in (a scenario's, a starting-position template) is checked
here once: its fields' shapes and ranges, then its consistency with its board, then that it can go on. The
checks are the native engine's (``native/src/consistency.rs``: ``State::problem``, then ``inconsistency``), in
the same order and the same words, so the two engines refuse a position alike. Positions the engines make
themselves (a game's, a playout's copy, a determinization) are never checked again: this is no hot path.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

from samurai.errors import DataError
from samurai_plugins.knizia.core.maps import LAND, SEA
from samurai_plugins.knizia.core.result import END_REASONS
from samurai_plugins.knizia.core.state import EMPTY, FIGURES, HANDS, OVER, PLAY, State
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine.reference import can_play, figure_placements

__all__ = ["position_problem", "position_stuck", "refused_position", "check_position", "check_template"]

COUNT_LIMIT = 1 << 40
"""The most a count may be in a position handed over: far above any game's, far below overflow (as natively)."""

_I64 = (-(1 << 63), (1 << 63) - 1)
_U64 = (0, (1 << 64) - 1)
_U8 = (0, 255)
_FIELDS: tuple[tuple[str, tuple[int, int] | None, int], ...] = (
    ("phase", _U8, 0), ("setup_queue", _U8, 1), ("current", _I64, 0), ("turn", _I64, 0), ("pools", _U64, 2),
    ("hands", _U64, 2), ("stacks", _U64, 2), ("spent", _I64, 1), ("tile_owner", _I64, 1), ("tile_type", _I64, 1),
    ("tile_turn", _I64, 1), ("empty_land", _U64, 1), ("empty_land_pos", _I64, 1), ("empty_sea", _U64, 1),
    ("empty_sea_pos", _I64, 1), ("movable_count", _I64, 1), ("figures", _U8, 1), ("empty_around", _I64, 1),
    ("pending", _U64, 1), ("supply", _I64, 1), ("on_board", _I64, 1), ("captured", _I64, 1), ("removed", _I64, 1),
    ("removed_total", _I64, 0), ("open_by_stage", _U64, 2), ("cut", _I64, 1), ("normal_played", None, 0),
    ("played", _I64, 0), ("tiles_played", _I64, 0))
"""The fields in the order the native engine reads them: the bounds of the type it reads each into (None for a
boolean) and its depth (a number, a list of numbers, a list of lists)."""
_FIXED = {"supply": 3, "on_board": 3, "removed": 3, "cut": 8}
_EVENT_NUMBERS = {"capture": 3, "remove": 2, "refill": 2, "pass": 1}
"""How many whole numbers follow each event's kind (a capture's and a removal's influence come after them)."""


def refused_position(rules: Rules, why: str) -> DataError:
    """The one error either engine raises for a position it will not play, ``why`` in the checks' words."""
    return DataError(f"the engine refuses the position: {why}", source=rules.reference)


def check_position(rules: Rules, st: State) -> None:
    """Refuse (``refused_position``) a position crossing in from outside that an engine cannot play on."""
    why = position_problem(rules, st) or position_stuck(rules, st)
    if why is not None:
        raise refused_position(rules, why)


def check_template(rules: Rules) -> None:
    """Refuse compiled rules whose starting position cannot be set up (``DataError``), as the native engine's
    ``NativeRules`` refuses the same template."""
    why = position_problem(rules, rules.template) or position_stuck(rules, rules.template)
    if why is not None:
        raise DataError(f"the starting position cannot be set up: {why}", source=rules.reference)


def position_problem(rules: Rules, st: Any) -> str | None:
    """What is wrong with this position under ``rules``, if anything (``State::problem``): every field of the
    right type, the lists of the right lengths, every number indexed by in range, the empty-hex lists and their
    positions agreeing, then every field kept beside the board equal to what the board says."""
    return _malformed(st) or _out_of_range(rules, st) or _inconsistency(rules, st)


def _bad(name: str, what: str) -> str:
    return f'the field "{name}" is malformed: {what}'


def _whole(value: Any, bounds: tuple[int, int]) -> bool:
    return isinstance(value, int) and bounds[0] <= value <= bounds[1]


def _malformed(st: Any) -> str | None:
    """The first field that is not of the type the engines read it as."""
    if not isinstance(getattr(st, "rng", None), random.Random):
        return _bad("rng", "not a random.Random")
    end_reason = getattr(st, "end_reason", None)
    if end_reason is not None and not isinstance(end_reason, str):
        return _bad("end_reason", "neither None nor a string")
    events = getattr(st, "events", None)
    if events is not None:
        if not isinstance(events, list):
            return _bad("events", "neither None nor a list")
        for event in events:
            if (why := _event_problem(event)) is not None:
                return _bad("events", why)
    for name, bounds, depth in _FIELDS:
        value: Any = getattr(st, name, None)
        if bounds is None:
            shaped = isinstance(value, bool)
        elif depth == 0:
            shaped = _whole(value, bounds)
        elif depth == 1:
            shaped = _numbers(value, bounds)
        else:
            shaped = isinstance(value, list) and all(_numbers(row, bounds) for row in value)
        if not shaped:
            whole = "a boolean" if bounds is None else f"a whole number from {bounds[0]} to {bounds[1]}"
            return _bad(name, f"not {'a list of ' * depth}{whole}")
        if name in _FIXED and len(value) != _FIXED[name]:
            return f"{name} has {len(value)} entries, not {_FIXED[name]}"
    if end_reason is not None and end_reason not in END_REASONS:
        return f"no end reason {json.dumps(end_reason)}"
    return None


def _numbers(values: Any, bounds: tuple[int, int]) -> bool:
    return isinstance(values, list) and all(_whole(v, bounds) for v in values)


def _event_problem(event: Any) -> str | None:
    """What keeps ``event`` from being one the engines write (``("capture", settlement, caste, seat, influence)``
    and the rest), if anything."""
    if not isinstance(event, tuple) or not event or not isinstance(event[0], str):
        return "an event is not a tuple beginning with its kind"
    kind = event[0]
    if kind == "end":
        if len(event) < 2 or not isinstance(event[1], str):
            return "an end event names no reason"
        return None if event[1] in END_REASONS else f"no end reason {json.dumps(event[1])}"
    if kind not in _EVENT_NUMBERS:
        return f"no event {json.dumps(kind)}"
    count = _EVENT_NUMBERS[kind]
    numbers, rest = event[1:count + 1], event[count + 1:]
    influence_ok = kind not in ("capture", "remove") or (
        len(rest) >= 1 and isinstance(rest[0], (list, tuple)) and all(_whole(v, _I64) for v in rest[0]))
    if len(numbers) != count or not all(_whole(v, _U64) for v in numbers) or not influence_ok:
        return f"a {kind} event's numbers are malformed"
    return None


def _out_of_range(rules: Rules, st: State) -> str | None:
    """The ranges of ``State::problem``: every number the engine indexes by names a seat, hex, tile type,
    settlement or phase of these rules."""
    board = rules.board
    n, size, settlements, types = rules.players, board.size, len(board.settlements), len(rules.tile_types)
    lengths = (("pools", st.pools, n), ("hands", st.hands, n), ("stacks", st.stacks, n), ("spent", st.spent, n),
               ("movable_count", st.movable_count, n), ("captured", st.captured, 3 * n),
               ("tile_owner", st.tile_owner, size), ("tile_type", st.tile_type, size),
               ("tile_turn", st.tile_turn, size), ("empty_land_pos", st.empty_land_pos, size),
               ("empty_sea_pos", st.empty_sea_pos, size), ("figures", st.figures, settlements),
               ("empty_around", st.empty_around, settlements))
    for name, values, want in lengths:
        if len(values) != want:
            return f"{name} has {len(values)} entries, not {want}"
    if len(st.open_by_stage) != len(rules.figure_stages):
        return f"open_by_stage has {len(st.open_by_stage)} stages, not {len(rules.figure_stages)}"
    if st.phase > OVER or any(p > FIGURES for p in st.setup_queue):
        return f"phase {st.phase} or setup queue {st.setup_queue} is not a phase"
    if not (st.current == EMPTY if st.phase == OVER else 0 <= st.current < n):
        return f"seat {st.current} cannot be to act in phase {st.phase}"
    if any(t >= types for rows in (st.pools, st.hands, st.stacks) for row in rows for t in row):
        return "a hand, stack or pool holds a tile type the rules do not have"
    for h in range(size):
        owner, kind = st.tile_owner[h], st.tile_type[h]
        placed = 0 <= owner < n and 0 <= kind < types
        if not (placed or owner == EMPTY and kind == EMPTY):
            return f"hex {h} holds owner {owner} and tile type {kind}"
        if placed and board.terrain[h] not in (LAND, SEA):
            return f"hex {h} is a settlement and cannot hold a tile"
    if not (_empty_ok(board.terrain, st, st.empty_land, st.empty_land_pos, LAND)
            and _empty_ok(board.terrain, st, st.empty_sea, st.empty_sea_pos, SEA)):
        return "the lists of empty hexes do not agree with the board"
    for s, mask in enumerate(st.figures):
        if mask > 7 or bin(mask).count("1") > rules.capacities[s]:
            return f"settlement {s} holds figures {mask}, more than it has room for"
    if any(s >= settlements for s in st.pending) or any(s >= settlements for stage in st.open_by_stage for s in stage):
        return "pending or open_by_stage names a settlement the board does not have"
    for count in _counts(st):
        if not -COUNT_LIMIT <= count <= COUNT_LIMIT:
            return f"a count of {count} is out of any game's range"
    return None


def _empty_ok(terrain: Sequence[int], st: State, empty: list[int], pos: list[int], kind: int) -> bool:
    """Whether a list of empty hexes and its positions agree with each other and the board."""
    size = len(terrain)
    return (all(h < size and terrain[h] == kind and pos[h] == i and st.tile_owner[h] == EMPTY
                for i, h in enumerate(empty))
            and sum(p != EMPTY for p in pos) == len(empty))


def _counts(st: State) -> Iterator[int]:
    """Every count of the position, in the order the native engine bounds them."""
    yield from (st.turn, st.played, st.tiles_played, st.removed_total)
    for values in (st.supply, st.on_board, st.removed, st.cut, st.spent, st.movable_count, st.captured,
                   st.empty_around, st.tile_turn):
        yield from values


def _inconsistency(rules: Rules, st: State) -> str | None:
    """What in this position (its ranges checked) disagrees with its board, if anything
    (``State::inconsistency``). It says nothing of hidden tiles but that no seat holds more of a kind than it
    owns."""
    board = rules.board
    for terrain_hexes, listed, name in ((board.land_hexes, st.empty_land, "empty_land"),
                                        (board.sea_hexes, st.empty_sea, "empty_sea")):
        empty = sum(st.tile_owner[h] == EMPTY for h in terrain_hexes)
        if empty != len(listed):
            return f"{name} lists {len(listed)} hexes but the board has {empty} empty ones"
    for s, stated in enumerate(st.empty_around):
        empty = sum(st.tile_owner[h] == EMPTY for h in board.settlement_land[s])
        if stated != empty:
            return f"empty_around[{s}] is {stated} but {empty} land hexes around it are empty"
    for caste in range(3):
        standing = sum(mask >> caste & 1 for mask in st.figures)
        if st.on_board[caste] != standing:
            return f"on_board[{caste}] is {st.on_board[caste]} but {standing} such figures stand in settlements"
    for seat in range(rules.players):
        movable = sum(st.tile_owner[h] == seat and rules.tile_movable[st.tile_type[h]] for h in range(board.size))
        if st.movable_count[seat] != movable:
            return (f"movable_count[{seat}] is {st.movable_count[seat]} but the seat has {movable} movable tiles "
                    f"on the board")
        if len(st.hands[seat]) > rules.hand_size:
            return f"seat {seat} holds {len(st.hands[seat])} tiles in hand, more than the hand size {rules.hand_size}"
        kind = _tile_over_owned(rules, st, seat)
        if kind is not None:
            return f"seat {seat} holds more {rules.tile_types[kind].name} tiles than it owns"
    for i, s in enumerate(st.pending):
        if st.empty_around[s] != 0 or st.figures[s] == 0 or s in st.pending[:i]:
            return f"pending names settlement {s}, which is not surrounded with figures, or twice"
    return _setup_inconsistency(rules, st)


def _tile_over_owned(rules: Rules, st: State, seat: int) -> int | None:
    """The first tile kind the seat holds more of (unchosen, in hand, in its stack and on the board) than the
    rules give it."""
    left = [0] * len(rules.tile_types)
    for t in rules.player_tiles:
        left[t] += 1
    on_board = [st.tile_type[h] for h in range(rules.board.size) if st.tile_owner[h] == seat]
    for t in (*st.pools[seat], *st.hands[seat], *st.stacks[seat], *on_board):
        left[t] -= 1
        if left[t] < 0:
            return t
    return None


def _setup_inconsistency(rules: Rules, st: State) -> str | None:
    """The setup's fields: phases in the queue at most once each and none after play began; while figures may
    still be placed, the cut counts are those of the settlements' free slots."""
    seen = [False, False]
    current = [st.phase] if st.phase <= FIGURES else []
    for phase in (*current, *st.setup_queue):
        if seen[phase]:
            return f"setup phase {phase} comes twice (phase {st.phase}, then {st.setup_queue})"
        seen[phase] = True
    if st.phase >= PLAY and st.setup_queue:
        return "the setup queue is not empty after play began"
    if (st.phase == OVER) != (st.end_reason is not None):
        return "the game has an end reason exactly when it is over"
    if seen[FIGURES]:
        for subset, stated in enumerate(st.cut):
            free = sum(min(max(rules.capacities[s] - bin(st.figures[s]).count("1"), 0),
                           bin(subset & ~st.figures[s] & 7).count("1"))
                       for s in range(len(st.figures)) if rules.stage_of[s] >= 0)
            if stated != free:
                return f"cut[{subset}] is {stated} but the free slots make it {free}"
    return None


def position_stuck(rules: Rules, st: State) -> str | None:
    """What keeps this position from going on, if anything (``State::stuck``): the setup still to come cannot be
    carried out, or the seat to act has nothing to do. Asked of a whole position, not of a seat's knowledge."""
    n, hand_size = rules.players, rules.hand_size
    hands_to_come = st.phase == HANDS or HANDS in st.setup_queue
    # Hands dealt at random, or chosen in a phase still queued, are dealt from nothing yet held.
    dealt_whole = HANDS in st.setup_queue or st.phase == HANDS and rules.setup.hands == "random"
    holding = next((k for k in range(n) if dealt_whole and st.hands[k]), None)
    if holding is not None:
        return f"seat {holding} holds a hand before its hand is chosen"
    if hands_to_come:
        short = next((k for k in range(n) if len(st.pools[k]) + len(st.hands[k]) < hand_size), None)
        if short is not None:
            return (f"seat {short} has {len(st.pools[short]) + len(st.hands[short])} tiles to choose a hand of "
                    f"{hand_size} from")
    figures_to_come = st.phase == FIGURES or FIGURES in st.setup_queue
    if figures_to_come and rules.setup.figures_must_fit:
        # Every subset of castes has room for its figures in the supply (``setup_rules.figures_fit``).
        unfit = next((subset for subset in range(1, 8)
                      if sum(st.supply[c] for c in range(3) if subset >> c & 1) > st.cut[subset]), None)
        if unfit is not None:
            return f"the supply {st.supply} does not fit the free slots (cut[{unfit}] is {st.cut[unfit]})"
    seat = st.current
    if st.phase == HANDS:
        idle = not st.pools[seat] or len(st.hands[seat]) >= hand_size
    elif st.phase == FIGURES:
        idle = not figure_placements(rules, st)
    elif st.phase == PLAY:
        idle = st.played == 0 and not can_play(rules, st, seat)
    else:
        idle = False
    return f"seat {seat} is to act in phase {st.phase} but has nothing to do" if idle else None

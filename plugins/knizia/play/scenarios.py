"""Scenarios: a hand-written position to start a game from.

A scenario file (TOML) describes the play phase at some turn::

    edition = "ffg2015"        # optional: an installed edition's id (a manifest must be vouched for)
    players = 2
    map = "tiny"               # optional: a bundled map, or a map file beside this one
    to_act = 0                 # the seat to play (the next seat that can, if it cannot)
    turn = 5                   # optional, default 1

    [figures]                  # the castes still standing, by settlement name; others are empty
    Kita = ["castle"]
    Machi = ["buddha", "rice"]

    [[tiles]]                  # tiles on the board (placed on earlier turns)
    at = [2, 1]
    tile = "castle-4"
    owner = 0

    [[seats]]                  # one table per seat, seat 0 first
    hand = ["samurai-1", "ship-2", "ronin", "move", "rice-3"]
    stack = ["rice-2"]         # optional: by default every tile of the seat not in hand or on the board
    captured = { castle = 1 }  # optional

    [removed]                  # optional: figures removed by ties
    buddha = 1

Every value is checked against the edition and map, with the file and the
field in the message: unknown names, tiles on the wrong terrain or on a
settlement, more copies of a tile than a seat owns, a hand over the hand
size, more figures than the edition has, a surrounded settlement that still
holds figures, or a position that is already over: its end is triggered,
or no seat can play a tile from its hand (the game would end before its
first action).

The position must also be one that can arise in play under the edition:
every figure of the edition is on the board, captured or removed (none is
left in the supply once play begins); a settlement holds all its figures
until it is surrounded, then none (when the edition's figures fill every
slot, as the published editions' do); and a hand holds its full size while
its stack has tiles (hands are refilled at the end of each turn). An edition
whose setup may leave figures out (``SetupProcedure.figures_must_fit``
False) is spared the first two.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from samurai.errors import DataError
from samurai.files.reading import (
    INT_HIGH,
    INT_LOW,
    check_keys,
    check_plain,
    field_line,
    key_line,
    read_toml,
    require,
    whole_number,
)
from samurai_plugins.knizia.core.maps import LAND
from samurai_plugins.knizia.core.state import OVER, State
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import LAND_TILE, SEA_TILE, Rules
from samurai_plugins.knizia.engine import reference as engine

__all__ = ["Scenario", "SeatSetup", "PlacedTile", "load_scenario", "parse_scenario", "scenario_state"]

_TOP_KEYS = {"edition", "players", "map", "to_act", "turn", "figures", "tiles", "seats", "removed"}
_TILE_KEYS = {"at", "tile", "owner"}
_SEAT_KEYS = {"hand", "stack", "captured"}


@attrs.frozen
class PlacedTile:
    """A tile on the board: where, which, whose."""

    at: tuple[int, int]
    tile: str
    owner: int


@attrs.frozen
class SeatSetup:
    """One seat's tiles and captures; ``stack`` None means "every other tile of the seat"."""

    hand: tuple[str, ...]
    stack: tuple[str, ...] | None
    captured: Mapping[str, int]


@attrs.frozen
class Scenario:
    """A validated scenario file (names checked; the fit to an edition is checked by ``scenario_state``)."""

    source: str
    data: Mapping[str, Any]
    """The file's data, as stored in the records of games started from it."""
    edition: str | None
    players: int
    map: str | None
    to_act: int
    turn: int
    figures: Mapping[str, tuple[str, ...]]
    tiles: tuple[PlacedTile, ...]
    seats: tuple[SeatSetup, ...]
    removed: Mapping[str, int]
    text: str = attrs.field(default="", repr=False, eq=False)
    """The file's text, to give line numbers in messages."""


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file."""
    data, text = read_toml(path)
    try:
        scenario = parse_scenario(data, source=str(path), text=text)
    except DataError as exc:
        raise _located(exc, text) from None
    # An edition or map path in the file stays as written: it is relative to the file's folder and used only
    # as ``samurai.catalog.trust`` allows (new_game resolves it).
    return attrs.evolve(scenario, text=text)


def _located(exc: DataError, text: str) -> DataError:
    """``exc`` with the line of its field, when it has none yet."""
    if exc.line is not None or exc.key is None:
        return exc
    return DataError(exc.message, source=exc.source, line=field_line(text, exc.key), key=exc.key)


def parse_scenario(data: Mapping[str, Any], *, source: str = "scenario", text: str = "") -> Scenario:
    """Check a scenario's data (from a file or a record) into a ``Scenario``."""
    where = "the scenario"
    if not isinstance(data, Mapping):
        raise DataError(f"a scenario is a table of fields, not {type(data).__name__}", source=source)
    check_plain(data, source=source)
    check_keys(data, _TOP_KEYS, source=source, where=where, text=text)
    players = _whole(data, "players", 1, INT_HIGH, source, text)
    figures = require(data, "figures", dict, source=source, where=where, text=text, default={})
    standing = {name: _castes(castes, source, f"figures.{name}") for name, castes in figures.items()}
    tiles = []
    for number, entry in enumerate(require(data, "tiles", list, source=source, where=where, text=text, default=[])):
        field = f"tiles[{number}]"
        if not isinstance(entry, dict):
            raise DataError(f"{field} must be a table with at, tile and owner", source=source, key=field)
        check_keys(entry, _TILE_KEYS, source=source, where=field)
        at = require(entry, "at", list, source=source, where=field)
        if len(at) != 2:
            raise DataError(f"{field}.at must be [col, row] in whole numbers, not {at!r:.60}", source=source,
                            key=f"{field}.at")
        col, row = (whole_number(v, f"{field}.at", INT_LOW, INT_HIGH, source=source) for v in at)
        tiles.append(PlacedTile((col, row), require(entry, "tile", str, source=source, where=field),
                                _whole(entry, "owner", 0, INT_HIGH, source, "", where=field)))
    seats = []
    for number, entry in enumerate(require(data, "seats", list, source=source, where=where, text=text)):
        field = f"seats[{number}]"
        if not isinstance(entry, dict):
            raise DataError(f"{field} must be a table with hand, stack and captured", source=source, key=field)
        check_keys(entry, _SEAT_KEYS, source=source, where=field)
        hand = _names(require(entry, "hand", list, source=source, where=field), source, f"{field}.hand")
        stack = entry.get("stack")
        stack = None if stack is None else _names(require(entry, "stack", list, source=source, where=field), source,
                                                  f"{field}.stack")
        captured = _counts(require(entry, "captured", dict, source=source, where=field, default={}), source,
                           f"{field}.captured")
        seats.append(SeatSetup(hand, stack, captured))
    if len(seats) != players:
        raise DataError(f"{len(seats)} [[seats]] tables for {players} players: give one per seat", source=source,
                        line=key_line(text, "players"), key="seats")
    return Scenario(
        source=source, data=dict(data),
        edition=require(data, "edition", str, source=source, where=where, text=text, default=None),
        players=players,
        map=require(data, "map", str, source=source, where=where, text=text, default=None),
        to_act=_whole(data, "to_act", 0, INT_HIGH, source, text),
        turn=_whole(data, "turn", 1, INT_HIGH, source, text, default=1),
        figures=standing,
        tiles=tuple(tiles), seats=tuple(seats),
        removed=_counts(require(data, "removed", dict, source=source, where=where, text=text, default={}), source,
                        "removed"))


def _whole(table: Mapping[str, Any], key: str, low: int, high: int, source: str, text: str, *, where: str = "",
           default: int | None = None) -> int:
    """The whole number ``table[key]`` (``default`` when missing, if given), from ``low`` to ``high``."""
    field = f"{where}.{key}" if where else key
    if key not in table:
        if default is None:
            raise DataError(f"missing key {key!r} in {where or 'the scenario'}", source=source, key=field)
        return default
    return whole_number(table[key], field, low, high, source=source, text=text or None)


def _castes(value: Any, source: str, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise DataError(f"{field} must be a list of castes", source=source, key=field)
    for caste in value:
        if caste not in CASTES:
            raise DataError(f"unknown caste {caste!r}; castes are {', '.join(CASTES)}", source=source, key=field)
    if len(set(value)) != len(value):
        raise DataError("a settlement never holds two figures of one caste", source=source, key=field)
    return tuple(value)


def _names(value: list[Any], source: str, field: str) -> tuple[str, ...]:
    if not all(isinstance(v, str) for v in value):
        raise DataError(f"{field} must be a list of tile names", source=source, key=field)
    return tuple(value)


def _counts(value: Mapping[str, Any], source: str, field: str) -> dict[str, int]:
    for caste, count in value.items():
        if caste not in CASTES:
            raise DataError(f"unknown caste {caste!r}; castes are {', '.join(CASTES)}", source=source,
                            key=f"{field}.{caste}")
        whole_number(count, f"{field}.{caste}", 0, INT_HIGH, source=source)
    return {caste: int(value.get(caste, 0)) for caste in CASTES}


def scenario_state(rules: Rules, scenario: Scenario, seed: int, *, trace: bool = False) -> State:
    """The play-phase position a scenario describes, for ``rules``, drawing from stacks with ``seed``.

    ``trace`` keeps the event log, as ``samurai_plugins.knizia.engine.reference.new_state`` does.
    """
    try:
        return _scenario_state(rules, scenario, seed, trace)
    except DataError as exc:
        raise _located(exc, scenario.text) from None


def _scenario_state(rules: Rules, scenario: Scenario, seed: int, trace: bool) -> State:
    source = scenario.source
    board = rules.board
    n = rules.players
    if scenario.players != n:
        raise DataError(f"the scenario is for {scenario.players} players, not {n}", source=source, key="players")
    if not 0 <= scenario.to_act < n:
        raise DataError(f"to_act {scenario.to_act} is not a seat of a {n}-player game", source=source, key="to_act")
    if scenario.turn < 1:
        raise DataError(f"turn must be at least 1, not {scenario.turn}", source=source, key="turn")
    st = rules.template.copy()
    st.rng = random.Random(seed)
    st.events = [] if trace else None
    st.pools = [[] for _ in range(n)]
    st.figures = [0] * len(board.settlements)
    st.on_board = [0, 0, 0]
    names = {s.name: i for i, s in enumerate(board.settlements)}
    for name, castes in scenario.figures.items():
        if name not in names:
            raise DataError(f"no settlement named {name!r} on map {board.map.name!r} with these pieces; settlements "
                            f"are {', '.join(names)}", source=source, key=f"figures.{name}")
        number = names[name]
        if len(castes) > rules.capacities[number]:
            room = rules.capacities[number]
            raise DataError(f"{name} is a {board.settlements[number].kind} with room for {room} "
                            f"figure{'s' if room > 1 else ''}, not {len(castes)}", source=source, key=f"figures.{name}")
        for caste in castes:
            st.figures[number] |= 1 << CASTES.index(caste)
            st.on_board[CASTES.index(caste)] += 1
    _check_full_or_empty(rules, st, source)
    owned = Counter(rules.tile_name(t) for t in rules.player_tiles)
    used: list[Counter[str]] = [Counter() for _ in range(n)]
    st.turn = 0  # tiles of a scenario were placed on earlier turns (the Move tile may move them)
    occupied: set[int] = set()
    for number, placed in enumerate(scenario.tiles):
        field = f"tiles[{number}]"
        tile = _tile(rules, placed.tile, source, f"{field}.tile")
        h = board.index.get(placed.at)
        if h is None:
            raise DataError(f"hex {list(placed.at)} is not on the board", source=source, key=f"{field}.at")
        if board.settlement_at[h] >= 0:
            raise DataError(f"hex {list(placed.at)} is a settlement: settlements never hold tiles", source=source,
                            key=f"{field}.at")
        if h in occupied:
            raise DataError(f"hex {list(placed.at)} already holds a tile", source=source, key=f"{field}.at")
        wanted = LAND_TILE if board.terrain[h] == LAND else SEA_TILE
        if rules.tile_on[tile] != wanted:
            place = {LAND_TILE: "empty land", SEA_TILE: "empty sea"}.get(rules.tile_on[tile], "nowhere on the board")
            raise DataError(f"{placed.tile} goes on {place}, and {list(placed.at)} is "
                            f"{'land' if wanted == LAND_TILE else 'sea'}", source=source, key=f"{field}.at")
        if not 0 <= placed.owner < n:
            raise DataError(f"owner {placed.owner} is not a seat", source=source, key=f"{field}.owner")
        occupied.add(h)
        used[placed.owner][placed.tile] += 1
        engine.put_tile(rules, st, placed.owner, tile, h)
    for number, settlement in enumerate(board.settlements):
        if st.empty_around[number] == 0 and st.figures[number]:
            raise DataError(f"{settlement.name} is surrounded (every land hex around it holds a tile) but still "
                            f"holds figures: resolve it in the scenario", source=source,
                            key=f"figures.{settlement.name}")
    st.pending = []
    for seat, setup in enumerate(scenario.seats):
        field = f"seats[{seat}]"
        if len(setup.hand) > rules.hand_size:
            raise DataError(f"a hand holds at most {rules.hand_size} tiles, not {len(setup.hand)}", source=source,
                            key=f"{field}.hand")
        st.hands[seat] = [_tile(rules, t, source, f"{field}.hand") for t in setup.hand]
        used[seat].update(setup.hand)
        if setup.stack is not None:
            st.stacks[seat] = [_tile(rules, t, source, f"{field}.stack") for t in setup.stack]
            used[seat].update(setup.stack)
        for name, count in used[seat].items():
            if count > owned[name]:
                raise DataError(f"seat {seat} has {count} {name} tiles in hand, stack and on the board, but owns "
                                f"{owned[name]}", source=source, key=field)
        if setup.stack is None:
            rest = owned - used[seat]
            st.stacks[seat] = [rules.tile_index[name] for name in sorted(rest.elements())]
            used[seat].update(rest)
        if len(st.hands[seat]) < rules.hand_size and st.stacks[seat]:
            raise DataError(f"seat {seat} holds {len(st.hands[seat])} tiles with {len(st.stacks[seat])} in its stack: "
                            f"a hand is refilled to {rules.hand_size} tiles at the end of every turn while its stack "
                            f"has tiles", source=source, key=f"{field}.hand")
        st.spent[seat] = sum(owned.values()) - sum(used[seat].values())
        for c, caste in enumerate(CASTES):
            st.captured[seat * 3 + c] = setup.captured[caste]
    for c, caste in enumerate(CASTES):
        st.removed[c] = scenario.removed[caste]
        captured = sum(st.captured[seat * 3 + c] for seat in range(n))
        st.supply[c] = rules.figures_per_caste - st.on_board[c] - captured - st.removed[c]
        if st.supply[c] < 0:
            raise DataError(f"{st.on_board[c]} {caste} figures on the board, {captured} captured and "
                            f"{st.removed[c]} removed: more than the {rules.figures_per_caste} of the edition",
                            source=source, key="figures")
        if st.supply[c] > 0 and rules.setup.figures_must_fit:
            raise DataError(f"{st.on_board[c]} {caste} figures on the board, {captured} captured and "
                            f"{st.removed[c]} removed: {st.supply[c]} short of the {rules.figures_per_caste} of the "
                            f"edition; in play every figure is on the board, captured or removed", source=source,
                            key="figures")
    st.removed_total = sum(st.removed)
    st.setup_queue = []
    reason = engine.end_trigger(rules, st)
    if reason is not None:
        raise DataError(f"the position is already over ({reason.replace('_', ' ')}): nothing is left to play",
                        source=source, key="figures" if reason == "caste_exhausted" else "removed")
    engine.begin_play(rules, st, scenario.to_act, turn=scenario.turn)
    if st.phase == OVER:  # no seat can play a tile (or the seat to act cannot, where the edition ends then)
        who = "no seat" if rules.pass_when_unable else f"seat {scenario.to_act}, the seat to act,"
        raise DataError(f"the position is already over (no tiles): {who} can play a tile from its hand, so the game "
                        f"would end before its first action", source=source, key="seats")
    return st


def _check_full_or_empty(rules: Rules, st: State, source: str) -> None:
    """A settlement holds all its figures until it is surrounded, then none (Switch keeps the count).

    This holds when the setup fills every slot: the edition's figures fill
    the slots exactly and the setup ruling keeps every figure placeable.
    """
    takes = [rules.stage_of[s] >= 0 or s in rules.prefilled for s in range(len(rules.capacities))]
    slots = sum(capacity for capacity, taken in zip(rules.capacities, takes, strict=True) if taken)
    if not rules.setup.figures_must_fit or slots != 3 * rules.figures_per_caste:
        return
    for number, settlement in enumerate(rules.board.settlements):
        held = bin(st.figures[number]).count("1")
        room = rules.capacities[number] if takes[number] else 0
        if held and held != room:
            if not room:
                message = f"{settlement.name} never takes figures under edition {rules.edition.id!r}"
            else:
                message = (f"{settlement.name} is a {settlement.kind} of {room} figures and holds {held}: a settlement "
                           f"keeps all its figures until it is surrounded, then none")
            raise DataError(message, source=source, key=f"figures.{settlement.name}")


def _tile(rules: Rules, name: str, source: str, field: str) -> int:
    tile = rules.tile_index.get(name)
    if tile is None:
        raise DataError(f"unknown tile {name!r}; tiles are {', '.join(rules.tile_index)}", source=source, key=field)
    return tile


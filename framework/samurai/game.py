"""The friendly face: ``new_game``, ``Game``, ``score``.

A ``Game`` wraps the fast ``State`` and the compiled ``Rules``; it speaks in
``Action`` values and coordinates, checks every action before it touches the
state, and keeps the list of actions played. Bots and simulations that need
speed use ``game.rules`` and ``game.state`` with ``samurai.engine`` directly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import itemgetter
from pathlib import Path
from typing import Any, cast

from . import engine
from .actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
from .errors import DataError, IllegalAction
from .hexgrid import Coord
from .maps import GameMap
from .plugins import Edition, load_edition
from .result import Result
from .rules import Rules
from .scenarios import Scenario, load_scenario, parse_scenario, scenario_state
from .state import EMPTY, OVER, PHASE_NAMES, State
from .tiles import CASTES
from .views import seat_view

__all__ = ["Game", "new_game", "score", "edition_of", "action_of", "describe_event"]


class Game:
    """One game of Samurai: whose turn it is, what may be done, and doing it."""

    def __init__(self, rules: Rules, seed: int, *, trace: bool = True, map_name: str | None = None,
                 scenario: Scenario | None = None) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise DataError(f"seed must be a whole number, not {seed!r}", source="seed")
        self.rules = rules
        self.seed = seed
        self.map_name = map_name
        """The map as given to ``new_game`` (a bundled name or a path); None for the edition's own."""
        self.scenario = scenario
        """The scenario the game started from, if any."""
        if scenario is None:
            self.state: State = engine.new_state(rules, seed, trace=trace)
        else:
            self.state = scenario_state(rules, scenario, seed, trace=trace)
        self._history: list[Action] = []

    @property
    def edition(self) -> str:
        """The edition's id."""
        return self.rules.edition.id

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def current_player(self) -> int | None:
        """The seat to act (0..players-1), or None when the game is over."""
        return None if self.state.current == EMPTY else self.state.current

    @property
    def phase(self) -> str:
        """``"choose_hands"``, ``"place_figures"``, ``"play"`` or ``"over"``."""
        return PHASE_NAMES[self.state.phase]

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.phase == OVER

    @property
    def result(self) -> Result | None:
        """None until the game is over; then who won, why, and how it ended."""
        return self.state.result

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
        return tuple(self._history)

    @property
    def turn(self) -> int:
        """The turn number in the play phase (0 during setup)."""
        return self.state.turn

    def legal_actions(self) -> list[Action]:
        """Every legal action for the current player, sorted; empty when the game is over."""
        rules = self.rules
        tile_types, coords, behaviours = rules.tile_types, rules.board.coords, rules.behaviours
        keyed: list[tuple[tuple[str, tuple[Any, ...]], Action]] = []
        for internal in engine.legal_actions(rules, self.state):
            if internal[0] == engine.PLACE:  # most of the list: built and keyed here, as _sort_key would
                tile, at = tile_types[internal[1]].name, coords[internal[2]]
                keyed.append((("PlaceTile", (tile, at)), _place_tile(tile, at)))
            elif internal[0] == engine.SPECIAL:
                action = behaviours[internal[1]].to_action(rules, internal[1], internal[2:])  # type: ignore[union-attr]
                keyed.append((action._sort_key(), action))
            else:
                action = action_of(rules, internal)
                keyed.append((action._sort_key(), action))
        keyed.sort(key=_FIRST)  # one key per action; the actions' own comparison would rebuild it per pair
        return [action for _, action in keyed]

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player.

        Raises ``IllegalAction`` (a ``ValueError``) saying why when the rules
        forbid it; the game is then exactly as it was.
        """
        internal = self.to_internal(action)
        reason = engine.check(self.rules, self.state, internal)
        if reason is not None:
            raise IllegalAction(f"{action!r} is illegal: {reason}")
        engine.apply(self.rules, self.state, internal)
        self._history.append(action)

    def view(self, seat: int) -> dict[str, Any]:
        """A JSON-ready dict of what ``seat`` may know, and nothing more (see ``samurai.views``)."""
        return seat_view(self.rules, self.state, seat)

    def copy(self, *, rng: random.Random | None = None) -> Game:
        """An independent copy that continues exactly as this game would (see ``State.copy`` for ``rng``)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other.map_name = self.map_name
        other.scenario = self.scenario
        other.state = self.state.copy(rng=rng)
        other._history = list(self._history)
        return other

    def events(self) -> list[dict[str, Any]]:
        """What happened so far beyond the actions, as JSON-ready dicts: captures,
        removals, refills, passes and the end.

        This is the full record, hidden captures included; show a player their
        ``view`` instead. Empty when the game was started with ``trace=False``.
        """
        return [describe_event(self.rules, event) for event in self.state.events or []]

    def to_internal(self, action: Any) -> tuple[int, ...]:
        """The engine's tuple for a friendly action; ``IllegalAction`` for unknown tiles, hexes or kinds."""
        rules = self.rules
        if isinstance(action, EndTurn):
            return (engine.END,)
        if isinstance(action, PlaceTile):
            return engine.PLACE, self._tile(action.tile), self._hex(action.at)
        if isinstance(action, ChooseTile):
            return engine.CHOOSE, self._tile(action.tile)
        if isinstance(action, PlaceFigure):
            if action.caste not in CASTES:
                raise IllegalAction(f"unknown caste {action.caste!r}; castes are {', '.join(CASTES)}")
            settlement = rules.board.settlement_at[self._hex(action.at)]
            if settlement < 0:
                raise IllegalAction(f"hex {action.at} is not a settlement")
            return engine.FIGURE, CASTES.index(action.caste), settlement
        hand = self.state.hands[self.state.current] if self.state.current != EMPTY else []
        # By class name too: a plugin file loaded twice (two editions, or a record read apart from its
        # game) defines two classes of one name for the same action.
        kind = type(action)
        special = [t for t, b in enumerate(rules.behaviours)
                   if b is not None and (b.action_type is kind or b.action_type.__name__ == kind.__name__)]
        if special:
            tile = next((t for t in special if t in hand), special[0])
            return (engine.SPECIAL, tile, *rules.behaviours[tile].from_action(rules, action))  # type: ignore[union-attr]
        raise IllegalAction(f"{action!r} is not an action of edition {self.edition!r}")

    def to_action(self, internal: tuple[int, ...]) -> Action:
        """The friendly action for an engine tuple."""
        return action_of(self.rules, internal)

    def _tile(self, name: Any) -> int:
        tile = self.rules.tile_index.get(name) if isinstance(name, str) else None
        if tile is None:
            raise IllegalAction(f"unknown tile {name!r}; tiles are {', '.join(self.rules.tile_index)}")
        return tile

    def _hex(self, coord: Any) -> int:
        h = self.rules.board.index.get(coord)
        if h is None:
            raise IllegalAction(f"hex {coord!r} is not on this board")
        return h

    def __repr__(self) -> str:
        return f"<Game {self.edition} players={self.players} seed={self.seed} phase={self.phase} turn={self.turn}>"


_FIRST = itemgetter(0)


_new_action = object.__new__
_set_field = object.__setattr__


def _place_tile(tile: str, at: Coord) -> PlaceTile:
    """A ``PlaceTile`` of a known tile name and board coordinate, without the converter's checks."""
    action = _new_action(PlaceTile)
    _set_field(action, "tile", tile)
    _set_field(action, "at", at)
    return action


def action_of(rules: Rules, internal: tuple[int, ...]) -> Action:
    """The friendly action for an engine tuple under ``rules``."""
    kind = internal[0]
    if kind == engine.PLACE:
        return _place_tile(rules.tile_name(internal[1]), rules.board.coords[internal[2]])
    if kind == engine.END:
        return EndTurn()
    if kind == engine.CHOOSE:
        return ChooseTile(rules.tile_name(internal[1]))
    if kind == engine.FIGURE:
        return PlaceFigure(CASTES[internal[1]], rules.board.settlements[internal[2]].at)
    behaviour = rules.behaviours[internal[1]]
    return behaviour.to_action(rules, internal[1], internal[2:])  # type: ignore[union-attr]


def describe_event(rules: Rules, event: tuple[Any, ...]) -> dict[str, Any]:
    """An engine event tuple as a JSON-ready dict with names instead of numbers."""
    kind = event[0]
    if kind in ("capture", "remove"):
        settlement = rules.board.settlements[event[1]]
        out = {"event": kind, "settlement": settlement.name, "at": list(settlement.at), "caste": CASTES[event[2]]}
        if kind == "capture":
            out["seat"] = event[3]
        out["influence"] = list(event[-1])
        return out
    if kind == "refill":
        return {"event": kind, "seat": event[1], "drawn": event[2]}
    if kind == "pass":
        return {"event": kind, "seat": event[1]}
    return {"event": kind, "reason": event[1]}


def edition_of(edition: str | Edition) -> Edition:
    """An ``Edition`` from an id or manifest path (an ``Edition`` is returned as is)."""
    return edition if isinstance(edition, Edition) else load_edition(edition)


def new_game(edition: str | Edition | None = None, players: int | None = None, seed: int = 0, *,
             options: Mapping[str, Any] | None = None, map: str | GameMap | None = None,
             scenario: str | Path | Mapping[str, Any] | None = None, trace: bool = True) -> Game:
    """Start a game: an edition (id, manifest path or loaded ``Edition``; default ffg2015), 2-4 players
    (default 4), a seed, options and an optional map.

    ``map`` is a bundled map name, a path to a map file, or a loaded map; by
    default the edition's own. ``scenario`` (a scenario file, or its data as
    a dict) starts from a hand-written position (see ``samurai.scenarios``);
    its edition, players and map apply unless given here, and must agree when
    both are. ``trace`` keeps an event log (``Game.events``).
    """
    setup = None
    if scenario is not None:
        setup = load_scenario(scenario) if isinstance(scenario, (str, Path)) else parse_scenario(scenario)
        if players is not None and players != setup.players:
            raise DataError(f"the scenario is for {setup.players} players, not {players}", source=setup.source,
                            key="players")
        players = setup.players
        edition = edition if edition is not None else setup.edition
        if map is None:
            map = setup.map
        elif setup.map is not None and map != setup.map:
            raise DataError(f"the scenario is on map {setup.map!r}, not {map!r}", source=setup.source, key="map")
    ed = edition_of(edition if edition is not None else "ffg2015")
    game_map = ed.map_named(map) if isinstance(map, str) else map
    map_name = map if isinstance(map, str) else game_map.source if game_map is not None else None
    return Game(ed.rules(4 if players is None else players, options, game_map), seed, trace=trace,
                map_name=map_name, scenario=setup)


def score(edition: str | Edition, captured: Mapping[Any, Mapping[str, int]]) -> Result:
    """Score captured figures ``{seat: {caste: count}}`` with the edition's rules."""
    ed = edition_of(edition)
    result = ed.plugin_manager.hook.samurai_score(edition=ed.manifest, captured=_checked_captures(captured),
                                                  options=ed.manifest.resolve_options(None))
    return cast(Result, result)


def _checked_captures(captured: Any) -> dict[int, dict[str, int]]:
    if not isinstance(captured, Mapping) or not captured:
        raise DataError("captured figures must be a non-empty mapping of seat to {caste: count}", source="captured")
    clean: dict[int, dict[str, int]] = {}
    for seat, figures in captured.items():
        if isinstance(seat, str) and seat.strip().isdigit():
            seat = int(seat)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise DataError(f"seat {seat!r} must be a whole number from 0", source="captured", key=str(seat))
        if not isinstance(figures, Mapping):
            raise DataError(f"seat {seat}: expected {{caste: count}}, got {figures!r}", source="captured",
                            key=str(seat))
        for caste, count in figures.items():
            if caste not in CASTES:
                raise DataError(f"seat {seat}: unknown caste {caste!r}; castes are {', '.join(CASTES)}",
                                source="captured", key=f"{seat}.{caste}")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise DataError(f"seat {seat}: {caste} count must be a whole number >= 0, not {count!r}",
                                source="captured", key=f"{seat}.{caste}")
        if seat in clean:
            raise DataError(f"seat {seat} is given twice", source="captured", key=str(seat))
        clean[seat] = {caste: int(figures.get(caste, 0)) for caste in CASTES}
    return dict(sorted(clean.items()))

"""The friendly face: ``new_game``, ``Game``, ``score``.

A ``Game`` wraps the fast ``State`` and the compiled ``Rules``; it speaks in
``Action`` values and coordinates, checks every action before it touches the
state, and keeps the list of actions played. Bots and simulations that need
speed use ``game.rules`` and ``game.state`` with ``samurai.engine`` directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import engine
from .actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
from .editions import EditionManifest
from .errors import DataError, IllegalAction
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
        return sorted(self.to_action(a) for a in engine.legal_actions(self.rules, self.state))

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

    def copy(self) -> Game:
        """An independent copy that continues exactly as this game would."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other.map_name = self.map_name
        other.scenario = self.scenario
        other.state = self.state.copy()
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


def action_of(rules: Rules, internal: tuple[int, ...]) -> Action:
    """The friendly action for an engine tuple under ``rules``."""
    kind = internal[0]
    if kind == engine.PLACE:
        return PlaceTile(rules.tile_name(internal[1]), rules.board.coords[internal[2]])
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
    """Score captured figures ``{seat: {caste: count}}`` with the edition's rules.

    The seats are numbered 0..n-1 for a player count the edition has (2 to 4
    for the bundled ones), each count a whole number >= 0; no seat holds more
    figures of a caste, and no caste more in all, than that player count has.
    A ``DataError`` names the seat and caste otherwise.
    """
    ed = edition_of(edition)
    checked = _checked_captures(captured, ed.manifest)
    return ed.rules(len(checked)).scorer(checked)  # the compiled scorer reports a failing scoring plugin


def _checked_captures(captured: Any, manifest: EditionManifest) -> dict[int, dict[str, int]]:
    """``captured`` as ``{seat: {caste: count}}`` for every seat and caste, or a ``DataError`` naming the field."""
    if not isinstance(captured, Mapping) or not captured:
        raise DataError("captured figures must be a non-empty mapping of seat to {caste: count}", source="captured")
    clean: dict[int, dict[str, int]] = {}
    for key, figures in captured.items():
        seat = _seat_number(key)
        if seat in clean:
            raise DataError(f"seat {seat} is given twice", source="captured", key=str(key))
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
        clean[seat] = {caste: int(figures.get(caste, 0)) for caste in CASTES}
    players = len(clean)
    if players not in manifest.players:
        counts = ", ".join(map(str, manifest.players))
        raise DataError(f"{players} seat{'s' if players != 1 else ''} given; edition {manifest.id!r} is for "
                        f"{counts} players", source="captured")
    missing = [seat for seat in range(players) if seat not in clean]
    if missing:
        raise DataError(f"seats must be numbered 0 to {players - 1}; seat {missing[0]} is missing and seat "
                        f"{max(clean)} is not one of a {players}-player game", source="captured", key=str(max(clean)))
    per_caste = manifest.players[players].figures_per_caste
    for caste in CASTES:
        for seat in range(players):
            if clean[seat][caste] > per_caste:
                raise DataError(f"seat {seat}: {clean[seat][caste]} {caste} figures, but a {players}-player game "
                                f"of {manifest.id!r} has only {per_caste} of each caste", source="captured",
                                key=f"{seat}.{caste}")
        total = sum(clean[seat][caste] for seat in range(players))
        if total > per_caste:
            raise DataError(f"{total} {caste} figures captured in all, but a {players}-player game of "
                            f"{manifest.id!r} has only {per_caste}", source="captured", key=caste)
    return dict(sorted(clean.items()))


def _seat_number(key: Any) -> int:
    """A seat from ``0`` or ``"0"``: plain ASCII digits only (no ``"٣"``, ``"+3"``, ``" 3"`` or ``"03"``)."""
    if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 4 and str(int(key)) == key:
        return int(key)
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < 1000:
        return key
    raise DataError(f"seat {key!r} must be a seat number 0, 1, 2 ...", source="captured", key=str(key))

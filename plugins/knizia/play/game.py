"""The friendly face: ``new_game``, ``Game``, ``score``.

A ``Game`` wraps the fast ``State`` and the compiled ``Rules``; it speaks in
``Action`` values and coordinates, checks every action before it touches the
state, and keeps the list of actions played. Bots and simulations that need
speed use ``game.rules`` and ``game.state`` with ``samurai_plugins.knizia.engine.reference`` directly.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from operator import itemgetter
from pathlib import Path
from typing import Any

import attrs

from samurai.catalog.editions import Edition, load_edition
from samurai.catalog.trust import Trust, TrustLike, names_edition
from samurai.errors import DataError, IllegalAction
from samurai.playing import check_caller, not_over, still_on
from samurai.seeds import MAX_SEED, check_seed
from samurai_plugins.knizia.core.actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
from samurai_plugins.knizia.core.hexgrid import Coord
from samurai_plugins.knizia.core.maps import GameMap
from samurai_plugins.knizia.core.result import Result
from samurai_plugins.knizia.core.state import EMPTY, OVER, PHASE_NAMES, State
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.manifest_keys import KniziaManifest
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.engine.backends import Engine, engine_for
from samurai_plugins.knizia.engine.edition import KniziaEdition, knizia_edition
from samurai_plugins.knizia.engine.special_tiles import tiles_played_by
from samurai_plugins.knizia.play.scenarios import Scenario, load_scenario, parse_scenario, scenario_state
from samurai_plugins.knizia.play.views import seat_view

__all__ = ["Game", "new_game", "score", "edition_of", "action_of", "describe_event", "check_seed", "MAX_SEED"]

class Game:
    """One game of Samurai: whose turn it is, what may be done, and doing it.

    A ``Game`` is not thread-safe: two threads applying actions to one game
    at the same time can corrupt it (a check and the change it allows are
    separate steps over several lists). A server that takes actions from
    several players holds one lock per game around ``apply``, passes the
    acting seat (``apply(action, seat=...)``) so that only the seat whose
    turn it is can act, and passes the ``version`` its client last saw
    (``apply(action, version=...)``) so that an action chosen on an older
    position is refused instead of played on a newer one.
    """

    def __init__(self, rules: Rules, seed: int, *, trace: bool = True, map_name: str | None = None,
                 scenario: Scenario | None = None, engine: str | Engine | None = None) -> None:
        check_seed(seed)
        self.engine: Engine = engine_for(rules, engine)
        """The engine that plays this game (``samurai_plugins.knizia.engine.backends``): Python or native,
        the same game."""
        self.rules = rules
        self.seed = seed
        self.map_name = map_name
        """The map as given to ``new_game`` (a bundled name or a path); None for the edition's own."""
        self.scenario = scenario
        """The scenario the game started from, if any."""
        if scenario is None:
            self.state: State = self.engine.new_state(rules, seed, trace=trace)
        else:
            self.state = self.engine.of_state(rules, scenario_state(rules, scenario, seed, trace=trace))
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
    def current_player(self) -> int:
        """The seat to act (0..players-1); ``SamuraiError`` once the game is over (ask ``is_over`` first)."""
        if self.state.phase == OVER or self.state.current == EMPTY:
            raise still_on()
        return self.state.current

    @property
    def phase(self) -> str:
        """``"choose_hands"``, ``"place_figures"``, ``"play"`` or ``"over"``."""
        return PHASE_NAMES[self.state.phase]

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.phase == OVER

    @property
    def result(self) -> Result:
        """Who won, why, and how the game ended, once it is over; ``SamuraiError`` before (ask ``is_over`` first)."""
        result = self.state.result
        if result is None:
            raise not_over()
        return result

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
        return tuple(self._history)

    @property
    def turn(self) -> int:
        """The turn number in the play phase (0 during setup)."""
        return self.state.turn

    @property
    def version(self) -> int:
        """How many actions have been applied (0 at the start, or at a scenario's position).

        It grows by one with every action ``apply`` accepts, so it names the
        position a player saw: pass it back as ``apply(action, version=...)``.
        """
        return len(self._history)

    def legal_actions(self) -> list[Action]:
        """Every legal action for the current player, sorted; empty when the game is over."""
        rules = self.rules
        tile_types, coords, behaviours = rules.tile_types, rules.board.coords, rules.behaviours
        keyed: list[tuple[tuple[str, tuple[Any, ...]], Action]] = []
        for internal in self.engine.legal_actions(rules, self.state):
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

    def apply(self, action: Action, *, seat: int | None = None, version: int | None = None) -> None:
        """Play ``action`` for the current player.

        Raises ``IllegalAction`` (a ``ValueError``) saying why when the rules
        forbid it; the game is then exactly as it was. The reason may name
        tiles of the current player's hand or unchosen tiles, so a caller
        who is not that player passes ``seat``: an action from a seat whose
        turn it is not is refused before anything else is looked at, with a
        message that tells only whose turn it is. ``version``, when given,
        must equal ``Game.version``; otherwise the action was chosen on an
        older position and is refused.
        """
        self._check_caller(seat, version)
        internal = self.to_internal(action)
        reason = self.engine.check(self.rules, self.state, internal)
        if reason is not None:
            raise IllegalAction(f"{action!r} is illegal: {reason}")
        self.engine.apply(self.rules, self.state, internal)
        self._history.append(action)

    def _check_caller(self, seat: Any, version: Any) -> None:
        """Refuse an action from a seat not to act, or chosen on another position (see ``apply``)."""
        to_act = None if self.state.phase == OVER else self.state.current
        check_caller(seat, version, players=self.players, to_act=to_act, version_now=self.version)

    def view(self, seat: int) -> dict[str, Any]:
        """A JSON-ready dict of what ``seat`` may know, and nothing more (see ``samurai_plugins.knizia.play.views``)."""
        return seat_view(self.rules, self.state, seat)

    def copy(self, *, rng: random.Random | None = None) -> Game:
        """An independent copy that continues exactly as this game would (see ``State.copy`` for ``rng``)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.seed = self.seed
        other.map_name = self.map_name
        other.scenario = self.scenario
        other.state = self.state.copy(rng=rng)
        other.engine = self.engine
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
        """The engine's tuple for a friendly action; ``IllegalAction`` for unknown tiles, hexes or kinds.

        Anything but an ``Action`` (a list, a dict, a look-alike class) is refused the same way, so a
        server applying what a client sent needs to catch ``IllegalAction`` alone.
        """
        rules = self.rules
        if not isinstance(action, Action) or not attrs.has(type(action)):
            kinds = ["ChooseTile", "PlaceFigure", "PlaceTile",
                     *dict.fromkeys(b.action_type.__name__ for b in rules.behaviours if b is not None)]
            raise IllegalAction(f"a {type(action).__name__} is not an action: apply takes {', '.join(kinds)} or "
                                f"EndTurn values")
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
        special = tiles_played_by(rules, type(action))
        if special:
            tile = next((t for t in special if t in hand), special[0])
            behaviour = rules.behaviours[tile]
            assert behaviour is not None
            try:
                return (engine.SPECIAL, tile, *behaviour.from_action(rules, action))
            except IllegalAction:
                raise
            except (AttributeError, TypeError, ValueError, KeyError, IndexError) as exc:
                # An action of another edition's class of the same name, with other fields.
                raise IllegalAction(f"{type(action).__name__} does not fit edition {self.edition!r}: {exc}") from None
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
        h = self.rules.board.index.get(coord) if isinstance(coord, tuple) else None
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


def edition_of(edition: str | Edition) -> KniziaEdition:
    """An edition of Knizia's game from an id or manifest path (a loaded one is returned as is); ``DataError`` for
    an edition of another game."""
    if isinstance(edition, Edition):
        return knizia_edition(edition)
    if not isinstance(edition, (str, os.PathLike)):
        raise TypeError(f"edition must be an edition id, a manifest path or an Edition, not "
                        f"{type(edition).__name__} {edition!r:.80}")
    return knizia_edition(load_edition(edition))


def new_game(edition: str | Edition | None = None, players: int | None = None, seed: int = 0, *,
             options: Mapping[str, Any] | None = None, map: str | GameMap | None = None,
             scenario: str | Path | Mapping[str, Any] | None = None, trace: bool = True,
             trust: TrustLike = (), engine: str | None = None) -> Game:
    """Start a game: an edition (id, manifest path or loaded ``Edition``; default ffg2015), 2-4 players
    (default 4), a seed (a whole number from 0), options and an optional map.

    ``map`` is a bundled map name, a path to a map file, or a loaded map; by
    default the edition's own. ``scenario`` (a scenario file, or its data as
    a dict) starts from a hand-written position (see ``samurai_plugins.knizia.play.scenarios``);
    its edition, players and map apply unless given here, and must agree when
    both are. A scenario is data: the edition it names must be installed, or
    given here, or its manifest vouched for in ``trust``; the map it names is a
    bundled one or a map file beside the scenario file (or vouched for in
    ``trust``; see ``samurai.catalog.trust``). ``trace`` keeps an event log
    (``Game.events``). ``engine`` is ``"python"``, ``"native"`` or ``"auto"`` (default: ``SAMURAI_ENGINE``, else
    auto; see ``samurai_plugins.knizia.engine.backends``): the same game on either.
    """
    vouched = Trust.of(trust)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise DataError(f"players must be a whole number, not {type(players).__name__} {players!r:.40}",
                        source="players")
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a mapping of option name to value, not {type(options).__name__}")
    if map is not None and not isinstance(map, (str, GameMap)):
        raise TypeError(f"map must be a bundled map's name, a map file's path or a GameMap, not {type(map).__name__}")
    check_seed(seed)
    ed = None if edition is None else edition_of(edition)
    setup = None
    map_asked_by = "map"  # the field that named the map, for the message when it does not fit the edition
    if scenario is not None:
        folder = None
        if isinstance(scenario, (str, os.PathLike)):
            setup, folder = load_scenario(scenario), Path(scenario).parent
        elif isinstance(scenario, Mapping):
            setup = parse_scenario(scenario)
        else:
            raise TypeError(f"scenario must be a scenario file's path or its data as a dict, not "
                            f"{type(scenario).__name__}")
        if players is not None and players != setup.players:
            raise DataError(f"the scenario is for {setup.players} players, not {players}", source=setup.source,
                            key="players")
        players = setup.players
        if ed is None and setup.edition is not None:
            ed = knizia_edition(vouched.edition(setup.edition, source=setup.source, key="edition", folder=folder))
        elif ed is not None and setup.edition is not None and not names_edition(setup.edition, ed, folder):
            raise DataError(f"the scenario is a position of edition {setup.edition!r}, not {ed.id!r}: a scenario "
                            f"is played only under its own edition", source=setup.source, key="edition")
        if ed is None:
            ed = edition_of("ffg2015")
        if setup.map is not None:
            named = vouched.game_map(setup.map, ed, source=setup.source, key="map", folder=folder)
            if map is None:
                map, map_asked_by = named, setup.source
            elif not _same_map(map, named, ed):
                given = map if isinstance(map, str) else map.name
                raise DataError(f"the scenario is on map {setup.map!r}, not {given!r}", source=setup.source, key="map")
        # The game's record carries the edition and map in its own fields; paths in the scenario were
        # relative to its file, which the record does not keep.
        setup = attrs.evolve(setup, edition=None, map=None,
                             data={k: v for k, v in setup.data.items() if k not in ("edition", "map")})
    ed = ed if ed is not None else edition_of("ffg2015")
    game_map = ed.map_named(map) if isinstance(map, str) else map
    map_name = map if isinstance(map, str) and not map.endswith(".toml") \
        else game_map.source if game_map is not None else None
    try:
        rules = ed.rules(4 if players is None else players, options, game_map)
    except DataError as exc:
        if game_map is None or exc.source != game_map.source:
            raise
        raise DataError(f"edition {ed.id!r} does not fit map {game_map.name!r}: {exc.message}", source=map_asked_by,
                        key="map") from None
    return Game(rules, seed, trace=trace, map_name=map_name, scenario=setup, engine=engine)


def _same_map(given: str | GameMap, named: str | GameMap, edition: KniziaEdition) -> bool:
    """Whether the map given to ``new_game`` is the one the scenario names."""
    first = edition.map_named(given) if isinstance(given, str) else given
    second = edition.map_named(named) if isinstance(named, str) else named
    if first is second:
        return True
    try:
        return Path(first.source).resolve() == Path(second.source).resolve()
    except (OSError, RuntimeError):
        return False


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


def _checked_captures(captured: Any, manifest: KniziaManifest) -> dict[int, dict[str, int]]:
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

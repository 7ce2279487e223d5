"""Compiling an edition into ``Rules``: every decision made once, before play.

``compile_rules`` asks the edition's hooks (setup procedure, timings, public
captures, tile behaviours), numbers the tile types, builds the board for the
player count and precomputes the tables the engine reads. The engine then
runs on plain attribute and list lookups: no hook call inside a playout
except the single scoring call when a game ends.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

from samurai.errors import DataError
from samurai.hooks.calls import PLUGIN_FAILURES, call_hook, hook_failure, refused_hook_result
from samurai_plugins.knizia.core.actions import Action
from samurai_plugins.knizia.core.maps import Board, GameMap, build_board
from samurai_plugins.knizia.core.result import END_REASONS, Result
from samurai_plugins.knizia.core.state import EMPTY, UNSEEDED, State
from samurai_plugins.knizia.core.tiles import CASTES, TileType
from samurai_plugins.knizia.editions.hook_results import KNIZIA_HOOK_RESULTS, score_problem
from samurai_plugins.knizia.editions.manifest_keys import KniziaManifest
from samurai_plugins.knizia.editions.native_scoring import claimed_scoring
from samurai_plugins.knizia.editions.setup import CUT_CONTRIBUTION, SETUP_PHASES, SetupProcedure, figures_fit

if TYPE_CHECKING:
    from samurai.files.svg import Svg

__all__ = ["Rules", "TileBehaviour", "Click", "TileClicks", "compile_rules", "initial_state", "LAND_TILE", "SEA_TILE",
           "SPECIAL_TILE"]

LAND_TILE, SEA_TILE, SPECIAL_TILE = 0, 1, 2


class Rules:
    """An edition compiled for one player count, options and map. Read-only, shared by many games."""

    __slots__ = ("edition", "players", "options", "board", "tile_types", "tile_index", "tile_value",
                 "tile_fast", "tile_on", "tile_movable", "behaviours", "special_tiles", "player_tiles", "hand_size",
                 "figures_per_caste", "setup", "figure_stages", "stage_of", "capacities", "prefilled",
                 "resolve_each_tile", "end_immediate", "pass_when_unable", "removed_limit", "public_captures",
                 "settlement_neighbours", "scorer", "template", "reference", "native_scoring", "native")

    edition: KniziaManifest
    players: int
    options: Mapping[str, Any]
    board: Board
    tile_types: tuple[TileType, ...]
    tile_index: dict[str, int]
    tile_value: tuple[int, ...]
    """Influence of tile type t on caste c at ``t * 3 + c``."""
    tile_fast: tuple[bool, ...]
    tile_on: tuple[int, ...]
    tile_movable: tuple[bool, ...]
    behaviours: tuple[TileBehaviour | None, ...]
    special_tiles: frozenset[int]
    """The tile types played through a behaviour (those with a ``behaviours`` entry)."""
    player_tiles: tuple[int, ...]
    hand_size: int
    figures_per_caste: int
    setup: SetupProcedure
    figure_stages: tuple[tuple[int, ...], ...]
    stage_of: tuple[int, ...]
    capacities: tuple[int, ...]
    prefilled: tuple[int, ...]
    resolve_each_tile: bool
    end_immediate: bool
    pass_when_unable: bool
    """A seat that cannot play passes (True), or the game ends then (hook ``samurai_cannot_play``)."""
    removed_limit: int
    public_captures: bool
    settlement_neighbours: tuple[tuple[int, ...], ...]
    scorer: Callable[[Mapping[int, Mapping[str, int]]], Result]
    template: State
    """The starting position every new game copies."""
    reference: str
    """How game records name the edition (set by ``Edition.rules``: an installed id or a manifest path)."""
    native_scoring: str
    """The scoring the native engine decides these games by (``samurai_plugins.knizia.editions.native_scoring``), or
    ``"python"``: the edition's scoring hook is asked at the end of every game."""
    native: Any
    """The native engine's tables of these rules, made when a game first asks for them
    (``samurai_plugins.knizia.engine.backends``); None until then."""

    def score(self, captured: list[int]) -> Result:
        """Ask the edition's scoring hook about the flat ``captured`` counts."""
        buddha, rice, castle = CASTES
        by_seat = {}  # a loop, not a comprehension: every playout scores once
        for seat in range(self.players):
            i = 3 * seat
            by_seat[seat] = {buddha: captured[i], rice: captured[i + 1], castle: captured[i + 2]}
        return self.scorer(by_seat)

    def tile_name(self, tile: int) -> str:
        """The name of tile type ``tile``."""
        return self.tile_types[tile].name

    # Rules are read-only and shared by every game under them: a deep copy of a position (as
    # OpenSpiel's Python games make) copies the position, not its rules.
    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self


def compile_rules(manifest: KniziaManifest, hook: Any, game_map: GameMap, players: int,
                  options: Mapping[str, Any]) -> Rules:
    """Ask the hooks and build the tables for a game of ``players`` on ``game_map``."""
    if players not in manifest.players:
        counts = ", ".join(map(str, manifest.players))
        raise DataError(f"edition {manifest.id!r} is for {counts} players, not {players}", source="players")
    setup_for = manifest.players[players]
    board = build_board(game_map, setup_for.pieces)
    rules = Rules.__new__(Rules)
    rules.edition = manifest
    rules.players = players
    rules.options = dict(options)
    rules.board = board
    _compile_tiles(rules, manifest, hook)
    rules.hand_size = manifest.hand_size
    rules.figures_per_caste = setup_for.figures_per_caste

    first = rules.options.get("first_player")
    if isinstance(first, int) and not isinstance(first, bool) and not 0 <= first < players:
        # The option is the player's to get right: say so before a setup hook passes it on.
        raise DataError(f"option first_player {first} is not a seat of a {players}-player game (0 to {players - 1})",
                        source=manifest.path, key="first_player")
    rules.setup = _ask(manifest, hook, "samurai_setup_procedure", players=players, options=rules.options)
    rules.capacities = tuple(s.capacity for s in board.settlements)
    rules.prefilled = tuple(i for i, s in enumerate(board.settlements) if s.kind in rules.setup.prefilled)
    stage_of = [-1] * len(board.settlements)
    stages = []
    for number, kinds in enumerate(rules.setup.figure_stages):
        stages.append(tuple(i for i, s in enumerate(board.settlements) if s.kind in kinds and i not in rules.prefilled))
        for i in stages[-1]:
            stage_of[i] = number
    rules.figure_stages = tuple(stages)
    rules.stage_of = tuple(stage_of)
    slots = sum(rules.capacities[i] for i in range(len(board.settlements)) if stage_of[i] >= 0)
    supply = 3 * setup_for.figures_per_caste - 3 * len(rules.prefilled)
    if supply < 0 or supply > slots:
        raise DataError(f"players.{players}: {setup_for.figures_per_caste} figures per caste do not fit the "
                        f"{slots + 3 * len(rules.prefilled)} figure slots of pieces "
                        f"{', '.join(setup_for.pieces)}", source=manifest.path, key=f"players.{players}")

    # Each answer is checked against its hook's specification (samurai_plugins.knizia.editions.hook_results)
    # as it is asked.
    rules.resolve_each_tile = _ask(manifest, hook, "samurai_resolution_timing", options=rules.options) == "each_tile"
    rules.end_immediate = _ask(manifest, hook, "samurai_end_check_timing", options=rules.options) == "immediate"
    rules.pass_when_unable = _ask(manifest, hook, "samurai_cannot_play", options=rules.options) == "pass"
    rules.removed_limit = rules.options.get("removed_to_end", 4)
    # Bounded like a manifest's numbers (samurai_plugins.knizia.editions.manifest_keys.BOUNDS): the native engine
    # holds it in 64 bits.
    if (isinstance(rules.removed_limit, bool) or not isinstance(rules.removed_limit, int)
            or not 1 <= rules.removed_limit <= 999):
        raise DataError(f"option removed_to_end must be a whole number from 1 to 999, not {rules.removed_limit!r}",
                        source=manifest.path, key="options.removed_to_end")
    rules.public_captures = _ask(manifest, hook, "samurai_public_captures", players=players, options=rules.options)
    rules.settlement_neighbours = tuple(board.neighbours[h] for h in board.settlement_hex)

    caller = hook.samurai_score
    registered, calls = _plain_first_result_calls(caller, ("edition", "captured", "options"))

    def scorer(captured: Mapping[int, Mapping[str, int]]) -> Result:
        try:
            if calls and caller.get_hookimpls() == registered:
                # What pluggy's call does for plain implementations, without its layers (every playout
                # scores once): each in pluggy's order until one answers.
                result = None
                for function, positions in calls:
                    if positions is None:
                        result = function(manifest, captured, rules.options)
                    else:
                        values = (manifest, captured, rules.options)
                        result = function(*[values[i] for i in positions])
                    if result is not None:
                        break
            else:
                result = caller(edition=manifest, captured=captured, options=rules.options)
        except PLUGIN_FAILURES as exc:
            if isinstance(exc, DataError):
                raise
            raise hook_failure(hook.samurai_score, exc, source=manifest.path) from None
        if not _is_result(result, captured):
            arguments = {"edition": manifest, "captured": captured, "options": rules.options}
            raise refused_hook_result(hook.samurai_score, score_problem(result, arguments) or repr(result),
                                      source=manifest.path, arguments=arguments)
        return cast(Result, result)

    rules.scorer = scorer
    rules.native_scoring = claimed_scoring(caller)
    rules.native = None
    rules.template = initial_state(rules)
    rules.reference = manifest.path
    return rules


def _ask(manifest: KniziaManifest, hook: Any, name: str, **arguments: Any) -> Any:
    """Call a deciding hook while compiling and check its answer; a plugin that fails or answers what its hook
    does not allow is reported as one line naming the plugin, not a traceback or a silently flipped rule."""
    return call_hook(getattr(hook, name), source=manifest.path, hook_results=KNIZIA_HOOK_RESULTS,
                     context=f" for options {dict(arguments.get('options', {}))}", edition=manifest, **arguments)


def _plain_first_result_calls(caller: Any, names: tuple[str, ...]) -> tuple[list[Any], list[tuple[Callable[..., Any],
                                                                                    tuple[int, ...] | None]]]:
    """The implementations of the firstresult hook ``caller`` now, and how to call each one directly, in pluggy's
    order: the function and the positions in ``names`` of the arguments it takes (None: all, in that order).

    No calls when an implementation is a wrapper or takes arguments beyond ``names``: those go through pluggy.
    The caller compares ``caller.get_hookimpls()`` with the first list before each direct call, so a plugin
    registered or removed later sends the call through pluggy again.
    """
    implementations = caller.get_hookimpls()
    calls: list[tuple[Callable[..., Any], tuple[int, ...] | None]] = []
    for impl in reversed(implementations):
        if impl.hookwrapper or impl.wrapper or impl.kwargnames or not set(impl.argnames) <= set(names):
            return implementations, []
        positions = tuple(names.index(name) for name in impl.argnames)
        calls.append((impl.function, None if positions == tuple(range(len(names))) else positions))
    return implementations, calls


def _is_result(result: Any, captured: Mapping[int, Any]) -> bool:
    """Whether a scoring hook returned a ``Result`` as ``samurai_plugins.knizia.editions.hook_results.score_problem``
    allows: winners distinct seats of the scored game, a reason, an explanation, no end reason of its own invention.

    The explanation must be text or a function writing it; reading ``explanation`` here would write
    the text of every playout's result, which nobody reads (``Result.explanation`` checks the text).
    """
    if not (isinstance(result, Result) and isinstance(result.winners, tuple) and result.winners
            and isinstance(result.reason, str) and result.reason.strip()
            and (isinstance(result._explanation, str) or callable(result._explanation))
            and (result.end_reason is None or result.end_reason in END_REASONS)):
        return False
    winners = result.winners
    for seat in winners:  # a loop, not all() over a generator: every playout asks once
        if type(seat) is not int or seat not in captured:
            return False
    return len(winners) == 1 or len(set(winners)) == len(winners)


def _compile_tiles(rules: Rules, manifest: KniziaManifest, hook: Any) -> None:
    behaviours: dict[str, TileBehaviour] = {}
    for contributed in call_hook(hook.samurai_tile_behaviours, source=manifest.path,
                                 hook_results=KNIZIA_HOOK_RESULTS):
        for behaviour in contributed:
            behaviours.setdefault(behaviour.name, behaviour)
    types: list[TileType] = []
    player_tiles: list[int] = []
    for spec in manifest.tiles:
        if spec.special is not None and spec.special not in behaviours:
            known = ", ".join(sorted(behaviours)) or "none"
            raise DataError(f"tiles.{spec.kind}: no installed plugin provides the special tile behaviour "
                            f"{spec.special!r} (known: {known})", source=manifest.path,
                            key=f"tiles.{spec.kind}.special")
        single = len(set(spec.influence)) == 1
        for value in spec.influence:
            name = spec.kind if single else f"{spec.kind}-{value}"
            existing = [i for i, t in enumerate(types) if t.name == name]
            if existing:
                player_tiles.append(existing[0])
                continue
            types.append(TileType(name, spec.kind, value, spec.counts_for, spec.fast, spec.on, spec.special))
            player_tiles.append(len(types) - 1)
    rules.tile_types = tuple(types)
    rules.tile_index = {t.name: i for i, t in enumerate(types)}
    rules.tile_value = tuple(t.value_for(caste) for t in types for caste in CASTES)
    rules.tile_fast = tuple(t.fast for t in types)
    rules.tile_on = tuple(SPECIAL_TILE if t.special else LAND_TILE if t.on == "land" else SEA_TILE for t in types)
    rules.tile_movable = tuple(t.movable for t in types)
    rules.behaviours = tuple(behaviours[t.special] if t.special else None for t in types)
    rules.special_tiles = frozenset(t for t, behaviour in enumerate(rules.behaviours) if behaviour is not None)
    rules.player_tiles = tuple(player_tiles)
    if len(player_tiles) < manifest.hand_size:
        raise DataError(f"each player has {len(player_tiles)} tiles, fewer than hand_size "
                        f"{manifest.hand_size}", source=manifest.path, key="tiles")


class Click(NamedTuple):
    """One click on the page while a special tile is played: the board hex ``hex``, or (``caste`` set) the figure
    of that caste standing on it."""

    hex: int
    caste: int | None = None


class TileClicks(NamedTuple):
    """How a person plays one target of a special tile on the page, after choosing the tile in the hand.

    Each path is one order of clicks that plays it (a Switch's two figures may be clicked either way round);
    ``hints[0]`` is the hint once the tile is chosen, ``hints[i]`` after the i-th click of a path.
    """

    paths: tuple[tuple[Click, ...], ...]
    hints: tuple[str, ...]


class TileBehaviour(Protocol):
    """What a special tile does, and everything else about it: one home per tile.

    ``tile`` is the tile type being played, ``params`` its targets. The rules come first (``can_play`` to
    ``parameter_ranges``); then the tile's faces: its name in the native engine, its words, its clicks and marks,
    its glyph and its worth to the greedy player. ``samurai_plugins.knizia.engine.special_tiles.TileFaces`` gives
    every face a default, so a plugin's tile writes the rules alone.
    """

    name: str

    @property
    def action_type(self) -> type[Action]:
        """The friendly action class that plays this tile."""

    def can_play(self, rules: Rules, st: State, seat: int, tile: int) -> bool:
        """Whether the tile has at least one legal target now."""

    def legal(self, rules: Rules, st: State, seat: int, tile: int) -> list[tuple[int, ...]]:
        """Every legal target now."""

    def check(self, rules: Rules, st: State, seat: int, tile: int, params: tuple[int, ...]) -> str | None:
        """Why ``params`` is not a legal target now, or None when it is."""

    def sample(self, rules: Rules, st: State, seat: int, tile: int, rng: random.Random) -> tuple[int, ...] | None:
        """A random legal target (None when there is none)."""

    def apply(self, rules: Rules, st: State, seat: int, tile: int, params: tuple[int, ...]) -> None:
        """Carry out the tile's effect (the tile has already left the hand)."""

    def to_action(self, rules: Rules, tile: int, params: tuple[int, ...]) -> Action:
        """The friendly action for these targets."""

    def from_action(self, rules: Rules, action: Any) -> tuple[int, ...]:
        """The targets of a friendly action; raises ``IllegalAction`` for unknown hexes."""

    def parameter_ranges(self, rules: Rules) -> tuple[int, ...]:
        """How many values each target number can take (each runs from 0): a fixed action space
        (``samurai_plugins.knizia.adapters.action_space``) numbers every target this way."""

    @property
    def title(self) -> str:
        """How the game's words name the tile (``"Move"``)."""

    @property
    def native_name(self) -> str | None:
        """The name the native engine carries this tile out by (its Rust twin), or None: only the Python engine
        plays it. Read from the behaviour's own class, never inherited: a subclass that changes a rule is not
        handed to the twin of its parent (``samurai_plugins.knizia.engine.backends``)."""

    def describe(self, rules: Rules, action: Action) -> str | None:
        """A replay's words for a friendly action of this tile, after "seat k" (``"plays Move: ..."``); None for the
        game's plain words (the action's fields)."""

    def words(self, rules: Rules, tile: int, params: tuple[int, ...], play: str) -> str | None:
        """The page's words for these targets, after "You" or "Seat k", beginning with ``play`` (the verb as
        that subject takes it); None for the game's plain words."""

    def clicks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> TileClicks | None:
        """How the page plays these targets by clicks on the board, with the hints on the way; None: the page
        offers the tile's targets as buttons, in its words."""

    def marks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> tuple[int, ...]:
        """The board hexes outlined when these targets were the last action (or a preferred one)."""

    def draw_glyph(self, out: Svg, x: float, y: float, size: float) -> None:
        """Draw the tile's mark, white, centred on ``(x, y)`` at scale ``size``, on tiles and in the key."""

    def greedy_worth(self, params: tuple[int, ...], tile_type: Sequence[int],
                     worth: Callable[[int, int, bool], int]) -> int:
        """What the greedy player (``samurai_plugins.knizia.engine.greedy``) counts these targets worth, knowing
        the tile type on each hex (``tile_type``) and the worth of a tile of a type on a hex (``worth(type, hex,
        placed)``: ``placed`` when the tile already lies there)."""


def initial_state(rules: Rules) -> State:
    """The position before any setup choice: tiles in pools, an empty board, Edo-like
    settlements prefilled. New games copy it (``samurai_plugins.knizia.engine.reference.new_state``)."""
    board = rules.board
    n, size, settlements = rules.players, board.size, len(board.settlements)
    st = State.__new__(State)
    st.rng = UNSEEDED  # each game seeds its own
    st.events = None
    st.pools = [list(rules.player_tiles) for _ in range(n)]
    st.hands = [[] for _ in range(n)]
    st.stacks = [[] for _ in range(n)]
    st.spent = [0] * n
    st.tile_owner = [EMPTY] * size
    st.tile_type = [EMPTY] * size
    st.tile_turn = [EMPTY] * size
    st.empty_land = list(board.land_hexes)
    st.empty_sea = list(board.sea_hexes)
    st.empty_land_pos = [EMPTY] * size
    st.empty_sea_pos = [EMPTY] * size
    for i, h in enumerate(st.empty_land):
        st.empty_land_pos[h] = i
    for i, h in enumerate(st.empty_sea):
        st.empty_sea_pos[h] = i
    st.movable_count = [0] * n
    st.figures = [0] * settlements
    st.empty_around = [len(land) for land in board.settlement_land]
    st.pending = []
    st.supply = [rules.figures_per_caste] * 3
    st.on_board = [0, 0, 0]
    st.captured = [0] * (3 * n)
    st.removed = [0, 0, 0]
    st.removed_total = 0
    for s in rules.prefilled:
        st.figures[s] = 0b111
        for c in range(3):
            st.supply[c] -= 1
            st.on_board[c] += 1
    st.open_by_stage = [list(stage) for stage in rules.figure_stages]
    st.cut = [sum(CUT_CONTRIBUTION[rules.capacities[s]][0][subset] for stage in rules.figure_stages
                  for s in stage) for subset in range(8)]
    if not figures_fit(st):
        raise DataError(f"players.{n}: {rules.figures_per_caste} figures of each caste cannot be placed without "
                        f"two of one caste in a settlement", source=rules.edition.path, key=f"players.{n}")
    st.turn = 0
    st.normal_played = False
    st.played = 0
    st.tiles_played = 0
    st.end_reason = None
    st.result = None
    st.setup_queue = [SETUP_PHASES[p] for p in rules.setup.order]
    st.phase = st.setup_queue.pop(0)
    st.current = rules.setup.first_player
    return st

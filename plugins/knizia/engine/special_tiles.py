"""Special tiles: Move and Switch (docs/rules/samurai.md#move-tile, docs/rules/samurai.md#switch-tile).

A special tile is played through a behaviour, contributed by a plugin with
the ``samurai_tile_behaviours`` hook and named by the tile's ``special`` key in
the edition manifest. The engine does the bookkeeping every tile shares (take
it from the hand, count it toward the one normal tile, resolve, check the
end); the behaviour says where the tile may go and what it does. The engine
registers Move and Switch itself (``ENGINE_TILES``), through the same hook.

The behaviour is the one home of everything about its tile (``TileBehaviour``): besides the rules, its name in
the native engine, its words in replays and on the page, its clicks on the page, its marks on the board and its
worth to the greedy player. No other module branches on a tile's name; ``TileFaces`` gives each face a default.

Targets are tuples of small ints ("params") on the fast path and actions
(``MoveTile``, ``SwitchFigures``) on the friendly one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import compress
from math import floor  # of a draw times a length: int() of it, faster (see samurai_plugins.knizia.engine.reference)
from typing import Any

import attrs

from samurai.errors import IllegalAction
from samurai.files.svg import Svg, num
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.actions import Action, to_coord
from samurai_plugins.knizia.core.hexgrid import Coord
from samurai_plugins.knizia.core.maps import LAND
from samurai_plugins.knizia.core.state import EMPTY, State
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Click, Rules, TileBehaviour, TileClicks
from samurai_plugins.knizia.engine.reference import put_tile

__all__ = ["TileBehaviour", "TileFaces", "MoveTile", "SwitchFigures", "MoveBehaviour", "SwitchBehaviour",
           "ENGINE_TILES", "tiles_played_by"]


@attrs.frozen(order=False)
class MoveTile(Action):
    """Play the Move tile: your normal tile at ``source`` goes to the empty land hex ``target``."""

    _plain_fields = True

    source: Coord = attrs.field(converter=to_coord)
    target: Coord = attrs.field(converter=to_coord)


@attrs.frozen(order=False)
class SwitchFigures(Action):
    """Play the Switch tile: swap ``first_caste`` at ``first`` with ``second_caste`` at ``second``.

    The two sides are kept in reading order (top to bottom, left to right),
    so naming them the other way round gives the same, equal action.
    """

    first: Coord = attrs.field(converter=to_coord)
    first_caste: str
    second: Coord = attrs.field(converter=to_coord)
    second_caste: str
    _plain_fields = True

    def __attrs_post_init__(self) -> None:
        if (self.second[1], self.second[0]) < (self.first[1], self.first[0]):
            first, first_caste = self.first, self.first_caste
            object.__setattr__(self, "first", self.second)
            object.__setattr__(self, "first_caste", self.second_caste)
            object.__setattr__(self, "second", first)
            object.__setattr__(self, "second_caste", first_caste)


_SAMPLE_TRIES = 16
_new_action = object.__new__
_set_field = object.__setattr__


_CASTES_IN = tuple(tuple(c for c in range(3) if mask >> c & 1) for mask in range(8))
"""The castes of a caste bitmask, in caste order."""


_SWAPS = tuple(tuple(tuple((c1, c2) for c1 in range(3) if m1 >> c1 & 1 and not m2 >> c1 & 1
                          for c2 in range(3) if c2 != c1 and m2 >> c2 & 1 and not m1 >> c2 & 1)
                    for m2 in range(8)) for m1 in range(8))
"""``_SWAPS[m1][m2]``: the caste pairs (c1 from the first settlement, c2 from the second) that two
settlements holding castes ``m1`` and ``m2`` may exchange, in the order c1, then c2, by caste."""


def _random_caste(mask: int, rng: random.Random) -> int:
    castes = _CASTES_IN[mask]
    return castes[floor(rng.random() * len(castes))]


def _hex(rules: Rules, coord: Coord, what: str) -> int:
    index = rules.board.index.get(coord)
    if index is None:
        raise IllegalAction(f"{what} {coord} is not a hex of this board")
    return index


def _white_lines(size: float) -> dict[str, str]:
    """The style of a glyph's white strokes at scale ``size``."""
    return {"fill": "none", "stroke": "#FFFFFF", "stroke_width": num(2.4 * size), "stroke_linecap": "round",
            "stroke_linejoin": "round"}


class TileFaces:
    """The faces of a special tile as the game shows any tile it knows nothing more of: a base for behaviours.

    No native twin (only the Python engine plays it), the game's plain words (its action's fields), its targets
    offered as buttons on the page and no hex marked, its initial as its glyph, and worth -1 to the greedy player
    (kept unless nothing else can be played). A behaviour overrides what its tile shows otherwise.
    """

    name: str
    native_name: str | None = None

    @property
    def title(self) -> str:
        """How the game's words name the tile: its name, capitalised (``"Move"``)."""
        return self.name.capitalize()

    def describe(self, rules: Rules, action: Action) -> str | None:
        """The game's plain words (None)."""
        return None

    def words(self, rules: Rules, tile: int, params: tuple[int, ...], play: str) -> str | None:
        """The game's plain words (None)."""
        return None

    def clicks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> TileClicks | None:
        """Buttons, not clicks on the board (None)."""
        return None

    def marks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> tuple[int, ...]:
        """No hex."""
        return ()

    def draw_glyph(self, out: Svg, x: float, y: float, size: float) -> None:
        """The tile's initial."""
        out.leaf("text", x=x, y=y + 5 * size, text_anchor="middle", font_size=num(14 * size), font_weight="bold",
                 fill="#FFFFFF", text=self.name[:1].upper())

    def greedy_worth(self, params: tuple[int, ...], tile_type: Sequence[int],
                     worth: Callable[[int, int, bool], int]) -> int:
        """-1: a tile the greedy player cannot judge is kept unless nothing else can be played."""
        return -1


class MoveBehaviour(TileFaces):
    """Move: one of your normal tiles placed on an earlier turn goes to another
    empty land hex; the Move tile (influence 0, counts for nothing) takes its
    place (docs/rules/samurai.md#move-tile: not an opponent's, fast or just-played tile)."""

    name = "move"
    native_name = "move"
    action_type = MoveTile

    def _sources(self, rules: Rules, st: State, seat: int) -> list[int]:
        owner, kind, placed, movable, turn = st.tile_owner, st.tile_type, st.tile_turn, rules.tile_movable, st.turn
        return [h for h in rules.board.land_hexes if owner[h] == seat and movable[kind[h]] and placed[h] < turn]

    def can_play(self, rules: Rules, st: State, seat: int, tile: int) -> bool:
        if not st.empty_land or st.movable_count[seat] == 0:
            return False
        if not rules.tile_fast[tile] and not st.normal_played:
            # A normal Move before this turn's normal tile: every movable tile on the board was then
            # placed on an earlier turn (fast tiles never move), so the count is the answer.
            return True
        # A variant's fast Move may come after this turn's normal tile, which must not move.
        return bool(self._sources(rules, st, seat))

    def legal(self, rules: Rules, st: State, seat: int, tile: int) -> list[tuple[int, ...]]:
        targets = sorted(st.empty_land)
        return [(source, target) for source in self._sources(rules, st, seat) for target in targets]

    def check(self, rules: Rules, st: State, seat: int, tile: int, params: tuple[int, ...]) -> str | None:
        source, target = params
        if st.tile_owner[source] != seat:
            return "Move takes one of your own tiles, and there is none at the source hex"
        if not rules.tile_movable[st.tile_type[source]]:
            return (f"Move cannot take a {rules.tile_types[st.tile_type[source]].name} tile: only normal "
                    f"caste or Samurai tiles move")
        if st.tile_turn[source] >= st.turn:
            return "Move cannot take a tile placed this turn"
        if rules.board.terrain[target] != LAND or st.tile_owner[target] != EMPTY:
            return "Move needs an empty land hex as the target"
        return None

    def sample(self, rules: Rules, st: State, seat: int, tile: int, rng: random.Random) -> tuple[int, ...] | None:
        sources = self._sources(rules, st, seat)
        if not sources or not st.empty_land:
            return None
        return sources[floor(rng.random() * len(sources))], st.empty_land[floor(rng.random() * len(st.empty_land))]

    def apply(self, rules: Rules, st: State, seat: int, tile: int, params: tuple[int, ...]) -> None:
        source, target = params
        moved = st.tile_type[source]
        st.movable_count[seat] -= 1  # put_tile counts it again at the target
        st.tile_type[source] = tile
        st.tile_turn[source] = st.turn
        put_tile(rules, st, seat, moved, target)

    def to_action(self, rules: Rules, tile: int, params: tuple[int, ...]) -> Action:
        return MoveTile(rules.board.coords[params[0]], rules.board.coords[params[1]])

    def parameter_ranges(self, rules: Rules) -> tuple[int, ...]:
        """A source hex and a target hex."""
        return rules.board.size, rules.board.size

    def from_action(self, rules: Rules, action: Any) -> tuple[int, ...]:
        return _hex(rules, action.source, "source hex"), _hex(rules, action.target, "target hex")

    def describe(self, rules: Rules, action: Any) -> str | None:
        """``"plays Move: the tile on (3, 4) goes to (5, 4)"``."""
        board = rules.board
        source, target = board.place_words(action.source), board.place_words(action.target)
        return f"plays {self.title}: the tile on {source} goes to {target}"

    def words(self, rules: Rules, tile: int, params: tuple[int, ...], play: str) -> str | None:
        """``"plays Move: the tile next to Kyoto goes to a hex next to Edo"``."""
        board = rules.board
        return (f"{play} {self.title}: the tile{board.near_words(params[0])} goes to a hex"
                f"{board.near_words(params[1]) or ' away from any settlement'}")

    def clicks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> TileClicks | None:
        """The tile to move, then the empty hex it goes to."""
        return TileClicks(((Click(params[0]), Click(params[1])),), (
            f"{self.title}: click one of your tiles placed on an earlier turn (this turn's tiles stay put)",
            f"{self.title}: click the empty hex it goes to (its influence moves with it)"))

    def marks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> tuple[int, ...]:
        """The hex the tile left and the hex it went to."""
        return params[0], params[1]

    def draw_glyph(self, out: Svg, x: float, y: float, size: float) -> None:
        """Arrows left and right: a tile changes hex."""
        s = size
        out.leaf("path", d=f"M{num(x - 9 * s)} {num(y - 3 * s)} H{num(x + 7 * s)} m-4 -4 l4 4 l-4 4",
                 **_white_lines(s))
        out.leaf("path", d=f"M{num(x + 9 * s)} {num(y + 6 * s)} H{num(x - 7 * s)} m4 -4 l-4 4 l4 4",
                 **_white_lines(s))

    def greedy_worth(self, params: tuple[int, ...], tile_type: Sequence[int],
                     worth: Callable[[int, int, bool], int]) -> int:
        """What the moved tile is worth at its new hex less what it was worth where it lay."""
        source, target = params[0], params[1]
        moved = tile_type[source]
        return worth(moved, target, False) - worth(moved, source, True)


class SwitchBehaviour(TileFaces):
    """Switch: exchange two figures of different castes standing in two different
    unresolved settlements; no settlement may then hold two figures of one caste
    (Edo included). The tile then leaves the game (docs/rules/samurai.md#switch-tile)."""

    name = "switch"
    native_name = "switch"
    action_type = SwitchFigures

    def legal(self, rules: Rules, st: State, seat: int, tile: int) -> list[tuple[int, ...]]:
        occupied = [(s, m) for s, m in enumerate(st.figures) if m]
        moves: list[tuple[int, ...]] = []
        for i, (s1, m1) in enumerate(occupied):
            swaps = _SWAPS[m1]
            for s2, m2 in occupied[i + 1:]:
                for c1, c2 in swaps[m2]:
                    moves.append((s1, c1, s2, c2))
        return moves

    def can_play(self, rules: Rules, st: State, seat: int, tile: int) -> bool:
        # Two settlements can swap when some caste of one is missing from the other and the other way
        # round. Two villages of different castes always can: on nearly every board a random game asks
        # about (before nearly every action of a hand holding Switch) three scans in C answer at once,
        # about ten times faster than the set of masks below.
        figures = st.figures
        if (1 in figures and (2 in figures or 4 in figures)) or (2 in figures and 4 in figures):
            return True
        # Otherwise settlements holding the same castes never can swap, so compare the distinct masks only.
        masks = set(figures)
        masks.discard(0)
        for m1 in masks:
            for m2 in masks:
                if m1 & ~m2 and m2 & ~m1:
                    return True
        return False

    def check(self, rules: Rules, st: State, seat: int, tile: int, params: tuple[int, ...]) -> str | None:
        s1, c1, s2, c2 = params
        if s1 == s2:
            return "Switch exchanges figures between two different settlements"
        if c1 == c2:
            return "Switch exchanges two figures of different castes"
        m1, m2 = st.figures[s1], st.figures[s2]
        if not m1 >> c1 & 1:
            return f"there is no {CASTES[c1]} figure in {rules.board.settlements[s1].name}"
        if not m2 >> c2 & 1:
            return f"there is no {CASTES[c2]} figure in {rules.board.settlements[s2].name}"
        if m1 >> c2 & 1:
            return f"{rules.board.settlements[s1].name} would hold two {CASTES[c2]} figures"
        if m2 >> c1 & 1:
            return f"{rules.board.settlements[s2].name} would hold two {CASTES[c1]} figures"
        return None

    def sample(self, rules: Rules, st: State, seat: int, tile: int, rng: random.Random) -> tuple[int, ...] | None:
        figures = st.figures
        occupied = list(compress(range(len(figures)), figures))  # the settlements holding figures, in order (C)
        if len(occupied) > 1:
            # Pick two figures at random and keep them if they may swap; listing every
            # pair is the fallback for the rare board where few pairs are legal.
            draw, count = rng.random, len(occupied)
            for _ in range(_SAMPLE_TRIES):
                s1 = occupied[floor(draw() * count)]
                s2 = occupied[floor(draw() * count)]
                # _random_caste of s1, then of s2, written out (random games sample Switch often)
                castes = _CASTES_IN[figures[s1]]
                c1 = castes[floor(draw() * len(castes))]
                castes = _CASTES_IN[figures[s2]]
                c2 = castes[floor(draw() * len(castes))]
                if s1 != s2 and c1 != c2 and not figures[s1] >> c2 & 1 and not figures[s2] >> c1 & 1:
                    return s1, c1, s2, c2
        moves = self.legal(rules, st, seat, tile)
        return moves[floor(rng.random() * len(moves))] if moves else None

    def apply(self, rules: Rules, st: State, seat: int, tile: int, params: tuple[int, ...]) -> None:
        s1, c1, s2, c2 = params
        swap = 1 << c1 | 1 << c2
        st.figures[s1] ^= swap
        st.figures[s2] ^= swap
        st.spent[seat] += 1  # the Switch tile leaves the game

    def to_action(self, rules: Rules, tile: int, params: tuple[int, ...]) -> Action:
        s1, c1, s2, c2 = params
        first, second = rules.board.settlements[s1].at, rules.board.settlements[s2].at
        # Board coordinates need no converting: set the fields directly, in the order
        # __attrs_post_init__ would leave them (Game.legal_actions lists hundreds of these).
        if (second[1], second[0]) < (first[1], first[0]):
            first, second, c1, c2 = second, first, c2, c1
        action = _new_action(SwitchFigures)
        _set_field(action, "first", first)
        _set_field(action, "first_caste", CASTES[c1])
        _set_field(action, "second", second)
        _set_field(action, "second_caste", CASTES[c2])
        return action

    def parameter_ranges(self, rules: Rules) -> tuple[int, ...]:
        """Two (settlement, caste) pairs."""
        settlements = len(rules.board.settlements)
        return settlements, len(CASTES), settlements, len(CASTES)

    def from_action(self, rules: Rules, action: Any) -> tuple[int, ...]:
        out = []
        for coord, caste, what in ((action.first, action.first_caste, "first"),
                                   (action.second, action.second_caste, "second")):
            settlement = rules.board.settlement_at[_hex(rules, coord, f"{what} settlement")]
            if settlement < 0:
                raise IllegalAction(f"Switch: the {what} hex {coord} is not a settlement")
            if caste not in CASTES:
                raise IllegalAction(f"Switch: unknown caste {caste!r}; castes are {', '.join(CASTES)}")
            out += [settlement, CASTES.index(caste)]
        return tuple(out)

    def describe(self, rules: Rules, action: Any) -> str | None:
        """``"plays Switch: rice in Kyoto (4, 5) and castle in Edo (9, 8) change places"``."""
        board = rules.board
        return (f"plays {self.title}: {action.first_caste} in {board.place_words(action.first)} and "
                f"{action.second_caste} in {board.place_words(action.second)} change places")

    def words(self, rules: Rules, tile: int, params: tuple[int, ...], play: str) -> str | None:
        """``"plays Switch: the rice figure in Kyoto and the castle figure in Edo change places"``."""
        s1, c1, s2, c2 = params
        settlements = rules.board.settlements
        return (f"{play} {self.title}: the {CASTES[c1]} figure in {settlements[s1].name} "
                f"and the {CASTES[c2]} figure in {settlements[s2].name} change places")

    def clicks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> TileClicks | None:
        """The two figures, either one first."""
        s1, c1, s2, c2 = params
        at = rules.board.settlement_hex
        first, second = Click(at[s1], c1), Click(at[s2], c2)
        return TileClicks(((first, second), (second, first)), (
            f"{self.title}: click a figure (two figures of different settlements trade places)",
            f"{self.title}: click the figure it changes places with (in another settlement)"))

    def marks(self, rules: Rules, tile: int, params: tuple[int, ...]) -> tuple[int, ...]:
        """The two settlements."""
        at = rules.board.settlement_hex
        return at[params[0]], at[params[2]]

    def draw_glyph(self, out: Svg, x: float, y: float, size: float) -> None:
        """Two figures change places: one arrow up, one down."""
        s = size
        out.leaf("path", d=f"M{num(x - 5 * s)} {num(y + 9 * s)} V{num(y - 7 * s)} m-4 4 l4 -4 l4 4",
                 **_white_lines(s))
        out.leaf("path", d=f"M{num(x + 5 * s)} {num(y - 9 * s)} V{num(y + 7 * s)} m-4 -4 l4 4 l4 -4",
                 **_white_lines(s))


ENGINE_TILES: tuple[TileBehaviour, ...] = (MoveBehaviour(), SwitchBehaviour())
"""The engine's own special tiles, in the order of the board's key; a new built-in tile is added here."""


def tiles_played_by(rules: Rules, kind: type) -> list[int]:
    """The tile types of ``rules`` whose behaviour plays actions of class ``kind``, or of a class of its name: a
    plugin file loaded twice (two editions, or a record read apart from its game) defines two classes of one name
    for the same action."""
    return [t for t, b in enumerate(rules.behaviours)
            if b is not None and (b.action_type is kind or b.action_type.__name__ == kind.__name__)]


@hookimpl
def samurai_tile_behaviours() -> Sequence[TileBehaviour]:
    """The engine's own special tiles."""
    return list(ENGINE_TILES)

"""What one seat of a Samurai game knows (``protocol.Knowledge``), detached from the real position.

A seat knows its own hand, its unchosen tiles and its stack's contents (not
their order); the public board (tiles, owners and the turn each was placed,
figures, supply, removed figures); how many tiles every seat holds in hand and
stack; and what happened in view of the table: the tiles each seat has played
(on the board, or gone from the game like a played Switch) and every capture
as it happened, so it remembers who captured what even when the edition
hides captures behind screens. It never holds another seat's tiles, the order
of a stack or the game's generator.

``determinized_state`` draws the rest (``samurai_plugins.knizia.adapters.game_state.HexSeatKnowledge.determinize``, the
knowledge a position hands out, makes it a whole position): each other seat's hand, unchosen tiles and
stack from the tiles of that seat it has not seen played (every seat has the
same tiles, ``Rules.player_tiles``), and a fresh generator for the refills
(which is what the order of every stack amounts to: the engine draws a
refill at random from the stack with the state's generator).

Cost. A bot is asked for every action of a simulation, so building a
knowledge must cost far less than the game itself. ``samurai_plugins.knizia.adapters.game_state.decide`` hands a bot a
knowledge that reads the public lists of the position in place for the length
of the decision (they cannot change while the bot thinks) and copies what the
bot asks for; if the bot keeps the knowledge after answering, it is detached
then (its public lists copied), so what a bot sees never changes and never
includes what its seat cannot know. ``SeatKnowledge(rules, state, seat)``
and ``HexGameState.knowledge`` build a detached one at once.

This module sits below the position (``samurai_plugins.knizia.adapters.game_state``): drawing a whole position needs the
position's class, so the knowledge a position hands out (``HexSeatKnowledge``), the bots that read it (``SeatBot``) and
``decide`` live there.
"""

from __future__ import annotations

import random
from typing import Any, Self

from samurai_plugins.knizia.core.state import EMPTY, HANDS, OVER, PHASE_NAMES, State
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.play.views import seat_view

__all__ = ["SeatKnowledge", "LeftGame"]

_PUBLIC_LISTS = ("setup_queue", "spent", "tile_owner", "tile_type", "tile_turn", "empty_land", "empty_land_pos",
                 "empty_sea", "empty_sea_pos", "movable_count", "figures", "empty_around", "pending", "supply",
                 "on_board", "captured", "removed", "cut")
"""The lists of a ``State`` that every seat sees (``open_by_stage`` too, a list of lists)."""

_NOTHING: tuple[int, ...] = ()


class LeftGame:
    """Which tiles of each seat have left the game (a played Switch), kept up to date cheaply.

    The table saw those tiles played, so every seat knows them; the state only
    counts them (``State.spent``), so their kinds are worked out once each time
    a count changes: a seat's tiles less what it holds and what it has on the board.
    """

    __slots__ = ("_spent", "tiles")

    def __init__(self) -> None:
        self._spent: list[int] | None = None
        self.tiles: tuple[tuple[int, ...], ...] = ()

    def of(self, rules: Rules, st: State) -> tuple[tuple[int, ...], ...]:
        """The tile types each seat has seen leave the game, per seat."""
        if self._spent != st.spent:
            self._spent = st.spent[:]
            self.tiles = _left_game(rules, st)
        return self.tiles


def _left_game(rules: Rules, st: State) -> tuple[tuple[int, ...], ...]:
    if not any(st.spent):
        return ((),) * rules.players
    left = []
    for seat in range(rules.players):
        if not st.spent[seat]:
            left.append(_NOTHING)
            continue
        remaining = _tile_counts(rules)
        for tile in (*st.hands[seat], *st.stacks[seat], *st.pools[seat]):
            remaining[tile] -= 1
        for h in range(rules.board.size):
            if st.tile_owner[h] == seat:
                remaining[st.tile_type[h]] -= 1
        left.append(tuple(t for t, count in enumerate(remaining) for _ in range(count)))
    return tuple(left)


def _tile_counts(rules: Rules) -> list[int]:
    counts = [0] * len(rules.tile_types)
    for tile in rules.player_tiles:
        counts[tile] += 1
    return counts


class SeatKnowledge:
    """What seat ``seat`` knows of a Samurai position: a value; see the module docstring.

    Lists it returns are the knowledge's own copies (cached: asking twice gives
    the same list); changing them changes nothing else.
    """

    __slots__ = ("rules", "seat", "move_number", "_pos", "_sizes", "_left", "_live", "_copies", "_hidden",
                 "__weakref__")

    rules: Rules
    seat: int
    move_number: int
    """How many actions had been played when the seat learnt this (0 when the caller did not count)."""

    def __init__(self, rules: Rules, state: State, seat: int, *, move_number: int = 0,
                 left_game: LeftGame | None = None) -> None:
        """The knowledge of ``seat`` in ``state``, detached at once (copies of what the seat may know)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
            raise ValueError(f"seat must be a whole number from 0 to {rules.players - 1}, not {seat!r}")
        self._read(rules, state, seat, move_number, (left_game or LeftGame()).of(rules, state))
        self.detach()

    @classmethod
    def _during_decision(cls, rules: Rules, st: State, seat: int, move_number: int,
                         left: tuple[tuple[int, ...], ...]) -> Self:
        """A knowledge reading the position's public lists in place (see ``decide``)."""
        knowledge = cls.__new__(cls)
        knowledge._read(rules, st, seat, move_number, left)
        return knowledge

    def _read(self, rules: Rules, st: State, seat: int, move_number: int,
              left: tuple[tuple[int, ...], ...]) -> None:
        self.rules = rules
        self.seat = seat
        self.move_number = move_number
        self._left = left
        self._live = True
        self._copies: dict[str, list[int]] | None = None
        self._hidden: tuple[tuple[int, ...], ...] | None = None
        pos = State.__new__(State)
        # Written out (not a loop over names): this runs for every action of every simulation.
        pos.phase, pos.current, pos.turn, pos.played = st.phase, st.current, st.turn, st.played
        pos.normal_played, pos.tiles_played, pos.removed_total = st.normal_played, st.tiles_played, st.removed_total
        pos.end_reason, pos.result, pos.setup_queue, pos.spent = st.end_reason, st.result, st.setup_queue, st.spent
        pos.tile_owner, pos.tile_type, pos.tile_turn = st.tile_owner, st.tile_type, st.tile_turn
        pos.empty_land, pos.empty_land_pos, pos.empty_sea = st.empty_land, st.empty_land_pos, st.empty_sea
        pos.empty_sea_pos, pos.movable_count, pos.figures = st.empty_sea_pos, st.movable_count, st.figures
        pos.empty_around, pos.pending, pos.supply, pos.on_board = st.empty_around, st.pending, st.supply, st.on_board
        pos.captured, pos.removed, pos.cut, pos.open_by_stage = st.captured, st.removed, st.cut, st.open_by_stage
        # Only this seat's own tiles; every other seat's are recorded by count alone.
        unknown = [_EMPTY_LIST] * rules.players
        hands, pools = unknown[:], unknown[:]
        hands[seat] = st.hands[seat][:]
        pools[seat] = st.pools[seat][:]
        pos.hands, pos.pools, pos.stacks = hands, pools, unknown
        pos.events = None
        pos.rng = _NO_GENERATOR
        self._sizes = (tuple(map(len, st.hands)), tuple(map(len, st.pools)), tuple(map(len, st.stacks)))
        self._pos = pos

    def detach(self) -> None:
        """Copy the public lists still read in place, so the knowledge no longer follows the position."""
        if not self._live:
            return
        pos = self._pos
        for name in _PUBLIC_LISTS:
            setattr(pos, name, getattr(pos, name)[:])
        pos.open_by_stage = [stage[:] for stage in pos.open_by_stage]
        self._live = False

    # --- what the seat sees ---------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def phase(self) -> int:
        """The engine phase number (``samurai_plugins.knizia.core.state.HANDS`` ... ``OVER``)."""
        return self._pos.phase

    @property
    def phase_name(self) -> str:
        """``"choose_hands"``, ``"place_figures"``, ``"play"`` or ``"over"``."""
        return PHASE_NAMES[self._pos.phase]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None once the game is over."""
        current = self._pos.current
        return None if self._pos.phase == OVER or current == EMPTY else current

    @property
    def turn(self) -> int:
        """The turn number (0 during setup)."""
        return self._pos.turn

    @property
    def tiles_played_this_turn(self) -> int:
        """How many tiles the seat to act has played so far this turn."""
        return self._pos.played

    @property
    def normal_tile_played(self) -> bool:
        """Whether the seat to act has played its one normal tile this turn."""
        return self._pos.normal_played

    @property
    def hand(self) -> list[int]:
        """This seat's tile types in hand."""
        return self._copy("hand", self._pos.hands[self.seat])

    @property
    def unchosen(self) -> list[int]:
        """This seat's tiles not yet chosen (while choosing starting hands)."""
        return self._copy("unchosen", self._pos.pools[self.seat])

    @property
    def stack(self) -> list[int]:
        """The contents of this seat's stack, sorted (the order is hidden from every seat)."""
        return list(self._hidden_tiles()[self.seat][len(self._pos.hands[self.seat]) + len(self._pos.pools[self.seat]):])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds in hand."""
        return self._sizes[0]

    @property
    def stack_sizes(self) -> tuple[int, ...]:
        """How many tiles are in each seat's stack (its unchosen tiles while choosing hands)."""
        hands, pools, stacks = self._sizes
        return pools if self._pos.phase == HANDS else stacks

    @property
    def tile_owner(self) -> list[int]:
        """The seat owning the tile on each hex, or -1 for an empty hex."""
        return self._copy("tile_owner", self._pos.tile_owner)

    @property
    def tile_type(self) -> list[int]:
        """The tile type on each hex (see ``Rules.tile_types``), or -1."""
        return self._copy("tile_type", self._pos.tile_type)

    @property
    def tile_turn(self) -> list[int]:
        """The turn each hex's tile was placed (-1 for an empty hex)."""
        return self._copy("tile_turn", self._pos.tile_turn)

    @property
    def figures(self) -> list[int]:
        """Caste bitmask of the figures in each settlement."""
        return self._copy("figures", self._pos.figures)

    @property
    def empty_around(self) -> list[int]:
        """Empty land hexes around each settlement (0: surrounded)."""
        return self._copy("empty_around", self._pos.empty_around)

    @property
    def supply(self) -> list[int]:
        """Figures of each caste still to be placed."""
        return self._copy("supply", self._pos.supply)

    @property
    def removed(self) -> list[int]:
        """Figures of each caste removed by ties."""
        return self._copy("removed", self._pos.removed)

    def captured(self, seat: int) -> tuple[int, int, int]:
        """The figures ``seat`` has captured, by caste (``CASTES`` order): every seat saw each capture."""
        c = self._pos.captured
        return c[seat * 3], c[seat * 3 + 1], c[seat * 3 + 2]

    def left_game(self, seat: int) -> tuple[int, ...]:
        """The tile types of ``seat`` that were played and left the game (a Switch), sorted."""
        return self._left[seat]

    def unseen(self, seat: int) -> tuple[int, ...]:
        """The tiles of ``seat`` this seat has not seen played (its hand, unchosen tiles and stack), sorted.

        For this seat itself: its hand, then its unchosen tiles, then its stack.
        """
        tiles = self._hidden_tiles()[seat]
        return tiles if seat != self.seat else tuple(sorted(tiles))

    def view(self) -> dict[str, Any]:
        """The seat's JSON-ready view (``samurai_plugins.knizia.play.views.seat_view``)."""
        # The drawn tiles of a determinized position are exactly what a view leaves out.
        return seat_view(self.rules, self.determinized_state(random.Random(0), _NO_GENERATOR), self.seat)

    # --- acting and searching ---------------------------------------------------------------

    def legal_actions(self) -> list[tuple[int, ...]]:
        """This seat's legal actions when it is to act (else none), in the engine's order."""
        if self._pos.current != self.seat or self._pos.phase == OVER:
            return []
        return engine.legal_actions(self.rules, self._pos)

    def sample_action(self, rng: random.Random) -> tuple[int, ...]:
        """A random legal action for this seat (``samurai_plugins.knizia.engine.reference.sample_action``);
        it must be to act."""
        if self._pos.current != self.seat or self._pos.phase == OVER:
            raise ValueError(f"seat {self.seat} is not to act")
        return engine.sample_action(self.rules, self._pos, rng)

    def determinized_state(self, rng: random.Random, generator: random.Random) -> State:
        """The engine ``State`` of ``determinize``, with ``generator`` as its own (search loops may reuse one)."""
        pos = self._pos
        hidden = self._hidden_tiles()
        hand_sizes, pool_sizes, _ = self._sizes
        st = pos.copy(rng=generator)  # the public lists copied; the tiles below replace the placeholders
        hands, pools, stacks = [], [], []
        for seat, tiles in enumerate(hidden):
            h, p = hand_sizes[seat], pool_sizes[seat]
            if seat == self.seat:
                hands.append(pos.hands[seat][:])
                pools.append(pos.pools[seat][:])
                stacks.append(list(tiles[h + p:]))
                continue
            deal = list(tiles)
            # A partial Fisher-Yates shuffle: only the hand and the unchosen tiles need a random
            # draw; the stack's order is left to the fresh generator that draws every refill.
            size = len(deal)
            for i in range(h + p):
                j = i + int(rng.random() * (size - i))
                deal[i], deal[j] = deal[j], deal[i]
            hands.append(deal[:h])
            pools.append(deal[h:h + p])
            stacks.append(deal[h + p:])
        st.hands, st.pools, st.stacks = hands, pools, stacks
        return st

    # --- inside -----------------------------------------------------------------------------

    def _copy(self, name: str, source: list[int]) -> list[int]:
        if self._copies is None:
            self._copies = {}
        copy = self._copies.get(name)
        if copy is None:
            copy = self._copies[name] = source[:]
        return copy

    def _hidden_tiles(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the tiles it still holds in hand, unchosen or in its stack, as this seat knows them.

        Another seat's: its tiles less those it has on the board and those that
        left the game, sorted. This seat's own: its hand, its unchosen tiles,
        then its stack's contents sorted.
        """
        if self._hidden is None:
            rules, pos = self.rules, self._pos
            counts = [_tile_counts(rules) for _ in range(rules.players)]
            owner, kind = pos.tile_owner, pos.tile_type
            for h in range(rules.board.size):
                if owner[h] != EMPTY:
                    counts[owner[h]][kind[h]] -= 1
            hidden = []
            for seat in range(rules.players):
                remaining = counts[seat]
                for tile in self._left[seat]:
                    remaining[tile] -= 1
                if seat == self.seat:
                    own = pos.hands[seat] + pos.pools[seat]
                    for tile in own:
                        remaining[tile] -= 1
                    hidden.append((*own, *(t for t, c in enumerate(remaining) for _ in range(c))))
                else:
                    hidden.append(tuple(t for t, c in enumerate(remaining) for _ in range(c)))
            self._hidden = tuple(hidden)
        return self._hidden


_EMPTY_LIST: list[int] = []
"""Stands for other seats' tiles in a knowledge's position: never read, never changed."""

_NO_GENERATOR = random.Random(0)
"""A knowledge's position has no generator of the game; nothing draws from this one."""

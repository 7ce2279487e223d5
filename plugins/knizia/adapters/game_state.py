"""Knizia's Samurai behind the game protocol (``samurai.protocol``).

``HexGameState`` wraps the compiled ``Rules`` and the fast ``State`` of one
game and speaks the protocol's int-tuple actions (the engine's own, see
``samurai_plugins.knizia.engine.reference``), so search, tournaments and servers drive it without
knowing the hex engine.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Mapping
from typing import Any, Protocol

from samurai.catalog.editions import Edition
from samurai_plugins.knizia.core.state import EMPTY, OVER, State
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.engine.backends import (
    NATIVE,
    PYTHON,
    Engine,
    engine_for,
    engine_of,
    native_module_or_error,
    native_rules,
)
from samurai_plugins.knizia.engine.evaluation import estimate_returns
from samurai_plugins.knizia.engine.greedy import GreedyBot, GreedyPlayer
from samurai_plugins.knizia.play.game import Game, action_of, check_seed, edition_of
from samurai_plugins.knizia.play.knowledge import LeftGame, SeatKnowledge
from samurai_plugins.knizia.play.views import seat_view

__all__ = ["HexGameState", "HexSeatKnowledge", "SeatBot", "decide", "start", "returns_of"]

_SHAPES = {engine.CHOOSE: 2, engine.FIGURE: 3, engine.PLACE: 3, engine.END: 1, engine.SPECIAL: 0}
"""The length of each kind of engine action (0: special tiles, whose behaviour checks its own targets)."""


class HexGameState:
    """One position of Knizia's Samurai on the protocol's fast path."""

    __slots__ = ("rules", "state", "moves", "_left_game", "engine")

    def __init__(self, rules: Rules, state: State, moves: int = 0, engine: Engine | None = None) -> None:
        self.rules = rules
        self.state = state
        """The engine's position: a ``State`` on the Python engine, a ``NativeState`` on the native one."""
        self.moves = moves
        self.engine = engine_of(state) if engine is None else engine
        """The engine that plays it (``samurai_plugins.knizia.engine.backends``; by default the one whose position
        ``state`` is)."""
        self._left_game: LeftGame | None = None

    @classmethod
    def of_game(cls, game: Game) -> HexGameState:
        """The position of a friendly ``Game`` (a copy: the game itself is not changed by play here)."""
        return cls(game.rules, game.state.copy(), len(game.history), game.engine)

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if self.state.phase == OVER or self.state.current == EMPTY else self.state.current

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.phase == OVER

    @property
    def move_number(self) -> int:
        """How many actions have been applied since the start."""
        return self.moves

    def legal_actions(self) -> list[tuple[int, ...]]:
        """Every legal engine action for the seat to act, in the engine's stable order."""
        return self.engine.legal_actions(self.rules, self.state)

    def check(self, action: tuple[int, ...]) -> str | None:
        """Why ``action`` is illegal now, or None. Anything that is not an engine action is illegal."""
        if not isinstance(action, tuple) or not action or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in action):
            return f"an action is a tuple of whole numbers >= 0, not {action!r}"
        shape = _SHAPES.get(action[0])
        if shape is None or (shape and len(action) != shape):
            return f"{list(action)} is not an action of this game"
        try:  # engine.check indexes tables by the action's numbers: one out of range is simply not legal
            reason = self.engine.check(self.rules, self.state, action)
        except (IndexError, ValueError, TypeError):
            return f"{list(action)} names a tile, hex, caste or settlement this game does not have"
        return reason

    def apply(self, action: tuple[int, ...]) -> None:
        """Play a legal action (not checked: see ``check``)."""
        self.engine.apply(self.rules, self.state, action)
        self.moves += 1

    def sample_action(self, rng: random.Random) -> tuple[int, ...]:
        """A random legal action (``samurai_plugins.knizia.engine.reference.sample_action``)."""
        return self.engine.sample_action(self.rules, self.state, rng)

    def policy_action(self, rng: random.Random) -> tuple[int, ...]:
        """What the greedy player (``samurai_plugins.knizia.engine.greedy``) would play for the seat to act,
        on its knowledge only."""
        seat = self.to_act
        if seat is None:
            raise ValueError("the game is over: no seat is to act")
        if self.engine is NATIVE:
            return NATIVE.greedy_action(self.rules, self.state, rng)
        return decide(GreedyPlayer(rng), self.rules, self.state, seat, self._left(), self.moves)

    def returns(self) -> tuple[float, ...]:
        """1 for a sole win, 1/k each for a win shared by k, 0 otherwise; all 0 while the game goes on."""
        return returns_of(self.state, self.rules.players)

    def evaluate(self) -> tuple[float, ...]:
        """The returns once over; before that a cheap estimate
        (``samurai_plugins.knizia.engine.evaluation.estimate_returns``)."""
        if self.state.phase == OVER:
            return self.returns()
        return estimate_returns(self.rules, self.state)

    def copy(self) -> HexGameState:
        """An independent copy (its generator included)."""
        return HexGameState(self.rules, self.state.copy(), self.moves, self.engine)

    def knowledge(self, seat: int) -> HexSeatKnowledge:
        """What ``seat`` knows now (``HexSeatKnowledge``), detached from this position."""
        knowledge = HexSeatKnowledge(self.rules, self.state, seat, move_number=self.moves, left_game=self._left())
        knowledge.engine = self.engine
        return knowledge

    def determinize(self, seat: int, rng: random.Random) -> HexGameState:
        """A position agreeing with all ``seat`` knows, the rest drawn from ``rng`` (``SeatKnowledge.determinize``)."""
        return self.knowledge(seat).determinize(rng)

    def ask(self, bot: SeatBot) -> tuple[int, ...]:
        """The action ``bot`` picks for the seat to act, given that seat's knowledge only (not checked).

        The knowledge is built for this one decision (``decide``),
        so asking a fast bot costs little.
        """
        seat = self.to_act
        if seat is None:
            raise ValueError("the game is over: no seat is to act")
        return decide(bot, self.rules, self.state, seat, self._left(), self.moves, self.engine)

    def _left(self) -> LeftGame:
        if self._left_game is None:
            self._left_game = LeftGame()
        return self._left_game

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-ready dicts (``samurai_plugins.knizia.play.views.seat_view``)."""
        return seat_view(self.rules, self.state, seat)

    def describe(self, action: tuple[int, ...]) -> dict[str, Any]:
        """The friendly action (``samurai_plugins.knizia.core.actions``) as a JSON-ready dict."""
        return action_of(self.rules, action).to_dict()


class HexSeatKnowledge(SeatKnowledge):
    """A seat's knowledge as a position of Knizia's game hands it out (``HexGameState.knowledge``, ``decide``): a
    ``samurai_plugins.knizia.play.knowledge.SeatKnowledge`` that draws a whole position agreeing with it
    (``protocol.Knowledge.determinize``)."""

    __slots__ = ("engine",)

    engine: Engine
    """The engine of the position it was read from; the positions it draws are played on the same one."""

    def determinize(self, rng: random.Random) -> HexGameState:
        """A full position agreeing with this knowledge, the rest drawn from ``rng``.

        Every other seat's hand, unchosen tiles and stack are a uniform random
        deal of its unseen tiles; the position gets a fresh generator seeded
        from ``rng`` for the refills (so the order of every stack is drawn too).
        """
        state = self.determinized_state(rng, random.Random(rng.getrandbits(64)))
        engine = getattr(self, "engine", PYTHON)  # unset for a knowledge built directly, of a Python position
        return HexGameState(self.rules, engine.of_state(self.rules, state, trusted=True), self.move_number, engine)

    def search_natively(self, rng: random.Random, *, simulations: int | None, seconds: float | None,
                        exploration: float, playout: int | None, replies: bool,
                        worlds: int | None, finish: float = 0.0, statistics: bool = False
                        ) -> tuple[Any, ...] | None:
        """The information-set search's decision for this seat run inside the native engine, or None where it
        cannot run (a knowledge of a Python-engine position, or an edition that scores in Python).

        ``samurai.search.mcts.MCTSBot`` offers its options here before it searches in Python. With a budget of
        simulations the native search makes exactly the decision the Python search makes, drawing the same
        numbers from ``rng`` (the bot's generator, advanced as the Python search would advance it): a port of the
        same steps (``plugins/knizia/engine/native/src/search.rs``). It reads only this knowledge. The result is
        the action and the number of simulations run; with ``statistics``, a third item too: the root's statistics, per
        tried legal action in the legal order ``(action, visits, every seat's mean returns)`` (``MCTSBot.statistics``).
        """
        if getattr(self, "engine", PYTHON) is not NATIVE:
            return None
        hand_sizes, pool_sizes, _ = self._sizes
        found: tuple[tuple[int, ...], int, Any] | None = native_module_or_error().search_decision(
            native_rules(self.rules), self._pos, self.seat, self._hidden_tiles(), hand_sizes, pool_sizes, rng,
            simulations=simulations, seconds=seconds, exploration=exploration, playout=playout, replies=replies,
            worlds=worlds, finish=finish, statistics=statistics)
        if found is None:
            return None
        return found if statistics else found[:2]


class SeatBot(Protocol):
    """A bot for Knizia's Samurai: it may read the engine's ``HexSeatKnowledge`` (every ``protocol.Bot`` is one)."""

    name: str

    def act(self, knowledge: HexSeatKnowledge) -> tuple[int, ...]:
        """The action to play now (the knowledge's seat is the one to act)."""


def decide(bot: SeatBot, rules: Rules, st: State, seat: int, left_game: LeftGame,
           move_number: int = 0, engine: Engine | None = None) -> tuple[int, ...]:
    """Ask ``bot`` for ``seat``'s action in ``st``, handing it only that seat's knowledge.

    The knowledge reads the public lists in place while the bot decides and is
    detached afterwards if the bot kept it (it is then a copy of the position
    as it was), so a fast bot pays only for what it reads. A bot whose action
    is by definition ``sample_action`` drawn from a generator it names as
    ``samples_from`` (the random bot) gets that very draw made on the position
    (the engine's sampler reads only what the seat to act may know), which
    keeps random playouts as fast as before bots were handed knowledge. On the native ``engine`` the greedy
    player decides natively, by the same steps on what its seat may know.
    """
    if engine is None:
        engine = engine_of(st)
    sampler = getattr(bot, "samples_from", None)
    if sampler is not None:
        return engine.sample_action(rules, st, sampler)
    if engine is NATIVE and type(bot) in _NATIVE_GREEDY:
        return NATIVE.greedy_action(rules, st, bot.rng)  # type: ignore[attr-defined]
    knowledge = HexSeatKnowledge._during_decision(rules, st, seat, move_number, left_game.of(rules, st))
    knowledge.engine = engine
    action = bot.act(knowledge)
    kept = weakref.ref(knowledge)
    del knowledge
    still_held = kept()
    if still_held is not None:
        still_held.detach()
    return action


_NATIVE_GREEDY = (GreedyPlayer, GreedyBot)
"""The greedy players the native engine decides for (exactly these classes: a subclass may decide otherwise)."""


def returns_of(state: State, players: int) -> tuple[float, ...]:
    """The protocol's returns for a finished engine state (all 0 before the end)."""
    if state.result is None:
        return (0.0,) * players
    return state.result.shares(players)


def start(edition: str | Edition, players: int, seed: int, *,
          options: Mapping[str, Any] | None = None, engine: str | None = None) -> HexGameState:
    """A new game's position on the protocol: an edition (id or loaded), 2-4 players, a seed, options, and the
    engine (``"python"``, ``"native"`` or ``"auto"``; default ``SAMURAI_ENGINE``, else auto)."""
    check_seed(seed)
    rules = edition_of(edition).rules(players, options)
    chosen = engine_for(rules, engine)
    return HexGameState(rules, chosen.new_state(rules, seed), engine=chosen)

"""Bots: ``random`` and ``greedy``. A bot sees one seat's ``Observation``, nothing more.

A bot is any object with ``name`` and ``act(observation) -> action tuple``
(engine actions, see ``samurai.engine``); ``make_bot(name, seed)`` builds the
built-in ones, each with its own seeded generator so a game's randomness and
the bots' never mix.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from . import engine
from .maps import LAND
from .rules import Rules
from .state import EMPTY, FIGURES, HANDS, State

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Bot", "Observation", "RandomBot", "GreedyBot", "BOTS", "make_bot", "play_bots"]

CAPTURE_VALUE = 10
"""How many points of influence the greedy bot trades for one figure captured now."""


class Observation:
    """One seat's window on a game, for bots: its own hand and the public board.

    The board lists (``tile_owner``, ``tile_type``, ``figures``, ``empty_around``)
    are the engine's own and must be treated as read-only.
    """

    __slots__ = ("rules", "seat", "_state")

    def __init__(self, rules: Rules, state: State, seat: int) -> None:
        self.rules = rules
        self.seat = seat
        self._state = state

    @property
    def phase(self) -> int:
        """The engine phase number (``samurai.state.HANDS`` ... ``OVER``)."""
        return self._state.phase

    @property
    def hand(self) -> list[int]:
        """This seat's tile types in hand."""
        return self._state.hands[self.seat]

    @property
    def unchosen(self) -> list[int]:
        """This seat's tiles not yet chosen (while choosing starting hands)."""
        return self._state.pools[self.seat]

    @property
    def tile_owner(self) -> list[int]:
        """The seat owning the tile on each hex, or -1 for an empty hex."""
        return self._state.tile_owner

    @property
    def tile_type(self) -> list[int]:
        """The tile type on each hex (see ``Rules.tile_types``), or -1."""
        return self._state.tile_type

    @property
    def figures(self) -> list[int]:
        """Caste bitmask of the figures in each settlement."""
        return self._state.figures

    @property
    def empty_around(self) -> list[int]:
        """Empty land hexes around each settlement (0: surrounded)."""
        return self._state.empty_around

    @property
    def tiles_played_this_turn(self) -> int:
        """How many tiles the seat to act has played so far this turn."""
        return self._state.played

    def legal_actions(self) -> list[tuple[int, ...]]:
        """Every legal action now (the seat must be the one to act)."""
        return engine.legal_actions(self.rules, self._state)

    def random_action(self, rng: random.Random) -> tuple[int, ...]:
        """A random legal action, drawn from ``rng`` (``samurai.engine.sample_action``)."""
        return engine.sample_action(self.rules, self._state, rng)


class Bot(Protocol):
    """Anything that picks an action for the seat it observes."""

    name: str

    def act(self, observation: Observation) -> tuple[int, ...]:
        """The action to play now."""


class RandomBot:
    """Plays a random legal action: a random playable tile, then a random target."""

    name = "random"
    trusted = True
    """Its actions are legal by construction; simulations need not check them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> tuple[int, ...]:
        return engine.sample_action(observation.rules, observation._state, self.rng)


class GreedyBot:
    """Plays the tile and hex worth most right now; ends the turn when nothing gains.

    Worth = influence added to figures next to the hex, plus ``CAPTURE_VALUE``
    for each figure the tile wins (or minus for one it lets an opponent win) in
    a settlement that will resolve this turn. It keeps its strongest tiles as
    a starting hand and places figures at random.
    """

    name = "greedy"
    trusted = True
    """It picks among the engine's legal actions; simulations need not check them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> tuple[int, ...]:
        rules = observation.rules
        if observation.phase == HANDS:
            best = max(rules.tile_types[t].influence for t in observation.unchosen)
            strongest = sorted({t for t in observation.unchosen if rules.tile_types[t].influence == best})
            return engine.CHOOSE, strongest[int(self.rng.random() * len(strongest))]
        if observation.phase == FIGURES:
            return observation.random_action(self.rng)
        best_value, best_actions = None, []
        for action in observation.legal_actions():
            if action[0] == engine.END:
                value = 0
            elif action[0] == engine.PLACE:
                value = self._worth(observation, action[1], action[2])
            elif getattr(rules.behaviours[action[1]], "name", None) == "move":
                source, target = action[2], action[3]
                moved = observation.tile_type[source]
                value = self._worth(observation, moved, target) - \
                    self._worth(observation, moved, source, placed=True)
            else:
                value = -1  # other special tiles: keep them unless nothing else can be played
            if best_value is None or value > best_value:
                best_value, best_actions = value, [action]
            elif value == best_value:
                best_actions.append(action)
        return best_actions[int(self.rng.random() * len(best_actions))]

    def _worth(self, obs: Observation, tile: int, h: int, placed: bool = False) -> int:
        """Influence the tile adds next to ``h`` plus captures it decides this turn."""
        rules = obs.rules
        board = rules.board
        value = rules.tile_value
        figures, empty_around = obs.figures, obs.empty_around
        fills_land = board.terrain[h] == LAND and not placed
        worth = 0
        for s in board.adjacent_settlements[h]:
            mask = figures[s]
            if not mask:
                continue
            resolves = empty_around[s] - (1 if fills_land else 0) == 0
            for caste in range(3):
                if not mask >> caste & 1:
                    continue
                worth += value[tile * 3 + caste]
                if resolves:
                    worth += CAPTURE_VALUE * (self._captures(obs, s, caste, tile, h, placed, with_tile=True)
                                              - self._captures(obs, s, caste, tile, h, placed, with_tile=False))
        return worth

    def _captures(self, obs: Observation, s: int, caste: int, tile: int, h: int, placed: bool,
                  with_tile: bool) -> int:
        """+1 if this seat would capture the figure, -1 if an opponent would, 0 on a tie."""
        rules = obs.rules
        influence = [0] * rules.players
        owner, kind, value = obs.tile_owner, obs.tile_type, rules.tile_value
        for n in rules.settlement_neighbours[s]:
            if n == h:
                continue
            if owner[n] != EMPTY:
                influence[owner[n]] += value[kind[n] * 3 + caste]
        if with_tile:
            influence[obs.seat] += value[tile * 3 + caste]
        best = max(influence)
        if influence.count(best) > 1:
            return 0
        return 1 if influence.index(best) == obs.seat else -1


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}
"""The built-in bots by name."""


def make_bot(name: str, seed: int) -> Bot:
    """A built-in bot by name, with its own generator seeded by ``seed``."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOTS)}")
    return BOTS[name](seed)


def play_bots(game: Game, bots: Sequence[str], *, seed: int = 0, actions: int | None = None) -> None:
    """Let built-in bots play ``game`` through ``Game.apply`` (so its history can be saved).

    Seat ``k`` gets ``bots[k % len(bots)]``, seeded from ``seed``; play stops
    when the game is over or after ``actions`` actions.
    """
    from .errors import DataError
    from .game import Game, check_seed

    if not isinstance(game, Game):
        raise TypeError(f"play_bots plays a Game, not {type(game).__name__}")
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots \
            or not all(isinstance(name, str) and name in BOTS for name in bots):
        raise DataError(f"bots must be a non-empty list of bot names ({', '.join(BOTS)}), not {bots!r:.80}",
                        source="bots")
    check_seed(seed)
    if actions is not None and (isinstance(actions, bool) or not isinstance(actions, int) or actions < 0):
        raise DataError(f"actions must be a whole number from 0 or None, not {actions!r:.40}", source="actions")
    players = [make_bot(bots[seat % len(bots)], seed * 1_000_003 + seat) for seat in range(game.players)]
    played = 0
    while not game.is_over and (actions is None or played < actions):
        seat = game.state.current
        game.apply(game.to_action(players[seat].act(Observation(game.rules, game.state, seat))))
        played += 1

"""Knizia's Samurai's greedy player: the tile and hex worth most right now.

Worth = influence added to figures next to the hex, plus ``CAPTURE_VALUE``
for each figure the tile wins (or minus for one it lets an opponent win) in a
settlement that will resolve this turn; a special tile is worth what its
behaviour says (``TileBehaviour.greedy_worth``). It keeps its strongest tiles as a
starting hand and places figures at random. It reads only a seat's knowledge,
so the ``greedy`` bot (``GreedyBot``, Knizia's own bot:
``samurai_plugins.knizia.adapters.search_bots``) and the searches' replies
(``HexGameState.policy_action``) both use it without seeing hidden tiles.
"""

from __future__ import annotations

import random
from typing import Protocol

from samurai_plugins.knizia.core.maps import LAND
from samurai_plugins.knizia.core.state import EMPTY, FIGURES, HANDS
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as engine

__all__ = ["CAPTURE_VALUE", "GreedyKnowledge", "GreedyPlayer", "GreedyBot", "greedy_action"]

CAPTURE_VALUE = 10
"""How many points of influence the greedy player trades for one figure captured now."""


class GreedyKnowledge(Protocol):
    """What the greedy player reads of its seat's knowledge, and nothing more (``samurai_plugins.knizia.play.knowledge
    .SeatKnowledge`` has it all): typed by what it reads, the player sits below the position that asks it for
    the searches' replies."""

    rules: Rules
    seat: int

    @property
    def phase(self) -> int:
        """The engine phase number."""

    @property
    def unchosen(self) -> list[int]:
        """The seat's unchosen tiles."""

    @property
    def tile_owner(self) -> list[int]:
        """The seat that placed each hex's tile."""

    @property
    def tile_type(self) -> list[int]:
        """The tile type on each hex."""

    @property
    def figures(self) -> list[int]:
        """The castes on each settlement, as a bit mask."""

    @property
    def empty_around(self) -> list[int]:
        """How many land hexes around each settlement are empty."""

    def legal_actions(self) -> list[tuple[int, ...]]:
        """Every legal action of the seat."""

    def sample_action(self, rng: random.Random) -> tuple[int, ...]:
        """A random legal action of the seat."""


class GreedyPlayer:
    """The greedy player as a bot whose ties are drawn from ``rng``: ``GreedyBot`` seeds its own,
    ``HexGameState.policy_action`` hands it the search's."""

    name = "greedy"
    trusted = True
    """It picks among the engine's legal actions; simulations need not check them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: GreedyKnowledge) -> tuple[int, ...]:
        """The tile and hex worth most now (``greedy_action``)."""
        return greedy_action(observation, self.rng)


class GreedyBot(GreedyPlayer):
    """The ``greedy`` bot: plays the tile and hex worth most right now; ends the turn when nothing gains.

    It keeps its strongest tiles as a starting hand and places figures at random; ties are drawn from its own
    generator, seeded by ``seed``.
    """

    def __init__(self, seed: int) -> None:
        super().__init__(random.Random(seed))


def greedy_action(observation: GreedyKnowledge, rng: random.Random) -> tuple[int, ...]:
    """The action worth most now for the observation's seat (see the module); ties drawn from ``rng``."""
    rules = observation.rules
    if observation.phase == HANDS:
        best = max(rules.tile_types[t].influence for t in observation.unchosen)
        strongest = sorted({t for t in observation.unchosen if rules.tile_types[t].influence == best})
        return engine.CHOOSE, strongest[int(rng.random() * len(strongest))]
    if observation.phase == FIGURES:
        return observation.sample_action(rng)
    best_value, best_actions = None, []
    board = observation.figures, observation.empty_around  # read once: the knowledge copies what is read

    def worth(tile: int, h: int, placed: bool) -> int:
        return _worth(observation, board, tile, h, placed)

    for action in observation.legal_actions():
        if action[0] == engine.END:
            value = 0
        elif action[0] == engine.PLACE:
            value = _worth(observation, board, action[1], action[2])
        else:  # a special tile: its behaviour judges it (TileBehaviour.greedy_worth)
            behaviour = rules.behaviours[action[1]]
            assert behaviour is not None
            value = behaviour.greedy_worth(action[2:], observation.tile_type, worth)
        if best_value is None or value > best_value:
            best_value, best_actions = value, [action]
        elif value == best_value:
            best_actions.append(action)
    return best_actions[int(rng.random() * len(best_actions))]


def _worth(obs: GreedyKnowledge, lists: tuple[list[int], list[int]], tile: int, h: int, placed: bool = False) -> int:
    """Influence the tile adds next to ``h`` plus captures it decides this turn (``lists``: figures and
    empty land around each settlement)."""
    rules = obs.rules
    board = rules.board
    value = rules.tile_value
    figures, empty_around = lists
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
                worth += CAPTURE_VALUE * (_captures(obs, s, caste, tile, h, with_tile=True)
                                          - _captures(obs, s, caste, tile, h, with_tile=False))
    return worth


def _captures(obs: GreedyKnowledge, s: int, caste: int, tile: int, h: int, with_tile: bool) -> int:
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

"""Bots: ``random``, ``greedy`` and ``mcts`` (levels ``easy``, ``medium``, ``hard``). A bot is handed
its seat's knowledge, nothing more.

A bot is any object with ``name`` and ``act(knowledge) -> action tuple``
(``samurai.protocol.Bot``; engine actions, see ``samurai.engine``). The
knowledge (``samurai.knowledge.SeatKnowledge``) holds what the seat may know
and no path to the real game. ``make_bot(name, seed)`` builds the built-in
ones, each with its own seeded generator so a game's randomness and the bots'
never mix.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import engine
from .knowledge import LeftGame, SeatBot, SeatKnowledge, decide
from .maps import LAND
from .mcts import MCTSBot
from .state import EMPTY, FIGURES, HANDS

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Bot", "Observation", "RandomBot", "GreedyBot", "MCTSBot", "BOTS", "LEVELS", "BOT_NAMES", "make_bot",
           "play_bots"]

CAPTURE_VALUE = 10
"""How many points of influence the greedy bot trades for one figure captured now."""


Bot = SeatBot
"""Anything that picks an action for its seat from the seat's knowledge (``samurai.knowledge.SeatBot``)."""

Observation = SeatKnowledge
"""What a bot is handed: its seat's knowledge (``samurai.knowledge.SeatKnowledge``), never the game itself."""


class RandomBot:
    """Plays a random legal action: a random playable tile, then a random target."""

    name = "random"
    trusted = True
    """Its actions are legal by construction; simulations need not check them."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    @property
    def samples_from(self) -> random.Random:
        """Its action is exactly ``sample_action`` drawn from this generator (see ``samurai.knowledge.decide``)."""
        return self.rng

    def act(self, knowledge: SeatKnowledge) -> tuple[int, ...]:
        """A random legal action (``SeatKnowledge.sample_action``)."""
        return knowledge.sample_action(self.rng)


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
    games = ("knizia",)
    """The games it plays (``samurai.matches.check_bots_play`` refuses it for another): it reads Knizia's
    hands, hexes and settlements."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: SeatKnowledge) -> tuple[int, ...]:
        """The tile and hex worth most now (see the class)."""
        rules = observation.rules
        if observation.phase == HANDS:
            best = max(rules.tile_types[t].influence for t in observation.unchosen)
            strongest = sorted({t for t in observation.unchosen if rules.tile_types[t].influence == best})
            return engine.CHOOSE, strongest[int(self.rng.random() * len(strongest))]
        if observation.phase == FIGURES:
            return observation.sample_action(self.rng)
        best_value, best_actions = None, []
        board = observation.figures, observation.empty_around  # read once: the knowledge copies what is read
        for action in observation.legal_actions():
            if action[0] == engine.END:
                value = 0
            elif action[0] == engine.PLACE:
                value = self._worth(observation, board, action[1], action[2])
            elif getattr(rules.behaviours[action[1]], "name", None) == "move":
                source, target = action[2], action[3]
                moved = observation.tile_type[source]
                value = self._worth(observation, board, moved, target) - \
                    self._worth(observation, board, moved, source, placed=True)
            else:
                value = -1  # other special tiles: keep them unless nothing else can be played
            if best_value is None or value > best_value:
                best_value, best_actions = value, [action]
            elif value == best_value:
                best_actions.append(action)
        return best_actions[int(self.rng.random() * len(best_actions))]

    def _worth(self, obs: SeatKnowledge, lists: tuple[list[int], list[int]], tile: int, h: int,
               placed: bool = False) -> int:
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
                    worth += CAPTURE_VALUE * (self._captures(obs, s, caste, tile, h, placed, with_tile=True)
                                              - self._captures(obs, s, caste, tile, h, placed, with_tile=False))
        return worth

    def _captures(self, obs: SeatKnowledge, s: int, caste: int, tile: int, h: int, placed: bool,
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
"""The built-in bots without a budget, by name (``BOT_NAMES`` lists every name ``make_bot`` takes)."""

LEVELS: dict[str, int] = {"easy": 50, "medium": 3500, "hard": 15000}
"""MCTS simulations per decision of each level: about 0.002 s, 0.25 s and 1.2 s on one core (the mean over
whole 2-player FFG 2015 games; more players take longer; README "Bots"). Counts, not seconds, so that a
level plays the same game on any machine.

``easy`` is far below the 0.05 s first planned for it because 800 simulations (0.05 s) played as well as
3,500; with fewer simulations than a turn has actions the search scores only a random part of them, which
puts it between ``greedy`` and ``medium`` (the figures: README "Bots" and "Measured strength")."""

BOT_NAMES = ("random", "greedy", "easy", "medium", "hard", "mcts:SIMULATIONS", "mcts:SECONDSs",
             "mcts-rollouts:SIMULATIONS", "mcts-rollouts:SECONDSs")
"""The bot names ``make_bot`` understands, as shown in help and error messages."""


def make_bot(name: str, seed: int) -> Bot:
    """A built-in bot by name, with its own generator seeded by ``seed``.

    Names: ``random``, ``greedy``, the MCTS levels ``easy``, ``medium``, ``hard``
    (``LEVELS``), ``mcts:N`` (N simulations per decision: deterministic for the
    seed) and ``mcts:Xs`` (X seconds per decision: depends on the machine);
    ``mcts-rollouts:N`` and ``mcts-rollouts:Xs`` are the plain search that
    plays every simulation out to the end at random instead of taking the
    game's estimate at the leaf (``samurai.mcts``).
    """
    if not isinstance(name, str):
        raise TypeError(f"a bot is named by a string, not {name!r}")
    if name in BOTS:
        return BOTS[name](seed)
    if name in LEVELS:
        return MCTSBot(seed, simulations=LEVELS[name], name=name)
    for prefix, playout in (("mcts:", 0), ("mcts-rollouts:", None)):
        if name.startswith(prefix):
            return _mcts(name, name[len(prefix):], playout, seed)
    raise ValueError(f"unknown bot {name!r}; bots are {', '.join(BOT_NAMES)}")


def _mcts(name: str, budget: str, playout: int | None, seed: int) -> MCTSBot:
    """An MCTS bot for ``mcts:BUDGET`` or ``mcts-rollouts:BUDGET``; one clear error for a bad budget."""
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not 0 < seconds <= 3600:
                raise ValueError
            return MCTSBot(seed, seconds=seconds, playout=playout)
        if not budget.isascii() or not budget.isdigit() or not 0 < int(budget) <= 10_000_000:
            raise ValueError
        return MCTSBot(seed, simulations=int(budget), playout=playout)
    except ValueError:
        prefix = name[:len(name) - len(budget)]
        raise ValueError(f"bot {name!r}: the MCTS budget is {prefix}N simulations (1 to 10000000) or "
                         f"{prefix}Xs seconds (more than 0, at most 3600), e.g. {prefix}2000 or {prefix}1.5s") from None


def play_bots(game: Game, bots: Sequence[str], *, seed: int = 0, actions: int | None = None) -> None:
    """Let built-in bots play ``game`` through ``Game.apply`` (so its history can be saved).

    Seat ``k`` gets ``bots[k % len(bots)]``, seeded from ``seed``; play stops
    when the game is over or after ``actions`` actions.
    """
    from .errors import DataError
    from .game import Game, check_seed

    if not isinstance(game, Game):
        raise TypeError(f"play_bots plays a Game, not {type(game).__name__}")
    if isinstance(bots, str) or not isinstance(bots, Sequence) or not bots:
        raise DataError(f"bots must be a non-empty list of bot names ({', '.join(BOT_NAMES)}), not {bots!r:.80}",
                        source="bots")
    for name in bots:
        try:
            make_bot(name, 0)
        except (TypeError, ValueError) as refused:
            raise DataError(str(refused), source="bots") from None
    check_seed(seed)
    if actions is not None and (isinstance(actions, bool) or not isinstance(actions, int) or actions < 0):
        raise DataError(f"actions must be a whole number from 0 or None, not {actions!r:.40}", source="actions")
    players = [make_bot(bots[seat % len(bots)], seed * 1_000_003 + seat) for seat in range(game.players)]
    left_game = LeftGame()
    played = 0
    while not game.is_over and (actions is None or played < actions):
        seat = game.state.current
        action = decide(players[seat], game.rules, game.state, seat, left_game, len(game.history))
        game.apply(game.to_action(action))
        played += 1

"""Speed: full random games per second for each player count, the paths search and comparisons use,
and MCTS simulations per second.

``run_bench`` runs the same loop as ``samurai simulate`` with random bots at
every seat (setup included) and reports wall-clock and CPU figures.
``time_paths`` times a position copy and ``Game.legal_actions`` at the
opening of a 4-player game, ``time_compare`` a ``samurai compare`` run on
one core, and ``run_mcts_bench`` the MCTS bot's search (full rollouts) from
the first turn of play and from mid-game. Numbers, not assertions: machines
differ and are shared, so each path is timed several times and the fastest
repetition counts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import attrs

from ..catalog.editions import Edition
from ..runs.compare import compare
from ..search.mcts import MCTSBot
from ..seeds import derive_seed
from .editions import knizia_edition
from .engine import new_state
from .game import Game, new_game
from .position import HexGameState
from .simulate import play_game
from .state import PLAY

__all__ = ["BenchFigure", "run_bench", "PathFigures", "opening", "time_paths", "CompareFigure", "time_compare",
           "MCTSFigure", "run_mcts_bench", "MCTS_POSITIONS"]

_REPEATS = 5


@attrs.frozen
class BenchFigure:
    """How fast one player count played."""

    players: int
    games: int
    seconds: float
    cpu_seconds: float

    @property
    def games_per_second(self) -> float:
        """Games per wall-clock second."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def games_per_cpu_second(self) -> float:
        """Games per second of this process's CPU time (one core)."""
        return self.games / self.cpu_seconds if self.cpu_seconds else 0.0


def run_bench(edition: Edition, players: Sequence[int] = (2, 3, 4), games: int = 2000,
              seed: int = 1) -> list[BenchFigure]:
    """Play ``games`` random games for each player count and time them."""
    figures = []
    for count in players:
        rules = knizia_edition(edition).rules(count)
        play_game(rules, seed, ("random",))  # warm up caches before timing
        wall, cpu = time.perf_counter(), time.process_time()
        for index in range(games):
            play_game(rules, derive_seed(seed, index), ("random",))
        figures.append(BenchFigure(count, games, time.perf_counter() - wall, time.process_time() - cpu))
    return figures


@attrs.frozen
class PathFigures:
    """How long the paths a search repeats take at one position."""

    players: int
    actions: int
    """How many legal actions the position has."""
    copy_seconds: float
    """``State.copy()``, the generator copied too."""
    copy_given_rng_seconds: float
    """``State.copy(rng=...)``: the caller's generator, shared."""
    legal_actions_seconds: float
    """``Game.legal_actions()``: every friendly action, sorted."""


def opening(edition: Edition, players: int = 4, seed: int = 1) -> Game:
    """The first position of play of a ``players``-player game whose setup was chosen by random legal actions."""
    game = new_game(edition, players=players, seed=seed, trace=False)
    rng = random.Random(seed)
    while game.phase in ("choose_hands", "place_figures"):
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    return game


def _fastest(call: Callable[[], object], number: int) -> float:
    """Seconds per call: the fastest of a few timed repetitions (others share the machine)."""
    best = float("inf")
    for _ in range(_REPEATS):
        start = time.perf_counter()
        for _ in range(number):
            call()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def time_paths(edition: Edition, players: int = 4, seed: int = 1) -> PathFigures:
    """Time a position copy and ``Game.legal_actions`` at the ``opening`` of a game."""
    game = opening(edition, players, seed)
    st, shared = game.state, random.Random(seed)
    return PathFigures(players, len(game.legal_actions()), _fastest(st.copy, 2000),
                       _fastest(lambda: st.copy(rng=shared), 2000), _fastest(game.legal_actions, 20))


@attrs.frozen
class CompareFigure:
    """How fast ``compare`` played and measured paired games on one core."""

    edition_a: str
    edition_b: str
    players: int
    pairs: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games (two per pair) per wall-clock second."""
        return 2 * self.pairs / self.seconds if self.seconds else 0.0


def time_compare(edition_a: str, edition_b: str, players: int, pairs: int, seed: int = 1) -> CompareFigure:
    """Time ``compare`` of ``pairs`` paired random games in one process, editions loaded included."""
    start = time.perf_counter()
    compare(edition_a, edition_b, players=players, games=pairs, seed=seed, workers=1)
    return CompareFigure(edition_a, edition_b, players, pairs, time.perf_counter() - start)


MCTS_POSITIONS = ("first turn", "mid-game")
"""Where ``run_mcts_bench`` searches from: the first turn of play, and the first turn on which half of
all tiles are down."""


@attrs.frozen
class MCTSFigure:
    """How fast the MCTS bot searched from one kind of position."""

    position: str
    decisions: int
    simulations: int
    seconds: float
    cpu_seconds: float

    @property
    def simulations_per_second(self) -> float:
        """Simulations per wall-clock second."""
        return self.simulations / self.seconds if self.seconds else 0.0

    @property
    def simulations_per_cpu_second(self) -> float:
        """Simulations per second of this process's CPU time (one core)."""
        return self.simulations / self.cpu_seconds if self.cpu_seconds else 0.0


def _bench_position(edition: Edition, players: int, seed: int, position: str) -> HexGameState:
    """A position of a random game at the start of a turn of play: the first, or once half the tiles are down."""
    rules = knizia_edition(edition).rules(players)
    half = players * len(rules.player_tiles) // 2
    rng = random.Random(seed)
    while True:  # a random game that ends before half its tiles are down is rare: try the next seed
        state = HexGameState(rules, new_state(rules, seed))
        while not state.is_over:
            st = state.state
            if st.phase == PLAY and st.played == 0 and (position == "first turn" or st.tiles_played >= half):
                return state
            state.apply(state.sample_action(rng))
        seed += 1


def run_mcts_bench(edition: Edition, players: int = 2, simulations: int = 2000, decisions: int = 5, seed: int = 1,
                   progress: Callable[[int], None] | None = None) -> list[MCTSFigure]:
    """Time ``decisions`` searches of ``simulations`` each from every kind of position (``MCTS_POSITIONS``),
    with full random rollouts (the slowest simulations: the levels' estimate at the leaf is faster)."""
    figures = []
    done = 0
    for position in MCTS_POSITIONS:
        wall = cpu = 0.0
        for index in range(decisions):
            state = _bench_position(edition, players, derive_seed(seed, index), position)
            knowledge = state.knowledge(state.to_act)  # type: ignore[arg-type]
            bot = MCTSBot(derive_seed(seed + 1, index), simulations=simulations, playout=None)  # full rollouts
            legal = knowledge.legal_actions()
            started, started_cpu = time.perf_counter(), time.process_time()
            bot.search(knowledge, legal)
            wall += time.perf_counter() - started
            cpu += time.process_time() - started_cpu
            done += 1
            if progress is not None:
                progress(done)
        figures.append(MCTSFigure(position, decisions, decisions * simulations, wall, cpu))
    return figures

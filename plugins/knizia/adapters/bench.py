"""Speed: full random games per second for each player count, the paths search and comparisons use,
and MCTS simulations per second, on either engine (``samurai_plugins.knizia.engine.backends``).

``run_bench`` runs the same loop as ``samurai simulate`` with random bots at
every seat (setup included) and reports wall-clock and CPU figures.
``time_paths`` times a position copy and the legal actions (the protocol's and
``Game.legal_actions``) at the opening of a 4-player game, ``time_compare`` a
``samurai compare`` run on one core, and ``run_mcts_bench`` the MCTS bot's
search (full rollouts) from the first turn of play and from mid-game. Each
takes the engine to time. Numbers, not assertions: machines differ and are
shared, so each path is timed several times and the fastest repetition counts.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import attrs

from samurai.catalog.editions import Edition
from samurai.runs.compare import compare
from samurai.runs.matches import Batch
from samurai.search.bots import SEARCHES, Search, make_bot
from samurai.search.mcts import MCTSBot
from samurai.seeds import derive_seed
from samurai_plugins.knizia.adapters.game_state import HexGameState
from samurai_plugins.knizia.adapters.runner import play_batch
from samurai_plugins.knizia.core.state import PLAY
from samurai_plugins.knizia.engine.backends import ENGINE_VARIABLE, PYTHON, engine_for, native_module_or_error
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.play.game import Game, new_game

__all__ = ["BenchFigure", "run_bench", "PathFigures", "opening", "time_paths", "CompareFigure", "time_compare",
           "MCTSFigure", "run_mcts_bench", "MCTS_POSITIONS", "MCTS_KINDS", "LevelFigure", "time_level",
           "engine_environment"]

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
              seed: int = 1, engine: str = "python") -> list[BenchFigure]:
    """Play ``games`` random games for each player count on ``engine`` and time them: the batches of the runner
    ``samurai simulate`` plays on each worker (``samurai_plugins.knizia.adapters.runner.play_batch``),
    in one process."""
    figures = []
    for count in players:
        knizia_edition(edition).rules(count)
        warm_up = Batch(edition.reference, count, {}, seed, ("random",), (0,), False)
        timed = Batch(edition.reference, count, {}, seed, ("random",), tuple(range(games)), False)
        with engine_environment(engine):
            play_batch(edition, warm_up)  # caches and the native tables, before timing
            wall, cpu = time.perf_counter(), time.process_time()
            play_batch(edition, timed)
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
    """``State.copy(rng=...)``: the caller's generator (shared on the Python engine, its state copied on the native
    one)."""
    legal_actions_seconds: float
    """``Game.legal_actions()``: every friendly action, sorted."""
    protocol_copy_seconds: float = 0.0
    """``HexGameState.copy()``: the position on the game protocol, as a search copies it."""
    protocol_legal_actions_seconds: float = 0.0
    """``HexGameState.legal_actions()``: the engine's action tuples, as a search lists them."""
    playout_seconds: float = 0.0
    """A random playout to the end from a copy of the position, every seat drawing from one generator (the
    engine's own kind): what a search's rollout costs, without a new game's seeding."""
    playout_inside_seconds: float | None = None
    """The same playout when a hundred run in one native call (``NativeState.playouts``), no Python between them:
    what a search kept inside the engine pays per rollout. None on the Python engine, whose playout above is
    already one fused loop."""


def opening(edition: Edition, players: int = 4, seed: int = 1, engine: str | None = None) -> Game:
    """The first position of play of a ``players``-player game whose setup was chosen by random legal actions."""
    game = new_game(edition, players=players, seed=seed, trace=False, engine=engine)
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


def time_paths(edition: Edition, players: int = 4, seed: int = 1, engine: str = "python") -> PathFigures:
    """Time a position copy and the legal actions at the ``opening`` of a game on ``engine``."""
    game = opening(edition, players, seed, engine)
    st, shared = game.state, random.Random(seed)
    position = HexGameState.of_game(game)
    chosen, rules = game.engine, game.rules
    rollout = random.Random(seed) if chosen is PYTHON else native_module_or_error().MersenneTwister(seed)
    seats = [rollout] * players

    def playout() -> None:
        chosen.play_random(rules, st.copy(rng=rollout) if chosen is PYTHON else st.copy(), seats)

    native_position: Any = st  # a NativeState on the native engine
    inside = None if chosen is PYTHON else _fastest(lambda: native_position.playouts(rollout, _INSIDE), 3) / _INSIDE
    return PathFigures(players, len(game.legal_actions()), _fastest(st.copy, 2000),
                       _fastest(lambda: st.copy(rng=shared), 2000), _fastest(game.legal_actions, 20),
                       _fastest(position.copy, 2000), _fastest(position.legal_actions, 500), _fastest(playout, 100),
                       inside)


_INSIDE = 100
"""Playouts per native call when timing them inside the engine."""


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


@contextmanager
def engine_environment(engine: str) -> Iterator[None]:
    """``SAMURAI_ENGINE`` set to ``engine`` for the length of the block (a run's games take their engine from it),
    then as it was."""
    before = os.environ.get(ENGINE_VARIABLE)
    os.environ[ENGINE_VARIABLE] = engine
    try:
        yield
    finally:
        if before is None:
            del os.environ[ENGINE_VARIABLE]
        else:
            os.environ[ENGINE_VARIABLE] = before


def time_compare(edition_a: str, edition_b: str, players: int, pairs: int, seed: int = 1, engine: str = "python",
                 bots: Sequence[str] = ("random",)) -> CompareFigure:
    """Time ``compare`` of ``pairs`` paired games between ``bots`` in one process on ``engine``, editions loaded
    included."""
    with engine_environment(engine):
        start = time.perf_counter()
        compare(edition_a, edition_b, players=players, games=pairs, seed=seed, bots=bots, workers=1)
        return CompareFigure(edition_a, edition_b, players, pairs, time.perf_counter() - start)


MCTS_POSITIONS = ("first turn", "mid-game")
"""Where ``run_mcts_bench`` searches from: the first turn of play, and the first turn on which half of
all tiles are down."""


MCTS_KINDS = {"rollouts": Search(playout=None), "replies": SEARCHES["mcts-replies:"]}
"""The searches ``run_mcts_bench`` times: full random rollouts (``mcts-rollouts``) and the quick player's replies on
common worlds (``mcts-replies``, the levels' search)."""


@attrs.frozen
class MCTSFigure:
    """How fast the MCTS bot searched from one kind of position."""

    position: str
    decisions: int
    simulations: int
    seconds: float
    cpu_seconds: float
    kind: str = "rollouts"
    """``rollouts`` or ``replies`` (``MCTS_KINDS``)."""

    @property
    def simulations_per_second(self) -> float:
        """Simulations per wall-clock second."""
        return self.simulations / self.seconds if self.seconds else 0.0

    @property
    def simulations_per_cpu_second(self) -> float:
        """Simulations per second of this process's CPU time (one core)."""
        return self.simulations / self.cpu_seconds if self.cpu_seconds else 0.0


def _bench_position(edition: Edition, players: int, seed: int, position: str, engine: str) -> HexGameState:
    """A position of a random game at the start of a turn of play: the first, or once half the tiles are down."""
    rules = knizia_edition(edition).rules(players)
    chosen = engine_for(rules, engine)
    half = players * len(rules.player_tiles) // 2
    rng = random.Random(seed)
    while True:  # a random game that ends before half its tiles are down is rare: try the next seed
        state = HexGameState(rules, chosen.new_state(rules, seed), engine=chosen)
        while not state.is_over:
            st = state.state
            if st.phase == PLAY and st.played == 0 and (position == "first turn" or st.tiles_played >= half):
                return state
            state.apply(state.sample_action(rng))
        seed += 1


def run_mcts_bench(edition: Edition, players: int = 2, simulations: int = 2000, decisions: int = 5, seed: int = 1,
                   progress: Callable[[int], None] | None = None, engine: str = "python",
                   kinds: Sequence[str] = tuple(MCTS_KINDS)) -> list[MCTSFigure]:
    """Time ``decisions`` decisions of ``simulations`` each from every kind of position (``MCTS_POSITIONS``), for
    each kind of search (``MCTS_KINDS``), the positions on ``engine``: on the Python engine the Python search, on
    the native one the native search (``HexSeatKnowledge.search_natively``), which make the same decisions."""
    figures = []
    done = 0
    for kind in kinds:
        search = MCTS_KINDS[kind]
        for position in MCTS_POSITIONS:
            wall = cpu = 0.0
            for index in range(decisions):
                state = _bench_position(edition, players, derive_seed(seed, index), position, engine)
                knowledge = state.knowledge(state.to_act)  # type: ignore[arg-type]
                bot = MCTSBot(derive_seed(seed + 1, index), simulations=simulations, playout=search.playout,
                              replies=search.replies, worlds=search.worlds)
                started, started_cpu = time.perf_counter(), time.process_time()
                bot.act(knowledge)
                wall += time.perf_counter() - started
                cpu += time.process_time() - started_cpu
                done += 1
                if progress is not None:
                    progress(done)
            figures.append(MCTSFigure(position, decisions, decisions * simulations, wall, cpu, kind))
    return figures


@attrs.frozen
class LevelFigure:
    """What a level's decisions cost in whole games with every seat at the level (processor time, one core)."""

    level: str
    players: int
    games: int
    decisions: int
    """The decisions of the play phase with more than one legal action (the others take no search)."""
    decision_seconds: float
    """Processor seconds of those decisions."""
    game_seconds: float
    """Processor seconds of every decision of the games."""

    @property
    def seconds_per_decision(self) -> float:
        """Processor seconds per decision of the play phase."""
        return self.decision_seconds / self.decisions if self.decisions else 0.0

    @property
    def minutes_per_thousand_games(self) -> float:
        """Processor minutes per 1,000 such games on one core."""
        return self.game_seconds / self.games * 1000 / 60 if self.games else 0.0


def time_level(edition: Edition, players: int, level: str, games: int, seed: int = 1,
               engine: str | None = None) -> LevelFigure:
    """Play ``games`` whole games with every seat at ``level`` (seeded, on ``engine``: by default the game's) and
    time each decision on the processor."""
    rules = knizia_edition(edition).rules(players)
    chosen = engine_for(rules, engine)
    decisions, decision_seconds, game_seconds = 0, 0.0, 0.0
    for index in range(games):
        game_seed = derive_seed(seed, index)
        state = HexGameState(rules, chosen.new_state(rules, game_seed), engine=chosen)
        bots = [make_bot(level, derive_seed(game_seed, seat)) for seat in range(players)]
        while not state.is_over:
            timed = state.state.phase == PLAY and len(state.legal_actions()) > 1
            started = time.process_time()
            action = state.ask(bots[state.state.current])
            spent = time.process_time() - started
            game_seconds += spent
            if timed:
                decisions += 1
                decision_seconds += spent
            state.apply(action)
    return LevelFigure(level, players, games, decisions, decision_seconds, game_seconds)

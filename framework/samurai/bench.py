"""Speed: full random games per second, for each player count.

Runs the same loop as ``samurai simulate`` with random bots at every seat
(setup included) and reports wall-clock and CPU figures. Numbers, not
assertions: machines differ and are shared.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import attrs

from .plugins import Edition
from .simulate import derive_seed, play_game

__all__ = ["BenchFigure", "run_bench"]


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
        rules = edition.rules(count)
        play_game(rules, seed, ("random",))  # warm up caches before timing
        wall, cpu = time.perf_counter(), time.process_time()
        for index in range(games):
            play_game(rules, derive_seed(seed, index), ("random",))
        figures.append(BenchFigure(count, games, time.perf_counter() - wall, time.process_time() - cpu))
    return figures

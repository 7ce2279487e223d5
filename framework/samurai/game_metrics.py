"""Per-game metrics: the numbers of one finished game, and the quantities ``samurai compare`` averages.

``GameFacts`` is what a finished game's record shows (``samurai.metrics.game_facts``
reads it). A ``GameMetric`` turns one game's facts into a number: 0 or 1 for a
rate ("did the first player win alone?"), any number for a mean ("turns").
The engine's own metrics (``core_game_metrics``) reach ``samurai compare``
through the ``samurai_game_metrics`` hook, like any plugin's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from .knizia.result import END_REASONS

__all__ = ["GameFacts", "GameMetric", "core_game_metrics"]


@attrs.frozen
class GameFacts:
    """The numbers of one finished game that the metrics use."""

    winners: tuple[int, ...]
    end_reason: str
    turns: int
    tiles_played: int
    captured: tuple[tuple[int, int, int], ...]
    """Per seat, figures captured of each caste (``CASTES`` order)."""
    removed: int
    midpoint_leader: int | None
    """The one seat with the most captured figures at the end of turn ``turns // 2`` (None: tied or too short)."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.captured)

    @property
    def figures_captured(self) -> int:
        """Figures captured by all seats together."""
        return sum(map(sum, self.captured))


@attrs.frozen
class GameMetric:
    """A quantity of one game that comparisons average over many.

    ``kind`` is ``"rate"`` (``value`` is 0 or 1: a share of games) or
    ``"mean"`` (any number per game); ``name`` is unique and stable (JSON,
    CSV), ``label`` is for people.
    """

    name: str
    label: str
    kind: str
    value: Callable[[Any], float]
    """One game's facts (``GameFacts`` for Knizia's game, what its watch gives for another) as a number."""


def core_game_metrics(players: int, first_player: int = 0) -> list[GameMetric]:
    """The engine's metrics: who wins, how long games last, how they end, what happens to the figures."""
    first = {first_player: " (first to play)"}
    metrics = [GameMetric(f"win_rate_seat_{seat}", f"seat {seat} wins alone{first.get(seat, '')}", "rate",
                          _wins_alone(seat)) for seat in range(players)]
    metrics += [
        GameMetric("first_player_advantage", "first player's edge: its sole-win rate minus the others' average",
                   "mean", _first_player_edge(first_player)),
        GameMetric("shared_win_rate", "shared win", "rate", lambda g: float(len(g.winners) > 1)),
        GameMetric("turns", "turns per game", "mean", lambda g: g.turns),
        GameMetric("tiles_played", "tiles played per game", "mean", lambda g: g.tiles_played),
    ]
    metrics += [GameMetric(f"end_{reason}", f"ended: {text}", "rate", _ended(reason))
                for reason, text in END_REASONS.items()]
    metrics += [
        GameMetric("figures_captured", "figures captured per game", "mean", lambda g: g.figures_captured),
        GameMetric("figures_removed", "figures removed by ties per game", "mean", lambda g: g.removed),
    ]
    return metrics


def _wins_alone(seat: int) -> Callable[[GameFacts], float]:
    return lambda g: float(g.winners == (seat,))


def _first_player_edge(first: int) -> Callable[[GameFacts], float]:
    """Per game: 1 if the first player wins alone, minus the share of the other seats that do (0 when fair)."""
    def edge(g: GameFacts) -> float:
        alone = g.winners[0] if len(g.winners) == 1 else None
        return (1.0 if alone == first else 0.0) - (1.0 if alone not in (None, first) else 0.0) / (g.players - 1)
    return edge


def _ended(reason: str) -> Callable[[GameFacts], float]:
    return lambda g: float(g.end_reason == reason)

"""The facts of a finished game of Knizia's: ``GameFacts``, what a finished game's record shows, collected by
``FactsWatch`` while a game is played (or its record replayed, ``samurai_plugins.knizia.adapters.measures.game_facts``),
and the engine's own per-game metrics over them (``core_game_metrics``), which reach ``samurai compare`` through the
``samurai_game_metrics`` hook like any plugin's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from samurai.runs.statistics import GameMetric
from samurai_plugins.knizia.core.result import END_REASONS
from samurai_plugins.knizia.core.state import State

__all__ = ["GameFacts", "core_game_metrics", "FactsWatch", "PositionFactsWatch"]


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


class FactsWatch:
    """Collects a game's facts while it is played: shown the position before the first action and
    after each one (``see``), it gives the finished game's ``GameFacts`` (``facts``).

    ``game_facts`` watches a record's replay; ``samurai compare`` watches its games as they are
    played, so the same facts come without building and replaying a record.
    """

    __slots__ = ("players", "turn", "totals_after_turn")

    def __init__(self, players: int) -> None:
        self.players = players
        self.turn = 0
        self.totals_after_turn: dict[int, tuple[int, ...]] = {}

    def see(self, st: State) -> None:
        """Note the captured totals when a turn has just ended."""
        if st.turn != self.turn:
            if self.turn >= 1:
                self.totals_after_turn[self.turn] = _totals(st.captured, self.players)
            self.turn = st.turn

    def facts(self, st: State) -> GameFacts:
        """The facts of the finished game in ``st``."""
        result = st.result
        assert result is not None and result.end_reason is not None
        middle = st.turn // 2
        leader = None
        if middle in self.totals_after_turn:
            totals = self.totals_after_turn[middle]
            best = max(totals)
            if totals.count(best) == 1:
                leader = totals.index(best)
        captured = tuple((st.captured[s * 3], st.captured[s * 3 + 1], st.captured[s * 3 + 2])
                         for s in range(self.players))
        return GameFacts(result.winners, result.end_reason, st.turn, st.tiles_played, captured, st.removed_total,
                         leader)


class PositionFactsWatch(FactsWatch):
    """A ``FactsWatch`` shown either engine's positions (the fast paths) or this game's positions on the protocol
    (``samurai_plugins.knizia.adapters.game_state.HexGameState``, whose engine state is its ``state``): this game's
    ``GameMeasures.watch``, so ``samurai compare`` measures the same facts on either path."""

    __slots__ = ()

    def see(self, st: Any) -> None:
        """Note the captured totals when a turn has just ended."""
        super().see(_engine_position(st))

    def facts(self, st: Any) -> GameFacts:
        """The facts of the finished game in ``st``."""
        return super().facts(_engine_position(st))


def _engine_position(st: Any) -> Any:
    """The engine's position of ``st``: itself (either engine's), or a protocol position's ``state``."""
    inner = getattr(st, "state", None)
    return st if inner is None else inner


def _totals(captured: Sequence[int], players: int) -> tuple[int, ...]:
    return tuple(sum(captured[s * 3:s * 3 + 3]) for s in range(players))

"""What a set of games shows: facts read from game records, and metrics with 95% confidence intervals.

``game_facts`` replays one record and keeps the numbers the metrics need.
``compare_metrics`` takes the facts of paired games (game i under edition A
and under edition B share seed and bots) and returns one ``Metric`` per
question, each with its estimate and interval under A and B and, where the
games pair up, the paired difference B − A. Stored records can be analysed
again at any time: the metrics depend on nothing but the records.

Intervals: a rate uses the Wilson score interval; a mean, and the paired
difference of two rates or means, the normal approximation of the mean
(z = 1.96). Decisiveness is defined only for games with a midpoint leader;
its difference pairs the games that have one under both editions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from .errors import DataError
from .game_metrics import GameFacts, GameMetric, core_game_metrics
from .knizia.records import GameRecord, replay
from .knizia.result import Result
from .knizia.state import State
from .plugins import Edition

__all__ = ["Z95", "GameFacts", "GameMetric", "Estimate", "Metric", "game_facts", "FactsWatch", "compare_metrics",
           "wilson_interval", "mean_interval", "paired_difference", "scoring_disagreement", "average_metrics"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def game_facts(record: GameRecord, *, edition: Edition | None = None, source: str = "record") -> GameFacts:
    """Replay a finished game's record and read its facts."""
    watch = FactsWatch(record.players)
    game = None
    for game in replay(record, edition=edition, source=source, trace=False):
        watch.see(game.state)
    assert game is not None
    if game.result is None or game.result.end_reason is None:
        raise DataError(f"the game is not over after its {len(record.actions)} actions", source=source, key="actions")
    return watch.facts(game.state)


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


def _totals(captured: Sequence[int], players: int) -> tuple[int, ...]:
    return tuple(sum(captured[s * 3:s * 3 + 3]) for s in range(players))


# --- intervals ---------------------------------------------------------------------------------

@attrs.frozen
class Estimate:
    """A value with its 95% confidence interval and the number of games behind it."""

    value: float
    low: float
    high: float
    n: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def wilson_interval(successes: float, n: int) -> Estimate:
    """The rate ``successes / n`` with its Wilson score interval (sensible at 0 and 1 too; a shared win may
    count as a fraction of a success)."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean_interval(values: Sequence[float]) -> Estimate:
    """The mean with its normal-approximation interval (sample standard deviation)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """The mean of ``b[i] - a[i]`` over paired games, with its interval."""
    if len(a) != len(b):
        raise ValueError(f"paired samples must have one value per game each ({len(a)} against {len(b)})")
    return mean_interval([y - x for x, y in zip(a, b, strict=True)])


# --- metrics -----------------------------------------------------------------------------------

@attrs.frozen
class Metric:
    """One question about two editions: its answer under A and B and the difference B − A."""

    name: str
    label: str
    kind: str
    """``"rate"`` (a share of games, 0..1) or ``"mean"`` (per game)."""
    a: Estimate
    b: Estimate
    difference: Estimate | None
    """None where the two sides do not pair up (scoring disagreement)."""
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"name": self.name, "label": self.label, "kind": self.kind, "a": self.a.to_dict(),
                "b": self.b.to_dict(), "difference": self.difference.to_dict() if self.difference else None,
                "note": self.note}


def _decisiveness(a: Sequence[GameFacts], b: Sequence[GameFacts]) -> Metric:
    def leader_wins(g: GameFacts) -> float:
        return 1.0 if g.winners == (g.midpoint_leader,) else 0.0

    def estimate(games: Sequence[GameFacts]) -> Estimate:
        led = [leader_wins(g) for g in games if g.midpoint_leader is not None]
        return wilson_interval(int(sum(led)), len(led))

    both = [(x, y) for x, y in zip(a, b, strict=True)
            if x.midpoint_leader is not None and y.midpoint_leader is not None]
    difference = paired_difference([leader_wins(x) for x, _ in both], [leader_wins(y) for _, y in both])
    return Metric("decisiveness", "midpoint leader on captured figures wins alone", "rate", estimate(a), estimate(b),
                  difference, note="among games with one seat ahead on captured figures after the middle turn; "
                                   "B − A over the games with such a leader under both editions")


def scoring_disagreement(games: Sequence[GameFacts], scorer: Callable[[Mapping[int, Mapping[str, int]]], Result]) \
        -> Estimate:
    """The share of these games' final positions that ``scorer`` decides differently (other winners)."""
    differ = 0
    for g in games:
        captured = {seat: {"buddha": c[0], "rice": c[1], "castle": c[2]} for seat, c in enumerate(g.captured)}
        if tuple(scorer(captured).winners) != tuple(g.winners):
            differ += 1
    return wilson_interval(differ, len(games))


def compare_metrics(a: Sequence[GameFacts], b: Sequence[GameFacts], *,
                    score_a: Callable[[Mapping[int, Mapping[str, int]]], Result],
                    score_b: Callable[[Mapping[int, Mapping[str, int]]], Result],
                    game_metrics: Sequence[GameMetric] | None = None, first_player: int = 0) -> list[Metric]:
    """Every metric for paired games ``a[i]``/``b[i]``; ``score_a``/``score_b`` are the two scorings.

    ``game_metrics`` are the per-game metrics to average (by default the
    engine's own, ``core_game_metrics``; ``samurai compare`` adds those the
    editions' plugins contribute through ``samurai_game_metrics``). Then come
    decisiveness and scoring disagreement, which need more than one game.
    """
    if len(a) != len(b) or not a:
        raise ValueError(f"compare needs the same number of games on both sides, at least one ({len(a)}, {len(b)})")
    if game_metrics is None:
        game_metrics = core_game_metrics(a[0].players, first_player)
    metrics = [_averaged(metric, a, b) for metric in game_metrics]
    metrics.append(_decisiveness(a, b))
    a_by_b, b_by_a = scoring_disagreement(a, score_b), scoring_disagreement(b, score_a)
    note = ("A column: A's final positions scored by B's rules; B column: B's positions scored by A's rules. "
            + ("The two scorings never decided differently on these games." if a_by_b.value == b_by_a.value == 0
               else ""))
    metrics.append(Metric("scoring_disagreement", "final positions the other scoring decides differently",
                          "rate", a_by_b, b_by_a, None, note.strip()))
    return metrics


def average_metrics(game_metrics: Sequence[GameMetric], a: Sequence[Any], b: Sequence[Any]) -> list[Metric]:
    """Each per-game metric averaged over paired games ``a[i]``/``b[i]`` (the facts of any game): a rate with
    its Wilson interval, a mean with its normal interval, and the paired difference B − A."""
    if len(a) != len(b) or not a:
        raise ValueError(f"compare needs the same number of games on both sides, at least one ({len(a)}, {len(b)})")
    return [_averaged(metric, a, b) for metric in game_metrics]


def _averaged(metric: GameMetric, a: Sequence[Any], b: Sequence[Any]) -> Metric:
    xs = [float(metric.value(g)) for g in a]
    ys = [float(metric.value(g)) for g in b]
    if metric.kind == "rate":
        if any(v not in (0.0, 1.0) for v in (*xs, *ys)):
            raise ValueError(f"metric {metric.name!r} is a rate, so each game's value must be 0 or 1")
        ea, eb = wilson_interval(int(sum(xs)), len(xs)), wilson_interval(int(sum(ys)), len(ys))
    else:
        ea, eb = mean_interval(xs), mean_interval(ys)
    return Metric(metric.name, metric.label, metric.kind, ea, eb, paired_difference(xs, ys))

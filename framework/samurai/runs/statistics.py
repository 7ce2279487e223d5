"""Statistics of paired games: estimates with 95% confidence intervals, and the metrics ``samurai compare``
reports, for the games of any game.

A ``GameMetric`` turns one game's facts into a number: 0 or 1 for a rate ("did the first player win alone?"),
any number for a mean ("turns"). ``average_metrics`` averages per-game metrics over paired games (game i under
edition A and under edition B share seed and bots) into ``Metric`` values, each with its estimate and interval
under A and B and the paired difference B - A.

Intervals: a rate uses the Wilson score interval; a mean, and the paired difference of two rates or means, the
normal approximation of the mean (z = 1.96).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs

__all__ = ["Z95", "Estimate", "Metric", "GameMetric", "wilson_interval", "mean_interval", "paired_difference",
           "average_metrics", "is_metric_value"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


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
    """One game's facts (what its game's watch gives, e.g. ``samurai.knizia.facts.GameFacts``) as a number."""


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


def is_metric_value(value: Any) -> bool:
    """Whether a metric gave a number ``samurai compare`` can average: a finite float or a 64-bit whole number."""
    return (isinstance(value, int) and abs(value) < 1 << 63) or (isinstance(value, float) and math.isfinite(value))

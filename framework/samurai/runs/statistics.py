"""Statistics of paired games: estimates with 95% confidence intervals, and the metrics ``samurai compare``
reports, for the games of any game.

A ``GameMetric`` turns one game's facts into a number: 0 or 1 for a rate ("did the first player win alone?"),
any number for a mean ("turns"). ``average_metrics`` averages per-game metrics over paired games (game i under
edition A and under edition B share seed and bots) into ``Metric`` values, each with its estimate and interval
under A and B and the paired difference B - A.

Intervals: a rate uses the Wilson score interval; a mean, and the paired difference of two rates or means, the
normal approximation of the mean (z = 1.96).

Tests (``samurai sweep`` and ``samurai balance``): ``difference_p_value`` is the two-sided z-test of a mean paired
difference (the test whose 95% interval ``paired_difference`` gives), ``share_p_value`` the two-sided score test of
a share against its par (the test whose interval is Wilson's), and ``holm`` corrects a family of p-values for
being read together (Holm's step-down method: it holds the chance of any false "beyond chance" in the family to
the level, 5%, with more power than Bonferroni's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs

__all__ = ["Z95", "LEVEL", "Estimate", "Metric", "GameMetric", "wilson_interval", "mean_interval",
           "paired_difference", "average_metrics", "is_metric_value", "difference_p_value", "share_p_value", "holm"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""

LEVEL = 0.05
"""The level of the tests: a family's chance of any false "beyond chance" (Holm), or one test's."""


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
    """One game's facts (what its game's watch gives, e.g.
    ``samurai_plugins.knizia.core.facts.GameFacts``) as a number."""


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


# --- tests -------------------------------------------------------------------------------------

def _two_sided(z: float) -> float:
    """The two-sided p-value of a standard normal statistic ``z``."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def difference_p_value(difference: Estimate) -> float:
    """The two-sided p-value of "the mean paired difference is 0", from the difference as ``paired_difference``
    gives it: the z-test whose 95% interval that is (the interval excludes 0 exactly when this is below 0.05).

    Differences with no spread (the interval a point) are read as they are: all zero (the games went alike, say
    under an option the edition ignores) is no evidence of a change (1.0); one other value in every game is a
    change (0.0). Fewer than two games test nothing (1.0)."""
    if difference.n < 2 or math.isnan(difference.value):
        return 1.0
    error = (difference.high - difference.low) / (2 * Z95)
    if error <= 1e-12 * max(1.0, abs(difference.value)):
        return 1.0 if difference.value == 0.0 else 0.0
    return _two_sided(difference.value / error)


def share_p_value(successes: float, n: int, par: float) -> float:
    """The two-sided p-value of "the share ``successes / n`` is ``par``": the score test, whose 95% interval is
    Wilson's (``wilson_interval`` excludes ``par`` exactly when this is below 0.05). No trials: 1.0."""
    if n == 0 or not 0.0 < par < 1.0:
        return 1.0
    return _two_sided((successes / n - par) / math.sqrt(par * (1.0 - par) / n))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values of a family of tests, in the order given: a test is beyond chance at level
    ``LEVEL`` when its adjusted p-value is below it, and the chance of any false one in the family stays at most
    ``LEVEL``. The smallest p-value is multiplied by the family's size, the next by one less, each at least the
    one before it, none above 1."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted

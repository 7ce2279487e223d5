"""Printing comparisons for people: one row per metric, A and B with intervals, and B − A."""

from __future__ import annotations

import math

from .compare import Comparison
from .statistics import Estimate, Metric

__all__ = ["print_comparison", "format_estimate", "format_difference", "star_legend"]


def format_estimate(estimate: Estimate, kind: str) -> str:
    """``37.0% (30.6–43.9)`` for a rate, ``36.70 (36.11–37.28)`` for a mean; ``–`` for no games."""
    if estimate.n == 0 or math.isnan(estimate.value):
        return "–"
    if kind == "rate":
        return f"{estimate.value:.1%} ({estimate.low:.1%}–{estimate.high:.1%})"
    return f"{estimate.value:.2f} ({estimate.low:.2f}–{estimate.high:.2f})"


def format_difference(difference: Estimate | None, kind: str) -> str:
    """``+3.5 pts (−1.2 to +8.1)``; a ``*`` marks an interval that excludes 0."""
    if difference is None or difference.n == 0 or math.isnan(difference.value):
        return "–"
    scale, unit = (100.0, " pts") if kind == "rate" else (1.0, "")
    mark = " *" if difference.low > 0 or difference.high < 0 else ""
    return (f"{difference.value * scale:+.2f}{unit} ({difference.low * scale:+.2f} to "
            f"{difference.high * scale:+.2f}){mark}")


def star_legend(comparison: Comparison) -> str:
    """What a ``*`` means, how many metrics have one, and how many chance alone would star."""
    compared = [m.difference for m in comparison.metrics
                if m.difference is not None and m.difference.n and not math.isnan(m.difference.value)]
    starred = sum(1 for d in compared if d.low > 0 or d.high < 0)
    return (f"* the 95% interval of B − A excludes 0: the rules change this beyond chance. {starred} of "
            f"{len(compared)} metrics are starred; where the editions played alike, chance alone would star about "
            f"{0.05 * len(compared):.1f} of them (each interval misses the truth one time in twenty), so read a lone "
            f"star among many metrics with care.")


def print_comparison(comparison: Comparison) -> None:
    """A rich table of every metric, then the notes."""
    from rich.console import Console
    from rich.table import Table

    seed = f", seed {comparison.seed}" if comparison.seed is not None else ""
    bots = f", bots {', '.join(comparison.bots)}" if comparison.bots else ""
    table = Table(title=f"A = {comparison.side('a')}, B = {comparison.side('b')}: {comparison.players} players, "
                        f"{comparison.games} paired games{seed}{bots}")
    for column in ("metric", "A (95% CI)", "B (95% CI)", "B − A (95% CI)"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    notes: list[Metric] = []
    for metric in comparison.metrics:
        table.add_row(metric.label, format_estimate(metric.a, metric.kind), format_estimate(metric.b, metric.kind),
                      format_difference(metric.difference, metric.kind))
        if metric.note:
            notes.append(metric)
    console = Console()
    console.print(table)
    console.print(star_legend(comparison))
    if comparison.bots and all(bot == "random" for bot in comparison.bots):
        console.print("Bots: random, so these figures describe aimless play; --bots greedy or a level (medium) "
                      "measures the rules as players who play well meet them.")
    for metric in notes:
        console.print(f"{metric.label}: {metric.note}")

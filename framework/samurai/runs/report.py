"""Printing runs for people: a comparison (one row per metric, A and B with intervals, and B − A), a sweep (a
table per player count, a column per setting) and a balance report (the metrics by player count, the seats and
the verdicts), each with a legend under it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .balance import SEAT_TEST, Balance
from .compare import Comparison
from .statistics import Estimate, Metric
from .sweep import SWEEP_TEST, Sweep

__all__ = ["print_comparison", "format_estimate", "format_difference", "star_legend", "print_sweep", "sweep_legend",
           "print_balance", "balance_legend"]


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
    _print_lines(console, [*_random_bots(comparison.bots), *(f"{metric.label}: {metric.note}" for metric in notes)])


_RANDOM_BOTS = ("Bots: random, so these figures describe aimless play; --bots greedy or a level (medium) measures the "
                "rules as players who play well meet them.")


def _random_bots(bots: Sequence[str]) -> list[str]:
    """The warning under a run of random bots only."""
    return [_RANDOM_BOTS] if bots and all(bot == "random" for bot in bots) else []


def _print_lines(console: Any, lines: Sequence[str]) -> None:
    for line in lines:
        console.print(line, highlight=False)


def _run_words(games: int, seed: int, bots: Sequence[str]) -> str:
    """``200 games, seed 1, bots greedy``: how a paired run was played."""
    return f"{games} games, seed {seed}, bots {', '.join(bots)}"


def _cell(estimate: Estimate | None, kind: str, mark: str = "") -> str:
    """An estimate in a narrow column: the value (and ``mark``), its 95% interval on the next line: ``37.0% *`` over
    ``30.6–43.9`` for a rate, ``36.70`` over ``36.11–37.28`` for a mean; ``–`` for none."""
    if estimate is None or estimate.n == 0 or math.isnan(estimate.value):
        return "–"
    if kind == "rate":
        return f"{estimate.value:.1%}{mark}\n{100 * estimate.low:.1f}–{100 * estimate.high:.1f}"
    return f"{estimate.value:.2f}{mark}\n{estimate.low:.2f}–{estimate.high:.2f}"


_LABEL_WIDTH = 20
"""The narrowest a table's column of metric labels is drawn (longer labels wrap)."""


def _table_width(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """The width of a table whose label column is ``_LABEL_WIDTH`` wide and whose other columns, these ``headers``
    over these cells, are drawn whole (each column's padding and border three characters, and one more)."""
    widths = [max(len(line) for text in (header, *(row[k] for row in rows)) for line in text.splitlines())
              for k, header in enumerate(headers)]
    return _LABEL_WIDTH + sum(widths) + 3 * (len(widths) + 1) + 1


def _p_text(p: float | None) -> str:
    if p is None:
        return "–"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def print_sweep(sweep: Sweep) -> None:
    """A rich table per player count (a row per metric, a column per setting, whether it changes with the value),
    then the legend."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    fixed = ", ".join(f"{name}={value}" for name, value in sweep.fixed.items())
    for table in sweep.tables:
        shown = Table(title=f"{sweep.edition}, sweeping {', '.join(sweep.swept) or 'nothing'}"
                            f"{f' with {fixed}' if fixed else ''}: {table.players} players, "
                            f"{_run_words(sweep.games, sweep.seed, sweep.bots)} per setting")
        headers = [f"{sweep.label(k)}{' (first)' if k == 0 and len(sweep.settings) > 1 else ''}"
                   for k in range(len(sweep.settings))] + ["changes? (Holm)"]
        rows = [[*(_cell(e, row.metric.kind, " *" if row.beyond_chance(k) else "")
                   for k, e in enumerate(row.metric.estimates)),
                 "–" if row.p is None else f"{'yes' if row.changes else 'no'}\n{_p_text(row.p)}"]
                for row in table.rows]
        shown.add_column("metric", min_width=_LABEL_WIDTH)
        for header in headers:
            shown.add_column(header, justify="right", no_wrap=True)
        for row, cells in zip(table.rows, rows, strict=True):
            shown.add_row(row.metric.label, *cells)
        # Every setting's column whole, on a terminal too narrow for them too (the terminal wraps the lines; a
        # table narrower than its columns would cut them off).
        Console(width=max(console.width, _table_width(headers, rows))).print(shown)
    _print_lines(console, sweep_legend(sweep))


def sweep_legend(sweep: Sweep) -> list[str]:
    """What a sweep's table means, a line each: the test, the stars, the notes, the bots."""
    tests = ", ".join(f"{table.tests} at {table.players} players" for table in sweep.tables)
    notes = {row.metric.label: row.metric.note for table in sweep.tables for row in table.rows if row.metric.note}
    return ["Each setting: the estimate over its 95% interval; * it differs from the first setting beyond chance on "
            "that metric. Changes?: yes when some setting does, with the smallest Holm-adjusted p-value. A metric "
            "whose games went alike under every setting (an option the edition ignores) has p = 1.",
            f"Test: {SWEEP_TEST} ({tests or 'none'}).",
            *_random_bots(sweep.bots),
            *(f"{label}: {note} (A: the first setting; B: each other)" for label, note in notes.items())]


def print_balance(balance: Balance) -> None:
    """A rich table of every metric by player count, one of the seats' shares of the games won alone, the verdict
    line of each player count and the legend."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    title = f"{balance.name()}: {_run_words(balance.games, balance.seed, balance.bots)} per player count"
    metrics = Table(title=title)
    metrics.add_column("metric", min_width=16)
    seats_title = "Each seat's share of the games won alone (par: 1 / players)"
    seats = Table(title=seats_title, min_width=len(seats_title) + 4)
    seats.add_column("seat", justify="right")
    for report in balance.reports:
        metrics.add_column(f"{report.players} players", justify="right", overflow="fold")
        seats.add_column(f"{report.players} players\n(par {report.par:.1%})", justify="right", overflow="fold")
    labels: dict[str, str] = {}
    for report in sorted(balance.reports, key=lambda report: -report.players):  # the most seats first, in order
        for metric in report.metrics:
            labels.setdefault(metric.name, metric.label)
    for name, label in labels.items():
        cells = []
        for report in balance.reports:
            found = [m for m in report.metrics if m.name == name]
            cells.append(_cell(found[0].estimates[0] if found else None, found[0].kind if found else "mean"))
        metrics.add_row(label, *cells)
    for seat in range(max(balance.players)):
        cells = []
        for report in balance.reports:
            if seat >= report.players:
                cells.append("")
                continue
            share = report.seats[seat]
            mark = "" if share.verdict == "within chance" else f" {share.verdict}"
            cells.append(_cell(share.share, "rate", mark))
        seats.add_row(str(seat), *cells)
    console.print(metrics)
    console.print(seats)
    _print_lines(console, [*(report.verdict() for report in balance.reports), *balance_legend(balance)])


def balance_legend(balance: Balance) -> list[str]:
    """What a balance report means, a line each: the seats' shares and their test, the bots."""
    return ["Metrics: each estimate over its 95% interval, from the games of the player count. Seats: the share of "
            "the games won alone that each seat won (a shared win or a draw favours nobody, so those games are left "
            "out), over its 95% interval; favoured or disfavoured: beyond chance.",
            f"Test: {SEAT_TEST}.",
            *_random_bots(balance.bots)]

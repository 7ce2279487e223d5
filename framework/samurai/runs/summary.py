"""The printed summary of a run of games (``samurai simulate``): one table of the seats, one of figures per game.

A run's summary (``samurai.runs.matches.MatchSummary``, or the one its game shows, ``GameDefinition.runner.summary``)
says what to show as a ``SummaryTable``; ``print_summary`` prints any of them, so the command line knows no game.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

__all__ = ["SummaryTable", "print_summary", "share_rows", "WIN_LEGEND"]

WIN_LEGEND = ("won alone: games the seat won with nobody beside it; shared wins: games it won together with others; "
              "win share: its wins with a win shared by k counted 1/k, over all games (par: 1 / players).")
"""What a summary's win columns mean (the same words as ``samurai tournament``'s)."""


@attrs.frozen
class SummaryTable:
    """What a run's summary shows, as text: a titled table of the seats, then figures per game."""

    title: str
    columns: tuple[str, ...]
    """The seat table's columns; the ``bot`` column is left-aligned, the others right-aligned."""
    rows: tuple[tuple[str, ...], ...]
    """One row a seat, a cell a column."""
    figures: tuple[tuple[str, str], ...]
    """Per game: what (``"turns"``) and its value (``"mean 12.0 (min 9, max 15)"``)."""
    legend: tuple[str, ...] = ()
    """What the columns and figures mean, a line each, printed under the tables."""


def share_rows(label: str, counts: Mapping[str, int], games: int) -> list[tuple[str, str]]:
    """One figure per reason: ``label: reason`` and how many games, with their share."""
    return [(f"{label}: {reason}", f"{count} ({count / games:.1%})") for reason, count in counts.items()]


def print_summary(table: SummaryTable) -> None:
    """Print a run's summary: the seats' table, then the figures."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    seats = Table(title=table.title)
    for column in table.columns:
        seats.add_column(column, justify="left" if column == "bot" else "right")
    for row in table.rows:
        seats.add_row(*row)
    console.print(seats)
    figures = Table(show_header=True)
    figures.add_column("per game")
    figures.add_column("value", justify="right")
    for name, value in table.figures:
        figures.add_row(name, value)
    console.print(figures)
    for line in table.legend:
        console.print(line)

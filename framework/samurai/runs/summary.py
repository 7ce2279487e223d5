"""The printed summary of a run of games (``samurai simulate``): one table of the seats, one of figures per game.

A run's summary (``samurai.runs.matches.MatchSummary``, or the one its game shows, ``GameDefinition.runner.summary``)
says what to show as a ``SummaryTable``; ``print_summary`` prints any of them, so the command line knows no game.
Every summary counts its seats' wins (``seat_wins``), spreads its per-game numbers (``spread``) and lays out its
table (``seat_table``) here, so the summaries of every game read alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

__all__ = ["SummaryTable", "print_summary", "share_rows", "WIN_LEGEND", "seat_wins", "seat_table", "spread",
           "spread_row"]

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


def seat_wins(bots: Sequence[str], returns: Sequence[Sequence[float]]) -> list[dict[str, Any]]:
    """Each seat's bot and wins over a run, from every game's returns (a seat that won alone 1, a win shared by k
    1/k each): ``seat``, ``bot``, ``wins`` (alone), ``shared_wins``, ``won_alone`` and ``win_share`` (over all
    games), as a summary's JSON and ``seat_table`` show them."""
    n = len(returns)
    seats = []
    for seat, bot in enumerate(bots):
        wins = sum(1 for game in returns if game[seat] == 1.0)
        seats.append({"seat": seat, "bot": bot, "wins": wins,
                      "shared_wins": sum(1 for game in returns if 0.0 < game[seat] < 1.0),
                      "won_alone": wins / n if n else 0.0,
                      "win_share": sum(game[seat] for game in returns) / n if n else 0.0})
    return seats


def spread(values: Sequence[int]) -> dict[str, Any]:
    """A per-game number over a run (each game's actions or turns): its ``mean``, ``min`` and ``max`` (0 for no
    games)."""
    return {"mean": sum(values) / len(values) if values else 0.0, "min": min(values, default=0),
            "max": max(values, default=0)}


def spread_row(label: str, figures: Mapping[str, Any]) -> tuple[str, str]:
    """A ``spread`` as a figure of the summary: ``label`` and ``mean 12.0 (min 9, max 15)``."""
    return label, f"mean {figures['mean']:.1f} (min {figures['min']}, max {figures['max']})"


def seat_table(title: str, seats: Sequence[Mapping[str, Any]], figures: Sequence[tuple[str, str]],
               legend: str) -> SummaryTable:
    """A run's summary as text: ``title``, a row a seat of ``seat_wins``, then ``figures``; under them the win
    columns' legend (``WIN_LEGEND``) and the figures' (``legend``)."""
    rows = tuple((str(seat["seat"]), seat["bot"], str(seat["wins"]), f"{seat['won_alone']:.1%}",
                  str(seat["shared_wins"]), f"{seat['win_share']:.1%}") for seat in seats)
    return SummaryTable(title, ("seat", "bot", "won alone", "won alone %", "shared wins", "win share"), rows,
                        tuple(figures), (WIN_LEGEND, legend))


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

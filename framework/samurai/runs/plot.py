"""Drawing runs: the main metrics of two editions side by side (a comparison), each metric against the swept
option's value with its 95% band (a sweep), and each seat's share of the wins against par (a balance report).

Needs matplotlib, an optional extra: ``pip install "samurai-engine[plot]"``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import DataError
from .balance import Balance
from .compare import Comparison
from .statistics import Metric
from .sweep import Sweep, SweepRow

__all__ = ["plot_comparison", "plot_sweep", "plot_balance"]

_FORMATS = (".png", ".svg")


def _pyplot(path: str | Path) -> tuple[Any, Path]:
    """matplotlib's pyplot (drawing to files) and the target path, once its suffix is checked: ``DataError``
    naming ``--plot`` for another suffix or without matplotlib."""
    target = Path(path)
    if target.suffix.lower() not in _FORMATS:
        raise DataError(f"the plot is saved as {' or '.join(_FORMATS)}, not {target.suffix or 'no suffix'!r}",
                        source="--plot")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DataError('--plot needs matplotlib: pip install "samurai-engine[plot]"', source="--plot") from None
    return plt, target


def _save(plt: Any, figure: Any, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target)
    plt.close(figure)
    return target


def plot_comparison(comparison: Comparison, path: str | Path,
                    panels: Sequence[tuple[str, Sequence[str]]] | None = None) -> Path:
    """Save a figure of grouped bars (A and B) with interval whiskers to a ``.png`` or ``.svg`` file.

    ``panels`` (each one's title and metric names or prefixes) are the game's, from its ``GameMeasures``; by
    default the comparison's own (``Comparison.panels``, the measured game's); empty: every metric in one panel.
    A panel no metric fills is left out."""
    plt, target = _pyplot(path)
    chosen = comparison.panels if panels is None else panels
    filled = [(title, [m for m in comparison.metrics if _shown(m.name, names)]) for title, names in chosen]
    filled = [(title, metrics) for title, metrics in filled if metrics] or [("Metrics", list(comparison.metrics))]
    figure, axes = plt.subplots(len(filled), 1, figsize=(9, 3.2 * len(filled)), squeeze=False)
    for ax, (title, metrics) in zip(axes[:, 0], filled, strict=True):
        _panel(ax, title, metrics, comparison)
    figure.suptitle(f"{comparison.side('a')} (A) against {comparison.side('b')} (B): {comparison.players} players, "
                    f"{comparison.games} paired games")
    figure.tight_layout(rect=(0, 0, 1, 0.98))
    return _save(plt, figure, target)


def _shown(name: str, patterns: Sequence[str]) -> bool:
    """A pattern ending in ``_`` is a prefix; any other is a whole metric name."""
    return any(name.startswith(p) if p.endswith("_") else name == p for p in patterns)


def _panel(ax: Any, title: str, metrics: Sequence[Metric], comparison: Comparison) -> None:
    width = 0.38
    positions = list(range(len(metrics)))
    for offset, side in ((-width / 2, "a"), (width / 2, "b")):
        label = comparison.side(side)
        values = [getattr(m, side).value for m in metrics]
        low = [max(0.0, v - getattr(m, side).low) for v, m in zip(values, metrics, strict=True)]
        high = [max(0.0, getattr(m, side).high - v) for v, m in zip(values, metrics, strict=True)]
        ax.bar([p + offset for p in positions], values, width, yerr=[low, high], capsize=3, label=label)
    ax.set_title(title)
    ax.set_xticks(positions)
    ax.set_xticklabels([m.label for m in metrics], rotation=12, ha="right", fontsize=8)
    ax.legend(fontsize=8)


# --- a sweep ---------------------------------------------------------------------------------------

def plot_sweep(sweep: Sweep, path: str | Path, panels: Sequence[tuple[str, Sequence[str]]] | None = None) -> Path:
    """Save a figure of every metric against the swept value, a line with its 95% band, to a ``.png`` or ``.svg``
    file: a row per panel of the game (``panels``, by default the sweep's own, ``Sweep.panels``; empty: every
    metric in one panel), a column per player count. A numeric option swept alone is drawn on its own scale;
    otherwise each setting is a place on the axis, named by its values. A value that differs from the first beyond
    chance is a filled marker, one within chance a hollow one."""
    plt, target = _pyplot(path)
    chosen = sweep.panels if panels is None else panels
    names = list(dict.fromkeys(row.metric.name for table in sweep.tables for row in table.rows))
    rows = [(title, [n for n in names if _shown(n, patterns)]) for title, patterns in chosen]
    rows = [(title, shown) for title, shown in rows if shown] or [("Metrics", names)]
    columns = len(sweep.tables)
    width = max(10.0, 4.6 * columns + 3.6)
    height = 3.1 * len(rows) + 0.8
    figure, axes = plt.subplots(len(rows), columns, figsize=(width, height), squeeze=False)
    places, ticks = _places(sweep)
    for column, table in enumerate(sweep.tables):
        by_name = {row.metric.name: row for row in table.rows}
        for line, (title, shown) in enumerate(rows):
            ax = axes[line, column]
            for colour, name in enumerate(shown):  # a metric keeps its colour in every column
                if name in by_name:
                    _sweep_line(ax, places, by_name[name], f"C{colour % 10}")
            ax.set_title(f"{title}: {table.players} players", fontsize=9)
            ax.set_xticks(places)
            ax.set_xticklabels(ticks, fontsize=8)
            ax.set_xlabel(", ".join(sweep.swept) or "setting", fontsize=8)
            ax.tick_params(axis="y", labelsize=8)
            ax.grid(alpha=0.3)
    for line in range(len(rows)):  # one legend a row, right of it: the metrics of every player count
        entries: dict[str, Any] = {}
        for ax in axes[line]:
            for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
                entries.setdefault(label, handle)
        axes[line, -1].legend(list(entries.values()), list(entries), fontsize=7, loc="upper left",
                              bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    title = (f"{sweep.edition}: {', '.join(sweep.swept) or 'settings'} swept, {sweep.games} paired games per "
             f"setting, bots {', '.join(sweep.bots)}")
    figure.suptitle(textwrap.fill(title, int(width * 11)) + "\nbands: 95% intervals; filled marker: differs from the "
                    "first value beyond chance (Holm), hollow: within chance", fontsize=10)
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.6 / height))  # room for the title's lines
    return _save(plt, figure, target)


def _places(sweep: Sweep) -> tuple[list[float], list[str]]:
    """Where each setting stands on the x axis, and its tick: the value itself for one numeric option swept alone,
    else 0, 1, 2, ... named by the settings' values."""
    labels = [sweep.label(k) for k in range(len(sweep.settings))]
    if len(sweep.swept) == 1:
        values = [setting[sweep.swept[0]] for setting in sweep.settings]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            return [float(v) for v in values], labels
    return [float(k) for k in range(len(sweep.settings))], labels


def _sweep_line(ax: Any, places: Sequence[float], row: SweepRow, colour: str) -> None:
    """One metric against the settings in ``colour``: its estimates joined by a line, its 95% band, filled markers
    where a setting differs from the first beyond chance."""
    shown = [(x, e, k) for k, (x, e) in enumerate(zip(places, row.metric.estimates, strict=True)) if e is not None]
    xs = [x for x, _, _ in shown]
    ax.plot(xs, [e.value for _, e, _ in shown], "-", linewidth=1.4, color=colour, label=_short(row.metric.label))
    ax.fill_between(xs, [e.low for _, e, _ in shown], [e.high for _, e, _ in shown], color=colour, alpha=0.13,
                    linewidth=0)
    for x, e, k in shown:
        ax.plot([x], [e.value], "o", markersize=5, color=colour,
                markerfacecolor=colour if row.beyond_chance(k) else "white")


def _short(label: str, width: int = 44) -> str:
    """A legend entry of at most ``width`` characters."""
    return label if len(label) <= width else label[:width - 1] + "…"


# --- a balance report --------------------------------------------------------------------------------

def plot_balance(balance: Balance, path: str | Path) -> Path:
    """Save a figure of each seat's share of the games won alone, a bar with its 95% whisker against par (a dashed
    line), a panel per player count, to a ``.png`` or ``.svg`` file: a seat favoured beyond chance is red, one
    disfavoured blue, the others grey."""
    plt, target = _pyplot(path)
    colours = {"favoured": "#c0392b", "disfavoured": "#2e6da4", "within chance": "#9e9e9e"}
    count = len(balance.reports)
    figure, axes = plt.subplots(1, count, figsize=(3.6 * count + 1.0, 3.8), squeeze=False)
    for ax, report in zip(axes[0], balance.reports, strict=True):
        seats = report.seats
        values = [seat.share.value for seat in seats]
        low = [max(0.0, seat.share.value - seat.share.low) for seat in seats]
        high = [max(0.0, seat.share.high - seat.share.value) for seat in seats]
        ax.bar([seat.seat for seat in seats], values, 0.6, yerr=[low, high], capsize=4,
               color=[colours[seat.verdict] for seat in seats])
        ax.axhline(report.par, color="black", linestyle="--", linewidth=1, label=f"par {report.par:.1%}")
        verdicts = [f"seat {seat.seat} {seat.verdict}" for seat in seats if seat.verdict != "within chance"]
        ax.set_title(f"{report.players} players: {'; '.join(verdicts) if verdicts else 'no seat beyond chance'}",
                     fontsize=9)
        ax.set_xticks([seat.seat for seat in seats])
        ax.set_xticklabels([f"seat {seat.seat}" for seat in seats], fontsize=8)
        ax.set_ylabel("share of the games won alone", fontsize=8)
        ax.set_ylim(0, min(1.0, max(seat.share.high for seat in seats) * 1.15 + 0.02))
        ax.legend(fontsize=8, loc="upper right")
    figure.suptitle(f"{balance.name()}: who wins alone, {balance.games} games per player count, bots "
                    f"{', '.join(balance.bots)}; whiskers: 95% intervals", fontsize=10)
    figure.tight_layout(rect=(0, 0, 1, 0.94))
    return _save(plt, figure, target)

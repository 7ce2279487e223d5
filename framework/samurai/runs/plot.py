"""Drawing a comparison: the main metrics of two editions side by side, with 95% intervals.

Needs matplotlib, an optional extra: ``pip install "samurai-engine[plot]"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import DataError
from .compare import Comparison
from .statistics import Metric

__all__ = ["plot_comparison"]

_FORMATS = (".png", ".svg")


def plot_comparison(comparison: Comparison, path: str | Path,
                    panels: Sequence[tuple[str, Sequence[str]]] | None = None) -> Path:
    """Save a figure of grouped bars (A and B) with interval whiskers to a ``.png`` or ``.svg`` file.

    ``panels`` (each one's title and metric names or prefixes) are the game's, from its ``GameMeasures``; by
    default the comparison's own (``Comparison.panels``, the measured game's); empty: every metric in one panel.
    A panel no metric fills is left out."""
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

    chosen = comparison.panels if panels is None else panels
    filled = [(title, [m for m in comparison.metrics if _shown(m.name, names)]) for title, names in chosen]
    filled = [(title, metrics) for title, metrics in filled if metrics] or [("Metrics", list(comparison.metrics))]
    figure, axes = plt.subplots(len(filled), 1, figsize=(9, 3.2 * len(filled)), squeeze=False)
    for ax, (title, metrics) in zip(axes[:, 0], filled, strict=True):
        _panel(ax, title, metrics, comparison)
    figure.suptitle(f"{comparison.side('a')} (A) against {comparison.side('b')} (B): {comparison.players} players, "
                    f"{comparison.games} paired games")
    figure.tight_layout(rect=(0, 0, 1, 0.98))
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target)
    plt.close(figure)
    return target


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

"""How well chances match results: reliability bins and the expected calibration error (ECE).

Each pair is a chance given before a decision (the mover's chance of winning) and the mover's result in the end
(1 for a win alone, a share of a shared win, 0 for a loss). The chances are cut into ``bins`` equal bins; a bin's
gap is how far its mean chance is from its mean result, and the ECE is the gaps weighted by the bins' shares of
the pairs: 0 for chances that are right on average at every level.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

__all__ = ["ReliabilityBin", "Calibration", "calibration", "plot_reliability"]


@attrs.frozen
class ReliabilityBin:
    """The pairs whose chance fell in ``[low, high)`` (the last bin holds 1 too)."""

    low: float
    high: float
    count: int
    mean_chance: float
    mean_result: float


@attrs.frozen
class Calibration:
    """The reliability bins of a set of pairs and their expected calibration error."""

    bins: tuple[ReliabilityBin, ...]
    ece: float
    pairs: int

    def table(self) -> list[str]:
        """The bins as lines of text, then the ECE."""
        lines = ["chance       pairs  mean chance  mean result"]
        lines += [f"{b.low:.2f}-{b.high:.2f} {b.count:8d} {b.mean_chance:12.3f} {b.mean_result:12.3f}"
                  for b in self.bins if b.count]
        lines.append(f"expected calibration error {self.ece:.4f} over {self.pairs} positions")
        return lines

    def to_dict(self) -> dict[str, object]:
        """The calibration as plain data (rounded to 6 places: the same numbers give the same text)."""
        return {"ece": round(self.ece, 6), "pairs": self.pairs,
                "bins": [[b.low, b.high, b.count, round(b.mean_chance, 6), round(b.mean_result, 6)]
                         for b in self.bins]}


def calibration(pairs: Sequence[tuple[float, float]], bins: int = 10) -> Calibration:
    """The reliability of ``(chance, result)`` pairs in ``bins`` equal bins of the chance."""
    if bins < 1:
        raise ValueError(f"bins must be at least 1, not {bins}")
    chances: list[list[float]] = [[] for _ in range(bins)]
    results: list[list[float]] = [[] for _ in range(bins)]
    for chance, result in pairs:
        slot = min(bins - 1, int(chance * bins))
        chances[slot].append(chance)
        results[slot].append(result)
    out, error = [], 0.0
    for slot in range(bins):
        count = len(chances[slot])
        mean_chance = sum(chances[slot]) / count if count else 0.0
        mean_result = sum(results[slot]) / count if count else 0.0
        out.append(ReliabilityBin(slot / bins, (slot + 1) / bins, count, mean_chance, mean_result))
        error += count * abs(mean_chance - mean_result)
    return Calibration(tuple(out), error / len(pairs) if pairs else 0.0, len(pairs))


def plot_reliability(result: Calibration, path: str | Path) -> Path:
    """The reliability diagram as a PNG (needs matplotlib, the ``plot`` extra): mean result against mean chance
    per bin, beside the diagonal of perfect calibration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(4.5, 4.5))
    used = [b for b in result.bins if b.count]
    axes.plot([0, 1], [0, 1], linestyle="--", color="grey", label="perfectly calibrated")
    axes.plot([b.mean_chance for b in used], [b.mean_result for b in used], marker="o", label="model")
    axes.set_xlabel("chance given to the mover")
    axes.set_ylabel("mover's result")
    axes.set_title(f"ECE {result.ece:.3f} over {result.pairs} positions")
    axes.legend(loc="upper left")
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return Path(path)

"""Ratings from game outcomes: Bradley-Terry strengths fitted by maximum likelihood, on Elo's scale.

Games between several bots count as pairwise comparisons: each winner beats
each loser, and winners who share a win draw with each other (half a win
each). Losers are not compared among themselves (the game does not say which
of them did better), nor are two seats of the same bot.

Each bot ``i`` has a strength ``g_i``; ``i`` beats ``j`` with probability
``g_i / (g_i + g_j)``. The strengths maximising the likelihood of all
comparisons are found by the MM algorithm (Hunter 2004, "MM algorithms for
generalized Bradley-Terry models"), and reported as ``400 * log10(g_i / g_a)``
for an anchor bot ``a`` (rated 0): 400 points is 10-to-1 odds, as in Elo. One
virtual draw between every two bots that met keeps the fit finite when a bot
won or lost every comparison; with hundreds of games its pull is a few points.

Intervals (95%) come from a seeded percentile bootstrap: blocks of games
(one game, or games that share a deal) are drawn with replacement within
their stratum (a tournament's table), the ratings are fitted again, and the
2.5% and 97.5% quantiles of each bot's rating bound its interval. Resampling
whole games respects that the comparisons of one multi-player game are not
independent. When a bot won every game against another, though, every
resample is the same and the bootstrap would claim certainty (the rating
rests on the virtual draw alone); so each interval is widened, where needed,
to hold the Wald interval from the Fisher information of the fit (virtual
draws included), which stays wide in that case.
Pure Python: a tournament has few bots.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from statistics import NormalDist
from typing import Any

import attrs

__all__ = ["Outcome", "Rating", "ELO_SCALE", "PRIOR_DRAWS", "comparisons", "fit_ratings", "rate"]

Outcome = tuple[Sequence[str], Sequence[float]]
"""One game: the bot in each seat and each seat's return (1 sole win, 1/k for a win shared by k, else 0)."""

ELO_SCALE = 400 / math.log(10)
"""Rating points per unit of log-strength: a 400-point gap is 10-to-1 odds."""

PRIOR_DRAWS = 1.0
"""Virtual draws added between every two bots that met, so no strength runs off to 0 or infinity."""

_Z95 = NormalDist().inv_cdf(0.975)
_TOLERANCE = 1e-10
_MAX_ITERATIONS = 100_000


@attrs.frozen
class Rating:
    """A bot's rating (anchor = 0) with its 95% bootstrap interval."""

    bot: str
    rating: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"bot": self.bot, "rating": self.rating, "low": self.low, "high": self.high}


def comparisons(bots: Sequence[str], returns: Sequence[float]) -> list[tuple[str, str, float]]:
    """One game's pairwise outcomes ``(a, b, a's score against b)``: 1 when a won and b lost, 0.5 between
    winners who share a win. Pairs of losers and pairs of seats of the same bot are left out."""
    if len(bots) != len(returns):
        raise ValueError(f"{len(bots)} bots but {len(returns)} returns")
    found = []
    for a in range(len(bots)):
        for b in range(a + 1, len(bots)):
            if bots[a] == bots[b] or (returns[a] == 0 and returns[b] == 0):
                continue
            score = 0.5 if returns[a] > 0 and returns[b] > 0 else 1.0 if returns[a] > 0 else 0.0
            found.append((bots[a], bots[b], score))
    return found


def fit_ratings(outcomes: Iterable[Outcome], *, anchor: str) -> dict[str, float]:
    """Each bot's maximum-likelihood rating (with the virtual draws), ``anchor`` at 0."""
    names, pairs, block_totals = _tabulate([list(outcomes)])
    totals = _add(len(pairs), block_totals)
    return dict(zip(names, _ratings(names, pairs, _fit(names, pairs, totals), anchor), strict=True))


def rate(blocks: Sequence[Sequence[Outcome]], *, anchor: str, strata: Sequence[Hashable] | None = None,
         replicates: int = 1000, seed: int = 0) -> list[Rating]:
    """Ratings of every bot in ``blocks`` with 95% intervals (bootstrap, at least as wide as Fisher's).

    A block is a group of games resampled together (a single game, or the
    games played on one deal); ``strata[k]`` names the stratum of block ``k``
    (a tournament's table), and each replicate draws as many blocks from each
    stratum as it has. The order of the result is the order in which the bots
    first appear; ``replicates`` fits from ``random.Random(seed)``.
    """
    if replicates < 1:
        raise ValueError(f"replicates must be at least 1, not {replicates}")
    if strata is not None and len(strata) != len(blocks):
        raise ValueError(f"{len(blocks)} blocks but {len(strata)} strata")
    names, pairs, block_totals = _tabulate(blocks)
    totals = _add(len(pairs), block_totals)
    strengths = _fit(names, pairs, totals)
    point = _ratings(names, pairs, strengths, anchor)
    errors = _standard_errors(names, pairs, totals, strengths, anchor)
    by_stratum: dict[Hashable, Counter[tuple[float, ...]]] = {}
    for k, block in enumerate(block_totals):
        by_stratum.setdefault(strata[k] if strata is not None else 0, Counter())[block] += 1
    rng = random.Random(seed)
    draws: list[list[float]] = [[] for _ in names]
    for _ in range(replicates):
        sample: list[tuple[int, tuple[float, ...]]] = []
        for kinds in by_stratum.values():
            # Blocks with the same comparisons are interchangeable: draw how often each kind comes up.
            distinct = list(kinds)
            picked = Counter(rng.choices(range(len(distinct)), weights=list(kinds.values()),
                                         k=sum(kinds.values())))
            sample.extend((count, distinct[i]) for i, count in picked.items())
        summed = [0.0] * (2 * len(pairs))
        for count, vector in sample:
            for i, value in enumerate(vector):
                summed[i] += count * value
        for i, value in enumerate(_ratings(names, pairs, _fit(names, pairs, summed), anchor)):
            draws[i].append(value)
    found = []
    for i, name in enumerate(names):
        ordered = sorted(draws[i])
        half = _Z95 * errors[i]
        found.append(Rating(name, point[i], min(_quantile(ordered, 0.025), point[i] - half),
                            max(_quantile(ordered, 0.975), point[i] + half)))
    return found


def _tabulate(blocks: Sequence[Sequence[Outcome]]) -> tuple[list[str], list[tuple[int, int]],
                                                               list[tuple[float, ...]]]:
    """The bots, the pairs that met, and per block a vector of (score of i, comparisons) per pair."""
    names: list[str] = []
    index: dict[str, int] = {}
    found: list[list[tuple[int, int, float]]] = []
    for block in blocks:
        found.append([])
        for bots, returns in block:
            for name in bots:
                if name not in index:
                    index[name] = len(names)
                    names.append(name)
            for a, b, score in comparisons(bots, returns):
                i, j = index[a], index[b]
                found[-1].append((i, j, score) if i < j else (j, i, 1.0 - score))
    pairs = sorted({(i, j) for block in found for i, j, _ in block})
    where = {pair: k for k, pair in enumerate(pairs)}
    vectors = []
    for block_found in found:
        vector = [0.0] * (2 * len(pairs))
        for i, j, score in block_found:
            k = where[(i, j)]
            vector[2 * k] += score
            vector[2 * k + 1] += 1.0
        vectors.append(tuple(vector))
    return names, pairs, vectors


def _add(size: int, vectors: Sequence[tuple[float, ...]]) -> tuple[float, ...]:
    totals = [0.0] * (2 * size)
    for vector in vectors:
        for i, value in enumerate(vector):
            totals[i] += value
    return tuple(totals)


def _fit(names: Sequence[str], pairs: Sequence[tuple[int, int]], totals: Sequence[float]) -> list[float]:
    """The strengths (geometric mean 1) maximising the likelihood of the summed (score, comparisons) of each
    pair with the virtual draws, by the MM algorithm."""
    size = len(names)
    if size == 1:
        return [1.0]
    _check_connected(names, pairs)
    wins = [0.0] * size
    pair_counts = []
    for k, (i, j) in enumerate(pairs):
        score, count = totals[2 * k] + PRIOR_DRAWS / 2, totals[2 * k + 1] + PRIOR_DRAWS
        wins[i] += score
        wins[j] += count - score
        pair_counts.append((i, j, count))
    strength = [1.0] * size
    for _ in range(_MAX_ITERATIONS):
        denominators = [0.0] * size
        for i, j, count in pair_counts:
            share = count / (strength[i] + strength[j])
            denominators[i] += share
            denominators[j] += share
        updated = [wins[i] / denominators[i] for i in range(size)]
        centre = math.exp(sum(math.log(g) for g in updated) / size)  # keep the scale fixed: geometric mean 1
        updated = [g / centre for g in updated]
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength, strict=True))
        strength = updated
        if change < _TOLERANCE:
            break
    return strength


def _ratings(names: Sequence[str], pairs: Sequence[tuple[int, int]], strength: Sequence[float],
             anchor: str) -> list[float]:
    """Strengths as ratings: ``400 log10`` of each strength over the anchor's."""
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game; bots are {', '.join(names)}")
    base = math.log(strength[names.index(anchor)])
    return [ELO_SCALE * (math.log(g) - base) for g in strength]


def _standard_errors(names: Sequence[str], pairs: Sequence[tuple[int, int]], totals: Sequence[float],
                     strength: Sequence[float], anchor: str) -> list[float]:
    """Each rating's standard error from the Fisher information of the fit (the anchor's log-strength held at 0):
    the inverse of the information matrix of the other bots' log-strengths."""
    free = [i for i in range(len(names)) if names[i] != anchor]
    where = {bot: row for row, bot in enumerate(free)}
    information = [[0.0] * len(free) for _ in free]
    for k, (i, j) in enumerate(pairs):
        p = strength[i] / (strength[i] + strength[j])
        weight = (totals[2 * k + 1] + PRIOR_DRAWS) * p * (1 - p)
        for a, b in ((i, j), (j, i)):
            if a in where:
                information[where[a]][where[a]] += weight
                if b in where:
                    information[where[a]][where[b]] -= weight
    covariance = _inverse(information)
    return [ELO_SCALE * math.sqrt(covariance[where[i]][where[i]]) if i in where else 0.0 for i in range(len(names))]


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a small positive-definite matrix, by Gauss-Jordan elimination with partial pivoting."""
    size = len(matrix)
    rows = [list(row) + [1.0 if c == r else 0.0 for c in range(size)] for r, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for r in range(size):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [value - factor * top for value, top in zip(rows[r], rows[column], strict=True)]
    return [row[size:] for row in rows]


def _check_connected(names: Sequence[str], pairs: Sequence[tuple[int, int]]) -> None:
    """Bots in groups that never met one another have no common scale: refuse them."""
    reached = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for a, b in pairs:
            for here, there in ((a, b), (b, a)):
                if here == i and there not in reached:
                    reached.add(there)
                    frontier.append(there)
    if len(reached) < len(names):
        apart = [names[i] for i in range(len(names)) if i not in reached]
        raise ValueError(f"{', '.join(apart)} never met {names[0]} (directly or through others): no common scale")


def _quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolating between neighbours."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)

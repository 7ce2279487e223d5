"""A cheap estimate of how a Samurai game still going on will end, for searches that cut playouts short.

Each seat's figures are those it has captured plus, for every figure still on
the board, its chance of capturing it: a surrounded settlement's figures go to
the unique highest influence (a tie to nobody); otherwise a soft maximum of
the influences, sharper the fewer empty land hexes are left around it. Every scoring of
the editions rewards leading castes (docs/rules/samurai.md#ffg2015-scoring,
docs/rules/samurai.md#original-scoring), so a seat's points
are its chances of leading each caste (a soft majority), and its estimated
return is a soft maximum of the points. Numbers, not rules: they only guide
the MCTS bot (``samurai.search.mcts``).
"""

from __future__ import annotations

from math import exp

from samurai_plugins.knizia.core.state import HANDS, State
from samurai_plugins.knizia.editions.rules import Rules

__all__ = ["estimate_returns", "INFLUENCE_SHARPNESS", "OPPONENT_DAMPING", "LEAD_SHARPNESS", "WIN_SHARPNESS",
           "CROWDED_WIN_SHARPNESS"]

LEAD_SHARPNESS = 0.8
"""How sharply a lead of one figure in a caste turns into leading it (a logistic slope)."""

WIN_SHARPNESS = 1.5
"""How sharply more leading castes turn into winning, with 2 or 3 players."""

CROWDED_WIN_SHARPNESS = 3.0
"""The same with 4 or more players. Every seat's points are soft shares of the castes' leads, spread over more
seats the more there are, so with 4 players the 2-player slope left the estimated returns of one move and the
next nearly equal and the search chose among them by chance; twice as sharp tells them apart.
Measured with 800 simulations as one of 4 players against three ``greedy`` (FFG 2015, two sets of 160 seeded
games): won alone 31.2% and 28.7% with 1.5, 40.6% and 30.0% with 3.0 (38.8% and 31.9% with 5.0). With 3 players
it did not help (one of 3 against two ``greedy``, 150 games: won alone 44.7% with 1.5, 42.0% with 3.0), so 2 and 3
players keep 1.5."""

INFLUENCE_SHARPNESS = 0.6
"""How sharply more influence on a figure turns into capturing it, when its settlement is one hex from
surrounded (the slope halves with every two more empty hexes)."""

OPPONENT_DAMPING = 0.2
"""How much flatter that slope is for every seat beyond two: 0.6 of it with 4 players (0.8 with 3, between
the two measured). Every opponent may answer before a settlement is surrounded, so a lead means less the more
of them there are.
Measured with 800 simulations against three ``greedy`` (FFG 2015, 4 players, 160 seeded games each): the
share of wins went from 0.21 with the 2-player slope to 0.35 (and 0.30 on 160 other games) with 0.6 of it,
while 0.6 of it with 2 players lost to ``greedy`` far more often (share 0.47 against 0.72)."""

HAND_WEIGHT = 0.05
"""While starting hands are chosen: points per point of influence of the tiles taken into the hand."""

_SLOPES = {players: tuple(INFLUENCE_SHARPNESS * (1.0 - OPPONENT_DAMPING * (players - 2)) / (1.0 + 0.5 * (empty - 1))
                         for empty in range(1, 65))
           for players in (2, 3, 4)}
"""The influence slope by player count and empty land hexes left around the settlement (1 to 64)."""


def estimate_returns(rules: Rules, st: State) -> tuple[float, ...]:
    """Estimated returns per seat (summing to 1) of the position ``st``, which is not over."""
    n = rules.players
    counts = [float(c) for c in st.captured]
    owner, kind, value, empty_around = st.tile_owner, st.tile_type, rules.tile_value, st.empty_around
    neighbours = rules.settlement_neighbours
    slopes = _SLOPES.get(n) or _SLOPES[4]  # an edition for more than 4 seats: the flattest measured slope
    for s, mask in enumerate(st.figures):
        if not mask:
            continue
        empty = empty_around[s]
        influence = [0] * (3 * n)
        for h in neighbours[s]:
            o = owner[h]
            if o >= 0:
                t = kind[h] * 3
                i = o * 3
                influence[i] += value[t]
                influence[i + 1] += value[t + 1]
                influence[i + 2] += value[t + 2]
        for caste in range(3):
            if not mask >> caste & 1:
                continue
            column = influence[caste::3]
            best = max(column)
            if not empty:  # surrounded: decided at the end of the turn (or a tie removes it)
                if column.count(best) == 1:
                    counts[column.index(best) * 3 + caste] += 1.0
                continue
            slope = slopes[empty - 1]
            weights = [exp(slope * (x - best)) for x in column]
            total = sum(weights)
            for seat in range(n):
                counts[seat * 3 + caste] += weights[seat] / total
    points = [0.0] * n
    for caste in range(3):
        held = counts[caste::3]
        most = max(held)
        weights = [exp(LEAD_SHARPNESS * (x - most)) for x in held]
        total = sum(weights)
        for seat in range(n):
            points[seat] += weights[seat] / total
    if st.phase == HANDS:  # nothing is on the board yet: a seat's chances are the hand it takes
        types = rules.tile_types
        for seat in range(n):
            points[seat] += HAND_WEIGHT * sum(types[t].influence for t in st.hands[seat])
    leader = max(points)
    sharpness = WIN_SHARPNESS if n < 4 else CROWDED_WIN_SHARPNESS
    weights = [exp(sharpness * (p - leader)) for p in points]
    total = sum(weights)
    return tuple(w / total for w in weights)

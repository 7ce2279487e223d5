"""Bradley-Terry ratings (``samurai.runs.ratings``): pairwise outcomes of a game, the fit, the bootstrap intervals."""

from __future__ import annotations

import math
import random

import pytest

from samurai.runs.ratings import comparisons, fit_ratings, rate


def _pairings(strengths: dict[str, float], games: int, seed: int) -> tuple[list[list], list[tuple[str, str]]]:
    """Two-player games between every two bots, won with Elo's probability for their true ratings."""
    rng = random.Random(seed)
    blocks, strata = [], []
    names = list(strengths)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
            for _ in range(games):
                won = rng.random() < p
                blocks.append([((a, b), (1.0, 0.0) if won else (0.0, 1.0))])
                strata.append((a, b))
    return blocks, strata


TRUE = {"random": 0.0, "greedy": 150.0, "easy": 300.0, "medium": 500.0}


def test_each_winner_beats_each_loser_and_sharing_winners_draw():
    found = comparisons(("a", "b", "c", "d"), (0.5, 0.0, 0.5, 0.0))
    assert sorted(found) == sorted([("a", "b", 1.0), ("a", "c", 0.5), ("a", "d", 1.0),
                                    ("b", "c", 0.0), ("c", "d", 1.0)])  # b and d, both losers, are not compared


def test_seats_of_the_same_bot_are_not_compared():
    assert comparisons(("medium", "greedy", "greedy", "greedy"), (0.0, 1.0, 0.0, 0.0)) == [("medium", "greedy", 0.0)]
    assert comparisons(("greedy", "greedy"), (1.0, 0.0)) == []


def test_the_fit_recovers_known_strengths():
    blocks, strata = _pairings(TRUE, 1500, seed=3)
    ratings = {r.bot: r for r in rate(blocks, anchor="random", strata=strata, replicates=300, seed=1)}
    for bot, truth in TRUE.items():
        assert ratings[bot].rating == pytest.approx(truth, abs=45), bot
        assert ratings[bot].low <= truth <= ratings[bot].high, bot
    order = sorted(ratings, key=lambda bot: ratings[bot].rating)
    assert order == list(TRUE)


def test_the_anchor_is_rated_zero_exactly():
    blocks, strata = _pairings(TRUE, 100, seed=5)
    ratings = {r.bot: r for r in rate(blocks, anchor="greedy", strata=strata, replicates=50, seed=1)}
    assert (ratings["greedy"].rating, ratings["greedy"].low, ratings["greedy"].high) == (0, 0, 0)
    assert ratings["random"].rating < 0 < ratings["medium"].rating


def test_intervals_shrink_with_more_games():
    def width(games: int) -> float:
        blocks, strata = _pairings(TRUE, games, seed=11)
        medium = next(r for r in rate(blocks, anchor="random", strata=strata, replicates=300, seed=2)
                      if r.bot == "medium")
        return medium.high - medium.low

    few, many = width(100), width(1600)
    assert many < few / 2.5  # sixteen times the games: about a quarter of the width


def test_the_bootstrap_is_deterministic_for_a_seed():
    blocks, strata = _pairings(TRUE, 50, seed=7)
    first = rate(blocks, anchor="random", strata=strata, replicates=100, seed=4)
    assert rate(blocks, anchor="random", strata=strata, replicates=100, seed=4) == first
    assert rate(blocks, anchor="random", strata=strata, replicates=100, seed=5) != first


def test_a_bot_that_won_every_game_gets_a_finite_rating_and_an_honest_interval():
    blocks = [[(("medium", "random"), (1.0, 0.0))] for _ in range(200)]
    medium = next(r for r in rate(blocks, anchor="random", replicates=50) if r.bot == "medium")
    assert 400 < medium.rating < 2000
    # Every resample is the same, yet 200 straight wins do not pin the gap down: the interval stays wide.
    assert medium.low < medium.rating - 300 and medium.high > medium.rating + 300


def test_two_player_intervals_agree_with_the_fisher_information():
    # With independent comparisons and no separation the bootstrap and the Wald interval nearly coincide.
    blocks = [[(("b", "a"), (1.0, 0.0) if k % 3 else (0.0, 1.0))] for k in range(900)]  # b wins 2 in 3
    b = next(r for r in rate(blocks, anchor="a", replicates=400, seed=1) if r.bot == "b")
    gap = 400 * math.log10(600.5 / 300.5)
    half = 1.96 * 400 / math.log(10) * math.sqrt(1 / 600.5 + 1 / 300.5)  # log-odds' standard error
    assert b.rating == pytest.approx(gap)
    assert b.low == pytest.approx(gap - half, abs=8) and b.high == pytest.approx(gap + half, abs=8)


def test_multi_player_games_order_the_bots_by_strength():
    # Three-player games in which the winner is drawn with probability proportional to strength.
    rng = random.Random(9)
    strength = {"weak": 1.0, "middling": 2.0, "strong": 4.0}
    games = []
    for _ in range(1500):
        seating = list(strength)
        rng.shuffle(seating)
        winner = rng.choices(range(3), weights=[strength[b] for b in seating])[0]
        games.append((tuple(seating), tuple(1.0 if seat == winner else 0.0 for seat in range(3))))
    ratings = fit_ratings(games, anchor="weak")
    assert 0 < ratings["middling"] < ratings["strong"]


def test_shared_wins_count_as_draws():
    games = [(("a", "b"), (0.5, 0.5))] * 10 + [(("a", "b"), (1.0, 0.0)), (("a", "b"), (0.0, 1.0))]
    assert fit_ratings(games, anchor="a")["b"] == pytest.approx(0.0, abs=1e-6)


def test_bots_that_never_met_have_no_common_scale():
    games = [(("a", "b"), (1.0, 0.0)), (("c", "d"), (1.0, 0.0))]
    with pytest.raises(ValueError, match="never met"):
        fit_ratings(games, anchor="a")


def test_the_anchor_must_have_played():
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings([(("a", "b"), (1.0, 0.0))], anchor="z")

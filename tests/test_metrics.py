"""Comparison metrics (issue: "each metric has a unit test on a small hand-computed record").

One short scripted game on the tiny map is the hand-computed record; the
metrics are then checked on a handful of hand-written game facts.
"""

from __future__ import annotations

import math

import pytest

from samurai import EndTurn, PlaceTile
from samurai.runs.statistics import mean_interval, paired_difference, wilson_interval
from samurai_plugins.ffg2015 import score_leader_tokens
from samurai_plugins.knizia.adapters.measures import compare_metrics, game_facts, scoring_disagreement
from samurai_plugins.knizia.core.facts import GameFacts
from samurai_plugins.knizia.editions.defaults import most_figures_wins
from samurai_plugins.knizia.play.record_files import from_record, to_record

from helpers import KITA_LAND, SCRIPTED_HANDS, scripted_game, setup_tiny


@pytest.mark.parametrize("fixture", ["tiny", "tiny_original"])
def test_facts_of_the_hand_computed_record(request, fixture):
    edition = request.getfixturevalue(fixture)
    record = to_record(scripted_game(edition))
    facts = game_facts(record, edition=edition)
    assert facts.turns == 6
    assert facts.tiles_played == 6
    assert facts.captured == ((0, 0, 1), (0, 0, 0))  # (buddha, rice, castle) per seat
    assert facts.figures_captured == 1
    assert facts.removed == 2
    assert facts.end_reason == "removed_by_ties"
    assert facts.midpoint_leader == 0  # after turn 3 of 6, seat 0 has 1 figure, seat 1 none
    assert facts.winners == (0,)
    assert from_record(record, trust=[edition]).result.winners == facts.winners


def test_a_tied_midpoint_has_no_leader(tiny):
    game = setup_tiny(tiny, hands=SCRIPTED_HANDS, options={"removed_to_end": 1})
    for _, tile, at in ((0, "samurai-1", KITA_LAND[0]), (1, "samurai-1", KITA_LAND[1])):
        game.apply(PlaceTile(tile, at))
        game.apply(EndTurn())
    facts = game_facts(to_record(game), edition=tiny)
    assert (facts.turns, facts.removed, facts.midpoint_leader, facts.winners) == (2, 1, None, (0, 1))


def test_an_unfinished_record_has_no_facts(tiny):
    game = setup_tiny(tiny, hands=SCRIPTED_HANDS)
    with pytest.raises(ValueError, match="not over"):
        game_facts(to_record(game), edition=tiny)


# --- intervals -------------------------------------------------------------------------------

def test_wilson_interval_matches_hand_computation():
    none = wilson_interval(0, 10)
    assert none.value == 0 and none.low == 0
    assert none.high == pytest.approx(0.2775, abs=1e-4)  # the textbook Wilson bound for 0 of 10
    half = wilson_interval(5, 10)
    assert half.value == 0.5
    assert (half.low, half.high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert math.isnan(wilson_interval(0, 0).value)


def test_mean_interval_matches_hand_computation():
    # mean 2.5, sample sd sqrt(5/3), half-width 1.96 * 1.2910 / 2
    estimate = mean_interval([1, 2, 3, 4])
    assert estimate.value == 2.5
    assert (estimate.low, estimate.high) == pytest.approx((1.2348, 3.7652), abs=1e-4)
    assert mean_interval([7]).low == mean_interval([7]).high == 7


def test_paired_difference_uses_the_per_game_differences():
    # Differences 1, 1, 1, 1: no spread, so the interval is the point itself.
    same_shift = paired_difference([1, 5, 9, 2], [2, 6, 10, 3])
    assert (same_shift.value, same_shift.low, same_shift.high) == (1, 1, 1)
    with pytest.raises(ValueError):
        paired_difference([1], [1, 2])


# --- metrics on hand-written facts -----------------------------------------------------------

def facts(winners, end="removed_by_ties", turns=10, tiles=12, captured=((1, 0, 0), (0, 0, 0)), removed=4,
          leader=None):
    return GameFacts(winners, end, turns, tiles, captured, removed, leader)


A = [facts((0,), turns=10, tiles=14, captured=((2, 1, 0), (0, 1, 0)), removed=4, leader=0),
     facts((1,), end="caste_exhausted", turns=12, tiles=16, captured=((0, 0, 0), (3, 0, 0)), removed=2, leader=0),
     facts((0, 1), turns=8, tiles=10, captured=((1, 0, 0), (1, 0, 0)), removed=4, leader=None),
     facts((0,), end="no_tiles", turns=14, tiles=20, captured=((1, 1, 1), (0, 0, 0)), removed=1, leader=0)]
B = [facts((1,), turns=11, tiles=15, captured=((0, 1, 0), (2, 1, 0)), removed=4, leader=1),
     facts((1,), end="caste_exhausted", turns=12, tiles=16, captured=((0, 0, 0), (3, 0, 0)), removed=2, leader=0),
     facts((0,), turns=9, tiles=10, captured=((2, 0, 0), (1, 0, 0)), removed=3, leader=None),
     facts((0,), end="caste_exhausted", turns=14, tiles=18, captured=((1, 1, 1), (0, 0, 0)), removed=0, leader=1)]


@pytest.fixture(scope="module")
def metrics():
    return {m.name: m for m in compare_metrics(A, B, score_a=score_leader_tokens, score_b=score_leader_tokens)}


def test_win_rate_by_seat_counts_sole_wins(metrics):
    seat0, seat1 = metrics["win_rate_seat_0"], metrics["win_rate_seat_1"]
    assert (seat0.a.value, seat0.b.value) == (0.5, 0.5)  # A: games 1 and 4; B: games 3 and 4
    assert (seat1.a.value, seat1.b.value) == (0.25, 0.5)
    # Paired differences for seat 0: game 1 -1, game 3 +1, others 0: mean 0.
    assert seat0.difference.value == 0
    assert seat1.difference.value == 0.25
    assert seat0.label.endswith("(first to play)")


def test_first_player_advantage_is_its_sole_wins_minus_the_others_average(metrics):
    edge = metrics["first_player_advantage"]
    # Two players. A: +1, -1, 0 (shared), +1: mean 0.25. B: -1, -1, +1, +1: mean 0.
    assert edge.a.value == 0.25 and edge.b.value == 0
    assert edge.difference.value == -0.25  # per game -2, 0, +1, 0
    three = [facts((1,), captured=((0, 0, 0),) * 3), facts((0,), captured=((0, 0, 0),) * 3)]
    assert compare_metrics(three, three, score_a=score_leader_tokens, score_b=score_leader_tokens,
                           first_player=0)[3].a.value == pytest.approx((-0.5 + 1) / 2)


def test_shared_win_rate(metrics):
    shared = metrics["shared_win_rate"]
    assert (shared.a.value, shared.b.value, shared.difference.value) == (0.25, 0, -0.25)


def test_game_length_in_turns_and_tiles(metrics):
    assert metrics["turns"].a.value == 11 and metrics["turns"].b.value == 11.5
    assert metrics["turns"].difference.value == 0.5  # differences 1, 0, 1, 0
    assert metrics["tiles_played"].a.value == 15 and metrics["tiles_played"].b.value == 14.75
    assert metrics["turns"].kind == "mean"


def test_end_reasons(metrics):
    assert metrics["end_caste_exhausted"].a.value == 0.25
    assert metrics["end_caste_exhausted"].b.value == 0.5
    assert metrics["end_removed_by_ties"].a.value == 0.5
    assert metrics["end_no_tiles"].a.value == 0.25 and metrics["end_no_tiles"].b.value == 0


def test_figures_captured_and_removed_per_game(metrics):
    assert metrics["figures_captured"].a.value == (4 + 3 + 2 + 3) / 4
    assert metrics["figures_captured"].b.value == (4 + 3 + 3 + 3) / 4
    assert metrics["figures_removed"].a.value == (4 + 2 + 4 + 1) / 4
    assert metrics["figures_removed"].b.value == (4 + 2 + 3 + 0) / 4


def test_decisiveness_counts_games_with_one_midpoint_leader(metrics):
    decisive = metrics["decisiveness"]
    # A: leaders in games 1, 2, 4 (seat 0); seat 0 wins alone in 1 and 4: 2 of 3.
    assert decisive.a.n == 3 and decisive.a.value == pytest.approx(2 / 3)
    # B: leaders in games 1 (seat 1, wins), 2 (seat 0, loses), 4 (seat 1, loses): 1 of 3.
    assert decisive.b.n == 3 and decisive.b.value == pytest.approx(1 / 3)
    # Paired over games with a leader under both editions (1, 2 and 4): A wins 1, 0, 1; B wins 1, 0, 0.
    assert decisive.difference.n == 3
    assert decisive.difference.value == pytest.approx(-1 / 3)


def test_scoring_disagreement_is_honestly_zero_for_the_same_scoring(metrics):
    disagreement = metrics["scoring_disagreement"]
    assert disagreement.a.value == 0 and disagreement.b.value == 0
    assert disagreement.difference is None
    assert "never decided differently" in disagreement.note


def test_scoring_disagreement_counts_positions_another_scoring_decides_differently():
    # Seed 002's example: Leader tokens give seat 1 the win, most figures gives it to seat 0.
    seed_002 = facts((1,), captured=((3, 1, 5), (3, 2, 2)))
    agreed = facts((0,), captured=((3, 0, 0), (1, 0, 0)))
    share = scoring_disagreement([seed_002, agreed], most_figures_wins)
    assert (share.value, share.n) == (0.5, 2)
    assert scoring_disagreement([seed_002, agreed], score_leader_tokens).value == 0


def test_every_metric_is_there_once_with_intervals(metrics):
    names = set(metrics)
    assert {"win_rate_seat_0", "win_rate_seat_1", "first_player_advantage",
            "shared_win_rate", "turns", "tiles_played", "end_caste_exhausted",
            "end_removed_by_ties", "end_no_tiles", "figures_captured", "figures_removed", "decisiveness",
            "scoring_disagreement"} == names
    for metric in metrics.values():
        assert metric.a.low <= metric.a.value <= metric.a.high
        assert metric.b.low <= metric.b.value <= metric.b.high


def test_the_close_finish_metric_of_the_guide():
    from samurai.catalog.editions import load_plugin_file

    from helpers import ROOT  # noqa: F401 - the example plugin is loaded from docs/examples

    plugin = load_plugin_file(str(ROOT / "docs" / "examples" / "open_screens.py"))
    assert plugin.close_finish(facts((0,), captured=((3, 1, 0), (2, 1, 0)))) == 1  # 4 against 3
    assert plugin.close_finish(facts((0,), captured=((3, 2, 0), (2, 1, 0)))) == 0  # 5 against 3


def test_a_rate_metric_must_give_zero_or_one():
    from samurai.runs.statistics import GameMetric

    half = GameMetric("half", "half", "rate", lambda g: 0.5)
    with pytest.raises(ValueError, match="each game's value must be 0 or 1"):
        compare_metrics(A, B, score_a=score_leader_tokens, score_b=score_leader_tokens, game_metrics=[half])

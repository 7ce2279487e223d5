"""FFG 2015 scoring with Leader tokens (docs/rules/samurai.md#ffg2015-scoring)."""

from __future__ import annotations

import itertools
import random

import pytest

import samurai
from samurai import DataError
from samurai_plugins.ffg2015 import _leader_token_winners, _leader_tokens, score_leader_tokens

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")


def figures(buddha=0, rice=0, castle=0):
    return {"buddha": buddha, "rice": rice, "castle": castle}


def test_a_unique_highest_count_takes_the_leader_token_and_more_tokens_wins():
    result = score_leader_tokens({0: figures(buddha=3, rice=3), 1: figures(buddha=2, rice=1, castle=9)})
    assert result.winners == (0,)
    assert result.reason == "most_leader_tokens"
    assert "seat 0 leads buddha with 3" in result.explanation.lower()


def test_a_tied_caste_gives_no_token():
    # Castle tied 4-4: no token; seat 1 leads buddha alone and wins with one token against none.
    result = score_leader_tokens({0: figures(castle=4, rice=2), 1: figures(castle=4, buddha=1, rice=2)})
    assert result.winners == (1,)
    assert "castle is tied at 4" in result.explanation


def test_one_token_leaders_set_aside_their_own_caste_and_compare_the_rest():
    # Seat 0 leads castle (7), seat 1 leads buddha (3); rice is tied. Without castle seat 0 has 2,
    # without buddha seat 1 has 3: seat 1 wins although seat 0 has more figures (9 against 6).
    result = score_leader_tokens({0: figures(castle=7, buddha=1, rice=1), 1: figures(castle=2, buddha=3, rice=1)})
    assert result.winners == (1,)
    assert result.reason == "other_castes"


def test_rules_example_section_9_three_others_each_then_seven_beats_six():
    # Both leaders have 3 figures outside their own caste; totals 6 against 7: seven wins.
    result = score_leader_tokens({0: figures(castle=3, buddha=2, rice=1), 1: figures(castle=2, buddha=4, rice=1)})
    assert result.reason == "all_castes"
    assert result.winners == (1,)


def test_still_tied_on_all_castes_is_a_shared_win():
    result = score_leader_tokens({0: figures(castle=3, buddha=1, rice=2), 1: figures(castle=1, buddha=3, rice=2)})
    assert result.winners == (0, 1)
    assert result.reason == "shared_win"
    assert result.shared


def test_a_player_without_a_token_is_out_even_with_the_largest_collection():
    result = score_leader_tokens({0: figures(castle=3, buddha=1), 1: figures(castle=1, buddha=3),
                                  2: figures(castle=3, buddha=3, rice=9)})
    # Seat 2 leads rice (9) alone: one token. Seats 0 and 1 have none (castle and buddha tied at 3).
    assert result.winners == (2,)
    tokenless = score_leader_tokens({0: figures(castle=4, buddha=1), 1: figures(castle=1, buddha=4),
                                     2: figures(castle=3, buddha=3, rice=0)})
    assert 2 not in tokenless.winners
    assert tokenless.winners == (0, 1)


def test_three_one_token_leaders_compare_their_other_castes():
    result = score_leader_tokens({0: figures(castle=5, buddha=1, rice=1), 1: figures(castle=1, buddha=5, rice=2),
                                  2: figures(castle=2, buddha=0, rice=4)})
    assert result.winners == (1,)  # others: 2, 3, 2
    assert result.reason == "other_castes"


def test_nobody_holding_a_token_compares_total_figures():
    result = score_leader_tokens({0: figures(castle=2, buddha=2, rice=1), 1: figures(castle=2, buddha=2, rice=1),
                                  2: figures(castle=1, buddha=1, rice=1)})
    assert result.winners == (0, 1)
    assert result.reason == "no_tokens_shared"
    nobody = score_leader_tokens({0: figures(castle=2, buddha=1), 1: figures(castle=2, rice=1, buddha=1),
                                  2: figures(rice=1)})
    assert nobody.reason == "no_tokens_total"
    assert nobody.winners == (1,)


def test_nothing_captured_at_all_is_a_shared_win_of_everyone():
    result = score_leader_tokens({0: figures(), 1: figures()})
    assert result.winners == (0, 1)


def test_known_final_result_j_wins():
    # docs/rules/samurai.md#known-results: J 3/5/3, C 3/1/4, H 3/4/3 (castle, buddha, rice).
    j, c, h = 0, 1, 2
    result = samurai.score("ffg2015", {j: figures(castle=3, buddha=5, rice=3),
                                       c: figures(castle=3, buddha=1, rice=4),
                                       h: figures(castle=3, buddha=4, rice=3)})
    assert result.winners == (j,)
    assert result.reason == "other_castes"
    assert "seat 0 6 (without buddha), seat 1 4 (without rice)" in result.explanation


def test_score_accepts_json_style_seat_keys_and_missing_castes():
    result = samurai.score("ffg2015", {"0": {"castle": 2}, "1": {"rice": 1}})
    assert result.winners == (0,)


@pytest.mark.parametrize("captured, message", [
    ({0: {"dragons": 1}}, "unknown caste 'dragons'"),
    ({0: {"castle": -1}}, "whole number >= 0"),
    ({0: {"castle": "two"}}, "whole number >= 0"),
    ({"zero": {"castle": 1}}, "seat 'zero'"),
    ({}, "non-empty"),
])
def test_score_refuses_malformed_captures(captured, message):
    with pytest.raises(DataError, match=message):
        samurai.score("ffg2015", captured)


def test_the_winners_found_without_the_text_are_those_the_explanation_finds():
    """Playouts decide without writing the explanation (a shorter path): every outcome, every seat count."""
    def same(seats, rows):
        winners, reason, _ = _leader_tokens(seats, rows)
        assert _leader_token_winners(seats, rows) == (winners, reason), rows
        return reason

    reasons = set()
    for counts in itertools.product(range(4), repeat=6):
        reasons.add(same([0, 1], [counts[:3], counts[3:]]))
    for counts in itertools.product(range(3), repeat=9):
        reasons.add(same([0, 1, 2], [counts[:3], counts[3:6], counts[6:]]))
    rng = random.Random(9)
    for _ in range(20000):
        seats = sorted(rng.sample(range(6), rng.choice((4, 5))))
        reasons.add(same(seats, [tuple(rng.randrange(4) for _ in range(3)) for _ in seats]))
    assert reasons == {"most_leader_tokens", "other_castes", "all_castes", "shared_win", "no_tokens_total",
                       "no_tokens_shared"}

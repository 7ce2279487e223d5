"""Original scoring by majorities and "other" figures (docs/rules/samurai.md#original-scoring)."""

from __future__ import annotations

import json
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import samurai
from samurai.cli import main
from samurai_plugins.original import score_majorities

# Every rule here is pinned on both engines (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("each_engine")


def figures(buddha=0, rice=0, castle=0):
    return {"buddha": buddha, "rice": rice, "castle": castle}


def test_seed_002_worked_example_others_decide_although_a_has_more_in_total():
    # A: castle 5, buddha 3, rice 1; B: castle 2, buddha 3, rice 2. A leads castle, B leads rice,
    # buddha is tied. Others: A 3 + 1 = 4, B 3 + 2 = 5, so B wins (A has 9 in total, B 7).
    result = score_majorities({0: figures(castle=5, buddha=3, rice=1), 1: figures(castle=2, buddha=3, rice=2)})
    assert result.winners == (1,)
    assert result.reason == "other_figures"
    assert "seat 0 4 outside castle" in result.explanation
    assert "seat 1 5 outside rice" in result.explanation
    assert "nobody holds the buddha majority" in result.explanation.lower()


def test_known_three_player_result_j_wins_on_others():
    # docs/rules/samurai.md#known-results: J 3/5/3, C 3/1/4, H 3/4/3 (castle, buddha, rice).
    result = score_majorities({0: figures(castle=3, buddha=5, rice=3), 1: figures(castle=3, buddha=1, rice=4),
                               2: figures(castle=3, buddha=4, rice=3)})
    assert result.winners == (0,)
    assert result.reason == "other_figures"


def test_a_majority_in_two_castes_wins_whatever_the_totals():
    result = score_majorities({0: figures(buddha=2, rice=2), 1: figures(buddha=1, rice=1, castle=12)})
    assert result.winners == (0,)
    assert result.reason == "two_majorities"
    assert "majority in buddha and rice" in result.explanation


def test_a_majority_in_all_three_castes_wins():
    result = score_majorities({0: figures(1, 1, 1), 1: figures(), 2: figures()})
    assert result.winners == (0,)
    assert result.reason == "two_majorities"


def test_a_tie_for_most_is_no_majority():
    # Castle and buddha tied: only seat 1's rice is a majority, so seat 1 is the only holder.
    result = score_majorities({0: figures(castle=4, buddha=3), 1: figures(castle=4, buddha=3, rice=1)})
    assert result.winners == (1,)
    assert result.reason == "other_figures"


def test_players_without_a_majority_are_out_even_with_the_most_figures():
    # Seat 2 holds no majority (it ties castle with seat 1) but has the most figures: it is out.
    result = score_majorities({0: figures(buddha=5), 1: figures(rice=4, castle=6), 2: figures(buddha=4, castle=6,
                                                                                              rice=3)})
    assert result.winners != (2,)
    # Seat 0 holds buddha (others 0), seat 1 holds rice (others 6): seat 1 wins.
    assert result.winners == (1,)


def test_tied_others_go_to_figures_in_total():
    # Seat 0 leads castle (5), others 2; seat 1 leads buddha (4), others 2; totals 7 against 6.
    result = score_majorities({0: figures(castle=5, rice=2), 1: figures(buddha=4, rice=2)})
    assert result.winners == (0,)
    assert result.reason == "total_figures"


def test_still_tied_in_total_is_a_shared_win():
    result = score_majorities({0: figures(castle=3, rice=2), 1: figures(buddha=3, rice=2)})
    assert result.winners == (0, 1)
    assert result.reason == "shared_win"
    assert "share the win" in result.explanation


def test_only_tied_holders_share_seats_without_a_majority_stay_out():
    # Seats 0 and 1 each hold one majority, tie on others and totals; seat 2 ties nothing and is out.
    result = score_majorities({0: figures(castle=3, rice=1), 1: figures(buddha=3, rice=1), 2: figures(rice=1)})
    assert result.winners == (0, 1)


def test_nobody_holding_a_majority_compares_figures_in_total():
    result = score_majorities({0: figures(2, 2, 2), 1: figures(2, 2, 2), 2: figures(1, 1, 1)})
    assert result.winners == (0, 1)
    assert result.reason == "no_majority_shared"
    result = score_majorities({0: figures(2, 2, 2), 1: figures(2, 2, 1), 2: figures(2, 1, 2)})
    assert result.winners == (0,)
    assert result.reason == "no_majority_total"


def test_nobody_captured_anything_everyone_shares():
    result = score_majorities({0: figures(), 1: figures(), 2: figures(), 3: figures()})
    assert result.winners == (0, 1, 2, 3)


def test_a_single_majority_holder_wins_on_others_in_four_player_game():
    result = score_majorities({0: figures(castle=2, buddha=1), 1: figures(castle=2, rice=5),
                               2: figures(buddha=1, rice=5), 3: figures(castle=1)})
    # Castle tied (2), buddha tied (1), rice tied (5): nobody holds a majority; totals 3, 7, 6, 1.
    assert result.winners == (1,)
    assert result.reason == "no_majority_total"


counts = st.integers(min_value=0, max_value=13)
captures = st.lists(st.tuples(counts, counts, counts), min_size=2, max_size=4)


@given(captures)
def test_the_winner_does_not_depend_on_seat_numbers(rows):
    result = score_majorities({seat: figures(*row) for seat, row in enumerate(rows)})
    for order in list(permutations(range(len(rows))))[:6]:
        shuffled = score_majorities({new: figures(*rows[old]) for new, old in enumerate(order)})
        assert sorted(order[w] for w in shuffled.winners) == sorted(result.winners)


@given(captures)
def test_the_steps_of_seed_002_in_order(rows):
    captured = {seat: figures(*row) for seat, row in enumerate(rows)}
    result = score_majorities(captured)
    holders = {}
    for caste in ("buddha", "rice", "castle"):
        top = max(c[caste] for c in captured.values())
        leaders = [s for s, c in captured.items() if c[caste] == top]
        if len(leaders) == 1:
            holders.setdefault(leaders[0], []).append(caste)
    total = {s: sum(c.values()) for s, c in captured.items()}
    if any(len(castes) >= 2 for castes in holders.values()):
        assert len(result.winners) == 1 and len(holders[result.winners[0]]) >= 2
    elif holders:
        assert set(result.winners) <= set(holders)  # players with no majority are out
        others = {s: total[s] - captured[s][castes[0]] for s, castes in holders.items()}
        assert all(others[w] == max(others.values()) for w in result.winners)
    else:
        assert all(total[w] == max(total.values()) for w in result.winners)
    assert result.explanation.endswith(".")


def test_samurai_score_uses_the_original_rules():
    captured = {0: figures(castle=5, buddha=3, rice=1), 1: figures(castle=2, buddha=3, rice=2)}
    assert samurai.score("original", captured).winners == (1,)
    assert samurai.score("ffg2015", captured).winners == (1,)


def test_the_score_command_takes_the_original_edition(capsys):
    captured = json.dumps({"0": figures(castle=5, buddha=3, rice=1), "1": figures(castle=2, buddha=3, rice=2)})
    assert main(["score", "--edition", "original", "--captured", captured]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winners"] == [1] and out["reason"] == "other_figures"


@pytest.mark.parametrize("rows, winners", [
    (((0, 0, 3), (0, 0, 2)), (0,)),  # one majority against none: the only holder wins
    (((4, 0, 0), (0, 4, 0), (0, 0, 4)), (0, 1, 2)),  # three holders, no others, equal totals
    (((4, 1, 0), (0, 4, 0), (0, 0, 4)), (0,)),  # the holder with one other figure wins
])
def test_more_hand_computed_positions(rows, winners):
    assert score_majorities({s: figures(*row) for s, row in enumerate(rows)}).winners == winners


@given(captures)
def test_majority_scoring_and_leader_tokens_always_pick_the_same_winners(rows):
    # A finding, not a rule: as docs/rules/samurai.md#original-scoring and docs/rules/samurai.md#ffg2015-scoring word
    # them, "majority in two castes" and "more tokens than every opponent" coincide with three castes, and both
    # tie-breaks compare the same figures. The editions differ in how they tell it, so `samurai compare` reports a
    # scoring disagreement of 0.
    from samurai_plugins.ffg2015 import score_leader_tokens

    captured = {seat: figures(*row) for seat, row in enumerate(rows)}
    assert score_majorities(captured).winners == score_leader_tokens(captured).winners

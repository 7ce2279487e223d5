"""Player views (docs/rules/samurai.md#hidden-information; issue "Player views").

A seat's view shows its own hand and stack count, every seat's hand and stack
size, the board, the supply and removed figures, and the captured figures the
edition makes public. The property: two games that differ only in what a seat
cannot know (another seat's tiles in hand or stack, the order of any stack,
the random generator, and captures the edition hides) look the same to it.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import samurai
from samurai_plugins.knizia.core.state import HANDS, OVER

SEEDS = st.integers(min_value=0, max_value=2**32)


def played(edition, players, seed, steps):
    game = samurai.new_game(edition, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    return game


def hide_differently(game, seat, rng):
    """A copy of ``game`` changed only in what ``seat`` cannot know."""
    other = game.copy()
    s = other.state
    for them in range(game.players):
        if them == seat:
            continue
        hidden = s.pools[them] if s.phase == HANDS else s.stacks[them]
        hand = s.hands[them]
        for _ in range(3):  # trade tiles between their hand and the tiles they have not drawn
            if hand and hidden:
                i, j = rng.randrange(len(hand)), rng.randrange(len(hidden))
                hand[i], hidden[j] = hidden[j], hand[i]
        rng.shuffle(hidden)
        if not game.rules.public_captures and s.phase != OVER:
            block = s.captured[them * 3:them * 3 + 3]
            rng.shuffle(block)
            s.captured[them * 3:them * 3 + 3] = block
            s.captured[them * 3] += rng.randrange(3)
    rng.shuffle(s.stacks[seat])  # not even one's own stack order is known
    s.rng = random.Random(rng.random())
    return other


@pytest.mark.usefixtures("python_engine")  # changes the Python State's lists in place
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edition=st.sampled_from(["ffg2015", "original"]), players=st.sampled_from([2, 3, 4]), seed=SEEDS,
       steps=st.integers(min_value=0, max_value=160), seat_choice=st.integers(min_value=0, max_value=3))
def test_games_that_differ_only_in_what_a_seat_cannot_know_look_the_same_to_it(edition, players, seed, steps,
                                                                                 seat_choice):
    game = played(edition, players, seed, steps)
    seat = seat_choice % players
    other = hide_differently(game, seat, random.Random(seed + steps))
    assert other.view(seat) == game.view(seat)


@pytest.mark.usefixtures("python_engine")  # changes the Python State's lists in place
@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=SEEDS, steps=st.integers(min_value=12, max_value=120))
def test_what_a_seat_may_know_does_change_its_view(players, seed, steps):
    # The converse, so the property above cannot pass by showing nothing: one's own hand shows.
    game = played("ffg2015", players, seed, steps)
    seat = 0
    changed = game.copy()
    s = changed.state
    hidden = s.pools[seat] if s.phase == HANDS else s.stacks[seat]
    hand = s.hands[seat]
    differing = [j for j, t in enumerate(hidden) if hand and t not in hand]
    if not differing:
        return
    hand[0], hidden[differing[0]] = hidden[differing[0]], hand[0]
    assert changed.view(seat) != game.view(seat)


@pytest.mark.parametrize("edition, players, public", [("ffg2015", 2, False), ("original", 2, True),
                                                      ("original", 3, False)])
def test_a_view_holds_exactly_what_the_seat_may_know(edition, players, public):
    game = played(edition, players, seed=5, steps=80)
    assert game.phase == "play"
    view = game.view(1)
    assert json.loads(json.dumps(view)) == view
    assert set(view) == {"edition", "map", "players", "seat", "phase", "current_player", "turn", "hand", "seats",
                         "board", "supply", "removed", "this_turn", "result"}
    assert view["hand"] == sorted(game.rules.tile_name(t) for t in game.state.hands[1])
    for entry in view["seats"]:
        seat = entry["seat"]
        assert entry["hand_size"] == len(game.state.hands[seat])
        assert entry["stack_size"] == len(game.state.stacks[seat])
        assert ("captured" in entry) == (seat == 1 or public)
    assert len(view["board"]["tiles"]) == sum(1 for owner in game.state.tile_owner if owner >= 0)

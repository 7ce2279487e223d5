"""What a seat knows (samurai_plugins.knizia.play.knowledge) and the positions drawn from it
(issue 9 item 2, issue 8 item 6)."""

from __future__ import annotations

import gc
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samurai.search.bots import RandomBot
from samurai_plugins.knizia.adapters.game_state import HexGameState, decide, start
from samurai_plugins.knizia.core.state import HANDS, PLAY
from samurai_plugins.knizia.play.knowledge import LeftGame, SeatKnowledge
from samurai_plugins.knizia.play.views import seat_view

from helpers import randomly_played

EDITIONS = ("ffg2015", "ffg2015-beginner", "original")



positions = st.builds(randomly_played, st.sampled_from(EDITIONS), st.integers(2, 4), st.integers(0, 10_000),
                      st.integers(0, 160))


def _tiles_of(state: HexGameState, seat: int) -> Counter[int]:
    """Every tile of ``seat`` wherever it is: hand, unchosen, stack, board."""
    s = state.state
    tiles = Counter(s.hands[seat] + s.pools[seat] + s.stacks[seat])
    tiles.update(s.tile_type[h] for h in range(state.rules.board.size) if s.tile_owner[h] == seat)
    return tiles


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(0, 2**32))
def test_a_determinized_position_shows_the_seat_exactly_its_own_view(state, draw):
    for seat in range(state.players):
        drawn = state.determinize(seat, random.Random(draw))
        assert drawn.view(seat) == state.view(seat)
        assert state.knowledge(seat).view() == state.view(seat)
        assert drawn.move_number == state.move_number


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(0, 2**32))
def test_a_determinized_position_is_legal_and_plays_on_to_an_end(state, draw):
    rules = state.rules
    seat = draw % state.players
    drawn = state.determinize(seat, random.Random(draw))
    real = drawn.state
    for other in range(state.players):
        # Tiles are conserved: each seat's tiles (less those that left the game) are where they were
        # or drawn from its unseen ones; the counts in hand, unchosen and stack are unchanged.
        assert _tiles_of(drawn, other) + Counter({t: 0 for t in rules.player_tiles}) == \
            _tiles_of(state, other) + Counter({t: 0 for t in rules.player_tiles})
        assert len(real.hands[other]) == len(state.state.hands[other]) <= rules.hand_size
        assert len(real.stacks[other]) == len(state.state.stacks[other])
        assert len(real.pools[other]) == len(state.state.pools[other])
    assert real.spent == state.state.spent and real.captured == state.state.captured
    assert real.hands[seat] == state.state.hands[seat] and real.pools[seat] == state.state.pools[seat]
    assert sorted(real.stacks[seat]) == sorted(state.state.stacks[seat])
    rng = random.Random(draw)
    while not drawn.is_over:
        action = drawn.sample_action(rng)
        assert drawn.check(action) is None
        drawn.apply(action)
    assert sum(drawn.returns()) > 0.99


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 2**32))
def test_what_the_seat_cannot_know_does_not_change_what_is_drawn(state, draw):
    # A twin differs from the position in every other seat's tiles, every stack's order and
    # the generator, and agrees in all the seat knows: the draws from both are identical.
    for seat in range(state.players):
        twin = state.determinize(seat, random.Random(draw + 1))
        ours = state.determinize(seat, random.Random(draw)).state
        theirs = twin.determinize(seat, random.Random(draw)).state
        assert ours.fingerprint() == theirs.fingerprint()


def test_the_true_hidden_tiles_are_not_favoured():
    # Across many draws, the tiles the opponent really holds in hand turn up in the drawn hand
    # no more often than the same number of its unseen tiles picked at random (a decoy hand).
    state = randomly_played("ffg2015", 2, seed=11, actions=60)
    assert state.state.phase == PLAY
    seat, other = state.to_act, 1 - state.to_act
    truth = Counter(state.state.hands[other])
    knowledge = state.knowledge(seat)
    unseen = list(knowledge.unseen(other))
    assert sorted(unseen) == sorted(state.state.hands[other] + state.state.stacks[other])
    rng, decoys = random.Random(5), random.Random(6)
    draws = 4000
    true_overlap = decoy_overlap = 0
    type_counts: Counter[int] = Counter()
    for _ in range(draws):
        hand = Counter(knowledge.determinize(rng).state.hands[other])
        decoy = Counter(decoys.sample(unseen, len(state.state.hands[other])))
        true_overlap += sum((hand & truth).values())
        decoy_overlap += sum((hand & decoy).values())
        type_counts.update(hand)
    assert abs(true_overlap - decoy_overlap) / draws < 0.15
    size = len(state.state.hands[other])
    for tile, count in Counter(unseen).items():
        expected = draws * size * count / len(unseen)
        assert abs(type_counts[tile] - expected) < 5 * expected ** 0.5 + 5


@pytest.mark.usefixtures("python_engine")  # changes the Python State's lists in place
def test_knowledge_holds_no_path_to_another_seats_tiles_or_the_generator():
    state = randomly_played("ffg2015", 3, seed=4, actions=50)
    real = state.state
    secrets = {id(real), id(real.rng), *(id(x) for x in real.hands + real.stacks + real.pools)}
    for seat in range(3):
        knowledge = state.knowledge(seat)
        seen, todo = set(), [knowledge]
        while todo:
            obj = todo.pop()
            if id(obj) in seen or obj is state.rules:
                continue
            seen.add(id(obj))
            todo.extend(r for r in gc.get_referents(obj) if not isinstance(r, type))
        assert not seen & secrets


def test_a_knowledge_is_a_value_that_does_not_follow_the_game():
    state = randomly_played("ffg2015", 2, seed=8, actions=40)
    knowledge = state.knowledge(state.to_act)
    board, view = knowledge.tile_owner[:], knowledge.view()
    rng = random.Random(1)
    for _ in range(20):
        state.apply(state.sample_action(rng))
    assert knowledge.tile_owner == board and knowledge.view() == view


class _Keeper:
    """A bot that keeps every knowledge it is handed and plays greedy's first legal action."""

    name = "keeper"

    def __init__(self) -> None:
        self.kept: list[SeatKnowledge] = []

    def act(self, knowledge: SeatKnowledge) -> tuple[int, ...]:
        self.kept.append(knowledge)
        return knowledge.legal_actions()[0]


def test_a_knowledge_kept_after_the_decision_is_detached_from_the_position():
    state = randomly_played("ffg2015", 2, seed=3, actions=30)
    keeper = _Keeper()
    views = []
    for _ in range(15):
        views.append(state.view(state.to_act))
        state.apply(state.ask(keeper))
    assert [k.view() for k in keeper.kept] == views


def test_the_random_bot_draws_the_same_from_its_knowledge_as_from_the_position():
    for edition in EDITIONS:
        state = randomly_played(edition, 3, seed=2, actions=0)
        rng = random.Random(0)
        while not state.is_over:
            seat = state.to_act
            by_knowledge = RandomBot(seat).act(state.knowledge(seat))
            assert by_knowledge == state.ask(RandomBot(seat))
            state.apply(state.sample_action(rng))


def test_tiles_that_left_the_game_are_known_by_kind():
    rules = start("ffg2015", 2, seed=1).rules
    switch = rules.tile_index["switch"]
    for seed in range(40):
        state = randomly_played("ffg2015", 2, seed=seed, actions=200)
        spent = state.state.spent
        if any(spent):
            break
    assert any(spent)
    for seat in range(2):
        for other in range(2):
            assert state.knowledge(seat).left_game(other) == (switch,) * spent[other]


def test_decide_asks_every_seat_with_its_own_knowledge_only():
    position = start("original", 4, seed=9)
    seen = []

    class Recorder:
        name = "recorder"

        def act(self, knowledge: SeatKnowledge) -> tuple[int, ...]:
            seen.append((knowledge.seat, knowledge.hand == position.state.hands[knowledge.seat]))
            return knowledge.sample_action(random.Random(0))

    left = LeftGame()
    while not position.is_over and len(seen) < 100:
        position.apply(decide(Recorder(), position.rules, position.state, position.to_act, left))
    assert all(ok for _, ok in seen) and {s for s, _ in seen} == {0, 1, 2, 3}


def test_a_view_of_the_knowledge_matches_the_engine_view():
    state = randomly_played("original", 2, seed=6, actions=70)
    for seat in range(2):
        assert SeatKnowledge(state.rules, state.state, seat).view() == seat_view(state.rules, state.state, seat)


@settings(max_examples=40, deadline=None)
@given(positions)
def test_the_knowledge_reports_its_own_tiles_and_every_seats_counts(state):
    real = state.state
    for seat in range(state.players):
        knowledge = state.knowledge(seat)
        assert knowledge.hand == real.hands[seat] and knowledge.unchosen == real.pools[seat]
        assert knowledge.stack == sorted(real.stacks[seat])
        assert knowledge.hand_sizes == tuple(len(h) for h in real.hands)
        unchosen_or_stack = real.pools if real.phase == HANDS else real.stacks
        assert knowledge.stack_sizes == tuple(len(tiles) for tiles in unchosen_or_stack)
        assert knowledge.tile_owner == real.tile_owner and knowledge.figures == real.figures
        for other in range(state.players):
            assert knowledge.captured(other) == tuple(real.captured[other * 3:other * 3 + 3])
            assert sorted(knowledge.unseen(other)) == sorted(real.hands[other] + real.pools[other] +
                                                             real.stacks[other])
        if seat == state.to_act:
            assert knowledge.legal_actions() == state.legal_actions()
        else:
            assert knowledge.legal_actions() == []


def test_the_knowledge_decides_for_every_field_of_the_state_whether_a_seat_sees_it():
    # A field added to State must be sorted here and in SeatKnowledge._read: public (copied for the
    # seat), hidden (each seat's tiles, the generator) or bookkeeping (events).
    from samurai_plugins.knizia.core.state import State
    from samurai_plugins.knizia.play.knowledge import _PUBLIC_LISTS

    scalars = {"phase", "current", "turn", "removed_total", "normal_played", "played", "tiles_played",
               "end_reason", "result"}
    hidden = {"hands", "pools", "stacks", "rng"}
    assert set(State.__slots__) == scalars | hidden | set(_PUBLIC_LISTS) | {"open_by_stage", "events"}

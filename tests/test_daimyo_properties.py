"""Daimyo and Shinobi: invariants over random games with every combination of the variants, and what a seat knows.

docs/rules/daimyo.md#components: tiles are conserved (face-down + face-up + removed Heiya +
tiles gained by Engun = 38), one piece a square and never a piece on a tile,
the game ends; ``check`` accepts exactly the legal actions and a refused
action changes nothing. "Hidden information": a seat's knowledge is every
tile it saw where it saw it; ``determinize`` draws the rest from the tiles
not yet seen, without favouring the true faces.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from daimyo_helpers import snapshot
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from samurai_plugins import daimyo as d

OPTIONS = st.fixed_dictionaries({"nobori": st.booleans(), "shinobi_wo_tsukau": st.booleans()})
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MOST_ACTIONS = 60_000
"""More actions than any game can take: at most 100 quiet turns between two events that
remove a tile, gain a piece or capture one, a few dozen such events, a dozen flips a turn."""


def random_game(seed: int, options: dict[str, Any], rollout: int) -> Iterator[d.DaimyoState]:
    """Every position of a random game, from the start to its end (the same object, moved on)."""
    state = d.new_state(seed, options)
    rng = random.Random(rollout)
    yield state
    while not state.is_over:
        assert state.move_number < MOST_ACTIONS, "the game does not end"
        state.apply(state.sample_action(rng))
        yield state


def unseen_squares(state: d.DaimyoState) -> list[int]:
    return [sq for sq in range(d.SQUARES)
            if state.tile[sq] != d.EMPTY and state.known[sq] == d.EMPTY and sq not in state.shown]


def every_action(state: d.DaimyoState) -> list[tuple[int, ...]]:
    """Every flip, and every move from a square with a piece (either seat's) to any square."""
    actions: list[tuple[int, ...]] = [(d.FLIP, sq) for sq in range(d.SQUARES)]
    actions += [(d.MOVE, frm, to) for frm in range(d.SQUARES) if state.piece[frm] != d.EMPTY
                for to in range(d.SQUARES)]
    return actions


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, options=OPTIONS, rollout=SEEDS)
def test_random_games_conserve_tiles_keep_pieces_off_tiles_and_end(seed: int, options: dict[str, Any],
                                                                   rollout: int) -> None:
    """docs/rules/daimyo.md#components, docs/rules/daimyo.md#turn, docs/rules/daimyo.md#end: invariants of every
    position of a random game."""
    for state in random_game(seed, options, rollout):
        tiles = state.view(state.current)["tiles"]
        assert tiles["face_down"] + tiles["face_up"] + tiles["heiya_removed"] + tiles["engun_tiles"] == 38
        assert tiles["face_up"] == len(state.shown) <= 2
        assert not any(state.piece[sq] != d.EMPTY and state.tile[sq] != d.EMPTY for sq in range(d.SQUARES))
        pieces = sum(code != d.EMPTY for code in state.piece)
        assert pieces == 4 + sum(state.gained) - len(state.captured[0]) - len(state.captured[1])
        daimyos = Counter(code for code in state.piece if code % 5 == d.DAIMYO and code != d.EMPTY)
        assert all(count == 1 for count in daimyos.values())  # never two Daimyos of one seat
        if not state.is_over:
            assert len(daimyos) == 2 and state.to_act in (0, 1) and state.legal_actions()
            assert state.returns() == (0.0, 0.0)
        if options["nobori"]:
            assert len(state.flags) <= 2 and all(state.tile[sq] != d.EMPTY for sq in state.flags)
        else:
            assert state.flags == ()
    assert state.to_act is None and state.legal_actions() == [] and sum(state.returns()) == 1.0
    assert state.reason in ("haisen", "daimyo_captured", "yonhon_no_ki", "stalemate", "no_progress")


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, options=OPTIONS, rollout=SEEDS)
def test_check_accepts_exactly_the_legal_actions_and_a_refused_action_changes_nothing(
        seed: int, options: dict[str, Any], rollout: int) -> None:
    """The game protocol: ``check`` is None exactly for ``legal_actions``; refusing leaves the position as it was."""
    looked_at = 0
    for state in random_game(seed, options, rollout):
        if state.move_number % 37 != 5 or state.is_over:
            continue
        looked_at += 1
        legal = set(state.legal_actions())
        before = snapshot(state)
        universe = every_action(state)
        assert legal <= set(universe)
        accepted = {action for action in universe if state.check(action) is None}
        assert accepted == legal
        for action in set(universe) - legal:
            message = state.check(action)
            assert isinstance(message, str) and message
        assert snapshot(state) == before
    assume(looked_at >= 1)  # a game over before move 5 (an early Haisen) has no position to look at


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, options=OPTIONS, rollout=SEEDS, draw=SEEDS)
def test_a_determinized_position_agrees_with_everything_a_seat_knows(seed: int, options: dict[str, Any],
                                                                     rollout: int, draw: int) -> None:
    """docs/rules/daimyo.md#hidden-information: seen tiles stay where they were seen; the rest from unseen tiles."""
    rng = random.Random(draw)
    for state in random_game(seed, options, rollout):
        if state.move_number % 23 != 3:
            continue
        unseen = unseen_squares(state)
        for seat in (0, 1):
            world = state.determinize(seat, rng)
            for viewer in (0, 1):
                assert world.view(viewer) == state.view(viewer)
            assert world.legal_actions() == state.legal_actions()
            for sq in range(d.SQUARES):
                if sq not in unseen:
                    assert world.tile[sq] == state.tile[sq]
            assert unseen_squares(world) == unseen
            assert Counter(world.tile[sq] for sq in unseen) == Counter(state.tile[sq] for sq in unseen)
            if not world.is_over:  # the drawn world plays on by the rules
                world.apply(world.sample_action(rng))


def test_determinize_does_not_favour_the_true_hidden_faces() -> None:
    """docs/rules/daimyo.md#hidden-information: a drawn face matches the true one no more often than chance."""
    state = d.new_state(21)
    rng = random.Random(4)
    while len(unseen_squares(state)) > 30 or state.shown:  # some tiles seen, some removed
        state.apply(state.sample_action(rng))
    unseen = unseen_squares(state)
    pool = Counter(state.tile[sq] for sq in unseen)
    expected_per_world = sum(pool[state.tile[sq]] / len(unseen) for sq in unseen)
    worlds = 3000
    matches = Counter[int]()
    knowledge = state.knowledge(0)
    draw = random.Random(99)
    for _ in range(worlds):
        world = knowledge.determinize(draw)
        for sq in unseen:
            if world.tile[sq] == state.tile[sq]:
                matches[sq] += 1
    observed_per_world = sum(matches.values()) / worlds
    assert abs(observed_per_world - expected_per_world) < 0.1 * expected_per_world
    for sq in unseen:  # no single square leans towards its true face either
        assert matches[sq] / worlds < 2 * pool[state.tile[sq]] / len(unseen) + 0.03


def test_knowledge_is_a_value_that_holds_no_unseen_face() -> None:
    """docs/rules/daimyo.md#hidden-information: what a seat knows does not depend on faces nobody has seen."""
    state = d.new_state(8, {"nobori": True})
    rng = random.Random(2)
    for _ in range(30):
        state.apply(state.sample_action(rng))
    unseen = unseen_squares(state)
    assert len(unseen) > 10
    knowledge = state.knowledge(1)
    first = snapshot(knowledge.determinize(random.Random(5)))
    # Rearrange the faces nobody has seen: a different real position, the same public one.
    other = state.copy()
    faces = [other.tile[sq] for sq in unseen]
    random.Random(3).shuffle(faces)
    for sq, face in zip(unseen, faces, strict=True):
        other.tile[sq] = face
    assert other.tile != state.tile
    assert snapshot(other.knowledge(1).determinize(random.Random(5))) == first
    for sq, face in zip(unseen, faces, strict=True):  # changing the real position later changes nothing either
        state.tile[sq] = face
    assert snapshot(knowledge.determinize(random.Random(5))) == first
    assert knowledge.legal_actions() == state.legal_actions() and knowledge.seat == 1


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, options=OPTIONS, rollout=SEEDS, steps=st.integers(min_value=0, max_value=300))
def test_a_copy_is_independent_of_the_original(seed: int, options: dict[str, Any], rollout: int,
                                               steps: int) -> None:
    """The game protocol: ``copy`` is an independent position; playing on it leaves the original."""
    state = d.new_state(seed, options)
    rng = random.Random(rollout)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(state.sample_action(rng))
    before = snapshot(state)
    twin = state.copy()
    assert snapshot(twin) == before
    while not twin.is_over:
        twin.apply(twin.sample_action(rng))
    assert snapshot(state) == before


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, options=OPTIONS, rollout=SEEDS)
def test_the_same_seeds_play_the_same_game(seed: int, options: dict[str, Any], rollout: int) -> None:
    """Deterministic: the same seed and the same random choices give the same game."""
    def play() -> tuple[Any, ...]:
        *_, last = random_game(seed, options, rollout)
        return snapshot(last)
    assert play() == play()


def reference_reach(state: d.DaimyoState, frm: int) -> set[int]:
    """Where the piece on ``frm`` could go, written again from docs/rules/daimyo.md#piece-moves by geometry."""
    owner, kind = divmod(state.piece[frm], 5)
    from_rank, from_file = divmod(frm, d.FILES)
    reach = set()
    for to in range(d.SQUARES):
        rank, file = divmod(to, d.FILES)
        dr, df = rank - from_rank, file - from_file
        if to == frm or state.tile[to] != d.EMPTY or (state.piece[to] != d.EMPTY and state.piece[to] // 5 == owner):
            continue
        straight, diagonal = dr == 0 or df == 0, abs(dr) == abs(df)
        if kind == d.DAIMYO:
            ok = max(abs(dr), abs(df)) == 1
        elif kind == d.KIBATAI:
            ok = {abs(dr), abs(df)} == {1, 2}  # leaps: nothing between matters
        else:
            ok = {d.SHINOBI: straight or diagonal, d.ASHIGARU: straight, d.KIHEI: diagonal}[kind]
            steps = max(abs(dr), abs(df))
            sr, sf = (dr > 0) - (dr < 0), (df > 0) - (df < 0)
            between = [(from_rank + sr * i) * d.FILES + from_file + sf * i for i in range(1, steps)]
            ok = ok and all(state.tile[sq] == d.EMPTY and state.piece[sq] == d.EMPTY for sq in between)
        if ok:
            reach.add(to)
    return reach


def reference_threatened(state: d.DaimyoState, seat: int) -> bool:
    daimyo = state.piece.index(seat * 5 + d.DAIMYO)
    return any(daimyo in reference_reach(state, sq) for sq in range(d.SQUARES)
               if state.piece[sq] != d.EMPTY and state.piece[sq] // 5 != seat)


def reference_turn_start_actions(state: d.DaimyoState) -> set[tuple[int, ...]]:
    """docs/rules/daimyo.md#turn and docs/rules/daimyo.md#kyousei, again: what a seat may do at the start of its
    turn."""
    seat = state.current
    moves: set[tuple[int, ...]] = set()
    for frm in range(d.SQUARES):
        if state.piece[frm] == d.EMPTY or state.piece[frm] // 5 != seat:
            continue
        for to in reference_reach(state, frm):
            if state.piece[to] == (1 - seat) * 5 + d.DAIMYO:
                moves.add((d.MOVE, frm, to))  # taking the Daimyo wins at once
                continue
            after = state.copy()
            after.piece[to], after.piece[frm] = after.piece[frm], d.EMPTY
            if not reference_threatened(after, seat):
                moves.add((d.MOVE, frm, to))
    if reference_threatened(state, seat):  # Kyousei: no flipping
        return moves
    flags = set(state.flags) if state.options["nobori"] else set()
    return moves | {(d.FLIP, sq) for sq in range(d.SQUARES) if state.tile[sq] != d.EMPTY and sq not in flags}


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, options=OPTIONS, rollout=SEEDS)
def test_legal_turns_agree_with_the_rules_written_again_by_geometry(seed: int, options: dict[str, Any],
                                                                     rollout: int) -> None:
    """docs/rules/daimyo.md#move and docs/rules/daimyo.md#ruling-no-self-exposure: moves, leaps, blocking, Kyousei, no
    self-exposure."""
    for state in random_game(seed, options, rollout):
        if state.is_over or state.shown or state.turn_faces:
            continue
        assert set(state.legal_actions()) == reference_turn_start_actions(state)

"""Nothing from Python crashes the native engine or corrupts its position (issue 22, point 5).

Hypothesis throws action tuples of any ints and lengths (negative, huge, wrong kinds, wrong lengths), and random
sequences mixing legal and illegal actions, at positions of every shipped edition on both engines: the native
engine never panics (pyo3's ``PanicException`` would fail the test, as would any error but a refusal), accepts and
refuses what the Python engine accepts and refuses, with the same reason, and holds the same position after every
accepted action. Python positions with one field corrupted (wrong lengths, out-of-range tiles, hexes, seats,
settlements and masks, wrong types) handed to ``NATIVE.of_state`` are refused with ``DataError``; a corruption that
still describes some position is played on without a panic.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_pairs import (
    assert_same_position,
    assert_same_verdict,
    require_native,
    rules_of,
    shipped_knizia_editions,
    well_shaped,
)

from samurai.errors import DataError, IllegalAction
from samurai.knizia.engines import NATIVE, PYTHON
from samurai.knizia.state import OVER, State

require_native()

SHIPPED = shipped_knizia_editions()
FUZZ = settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NUMBERS = st.one_of(st.integers(0, 20), st.integers(0, 200), st.integers(-3, -1), st.integers(-2**70, 2**70),
                    st.sampled_from([2**31, 2**32, 2**53, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1]))
ACTIONS = st.one_of(
    st.tuples(st.integers(-1, 6), st.lists(NUMBERS, max_size=6)).map(lambda drawn: (drawn[0], *drawn[1])),
    st.lists(NUMBERS, max_size=7).map(tuple),
    st.lists(st.integers(0, 100), min_size=1, max_size=6),  # a list, not a tuple
    st.sampled_from([(), "end", None, 4, (4.0,), (2, 1.0, 3), (2, None, 3), (4, "x"), ((4,),)]),
)


def _position(name: str, players: int, seed: int, steps: int) -> tuple[Any, State, Any]:
    """A position ``steps`` random actions into a game, on both engines."""
    rules = rules_of(name, players)
    p, q = PYTHON.new_state(rules, seed, trace=True), NATIVE.new_state(rules, seed, trace=True)
    rng = random.Random(seed)
    for _ in range(steps):
        if p.phase == OVER:
            break
        action = PYTHON.sample_action(rules, p, rng)
        PYTHON.apply(rules, p, action)
        NATIVE.apply(rules, q, action)
    return rules, p, q


POSITIONS = st.tuples(st.sampled_from(SHIPPED), st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 220))


def _play_judged(rules: Any, p: State, q: Any, action: Any) -> None:
    """Judge ``action`` on both engines; play it on both when both accept it, and compare."""
    if assert_same_verdict(rules, p, q, action) is None:
        PYTHON.apply(rules, p, tuple(int(v) for v in action))
        NATIVE.apply(rules, q, action)
        assert_same_position(p, q, f"after {action}")


@FUZZ
@given(POSITIONS, st.lists(ACTIONS, min_size=1, max_size=25))
def test_any_action_is_judged_alike_and_never_crashes(position, actions):
    rules, p, q = _position(*position)
    for action in actions:
        _play_judged(rules, p, q, action)


@FUZZ
@given(POSITIONS, st.data())
def test_legal_and_illegal_sequences_keep_both_engines_together(position, data):
    rules, p, q = _position(*position)
    for _ in range(data.draw(st.integers(1, 60), label="length")):
        if p.phase == OVER:
            break
        legal = PYTHON.legal_actions(rules, p)
        assert NATIVE.legal_actions(rules, q) == legal
        if data.draw(st.booleans(), label="legal?"):
            action: Any = legal[data.draw(st.integers(0, len(legal) - 1), label="which")]
        else:
            action = data.draw(ACTIONS, label="action")
        _play_judged(rules, p, q, action)
    if p.phase != OVER:  # and on to the end, the same game
        seed = data.draw(st.integers(0, 2**32), label="seed")
        PYTHON.play_random(rules, p, [random.Random(seed + k) for k in range(rules.players)])
        NATIVE.play_random(rules, q, [random.Random(seed + k) for k in range(rules.players)])
    assert_same_position(p, q)
    assert p.result == q.result


# --- malformed positions ---------------------------------------------------------------------

FLAT_FIELDS = ["spent", "tile_owner", "tile_type", "tile_turn", "empty_land", "empty_land_pos", "empty_sea",
               "empty_sea_pos", "movable_count", "figures", "empty_around", "pending", "supply", "on_board",
               "captured", "removed", "cut", "setup_queue"]
NESTED_FIELDS = ["pools", "hands", "stacks", "open_by_stage"]
NUMBER_FIELDS = ["phase", "current", "turn", "played", "tiles_played", "removed_total"]
FIXED_LENGTH = {"spent", "tile_owner", "tile_type", "tile_turn", "empty_land_pos", "empty_sea_pos", "movable_count",
                "figures", "empty_around", "supply", "on_board", "captured", "removed", "cut", "pools", "hands",
                "stacks", "open_by_stage"}


def _out_of_range(rules: Any, field: str) -> list[int]:
    """Values no entry of ``field`` can hold in any position of these rules."""
    size, types = rules.board.size, len(rules.tile_types)
    settlements, players = len(rules.board.settlements), rules.players
    return {
        "tile_owner": [players, -2, 2**40], "tile_type": [types, -2, 2**40], "figures": [8, 255, -1],
        "empty_land": [size, -1, 2**64], "empty_sea": [size, -1, 2**64], "pending": [settlements, -1],
        "pools": [types, -1, 2**40], "hands": [types, -1, 2**63], "stacks": [types, -1],
        "open_by_stage": [settlements, -1], "setup_queue": [4, 9, -1], "phase": [4, 200, -1],
        "current": [players, -2, 2**40],
    }.get(field, [2**62, -(2**62), 2**64])


CORRUPTIONS = st.sampled_from(["shorter", "longer", "out_of_range", "wrong_type", "any_value"])


@settings(max_examples=2000, deadline=None)
@given(POSITIONS, st.sampled_from(FLAT_FIELDS + NESTED_FIELDS + NUMBER_FIELDS + ["rng", "end_reason", "events"]),
       CORRUPTIONS, st.data())
def test_a_corrupted_position_is_refused_with_a_data_error_never_a_crash(position, field, corruption, data):
    rules, p, _ = _position(*position)
    bad = p.copy()
    bad.events = None if p.events is None else list(p.events)
    value = getattr(p, field)
    must_refuse = True
    if field == "rng":
        bad.rng = data.draw(st.sampled_from([None, "rng", random.Random(1).getstate(), _BadState()]), label="rng")
    elif field == "end_reason":
        bad.end_reason = data.draw(st.sampled_from(["nobody_won", 3, ""]), label="end_reason")
    elif field == "events":
        bad.events = [("explode", 1)] if corruption != "wrong_type" else [("capture", "Kita")]
    elif field in NUMBER_FIELDS:
        if corruption == "wrong_type":
            setattr(bad, field, data.draw(st.sampled_from(["1", None, [1], 1.5]), label="value"))
        elif corruption == "any_value":
            setattr(bad, field, data.draw(st.integers(-5, 300), label="value"))
            must_refuse = False
        elif field in ("phase", "current"):
            setattr(bad, field, data.draw(st.sampled_from(_out_of_range(rules, field)), label="value"))
        else:
            setattr(bad, field, data.draw(st.sampled_from([2**62, -(2**62), 2**64]), label="value"))
    else:
        nested = field in NESTED_FIELDS
        rows = [list(row) for row in value] if nested else list(value)
        if corruption in ("shorter", "longer") and (field in FIXED_LENGTH or nested):
            rows = rows[:-1] if corruption == "shorter" and rows else rows + ([[]] if nested else [0])
            if corruption == "shorter" and not value:
                must_refuse = False
        elif corruption == "wrong_type":
            rows = data.draw(st.sampled_from(["tiles", None, 7, [None], [[1, "a"]]]), label="value")
        else:
            target = [row for row in rows if row] if nested else rows
            if not target:
                must_refuse = False
            else:
                row = data.draw(st.sampled_from(target), label="row") if nested else rows
                i = data.draw(st.integers(0, len(row) - 1), label="index")
                if corruption == "out_of_range":
                    row[i] = data.draw(st.sampled_from(_out_of_range(rules, field)), label="value")
                else:
                    row[i] = data.draw(st.integers(-3, 200), label="value")
                    must_refuse = False
        setattr(bad, field, rows)
    try:
        q = NATIVE.of_state(rules, bad)
    except DataError as exc:
        assert "position" in exc.message or "refuses" in exc.message
        return
    assert not must_refuse, f"{field} corrupted ({corruption}) yet accepted by the native engine"
    _play_without_crash(q)


class _BadState:
    """A generator whose state is malformed."""

    def getstate(self) -> Any:
        return (3, (1, 2, 3), None)


def _play_without_crash(q: Any) -> None:
    """Play a position the native engine accepted: every call answers or refuses, none crashes."""
    rng = random.Random(0)
    for _ in range(400):
        if q.phase == OVER:
            return
        try:
            legal = q.legal_actions()
            action = q.sample_action(rng)
            q.check(action)
            q.apply(action)
        except (IllegalAction, ValueError, IndexError) as exc:
            assert "panic" not in str(exc).lower()
            assert isinstance(legal, list)
            return


def test_the_largest_numbers_an_action_can_hold_are_refused_unchanged():
    rules, p, q = _position("ffg2015", 2, 1, 0)
    for action in [(2, 2**64 - 1, 2**64 - 1), (1, 2**64 - 1, 0), (3, 2**64 - 1, 2**64 - 1, 2**64 - 1), (0, 2**64 - 1)]:
        assert well_shaped(action)
        with pytest.raises(IllegalAction):
            q.apply(action)
        assert_same_position(p, q)

"""Nothing from Python crashes the native engine or corrupts its position (issue 22, point 5).

Hypothesis throws action tuples of any ints and lengths (negative, huge, wrong kinds, wrong lengths), and random
sequences mixing legal and illegal actions, at positions of every shipped edition on both engines: the native
engine never panics (pyo3's ``PanicException`` would fail the test, as would any error but a refusal), accepts and
refuses what the Python engine accepts and refuses, with the same reason, and holds the same position after every
accepted action. Python positions with one field corrupted (wrong lengths, out-of-range tiles, hexes, seats,
settlements and masks, wrong types) or made inconsistent with their board are handed to both engines' ``of_state``:
both refuse them with the same ``DataError`` line, or both take them and play them alike to the end.
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
from samurai_plugins.knizia.core.state import OVER, State
from samurai_plugins.knizia.engine.backends import NATIVE, PYTHON

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
    q = _judged_alike(rules, bad)
    if q is None:
        return
    assert not must_refuse, f"{field} corrupted ({corruption}) yet accepted by both engines"
    _played_alike(rules, bad, q, data.draw(st.integers(0, 2**32), label="seed"))


class _BadState:
    """A generator whose state is malformed."""

    def getstate(self) -> Any:
        return (3, (1, 2, 3), None)


def _refusal(engine: Any, rules: Any, bad: State) -> tuple[Any, DataError | None]:
    """The engine's position of ``bad``, or its refusal."""
    try:
        return engine.of_state(rules, bad), None
    except DataError as exc:
        return None, exc


def _judged_alike(rules: Any, bad: State) -> Any:
    """Hand ``bad`` to both engines: both refuse it in one line, in the same words (a field of the wrong type
    named alike, the reader's own words after it), or both take it; the native position when taken."""
    q, native_refusal = _refusal(NATIVE, rules, bad)
    _, python_refusal = _refusal(PYTHON, rules, bad)
    assert (native_refusal is None) == (python_refusal is None), (native_refusal, python_refusal)
    if native_refusal is None or python_refusal is None:
        return q
    native, python = str(native_refusal), str(python_refusal)
    assert "\n" not in native and "\n" not in python and "refuses the position" in native
    if " is malformed: " in native:
        native, python = native.partition(" is malformed: ")[0], python.partition(" is malformed: ")[0]
    assert native == python
    return None


def _played_alike(rules: Any, p: State, q: Any, seed: int) -> None:
    """Play a position both engines took to its end, both alike."""
    assert_same_position(p, q)
    if p.phase != OVER:
        PYTHON.play_random(rules, p, [random.Random(seed + k) for k in range(rules.players)])
        NATIVE.play_random(rules, q, [random.Random(seed + k) for k in range(rules.players)])
    assert_same_position(p, q)
    assert p.result == q.result


def test_the_largest_numbers_an_action_can_hold_are_refused_unchanged():
    rules, p, q = _position("ffg2015", 2, 1, 0)
    for action in [(2, 2**64 - 1, 2**64 - 1), (1, 2**64 - 1, 0), (3, 2**64 - 1, 2**64 - 1, 2**64 - 1), (0, 2**64 - 1)]:
        assert well_shaped(action)
        with pytest.raises(IllegalAction):
            q.apply(action)
        assert_same_position(p, q)


# --- inconsistent positions and templates (issue 38, point 3) ---------------------------------

def _in_play(name: str = "ffg2015", players: int = 2, seed: int = 3) -> tuple[Any, State]:
    """Rules and a Python position in the play phase, a few tiles down."""
    rules, p, _ = _position(name, players, seed, 0)
    rng = random.Random(seed)
    while p.phase != OVER and p.tiles_played < 4:
        PYTHON.apply(rules, p, PYTHON.sample_action(rules, p, rng))
    assert p.phase != OVER
    return rules, p


def _refused(rules: Any, bad: State, words: str) -> None:
    """Both engines refuse ``bad`` in the same line, naming ``words``."""
    refusals = []
    for engine in (NATIVE, PYTHON):
        with pytest.raises(DataError, match=words) as refused:
            engine.of_state(rules, bad)
        refusals.append(str(refused.value))
    assert "\n" not in refusals[0] and refusals[0] == refusals[1]


def _drop_empty_land(st: State) -> None:
    """The last empty land hex left out of ``empty_land``, its position list kept in step with the list."""
    h = st.empty_land.pop()
    st.empty_land_pos[h] = -1


def _seat_without_tiles(st: State) -> None:
    """The seat to act holds nothing at the start of its turn."""
    st.hands[st.current] = []
    st.played, st.normal_played = 0, False


INCONSISTENT = {
    "an empty land hex missing from empty_land": (_drop_empty_land, "empty_land lists"),
    "a hand of 30": (lambda st: st.hands[0].extend([st.hands[0][0]] * 30), "in hand, more than the hand size"),
    "empty_around at 0": (lambda st: st.empty_around.__setitem__(0, 0), r"empty_around\[0\]"),
    "on_board at 0": (lambda st: st.on_board.__setitem__(1, 0), r"on_board\[1\]"),
    "a seat to act with an empty hand": (_seat_without_tiles, "nothing to do"),
    "a movable count off by one": (lambda st: st.movable_count.__setitem__(0, st.movable_count[0] + 1),
                                   r"movable_count\[0\]"),
    "more tiles of a kind than owned": (lambda st: st.stacks[1].extend([0] * 40), "more .* tiles than it owns"),
    "a settlement pending that is not surrounded": (lambda st: st.pending.append(0), "pending names"),
    "a setup phase queued in play": (lambda st: st.setup_queue.append(0), "setup queue is not empty"),
}


@pytest.mark.parametrize("case", sorted(INCONSISTENT))
def test_an_inconsistent_position_is_refused_in_one_line(case):
    corrupt, words = INCONSISTENT[case]
    rules, p = _in_play()
    bad = p.copy()
    corrupt(bad)
    _refused(rules, bad, words)
    NATIVE.of_state(rules, p)  # the position it was made from is taken, by both
    PYTHON.of_state(rules, p)


def _template_with(rules: Any, change: Any) -> State:
    template = rules.template.copy()
    template.rng = random.Random(0)
    change(template)
    return template


@pytest.mark.parametrize("change, words", [
    (lambda t: t.setup_queue.insert(0, t.phase), "comes twice"),
    (lambda t: t.supply.__setitem__(0, 10**6), "does not fit the free slots"),
    (lambda t: t.pools.__setitem__(0, t.pools[0][:2]), "tiles to choose a hand"),
], ids=["a repeated hands phase", "a supply larger than the free slots", "too few tiles for a hand"])
def test_a_template_that_cannot_be_set_up_is_refused_before_any_game(change, words):
    from samurai_plugins.knizia.engine.backends import native_spec
    from samurai_plugins.knizia.engine.consistency import position_problem, position_stuck

    module = require_native()
    rules = rules_of("ffg2015-beginner", 2)
    template = _template_with(rules, change)
    with pytest.raises(ValueError, match=words) as refused:
        module.NativeRules(native_spec(rules), template)
    assert "\n" not in str(refused.value) and "cannot be set up" in str(refused.value)
    # The Python engine's check (``check_template``, run on every compiled edition) says the same.
    python = position_problem(rules, template) or position_stuck(rules, template)
    assert python is not None and str(refused.value).endswith(f": {python}")


def test_a_search_refuses_sizes_whose_sum_wraps():
    from samurai_plugins.knizia.adapters.game_state import start
    from samurai_plugins.knizia.engine.backends import native_rules

    state = start("ffg2015", 2, 1, engine="native")
    knowledge = state.knowledge(state.to_act)
    hand_sizes, pool_sizes, _ = knowledge._sizes
    huge = [2**64 - 1] * 2
    with pytest.raises(ValueError, match="unseen"):
        require_native().search_decision(
            native_rules(state.rules), knowledge._pos, knowledge.seat, knowledge._hidden_tiles(), huge, [1, 1],
            random.Random(1), simulations=5, seconds=None, exploration=0.35, playout=0, replies=False, worlds=None)


class _NoSetState(random.Random):
    """A generator that gives its state but cannot take one back."""

    def setstate(self, state: Any) -> None:
        raise RuntimeError("this generator cannot be set")


def test_play_random_that_cannot_write_back_a_generator_changes_nothing():
    rules, p = _in_play()
    q = NATIVE.of_state(rules, p)
    before = q.fingerprint()
    rngs = [random.Random(5), _NoSetState(6)]
    states = [rng.getstate() for rng in rngs]
    with pytest.raises(RuntimeError, match="cannot be set"):
        q.play_random(rngs, False)
    assert q.fingerprint() == before
    assert [rng.getstate() for rng in rngs] == states


# Corruptions that keep every number in range and the lists' lengths: only the position's consistency is wrong.
SUBTLE = st.sampled_from(["drop_empty_land", "empty_around", "on_board", "movable_count", "hand", "current",
                          "pending", "setup_queue", "cut", "supply"])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(POSITIONS, SUBTLE, st.integers(0, 40), st.integers(0, 2**32))
def test_an_inconsistent_position_is_refused_or_played_alike_never_a_panic(position, corruption, value, seed):
    rules, p, _ = _position(*position)
    bad = p.copy()
    bad.events = None
    settlements = len(bad.figures)
    if corruption == "drop_empty_land" and bad.empty_land:
        _drop_empty_land(bad)
    elif corruption in ("empty_around", "movable_count", "on_board", "supply", "cut"):
        row = getattr(bad, corruption)
        row[value % len(row)] = value
    elif corruption == "hand":
        bad.hands[value % rules.players].extend(list(rules.player_tiles[:1]) * value)
    elif corruption == "current" and bad.phase != OVER:
        bad.current = value % rules.players
    elif corruption == "pending":
        bad.pending.append(value % settlements)
    elif corruption == "setup_queue":
        bad.setup_queue.append(value % 2)
    q = _judged_alike(rules, bad)
    if q is not None:  # taken by both: played alike to the end
        _played_alike(rules, bad, q, seed)

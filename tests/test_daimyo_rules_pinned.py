"""Rules of docs/rules/daimyo.md that no other test pinned: each test names its rule and section, and fails when
the game breaks that one rule (issue 20, point 7). Positions come from diagrams (tests/daimyo_helpers.py):
rank 7 on top, ``wD`` a White Daimyo, ``he``/``ki`` landscape tiles, ``Kr`` the red Kihei army tile.
"""

from __future__ import annotations

from daimyo_helpers import flip, move, piece_at, position

from samurai_plugins import daimyo as d

WHITE, BLACK = d.WHITE, d.BLACK

HEIYA_BEFORE_KI = """
.. bD .. .. .. ..
.. .. .. .. .. ..
he ki ki Ag Nr Ay
.. .. .. .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. ..
.. wD .. .. .. ..
"""


def test_yonhon_no_ki_two_ki_count_although_a_heiya_was_removed_before_them() -> None:
    """docs/rules/daimyo.md#yonhon-no-ki: "both tiles you flip are Ki": the two tiles a
    turn leaves up count, whatever Heiya were removed on the way ("A turn" 1: flipped in its place)."""
    state = position(HEIYA_BEFORE_KI)
    flip(state, "a5", "b5", "c5")  # the Heiya on a5 is removed; the two tiles up are both Ki
    assert state.to_act == BLACK and not state.is_over
    flip(state, "d5", "e5")  # Black: two different army tiles
    flip(state, "b5", "c5")  # White: two Ki on its second turn in a row
    assert state.is_over and state.winners == (BLACK,) and state.reason == "yonhon_no_ki"


ENGUN_BETWEEN = """
.. bD .. .. .. ..
.. .. .. .. .. ..
ki ki Ag Nr Ay ..
.. .. .. .. .. ..
.. .. Kr Ab Kr ..
.. .. .. .. .. ..
.. wD .. .. .. ..
"""


def test_yonhon_no_ki_an_engun_turn_in_between_breaks_the_run() -> None:
    """docs/rules/daimyo.md#yonhon-no-ki: the two Ki turns must be two of one's own turns in a row; an
    Engun turn between them ("A turn" 1) is not two Ki, so the next two Ki start a new run."""
    state = position(ENGUN_BETWEEN)
    flip(state, "a5", "b5")  # White: two Ki
    flip(state, "c5", "d5")  # Black: no pair
    flip(state, "c3", "e3")  # White: two red Kihei, Engun
    assert piece_at(state, "e3") == (WHITE, "kihei") and state.to_act == BLACK
    flip(state, "c5", "d5")
    flip(state, "a5", "b5")  # White: two Ki, but its turn before was the Engun
    assert not state.is_over
    flip(state, "c5", "d5")
    flip(state, "b5", "a5")  # and now two Ki turns in a row
    assert state.is_over and state.winners == (BLACK,) and state.reason == "yonhon_no_ki"


def test_yonhon_no_ki_a_capture_in_between_breaks_the_run() -> None:
    """docs/rules/daimyo.md#ruling-yonhon-no-ki-run: a turn that captures (docs/rules/daimyo.md#move) is not two Ki
    either."""
    state = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        ki ki Ag Nr Ay ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        bA .. wA .. .. ..
        .. .. .. .. .. wD
    """)
    flip(state, "a5", "b5")  # White: two Ki
    flip(state, "c5", "d5")
    move(state, "c2", "a2")  # White captures Black's Ashigaru
    assert piece_at(state, "a2") == (WHITE, "ashigaru") and not state.is_over
    flip(state, "c5", "d5")
    flip(state, "a5", "b5")
    assert not state.is_over

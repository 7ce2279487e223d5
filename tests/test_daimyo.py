"""Samurai: Daimyo and Shinobi: one test per rule and ruling of docs/rules/daimyo.md, on hand-made positions.

Each test names the rule it checks and cites its section of docs/rules/daimyo.md.
Positions come from diagrams (tests/daimyo_helpers.py): rank 7 on top, ``wD``
a White Daimyo, ``bA`` a Black Ashigaru, ``he``/``ki`` landscape tiles, ``Nr``
the red Kibatai army tile, ``..`` an empty square.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from daimyo_helpers import flip, move, piece_at, position, snapshot, sq, targets

from samurai.errors import DataError, IllegalAction
from samurai.protocol import GameState, Knowledge
from samurai_plugins import daimyo as d

WHITE, BLACK = d.WHITE, d.BLACK

# Only the two Daimyos, far apart, and tiles to flip: a quiet field for the flipping rules.
FIELD = """
.. bD .. .. .. ..
Kr Kr ki ki Ab Ab
he he Nr Ay Ag he
Ny Ag ki ki .. ..
.. .. .. .. .. ..
Nr Ay .. .. .. ..
.. wD .. .. .. ..
"""


def _all(names: str) -> set[str]:
    return set(names.split())


# --- Components ------------------------------------------------------------------------------------

def test_components_38_tiles_24_army_tiles_in_identical_pairs_8_heiya_6_ki() -> None:
    """docs/rules/daimyo.md#components: 3 kinds x 4 kamon x 2 army tiles, 8 Heiya, 6 Ki."""
    counts = Counter(d.TILE_SET)
    assert len(d.TILE_SET) == 38
    assert counts[d.HEIYA] == 8 and counts[d.KI] == 6
    army = [face for face in counts if face not in (d.HEIYA, d.KI)]
    assert len(army) == 12 and all(counts[face] == 2 for face in army)
    assert {d.FACES[face] for face in army} == {f"{kind}-{kamon}" for kind in ("kibatai", "ashigaru", "kihei")
                                                for kamon in ("red", "yellow", "green", "blue")}


def test_ruling_board_6_files_by_7_ranks_42_squares_white_on_rank_1() -> None:
    """docs/rules/daimyo.md#ruling-board: a-f by 1-7, 42 squares = 4 pieces + 38 tiles."""
    state = d.new_state(1)
    board = state.view(WHITE)["board"]
    assert [entry["square"] for entry in board] == [f"{f}{r}" for r in "1234567" for f in "abcdef"]
    assert sum("piece" in entry for entry in board) == 4 and sum("tile" in entry for entry in board) == 38
    assert d.square_of("a1") == 0 and d.square_name(41) == "f7"
    with pytest.raises(ValueError, match="file a-f and a rank 1-7"):
        d.square_of("g1")


def test_ruling_start_daimyo_b1_shinobi_e1_black_across_tiles_face_down_white_starts() -> None:
    """docs/rules/daimyo.md#ruling-start."""
    state = d.new_state(7)
    assert piece_at(state, "b1") == (WHITE, "daimyo") and piece_at(state, "e1") == (WHITE, "shinobi")
    assert piece_at(state, "b7") == (BLACK, "daimyo") and piece_at(state, "e7") == (BLACK, "shinobi")
    for seat in (WHITE, BLACK):
        view = state.view(seat)
        assert all(entry.get("tile") in (None, "unknown") and "seen" not in entry for entry in view["board"])
        assert view["tiles"] == {"face_down": 38, "face_up": 0, "heiya_removed": 0, "engun_tiles": 0}
    assert state.to_act == WHITE and state.turn == 1 and state.move_number == 0
    assert Counter(face for face in state.tile if face != d.EMPTY) == Counter(d.TILE_SET)


def test_ruling_start_the_tiles_are_shuffled_by_the_seed() -> None:
    """docs/rules/daimyo.md#ruling-start: "The tiles are shuffled face down"; the same seed, the same layout."""
    assert d.new_state(3).tile == d.new_state(3).tile
    assert len({tuple(d.new_state(seed).tile) for seed in range(5)}) == 5


# --- A turn: 1. Flip two tiles -----------------------------------------------------------------------

def test_flip_a_heiya_is_removed_and_another_tile_is_flipped_in_its_place() -> None:
    """docs/rules/daimyo.md#flip: a Heiya is removed and another tile flipped, until a non-Heiya is up."""
    state = position(FIELD)
    flip(state, "a5")
    assert state.tile[sq("a5")] == d.EMPTY and state.to_act == WHITE
    assert all(action[0] == d.FLIP for action in state.legal_actions())  # the turn of flipping goes on
    flip(state, "b5")
    assert state.tile[sq("b5")] == d.EMPTY and state.to_act == WHITE
    flip(state, "c5")  # the first tile that is not a Heiya
    assert state.shown == [sq("c5")] and state.to_act == WHITE
    assert state.view(BLACK)["board"][sq("c5")]["tile"] == "kibatai-red"


def test_flip_the_second_tile_is_flipped_the_same_way_heiya_removed() -> None:
    """docs/rules/daimyo.md#flip: "Then do the same for your second tile"."""
    state = position(FIELD)
    removed = state.view(WHITE)["tiles"]["heiya_removed"]
    flip(state, "c5", "f5")  # a Heiya as the second tile: removed, flip again
    assert state.tile[sq("f5")] == d.EMPTY and state.shown == [sq("c5")] and state.to_act == WHITE
    flip(state, "d5")
    assert state.to_act == BLACK and state.shown == []
    assert state.view(WHITE)["tiles"]["heiya_removed"] == removed + 1


def test_engun_two_identical_army_tiles_are_removed_and_the_piece_stands_on_the_tile_flipped_last() -> None:
    """docs/rules/daimyo.md#engun: same kind and same kamon; the piece on the square flipped last."""
    state = position(FIELD)
    gained = state.view(WHITE)["tiles"]["engun_tiles"]
    flip(state, "c5", "a2")
    assert state.tile[sq("c5")] == state.tile[sq("a2")] == d.EMPTY
    assert piece_at(state, "a2") == (WHITE, "kibatai") and piece_at(state, "c5") is None
    assert state.view(WHITE)["tiles"]["engun_tiles"] == gained + 2 and state.to_act == BLACK
    other = position(FIELD)
    flip(other, "a2", "c5")
    assert piece_at(other, "c5") == (WHITE, "kibatai") and piece_at(other, "a2") is None


def test_engun_needs_the_same_kind_and_the_same_kamon() -> None:
    """docs/rules/daimyo.md#engun: Engun is two identical tiles, same kind AND same kamon."""
    same_kind = position(FIELD)
    flip(same_kind, "c5", "a4")  # red and yellow Kibatai
    same_kamon = position(FIELD)
    flip(same_kamon, "c5", "a6")  # red Kibatai and red Kihei
    for state, squares in ((same_kind, ("c5", "a4")), (same_kamon, ("c5", "a6"))):
        assert all(state.tile[sq(name)] != d.EMPTY for name in squares)  # turned face down again
        assert not any(state.piece[sq(name)] != d.EMPTY for name in squares)
        assert state.to_act == BLACK and state.gained == [0, 0]


def test_different_tiles_are_turned_face_down_again_and_the_turn_ends() -> None:
    """docs/rules/daimyo.md#flip: otherwise both are turned face down again; the turn ends either way."""
    state = position(FIELD)
    flip(state, "c5", "d5")
    assert state.to_act == BLACK and state.shown == [] and state.turn == 2
    for seat in (WHITE, BLACK):
        entry = state.view(seat)["board"][sq("c5")]
        assert entry["tile"] == "unknown" and entry["seen"] == "kibatai-red"


def test_ki_are_never_removed() -> None:
    """docs/rules/daimyo.md#flip: any Ki turns both back; "Trees are never taken off"."""
    state = position(FIELD)
    removed, ki_gone = state.view(WHITE)["tiles"]["heiya_removed"], state.gone.count(d.KI)
    flip(state, "c6", "d6")  # two Ki
    assert state.tile[sq("c6")] == state.tile[sq("d6")] == d.KI and state.to_act == BLACK
    flip(state, "c4", "d5")  # a Ki and an army tile
    assert state.tile[sq("c4")] == d.KI and state.tile[sq("d5")] != d.EMPTY
    assert state.view(WHITE)["tiles"]["heiya_removed"] == removed and state.gone.count(d.KI) == ki_gone


def test_ruling_face_down_tiles_run_out_mid_flip_the_turn_ends_with_what_was_flipped() -> None:
    """docs/rules/daimyo.md#ruling-tiles-run-out: face-down tiles running out mid-flip end the turn."""
    state = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        .. .. he .. .. ..
        .. .. Nr .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wD .. .. .. ..
    """)
    flip(state, "c4", "c5")  # the army tile up, then the last face-down tile is a Heiya: removed, none left
    assert state.to_act == BLACK and state.shown == []
    assert state.tile[sq("c4")] != d.EMPTY and state.tile[sq("c5")] == d.EMPTY
    assert state.quiet == 0  # a Heiya was removed
    single = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. Nr .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wD .. .. .. ..
    """)
    flip(single, "c4")
    assert single.to_act == BLACK and single.tile[sq("c4")] != d.EMPTY and not single.is_over


def test_ruling_with_no_face_down_tile_flipping_is_not_a_possible_turn() -> None:
    """docs/rules/daimyo.md#ruling-tiles-run-out: no face-down tile at all, no flip."""
    state = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wD .. .. .. ..
    """)
    actions = state.legal_actions()
    assert actions and all(action[0] == d.MOVE for action in actions)
    assert state.check((d.FLIP, sq("c4"))) == "there is no tile on c4 to flip"


# --- A turn: 2. Move a piece --------------------------------------------------------------------------

def test_daimyo_moves_one_square_in_any_of_8_directions() -> None:
    """docs/rules/daimyo.md#piece-moves: Daimyo, one square in any of 8 directions (not onto a tile)."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. wD .. .. ..
        .. ki .. .. .. ..
        .. .. .. .. .. ..
    """)
    assert targets(state, "c3") == _all("b3 d3 b4 c4 d4 c2 d2")


def test_shinobi_moves_any_distance_in_8_directions() -> None:
    """docs/rules/daimyo.md#piece-moves: Shinobi, any distance in 8 directions."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. wS .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. wD
    """)
    assert targets(state, "c3") == _all("c1 c2 c4 c5 c6 c7 a3 b3 d3 e3 f3 d4 e5 f6 b4 a5 d2 e1 b2 a1")


def test_ashigaru_moves_any_distance_horizontally_or_vertically() -> None:
    """docs/rules/daimyo.md#piece-moves: Ashigaru, any distance horizontally or vertically."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. wA .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. wD
    """)
    assert targets(state, "c3") == _all("c1 c2 c4 c5 c6 c7 a3 b3 d3 e3 f3")


def test_kihei_moves_any_distance_diagonally() -> None:
    """docs/rules/daimyo.md#piece-moves: Kihei, any distance diagonally."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. wK .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. wD
    """)
    assert targets(state, "c3") == _all("d4 e5 f6 b4 a5 d2 e1 b2 a1")


def test_kibatai_leaps_like_a_knight_over_tiles_and_pieces() -> None:
    """docs/rules/daimyo.md#piece-moves: Kibatai, one square straight then one diagonally outward; it jumps."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. ki Ay bA .. ..
        .. wA wN Kb .. ..
        .. he Nr ki .. ..
        .. .. .. .. .. wD
    """)
    assert targets(state, "c3") == _all("a2 a4 b1 b5 d1 d5 e2 e4")


def test_kibatai_may_not_land_on_a_tile_or_a_friendly_piece_but_captures() -> None:
    """docs/rules/daimyo.md#move: the Kibatai "may not land on a tile or on a piece of its own side"."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. bA .. ki .. ..
        wA .. .. .. he ..
        .. .. wN .. .. ..
        wK .. .. .. .. ..
        .. ki .. Ag .. wD
    """)
    assert targets(state, "c3") == _all("b5 e2")  # a4 own, d5 and e4 tiles, b1 and d1 tiles, a2 own
    move(state, "c3", "b5")
    assert piece_at(state, "b5") == (WHITE, "kibatai") and state.captured[WHITE] == [d.ASHIGARU]


def test_sliding_pieces_are_blocked_by_tiles_and_pieces() -> None:
    """docs/rules/daimyo.md#move: pieces never move onto or across a tile or another piece."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. ki .. .. ..
        .. .. .. .. .. ..
        bA .. wA .. wK ..
        .. .. .. .. .. ..
        .. .. .. .. .. wD
    """)
    assert targets(state, "c3") == _all("c4 b3 a3 d3 c2 c1")  # not onto c5 nor past it, not onto e3


def test_capture_removes_the_opponents_piece_and_the_capturing_piece_stops_there() -> None:
    """docs/rules/daimyo.md#move: the captured piece leaves the game; the capturing piece stops there."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. ki .. .. ..
        .. .. .. .. .. ..
        bA .. wA .. wK ..
        .. .. .. .. .. ..
        .. .. .. .. .. wD
    """)
    state.quiet = 40
    move(state, "c3", "a3")
    assert piece_at(state, "a3") == (WHITE, "ashigaru") and piece_at(state, "c3") is None
    assert state.captured == [[d.ASHIGARU], []] and state.view(BLACK)["captured"] == [["ashigaru"], []]
    assert state.to_act == BLACK and state.quiet == 0  # the move ends the turn; a capture is progress


def test_a_move_ends_the_turn() -> None:
    """docs/rules/daimyo.md#turn: one of two things; after moving, the other player's turn."""
    state = position(FIELD)
    move(state, "b1", "c2")
    assert state.to_act == BLACK and state.turn == 2 and piece_at(state, "c2") == (WHITE, "daimyo")


# --- Danger to the Daimyo -----------------------------------------------------------------------------

def test_kyousei_a_threatened_daimyo_must_be_saved_by_a_move_and_flipping_is_not_allowed() -> None:
    """docs/rules/daimyo.md#kyousei: a move that ends the threat; no flipping."""
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. bA .. .. .. ..
        .. .. .. .. .. he
        .. .. .. wK .. ki
        .. .. .. .. wS ..
        .. wD .. .. .. ..
    """)
    legal = {(d.square_name(a[1]), d.square_name(a[2])) for a in state.legal_actions()}
    assert all(a[0] == d.MOVE for a in state.legal_actions())
    assert legal == {("b1", "a1"), ("b1", "a2"), ("b1", "c1"), ("b1", "c2"),  # step aside
                     ("d3", "b5"),  # capture the threatening piece
                     ("e2", "b2")}  # block the line
    message = state.check((d.FLIP, sq("f4")))
    assert message is not None and "Kyousei" in message
    for action in state.legal_actions():
        after = state.copy()
        after.apply(action)
        assert after.view(WHITE)["threatened"] is False


def test_ruling_a_move_may_never_leave_ones_own_daimyo_open_to_capture() -> None:
    """docs/rules/daimyo.md#ruling-no-self-exposure: a pinned piece stays on the line; no step into danger."""
    state = position("""
        .. .. .. .. .. bD
        .. bA .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wA .. .. .. ..
        .. .. .. bK .. ..
        .. wD .. .. .. ..
    """)
    assert targets(state, "b3") == _all("b2 b4 b5 b6")  # pinned: along the file only, capture included
    assert targets(state, "b1") == _all("a1 a2 b2 c2")  # not c1: the Kihei on d2 guards it
    message = state.check((d.MOVE, sq("b3"), sq("c3")))
    assert message is not None and "open to capture" in message


def test_ruling_a_flip_may_open_a_line_then_the_opponent_may_capture_the_daimyo_and_wins() -> None:
    """docs/rules/daimyo.md#ruling-no-self-exposure: a removed Heiya can open a line; capture wins."""
    state = position("""
        .. .. .. .. .. bD
        .. bA .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. he .. .. .. ..
        .. .. .. Nr Ay ..
        .. wD .. .. .. ..
    """)
    assert state.view(WHITE)["threatened"] is False
    flip(state, "b3", "d2", "e2")  # the Heiya on b3 is removed: the b-file opens onto White's Daimyo
    assert state.to_act == BLACK and state.view(WHITE)["threatened"] is True
    assert (d.MOVE, sq("b6"), sq("b1")) in state.legal_actions()
    move(state, "b6", "b1")
    assert state.is_over and state.winners == (BLACK,) and state.reason == "daimyo_captured"
    assert state.returns() == (0.0, 1.0) and state.to_act is None and state.legal_actions() == []


def test_haisen_a_player_forced_to_move_with_no_move_that_saves_the_daimyo_loses() -> None:
    """docs/rules/daimyo.md#haisen, docs/rules/daimyo.md#end: that player loses."""
    state = position("""
        .. .. .. .. .. bD
        .. bA .. .. .. ..
        .. .. bA .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. he
        .. .. .. .. .. ki
        wD .. .. .. .. ..
    """, to_act=BLACK)
    move(state, "c5", "a5")  # the a-file onto a1; the b-file guards b1 and b2; a2 stays on the a-file
    assert state.is_over and state.winners == (BLACK,) and state.reason == "haisen"
    assert state.returns() == (0.0, 1.0)


# --- End ------------------------------------------------------------------------------------------------

def test_end_a_captured_daimyos_owner_loses() -> None:
    """docs/rules/daimyo.md#end: a captured Daimyo, its owner loses (here White captures Black's)."""
    state = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wA .. .. .. ..
        wD .. .. .. .. ..
    """)
    move(state, "b2", "b7")
    assert state.winners == (WHITE,) and state.reason == "daimyo_captured" and state.returns() == (1.0, 0.0)
    assert state.view(BLACK)["result"] == {"winners": [WHITE], "reason": "daimyo_captured"}


KI_FIELD = """
.. bD .. .. .. ..
.. .. .. .. .. ..
ki ki Ag Nr Ay ..
.. .. .. .. .. ..
.. .. Kr Ab .. ..
.. .. .. .. .. ..
.. wD .. .. .. ..
"""


def test_yonhon_no_ki_two_ki_on_two_of_ones_own_turns_in_a_row_loses() -> None:
    """docs/rules/daimyo.md#yonhon-no-ki, with the rules' example: the opponent's flips between do not count."""
    state = position(KI_FIELD)
    flip(state, "a5", "b5")  # Richard flips two trees
    flip(state, "c5", "d5")  # Rob flips two tiles, no Engun
    assert not state.is_over
    flip(state, "a5", "b5")  # Richard flips two trees again
    assert state.is_over and state.winners == (BLACK,) and state.reason == "yonhon_no_ki"


def test_yonhon_no_ki_a_move_in_between_resets_the_count() -> None:
    """docs/rules/daimyo.md#ruling-yonhon-no-ki-run: the two Ki turns must follow each other; a move breaks the run."""
    state = position(KI_FIELD)
    flip(state, "a5", "b5")
    move(state, "b7", "a7")
    move(state, "b1", "a1")  # White moves: the run of Ki turns is broken
    move(state, "a7", "b7")
    flip(state, "a5", "b5")
    assert not state.is_over
    move(state, "b7", "a7")
    flip(state, "a5", "b5")  # now two Ki turns in a row
    assert state.winners == (BLACK,) and state.reason == "yonhon_no_ki"


def test_yonhon_no_ki_another_flip_in_between_resets_the_count() -> None:
    """docs/rules/daimyo.md#ruling-yonhon-no-ki-run: a flip that is not two Ki breaks the run too."""
    state = position(KI_FIELD)
    flip(state, "a5", "b5")
    flip(state, "c5", "d5")
    flip(state, "a5", "c3")  # a Ki and an army tile
    flip(state, "c5", "d5")
    flip(state, "a5", "b5")
    assert not state.is_over
    flip(state, "c5", "d5")
    flip(state, "b5", "a5")
    assert state.winners == (BLACK,)


def test_yonhon_no_ki_a_turn_cut_short_by_the_tiles_running_out_breaks_the_run() -> None:
    """docs/rules/daimyo.md#ruling-yonhon-no-ki-run, with docs/rules/daimyo.md#ruling-tiles-run-out: one Ki up is
    not two."""
    state = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        ki ki Nr .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wD .. .. .. ..
    """, nobori=True)
    state.ki_turns[WHITE] = True  # White's last turn was two Ki; Black's left the flags on a5 and b5
    state.flags = (sq("a5"), sq("b5"))
    flip(state, "c5")  # the only tile White may flip: one tile up and the tiles run out
    assert state.to_act == BLACK and state.flags == (sq("c5"),)
    move(state, "b7", "c7")
    flip(state, "a5", "b5")  # two Ki after a turn that was not two Ki
    assert not state.is_over
    move(state, "c7", "b7")
    flip(state, "b5", "a5")  # and now two in a row
    assert state.winners == (BLACK,) and state.reason == "yonhon_no_ki"


def test_yonhon_no_ki_a_shinobi_wo_tsukau_turn_breaks_the_run() -> None:
    """docs/rules/daimyo.md#ruling-yonhon-no-ki-run and docs/rules/daimyo.md#shinobi-wo-tsukau: two Heiya are not
    two Ki."""
    state = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        ki ki he he .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wD .. .. .. ..
    """, shinobi_wo_tsukau=True)
    flip(state, "a5", "b5")
    move(state, "b7", "c7")
    flip(state, "c5", "d5")  # White gains a Shinobi on d5
    assert piece_at(state, "d5") == (WHITE, "shinobi")
    move(state, "c7", "b6")
    flip(state, "a5", "b5")
    assert not state.is_over


def test_ruling_stalemate_no_legal_turn_and_the_daimyo_not_threatened_is_a_draw() -> None:
    """docs/rules/daimyo.md#ruling-stalemate; the option "loss" makes it a loss for the stuck seat."""
    diagram = """
        .. bA .. .. .. ..
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. bK .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        wD .. .. .. .. ..
    """
    state = position(diagram, to_act=BLACK)
    move(state, "f6", "f5")  # White: a2, b1, b2 all guarded, a1 itself not; no tile to flip
    assert state.is_over and state.winners == (WHITE, BLACK) and state.reason == "stalemate"
    assert state.returns() == (0.5, 0.5)
    strict = position(diagram, to_act=BLACK, stalemate="loss")
    move(strict, "f6", "f5")
    assert strict.winners == (BLACK,) and strict.reason == "stalemate"


def test_ruling_no_progress_100_turns_without_removal_gain_or_capture_is_a_draw() -> None:
    """docs/rules/daimyo.md#ruling-no-progress."""
    state = position(FIELD)
    for turn in range(100):
        assert not state.is_over and state.quiet == turn
        if turn % 4 == 0:
            move(state, "b1", "c1")
        elif turn % 4 == 2:
            move(state, "c1", "b1")
        else:
            flip(state, "c5", "d5")  # Black: a flip turn that removes nothing is no progress either
    assert state.is_over and state.reason == "no_progress" and state.returns() == (0.5, 0.5)


def test_ruling_no_progress_counter_restarts_on_a_removed_tile_a_gained_piece_or_a_capture() -> None:
    """docs/rules/daimyo.md#ruling-no-progress: "without a tile taken off, a piece gained or a capture"."""
    state = position(FIELD)
    state.quiet = 99
    flip(state, "a5", "c5", "d5")  # a Heiya removed
    assert state.quiet == 0 and not state.is_over
    state.quiet = 99
    flip(state, "c5", "a2")  # Black gains a Kibatai (Engun)
    assert state.quiet == 0 and not state.is_over
    state.quiet = 50
    flip(state, "c4", "d4")  # two Ki: no progress
    assert state.quiet == 51


# --- Hidden information --------------------------------------------------------------------------------

def test_hidden_a_face_down_tile_is_unknown_to_both_players() -> None:
    """docs/rules/daimyo.md#hidden-information: a face-down tile is unknown to both players."""
    state = d.new_state(11)
    views = [json.dumps(state.view(seat)) for seat in (WHITE, BLACK)]
    for face in d.FACES:
        assert all(f'"{face}"' not in view for view in views)


def test_hidden_everything_flipped_is_seen_by_both_and_remembered_where_it_lies() -> None:
    """docs/rules/daimyo.md#hidden-information: each seat's knowledge includes every flipped tile and its square."""
    state = position(FIELD)
    flip(state, "a5", "c5")
    for seat in (WHITE, BLACK):  # mid-turn: the face-up tile shows, the removed Heiya is gone
        board = state.view(seat)["board"]
        assert board[sq("c5")]["tile"] == "kibatai-red" and "tile" not in board[sq("a5")]
    flip(state, "d5")
    for seat in (WHITE, BLACK):
        board = state.view(seat)["board"]
        assert (board[sq("c5")]["tile"], board[sq("c5")]["seen"]) == ("unknown", "kibatai-red")
        assert board[sq("d5")]["seen"] == "ashigaru-yellow"
        known = state.knowledge(seat).determinize(random.Random(seat))
        assert known.tile[sq("c5")] == state.tile[sq("c5")] and known.tile[sq("d5")] == state.tile[sq("d5")]


def test_hidden_a_view_shows_the_turns_flips_as_events() -> None:
    """docs/rules/daimyo.md#hidden-information: each turn's flips "are told as events"."""
    state = position(FIELD)
    flip(state, "a5", "c5", "d5")
    events = state.view(BLACK)["events"]
    assert [e["event"] for e in events] == ["flip", "heiya_removed", "flip", "flip", "turned_back"]
    assert [e.get("tile") for e in events if e["event"] == "flip"] == ["heiya", "kibatai-red", "ashigaru-yellow"]
    assert events[-1]["squares"] == ["c5", "d5"]


# --- Variants -------------------------------------------------------------------------------------------

def test_shinobi_wo_tsukau_two_heiya_first_gain_a_shinobi_on_the_second_and_the_turn_ends() -> None:
    """docs/rules/daimyo.md#shinobi-wo-tsukau and docs/rules/daimyo.md#ruling-shinobi-turn: the turn then ends."""
    state = position(FIELD, shinobi_wo_tsukau=True)
    state.quiet = 7
    flip(state, "a5", "b5")
    assert piece_at(state, "b5") == (WHITE, "shinobi") and state.tile[sq("a5")] == state.tile[sq("b5")] == d.EMPTY
    assert state.to_act == BLACK and state.quiet == 0 and state.log[-1]["event"] == "shinobi_wo_tsukau"


def test_shinobi_wo_tsukau_only_when_the_first_two_tiles_are_heiya() -> None:
    """docs/rules/daimyo.md#shinobi-wo-tsukau: a Heiya third (after an army tile) gains nothing."""
    state = position(FIELD, shinobi_wo_tsukau=True)
    flip(state, "c5", "a5", "b5")
    assert state.to_act == WHITE and piece_at(state, "b5") is None
    flip(state, "d5")
    assert state.to_act == BLACK and state.gained == [0, 0]


def test_shinobi_wo_tsukau_is_off_in_the_base_game() -> None:
    """docs/rules/daimyo.md#optional-rules: optional rules; the base game keeps flipping after two Heiya."""
    assert d.DEFAULT_OPTIONS["shinobi_wo_tsukau"] is False and d.DEFAULT_OPTIONS["nobori"] is False
    state = position(FIELD)
    flip(state, "a5", "b5")
    assert state.to_act == WHITE and piece_at(state, "b5") is None


def test_nobori_flags_go_on_the_two_tiles_turned_back_which_cannot_be_flipped() -> None:
    """docs/rules/daimyo.md#nobori: flags on the tiles turned back, unflippable while flagged."""
    state = position(FIELD, nobori=True)
    flip(state, "c5", "d5")
    assert set(state.flags) == {sq("c5"), sq("d5")}
    assert (d.FLIP, sq("c5")) not in state.legal_actions()
    assert "flag" in (state.check((d.FLIP, sq("d5"))) or "")
    assert state.view(WHITE)["board"][sq("c5")]["flag"] is True
    flip(state, "a4", "b4")  # Black turns back two others: the flags move to them
    assert set(state.flags) == {sq("a4"), sq("b4")} and (d.FLIP, sq("c5")) in state.legal_actions()


def test_nobori_flags_come_off_after_a_turn_in_which_no_tile_was_turned_back() -> None:
    """docs/rules/daimyo.md#nobori: a move, a capture, Engun or Shinobi wo tsukau take the flags off."""
    by_move = position(FIELD, nobori=True)
    flip(by_move, "c5", "d5")
    move(by_move, "b7", "c7")
    assert by_move.flags == ()
    by_engun = position(FIELD, nobori=True)
    flip(by_engun, "c5", "d5")
    flip(by_engun, "e6", "f6")  # two blue Ashigaru
    assert by_engun.flags == () and piece_at(by_engun, "f6") == (BLACK, "ashigaru")
    by_shinobi = position(FIELD, nobori=True, shinobi_wo_tsukau=True)
    flip(by_shinobi, "c5", "d5")
    flip(by_shinobi, "a5", "b5")
    assert by_shinobi.flags == () and piece_at(by_shinobi, "b5") == (BLACK, "shinobi")


def test_nobori_is_off_in_the_base_game() -> None:
    """docs/rules/daimyo.md#nobori: without Nobori nothing stops a tile turned back from being flipped again."""
    state = position(FIELD)
    flip(state, "c5", "d5")
    assert state.flags == () and (d.FLIP, sq("c5")) in state.legal_actions()


# --- Options, the protocol -----------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "key"), [
    ({"shinobi": True}, "shinobi"),
    ({"nobori": "yes"}, "nobori"),
    ({"no_progress_limit": 0}, "no_progress_limit"),
    ({"stalemate": "win"}, "stalemate"),
    ({"white_daimyo": "z9"}, "white_daimyo"),
    ({"black_shinobi": "b1"}, "black_shinobi"),
])
def test_options_a_variant_cannot_use_are_refused_naming_the_option(options: dict[str, object], key: str) -> None:
    """Every ruling is an option (docs/rules/daimyo.md#rulings); a bad one is refused with its name."""
    with pytest.raises(DataError) as caught:
        d.new_state(1, options)
    assert caught.value.key == key and key in str(caught.value)


def test_options_move_the_starting_pieces() -> None:
    """docs/rules/daimyo.md#ruling-start is an option a variant can overrule."""
    state = d.new_state(1, {"white_daimyo": "a1", "black_daimyo": "f7"})
    assert piece_at(state, "a1") == (WHITE, "daimyo") and piece_at(state, "f7") == (BLACK, "daimyo")
    assert piece_at(state, "b1") is None and state.tile[sq("b1")] != d.EMPTY


def test_the_state_and_its_knowledge_implement_the_game_protocol() -> None:
    state = d.new_state(2)
    assert isinstance(state, GameState) and isinstance(state.knowledge(WHITE), Knowledge)
    assert state.players == 2 and state.knowledge(BLACK).seat == BLACK
    assert state.knowledge(WHITE).legal_actions() == state.legal_actions()
    assert state.describe((d.FLIP, 14)) == {"action": "flip", "square": "c3"}
    assert state.describe((d.MOVE, 1, 7)) == {"action": "move", "from": "b1", "to": "b2"}
    json.dumps(state.view(WHITE))
    for bad in [(), (d.FLIP,), (d.MOVE, 1), (d.FLIP, 42), (5, 1), [d.FLIP, 3], (d.FLIP, True)]:
        with pytest.raises(IllegalAction, match="neither a flip"):
            state.describe(bad)  # type: ignore[arg-type]


def test_check_refuses_what_is_not_legal_and_says_why_without_changing_the_position() -> None:
    state = position(FIELD, nobori=True)
    flip(state, "c5", "d5")
    before = snapshot(state)
    reasons = {
        (): "tuple of whole numbers",
        ("x",): "tuple of whole numbers",
        (True, 3): "tuple of whole numbers",
        (d.FLIP,): "neither a flip",
        (7, 1, 2): "neither a flip",
        (d.FLIP, 42): "off the board",
        (d.FLIP, sq("c3")): "no tile on c3",
        (d.FLIP, sq("c5")): "carries a flag",
        (d.MOVE, sq("b1"), sq("b2")): "no piece of yours on b1",
        (d.MOVE, sq("b7"), sq("b5")): "cannot move to b5",
    }
    for action, words in reasons.items():
        message = state.check(action)  # type: ignore[arg-type]
        assert message is not None and words in message, (action, message)
    assert state.check([d.MOVE, sq("b7"), sq("c7")]) is not None  # type: ignore[arg-type]
    assert snapshot(state) == before
    flip(state, "a4")
    assert "flip another tile" in (state.check((d.MOVE, sq("b1"), sq("c1"))) or "")
    over = position(FIELD)
    over.winners, over.reason = (WHITE,), "haisen"
    assert over.check((d.MOVE, sq("b1"), sq("c1"))) == "the game is over"


def test_copy_is_independent_and_continues_exactly_as_the_original() -> None:
    state = d.new_state(5, {"nobori": True, "shinobi_wo_tsukau": True})
    rng = random.Random(1)
    for _ in range(40):
        if state.is_over:
            break
        state.apply(state.sample_action(rng))
    twin = state.copy()
    before = snapshot(state)
    other_rng = random.Random(2)
    for _ in range(30):
        if twin.is_over:
            break
        twin.apply(twin.sample_action(other_rng))
    assert snapshot(state) == before  # playing on the copy left the original as it was
    twin = state.copy()
    a, b = random.Random(9), random.Random(9)
    while not state.is_over:
        state.apply(state.sample_action(a))
        twin.apply(twin.sample_action(b))
    assert snapshot(state) == snapshot(twin)


def test_the_same_seed_plays_the_same_game() -> None:
    def play(seed: int) -> tuple[object, ...]:
        state = d.new_state(seed, {"shinobi_wo_tsukau": True})
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(state.sample_action(rng))
        return snapshot(state)
    assert play(13) == play(13)
    assert play(13) != play(14)


# --- The quick player that searches play after a leaf (GameState.policy_action) ------------------------

def test_policy_action_captures_the_daimyo_first_then_the_most_valuable_piece() -> None:
    """Not a rule: the protocol's quick player takes a Daimyo when it can, else the piece worth most."""
    state = position("""
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        bA .. wA .. bK ..
        .. .. .. .. .. bD
        .. .. .. .. .. wD
    """)
    assert {state.policy_action(random.Random(seed)) for seed in range(20)} == {(d.MOVE, sq("f1"), sq("f2"))}
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. .. ki .. .. ..
        .. .. .. .. .. ..
        bK .. wA .. bA ..
        .. .. .. .. .. ..
        wD .. .. .. .. ..
    """)
    # Ashigaru (3) and Kihei (3) are worth the same: either is taken, nothing else is played.
    assert {state.policy_action(random.Random(seed)) for seed in range(40)} == {
        (d.MOVE, sq("c3"), sq("a3")), (d.MOVE, sq("c3"), sq("e3"))}

"""Daimyo and Shinobi: the rulings a variant can overrule (issue 20), each default against its alternative.

docs/rules/daimyo.md#rulings says every ruling is an option or hook. These tests pin the four that were fixed before:
the board's size (now the board file's), the tiles running out mid-flip (``tiles_run_out``), a move that
leaves one's own Daimyo open (``self_check``) and the Shinobi turn's end (``shinobi_turn``); the order of
the end checks (``END_CHECK_ORDER``: Haisen and stalemate before the no-progress draw); and the view's
tile counters, whose names say what they count. Diagrams as in tests/test_daimyo.py (rank 7 on top).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from daimyo_helpers import flip, move, piece_at, position, sq

from samurai.catalog.editions import Edition, load_edition
from samurai.cli import main
from samurai.errors import DataError
from samurai.kit.conformance import checks_for
from samurai.records import play_record_from_dict, play_record_of, play_record_to_dict, replayed
from samurai_plugins import daimyo as d
from samurai_plugins.daimyo.web import DaimyoDefinition

WHITE, BLACK = d.WHITE, d.BLACK
ROOT = Path(__file__).resolve().parents[1]

# White's last tile: flipping it runs the face-down tiles out with one tile up.
LAST_TILE = """
.. bD .. .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. ..
.. .. Nr .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. ..
.. wD .. .. .. ..
"""

# White's Ashigaru on a2 shields its Daimyo on a1 from Black's Ashigaru on a7.
PINNED = """
bA .. .. .. .. bD
.. .. .. .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. ..
wA .. .. .. .. ..
wD .. .. .. .. ..
"""

# Two Heiya to flip first (Shinobi wo tsukau), then an Engun pair and a Ki.
TWO_HEIYA = """
.. bD .. .. .. ..
.. .. .. .. .. ..
.. .. he he .. ..
.. .. Nr Nr .. ..
.. .. ki .. .. ..
.. .. .. .. .. ..
.. wD .. .. .. ..
"""

# Black's Daimyo in the a7 corner; White's Ashigaru c3-a3 mates it (b2 holds the b-file), c3-c4 does not.
MATE = """
bD .. .. .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. ..
.. .. wA .. .. ..
.. wA .. .. .. ..
.. .. .. .. .. wD
"""

# White's Ashigaru f5-f6 takes rank 6, b2 holds the b-file: Black's Daimyo on a7, not threatened, cannot move.
STALE = """
bD .. .. .. .. ..
.. .. .. .. .. ..
.. .. .. .. .. wA
.. .. .. .. .. ..
.. .. .. .. .. ..
.. wA .. .. .. ..
.. .. .. .. .. wD
"""

SMALL_BOARD = (ROOT / "maps" / "small-field.toml").read_text()
"""The 5 x 6 board file bundled as ``small-field``."""


def _manifest(tmp_path: Path, ident: str, *, board: str | None = None, options: str = "") -> Path:
    """A copy of the daimyo edition with another id, optionally on ``board`` (a board file's text) and with
    ``options`` (TOML text) appended."""
    text = (ROOT / "editions" / "daimyo.toml").read_text().replace('id = "daimyo"', f'id = "{ident}"')
    if board is not None:
        (tmp_path / f"{ident}-board.toml").write_text(board)
        text = text.replace('map = "battlefield"', f'map = "{ident}-board.toml"')
    path = tmp_path / f"{ident}.toml"
    path.write_text(text + options)
    return path


def _play_out(state: d.DaimyoState, seed: int) -> d.DaimyoState:
    rng = random.Random(seed)
    for _ in range(100_000):
        if state.is_over:
            return state
        state.apply(state.sample_action(rng))
    raise AssertionError("a random game did not end within 100,000 actions")


# --- tiles_run_out ------------------------------------------------------------------------------

def test_ruling_tiles_run_out_turn_ends_by_default_the_tile_turned_back() -> None:
    """Ruling: face-down tiles running out mid-flip end the turn with what was flipped."""
    state = position(LAST_TILE)
    flip(state, "c4")
    assert state.to_act == BLACK and state.shown == [] and state.pending_back is None
    assert state.view(BLACK)["board"][sq("c4")]["tile"] == "unknown" and state.quiet == 1


def test_ruling_tiles_run_out_then_move_the_same_seat_moves_and_that_ends_the_turn() -> None:
    """``tiles_run_out = "then_move"``: the tile is turned back, then the seat moves a piece; no more flips."""
    state = position(LAST_TILE, tiles_run_out="then_move")
    flip(state, "c4")
    assert state.to_act == WHITE and state.shown == [] and state.log[-1] == {"event": "turned_back",
                                                                            "squares": ["c4"]}
    assert state.legal_actions() and all(action[0] == d.MOVE for action in state.legal_actions())
    assert state.check((d.FLIP, sq("c4"))) == "the tiles ran out mid-flip: the turn goes on with a move, no more " \
                                             "flipping"
    move(state, "b1", "b2")
    assert state.to_act == BLACK and state.turn == 2 and state.quiet == 1 and state.pending_back is None
    assert piece_at(state, "b2") == (WHITE, "daimyo")


def test_ruling_tiles_run_out_then_move_a_removed_heiya_is_still_progress_and_nobori_flags_the_tile() -> None:
    """The move after the tiles ran out ends a turn in which a Heiya was removed (progress) and the army tile was
    turned back (Nobori: it carries the flag)."""
    diagram = LAST_TILE.replace(".. .. .. .. .. ..\n.. .. Nr", ".. .. he .. .. ..\n.. .. Nr", 1)
    state = position(diagram, tiles_run_out="then_move", nobori=True)
    state.quiet = 30
    flip(state, "c4", "c5")  # the army tile up, then the last face-down tile is a Heiya: removed, none left
    assert state.to_act == WHITE and state.tile[sq("c5")] == d.EMPTY
    move(state, "b1", "c1")
    assert state.to_act == BLACK and state.quiet == 0 and state.flags == (sq("c4"),)


# --- self_check ---------------------------------------------------------------------------------

def test_ruling_self_check_forbidden_a_move_may_not_leave_ones_own_daimyo_open() -> None:
    """Ruling (default): a move may never leave one's own Daimyo open to capture."""
    state = position(PINNED)
    assert (d.MOVE, sq("a2"), sq("b2")) not in state.legal_actions()
    assert state.check((d.MOVE, sq("a2"), sq("b2"))) == "moving a2-b2 would leave your Daimyo open to capture"
    assert (d.MOVE, sq("a2"), sq("a5")) in state.legal_actions()  # along the line it still shields


def test_ruling_self_check_allowed_the_move_is_legal_and_the_daimyo_can_then_be_taken() -> None:
    """``self_check = "allowed"``: the move that opens the line is legal, and the opponent takes the Daimyo."""
    state = position(PINNED, self_check="allowed")
    move(state, "a2", "b2")
    assert state.to_act == BLACK and (d.MOVE, sq("a7"), sq("a1")) in state.legal_actions()
    move(state, "a7", "a1")
    assert state.is_over and state.winners == (BLACK,) and state.reason == "daimyo_captured"


def test_ruling_self_check_allowed_still_forces_a_threatened_daimyo_to_be_saved() -> None:
    """Kyousei is a rule of the source, not the ruling: with ``self_check = "allowed"`` a threatened Daimyo must
    still be saved."""
    open_line = PINNED.replace("wA .. .. .. .. ..\nwD", ".. .. wA .. .. ..\nwD", 1)
    state = position(open_line, self_check="allowed")
    assert state.view(WHITE)["threatened"]
    assert state.check((d.MOVE, sq("c2"), sq("c3"))) == "Kyousei: moving c2-c3 does not save your Daimyo"
    assert (d.MOVE, sq("c2"), sq("a2")) in state.legal_actions()


# --- shinobi_turn -------------------------------------------------------------------------------

def test_ruling_shinobi_turn_ends_once_the_shinobi_is_gained() -> None:
    """Ruling (default) of Shinobi wo tsukau: the turn then ends."""
    state = position(TWO_HEIYA, shinobi_wo_tsukau=True)
    flip(state, "c5", "d5")
    assert piece_at(state, "d5") == (WHITE, "shinobi") and state.to_act == BLACK


def test_ruling_shinobi_turn_goes_on_the_seat_flips_on_in_place_of_the_second_heiya() -> None:
    """``shinobi_turn = "goes_on"``: after the Shinobi the seat flips on, as after any Heiya, to a pair."""
    state = position(TWO_HEIYA, shinobi_wo_tsukau=True, shinobi_turn="goes_on")
    flip(state, "c5", "d5")
    assert piece_at(state, "d5") == (WHITE, "shinobi") and state.to_act == WHITE
    assert state.legal_actions() == [(d.FLIP, sq(name)) for name in ("c3", "c4", "d4")]
    flip(state, "c4", "d4")  # Engun: a Kibatai on d4, and the turn ends
    assert piece_at(state, "d4") == (WHITE, "kibatai") and state.to_act == BLACK and state.quiet == 0
    assert state.gained == [2, 0]


# --- bad values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, allowed", [("tiles_run_out", "'turn_ends' or 'then_move'"),
                                           ("self_check", "'forbidden' or 'allowed'"),
                                           ("shinobi_turn", "'ends' or 'goes_on'")])
def test_a_bad_ruling_value_is_refused_in_one_line_naming_the_option_and_its_values(name: str, allowed: str) -> None:
    with pytest.raises(DataError) as caught:
        d.new_state(1, {name: "sometimes"})
    assert str(caught.value) == f"options [{name}]: must be {allowed}, not 'sometimes'"


def test_a_variant_whose_ruling_choice_the_game_cannot_play_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = _manifest(tmp_path, "daimyo-odd")
    path.write_text(path.read_text().replace('choices = ["forbidden", "allowed"]',
                                             'choices = ["forbidden", "allowed", "sideways"]'))
    with pytest.raises(DataError) as caught:
        load_edition(str(path))
    message = str(caught.value)
    assert "daimyo-odd.toml" in message and "[options.self_check]" in message and "'sideways'" in message
    assert "\n" not in message


# --- a variant manifest using the options ------------------------------------------------------

VARIANT = """\
# A variant overruling the three rulings.
id = "daimyo-loose"
name = "Daimyo and Shinobi, loose rulings"
version = "1.0.0"
extends = "daimyo"
description = "Shinobi wo tsukau goes on, a move after the tiles run out, a Daimyo may be left open."

[options.shinobi_wo_tsukau]
default = true

[options.tiles_run_out]
default = "then_move"

[options.self_check]
default = "allowed"

[options.shinobi_turn]
default = "goes_on"
"""


def test_a_variant_manifest_sets_the_rulings_and_samurai_simulate_plays_it(tmp_path: Path, capsys) -> None:
    path = tmp_path / "loose.toml"
    path.write_text(VARIANT)
    edition = load_edition(str(path))
    options = edition.start(2, 5).options
    assert (options["tiles_run_out"], options["self_check"], options["shinobi_turn"]) == (
        "then_move", "allowed", "goes_on")
    assert main(["simulate", "--edition", str(path), "--games", "6", "--seed", "2", "--workers", "1", "--json",
                 "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 6


def test_the_loose_variant_plays_whole_random_games_and_its_records_replay(tmp_path: Path) -> None:
    path = tmp_path / "loose.toml"
    path.write_text(VARIANT)
    edition = load_edition(str(path))
    for seed in range(4):
        state = edition.start(2, seed)
        actions: list[tuple[int, ...]] = []
        rng = random.Random(seed)
        while not state.is_over:
            action = state.sample_action(rng)
            actions.append(action)
            state.apply(action)
            assert len(actions) < 100_000
        tiles = state.view(0)["tiles"]
        assert sum(tiles.values()) == len(d.TILE_SET)
        record = play_record_from_dict(play_record_to_dict(play_record_of(edition, 2, seed, None, actions, state)))
        assert replayed(record, folder=tmp_path, trust=[str(path)]).view(1) == state.view(1)


def test_a_record_written_before_the_new_rulings_replays_with_their_defaults(tmp_path: Path) -> None:
    """Records keep every option's value; one without the three new rulings plays them as they were."""
    edition = load_edition("daimyo")
    state = _play_out(edition.start(2, 11), 11)
    actions = [tuple(action) for action in _played(edition, 11)]
    data = play_record_to_dict(play_record_of(edition, 2, 11, None, actions))
    for name in ("tiles_run_out", "self_check", "shinobi_turn"):
        del data["options"][name]
    assert replayed(play_record_from_dict(data)).view(0) == state.view(0)


def _played(edition: Edition, seed: int) -> list[tuple[int, ...]]:
    """The actions of a random game of ``edition`` on ``seed`` (``_play_out``'s)."""
    state = edition.start(2, seed)
    rng, actions = random.Random(seed), []
    while not state.is_over:
        actions.append(state.sample_action(rng))
        state.apply(actions[-1])
    return actions


# --- the board file's size ---------------------------------------------------------------------

def test_a_5_by_6_board_file_plays_a_whole_random_game_and_renders(tmp_path: Path) -> None:
    """The board's size comes from the board file: squares a1..e6, its own tiles (3 kamon, 4 Heiya, 4 Ki)."""
    edition = load_edition(str(_manifest(tmp_path, "daimyo-small", board=SMALL_BOARD)))
    state = edition.start(2, 3)
    assert isinstance(state, d.DaimyoState) and len(state.piece) == 30
    names = [entry["square"] for entry in state.view(WHITE)["board"]]
    assert names == [f"{f}{r}" for r in range(1, 7) for f in "abcde"]
    assert state.piece[state.square_of("b6")] == BLACK * 5 + d.DAIMYO and state.square_name(29) == "e6"
    assert sorted(face for face in state.tile if face != d.EMPTY) == sorted(d.tile_set(3, 4, 4))
    assert state.view(WHITE)["size"] == {"files": 5, "ranks": 6}
    _play_out(state, 3)
    tiles = state.view(BLACK)["tiles"]
    assert sum(tiles.values()) == 26 and state.reason in d.END_CHECK_ORDER
    svg = edition.game.render(state, state.view(BLACK))
    assert svg.count("data-square=") == 30 and 'id="square-e6"' in svg and 'id="square-f1"' not in svg
    assert 'data-files="5"' in svg and 'data-ranks="6"' in svg


def test_the_web_face_and_the_conformance_check_follow_a_5_by_6_board(tmp_path: Path) -> None:
    path = _manifest(tmp_path, "daimyo-small", board=SMALL_BOARD)
    web = DaimyoDefinition([str(path)])
    state = load_edition(str(path)).start(2, 8)
    controls = web.controls(state, WHITE)
    keys = {key for _, route in controls.paths for key in route}
    assert keys and all(0 <= int(key[4:].split(",")[0]) < 5 and 0 <= int(key.split(",")[1]) < 6 for key in keys)
    page = web.render(state, state.view(WHITE), (d.FLIP, state.square_of("e5")))
    assert 'data-square="e6" data-col="4" data-row="5"' in page
    for check in checks_for(load_edition(str(path))):
        check.run(load_edition(str(path)), 2, 1, 2)


@pytest.mark.parametrize("old, new, message", [
    ("files = 5", "files = 3", r"small-board.toml:\d+ \[files\]: files must be from 4 to 12, not 3"),
    ("ranks = 6", "ranks = 13", r"small-board.toml:\d+ \[ranks\]: ranks must be from 4 to 12, not 13"),
    ("kamon = 3", "kamon = 5", r"small-board.toml:\d+ \[tiles.kamon\]: must be from 1 to 4, not 5"),
    ("heiya = 4", "heiya = 5", r"small-board.toml:\d+ \[tiles\]: the tiles \(27: .*\) must fill the 26 squares"),
    ('white_shinobi = "d1"', 'white_shinobi = "f1"', r"\[start.white_shinobi\]: a square is a file a-e and a rank "
                                                    r"1-6, like 'b1', not 'f1'"),
])
def test_a_board_file_of_a_size_or_tiles_out_of_range_is_refused_naming_the_file_and_key(
        tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in SMALL_BOARD
    path = _manifest(tmp_path, "daimyo-small", board=SMALL_BOARD.replace(old, new))
    with pytest.raises(DataError, match=message) as caught:
        load_edition(str(path))
    assert "\n" not in str(caught.value)


def test_a_bigger_board_needs_tiles_for_every_free_square(tmp_path: Path) -> None:
    board = (ROOT / "maps" / "battlefield.toml").read_text().replace("files = 6", "files = 8")
    with pytest.raises(DataError, match=r"\[tiles\]: the tiles \(38: .*\) must fill the 52 squares"):
        load_edition(str(_manifest(tmp_path, "daimyo-wide", board=board)))


# --- the order of the end checks -------------------------------------------------------------------

def test_end_order_a_mating_move_on_the_100th_quiet_turn_wins_by_haisen_not_a_draw() -> None:
    """END_CHECK_ORDER: Haisen is decided before the no-progress draw."""
    assert d.END_CHECK_ORDER.index("haisen") < d.END_CHECK_ORDER.index("no_progress")
    state = position(MATE)
    state.quiet = 99
    move(state, "c3", "a3")
    assert state.is_over and state.reason == "haisen" and state.winners == (WHITE,)


def test_end_order_a_quiet_move_on_the_100th_quiet_turn_is_the_no_progress_draw() -> None:
    state = position(MATE)
    state.quiet, turn = 99, state.turn
    move(state, "c3", "c4")
    assert state.is_over and state.reason == "no_progress" and state.winners == (WHITE, BLACK)
    assert state.turn == turn  # the draw ends the game on the turn just played


def test_end_order_a_stalemating_move_on_the_100th_quiet_turn_is_a_stalemate() -> None:
    """END_CHECK_ORDER: stalemate is decided before the no-progress draw (and so ``stalemate = "loss"`` holds)."""
    for rule, winners in (("draw", (WHITE, BLACK)), ("loss", (WHITE,))):
        state = position(STALE, stalemate=rule)
        state.quiet = 99
        move(state, "f5", "f6")
        assert state.is_over and state.reason == "stalemate" and state.winners == winners


# --- the view's counters -------------------------------------------------------------------------

def test_the_tile_counters_say_what_they_count_heiya_removed_and_engun_tiles() -> None:
    state = position(TWO_HEIYA)  # the set's tiles not in the diagram count as gone: 6 Heiya, 22 army tiles
    before = state.view(WHITE)["tiles"]
    assert before == {"face_down": 5, "face_up": 0, "heiya_removed": 6, "engun_tiles": 22}
    flip(state, "c5", "d5", "c4", "d4")  # two Heiya removed, then the Engun pair
    tiles = state.view(BLACK)["tiles"]
    assert tiles == {"face_down": 1, "face_up": 0, "heiya_removed": 8, "engun_tiles": 24}
    assert state.gone.count(d.KI) == 5  # off the diagram, not left the board: Ki are counted by neither
    status = dict(DaimyoDefinition().status(state.view(BLACK))["facts"])
    assert status["Tiles"] == "1 face down, 0 face up, 8 Heiya removed, 24 taken by Engun"
    svg = load_edition("daimyo").game.render(state, state.view(BLACK))
    assert "Heiya removed: 8" in svg and "taken by Engun: 24" in svg

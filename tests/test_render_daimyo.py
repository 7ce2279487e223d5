"""The picture of a Daimyo and Shinobi position (samurai_plugins.daimyo.render), drawn from a seat's view."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from daimyo_helpers import flip, position

from samurai_plugins import daimyo as d
from samurai_plugins.daimyo.render import draw_daimyo_view, square_centre

SVG = "{http://www.w3.org/2000/svg}"


def played(seed: int, actions: int, **options: bool) -> d.DaimyoState:
    """A random game after about ``actions`` actions, at the start of a turn."""
    state = d.new_state(seed, options)
    rng = random.Random(seed)
    while not state.is_over and (state.move_number < actions or state.shown or state.turn_faces):
        state.apply(state.sample_action(rng))
    return state


def board_of(svg: str) -> ET.Element:
    root = ET.fromstring(svg.split("?>", 1)[1])
    board = root.find(f".//{SVG}g[@id='board']")
    assert board is not None
    return board


def texts(element: ET.Element) -> list[str]:
    return [node.text or "" for node in element.iter() if node.tag in (f"{SVG}text", f"{SVG}title")]


def test_the_picture_is_well_formed_svg_with_42_clickable_squares() -> None:
    svg = draw_daimyo_view(d.new_state(1).view(0))
    root = ET.fromstring(svg.split("?>", 1)[1])
    assert root.tag == f"{SVG}svg" and root.get("data-game") == "daimyo"
    squares = [r for r in root.iter(f"{SVG}rect") if r.get("data-square")]
    names = [f"{f}{r}" for r in "1234567" for f in "abcdef"]
    assert sorted(r.get("data-square") or "" for r in squares) == sorted(names)
    assert sorted(r.get("id") or "" for r in squares) == sorted(f"square-{name}" for name in names)


@pytest.mark.parametrize("bottom", [0, 1])
def test_square_centre_is_the_centre_of_the_squares_rect_from_either_side(bottom: int) -> None:
    svg = draw_daimyo_view(d.new_state(1).view(bottom))
    for rect in board_of(svg).iter(f"{SVG}rect"):
        name = rect.get("data-square")
        if name:
            x = float(rect.get("x") or 0) + float(rect.get("width") or 0) / 2
            y = float(rect.get("y") or 0) + float(rect.get("height") or 0) / 2
            assert square_centre(name, bottom) == pytest.approx((x, y))
    # White sees a1 at the bottom left, Black (the board turned half round) at the top right.
    (a1x, a1y), (f1x, _), (_, a7y) = (square_centre(name, 0) for name in ("a1", "f1", "a7"))
    assert a1x < f1x and a1y > a7y
    (a1x, a1y), (f1x, _), (_, a7y) = (square_centre(name, 1) for name in ("a1", "f1", "a7"))
    assert a1x > f1x and a1y < a7y
    with pytest.raises(ValueError, match="file a-f"):
        square_centre("g9")


def test_every_piece_is_drawn_on_its_square_with_its_owner_and_kind() -> None:
    state = played(4, 200, nobori=True)
    view = state.view(0)
    svg = draw_daimyo_view(view)
    drawn = {}
    for group in board_of(svg).iter(f"{SVG}g"):
        if group.get("class") != "square":
            continue
        rect = group.find(f"{SVG}rect")
        assert rect is not None
        piece = group.find(f"{SVG}g[@data-piece]")
        if piece is not None:
            drawn[rect.get("data-square")] = (int(piece.get("data-owner") or -1), piece.get("data-piece"))
    expected = {e["square"]: (e["piece"]["owner"], e["piece"]["kind"]) for e in view["board"] if "piece" in e}
    assert drawn == expected and len(expected) >= 4


def test_face_down_tiles_never_show_a_face_unless_remembered_and_then_only_faces_seen() -> None:
    state = played(6, 40)
    assert not state.shown
    view = state.view(1)
    seen = {e["square"] for e in view["board"] if "seen" in e}
    assert seen and any(e.get("tile") == "unknown" and "seen" not in e for e in view["board"])
    forgetful = draw_daimyo_view(view)
    face_down = 0
    for group in board_of(forgetful).iter(f"{SVG}g"):
        if group.get("class") == "square" and group.find(f"{SVG}g[@class='tile face-down']") is not None:
            face_down += 1
            rect = group.find(f"{SVG}rect")
            assert rect is not None
            # a question mark and "c4: face-down tile" (with its flag), not a word about its face
            assert texts(group) == [f"{rect.get('data-square')}: face-down tile", "?"]
            assert group.find(f".//{SVG}g[@class='face']") is None
    assert face_down == view["tiles"]["face_down"]
    remembering = draw_daimyo_view(view, remembered=True)
    for group in board_of(remembering).iter(f"{SVG}g"):
        if group.get("class") == "square":
            rect = group.find(f"{SVG}rect")
            assert rect is not None
            has_face = group.find(f".//{SVG}g[@class='face']") is not None
            assert has_face == (rect.get("data-square") in seen)


def test_the_picture_cannot_tell_positions_apart_that_differ_only_in_unseen_faces() -> None:
    state = played(9, 40, shinobi_wo_tsukau=True)
    for seat in (0, 1):
        world = state.determinize(seat, random.Random(seat))
        assert world.tile != state.tile
        for remembered in (False, True):
            assert (draw_daimyo_view(world.view(seat), remembered=remembered)
                    == draw_daimyo_view(state.view(seat), remembered=remembered))


def test_the_tiles_of_the_turn_show_their_faces_and_flags_show() -> None:
    state = position("""
        .. bD .. .. .. ..
        Kr Kr ki ki Ab Ab
        he he Nr Ay Ag he
        Ny Ag ki ki .. ..
        .. .. .. .. .. ..
        Nr Ay .. .. .. ..
        .. wD .. .. .. ..
    """, nobori=True)
    flip(state, "c5", "d5")
    flip(state, "a4")
    svg = draw_daimyo_view(state.view(0))
    board = board_of(svg)
    face_up = [g for g in board.iter(f"{SVG}g") if g.get("class") == "tile face-up"]
    assert [g.get("data-face") for g in face_up] == ["kibatai-yellow"]
    assert "yellow" in texts(face_up[0]) and "Kb" in texts(face_up[0])
    assert len([g for g in board.iter(f"{SVG}g") if g.get("class") == "flag"]) == 2


def test_captures_the_turn_kyousei_and_the_result_are_written() -> None:
    state = position("""
        .. .. .. .. .. bD
        .. .. .. .. .. ..
        .. bA .. .. .. ..
        .. .. .. .. .. he
        .. .. .. wK .. ki
        .. .. .. .. wS ..
        .. wD .. .. .. ..
    """)
    svg = draw_daimyo_view(state.view(0), marks=["b5"])
    assert "Turn 1 · White to play · Kyousei" in svg and 'class="threatened"' in svg and 'class="mark"' in svg
    state.apply((d.MOVE, d.square_of("d3"), d.square_of("b5")))
    svg = draw_daimyo_view(state.view(1))
    panel = ET.fromstring(svg.split("?>", 1)[1]).find(f".//{SVG}g[@id='panel']")
    assert panel is not None
    captured = [g for g in panel.iter(f"{SVG}g") if g.get("data-piece") and g.get("data-owner") == "1"]
    assert [g.get("data-piece") for g in captured] == ["ashigaru"]
    over = position("""
        .. bD .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. .. .. .. .. ..
        .. wA .. .. .. ..
        wD .. .. .. .. ..
    """)
    over.apply((d.MOVE, d.square_of("b2"), d.square_of("b7")))
    assert "White wins: Black's Daimyo is captured" in draw_daimyo_view(over.view(1))
    assert "Draw: stalemate" in draw_daimyo_view({**over.view(0), "result": {"winners": [0, 1], "reason": "stalemate"}})


def test_the_picture_rasterises_to_png() -> None:
    from samurai_plugins.knizia.play.render import svg_to_png  # the png extra, which the tests install

    data = svg_to_png(draw_daimyo_view(played(2, 80).view(0), remembered=True))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"

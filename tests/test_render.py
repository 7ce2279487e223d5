"""samurai render (issue 10, item 1): the board and the table as SVG or PNG, as far as a seat may see."""

from __future__ import annotations

import re
import struct
import sys
import tomllib
import xml.etree.ElementTree as ET

import pytest

import samurai
from samurai.cli import main
from samurai_plugins.knizia.play.record_files import read_record, replay
from samurai_plugins.knizia.play.render import (
    CASTE_SHAPES,
    SEAT_COLOURS,
    draw_view,
    hex_centre,
    position_from_file,
    render_svg,
    spectator_view,
    svg_to_png,
)

from helpers import ROOT

SVG = "{http://www.w3.org/2000/svg}"
FOUR_PLAYERS = ROOT / "docs" / "examples" / "four-players.json"
LATE_GAME = ROOT / "docs" / "examples" / "late-game.toml"
PICTURES = ROOT / "docs" / "pictures"

# The pictures in README.md and docs/rendering.md, with the command line that draws each.
COMMITTED = [
    ("four-players-end.svg", [str(FOUR_PLAYERS)]),
    ("four-players-seat-1.svg", [str(FOUR_PLAYERS), "--to", "120", "--seat", "1"]),
    ("late-game-seat-0.svg", [str(LATE_GAME), "--seat", "0"]),
]


@pytest.fixture(scope="module")
def finished() -> samurai.Game:
    return samurai.load(FOUR_PLAYERS)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))  # raises on anything that is not well-formed XML


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()]


def seat_group(root: ET.Element, seat: int) -> ET.Element:
    (group,) = [g for g in groups(root, "seat") if g.get("data-seat") == str(seat)]
    return group


def tallies(group: ET.Element) -> dict[str, int]:
    return {g.get("data-caste"): int(g.get("data-count")) for g in groups(group, "tally")}


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# --- the picture -------------------------------------------------------------------------------

def test_the_board_has_one_polygon_per_hex_of_the_pieces_in_play_with_its_coordinates(finished):
    root = parse(render_svg(finished))
    hexes = [p for p in root.iter(f"{SVG}polygon") if "hex" in p.get("class", "").split()]
    board = finished.rules.board
    picture = tomllib.loads((ROOT / "maps" / "japan.toml").read_text())["terrain"]
    assert len(hexes) == board.size == sum(not c.isspace() for c in picture)  # all five pieces at four players
    assert {(int(p.get("data-col")), int(p.get("data-row"))) for p in hexes} == set(board.coords)
    for polygon in hexes:
        col, row = int(polygon.get("data-col")), int(polygon.get("data-row"))
        assert polygon.get("id") == f"hex-{col}-{row}"
        x, y = hex_centre((col, row))
        assert float(polygon.get("data-x")) == pytest.approx(x, abs=0.01)
        assert float(polygon.get("data-y")) == pytest.approx(y, abs=0.01)
    kinds = [p.get("class").split()[1] for p in hexes]
    assert kinds.count("sea") == len(board.sea_hexes) and kinds.count("land") == len(board.land_hexes)
    assert kinds.count("settlement") == len(board.settlements)


def test_only_the_pieces_in_play_are_drawn():
    game = position_from_file(LATE_GAME)  # two players: Honshu's three pieces
    root = parse(render_svg(game, 0))
    hexes = [p for p in root.iter(f"{SVG}polygon") if "hex" in p.get("class", "").split()]
    assert len(hexes) == game.rules.board.size < 174


def test_every_settlement_is_named_and_its_figures_drawn_by_caste(finished):
    root = parse(render_svg(finished))
    view = finished.view(0)
    drawn = {g.get("data-name"): g for g in groups(root, "settlement")}
    assert set(drawn) == {s["name"] for s in view["board"]["settlements"]}
    for settlement in view["board"]["settlements"]:
        group = drawn[settlement["name"]]
        assert settlement["name"] in texts(group)
        figures = [e for e in group if "figure" in e.get("class", "").split()]
        assert [e.get("class").split()[1] for e in figures] == settlement["figures"]
        for element, caste in zip(figures, settlement["figures"], strict=True):
            shape = {"circle": "circle", "square": "rect", "triangle": "polygon"}[CASTE_SHAPES[caste]]
            assert element.tag == SVG + shape  # each caste its own shape, not colour alone


def test_tiles_are_drawn_in_their_owners_colour_with_value_and_special_marks(finished):
    root = parse(render_svg(finished))
    view = finished.view(0)
    drawn = groups(root, "tile")
    assert len(drawn) == len(view["board"]["tiles"])
    for group, tile in zip(drawn, sorted(view["board"]["tiles"], key=lambda t: tuple(t["at"])), strict=True):
        assert group.get("data-tile") == tile["tile"] and group.get("data-owner") == str(tile["owner"])
        assert group.find(f"{SVG}polygon").get("fill") == SEAT_COLOURS[tile["owner"]]
        kind = finished.rules.tile_types[finished.rules.tile_index[tile["tile"]]]
        classes = group.get("class").split()
        assert ("fast" in classes) == kind.fast
        assert ("special" in classes) == (kind.special is not None)
        if kind.fast:
            assert [e for e in group if e.get("class") == "fast-mark"]
        if kind.counts_for:
            assert str(kind.influence) in texts(group)
    assert {g.get("data-owner") for g in drawn} == {"0", "1", "2", "3"}
    assert any("special" in g.get("class").split() for g in drawn)  # a Move tile lies on this board


def test_a_finished_game_shows_every_seats_captures_and_the_winner(finished):
    root = parse(render_svg(finished))
    state = finished.state
    for seat in range(4):
        group = seat_group(root, seat)
        assert tallies(group) == {caste: state.captured[seat * 3 + c] for c, caste in enumerate(samurai.CASTES)}
    assert tallies(seat_group(root, 0))["buddha"] == 6
    assert "Seat 0 — wins" in texts(root)
    removed = [g for g in groups(root, "tally") if g not in sum((groups(seat_group(root, s), "tally")
                                                                   for s in range(4)), [])]
    assert {g.get("data-caste"): int(g.get("data-count")) for g in removed} == finished.view(0)["removed"]


def test_a_seat_sees_its_own_captures_and_hand_but_not_another_seats():
    game = position_from_file(LATE_GAME)  # FFG 2015: captures behind screens during play
    root = parse(render_svg(game, 0))
    assert tallies(seat_group(root, 0)) == {"buddha": 1, "rice": 1, "castle": 2}
    assert tallies(seat_group(root, 1)) == {} and "captured: hidden" in texts(seat_group(root, 1))
    assert [g.get("data-tile") for g in groups(root, "hand-tile")] == game.view(0)["hand"]
    other = parse(render_svg(game, 1))
    assert tallies(seat_group(other, 1)) == {"buddha": 2, "rice": 2, "castle": 1}
    assert tallies(seat_group(other, 0)) == {}
    assert [g.get("data-tile") for g in groups(other, "hand-tile")] == game.view(1)["hand"]
    assert 'data-tile="switch"' in render_svg(game, 0)
    assert 'data-tile="switch"' not in render_svg(game, 1)  # seat 0's Switch tile: in seat 0's picture only


def test_a_spectator_sees_public_information_only():
    game = position_from_file(LATE_GAME)
    view = spectator_view(game)
    assert "hand" not in view and view["seat"] is None
    assert all("captured" not in entry for entry in view["seats"])
    root = parse(render_svg(game))
    assert groups(root, "hand-tile") == []
    for seat in (0, 1):
        assert tallies(seat_group(root, seat)) == {}
    assert "spectator: public information only" in texts(root)


def test_a_spectator_sees_captures_an_edition_makes_public():
    game = samurai.new_game("original", players=2, seed=3)  # the original edition: public with two players
    samurai.play_bots(game, ["random", "random"], seed=3)
    assert all("captured" in entry for entry in spectator_view(game)["seats"])


def test_the_secret_choice_of_a_starting_tile_is_not_shown_to_others():
    game = samurai.new_game("ffg2015", players=2, seed=1)
    game.apply(samurai.ChooseTile("castle-4"))
    for seat in (None, 1):
        svg = render_svg(game, seat)
        assert "castle-4" not in svg and "last action:" not in svg and 'id="marks"' not in svg
    assert "castle-4" in render_svg(game, 0)  # in seat 0's own starting hand


def test_the_last_actions_hexes_are_marked():
    game = position_from_file(FOUR_PLAYERS, 120)
    assert len(game.history) == 120
    last = game.history[-1]
    assert isinstance(last, samurai.SwitchFigures)
    root = parse(render_svg(game, 1))
    (marks,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "marks"]
    assert len(list(marks)) == 2
    assert any(line.startswith("last action: plays Switch") for line in texts(root))


def test_names_from_files_are_escaped(finished):
    view = finished.view(0)
    view["board"]["settlements"][0]["name"] = 'Kita <&> "Machi"'
    view["edition"] = "a&b"
    root = parse(draw_view(view, finished.rules))
    assert 'Kita <&> "Machi"' in texts(root)
    assert "Samurai · a&b" in texts(root)


def test_a_view_of_another_game_is_refused(finished):
    small = samurai.new_game("ffg2015", players=2, seed=1)
    with pytest.raises(samurai.DataError, match="not of these rules"):
        draw_view(finished.view(0), small.rules)


def test_a_tile_the_edition_does_not_have_is_refused(finished):
    view = finished.view(0)
    view["board"]["tiles"][0]["tile"] = "dragon-9"
    with pytest.raises(samurai.DataError, match="dragon-9"):
        draw_view(view, finished.rules)


def test_the_width_scales_the_picture_not_its_coordinates(finished):
    root = parse(render_svg(finished, width=700))
    assert float(root.get("width")) == 700
    natural = parse(render_svg(finished))
    assert root.get("viewBox") == natural.get("viewBox")


def test_png_has_the_signature_and_the_width_asked_for(finished):
    svg = render_svg(finished)
    natural = parse(svg)
    width, height = png_size(svg_to_png(svg, width=640))
    assert width == 640
    assert height == pytest.approx(640 * float(natural.get("height")) / float(natural.get("width")), abs=1)


# --- the command -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, args", COMMITTED)
def test_the_committed_pictures_are_what_the_command_draws(tmp_path, capsys, name, args):
    out = tmp_path / name
    assert main(["render", *args, "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    assert out.read_text(encoding="utf-8") == (PICTURES / name).read_text(encoding="utf-8"), (
        f"docs/pictures/{name} is stale: run samurai render {' '.join(args)} -o docs/pictures/{name} --force")


def test_the_docs_show_the_committed_pictures():
    readme = (ROOT / "README.md").read_text()
    guide = (ROOT / "docs" / "rendering.md").read_text()
    assert "docs/pictures/four-players-end.svg" in readme
    for name, _ in COMMITTED:
        assert f"pictures/{name}" in guide


def test_the_guides_python_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    guide = (ROOT / "docs" / "rendering.md").read_text()
    (example,) = re.findall(r"```python\n(.*?)```", guide, re.DOTALL)
    namespace: dict[str, object] = {}
    exec(compile(example, "docs/rendering.md", "exec"), namespace)
    assert png_size(namespace["png"])[0] == 800
    assert parse(namespace["svg"]).get("viewBox") == parse(namespace["same"]).get("viewBox")


def test_render_writes_png_of_the_width_asked_for(tmp_path):
    out = tmp_path / "board.png"
    assert main(["render", str(FOUR_PLAYERS), "--seat", "2", "--width", "500", "-o", str(out)]) == 0
    assert png_size(out.read_bytes())[0] == 500


def test_render_refuses_to_overwrite_without_force(tmp_path, capsys):
    out = tmp_path / "board.svg"
    out.write_text("mine")
    assert main(["render", str(LATE_GAME), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists; pass --force" in err
    assert out.read_text() == "mine"
    assert main(["render", str(LATE_GAME), "-o", str(out), "--force"]) == 0
    assert out.read_text().startswith("<?xml")


@pytest.mark.parametrize("args, message", [
    ([str(FOUR_PLAYERS), "-o", "{tmp}/board.gif"], "-o: the picture is written as .svg or .png, not '.gif'"),
    ([str(FOUR_PLAYERS), "-o", "{tmp}/board"], "-o: the picture is written as .svg or .png, not 'no suffix'"),
    ([str(FOUR_PLAYERS), "--to", "149", "-o", "{tmp}/b.svg"], "--to must be from 0 to 148 (the record's actions)"),
    ([str(FOUR_PLAYERS), "--to", "-1", "-o", "{tmp}/b.svg"], "argument --to: must be at least 0, not -1"),
    ([str(FOUR_PLAYERS), "--seat", "4", "-o", "{tmp}/b.svg"], "--seat: the game has seats 0 to 3, not 4"),
    ([str(LATE_GAME), "--seat", "2", "-o", "{tmp}/b.svg"], "--seat: the game has seats 0 to 1, not 2"),
    ([str(LATE_GAME), "--to", "1", "-o", "{tmp}/b.svg"], "--to must be 0 for a scenario"),
    (["{tmp}/missing.json", "-o", "{tmp}/b.svg"], "missing.json: file not found"),
    (["{tmp}/missing.toml", "-o", "{tmp}/b.svg"], "missing.toml: file not found"),
    ([str(ROOT / "README.md"), "-o", "{tmp}/b.svg"], "expected a game record (.json or .toml) or a scenario"),
    ([str(FOUR_PLAYERS), "-o", "{tmp}/no/such/folder/b.svg"], "-o: the folder of"),
    ([str(FOUR_PLAYERS), "--width", "0", "-o", "{tmp}/b.png"], "--width: must be at least 1"),
])
def test_render_errors_are_one_line_with_exit_code_2(tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    try:
        code = main(["render", *args])
    except SystemExit as exit:  # argparse refuses bad arguments itself, with the same exit code
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("samurai") and err.count("\n") == 1 and message in err, err
    assert not any(p.suffix in (".svg", ".png", ".tmp") for p in tmp_path.rglob("*"))


def test_render_refuses_a_broken_record_and_writes_nothing(tmp_path, capsys):
    record = tmp_path / "game.json"
    record.write_text(FOUR_PLAYERS.read_text().replace('"seed": 1812625897064547318', '"seed": 7'))
    assert main(["render", str(record), "-o", str(tmp_path / "b.svg")]) == 2
    assert "[seed]: the seed or the actions do not match the record" in capsys.readouterr().err
    assert not (tmp_path / "b.svg").exists()


def test_png_without_resvg_says_which_extra_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # as if the png extra were not installed
    assert main(["render", str(LATE_GAME), "-o", str(tmp_path / "b.png")]) == 2
    err = capsys.readouterr().err
    assert 'pip install "samurai-engine[png]"' in err and err.count("\n") == 1
    assert not (tmp_path / "b.png").exists()


def test_render_hides_another_seats_captures_when_seat_says_so(tmp_path):
    out = tmp_path / "seat-0.svg"
    assert main(["render", str(LATE_GAME), "--seat", "0", "-o", str(out)]) == 0
    root = parse(out.read_text(encoding="utf-8"))
    assert tallies(seat_group(root, 0)) == {"buddha": 1, "rice": 1, "castle": 2}
    assert tallies(seat_group(root, 1)) == {}
    spectator = tmp_path / "spectator.svg"
    assert main(["render", str(LATE_GAME), "-o", str(spectator)]) == 0
    root = parse(spectator.read_text(encoding="utf-8"))
    assert tallies(seat_group(root, 0)) == tallies(seat_group(root, 1)) == {}


def test_every_position_of_a_recorded_game_draws_only_what_each_seat_may_know():
    record = read_record(ROOT / "tests" / "data" / "records" / "ffg2015-3p-seed7.json")
    for number, game in enumerate(replay(record)):
        if number % 7 and number != len(record.actions):
            continue
        for seat in (None, 0, 1, 2):
            view = spectator_view(game) if seat is None else game.view(seat)
            root = parse(render_svg(game, seat))
            assert len(groups(root, "tile")) == len(view["board"]["tiles"])
            hand = [g.get("data-tile") for g in groups(root, "hand-tile")]
            assert hand == ([] if seat is None else view["hand"])
            for other in range(3):
                shown = tallies(seat_group(root, other))
                if "captured" in view["seats"][other]:
                    assert shown == view["seats"][other]["captured"]
                else:
                    assert shown == {} and other != seat

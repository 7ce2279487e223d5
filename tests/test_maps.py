"""Maps: the Japan map's counts (docs/rules/samurai.md#board) and refusing malformed maps."""

from __future__ import annotations

import pytest

from samurai import DataError
from samurai_plugins.knizia.core.hexgrid import neighbours
from samurai_plugins.knizia.core.maps import build_board, load_map

from helpers import ROOT

JAPAN = ROOT / "maps" / "japan.toml"
ISLANDS = {  # land hexes incl. settlements, villages, cities, Edo (docs/rules/samurai.md#board)
    "honshu": (47, 14, 2, 1),
    "hokkaido": (21, 7, 1, 0),
    "kyushu": (12, 5, 0, 0),
    "shikoku": (10, 4, 0, 0),
}


@pytest.fixture(scope="module")
def japan():
    return load_map(JAPAN)


def islands(game_map):
    """Connected groups of land hexes."""
    land = {c for c, t in game_map.terrain.items() if t != "sea"}
    groups = []
    while land:
        stack = [land.pop()]
        group = set(stack)
        while stack:
            for n in neighbours(stack.pop()):
                if n in land:
                    land.discard(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return groups


def counts(game_map, group):
    kinds = [game_map.terrain[c] for c in group]
    return len(group), kinds.count("village"), kinds.count("city"), kinds.count("capital")


def test_japan_has_four_islands_with_the_printed_counts(japan):
    found = sorted(counts(japan, g) for g in islands(japan))
    assert found == sorted(ISLANDS.values())


def test_japan_islands_sit_on_the_right_pieces(japan):
    by_size = {counts(japan, g)[0]: g for g in islands(japan)}
    assert {japan.piece_of(c) for c in by_size[47]} == {"honshu-north", "honshu-central", "honshu-west"}
    assert {japan.piece_of(c) for c in by_size[21]} == {"hokkaido"}
    assert {japan.piece_of(c) for c in by_size[12] | by_size[10]} == {"kyushu-shikoku"}


@pytest.mark.parametrize("pieces, sea", [
    (("honshu-north", "honshu-central", "honshu-west"), 44),
    (("honshu-north", "honshu-central", "honshu-west", "kyushu-shikoku"), 64),
    (("honshu-north", "honshu-central", "honshu-west", "kyushu-shikoku", "hokkaido"), 84),
])
def test_japan_sea_hexes_by_player_count(japan, pieces, sea):
    assert len(build_board(japan, pieces).sea_hexes) == sea


def test_japan_has_five_pieces(japan):
    assert sorted(japan.pieces) == ["hokkaido", "honshu-central", "honshu-north", "honshu-west", "kyushu-shikoku"]


def test_no_two_settlements_touch_and_edo_has_six_land_neighbours(japan):
    board = build_board(japan, tuple(japan.pieces))
    for s, h in zip(board.settlements, board.settlement_hex, strict=False):
        assert all(board.settlement_at[n] < 0 for n in board.neighbours[h]), s.name
    edo = next(i for i, s in enumerate(board.settlements) if s.kind == "capital")
    assert board.settlements[edo].name == "Edo"
    assert len(board.settlement_land[edo]) == 6


def test_several_villages_have_only_two_land_neighbours(japan):
    board = build_board(japan, tuple(japan.pieces))
    narrow = [s.name for s, land in zip(board.settlements, board.settlement_land, strict=False)
              if s.kind == "village" and len(land) == 2]
    assert len(narrow) >= 3


def test_settlements_have_unique_names(japan):
    names = [s.name for s in japan.settlements]
    assert len(names) == len(set(names)) == 34


def test_hex_neighbours_are_mutual_and_six():
    for coord in [(0, 0), (3, 4), (5, 7), (2, 1)]:
        around = list(neighbours(coord))
        assert len(set(around)) == 6
        assert all(coord in neighbours(n) for n in around)


# --- malformed maps are refused with file, line and what to fix -------------------------

GOOD = '''name = "Islet"
terrain = \'\'\'
~ ~ ~ ~
 ~ v . ~
~ . . . ~
 ~ ~ ~ ~
\'\'\'
pieces = \'\'\'
a a a a
 a a a a
a a a a a
 a a a a
\'\'\'
settlements = ["Mura"]

[piece_names]
a = "all"
'''


def write(tmp_path, text):
    path = tmp_path / "map.toml"
    path.write_text(text)
    return path


def test_a_good_small_map_loads(tmp_path):
    game_map = load_map(write(tmp_path, GOOD))
    assert game_map.settlements[0].name == "Mura"
    assert game_map.settlements[0].at == (1, 1)


@pytest.mark.parametrize("change, message", [
    (("v . ~", "v x ~"), r"map.toml:4 \[terrain\]: terrain hex \(2, 1\) has unknown symbol 'x'"),
    (("~ . . . ~", "~ .. . ~"), r"map.toml:5 .*off the hex grid"),
    (('settlements = ["Mura"]', 'settlements = ["Mura", "Extra"]'), "1 settlements but 'settlements' lists 2"),
    (('a = "all"', 'b = "all"'), "piece letter 'a' at hex .* has no entry"),
    ((" a a a a\na a a a a", " a a a\na a a a a"), "in the terrain picture but has no piece"),
    (('name = "Islet"', 'name = "Islet"\ncolour = "red"'), "unknown key 'colour'"),
    (('name = "Islet"', 'name = 7'), "name must be str"),
    (("pieces = '''", "pieces = '''\n"), "pieces"),
    (('settlements = ["Mura"]', 'settlements = "Mura"'), "settlements must be list"),
])
def test_malformed_maps_are_refused_with_a_clear_message(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(DataError, match=message):
        load_map(write(tmp_path, GOOD.replace(old, new, 1)))


def test_touching_settlements_are_refused(tmp_path):
    text = GOOD.replace("~ v . ~", "~ v v ~").replace('["Mura"]', '["Mura", "Machi"]')
    with pytest.raises(DataError, match="Mura .* and Machi .* touch: a settlement hex never holds a tile"):
        load_map(write(tmp_path, text))


def test_a_settlement_without_land_neighbours_is_refused(tmp_path):
    text = GOOD.replace(" ~ v . ~\n~ . . . ~", " ~ v ~ ~\n~ ~ ~ . ~")
    with pytest.raises(DataError, match="Mura .* has no land neighbour"):
        load_map(write(tmp_path, text))


def test_invalid_toml_names_the_line(tmp_path):
    with pytest.raises(DataError, match=r"map.toml:2: not valid TOML"):
        load_map(write(tmp_path, 'name = "x"\nterrain = =\n'))


def test_a_missing_map_file_is_refused(tmp_path):
    with pytest.raises(DataError, match="file not found"):
        load_map(tmp_path / "nowhere.toml")

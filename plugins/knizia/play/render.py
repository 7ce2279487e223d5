"""Drawing a position: the board and the table as one SVG picture (PNG through the optional resvg-py).

The picture is drawn from a seat's view (``samurai_plugins.knizia.play.views``), never from the
state, so what a seat may not know cannot reach its picture: ``draw_view``
takes the view dict and the compiled ``Rules`` for what every player knows
anyway (the map's hexes and the tile set). ``render_svg`` does the same for a
``Game`` and a seat, or for a spectator (public information only; at the end
of a game the screens are lifted, so everyone's captures show).

Readable by colour-blind people: seats and castes use the Okabe-Ito palette,
each caste also has its own shape (buddha a circle, rice a square, castle a
triangle) and each tile is labelled with its value and caste symbol.

Hexes are pointy-top, in the odd-r layout of the map pictures
(``samurai_plugins.knizia.core.hexgrid``). Every hex is a ``<polygon>`` with ``id="hex-COL-ROW"``,
``data-col``, ``data-row`` and its centre in ``data-x``/``data-y``; the centre
is also ``hex_centre((col, row))`` in the picture's own coordinates (its
``viewBox``), so a web page can make hexes clickable.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from samurai.catalog.trust import Trust, TrustLike
from samurai.errors import DataError
from samurai.files.reading import read_toml
from samurai.files.svg import Svg, num, svg_to_png
from samurai_plugins.knizia.core.actions import ChooseTile
from samurai_plugins.knizia.core.hexgrid import Coord
from samurai_plugins.knizia.core.maps import SEA, SETTLEMENT
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine import reference as engine
from samurai_plugins.knizia.engine.special_tiles import ENGINE_TILES
from samurai_plugins.knizia.play.game import Game, new_game
from samurai_plugins.knizia.play.record_files import from_record, read_record, replay
from samurai_plugins.knizia.play.replays import describe_action

__all__ = ["render_svg", "draw_view", "draw_key", "spectator_view", "svg_to_png", "hex_centre", "action_marks",
           "move_marks",
           "position_from_file", "seat_colour", "HEX_RADIUS", "SEAT_COLOURS", "CASTE_COLOURS", "CASTE_SHAPES"]

HEX_RADIUS = 26.0
"""Centre-to-corner distance of a hex, in the picture's units."""

SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")
"""Tile colours of seats 0..3 (Okabe-Ito vermillion, blue, bluish green, reddish purple)."""

CASTE_COLOURS = {"buddha": "#F0E442", "rice": "#56B4E9", "castle": "#E69F00"}
"""Figure colours by caste (Okabe-Ito yellow, sky blue, orange)."""

CASTE_SHAPES = {"buddha": "circle", "rice": "square", "castle": "triangle"}
"""Figure shapes by caste: the shape alone tells the castes apart."""

_W = math.sqrt(3) * HEX_RADIUS  # width of a pointy-top hex
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_INK = "#2B2B2B"
_SEA = "#BCD7EA"
_SEA_EDGE = "#9BBFD8"
_LAND = "#EDE3C5"
_LAND_EDGE = "#B9AC86"
_SETTLEMENT = "#D9C48F"
_PAPER = "#FAF8F2"
_PREFERRED = "#007A3D"
"""The dashed outline of an analysis's preferred move (``draw_view(preferred=...)``)."""
_TERRAIN_COLOURS = {"sea": (_SEA, _SEA_EDGE), "land": (_LAND, _LAND_EDGE), "settlement": (_SETTLEMENT, _LAND_EDGE)}
_PANEL_WIDTH = 330.0
_KEY_WIDTH = 300.0
_MARGIN = 14.0
_PHASES = {"choose_hands": "choosing starting hands", "place_figures": "placing figures", "play": "play",
           "over": "game over"}


def hex_centre(coord: Coord) -> tuple[float, float]:
    """The centre of hex ``(col, row)`` in the picture's coordinates (odd rows half a hex right)."""
    col, row = coord
    return (col + 0.5 * (row & 1)) * _W + _W / 2, row * 1.5 * HEX_RADIUS + HEX_RADIUS


def render_svg(game: Game, seat: int | None = None, *, width: float | None = None) -> str:
    """The picture of ``game`` as ``seat`` sees it; ``seat=None`` draws what a spectator sees.

    The last action's hexes are marked, unless it was a secret choice of a
    starting tile. ``width`` scales the picture (default: its natural size).
    """
    view = spectator_view(game) if seat is None else game.view(seat)
    last = game.history[-1] if game.history else None
    marks: Sequence[Coord] = ()
    caption = None
    if last is not None and not isinstance(last, ChooseTile):
        marks = action_marks(last)
        caption = f"last action: {describe_action(last, game)}"
    return draw_view(view, game.rules, marks=marks, caption=caption, width=width)


def position_from_file(path: str | Path, to: int | None = None, *, trust: TrustLike = ()) -> Game:
    """The game of a record (replayed and checked, then taken back to its first ``to`` actions) or a
    scenario's starting position.

    A ``.json`` file, or a ``.toml`` file with ``actions``, is a record; any
    other ``.toml`` file is a scenario (which has no actions, so ``to`` may
    only be 0). Either is data: the edition it names must be installed, or its
    manifest in ``trust`` (see ``samurai.catalog.trust``).
    """
    vouched = Trust.of(trust)
    folder = Path(path).parent
    source = str(path)
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".toml"):
        raise DataError(f"expected a game record (.json or .toml) or a scenario (.toml), not {suffix or 'no suffix'!r}",
                        source=source)
    if suffix == ".toml" and "actions" not in read_toml(path)[0]:
        if to not in (None, 0):
            raise DataError(f"--to must be 0 for a scenario (it has no actions), not {to}", source=source)
        return new_game(scenario=path, trust=vouched)
    record = read_record(path, trust=vouched)
    if to is not None and not 0 <= to <= len(record.actions):
        raise DataError(f"--to must be from 0 to {len(record.actions)} (the record's actions), not {to}",
                        source=source)
    game = from_record(record, source=source, trust=vouched, folder=folder)  # it must replay and match its check
    if to is None or to == len(record.actions):
        return game
    for number, game in enumerate(replay(record, source=source, trust=vouched, folder=folder)):  # noqa: B007 - stop at action ``to``
        if number == to:
            break
    return game


def spectator_view(game: Game) -> dict[str, Any]:
    """What someone watching the table knows: a seat's view without that seat's hand or secret captures.

    Captures stay hidden unless the edition makes them public or the game is
    over (then every seat's view shows everyone's, and so does this one).
    """
    view = game.view(0)
    view.pop("hand", None)
    view.pop("unchosen", None)
    view["seat"] = None
    public = any("captured" in entry for entry in view["seats"][1:])
    if not public:
        for entry in view["seats"]:
            entry.pop("captured", None)
    return view


def move_marks(rules: Rules, action: tuple[int, ...]) -> tuple[Coord, ...]:
    """The hexes an engine action names (a tile's hex, a figure's settlement, the hexes a special tile marks:
    ``TileBehaviour.marks``); none for a choice of a starting tile or an end of turn."""
    board = rules.board
    kind = action[0]
    if kind == engine.PLACE:
        return (board.coords[action[2]],)
    if kind == engine.FIGURE:
        return (board.settlements[action[2]].at,)
    if kind == engine.SPECIAL:
        behaviour = rules.behaviours[action[1]]
        if behaviour is not None:
            return tuple(board.coords[h] for h in behaviour.marks(rules, action[1], action[2:]))
    return ()


def action_marks(action: Any) -> tuple[Coord, ...]:
    """The hexes an action names (where a tile went, a Move's two hexes, a Switch's two settlements)."""
    marks: list[Coord] = []
    for value in action.to_dict().values():
        if (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            marks.append((value[0], value[1]))
    return tuple(marks)


def draw_view(view: Mapping[str, Any], rules: Rules, *, marks: Iterable[Coord] = (), caption: str | None = None,
              width: float | None = None, table: bool = True, preferred: Iterable[Coord] = ()) -> str:
    """The SVG picture of a seat's view (``Game.view``) or a spectator's (``spectator_view``).

    ``rules`` supplies only what every player knows: the hexes of the board and
    the tile set. ``marks`` outlines hexes (the last action's); ``caption`` is a
    line of text under the table. ``table=False`` draws the board alone, without
    the table beside it (seats, hand, key, caption): for a page that shows those
    itself (the key: ``draw_key``). ``preferred`` outlines hexes dashed in green, inside the hex (an analysis's
    preferred move, ``samurai analyse-game``).
    """
    board = rules.board
    if view.get("map") != board.map.name or view.get("players") != rules.players:
        raise DataError(f"the view is of a {view.get('players')}-player game on map {view.get('map')!r}, not of "
                        f"these rules ({rules.players} players on {board.map.name!r})", source="view")
    centres = [hex_centre(c) for c in board.coords]
    left = min(x for x, _ in centres) - _W / 2 - _MARGIN
    top = min(y for _, y in centres) - HEX_RADIUS - _MARGIN
    board_right = max(x for x, _ in centres) + _W / 2 + _MARGIN
    bottom = max(y for _, y in centres) + HEX_RADIUS + _MARGIN
    panel = _Panel(view, rules, board_right + 6, top + _MARGIN, caption) if table else None
    right = board_right if panel is None else panel.x + _PANEL_WIDTH + _MARGIN
    bottom = bottom if panel is None else max(bottom, panel.bottom + _MARGIN)
    natural_width, height = right - left, bottom - top
    scale = 1.0 if width is None else width / natural_width

    out = Svg()
    out.open("svg", xmlns="http://www.w3.org/2000/svg", width=num(natural_width * scale),
             height=num(height * scale), viewBox=f"{num(left)} {num(top)} {num(natural_width)} {num(height)}",
             font_family=_FONT)
    out.leaf("title", text=f"Samurai {view.get('edition')}, {view.get('players')} players: {_status(view)}")
    out.leaf("rect", x=left, y=top, width=natural_width, height=height, fill=_PAPER)
    _draw_board(out, view, rules, {(c[0], c[1]) for c in marks}, {(c[0], c[1]) for c in preferred})
    if panel is not None:
        panel.draw(out)
    out.close("svg")
    return out.text()


def draw_key() -> str:
    """The key to the board's symbols as a small SVG picture: the castes' figures, the marks of fast tiles and of
    the engine's own special tiles (Move, Switch), an empty place and the last action's outline (what the table
    beside the board ends with)."""
    height = _draw_key(None, 0.0, 0.0) + 4
    out = Svg()
    out.open("svg", xmlns="http://www.w3.org/2000/svg", width=num(_KEY_WIDTH), height=num(height),
             viewBox=f"-6 -4 {num(_KEY_WIDTH)} {num(height)}", font_family=_FONT, class_="key")
    out.leaf("title", text="Key to the board")
    _draw_key(out, 0.0, 0.0, heading=False)
    out.close("svg")
    return out.text()


# --- the board -------------------------------------------------------------------------------

def _draw_board(out: Svg, view: Mapping[str, Any], rules: Rules, marks: set[Coord], preferred: set[Coord]) -> None:
    board = rules.board
    tiles: dict[Coord, Mapping[str, Any]] = {(t["at"][0], t["at"][1]): t for t in view["board"]["tiles"]}
    settlements: dict[Coord, Mapping[str, Any]] = {(s["at"][0], s["at"][1]): s
                                                   for s in view["board"]["settlements"]}
    out.open("g", id="board")
    out.open("g", id="hexes")
    for h, coord in enumerate(board.coords):
        kind = "sea" if board.terrain[h] == SEA else "settlement" if board.terrain[h] == SETTLEMENT else "land"
        fill, edge = _TERRAIN_COLOURS[kind]
        x, y = hex_centre(coord)
        out.leaf("polygon", id=f"hex-{coord[0]}-{coord[1]}", class_=f"hex {kind}", data_col=coord[0],
                 data_row=coord[1], data_x=num(x), data_y=num(y), points=_hex_points(x, y, HEX_RADIUS - 0.6),
                 fill=fill, stroke=edge, stroke_width=1.2)
    out.close("g")
    out.open("g", id="tiles")
    for coord, tile in sorted(tiles.items()):
        _draw_tile(out, rules, coord, tile["tile"], tile["owner"])
    out.close("g")
    out.open("g", id="settlements")
    for coord, settlement in sorted(settlements.items(), key=lambda item: (item[0][1], item[0][0])):
        _draw_settlement(out, rules, coord, settlement)
    out.close("g")
    # Solid: the page marks where a person may click dashed, and the two must not be confused; an analysis's
    # preferred move is dashed inside the hex, in green.
    _outline(out, board.index, marks, "mark", HEX_RADIUS - 2.5, _INK)
    _outline(out, board.index, preferred, "preferred", HEX_RADIUS - 7, _PREFERRED, dashed=True)
    out.close("g")


def _outline(out: Svg, hexes: Mapping[Coord, int], coords: set[Coord], kind: str, radius: float, stroke: str, *,
             dashed: bool = False) -> None:
    """The hexes ``coords`` of the board outlined, in a group of their ``kind`` (nothing for none)."""
    if not coords:
        return
    out.open("g", id=f"{kind}s" if kind == "mark" else kind)
    dash = {"stroke_dasharray": "5 3"} if dashed else {}
    for coord in sorted(coords):
        if coord in hexes:
            x, y = hex_centre(coord)
            out.leaf("polygon", class_=kind, points=_hex_points(x, y, radius), fill="none", stroke=stroke,
                     stroke_width=3.5, **dash)
    out.close("g")


def _draw_tile(out: Svg, rules: Rules, coord: Coord, name: str, owner: int) -> None:
    index = rules.tile_index.get(name)
    if index is None:
        raise DataError(f"tile {name!r} at {coord} is not a tile of edition {rules.edition.id!r}", source="view")
    tile = rules.tile_types[index]
    x, y = hex_centre(coord)
    colour = seat_colour(owner)
    out.open("g", class_=f"tile seat-{owner}" + (" fast" if tile.fast else "") + (" special" if tile.special else ""),
             data_tile=name, data_owner=owner)
    out.leaf("title", text=f"{name} of seat {owner} on ({coord[0]}, {coord[1]})")
    out.leaf("polygon", points=_hex_points(x, y, HEX_RADIUS - 3), fill=colour, stroke=_INK, stroke_width=1.2)
    _tile_face(out, rules, index, x, y, 1.0)
    out.close("g")


def _tile_face(out: Svg, rules: Rules, index: int, x: float, y: float, size: float) -> None:
    """The value and caste symbol of tile type ``index`` (white on its owner's colour), and the fast or special
    mark (``TileBehaviour.draw_glyph``)."""
    tile, behaviour = rules.tile_types[index], rules.behaviours[index]
    if behaviour is not None and not tile.counts_for:
        # a fast special tile (Switch) leaves the lower right corner to its bolt
        behaviour.draw_glyph(out, x - (3 * size if tile.fast else 0), y - 2 * size, 0.9 * size)
    else:
        castes = [c for c in CASTES if c in tile.counts_for]
        if len(castes) == 1:
            _figure(out, castes[0], x, y - 10 * size, 5.2 * size, fill="#FFFFFF", stroke=_INK, stroke_width=1)
        else:
            for i, caste in enumerate(castes):
                _figure(out, caste, x + (i - (len(castes) - 1) / 2) * 8 * size, y - 10 * size, 3.3 * size,
                        fill="#FFFFFF", stroke=_INK, stroke_width=0.8)
        out.leaf("text", x=x, y=y + 7.5 * size, text_anchor="middle", font_size=num(15 * size), font_weight="bold",
                 fill="#FFFFFF", stroke=_INK, stroke_width=num(2.2 * size), paint_order="stroke",
                 text=str(tile.influence))
    if tile.fast:
        _bolt(out, x + 10.5 * size, y + 9 * size, size)
    if tile.on == "sea":
        _waves(out, x, y + 15 * size, size)


def _bolt(out: Svg, x: float, y: float, size: float) -> None:
    """The mark of a fast tile: a small lightning bolt."""
    s = size
    points = [(0.5, -5), (-3, 1), (0, 1), (-1, 6), (3, -1), (0, -1), (1.5, -5)]
    out.leaf("polygon", class_="fast-mark",
             points=" ".join(f"{num(x + px * s)},{num(y + py * s)}" for px, py in points),
             fill="#FFFFFF", stroke=_INK, stroke_width=num(0.8 * s), stroke_linejoin="round")


def _waves(out: Svg, x: float, y: float, size: float) -> None:
    """The mark of a sea tile (a ship): a small wave under its value."""
    s = size
    out.leaf("path", d=f"M{num(x - 7 * s)} {num(y)} q{num(1.75 * s)} {num(-2.5 * s)} {num(3.5 * s)} 0 "
                       f"t{num(3.5 * s)} 0 t{num(3.5 * s)} 0 t{num(3.5 * s)} 0",
             fill="none", stroke="#FFFFFF", stroke_width=num(1.4 * s))


def _draw_settlement(out: Svg, rules: Rules, coord: Coord, settlement: Mapping[str, Any]) -> None:
    x, y = hex_centre(coord)
    figures = list(settlement["figures"])
    capacity = {"village": 1, "city": 2, "capital": 3}.get(settlement["kind"], max(1, len(figures)))
    out.open("g", class_=f"settlement {settlement['kind']}", data_name=settlement["name"])
    out.leaf("title", text=f"{settlement['kind']} {settlement['name']}: {', '.join(figures) or 'no figures'}")
    if settlement["kind"] == "capital":
        out.leaf("polygon", points=_hex_points(x, y, HEX_RADIUS - 4), fill="none", stroke=_INK, stroke_width=1.4)
    slots = max(capacity, len(figures))
    for i in range(slots):
        fx = x + (i - (slots - 1) / 2) * 13.5
        fy = y - 5
        if i < len(figures):
            _figure(out, figures[i], fx, fy, 6.2, fill=CASTE_COLOURS.get(figures[i], "#FFFFFF"), stroke=_INK,
                    stroke_width=1.3, class_=f"figure {figures[i]}")
        else:
            out.leaf("circle", class_="slot", cx=fx, cy=fy, r=4.5, fill="none", stroke="#8C7F5C", stroke_width=1,
                     stroke_dasharray="2 2")
    out.leaf("text", class_="name", x=x, y=y + 17, text_anchor="middle", font_size=13, font_weight="bold",
             fill=_INK, stroke="#FFFFFF", stroke_width=2.6, stroke_linejoin="round", paint_order="stroke",
             text=settlement["name"])
    out.close("g")


def _figure(out: Svg, caste: str, x: float, y: float, r: float, **style: Any) -> None:
    """A figure or caste symbol: circle (buddha), square (rice), triangle (castle); a diamond otherwise."""
    shape = CASTE_SHAPES.get(caste)
    if shape == "circle":
        out.leaf("circle", cx=x, cy=y, r=r * 0.95, **style)
    elif shape == "square":
        side = r * 1.65
        out.leaf("rect", x=x - side / 2, y=y - side / 2, width=side, height=side, **style)
    elif shape == "triangle":
        out.leaf("polygon", points=f"{num(x)},{num(y - r * 1.15)} {num(x + r * 1.1)},{num(y + r * 0.8)} "
                                   f"{num(x - r * 1.1)},{num(y + r * 0.8)}", stroke_linejoin="round", **style)
    else:
        out.leaf("polygon", points=f"{num(x)},{num(y - r)} {num(x + r)},{num(y)} {num(x)},{num(y + r)} "
                                   f"{num(x - r)},{num(y)}", **style)


# --- the table beside the board -------------------------------------------------------------

class _Panel:
    """The seats, their tallies, the removed figures, the viewer's hand, a legend; laid out top-down."""

    def __init__(self, view: Mapping[str, Any], rules: Rules, x: float, y: float, caption: str | None) -> None:
        self.view, self.rules, self.x, self.top, self.caption = view, rules, x, y, caption
        self.lines = self._status_lines()
        self.caption_lines = textwrap.wrap(caption, 52) if caption else []
        hand = view.get("hand")
        self.hand_rows = 0 if hand is None else max(1, math.ceil(len(hand) / 5))
        self.bottom = self._layout(None)

    def draw(self, out: Svg) -> None:
        out.open("g", id="table")
        self._layout(out)
        out.close("g")

    def _status_lines(self) -> list[str]:
        view = self.view
        lines = [f"{view.get('players')} players on {view.get('map')}", *textwrap.wrap(_status(view), 40)]
        result = view.get("result")
        if result:
            lines += textwrap.wrap(str(result.get("explanation", "")), 52)
        return lines

    def _layout(self, out: Svg | None) -> float:
        """Draw (or, with ``out`` None, only measure) the panel; returns its bottom edge."""
        view, x, y = self.view, self.x, self.top
        text = _Text(out)
        text.line(x, y + 14, f"Samurai · {view.get('edition')}", size=17, weight="bold")
        y += 32
        for i, line in enumerate(self.lines):
            text.line(x, y, line, size=13 if i == 1 else 10.5, weight="bold" if i == 1 else "normal")
            y += 17 if i == 1 else 13.5
        y += 8
        viewer = view.get("seat")
        seen_by = (f"as seen by seat {viewer}" if viewer is not None else "spectator: public information only"
                   if not view.get("result") else "spectator: the game is over, every capture shows")
        text.line(x, y, seen_by, size=10.5, style="italic")
        y += 12
        for entry in view["seats"]:
            y = self._seat(out, entry, x, y, viewer)
        y += 8
        text.line(x, y + 10, "removed by ties", size=11.5, weight="bold")
        self._tally(out, view.get("removed", {}), x + 128, y + 6)
        y += 24
        if view.get("phase") in ("choose_hands", "place_figures"):
            text.line(x, y + 10, "figures to place", size=11.5, weight="bold")
            self._tally(out, view.get("supply", {}), x + 128, y + 6)
            y += 24
        if self.hand_rows:
            text.line(x, y + 10, "your hand" if view.get("phase") != "choose_hands" else "your starting hand",
                      size=11.5, weight="bold")
            y += 18
            hand = list(view.get("hand", []))
            if not hand:
                text.line(x, y + 14, "empty", size=10.5, style="italic")
            for i, name in enumerate(hand):
                cx, cy = x + 24 + (i % 5) * 46, y + 22 + (i // 5) * 42
                index = self.rules.tile_index.get(name)
                if out is not None and index is not None and viewer is not None:
                    out.open("g", class_="hand-tile", data_tile=name)
                    out.leaf("title", text=name)
                    out.leaf("polygon", points=_hex_points(cx, cy, 20), fill=seat_colour(viewer), stroke=_INK,
                             stroke_width=1.1)
                    _tile_face(out, self.rules, index, cx, cy, 0.78)
                    out.close("g")
            y += 8 + 42 * self.hand_rows
        y += 6
        y = _draw_key(out, x, y)
        for line in self.caption_lines:
            y += 14
            text.line(x, y, line, size=10.5)
        return y

    def _seat(self, out: Svg | None, entry: Mapping[str, Any], x: float, y: float, viewer: Any) -> float:
        seat = entry["seat"]
        text = _Text(out)
        to_play = self.view.get("current_player") == seat
        winners = (self.view.get("result") or {}).get("winners", [])
        if out is not None:
            out.open("g", class_=f"seat seat-{seat}", data_seat=seat)
            if to_play:
                out.leaf("rect", x=x - 4, y=y + 1, width=_PANEL_WIDTH - 10, height=44, rx=5, fill="#FFFFFF",
                         stroke=_INK, stroke_width=1.2)
            out.leaf("polygon", points=_hex_points(x + 14, y + 16, 12), fill=seat_colour(seat), stroke=_INK,
                     stroke_width=1.1)
            out.leaf("text", x=x + 14, y=y + 20.5, text_anchor="middle", font_size=12, font_weight="bold",
                     fill="#FFFFFF", text=str(seat))
        label = f"Seat {seat}" + (" (you)" if seat == viewer else "") + (" — to play" if to_play else "") + (
            " — wins" if seat in winners else "")
        text.line(x + 32, y + 15, label, size=12, weight="bold")
        text.line(x + 32, y + 29, f"hand {entry.get('hand_size', 0)} · stack {entry.get('stack_size', 0)}",
                  size=10.5)
        captured = entry.get("captured")
        if captured is None:
            text.line(x + 32, y + 42, "captured: hidden", size=10.5, style="italic")
        else:
            text.line(x + 32, y + 42, "captured", size=10.5)
            self._tally(out, captured, x + 90, y + 38, small=True)
        if out is not None:
            out.close("g")
        return y + 52

    def _tally(self, out: Svg | None, counts: Mapping[str, Any], x: float, y: float, small: bool = False) -> None:
        """A figure of each caste with its count beside it: the colour-blind-safe caste key."""
        if out is None:
            return
        for i, caste in enumerate(CASTES):
            cx = x + i * (48 if small else 52)
            out.open("g", class_=f"tally {caste}", data_caste=caste, data_count=int(counts.get(caste, 0)))
            _figure(out, caste, cx, y, 5 if small else 5.8, fill=CASTE_COLOURS[caste], stroke=_INK, stroke_width=1.1)
            out.leaf("text", x=cx + 9, y=y + 4.5, font_size=12 if small else 13, font_weight="bold", fill=_INK,
                     text=f"× {int(counts.get(caste, 0))}")
            out.close("g")

def _draw_key(out: Svg | None, x: float, y: float, *, heading: bool = True) -> float:
    """Draw (or, with ``out`` None, only measure) the key at ``(x, y)``; returns its bottom edge."""
    text = _Text(out)
    if heading:
        text.line(x, y + 10, "key", size=11.5, weight="bold")
        y += 16
    for i, caste in enumerate(CASTES):
        cx = x + 10 + i * 92
        if out is not None:
            _figure(out, caste, cx, y + 10, 5.8, fill=CASTE_COLOURS[caste], stroke=_INK, stroke_width=1.1)
        text.line(cx + 10, y + 14, caste, size=10.5)
    y += 24
    marked = (None, *ENGINE_TILES)  # the fast tile's bolt, then each of the engine's own special tiles, three a row
    for first in range(0, len(marked), 3):
        row = marked[first:first + 3]
        if out is not None:
            for i, special in enumerate(row):
                cx = x + 10 + i * 92
                out.leaf("polygon", points=_hex_points(cx, y + 10, 10.5), fill="#777777", stroke=_INK,
                         stroke_width=1)
                if special is None:
                    _bolt(out, cx, y + 10, 1.0)
                else:
                    special.draw_glyph(out, cx, y + 10, 0.55)
        for i, special in enumerate(row):
            text.line(x + 24 + i * 92, y + 14, "fast tile" if special is None else f"{special.title} tile",
                      size=10.5)
        y += 24
    if out is not None:
        out.leaf("circle", cx=x + 10, cy=y + 10, r=4.5, fill="none", stroke="#8C7F5C", stroke_width=1,
                 stroke_dasharray="2 2")
        out.leaf("polygon", points=_hex_points(x + 118, y + 10, 10), fill="none", stroke=_INK, stroke_width=2.5)
    text.line(x + 24, y + 14, "empty place", size=10.5)
    text.line(x + 132, y + 14, "the last action's hexes", size=10.5)
    y += 24
    text.line(x, y + 10, "tiles: owner's colour, value, castes it counts for", size=10)
    return y + 12


class _Text:
    """Left-aligned lines of panel text (nothing is drawn while the panel is only measured)."""

    def __init__(self, out: Svg | None) -> None:
        self.out = out

    def line(self, x: float, y: float, text: str, *, size: float, weight: str = "normal",
             style: str = "normal") -> None:
        if self.out is not None:
            self.out.leaf("text", x=x, y=y, font_size=num(size), font_weight=weight, font_style=style, fill=_INK,
                          text=text)


def _status(view: Mapping[str, Any]) -> str:
    """Where the game stands: whose turn, or who won."""
    phase = view.get("phase", "")
    result = view.get("result")
    if result:
        winners = list(result.get("winners", []))
        who = (f"seat {winners[0]} wins" if len(winners) == 1 else
               "seats " + ", ".join(map(str, winners)) + " share the win")
        return f"game over: {who}"
    current = view.get("current_player")
    if phase == "play":
        return f"turn {view.get('turn')} · seat {current} to play"
    return f"{_PHASES.get(phase, phase)} · seat {current} to act"


def seat_colour(seat: int) -> str:
    """The colour of ``seat``'s tiles."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


# --- writing SVG ------------------------------------------------------------------------------

def _hex_points(x: float, y: float, r: float) -> str:
    return " ".join(f"{num(x + r * math.cos(math.radians(60 * k - 30)))},"
                    f"{num(y + r * math.sin(math.radians(60 * k - 30)))}" for k in range(6))

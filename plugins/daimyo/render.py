"""Drawing a Daimyo and Shinobi position as one SVG picture, from a seat's view.

The picture is drawn from the view dict a seat receives (``DaimyoState.view``),
never from the position, so a face nobody has seen cannot reach it: a
face-down tile is drawn as unknown. Tiles the seat saw flipped earlier are in
its view too (``seen``); ``remembered=True`` draws their faces faintly, as a
player who remembers them would see the board, and the default draws them as
plain face-down tiles, as a player who forgot would.

Readable by colour-blind people: White's pieces are light discs and Black's
dark squares (a difference of lightness and shape, not hue), each piece kind
has its letters (D Daimyo, S Shinobi, A Ashigaru, Kh Kihei, Kb Kibatai), and
each army tile names its kamon in words beside its colour.

Every square is a ``<rect>`` with ``id="square-c4"`` and ``data-square="c4"``;
``square_centre("c4", bottom)`` is its centre in the picture's own coordinates
(its ``viewBox``), so a web page can make squares clickable. The board is seen
from the side of the seat at the ``bottom`` (the view's seat by default):
White's rank 1 at the bottom for White, Black's last rank at the bottom for Black.
The board's size is the view's ``size`` (``{"files": 6, "ranks": 7}`` when it has none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from samurai.files.svg import Svg, num

__all__ = ["draw_daimyo_view", "draw_daimyo_key", "square_centre", "board_size", "SQUARE_SIZE", "DEFAULT_SIZE"]

FILE_LETTERS = "abcdefghijkl"
DEFAULT_SIZE = (6, 7)
"""Files and ranks of a view that does not give its ``size`` (the battlefield of docs/rules/daimyo.md#ruling-board)."""
SQUARE_SIZE = 64.0
"""The side of a square in picture units."""

_LEFT, _TOP = 30.0, 64.0
_PANEL_W = 230.0
_PANEL_H = 488.0  # the side panel's own height: a small board's picture is at least this tall

SEAT_NAMES = ("White", "Black")
PIECE_LETTERS = {"daimyo": "D", "shinobi": "S", "ashigaru": "A", "kihei": "Kh", "kibatai": "Kb"}
PIECE_MOVES = {"daimyo": "one square, any way", "shinobi": "any distance, any way",
               "ashigaru": "any distance, straight", "kihei": "any distance, diagonal",
               "kibatai": "knight's leap, jumps"}
# Okabe-Ito tones for the kamon, always written beside them in words.
KAMON_COLOURS = {"red": "#D55E00", "yellow": "#F0E442", "green": "#009E73", "blue": "#0072B2"}
_LIGHT, _DARK = "#efe6d2", "#d8c8a6"
_TILE_BACK, _TILE_EDGE = "#7a5a3a", "#4a3420"
_TURN_EDGE, _MARK_EDGE, _FLAG = "#E69F00", "#0072B2", "#CC3311"
_INK, _PAPER = "#1b1b1b", "#fbfbf8"
_LOSSES = {"haisen": "{loser} is in Haisen", "daimyo_captured": "{loser}'s Daimyo is captured",
           "yonhon_no_ki": "{loser} flipped Yonhon no ki", "stalemate": "{loser} has no legal turn"}
_DRAWS = {"stalemate": "stalemate, no legal turn", "no_progress": "turns in a row without progress"}


def board_size(view: Mapping[str, Any]) -> tuple[int, int]:
    """The view's files and ranks (``DEFAULT_SIZE`` when it does not say); ``ValueError`` for a size no board has."""
    size = view.get("size")
    if size is None:
        return DEFAULT_SIZE
    files = size.get("files") if isinstance(size, Mapping) else None
    ranks = size.get("ranks") if isinstance(size, Mapping) else None
    if not (isinstance(files, int) and isinstance(ranks, int) and not isinstance(files, bool)
            and not isinstance(ranks, bool) and 1 <= files <= len(FILE_LETTERS) and 1 <= ranks <= len(FILE_LETTERS)):
        raise ValueError(f"a view's size is files and ranks from 1 to {len(FILE_LETTERS)}, not {str(size)[:60]}")
    return files, ranks


def square_centre(name: str, bottom: int = 0, files: int = DEFAULT_SIZE[0],
                  ranks: int = DEFAULT_SIZE[1]) -> tuple[float, float]:
    """The centre of square ``name`` (``"c4"``) in picture units on a board of ``files`` by ``ranks``, seen
    from the side of seat ``bottom``."""
    letters = FILE_LETTERS[:files]
    if (len(name) < 2 or name[0] not in letters or not name[1:].isdigit() or name[1] == "0"
            or not 1 <= int(name[1:]) <= ranks):
        raise ValueError(f"a square is a file a-{letters[-1]} and a rank 1-{ranks}, like 'c4', not {name[:40]!r}")
    file, rank = letters.index(name[0]), int(name[1:]) - 1
    if bottom == 1:  # Black's side: the board turned half round
        file, rank = files - 1 - file, ranks - 1 - rank
    return _LEFT + (file + 0.5) * SQUARE_SIZE, _TOP + (ranks - 1 - rank + 0.5) * SQUARE_SIZE


def draw_daimyo_view(view: Mapping[str, Any], *, remembered: bool = False, marks: Iterable[str] = (),
                     caption: str | None = None, bottom: int | None = None, panel: bool = True) -> str:
    """The SVG text of a Daimyo view: board, pieces, tiles, flags, captures and the result.

    ``remembered`` draws the faces of face-down tiles the seat saw earlier (faintly); ``marks``
    outlines squares by name (the last move, say); ``caption`` is a line under the title;
    ``bottom`` is the seat whose side is at the bottom (the view's seat by default). ``panel=False``
    draws the board alone, without the title and the panel beside it (captures, tiles, key): for a
    page that shows those itself (the key: ``draw_daimyo_key``).
    """
    side = view.get("seat", 0) if bottom is None else bottom
    if side not in (0, 1):
        raise ValueError(f"bottom must be seat 0 or 1, not {side!r}")
    files, ranks = board_size(view)
    panel_x = _LEFT + SQUARE_SIZE * files + 24.0
    if panel:
        left, top = 0.0, 0.0
        width, height = panel_x + _PANEL_W, max(_TOP + SQUARE_SIZE * ranks + 40.0, _TOP + _PANEL_H)
    else:  # the board, its rank numbers on the left and its file letters below
        left, top = 4.0, _TOP - 6.0
        width, height = panel_x - 18.0 - left, SQUARE_SIZE * ranks + 34.0
    out = Svg()
    out.open("svg", xmlns="http://www.w3.org/2000/svg", width=num(width), height=num(height),
             viewBox=f"{num(left)} {num(top)} {num(width)} {num(height)}",
             font_family="DejaVu Sans, Arial, sans-serif", data_game="daimyo", data_bottom=side, data_files=files,
             data_ranks=ranks)
    out.leaf("rect", x=num(left), y=num(top), width=num(width), height=num(height), fill=_PAPER)
    if panel:
        out.leaf("text", x=_LEFT, y=26, font_size=19, font_weight="bold", fill=_INK, text="Daimyo and Shinobi")
        out.leaf("text", x=_LEFT, y=48, font_size=14, fill=_INK, text=caption or _status(view))
    _draw_board(out, view, side, remembered, set(marks), files, ranks)
    if panel:
        _draw_panel(out, view, panel_x)
    out.close("svg")
    return out.text()


def draw_daimyo_key() -> str:
    """The key to the board's symbols as a small SVG picture: each piece and how it moves, a face-down tile, a
    tile flipped this turn, a flag (the end of the side panel)."""
    out = Svg()
    height = 26 * len(PIECE_MOVES) + 3 * 22 + 12
    out.open("svg", xmlns="http://www.w3.org/2000/svg", width=num(_PANEL_W + 40), height=num(height),
             viewBox=f"-4 -14 {num(_PANEL_W + 40)} {num(height)}", font_family="DejaVu Sans, Arial, sans-serif",
             class_="key")
    out.leaf("title", text="Key to the board")
    _draw_key(out, 0.0, -26.0)
    out.close("svg")
    return out.text()


# --- the board --------------------------------------------------------------------------------

def _draw_board(out: Svg, view: Mapping[str, Any], side: int, remembered: bool, marks: set[str], files: int,
                ranks: int) -> None:
    entries = {entry["square"]: entry for entry in view.get("board", ())}
    half = SQUARE_SIZE / 2
    board_w, board_h = SQUARE_SIZE * files, SQUARE_SIZE * ranks
    out.open("g", id="board")
    for rank in range(ranks):
        for file in range(files):
            name = f"{FILE_LETTERS[file]}{rank + 1}"
            x, y = square_centre(name, side, files, ranks)
            dark = (file + rank) % 2 == 0
            entry = entries.get(name, {"square": name})
            out.open("g", class_="square")
            out.leaf("rect", id=f"square-{name}", data_square=name, x=num(x - half), y=num(y - half),
                     width=num(SQUARE_SIZE), height=num(SQUARE_SIZE), fill=_DARK if dark else _LIGHT,
                     stroke="#9c8c6c", stroke_width=1)
            out.leaf("title", text=_square_title(entry, remembered))
            if "piece" in entry:
                piece = entry["piece"]
                if piece["kind"] == "daimyo" and piece["owner"] == view.get("seat") and view.get("threatened"):
                    out.leaf("circle", cx=num(x), cy=num(y), r=num(half - 3), fill="none", stroke=_FLAG,
                             stroke_width=3, class_="threatened")  # Kyousei: this Daimyo can be captured
                _draw_piece(out, piece["kind"], piece["owner"], x, y, SQUARE_SIZE * 0.36)
            elif "tile" in entry:
                _draw_tile(out, entry, x, y, remembered)
            if name in marks:
                out.leaf("rect", x=num(x - half + 3), y=num(y - half + 3), width=num(SQUARE_SIZE - 6),
                         height=num(SQUARE_SIZE - 6), fill="none", stroke=_MARK_EDGE, stroke_width=3,
                         stroke_dasharray="6 4", class_="mark")
            out.close("g")
    out.leaf("rect", x=_LEFT, y=_TOP, width=num(board_w), height=num(board_h), fill="none", stroke=_INK,
             stroke_width=2)
    for letter in FILE_LETTERS[:files]:
        x, _ = square_centre(letter + "1", side, files, ranks)
        out.leaf("text", x=num(x), y=num(_TOP + board_h + 18), font_size=13, text_anchor="middle", fill=_INK,
                 text=letter)
    for rank in range(1, ranks + 1):
        _, y = square_centre(f"a{rank}", side, files, ranks)
        out.leaf("text", x=num(_LEFT - 12), y=num(y + 5), font_size=13, text_anchor="middle", fill=_INK,
                 text=str(rank))
    out.close("g")


def _square_title(entry: Mapping[str, Any], remembered: bool) -> str:
    """The tooltip of a square: what lies there, in words (a face-down tile's face only if remembered)."""
    name = entry["square"]
    if "piece" in entry:
        piece = entry["piece"]
        return f"{name}: {SEAT_NAMES[piece['owner']]} {piece['kind']}"
    if "tile" not in entry:
        return f"{name}: empty"
    flag = ", flag (Nobori)" if entry.get("flag") else ""
    if entry["tile"] != "unknown":
        return f"{name}: {entry['tile']}, face up this turn{flag}"
    if remembered and "seen" in entry:
        return f"{name}: face-down tile, seen as {entry['seen']}{flag}"
    return f"{name}: face-down tile{flag}"


def _draw_piece(out: Svg, kind: str, owner: int, x: float, y: float, r: float) -> None:
    """White: a light disc with dark letters; Black: a dark rounded square with light letters."""
    letters = PIECE_LETTERS.get(kind, kind[:2].title())
    out.open("g", class_=f"piece {SEAT_NAMES[owner % 2].lower()}", data_piece=kind, data_owner=owner)
    if owner == 0:
        out.leaf("circle", cx=num(x), cy=num(y), r=num(r), fill=_PAPER, stroke=_INK, stroke_width=2.5)
        ink = _INK
    else:
        out.leaf("rect", x=num(x - r * 0.92), y=num(y - r * 0.92), width=num(r * 1.84), height=num(r * 1.84),
                 rx=num(r * 0.3), fill=_INK, stroke="#000000", stroke_width=1.5)
        ink = _PAPER
    size = r * (0.95 if len(letters) == 1 else 0.8)
    out.leaf("text", x=num(x), y=num(y + size * 0.36), font_size=num(size), font_weight="bold",
             text_anchor="middle", fill=ink, text=letters)
    if kind == "daimyo":  # a small crown mark: the piece to protect
        out.leaf("path", d=f"M{num(x - r * 0.45)},{num(y - r * 0.55)} l{num(r * 0.15)},{num(-r * 0.25)} "
                           f"l{num(r * 0.3)},{num(r * 0.15)} l{num(r * 0.3)},{num(-r * 0.15)} "
                           f"l{num(r * 0.15)},{num(r * 0.25)} z", fill=ink)
    out.close("g")


def _draw_tile(out: Svg, entry: Mapping[str, Any], x: float, y: float, remembered: bool) -> None:
    inset = SQUARE_SIZE * 0.08
    size = SQUARE_SIZE - 2 * inset
    left, top = x - size / 2, y - size / 2
    face = entry["tile"]
    if face != "unknown":  # face up in the turn being played: the face for everyone, outlined
        out.open("g", class_="tile face-up", data_face=face)
        out.leaf("rect", x=num(left), y=num(top), width=num(size), height=num(size), rx=6, fill="#fffaf0",
                 stroke=_TURN_EDGE, stroke_width=4)
        _draw_face(out, face, x, y, size, opacity=1.0)
    else:
        out.open("g", class_="tile face-down")
        out.leaf("rect", x=num(left), y=num(top), width=num(size), height=num(size), rx=6, fill=_TILE_BACK,
                 stroke=_TILE_EDGE, stroke_width=2)
        seen = entry.get("seen") if remembered else None
        if seen:
            out.leaf("rect", x=num(left + 4), y=num(top + 4), width=num(size - 8), height=num(size - 8), rx=4,
                     fill="#fffaf0", opacity=0.4)
            _draw_face(out, seen, x, y, size, opacity=0.5)
        else:
            out.leaf("text", x=num(x), y=num(y + 9), font_size=26, font_weight="bold", text_anchor="middle",
                     fill="#e9d8b4", text="?")
    if entry.get("flag"):
        _draw_flag(out, left + size - 16, top + 3)
    out.close("g")


def _draw_face(out: Svg, face: str, x: float, y: float, size: float, *, opacity: float) -> None:
    """A tile's face: an army tile's kamon (colour and word) and kind letters; Heiya; Ki."""
    out.open("g", opacity=num(opacity), class_="face")
    if face == "heiya":
        out.leaf("path", d=f"M{num(x - size * 0.38)},{num(y + 2)} q{num(size * 0.19)},{num(-8)} "
                           f"{num(size * 0.38)},0 t{num(size * 0.38)},0", fill="none", stroke="#6b8e23",
                 stroke_width=3)
        out.leaf("text", x=num(x), y=num(y + size * 0.32), font_size=11, text_anchor="middle", fill=_INK,
                 text="Heiya")
    elif face == "ki":
        out.leaf("path", d=f"M{num(x)},{num(y - size * 0.36)} l{num(size * 0.22)},{num(size * 0.42)} "
                           f"h{num(-size * 0.44)} z", fill="#1e5631")
        out.leaf("rect", x=num(x - 3), y=num(y + size * 0.06), width=6, height=7, fill="#5b3a1a")
        out.leaf("text", x=num(x), y=num(y + size * 0.36), font_size=12, font_weight="bold", text_anchor="middle",
                 fill=_INK, text="Ki")
    else:
        kind, _, kamon = face.partition("-")
        out.leaf("circle", cx=num(x), cy=num(y - size * 0.2), r=num(size * 0.17),
                 fill=KAMON_COLOURS.get(kamon, "#999999"), stroke=_INK, stroke_width=1.2)
        out.leaf("text", x=num(x), y=num(y + size * 0.16), font_size=15, font_weight="bold", text_anchor="middle",
                 fill=_INK, text=PIECE_LETTERS.get(kind, kind[:2]))
        out.leaf("text", x=num(x), y=num(y + size * 0.4), font_size=10, text_anchor="middle", fill=_INK,
                 text=kamon)
    out.close("g")


def _draw_flag(out: Svg, x: float, y: float) -> None:
    """A Nobori: a pennant on a pole, in the tile's top right corner."""
    out.open("g", class_="flag")
    out.leaf("line", x1=num(x + 2), y1=num(y), x2=num(x + 2), y2=num(y + 20), stroke=_INK, stroke_width=2)
    out.leaf("path", d=f"M{num(x + 3)},{num(y)} h12 l-4,5 l4,5 h-12 z", fill=_FLAG, stroke=_INK,
             stroke_width=0.8)
    out.close("g")


# --- the side panel ---------------------------------------------------------------------------

def _draw_panel(out: Svg, view: Mapping[str, Any], panel_x: float) -> None:
    out.open("g", id="panel")
    x, y = panel_x, _TOP + 12
    seat = view.get("seat")
    if seat in (0, 1):
        out.leaf("text", x=num(x), y=num(y), font_size=13, fill=_INK, text=f"Seen by {SEAT_NAMES[seat]}")
        y += 24
    captured = view.get("captured") or [[], []]
    for taker in (0, 1):
        out.leaf("text", x=num(x), y=num(y), font_size=13, font_weight="bold", fill=_INK,
                 text=f"{SEAT_NAMES[taker]} captured")
        y += 20
        kinds = list(captured[taker]) if taker < len(captured) else []
        if not kinds:
            out.leaf("text", x=num(x + 4), y=num(y + 4), font_size=12, fill="#555555", text="nothing")
        for index, kind in enumerate(kinds):
            _draw_piece(out, kind, 1 - taker, x + 14 + (index % 7) * 30, y + (index // 7) * 30, 12.0)
        y += 30 * max(1, (len(kinds) + 6) // 7) + 8
    tiles = view.get("tiles") or {}
    y += 4
    out.leaf("text", x=num(x), y=num(y), font_size=13, font_weight="bold", fill=_INK, text="Tiles")
    for label, key in (("face down", "face_down"), ("face up", "face_up"), ("Heiya removed", "heiya_removed"),
                       ("taken by Engun", "engun_tiles")):
        y += 18
        out.leaf("text", x=num(x + 4), y=num(y), font_size=12, fill=_INK, text=f"{label}: {tiles.get(key, 0)}")
    if "turns_without_progress" in view:
        y += 18
        out.leaf("text", x=num(x + 4), y=num(y), font_size=12, fill=_INK,
                 text=f"turns without progress: {view['turns_without_progress']}")
    y += 30
    out.leaf("text", x=num(x), y=num(y), font_size=13, font_weight="bold", fill=_INK, text="Pieces")
    _draw_key(out, x, y)
    out.close("g")


def _draw_key(out: Svg, x: float, y: float) -> None:
    """Each piece with how it moves, then the tiles' looks, from ``y`` (the line above the first piece) down."""
    for kind, moves in PIECE_MOVES.items():
        y += 26
        _draw_piece(out, kind, 0, x + 11, y - 4, 10.0)
        out.leaf("text", x=num(x + 28), y=num(y), font_size=11, fill=_INK, text=f"{kind}: {moves}")
    y += 24
    out.leaf("rect", x=num(x), y=num(y - 12), width=16, height=16, rx=3, fill=_TILE_BACK, stroke=_TILE_EDGE)
    out.leaf("text", x=num(x + 24), y=num(y), font_size=11, fill=_INK, text="face-down tile (unknown)")
    y += 22
    out.leaf("rect", x=num(x), y=num(y - 12), width=16, height=16, rx=3, fill="#fffaf0", stroke=_TURN_EDGE,
             stroke_width=3)
    out.leaf("text", x=num(x + 24), y=num(y), font_size=11, fill=_INK, text="flipped this turn")
    y += 22
    _draw_flag(out, x - 2, y - 14)
    out.leaf("text", x=num(x + 24), y=num(y), font_size=11, fill=_INK, text="Nobori: may not be flipped")


def _status(view: Mapping[str, Any]) -> str:
    """One line: whose turn, Kyousei, or how the game ended."""
    result = view.get("result")
    if result:
        winners = list(result.get("winners", ()))
        reason = str(result.get("reason"))
        if len(winners) == 1 and winners[0] in (0, 1):
            loss = _LOSSES.get(reason, reason).format(loser=SEAT_NAMES[1 - winners[0]])
            return f"{SEAT_NAMES[winners[0]]} wins: {loss}"
        return f"Draw: {_DRAWS.get(reason, reason)}"
    current = view.get("current_player")
    line = f"Turn {view.get('turn')} · {SEAT_NAMES[current] if current in (0, 1) else '?'} to play"
    if view.get("threatened") and current == view.get("seat"):
        line += " · Kyousei: the Daimyo is threatened"
    return line

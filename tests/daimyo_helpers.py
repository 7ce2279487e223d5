"""Hand-made Daimyo positions for the tests, from a little diagram of the board.

A diagram is seven rows, rank 7 at the top and rank 1 at the bottom (White's
side), six tokens a row for files a-f, separated by spaces:

- ``..`` an empty square;
- a piece: ``w`` (White) or ``b`` (Black), then ``D`` Daimyo, ``S`` Shinobi,
  ``A`` Ashigaru, ``K`` Kihei, ``N`` Kibatai (it leaps like a chess knight);
- a face-down tile: ``he`` Heiya, ``ki`` Ki, or an army tile as the piece
  letter and the kamon (``r`` red, ``y`` yellow, ``g`` green, ``b`` blue),
  e.g. ``Nr`` is the red Kibatai tile, ``Ab`` the blue Ashigaru tile.

The tiles of the set that are not on the board count as gone (removed Heiya,
Engun pairs), so tiles are conserved and ``determinize`` works on the position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from samurai_plugins import daimyo as d

PIECE_LETTERS = {"D": d.DAIMYO, "S": d.SHINOBI, "A": d.ASHIGARU, "K": d.KIHEI, "N": d.KIBATAI}
KAMON_LETTERS = {"r": 0, "y": 1, "g": 2, "b": 3}
ARMY_INDEX = {d.KIBATAI: 0, d.ASHIGARU: 1, d.KIHEI: 2}


def tile_face(token: str) -> int:
    """The face number of a tile token (``"he"``, ``"ki"``, ``"Nr"`` ...)."""
    if token == "he":
        return d.HEIYA
    if token == "ki":
        return d.KI
    kind = PIECE_LETTERS[token[0]]
    return ARMY_INDEX[kind] * 4 + KAMON_LETTERS[token[1]]


def position(diagram: str, *, to_act: int = d.WHITE, **options: Any) -> d.DaimyoState:
    """The position the diagram shows, ``to_act`` to play at the start of a turn, with ``options``."""
    rows = [line.split() for line in diagram.strip().splitlines()]
    if len(rows) != d.RANKS or any(len(row) != d.FILES for row in rows):
        raise ValueError(f"a diagram is {d.RANKS} rows of {d.FILES} tokens")
    resolved: Mapping[str, Any] = {**d.DEFAULT_OPTIONS, **options}
    state = d.DaimyoState(resolved)
    for row_index, row in enumerate(rows):
        rank = d.RANKS - 1 - row_index
        for file, token in enumerate(row):
            sq = rank * d.FILES + file
            if token == "..":
                continue
            if token[0] in "wb" and token[1] in PIECE_LETTERS:
                state.piece[sq] = (d.WHITE if token[0] == "w" else d.BLACK) * 5 + PIECE_LETTERS[token[1]]
            else:
                state.tile[sq] = tile_face(token)
    on_board = Counter(face for face in state.tile if face != d.EMPTY)
    if on_board - Counter(d.TILE_SET):
        raise ValueError(f"the diagram holds more of a tile than the set has: {on_board - Counter(d.TILE_SET)}")
    gone = Counter(d.TILE_SET) - on_board
    state.gone = sorted(gone.elements())
    state.current = to_act
    return state


def sq(name: str) -> int:
    """A square number from its name."""
    return d.square_of(name)


def flip(state: d.DaimyoState, *names: str) -> None:
    """Flip the tiles on these squares in order, each a legal action."""
    for name in names:
        action = (d.FLIP, sq(name))
        assert state.check(action) is None, state.check(action)
        state.apply(action)


def move(state: d.DaimyoState, frm: str, to: str) -> None:
    """Move the piece on ``frm`` to ``to``, a legal action."""
    action = (d.MOVE, sq(frm), sq(to))
    assert state.check(action) is None, state.check(action)
    state.apply(action)


def piece_at(state: d.DaimyoState, name: str) -> tuple[int, str] | None:
    """``(owner, kind name)`` of the piece on the square, or None."""
    code = state.piece[sq(name)]
    if code == d.EMPTY:
        return None
    owner, kind = divmod(code, 5)
    return owner, d.PIECES[kind]


def targets(state: d.DaimyoState, frm: str) -> set[str]:
    """The squares the piece on ``frm`` may legally move to now."""
    return {d.square_name(a[2]) for a in state.legal_actions() if a[0] == d.MOVE and a[1] == sq(frm)}


def snapshot(state: d.DaimyoState) -> tuple[Any, ...]:
    """Everything a position holds, as a value to compare."""
    return tuple(repr(getattr(state, name)) for name in d.DaimyoState.__slots__)

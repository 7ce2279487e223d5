"""Daimyo and Shinobi as numbers for learning libraries: its encoding (``samurai.interop.encoding.GameEncoding``),
which ``GAME.faces.interop`` supplies to ``samurai.interop`` (needs ``numpy``, in the ``rl`` and ``openspiel`` extras).

Actions are numbered once for a board of ``S`` squares: ``(FLIP, square)`` is ``square`` and ``(MOVE, from, to)``
is ``S + from * S + to``, so there are ``S + S * S`` numbers, the same in every position. A seat's observation is
one flat vector built from its view (``DaimyoState.view``) and nothing else: a face-down tile nobody has seen is
``unknown`` to both seats, so two positions that differ only in such tiles give the same observations.

Every action is seen by both seats (a flip shows its tile to the table), so what a seat saw of an action is the
action itself; a seat holds no secret of its own, so its view is what it knows beyond the actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from samurai.catalog.editions import Edition
from samurai.interop.encoding import public_view_string
from samurai_plugins.daimyo.rules import DEFAULT_OPTIONS, FACES, FLIP, MOVE, PIECES, square_name

__all__ = ["DaimyoEncoding", "encoding", "PER_SQUARE", "GLOBALS"]

_PIECE_SLOTS = 2 * len(PIECES)
"""Per square: the piece's owner (the viewer first) times its kind, one-hot."""
PER_SQUARE = _PIECE_SLOTS + 1 + 2 * len(FACES) + 1
"""Per square: the piece (one-hot by owner and kind); a face-down tile; the face of a tile up now (one-hot); the
face the table saw when it was last up (one-hot); its Nobori flag."""
GLOBALS = 2 + 1 + 2 * len(PIECES) + 4 + 3
"""After the squares: the seat to act (the viewer first), whether the viewer's Daimyo is threatened, each seat's
captures by kind (/4), the tiles face down, face up, Heiya removed and Engun tiles (/squares, /2), the turns without
progress (/ the limit), the turn (/100) and whether the game is over."""


class DaimyoEncoding:
    """Daimyo and Shinobi on one board as numbers (``samurai.interop.encoding.GameEncoding``)."""

    def __init__(self, files: int, ranks: int, no_progress_limit: int) -> None:
        self.files = files
        self.ranks = ranks
        self.squares = files * ranks
        self.no_progress_limit = no_progress_limit

    @property
    def num_distinct_actions(self) -> int:
        """A flip per square and a move per pair of squares."""
        return self.squares + self.squares * self.squares

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """One flat vector: ``PER_SQUARE`` per square, then ``GLOBALS``."""
        return (self.squares * PER_SQUARE + GLOBALS,)

    @property
    def max_game_length(self) -> int:
        """A bound no game reaches: a turn flips at most every tile; a run of turns without progress is at most the
        limit long, and progress (a tile removed, a piece gained or captured) can happen only so often."""
        progress_events = 2 * self.squares + 5
        return progress_events * (self.no_progress_limit + 1) * (self.squares + 2)

    def index(self, action: tuple[int, ...]) -> int:
        """``square`` for a flip, ``S + from * S + to`` for a move; ``ValueError`` for anything else."""
        squares = self.squares
        if isinstance(action, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in action) \
                and all(0 <= v < squares for v in action[1:]):
            if len(action) == 2 and action[0] == FLIP:
                return action[1]
            if len(action) == 3 and action[0] == MOVE:
                return squares + action[1] * squares + action[2]
        raise ValueError(f"{action!r} is neither a flip (0, square) nor a move (1, from, to) with squares "
                         f"0..{squares - 1}")

    def action(self, index: int) -> tuple[int, ...]:
        """The action numbered ``index``; ``ValueError`` outside the numbers."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.num_distinct_actions:
            raise ValueError(f"action numbers are 0..{self.num_distinct_actions - 1}, not {index!r}")
        if index < self.squares:
            return FLIP, index
        start, end = divmod(index - self.squares, self.squares)
        return MOVE, start, end

    def observation(self, view: Mapping[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The view as one flat vector (see ``PER_SQUARE`` and ``GLOBALS``); seats counted from the viewer."""
        me = view["seat"]
        out = np.zeros(self.observation_shape, dtype=np.float32)
        for square, entry in enumerate(view["board"]):
            base = square * PER_SQUARE
            piece = entry.get("piece")
            if piece is not None:
                out[base + ((piece["owner"] - me) % 2) * len(PIECES) + PIECES.index(piece["kind"])] = 1.0
            tile = entry.get("tile")
            if tile == "unknown":
                out[base + _PIECE_SLOTS] = 1.0
            elif tile is not None:
                out[base + _PIECE_SLOTS + 1 + FACES.index(tile)] = 1.0
            if "seen" in entry:
                out[base + _PIECE_SLOTS + 1 + len(FACES) + FACES.index(entry["seen"])] = 1.0
            if entry.get("flag"):
                out[base + PER_SQUARE - 1] = 1.0
        at = self.squares * PER_SQUARE
        if view["current_player"] is not None:
            out[at + (view["current_player"] - me) % 2] = 1.0
        out[at + 2] = float(view["threatened"])
        at += 3
        for relative in range(2):
            for kind in view["captured"][(me + relative) % 2]:
                out[at + relative * len(PIECES) + PIECES.index(kind)] += 0.25
        at += 2 * len(PIECES)
        tiles = view["tiles"]
        out[at] = tiles["face_down"] / self.squares
        out[at + 1] = tiles["face_up"] / 2.0
        out[at + 2] = tiles["heiya_removed"] / self.squares
        out[at + 3] = tiles["engun_tiles"] / self.squares
        out[at + 4] = view["turns_without_progress"] / self.no_progress_limit
        out[at + 5] = view["turn"] / 100.0
        out[at + 6] = float(view["result"] is not None)
        return out

    def seen(self, actor: int, action: tuple[int, ...], seat: int) -> str:
        """The action itself: every flip and move is seen by both seats."""
        return str(list(action))

    def private_string(self, view: Mapping[str, Any]) -> str:
        """The whole view as sorted JSON: a seat holds no secret of its own, the view is what both know."""
        return public_view_string(view)

    def action_string(self, action: tuple[int, ...]) -> str:
        """``flip c4`` or ``move b1-b2``."""
        if action[0] == FLIP:
            return f"flip {square_name(action[1], self.files)}"
        return f"move {square_name(action[1], self.files)}-{square_name(action[2], self.files)}"


def encoding(edition: Edition, players: int, options: Mapping[str, Any] | None = None) -> DaimyoEncoding:
    """The encoding of ``edition``'s board and rulings (``GAME.faces.interop``); the players are always two
    (checked when the game starts)."""
    rulings = {**DEFAULT_OPTIONS, **edition.manifest.resolve_options(options)}
    return DaimyoEncoding(edition.board.files, edition.board.ranks, int(rulings["no_progress_limit"]))

"""The rules of Daimyo and Shinobi: positions, what a seat knows, new games, what an action caused.

Not Knizia's game: a two-player battlefield of face-down tiles, a memory
element and chess-like moves. Rules: docs/rules/daimyo.md; every ruling there
(docs/rules/daimyo.md#rulings) is an option below (``DEFAULT_OPTIONS``) or a
property of the board file (``Battlefield``), so a variant can overrule it.

The board is a board file's files by ranks, 6 (a-f) by 7 (1-7) by default;
square ``rank * files + file`` (``a1`` is 0, White's side is rank 1). White
is seat 0 and starts.

Actions are tuples of small ints, like every game's on the protocol:

- ``(FLIP, square)``: turn a face-down tile up. A turn of flipping is a run of
  these by one seat: a Heiya is removed and the seat flips again, until two
  tiles that are not Heiya are up; then the pair resolves (Engun, or both go
  back face down) and the turn ends.
- ``(MOVE, from, to)``: move a piece, capturing an opponent's piece on ``to``.

Everything flipped is seen by both seats, so the only hidden information is
the identity of face-down tiles nobody has seen yet, hidden from both.

Where the rules are silent, this module chose (docs/rules/daimyo.md#ruling-yonhon-no-ki-run,
docs/rules/daimyo.md#ruling-nobori-one-tile, docs/rules/daimyo.md#ruling-end-order):

- Yonhon no ki counts a seat's turns that ended with two Ki face up; any other
  turn of that seat (a move, a pair that is not two Ki, Engun, Shinobi wo
  tsukau, a turn cut short by the tiles running out) breaks the run.
- Nobori after a turn cut short with one tile up: the one flag goes on it (with
  ``tiles_run_out = "then_move"``, when the move ends that turn).
- With ``shinobi_turn = "goes_on"`` the pair the turn then ends with decides
  Engun and Yonhon no ki, as in any turn of flipping.
- A move that captures the opponent's Daimyo is always legal, even from a
  position where it would leave one's own Daimyo open: the game is over.
- The order of the end checks when a turn ends (``END_CHECK_ORDER``): a
  captured Daimyo and Yonhon no ki end the game at once, within the turn;
  then, the next seat to play being known, Haisen (it has no turn and its
  Daimyo can be captured), then stalemate (no turn, the Daimyo safe), and
  only then the no-progress draw. A mating move on the turn that reaches the
  no-progress limit therefore wins by Haisen: the limit is there to end games
  that go nowhere, and a game decided on the board went somewhere.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from samurai.errors import DataError, IllegalAction

if TYPE_CHECKING:
    from samurai.protocol import Bot, GameState

__all__ = ["FLIP", "MOVE", "DaimyoState", "DaimyoKnowledge", "new_state", "DEFAULT_OPTIONS", "FILES", "RANKS",
           "PIECES", "FACES", "square_name", "square_of", "Battlefield", "tell", "END_WORDS", "END_CHECK_ORDER",
           "DEFAULT_BOARD", "FILE_LETTERS", "BOARD_SIZES", "START_KEYS", "check_options"]

FLIP, MOVE = 0, 1
FILES, RANKS = 6, 7
"""The size of the default board (``maps/battlefield.toml``); a board file may give another."""
SQUARES = FILES * RANKS
FILE_LETTERS = "abcdefghijkl"
"""Files are named by letter, ``a`` first, so a board has at most this many files."""
BOARD_SIZES = range(4, len(FILE_LETTERS) + 1)
"""The files and the ranks a board file may have (4 to 12 each)."""
WHITE, BLACK = 0, 1
EMPTY = -1

DAIMYO, SHINOBI, ASHIGARU, KIHEI, KIBATAI = range(5)
PIECES = ("daimyo", "shinobi", "ashigaru", "kihei", "kibatai")
"""Piece kinds by number."""

KAMON = ("red", "yellow", "green", "blue")
ARMY_KINDS = (KIBATAI, ASHIGARU, KIHEI)
"""The pieces army tiles show (docs/rules/daimyo.md#army-tiles)."""
# Tile faces: army tiles 0..11 (kind index * 4 + kamon), then the two landscapes.
HEIYA, KI = 12, 13
FACES = tuple(f"{PIECES[kind]}-{kamon}" for kind in ARMY_KINDS for kamon in KAMON) + ("heiya", "ki")
"""Tile faces by number: ``kibatai-red`` ... ``kihei-blue``, ``heiya``, ``ki``."""


def tile_set(kamon: int = 4, heiya: int = 8, ki: int = 6) -> tuple[int, ...]:
    """The tiles of a set: each army tile of the first ``kamon`` kamon twice, then ``heiya`` Heiya and ``ki`` Ki."""
    army = tuple(kind * 4 + colour for kind in range(len(ARMY_KINDS)) for colour in range(kamon) for _ in range(2))
    return army + (HEIYA,) * heiya + (KI,) * ki


TILE_SET = tile_set()
"""The 38 tiles: each army tile twice, 8 Heiya, 6 Ki (docs/rules/daimyo.md#components)."""

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "shinobi_wo_tsukau": False,   # variant: two Heiya first in a turn gain a Shinobi
    "nobori": False,              # variant: flags on the two tiles turned back
    "no_progress_limit": 100,     # ruling: this many turns without removal, gain or capture is a draw
    "stalemate": "draw",          # ruling: no legal turn and the Daimyo safe ("draw", or "loss" for the stuck seat)
    "tiles_run_out": "turn_ends",   # ruling: face-down tiles run out mid-flip ("turn_ends", or "then_move")
    "self_check": "forbidden",      # ruling: a move leaving one's own Daimyo open ("forbidden", or "allowed")
    "shinobi_turn": "ends",         # ruling: after Shinobi wo tsukau ("ends", or "goes_on" flipping)
    "white_daimyo": "b1", "white_shinobi": "e1",   # ruling (start)
    "black_daimyo": "b7", "black_shinobi": "e7",
}
"""The rulings of docs/rules/daimyo.md#rulings and the two optional rules, as options a variant can change."""

OPTION_CHOICES: Mapping[str, tuple[str, ...]] = {
    "stalemate": ("draw", "loss"),
    "tiles_run_out": ("turn_ends", "then_move"),
    "self_check": ("forbidden", "allowed"),
    "shinobi_turn": ("ends", "goes_on"),
}
"""The values each ruling given in words may take, the current ruling first."""

END_CHECK_ORDER = ("daimyo_captured", "yonhon_no_ki", "haisen", "stalemate", "no_progress")
"""The order in which a turn's end is decided: the first two end the game within the turn that causes them; the
last three are checked in this order when a turn ends (so Haisen and stalemate come before the no-progress draw)."""

_MATERIAL = (0.0, 5.0, 3.0, 3.0, 2.5)
"""What each kind of piece is worth to ``DaimyoState.evaluate`` (the Daimyo itself is the game, not material)."""

_KING = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_ORTHOGONAL = _KING[:4]
_DIAGONAL = _KING[4:]
_KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
_SLIDES = {SHINOBI: _KING, ASHIGARU: _ORTHOGONAL, KIHEI: _DIAGONAL}


def square_name(square: int, files: int = FILES) -> str:
    """``0`` as ``"a1"`` on a board of ``files`` files."""
    rank, file = divmod(square, files)
    return f"{FILE_LETTERS[file]}{rank + 1}"


def square_of(name: str, files: int = FILES, ranks: int = RANKS) -> int:
    """``"a1"`` as ``0`` on a board of ``files`` by ``ranks``; ``ValueError`` for a square not on the board."""
    letters = FILE_LETTERS[:files]
    if (not isinstance(name, str) or len(name) < 2 or name[0] not in letters or not name[1:].isdigit()
            or name[1] == "0" or not 1 <= int(name[1:]) <= ranks):
        raise ValueError(f"a square is a file {letters[0]}-{letters[-1]} and a rank 1-{ranks}, like 'b1', "
                         f"not {repr(name)[:40]}")
    return (int(name[1:]) - 1) * files + letters.index(name[0])


def _step(square: int, df: int, dr: int, files: int, ranks: int) -> int:
    rank, file = divmod(square, files)
    file, rank = file + df, rank + dr
    return rank * files + file if 0 <= file < files and 0 <= rank < ranks else EMPTY


class DaimyoState:
    """A position of Daimyo and Shinobi (it implements ``samurai.protocol.GameState``)."""

    __slots__ = ("options", "board", "piece", "tile", "known", "shown", "turn_faces", "flags", "current", "turn",
                 "moves", "ki_turns", "quiet", "gone", "captured", "gained", "winners", "reason", "log", "pending_back")

    def __init__(self, options: Mapping[str, Any], board: Battlefield | None = None) -> None:
        self.options = options
        self.board = DEFAULT_BOARD if board is None else board
        """The board file played on: its size and its tile set."""
        squares = self.board.files * self.board.ranks
        self.piece = [EMPTY] * squares
        """Per square: ``owner * 5 + kind`` of the piece on it, or -1."""
        self.tile = [EMPTY] * squares
        """Per square: the face of the tile on it (the truth, face down or up), or -1."""
        self.known = [EMPTY] * squares
        """Per square: the face of its tile as both seats saw it flipped, or -1 for never seen (public)."""
        self.shown: list[int] = []
        """Squares whose tiles are face up in the turn being played (at most two)."""
        self.turn_faces: list[int] = []
        """The faces flipped so far this turn, in order (for the Shinobi wo tsukau variant)."""
        self.flags: tuple[int, ...] = ()
        self.current = WHITE
        self.turn = 1
        self.moves = 0
        self.ki_turns = [False, False]
        """Per seat: its last turn flipped two Ki (Yonhon no ki)."""
        self.quiet = 0
        """Turns in a row with no tile removed, no piece gained and no capture."""
        self.gone: list[int] = []
        """Faces of the tiles that left the board (Heiya removed, Engun pairs)."""
        self.captured: list[list[int]] = [[], []]
        """Per seat, the kinds of the opponent's pieces it captured."""
        self.gained = [0, 0]
        self.winners: tuple[int, ...] | None = None
        self.reason: str | None = None
        self.log: list[dict[str, Any]] = []
        """Everything that happened, in view of both seats (flips included)."""
        self.pending_back: tuple[int, ...] | None = None
        """With ``tiles_run_out = "then_move"``: the squares turned back when the tiles ran out mid-flip, while
        the seat goes on with a move; None otherwise."""

    @property
    def squares(self) -> int:
        """How many squares the board has."""
        return self.board.files * self.board.ranks

    def square_name(self, square: int) -> str:
        """A square's name on this board (``0`` is ``"a1"``)."""
        return square_name(square, self.board.files)

    def square_of(self, name: str) -> int:
        """A square's number on this board; ``ValueError`` for a name not on it."""
        return square_of(name, self.board.files, self.board.ranks)

    # --- the protocol -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Always two."""
        return 2

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if self.winners is not None else self.current

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.winners is not None

    @property
    def move_number(self) -> int:
        """How many actions have been applied."""
        return self.moves

    def legal_actions(self) -> list[tuple[int, ...]]:
        """Every legal action of the seat to act, sorted."""
        if self.winners is not None:
            return []
        if self.pending_back is not None:  # the tiles ran out mid-flip: the turn goes on with a move
            return sorted(self._legal_moves(self.current))
        flips: list[tuple[int, ...]] = [(FLIP, sq) for sq in self._flippable()]
        if self.shown or self.turn_faces:  # a turn of flipping goes on: flip again
            return flips
        moves = self._legal_moves(self.current)
        if self._daimyo_threatened(self.current):
            return sorted(moves)  # Kyousei: flipping is not allowed while the Daimyo can be captured
        return sorted(moves + flips)

    def check(self, action: tuple[int, ...]) -> str | None:
        """Why ``action`` is illegal now, in words, or None when it is legal. Changes nothing."""
        if self.winners is not None:
            return "the game is over"
        if not isinstance(action, tuple) or not action or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in action):
            return f"an action is a tuple of whole numbers, like (0, 12) or (1, 1, 7), not {action!r}"
        if action in self.legal_actions():
            return None
        return self._why_illegal(action)

    def _why_illegal(self, action: tuple[int, ...]) -> str:
        """The reason a well-formed ``action`` is not among the legal actions."""
        kind, *squares = action
        if kind not in (FLIP, MOVE) or len(squares) != (1 if kind == FLIP else 2):
            return f"{action!r} is neither a flip (0, square) nor a move (1, from, to)"
        if not all(0 <= sq < self.squares for sq in squares):
            return f"{action!r} names a square off the board (squares are 0..{self.squares - 1})"
        name = self.square_name
        flipping_on = self.pending_back is None and bool(self.shown or self.turn_faces)
        if kind == MOVE:
            frm, to = squares
            if flipping_on:
                return "a turn of flipping goes on: flip another tile"
            if self.piece[frm] == EMPTY or self.piece[frm] // 5 != self.current:
                return f"there is no piece of yours on {name(frm)}"
            if to not in self._targets(frm):
                return f"the {PIECES[self.piece[frm] % 5]} on {name(frm)} cannot move to {name(to)}"
            return (f"moving {name(frm)}-{name(to)} would leave your Daimyo open to capture"
                    if not self._daimyo_threatened(self.current)
                    else f"Kyousei: moving {name(frm)}-{name(to)} does not save your Daimyo")
        sq = squares[0]
        if self.pending_back is not None:
            return "the tiles ran out mid-flip: the turn goes on with a move, no more flipping"
        if not flipping_on and self._daimyo_threatened(self.current):
            return "Kyousei: your Daimyo can be captured, so you must move to save it (no flipping)"
        if self.tile[sq] == EMPTY:
            return f"there is no tile on {name(sq)} to flip"
        if sq in self.shown:
            return f"the tile on {name(sq)} is already face up"
        return f"the tile on {name(sq)} carries a flag (Nobori) and cannot be flipped"

    def apply(self, action: tuple[int, ...]) -> None:
        """Play a legal action (check it first)."""
        self.moves += 1
        if action[0] == FLIP:
            self._flip(action[1])
        else:
            self._move(action[1], action[2])

    def sample_action(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random legal action."""
        actions = self.legal_actions()
        return actions[int(rng.random() * len(actions))]

    def policy_action(self, rng: random.Random) -> tuple[int, ...]:
        """A quick player's action: the capture of the most valuable piece (a Daimyo above all), else a
        random legal action. Nothing hidden is read: the pieces on the board are face up."""
        actions = self.legal_actions()
        best_worth, best = 0.0, []
        for action in actions:
            if action[0] != MOVE:
                continue
            taken = self.piece[action[2]]
            if taken == EMPTY:
                continue
            worth = 100.0 if taken % 5 == DAIMYO else _MATERIAL[taken % 5]
            if worth > best_worth:
                best_worth, best = worth, [action]
            elif worth == best_worth:
                best.append(action)
        choices = best or actions
        return choices[int(rng.random() * len(choices))]

    def returns(self) -> tuple[float, ...]:
        """1 for the winner, 0 for the loser, 1/2 each for a draw; 0 while the game goes on."""
        if not self.winners:
            return (0.0, 0.0)
        share = 1.0 / len(self.winners)
        return tuple(share if seat in self.winners else 0.0 for seat in range(2))

    def evaluate(self) -> tuple[float, ...]:
        """``returns`` once over; before that a cheap estimate from the pieces each side has (a logistic of
        the material difference), for searches that cut playouts short."""
        if self.winners is not None:
            return self.returns()
        material = [0.0, 0.0]
        for code in self.piece:
            if code != EMPTY:
                material[code // 5] += _MATERIAL[code % 5]
        white = 1.0 / (1.0 + math.exp(-(material[WHITE] - material[BLACK]) / 4.0))
        return (white, 1.0 - white)

    def ask(self, bot: Bot) -> tuple[int, ...]:
        """The action ``bot`` picks for the seat to act, given that seat's knowledge only."""
        if self.winners is not None:
            raise ValueError("the game is over: no seat is to act")
        return bot.act(self.knowledge(self.current))

    def copy(self) -> DaimyoState:
        """An independent copy."""
        other = DaimyoState.__new__(DaimyoState)
        other.options = self.options
        other.board = self.board
        for name in ("piece", "tile", "known", "shown", "turn_faces", "ki_turns", "gone", "gained", "log"):
            setattr(other, name, getattr(self, name)[:])
        other.captured = [c[:] for c in self.captured]
        for name in ("flags", "current", "turn", "moves", "quiet", "winners", "reason", "pending_back"):
            setattr(other, name, getattr(self, name))
        return other

    def knowledge(self, seat: int) -> DaimyoKnowledge:
        """What ``seat`` knows: everything but the faces of tiles nobody has seen (the same for both seats)."""
        return DaimyoKnowledge(seat, self)

    def determinize(self, seat: int, rng: random.Random) -> DaimyoState:
        """A position agreeing with everything ``seat`` knows, unseen faces drawn from ``rng``."""
        return self.knowledge(seat).determinize(rng)

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, JSON-ready: the board as it lies, faces seen, and what happened."""
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        squares = []
        for sq in range(self.squares):
            entry: dict[str, Any] = {"square": self.square_name(sq)}
            if self.piece[sq] != EMPTY:
                owner, kind = divmod(self.piece[sq], 5)
                entry["piece"] = {"owner": owner, "kind": PIECES[kind]}
            elif self.tile[sq] != EMPTY:
                entry["tile"] = FACES[self.tile[sq]] if sq in self.shown else "unknown"
                if self.known[sq] != EMPTY:
                    entry["seen"] = FACES[self.known[sq]]
                if sq in self.flags:
                    entry["flag"] = True
            squares.append(entry)
        return {
            "game": "daimyo", "seat": seat, "players": 2, "current_player": self.to_act, "turn": self.turn,
            "size": {"files": self.board.files, "ranks": self.board.ranks},
            "board": squares,
            "threatened": self._daimyo_threatened(seat),
            "captured": [[PIECES[k] for k in kinds] for kinds in self.captured],
            "tiles": {"face_down": sum(1 for sq in range(self.squares)
                                       if self.tile[sq] != EMPTY and sq not in self.shown),
                      "face_up": len(self.shown), "heiya_removed": sum(1 for f in self.gone if f == HEIYA),
                      "engun_tiles": sum(1 for f in self.gone if f < HEIYA)},
            "turns_without_progress": self.quiet,
            "events": self.log[-12:],
            "result": None if self.winners is None else {"winners": list(self.winners), "reason": self.reason},
        }

    def describe(self, action: tuple[int, ...]) -> dict[str, Any]:
        """``{"action": "flip", "square": "c4"}`` or ``{"action": "move", "from": "b1", "to": "b2"}``.

        It describes any action of the right shape, legal now or not; anything else raises ``IllegalAction``.
        """
        shape = {FLIP: 2, MOVE: 3}.get(action[0]) if isinstance(action, tuple) and action else None
        if shape is None or len(action) != shape or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < self.squares for v in action[1:]):
            raise IllegalAction(f"{action!r} is neither a flip (0, square) nor a move (1, from, to) "
                                f"with squares 0..{self.squares - 1}")
        if action[0] == FLIP:
            return {"action": "flip", "square": self.square_name(action[1])}
        return {"action": "move", "from": self.square_name(action[1]), "to": self.square_name(action[2])}

    # --- flipping (docs/rules/daimyo.md#flip) -------------------------------------------------

    def _flippable(self) -> list[int]:
        return [sq for sq in range(self.squares)
                if self.tile[sq] != EMPTY and sq not in self.shown and sq not in self.flags]

    def _flip(self, sq: int) -> None:
        face = self.tile[sq]
        self.known[sq] = face
        self.turn_faces.append(face)
        self.log.append({"event": "flip", "seat": self.current, "square": self.square_name(sq), "tile": FACES[face]})
        if face == HEIYA:  # removed from the board; the seat flips another in its place
            self.tile[sq] = self.known[sq] = EMPTY
            self.gone.append(HEIYA)
            self.log.append({"event": "heiya_removed", "square": self.square_name(sq)})
            if self.options["shinobi_wo_tsukau"] and self.turn_faces == [HEIYA, HEIYA]:
                self._gain(SHINOBI, sq, "shinobi_wo_tsukau")
                if self.options["shinobi_turn"] == "ends":
                    self.ki_turns[self.current] = False  # not two Ki: Yonhon no ki needs two such turns in a row
                    self._end_turn(progress=True, turned_back=())
                    return
                # "goes_on": the Heiya was removed like any other, so the seat flips another in its place
        else:
            self.shown.append(sq)
            if len(self.shown) == 2:
                self._resolve_pair()
                return
        if not self._flippable():
            self._tiles_ran_out()

    def _tiles_ran_out(self) -> None:
        """Ruling: the face-down tiles ran out mid-flip. What is face up is turned back; the turn ends
        (``tiles_run_out = "turn_ends"``), or the seat goes on with a move if it has one (``"then_move"``)."""
        back = tuple(self.shown)
        self.shown = []
        if back:
            self.log.append({"event": "turned_back", "squares": [self.square_name(s) for s in back]})
        self.ki_turns[self.current] = False  # fewer than two tiles up, so not two Ki
        if self.options["tiles_run_out"] == "then_move" and self._legal_moves(self.current):
            self.pending_back = back
            return
        self._end_turn(progress=HEIYA in self.turn_faces, turned_back=back)

    def _resolve_pair(self) -> None:
        first, last = self.shown
        a, b = self.tile[first], self.tile[last]
        self.shown = []
        if a == b and a < HEIYA:  # Engun: the pair leaves, the seat gains the piece on the last square
            for sq in (first, last):
                self.tile[sq] = self.known[sq] = EMPTY
                self.gone.append(a)
            self._gain(ARMY_KINDS[a // 4], last, "engun")
            self.ki_turns[self.current] = False
            self._end_turn(progress=True, turned_back=())
            return
        self.log.append({"event": "turned_back", "squares": [self.square_name(first), self.square_name(last)]})
        if a == KI and b == KI:
            if self.ki_turns[self.current]:  # Yonhon no ki: two Ki on two turns in a row
                self._finish((1 - self.current,), "yonhon_no_ki")
                return
            self.ki_turns[self.current] = True
        else:
            self.ki_turns[self.current] = False
        self._end_turn(progress=HEIYA in self.turn_faces, turned_back=(first, last))

    def _gain(self, kind: int, sq: int, how: str) -> None:
        self.piece[sq] = self.current * 5 + kind
        self.gained[self.current] += 1
        self.log.append({"event": how, "seat": self.current, "square": self.square_name(sq), "piece": PIECES[kind]})

    # --- moving (docs/rules/daimyo.md#move) ---------------------------------------------------

    def _targets(self, sq: int) -> list[int]:
        """Squares the piece on ``sq`` may move to or capture on, ignoring the Daimyo's safety."""
        owner, kind = divmod(self.piece[sq], 5)
        files, ranks = self.board.files, self.board.ranks
        out = []
        if kind in (DAIMYO, KIBATAI):
            for df, dr in (_KING if kind == DAIMYO else _KNIGHT):
                to = _step(sq, df, dr, files, ranks)  # the Kibatai leaps: only where it lands matters
                if to != EMPTY and self.tile[to] == EMPTY and (self.piece[to] == EMPTY or
                                                               self.piece[to] // 5 != owner):
                    out.append(to)
            return out
        for df, dr in _SLIDES[kind]:
            to = _step(sq, df, dr, files, ranks)
            while to != EMPTY and self.tile[to] == EMPTY:
                if self.piece[to] != EMPTY:
                    if self.piece[to] // 5 != owner:
                        out.append(to)
                    break
                out.append(to)
                to = _step(to, df, dr, files, ranks)
        return out

    def _daimyo_square(self, seat: int) -> int:
        code = seat * 5 + DAIMYO
        return next((sq for sq in range(self.squares) if self.piece[sq] == code), EMPTY)

    def _daimyo_threatened(self, seat: int) -> bool:
        """Whether an opponent's piece could capture ``seat``'s Daimyo now."""
        target = self._daimyo_square(seat)
        if target == EMPTY:
            return False
        return any(target in self._targets(sq) for sq in range(self.squares)
                   if self.piece[sq] != EMPTY and self.piece[sq] // 5 != seat)

    def _legal_moves(self, seat: int) -> list[tuple[int, ...]]:
        """The seat's legal moves. Under Kyousei only those that end the threat; otherwise, with ``self_check =
        "forbidden"``, those that do not leave its own Daimyo open (capturing the other Daimyo always may), and
        with ``"allowed"`` every move."""
        enemy_daimyo = (1 - seat) * 5 + DAIMYO
        unchecked = self.options["self_check"] == "allowed" and not self._daimyo_threatened(seat)
        moves: list[tuple[int, ...]] = []
        for sq in range(self.squares):
            if self.piece[sq] == EMPTY or self.piece[sq] // 5 != seat:
                continue
            for to in self._targets(sq):
                if unchecked or self.piece[to] == enemy_daimyo:
                    moves.append((MOVE, sq, to))
                    continue
                moved, taken = self.piece[sq], self.piece[to]
                self.piece[to], self.piece[sq] = moved, EMPTY
                safe = not self._daimyo_threatened(seat)
                self.piece[sq], self.piece[to] = moved, taken
                if safe:
                    moves.append((MOVE, sq, to))
        return moves

    def _move(self, frm: int, to: int) -> None:
        taken = self.piece[to]
        self.piece[to], self.piece[frm] = self.piece[frm], EMPTY
        self.ki_turns[self.current] = False
        event: dict[str, Any] = {"event": "move", "seat": self.current, "from": self.square_name(frm),
                                 "to": self.square_name(to)}
        if taken != EMPTY:
            event["captured"] = PIECES[taken % 5]
            self.captured[self.current].append(taken % 5)
        self.log.append(event)
        if taken % 5 == DAIMYO and taken != EMPTY:
            self._finish((self.current,), "daimyo_captured")
            return
        back = self.pending_back or ()  # a move after the tiles ran out mid-flip ends that turn of flipping
        self._end_turn(progress=taken != EMPTY or HEIYA in self.turn_faces, turned_back=back)

    # --- the turn and the end (docs/rules/daimyo.md#end) ---------------------------------------

    def _end_turn(self, *, progress: bool, turned_back: tuple[int, ...]) -> None:
        """End the turn, then decide the end checks in the order of ``END_CHECK_ORDER``: Haisen, stalemate,
        and only then the no-progress draw."""
        if self.options["nobori"]:  # flags on the tiles turned back, off when none were
            self.flags = turned_back
        self.turn_faces = []
        self.pending_back = None
        self.quiet = 0 if progress else self.quiet + 1
        self.current = 1 - self.current
        self.turn += 1
        if not self.legal_actions():
            if self._daimyo_threatened(self.current):  # Haisen: forced, and nothing saves the Daimyo
                self._finish((1 - self.current,), "haisen")
            elif self.options["stalemate"] == "loss":
                self._finish((1 - self.current,), "stalemate")
            else:
                self._finish((0, 1), "stalemate")
        elif self.quiet >= self.options["no_progress_limit"]:
            # The draw ends the game on the turn just played: no turn of the next seat has begun.
            self.current, self.turn = 1 - self.current, self.turn - 1
            self._finish((0, 1), "no_progress")

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.winners, self.reason = winners, reason
        self.shown = []
        self.log.append({"event": "end", "winners": list(winners), "reason": reason})


class DaimyoKnowledge:
    """What a seat knows of a Daimyo position: all of it but the faces nobody has seen (a detached value)."""

    __slots__ = ("_seat", "_public", "_unseen")

    def __init__(self, seat: int, state: DaimyoState) -> None:
        self._seat = seat
        public = state.copy()
        # Faces nobody has seen are not part of what a seat knows: keep only that a tile lies there.
        public.tile = [EMPTY if face == EMPTY else (face if public.known[sq] != EMPTY or sq in public.shown else KI)
                       for sq, face in enumerate(public.tile)]
        self._unseen = [sq for sq in range(state.squares) if state.tile[sq] != EMPTY and state.known[sq] == EMPTY
                        and sq not in state.shown]
        self._public = public

    @property
    def seat(self) -> int:
        """The seat this knowledge belongs to."""
        return self._seat

    def sample_action(self, rng: random.Random) -> tuple[int, ...]:
        """A uniformly random legal action (the seat must be to act)."""
        return self._public.sample_action(rng)

    def legal_actions(self) -> list[tuple[int, ...]]:
        """The legal actions (they never depend on unseen faces)."""
        return self._public.legal_actions()

    def determinize(self, rng: random.Random) -> DaimyoState:
        """A position with every unseen face drawn from the tiles not yet seen."""
        st = self._public.copy()
        pool = list(st.board.tiles)
        for face in st.gone + [st.tile[sq] for sq in range(st.squares)
                               if st.tile[sq] != EMPTY and sq not in self._unseen]:
            pool.remove(face)
        rng.shuffle(pool)
        for sq, face in zip(self._unseen, pool, strict=True):
            st.tile[sq] = face
        return st


def new_state(seed: int, options: Mapping[str, Any] | None = None, board: Battlefield | None = None) -> DaimyoState:
    """A new game on ``board`` (the 6 x 7 battlefield by default): the four pieces on their squares, the
    board's tiles (38 on the default board) shuffled face down on the rest.

    Options the game does not know, or values it cannot use, raise ``DataError`` naming the option.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"the seed is a whole number, not {seed!r}")
    board = DEFAULT_BOARD if board is None else board
    resolved = {**DEFAULT_OPTIONS, **(options or {})}
    check_options(resolved, board)
    st = DaimyoState(resolved, board)
    for seat, side in ((WHITE, "white"), (BLACK, "black")):
        st.piece[st.square_of(resolved[f"{side}_daimyo"])] = seat * 5 + DAIMYO
        st.piece[st.square_of(resolved[f"{side}_shinobi"])] = seat * 5 + SHINOBI
    tiles = list(board.tiles)
    random.Random(seed).shuffle(tiles)
    free = [sq for sq in range(st.squares) if st.piece[sq] == EMPTY]
    for sq, face in zip(free, tiles, strict=True):
        st.tile[sq] = face
    return st


def check_options(options: Mapping[str, Any], board: Battlefield | None = None) -> None:
    """Refuse an option the game does not know or a value it cannot use, naming the option and the values
    it may take; start squares must lie on ``board`` (the default board if None)."""
    board = DEFAULT_BOARD if board is None else board
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise DataError(f"unknown option; options are {', '.join(DEFAULT_OPTIONS)}", source="options",
                        key=unknown[0])
    for name in ("shinobi_wo_tsukau", "nobori"):
        if not isinstance(options[name], bool):
            raise DataError(f"must be true or false, not {options[name]!r}", source="options", key=name)
    limit = options["no_progress_limit"]
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise DataError(f"must be a whole number of turns >= 1, not {limit!r}", source="options",
                        key="no_progress_limit")
    for name, choices in OPTION_CHOICES.items():
        if options[name] not in choices:
            raise DataError(f"must be {' or '.join(map(repr, choices))}, not {options[name]!r}",
                            source="options", key=name)
    starts: dict[str, str] = {}
    for name in ("white_daimyo", "white_shinobi", "black_daimyo", "black_shinobi"):
        try:
            square = square_name(square_of(options[name], board.files, board.ranks), board.files)
        except ValueError as error:
            raise DataError(str(error), source="options", key=name) from None
        if square in starts:
            raise DataError(f"{square} is already the start of {starts[square]}", source="options", key=name)
        starts[square] = name



START_KEYS = ("white_daimyo", "white_shinobi", "black_daimyo", "black_shinobi")
"""The four options (and board file keys) that name a piece's start square."""


@attrs.frozen
class Battlefield:
    """A board file of this game (``maps/battlefield.toml``): its size, the four start squares and its tiles."""

    name: str
    source: str
    files: int
    ranks: int
    start: Mapping[str, str]
    """``white_daimyo`` ... ``black_shinobi``: the square each piece starts on."""
    tiles: tuple[int, ...] = TILE_SET
    """The tile set shuffled onto the squares that are not start squares (one tile a square)."""


DEFAULT_BOARD = Battlefield("Battlefield", "maps/battlefield.toml", FILES, RANKS,
                            {"white_daimyo": "b1", "white_shinobi": "e1", "black_daimyo": "b7", "black_shinobi": "e7"})
"""The board of docs/rules/daimyo.md#ruling-board and
docs/rules/daimyo.md#ruling-start, as ``maps/battlefield.toml`` gives it:
what ``new_state`` plays on when no board is given."""

END_WORDS = {"daimyo_captured": "a Daimyo was captured", "haisen": "Haisen: the Daimyo could not be saved",
             "yonhon_no_ki": "Yonhon no ki: two Ki flipped on two turns in a row",
             "no_progress": "no tile removed, piece gained or capture for too long: a draw",
             "stalemate": "no legal turn"}
"""The reasons a game ends, in words."""


def tell(before: GameState, action: tuple[int, ...], after: GameState) -> list[str]:
    """What ``action`` caused (the faces it turned up, removals, gains, captures, the end), in words; every
    seat sees all of it (flips are public events)."""
    if not isinstance(before, DaimyoState) or not isinstance(after, DaimyoState):
        raise TypeError("Daimyo tells what happened between two DaimyoState positions")
    lines = []
    for event in after.log[len(before.log):]:
        kind = event["event"]
        if kind == "flip":
            lines.append(f"It is {event['tile']}")
        elif kind == "move" and "captured" in event:
            lines.append(f"The {event['captured']} on {event['to']} is captured")
        elif kind == "end":
            lines.append(f"The game ends: {END_WORDS.get(event['reason'], event['reason'])}")
        elif kind == "heiya_removed":
            lines.append(f"The Heiya on {event['square']} is removed")
        elif kind == "turned_back":
            lines.append(f"Turned face down again: {', '.join(event['squares'])}")
        elif "piece" in event:  # Engun, or Shinobi wo tsukau: a piece gained
            lines.append(f"{kind.replace('_', ' ').capitalize()}: a {event['piece']} is gained on {event['square']}")
    return lines


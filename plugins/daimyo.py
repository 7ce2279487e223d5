"""Samurai: Daimyo and Shinobi (seed 004), a second game behind the same game protocol.

Not Knizia's game: a two-player battlefield of face-down tiles, a memory
element and chess-like moves. Rules: RULES-DAIMYO.md (and seed 004); every
ruling there is an option below, so a variant can overrule it.

The board is 6 files (a-f) by 7 ranks (1-7); square ``rank * 6 + file``
(``a1`` is 0, White's side is rank 1). White is seat 0 and starts.

Actions are tuples of small ints, like every game's on the protocol:

- ``(FLIP, square)``: turn a face-down tile up. A turn of flipping is a run of
  these by one seat: a Heiya is removed and the seat flips again, until two
  tiles that are not Heiya are up; then the pair resolves (Engun, or both go
  back face down) and the turn ends.
- ``(MOVE, from, to)``: move a piece, capturing an opponent's piece on ``to``.

Everything flipped is seen by both seats, so the only hidden information is
the identity of face-down tiles nobody has seen yet, hidden from both.

Where RULES-DAIMYO.md is silent, this module chose:

- Yonhon no ki counts a seat's turns that ended with two Ki face up; any other
  turn of that seat (a move, a pair that is not two Ki, Engun, Shinobi wo
  tsukau, a turn cut short by the tiles running out) breaks the run.
- Nobori after a turn cut short with one tile up: the one flag goes on it.
- A move that captures the opponent's Daimyo is always legal, even from a
  position where it would leave one's own Daimyo open: the game is over.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from samurai.errors import DataError, IllegalAction
from samurai.game import check_seed
from samurai.game_metrics import GameMetric
from samurai.games import GameDefinition, GameMeasures
from samurai.hookspecs import hookimpl
from samurai.tomlfile import check_keys, key_line, read_toml, require

if TYPE_CHECKING:
    from samurai.plugins import Edition
    from samurai.protocol import Bot, GameState

__all__ = ["FLIP", "MOVE", "DaimyoState", "DaimyoKnowledge", "new_state", "DEFAULT_OPTIONS", "FILES", "RANKS",
           "PIECES", "FACES", "square_name", "square_of", "Battlefield", "load_battlefield", "GAME", "samurai_games",
           "tell", "END_WORDS", "MEASURES", "DaimyoWatch", "GAME_METRICS"]

FLIP, MOVE = 0, 1
FILES, RANKS = 6, 7
SQUARES = FILES * RANKS
WHITE, BLACK = 0, 1
EMPTY = -1

DAIMYO, SHINOBI, ASHIGARU, KIHEI, KIBATAI = range(5)
PIECES = ("daimyo", "shinobi", "ashigaru", "kihei", "kibatai")
"""Piece kinds by number."""

KAMON = ("red", "yellow", "green", "blue")
ARMY_KINDS = (KIBATAI, ASHIGARU, KIHEI)
"""The pieces army tiles show (seed 004 "Army Tiles")."""
# Tile faces: army tiles 0..11 (kind index * 4 + kamon), then the two landscapes.
HEIYA, KI = 12, 13
FACES = tuple(f"{PIECES[kind]}-{kamon}" for kind in ARMY_KINDS for kamon in KAMON) + ("heiya", "ki")
"""Tile faces by number: ``kibatai-red`` ... ``kihei-blue``, ``heiya``, ``ki``."""
TILE_SET = tuple(face for face in range(12) for _ in range(2)) + (HEIYA,) * 8 + (KI,) * 6
"""The 38 tiles: each army tile twice, 8 Heiya, 6 Ki (RULES-DAIMYO.md "Components")."""

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "shinobi_wo_tsukau": False,   # variant: two Heiya first in a turn gain a Shinobi
    "nobori": False,              # variant: flags on the two tiles turned back
    "no_progress_limit": 100,     # ruling: this many turns without removal, gain or capture is a draw
    "stalemate": "draw",          # ruling: no legal turn and the Daimyo safe ("draw", or "loss" for the stuck seat)
    "white_daimyo": "b1", "white_shinobi": "e1",   # ruling (start)
    "black_daimyo": "b7", "black_shinobi": "e7",
}
"""The rulings of RULES-DAIMYO.md and the two optional rules, as options a variant can change."""

_MATERIAL = (0.0, 5.0, 3.0, 3.0, 2.5)
"""What each kind of piece is worth to ``DaimyoState.evaluate`` (the Daimyo itself is the game, not material)."""

_KING = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_ORTHOGONAL = _KING[:4]
_DIAGONAL = _KING[4:]
_KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
_SLIDES = {SHINOBI: _KING, ASHIGARU: _ORTHOGONAL, KIHEI: _DIAGONAL}


def square_name(square: int) -> str:
    """``0`` as ``"a1"``."""
    rank, file = divmod(square, FILES)
    return f"{'abcdef'[file]}{rank + 1}"


def square_of(name: str) -> int:
    """``"a1"`` as ``0``; ``ValueError`` for a square not on the board."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in "abcdef" or name[1] not in "1234567":
        raise ValueError(f"a square is a file a-f and a rank 1-7, like 'b1', not {name!r}")
    return (int(name[1]) - 1) * FILES + "abcdef".index(name[0])


def _step(square: int, df: int, dr: int) -> int:
    rank, file = divmod(square, FILES)
    file, rank = file + df, rank + dr
    return rank * FILES + file if 0 <= file < FILES and 0 <= rank < RANKS else EMPTY


class DaimyoState:
    """A position of Daimyo and Shinobi (it implements ``samurai.protocol.GameState``)."""

    __slots__ = ("options", "piece", "tile", "known", "shown", "turn_faces", "flags", "current", "turn", "moves",
                 "ki_turns", "quiet", "gone", "captured", "gained", "winners", "reason", "log")

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = options
        self.piece = [EMPTY] * SQUARES
        """Per square: ``owner * 5 + kind`` of the piece on it, or -1."""
        self.tile = [EMPTY] * SQUARES
        """Per square: the face of the tile on it (the truth, face down or up), or -1."""
        self.known = [EMPTY] * SQUARES
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
        if not all(0 <= sq < SQUARES for sq in squares):
            return f"{action!r} names a square off the board (squares are 0..{SQUARES - 1})"
        flipping_on = bool(self.shown or self.turn_faces)
        if kind == MOVE:
            frm, to = squares
            if flipping_on:
                return "a turn of flipping goes on: flip another tile"
            if self.piece[frm] == EMPTY or self.piece[frm] // 5 != self.current:
                return f"there is no piece of yours on {square_name(frm)}"
            if to not in self._targets(frm):
                return f"the {PIECES[self.piece[frm] % 5]} on {square_name(frm)} cannot move to {square_name(to)}"
            return (f"moving {square_name(frm)}-{square_name(to)} would leave your Daimyo open to capture"
                    if not self._daimyo_threatened(self.current)
                    else f"Kyousei: moving {square_name(frm)}-{square_name(to)} does not save your Daimyo")
        sq = squares[0]
        if not flipping_on and self._daimyo_threatened(self.current):
            return "Kyousei: your Daimyo can be captured, so you must move to save it (no flipping)"
        if self.tile[sq] == EMPTY:
            return f"there is no tile on {square_name(sq)} to flip"
        if sq in self.shown:
            return f"the tile on {square_name(sq)} is already face up"
        return f"the tile on {square_name(sq)} carries a flag (Nobori) and cannot be flipped"

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
        for name in ("piece", "tile", "known", "shown", "turn_faces", "ki_turns", "gone", "gained", "log"):
            setattr(other, name, getattr(self, name)[:])
        other.captured = [c[:] for c in self.captured]
        for name in ("flags", "current", "turn", "moves", "quiet", "winners", "reason"):
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
        for sq in range(SQUARES):
            entry: dict[str, Any] = {"square": square_name(sq)}
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
            "board": squares,
            "threatened": self._daimyo_threatened(seat),
            "captured": [[PIECES[k] for k in kinds] for kinds in self.captured],
            "tiles": {"face_down": sum(1 for sq in range(SQUARES) if self.tile[sq] != EMPTY and sq not in self.shown),
                      "face_up": len(self.shown), "removed": sum(1 for f in self.gone if f == HEIYA),
                      "gained": sum(1 for f in self.gone if f != HEIYA)},
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
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SQUARES for v in action[1:]):
            raise IllegalAction(f"{action!r} is neither a flip (0, square) nor a move (1, from, to) "
                                f"with squares 0..{SQUARES - 1}")
        if action[0] == FLIP:
            return {"action": "flip", "square": square_name(action[1])}
        return {"action": "move", "from": square_name(action[1]), "to": square_name(action[2])}

    # --- flipping (RULES-DAIMYO.md "A turn" 1) --------------------------------------------------

    def _flippable(self) -> list[int]:
        return [sq for sq in range(SQUARES)
                if self.tile[sq] != EMPTY and sq not in self.shown and sq not in self.flags]

    def _flip(self, sq: int) -> None:
        face = self.tile[sq]
        self.known[sq] = face
        self.turn_faces.append(face)
        self.log.append({"event": "flip", "seat": self.current, "square": square_name(sq), "tile": FACES[face]})
        if face == HEIYA:  # removed from the board; the seat flips another in its place
            self.tile[sq] = self.known[sq] = EMPTY
            self.gone.append(HEIYA)
            self.log.append({"event": "heiya_removed", "square": square_name(sq)})
            if self.options["shinobi_wo_tsukau"] and self.turn_faces == [HEIYA, HEIYA]:
                self._gain(SHINOBI, sq, "shinobi_wo_tsukau")
                self.ki_turns[self.current] = False  # not two Ki: Yonhon no ki needs two such turns in a row
                self._end_turn(progress=True, turned_back=())
                return
        else:
            self.shown.append(sq)
            if len(self.shown) == 2:
                self._resolve_pair()
                return
        if not self._flippable():  # ruling: face-down tiles ran out mid-flip: the turn ends with what was flipped
            back = tuple(self.shown)
            self.shown = []
            if back:
                self.log.append({"event": "turned_back", "squares": [square_name(s) for s in back]})
            self.ki_turns[self.current] = False  # fewer than two tiles up, so not two Ki
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
        self.log.append({"event": "turned_back", "squares": [square_name(first), square_name(last)]})
        if a == KI and b == KI:
            if self.ki_turns[self.current]:  # Yonhon no ki: two Ki on two turns in a row
                self._finish((1 - self.current,), "yonhon_no_ki")
                return
            self.ki_turns[self.current] = True
        else:
            self.ki_turns[self.current] = False
        removed_heiya = len(self.turn_faces) > 2
        self._end_turn(progress=removed_heiya, turned_back=(first, last))

    def _gain(self, kind: int, sq: int, how: str) -> None:
        self.piece[sq] = self.current * 5 + kind
        self.gained[self.current] += 1
        self.log.append({"event": how, "seat": self.current, "square": square_name(sq), "piece": PIECES[kind]})

    # --- moving (RULES-DAIMYO.md "A turn" 2) ----------------------------------------------------

    def _targets(self, sq: int) -> list[int]:
        """Squares the piece on ``sq`` may move to or capture on, ignoring the Daimyo's safety."""
        owner, kind = divmod(self.piece[sq], 5)
        out = []
        if kind in (DAIMYO, KIBATAI):
            for df, dr in (_KING if kind == DAIMYO else _KNIGHT):
                to = _step(sq, df, dr)  # the Kibatai leaps: only where it lands matters
                if to != EMPTY and self.tile[to] == EMPTY and (self.piece[to] == EMPTY or
                                                               self.piece[to] // 5 != owner):
                    out.append(to)
            return out
        for df, dr in _SLIDES[kind]:
            to = _step(sq, df, dr)
            while to != EMPTY and self.tile[to] == EMPTY:
                if self.piece[to] != EMPTY:
                    if self.piece[to] // 5 != owner:
                        out.append(to)
                    break
                out.append(to)
                to = _step(to, df, dr)
        return out

    def _daimyo_square(self, seat: int) -> int:
        code = seat * 5 + DAIMYO
        return next((sq for sq in range(SQUARES) if self.piece[sq] == code), EMPTY)

    def _daimyo_threatened(self, seat: int) -> bool:
        """Whether an opponent's piece could capture ``seat``'s Daimyo now."""
        target = self._daimyo_square(seat)
        if target == EMPTY:
            return False
        return any(target in self._targets(sq) for sq in range(SQUARES)
                   if self.piece[sq] != EMPTY and self.piece[sq] // 5 != seat)

    def _legal_moves(self, seat: int) -> list[tuple[int, ...]]:
        """Moves that do not leave the seat's own Daimyo open to capture (capturing the other Daimyo always may)."""
        enemy_daimyo = (1 - seat) * 5 + DAIMYO
        moves: list[tuple[int, ...]] = []
        for sq in range(SQUARES):
            if self.piece[sq] == EMPTY or self.piece[sq] // 5 != seat:
                continue
            for to in self._targets(sq):
                if self.piece[to] == enemy_daimyo:
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
        event: dict[str, Any] = {"event": "move", "seat": self.current, "from": square_name(frm), "to": square_name(to)}
        if taken != EMPTY:
            event["captured"] = PIECES[taken % 5]
            self.captured[self.current].append(taken % 5)
        self.log.append(event)
        if taken % 5 == DAIMYO and taken != EMPTY:
            self._finish((self.current,), "daimyo_captured")
            return
        self._end_turn(progress=taken != EMPTY, turned_back=())

    # --- the turn and the end (RULES-DAIMYO.md "End") -------------------------------------------

    def _end_turn(self, *, progress: bool, turned_back: tuple[int, ...]) -> None:
        if self.options["nobori"]:  # flags on the tiles turned back, off when none were
            self.flags = turned_back
        self.turn_faces = []
        self.quiet = 0 if progress else self.quiet + 1
        if self.quiet >= self.options["no_progress_limit"]:
            self._finish((0, 1), "no_progress")
            return
        self.current = 1 - self.current
        self.turn += 1
        if not self.legal_actions():
            if self._daimyo_threatened(self.current):  # Haisen: forced, and nothing saves the Daimyo
                self._finish((1 - self.current,), "haisen")
            elif self.options["stalemate"] == "loss":
                self._finish((1 - self.current,), "stalemate")
            else:
                self._finish((0, 1), "stalemate")

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
        self._unseen = [sq for sq in range(SQUARES) if state.tile[sq] != EMPTY and state.known[sq] == EMPTY
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
        pool = list(TILE_SET)
        for face in st.gone + [st.tile[sq] for sq in range(SQUARES)
                               if st.tile[sq] != EMPTY and sq not in self._unseen]:
            pool.remove(face)
        rng.shuffle(pool)
        for sq, face in zip(self._unseen, pool, strict=True):
            st.tile[sq] = face
        return st


def new_state(seed: int, options: Mapping[str, Any] | None = None) -> DaimyoState:
    """A new game: the four pieces on their squares, the 38 tiles shuffled face down on the rest.

    Options the game does not know, or values it cannot use, raise ``DataError`` naming the option.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"the seed is a whole number, not {seed!r}")
    resolved = {**DEFAULT_OPTIONS, **(options or {})}
    _check_options(resolved)
    st = DaimyoState(resolved)
    for seat, side in ((WHITE, "white"), (BLACK, "black")):
        st.piece[square_of(resolved[f"{side}_daimyo"])] = seat * 5 + DAIMYO
        st.piece[square_of(resolved[f"{side}_shinobi"])] = seat * 5 + SHINOBI
    tiles = list(TILE_SET)
    random.Random(seed).shuffle(tiles)
    free = [sq for sq in range(SQUARES) if st.piece[sq] == EMPTY]
    for sq, face in zip(free, tiles, strict=True):
        st.tile[sq] = face
    return st


def _check_options(options: Mapping[str, Any]) -> None:
    """Refuse an option the game does not know or a value it cannot use, naming the option."""
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
    if options["stalemate"] not in ("draw", "loss"):
        raise DataError(f"must be 'draw' or 'loss', not {options['stalemate']!r}", source="options", key="stalemate")
    starts: dict[str, str] = {}
    for name in ("white_daimyo", "white_shinobi", "black_daimyo", "black_shinobi"):
        try:
            square = square_name(square_of(options[name]))
        except ValueError as error:
            raise DataError(str(error), source="options", key=name) from None
        if square in starts:
            raise DataError(f"{square} is already the start of {starts[square]}", source="options", key=name)
        starts[square] = name


# --- the game on the framework (samurai.games): board file, editions, drawing ---------------------

_START_KEYS = ("white_daimyo", "white_shinobi", "black_daimyo", "black_shinobi")
_BOARD_KEYS = {"game", "name", "description", "files", "ranks", "start"}


@attrs.frozen
class Battlefield:
    """A board file of this game (``maps/battlefield.toml``): its size and the four start squares."""

    name: str
    source: str
    files: int
    ranks: int
    start: Mapping[str, str]
    """``white_daimyo`` ... ``black_shinobi``: the square each piece starts on."""


def load_battlefield(path: Any) -> Battlefield:
    """Read and check a board file; ``DataError`` naming the file, line and key for anything this game
    cannot play on (the moves and square names are those of a 6 x 7 board)."""
    data, text = read_toml(path)
    where, source = "the board", str(path)
    check_keys(data, _BOARD_KEYS, source=source, where=where, text=text)
    if require(data, "game", str, source=source, where=where, text=text) != "daimyo":
        raise DataError("this is not a board of the 'daimyo' game (game must be \"daimyo\")", source=source,
                        line=key_line(text, "game"), key="game")
    for key, size in (("files", FILES), ("ranks", RANKS)):
        if require(data, key, int, source=source, where=where, text=text) != size:
            raise DataError(f"{key} must be {size}: the battlefield is {FILES} files by {RANKS} ranks "
                            f"(RULES-DAIMYO.md, ruling (board))", source=source, line=key_line(text, key), key=key)
    start = require(data, "start", dict, source=source, where=where, text=text)
    check_keys(start, _START_KEYS, source=source, where="start", text=text)
    squares: dict[str, str] = {}
    for key in _START_KEYS:
        name = require(start, key, str, source=source, where="start", text=text)
        try:
            square = square_name(square_of(name))
        except ValueError as error:
            raise DataError(str(error), source=source, line=key_line(text, key), key=f"start.{key}") from None
        if square in squares.values():
            raise DataError(f"{square} is already a start square", source=source, line=key_line(text, key),
                            key=f"start.{key}")
        squares[key] = square
    return Battlefield(require(data, "name", str, source=source, where=where, text=text), source, FILES, RANKS,
                       squares)


def _load_board(name: str, manifest: str) -> Battlefield:
    from samurai.plugins import resolve_board

    return load_battlefield(resolve_board(name, manifest))


def _check_manifest(manifest: Any, data: Mapping[str, Any], text: str) -> None:
    """The edition's options must be rulings this module plays (a misspelt one would be ignored)."""
    for name in manifest.options:
        if name not in DEFAULT_OPTIONS or name in _START_KEYS:
            known = ", ".join(n for n in DEFAULT_OPTIONS if n not in _START_KEYS)
            raise DataError(f"option {name!r} is not a ruling of this game (rulings: {known}); start squares "
                            f"are the board's", source=manifest.path, line=key_line(text, name), key=f"options.{name}")


def _start(edition: Edition, players: int, seed: int, options: Mapping[str, Any] | None) -> DaimyoState:
    """A new game of ``edition``: the board's start squares and the edition's options (rulings) resolved."""
    if players != 2 or isinstance(players, bool):
        raise DataError(f"Daimyo and Shinobi is a game for 2 players, not {players!r}", source="players")
    check_seed(seed)  # the range every record and the engine accept
    board: Battlefield = edition.board
    return new_state(seed, {**board.start, **edition.manifest.resolve_options(options)})


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


def _web(manifests: Sequence[str]) -> Any:
    from .daimyo_web import DaimyoDefinition

    return DaimyoDefinition(manifests)


def _render(state: GameState, view: Mapping[str, Any]) -> str:
    from samurai.render_daimyo import draw_daimyo_view

    return draw_daimyo_view(view)


# --- what samurai compare measures (samurai.games.GameMeasures) ---------------------------------


class DaimyoWatch:
    """The facts of one finished game for ``samurai compare``, read from its public log (flips are public
    events): who won and why, its length, and what happened to the tiles and pieces."""

    def see(self, state: GameState) -> None:
        """Nothing to note on the way: the finished position's log tells the whole game."""

    def facts(self, state: GameState) -> dict[str, Any]:
        """The finished game's facts as plain data."""
        if not isinstance(state, DaimyoState):
            raise TypeError(f"a Daimyo watch reads a DaimyoState, not {type(state).__name__}")
        events = Counter(event["event"] for event in state.log)
        ki_pairs = sum(1 for event in state.log if event["event"] == "turned_back" and len(event["squares"]) == 2
                       and all(state.known[square_of(name)] == KI for name in event["squares"]))
        return {"returns": list(state.returns()), "reason": state.reason, "actions": state.moves, "turns": state.turn,
                "flips": events["flip"], "heiya_removed": events["heiya_removed"], "engun": events["engun"],
                "shinobi_gained": events["shinobi_wo_tsukau"], "moves": events["move"],
                "captures": sum(1 for event in state.log if event["event"] == "move" and "captured" in event),
                "ki_pairs": ki_pairs, "tiles_left": sum(1 for face in state.tile if face != EMPTY)}


def _fact(name: str) -> Any:
    return lambda g: g[name]


def _ended(reason: str) -> Any:
    return lambda g: float(g["reason"] == reason)


GAME_METRICS = (
    GameMetric("win_rate_seat_0", "White wins (seat 0, first to play)", "rate", lambda g: float(g["returns"][0] == 1)),
    GameMetric("win_rate_seat_1", "Black wins (seat 1)", "rate", lambda g: float(g["returns"][1] == 1)),
    GameMetric("draw_rate", "drawn", "rate", lambda g: float(g["returns"][0] == 0.5)),
    GameMetric("first_player_advantage", "White's edge: its win rate minus Black's", "mean",
               lambda g: g["returns"][0] - g["returns"][1]),
    GameMetric("turns", "turns per game", "mean", _fact("turns")),
    GameMetric("actions", "actions (flips and moves) per game", "mean", _fact("actions")),
    *(GameMetric(f"end_{reason}", f"ended: {words}", "rate", _ended(reason)) for reason, words in (
        ("daimyo_captured", "a Daimyo captured"), ("haisen", "Haisen"), ("yonhon_no_ki", "Yonhon no ki"),
        ("no_progress", "no progress (a draw)"), ("stalemate", "no legal turn"))),
    GameMetric("flips", "tiles flipped per game", "mean", _fact("flips")),
    GameMetric("heiya_removed", "Heiya removed per game", "mean", _fact("heiya_removed")),
    GameMetric("engun", "pieces gained by Engun per game", "mean", _fact("engun")),
    GameMetric("shinobi_gained", "Shinobi gained by Shinobi wo tsukau per game", "mean", _fact("shinobi_gained")),
    GameMetric("ki_pairs", "turns ending with two Ki face up per game", "mean", _fact("ki_pairs")),
    GameMetric("move_turns", "turns spent moving a piece per game", "mean", _fact("moves")),
    GameMetric("captures", "pieces captured per game", "mean", _fact("captures")),
    GameMetric("tiles_left", "tiles still on the board at the end", "mean", _fact("tiles_left")),
)
"""The per-game metrics of a comparison of two Daimyo editions (``MEASURES``)."""


def _metrics(editions: Sequence[Edition], players: int, options: Sequence[Mapping[str, Any]], a: Sequence[Any],
             b: Sequence[Any]) -> list[Any]:
    from samurai.metrics import average_metrics

    return average_metrics(GAME_METRICS, a, b)


MEASURES = GameMeasures(
    watch=lambda edition, players: DaimyoWatch(), metrics=_metrics,
    panels=(("Who wins (share of games; White's edge)", ("win_rate_seat_", "draw_rate", "first_player_advantage")),
            ("How games end (share of games)", ("end_",)),
            ("Game length (per game)", ("turns", "actions", "move_turns")),
            ("Tiles and pieces (per game)", ("flips", "heiya_removed", "ki_pairs", "engun", "shinobi_gained",
                                             "captures", "tiles_left"))))
"""What ``samurai compare`` measures in Daimyo and Shinobi: who wins (White moves first), how games end (each
ending rule of RULES-DAIMYO.md), their length, and what happens to the tiles and pieces."""


GAME = GameDefinition(
    name="daimyo",
    title="Samurai: Daimyo and Shinobi (seed 004)",
    load_board=_load_board,
    player_counts=lambda edition: (2,),
    start=_start,
    render=_render,
    check_manifest=_check_manifest,
    tell=tell,
    measures=MEASURES,
    web=_web,
    checks=lambda: _checks(),
)
"""This game as the framework sees it (``samurai.games``): what ``game = "daimyo"`` in a manifest names."""


@hookimpl
def samurai_games() -> list[GameDefinition]:
    """Contribute the game ``"daimyo"``."""
    return [GAME]


# --- the game's own conformance check (samurai.conformance) ------------------------------------

def _check_tiles_conserved(edition: Edition, players: int, seed: int, games: int) -> None:
    """After every action of random games: face-down + face-up + removed + gained = 38 tiles, at most two
    face up, and each seat's Daimyo on the board until the game ends by its capture."""
    from samurai.conformance import ConformanceFailure
    from samurai.simulate import derive_seed

    rule = "tiles are conserved (38) and the Daimyo stay on the board"
    for index in range(games):
        game_seed = derive_seed(seed, index)
        rng = random.Random(game_seed)
        state = edition.start(players, game_seed)
        assert isinstance(state, DaimyoState)
        for step in range(100_000):
            tiles = state.view(0)["tiles"]
            counted = tiles["face_down"] + tiles["face_up"] + tiles["removed"] + tiles["gained"]
            problem = None
            if counted != len(TILE_SET):
                problem = (f"{tiles['face_down']} face down + {tiles['face_up']} face up + {tiles['removed']} removed "
                           f"+ {tiles['gained']} gained = {counted}, not {len(TILE_SET)}")
            elif tiles["face_up"] > 2:
                problem = f"{tiles['face_up']} tiles face up at once"
            elif state.reason != "daimyo_captured" and sorted(
                    code // 5 for code in state.piece if code != EMPTY and code % 5 == DAIMYO) != [WHITE, BLACK]:
                problem = "a Daimyo left the board without the game ending by its capture"
            if problem is not None:
                raise ConformanceFailure(rule, f"after {step} random actions: {problem}", edition=edition.reference,
                                         players=players, seed=game_seed, bots=("random",))
            if state.is_over:
                break
            state.apply(state.sample_action(rng))


def _checks() -> list[Any]:
    from samurai.conformance import Check

    return [Check("tiles_conserved", "tiles are conserved (38) and the Daimyo stay on the board",
                  _check_tiles_conserved)]

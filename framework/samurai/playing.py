"""Any installed game at the front door: ``ProtocolGame``, a game of any edition spoken in the protocol's moves.

Knizia's game has its own rich ``samurai_plugins.knizia.play.game.Game`` (actions in its words, scenarios, maps); every
other game is played through ``ProtocolGame``, which wraps the position its edition starts (``samurai.protocol
.GameState``) and gives it the ``Game``'s face: ``legal_actions``, ``apply`` (checked, with the acting ``seat`` and
the ``version`` a client saw), ``view``, ``is_over``, ``result``, ``current_player``, ``history``, ``save``-able
records and ``ask(bot)``. ``samurai.new_game`` and ``samurai.load`` hand one out for an edition or a record of a game
other than Knizia's.

``current_player`` and ``result`` are not optional, so the natural loop type-checks: ``current_player`` raises
``SamuraiError`` once the game is over, ``result`` before it is.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .catalog.editions import Edition
from .catalog.trust import Trust, TrustLike
from .errors import IllegalAction, SamuraiError
from .protocol import Bot, GameState, Move
from .records import read_record_file, record_moves, records_of
from .records import record_of as protocol_record_of

__all__ = ["ProtocolGame", "Outcome", "start_protocol_game", "load_protocol_game", "save_protocol_game",
           "check_caller", "not_over", "still_on"]


@attrs.frozen
class Outcome:
    """How a game of any game ended, as the protocol tells it (``GameState.returns``)."""

    winners: tuple[int, ...]
    """The seats with a share of the win (both seats of a drawn two-player game)."""
    returns: tuple[float, ...]
    """Per seat: 1 for a sole win, 1/k for each of k sharing a win, else 0."""


def not_over() -> SamuraiError:
    """The error of asking a game that goes on for its result."""
    return SamuraiError("the game is not over, so it has no result yet: ask once game.is_over")


def still_on() -> SamuraiError:
    """The error of asking a finished game whose turn it is."""
    return SamuraiError("the game is over: no seat is to act (check game.is_over first)")


def check_caller(seat: Any, version: Any, *, players: int, to_act: int | None, version_now: int) -> None:
    """Refuse an action from a seat not to act (``IllegalAction`` telling only whose turn it is), or one chosen at
    another ``version`` than the game's (the number of actions applied); None for either checks nothing."""
    if version is not None:
        if isinstance(version, bool) or not isinstance(version, int):
            raise TypeError(f"version must be a whole number (Game.version), not {version!r}")
        if version != version_now:
            raise IllegalAction(f"the action was chosen at version {version}, but the game is at version "
                                f"{version_now}: look at the position again")
    if seat is not None:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"seat must be a whole number from 0 to {players - 1}, not {seat!r}")
        if not 0 <= seat < players:
            raise IllegalAction(f"seat {seat} is not a seat of this {players}-player game")
        if to_act is None:
            raise IllegalAction("the game is over")
        if seat != to_act:
            raise IllegalAction(f"it is seat {to_act}'s turn, not seat {seat}'s")


class ProtocolGame:
    """One game of any installed game, played in the protocol's moves (tuples of small ints).

    Not thread-safe, like ``Game``: a server holds one lock per game around ``apply``.
    """

    def __init__(self, edition: Edition, players: int, seed: int, options: Mapping[str, Any] | None,
                 state: GameState, history: tuple[Move, ...] = ()) -> None:
        self.loaded_edition = edition
        """The edition played (``samurai.catalog.editions.Edition``): its game is ``loaded_edition.game``."""
        self.seed = seed
        self.options = dict(options or {})
        """The options the game was started with (the edition's defaults for those not given)."""
        self.state = state
        """The position on the protocol (``samurai.protocol.GameState``): what bots, searches and servers use."""
        self._players = players
        self._history = list(history)

    @property
    def edition(self) -> str:
        """The edition's id."""
        return self.loaded_edition.id

    @property
    def game(self) -> str:
        """The game's name, e.g. ``"daimyo"``."""
        return self.loaded_edition.game.name

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._players

    @property
    def current_player(self) -> int:
        """The seat to act (0..players-1); ``SamuraiError`` once the game is over."""
        seat = self.state.to_act
        if seat is None:
            raise still_on()
        return seat

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_over

    @property
    def result(self) -> Outcome:
        """Who won, once the game is over; ``SamuraiError`` before."""
        if not self.state.is_over:
            raise not_over()
        returns = tuple(self.state.returns())
        return Outcome(tuple(seat for seat, share in enumerate(returns) if share > 0), returns)

    @property
    def history(self) -> tuple[Move, ...]:
        """Every action applied so far, in order."""
        return tuple(self._history)

    @property
    def version(self) -> int:
        """How many actions have been applied: pass it back as ``apply(action, version=...)``."""
        return len(self._history)

    def legal_actions(self) -> list[Move]:
        """Every legal action for the seat to act, in the game's stable order; empty when the game is over."""
        return self.state.legal_actions()

    def apply(self, action: Move, *, seat: int | None = None, version: int | None = None) -> None:
        """Play ``action`` for the seat to act; ``IllegalAction`` saying why when the rules forbid it (the game is
        then as it was). ``seat`` and ``version`` as for ``Game.apply``."""
        check_caller(seat, version, players=self.players, to_act=self.state.to_act, version_now=self.version)
        if not isinstance(action, tuple):
            raise IllegalAction(f"a {type(action).__name__} is not an action of game {self.game!r}: its actions are "
                                f"tuples of whole numbers, as legal_actions gives them")
        reason = self.state.check(action)
        if reason is not None:
            raise IllegalAction(f"{list(action)} is illegal: {reason}")
        self.state.apply(action)
        self._history.append(action)

    def ask(self, bot: Bot) -> Move:
        """The action ``bot`` picks for the seat to act, handed that seat's knowledge only (``GameState.ask``)."""
        if self.state.to_act is None:
            raise still_on()
        return self.state.ask(bot)

    def view(self, seat: int) -> dict[str, Any]:
        """A JSON-ready dict of what ``seat`` may know, and nothing more."""
        return self.state.view(seat)

    def describe(self, action: Move) -> dict[str, Any]:
        """``action`` in the game's own words, as a JSON-ready dict."""
        return self.state.describe(action)

    def copy(self) -> ProtocolGame:
        """An independent copy that continues exactly as this game would."""
        return ProtocolGame(self.loaded_edition, self.players, self.seed, self.options, self.state.copy(),
                            self.history)

    def __repr__(self) -> str:
        return f"<ProtocolGame {self.edition} players={self.players} seed={self.seed} version={self.version}>"


def start_protocol_game(edition: Edition, players: int | None, seed: int,
                        options: Mapping[str, Any] | None = None) -> ProtocolGame:
    """A new game of ``edition`` on the protocol: ``players`` (default: the edition's first count), a seed, options;
    ``DataError`` naming the field for bad ones."""
    count = edition.player_counts[0] if players is None else players
    return ProtocolGame(edition, count, seed, options, edition.start(count, seed, options))


def load_protocol_game(path: str | os.PathLike[str], *, trust: TrustLike = ()) -> ProtocolGame:
    """A saved game of any game (a protocol record, ``samurai.records``) read, replayed and checked."""
    vouched = Trust.of(trust)
    source = str(path)
    read = read_record_file(path, trust=vouched)
    start, moves = record_moves(read, source=source, trust=vouched, folder=Path(path).parent)
    record = read.record
    edition = vouched.edition(record.edition, source=source, key="edition", folder=Path(path).parent)
    game = ProtocolGame(edition, record.players, record.seed, record.options, start)
    for move in moves:
        game.apply(move)
    return game


def save_protocol_game(game: ProtocolGame, path: str | os.PathLike[str]) -> Path:
    """Save ``game`` (finished or not) as its game writes records (``.json``)."""
    record = protocol_record_of(game.loaded_edition, game.players, game.seed, game.options, game.history,
                                game.state)
    return records_of(game.loaded_edition.game).write(record, Path(path))


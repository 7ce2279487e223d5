"""The front door's functions that serve every installed game: ``new_game``, ``load``, ``save`` and ``bot``.

An edition or record of Knizia's game gets its rich ``samurai_plugins.knizia.play.game.Game``; one of any other
installed game gets a ``samurai.playing.ProtocolGame``, the same face over the game protocol. Which one is decided by
the game the edition's manifest (or the record) names, never by a list of games; the bundled editions' ids below only
tell type checkers which class an id gives (a test keeps them equal to the installed editions).

With ``samurai.front`` and ``samurai/__init__.py`` the front door names the reference game; it sits above every
game (pyproject's import-linter layers), and nothing imports it but the front door itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, overload

from samurai_plugins.knizia.adapters.game_state import SeatBot, decide
from samurai_plugins.knizia.adapters.search_bots import make_bot as make_knizia_bot
from samurai_plugins.knizia.core.actions import Action
from samurai_plugins.knizia.core.identity import KNIZIA
from samurai_plugins.knizia.core.maps import GameMap
from samurai_plugins.knizia.engine.edition import KniziaEdition
from samurai_plugins.knizia.play import game as knizia_game
from samurai_plugins.knizia.play import record_files as knizia_records
from samurai_plugins.knizia.play.game import Game, check_seed
from samurai_plugins.knizia.play.knowledge import LeftGame

from .catalog.editions import Edition, installed_games, load_edition
from .catalog.trust import TrustLike
from .errors import DataError
from .playing import ProtocolGame, load_protocol_game, save_protocol_game, start_protocol_game, still_on
from .protocol import Bot, Move
from .records import read_record_file
from .search.bots import make_bot

__all__ = ["new_game", "load", "save", "bot", "BotPlayer", "KniziaEditionId", "OtherEditionId"]

KniziaEditionId = Literal["ffg2015", "ffg2015-beginner", "original"]
"""The bundled editions of Knizia's game: ``new_game`` gives a ``Game`` for them."""
OtherEditionId = Literal["daimyo", "daimyo-nobori", "daimyo-shinobi"]
"""The bundled editions of the other games: ``new_game`` gives a ``ProtocolGame`` for them."""

_KNIZIA_ONLY = ("map", "scenario", "engine")
"""``new_game``'s arguments that only Knizia's game takes."""


@overload
def new_game(edition: KniziaEditionId | KniziaEdition | None = None, players: int | None = None, seed: int = 0, *,
             options: Mapping[str, Any] | None = None, map: str | GameMap | None = None,
             scenario: str | Path | Mapping[str, Any] | None = None, trace: bool = True, trust: TrustLike = (),
             engine: str | None = None) -> Game: ...
@overload
def new_game(edition: OtherEditionId, players: int | None = None, seed: int = 0, *,
             options: Mapping[str, Any] | None = None) -> ProtocolGame: ...
@overload
def new_game(edition: str | os.PathLike[str] | Edition, players: int | None = None, seed: int = 0, *,
             options: Mapping[str, Any] | None = None, map: str | GameMap | None = None,
             scenario: str | Path | Mapping[str, Any] | None = None, trace: bool = True, trust: TrustLike = (),
             engine: str | None = None) -> Game | ProtocolGame: ...
def new_game(edition: str | os.PathLike[str] | Edition | None = None, players: int | None = None, seed: int = 0, *,
             options: Mapping[str, Any] | None = None, map: str | GameMap | None = None,
             scenario: str | Path | Mapping[str, Any] | None = None, trace: bool = True, trust: TrustLike = (),
             engine: str | None = None) -> Game | ProtocolGame:
    """Start a game of any installed game: an edition (id, manifest path or loaded ``Edition``; default ffg2015),
    players (default: 4 for Knizia's game, else the edition's first count), a seed (a whole number from 0) and
    options.

    An edition of Knizia's game gives a ``Game`` (``samurai_plugins.knizia.play.game.new_game``, whose own arguments
    ``map``, ``scenario``, ``trace``, ``trust`` and ``engine`` are); one of another game a ``ProtocolGame``: ``map``,
    ``scenario`` or ``engine`` given for it is a ``DataError`` naming the argument, ``trace`` and ``trust`` do not
    apply to it.
    """
    loaded = load_edition(edition) if isinstance(edition, (str, os.PathLike)) else edition
    if loaded is None or isinstance(loaded, KniziaEdition) or not isinstance(loaded, Edition):
        return knizia_game.new_game(loaded, players, seed, options=options, map=map, scenario=scenario,
                                    trace=trace, trust=trust, engine=engine)
    given = {"map": map, "scenario": scenario, "engine": engine}
    for name in _KNIZIA_ONLY:
        if given[name] is not None:
            raise DataError(f"{name} is an argument of Knizia's game only; edition {loaded.id!r} plays "
                            f"{loaded.game.name!r}", source=name)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise DataError(f"players must be a whole number, not {type(players).__name__} {players!r:.40}",
                        source="players")
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a mapping of option name to value, not {type(options).__name__}")
    check_seed(seed)
    return start_protocol_game(loaded, players, seed, options)


def load(path: str | os.PathLike[str], *, trust: TrustLike = ()) -> Game | ProtocolGame:
    """Load a saved game of any installed game: read, validate, replay every action and check the saved position.

    A record of Knizia's game gives a ``Game`` (``samurai_plugins.knizia.play.record_files.load``); one of another game
    a ``ProtocolGame``. The record's edition must be installed, or its manifest vouched for in ``trust``: a record never
    runs code by itself.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a record's path is a str or Path, not {type(path).__name__}")
    if read_record_file(path, trust=trust).game == KNIZIA:
        return knizia_records.load(os.fspath(path), trust=trust)
    return load_protocol_game(path, trust=trust)


def save(game: Game | ProtocolGame, path: str | os.PathLike[str]) -> Path:
    """Save ``game`` (finished or not) to ``path``: ``.json`` or ``.toml`` for Knizia's game, ``.json`` for one
    played through the protocol."""
    if isinstance(game, ProtocolGame):
        return save_protocol_game(game, path)
    if not isinstance(game, Game):
        raise TypeError(f"save takes a Game or a ProtocolGame, not {type(game).__name__}")
    return knizia_records.save(game, os.fspath(path))


class BotPlayer:
    """A built-in bot by name (``samurai.bot``): ``choose(game)`` is its action for the seat to act, decided on that
    seat's knowledge only, as an action ``game.apply`` takes.

    The bot is made once for each game it plays (its search and generator kept between moves), seeded by ``seed``:
    the same seed and the same positions give the same actions, on either engine.
    """

    def __init__(self, name: str, seed: int = 0) -> None:
        if not isinstance(name, str):
            raise TypeError(f"a bot is named by a string, not {name!r}")
        check_seed(seed)
        refusals = []
        for definition in installed_games().values():
            try:
                make_bot(name, seed, definition)
                break
            except ValueError as refused:
                refusals.append(str(refused))
        else:
            raise DataError(refusals[0] if refusals else f"no installed game plays bot {name!r}", source="bot")
        self.name = name
        self.seed = seed
        self._knizia: SeatBot | None = None
        self._others: dict[str, Bot] = {}

    @overload
    def choose(self, game: Game) -> Action: ...
    @overload
    def choose(self, game: ProtocolGame) -> Move: ...
    def choose(self, game: Game | ProtocolGame) -> Action | Move:
        """The action this bot plays for the seat to act in ``game``; ``SamuraiError`` once the game is over, and
        ``DataError`` for a game this bot does not play (``greedy`` plays Knizia's game only)."""
        if isinstance(game, ProtocolGame):
            definition = game.loaded_edition.game
            if definition.name not in self._others:
                self._others[definition.name] = self._made(lambda: make_bot(self.name, self.seed, definition))
            return game.ask(self._others[definition.name])
        if not isinstance(game, Game):
            raise TypeError(f"a bot chooses in a Game or a ProtocolGame, not {type(game).__name__}")
        if game.is_over:
            raise still_on()
        if self._knizia is None:
            self._knizia = self._made(lambda: make_knizia_bot(self.name, self.seed))
        seat = game.current_player
        return game.to_action(decide(self._knizia, game.rules, game.state, seat, LeftGame(), game.version,
                                     game.engine))

    def _made(self, maker: Any) -> Any:
        try:
            return maker()
        except ValueError as refused:
            raise DataError(str(refused), source="bot") from None

    def __repr__(self) -> str:
        return f"<BotPlayer {self.name} seed={self.seed}>"


def bot(name: str, seed: int = 0) -> BotPlayer:
    """A built-in bot by name (``random``, ``greedy``, ``easy``, ``medium``, ``hard``, ``expert``, ``mcts:N`` ...;
    docs/bots.md), seeded by ``seed``: ``game.apply(bot.choose(game))`` plays its move."""
    return BotPlayer(name, seed)

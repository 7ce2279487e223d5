"""Samurai: a plugin-based engine for board games, with Reiner Knizia's hex tile-placement game.

Embed a game in a few lines::

    import samurai

    game = samurai.new_game("ffg2015", players=3, seed=7)
    bot = samurai.bot("medium", seed=1)
    while not game.is_over:
        game.apply(bot.choose(game))         # the seat to act's move, on its knowledge only
    print(game.result.winners, game.result.explanation)
    samurai.save(game, "game.json")          # a record: JSON or TOML
    again = samurai.load("game.json")        # replayed and checked

Every installed game plays through the same door: ``samurai.new_game("daimyo")`` gives a ``ProtocolGame``.

Everything listed in ``__all__`` is the stable public API (docs/embedding.md). The names are loaded when first
used (PEP 562), so ``import samurai`` and ``import samurai.protocol`` load no game: the names of Knizia's game
come from its package, ``samurai_plugins.knizia``.

This module and ``samurai.front`` are the distribution's front door, the framework's only modules allowed to name
the reference game: it re-exports Knizia's public names, and ``samurai.front`` serves every installed game. No framework
package (``catalog``, ``hooks``, ``runs``, ...) names or imports a game; Knizia's game plugs in through its entry point
(``samurai_plugins.knizia.plugin``) as Daimyo does.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the lazy names below are, for type checkers and readers
    from samurai_plugins.knizia.adapters.play_bots import play_bots
    from samurai_plugins.knizia.core.actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
    from samurai_plugins.knizia.core.hexgrid import Coord
    from samurai_plugins.knizia.core.result import END_REASONS, Result
    from samurai_plugins.knizia.core.tiles import CASTES
    from samurai_plugins.knizia.engine.special_tiles import MoveTile, SwitchFigures
    from samurai_plugins.knizia.play.game import Game, score
    from samurai_plugins.knizia.play.record_files import GameRecord, from_record, to_record

    from .catalog.editions import Edition, available_editions, load_edition
    from .errors import DataError, IllegalAction, SamuraiError
    from .front import BotPlayer, bot, load, new_game, save
    from .playing import Outcome, ProtocolGame

__version__ = "0.1.0"

__all__ = [
    "new_game", "score", "load_edition", "available_editions",
    "save", "load", "to_record", "from_record", "GameRecord", "play_bots", "bot", "BotPlayer",
    "Game", "ProtocolGame", "Outcome", "Edition", "Result", "END_REASONS", "CASTES", "Coord",
    "Action", "ChooseTile", "PlaceFigure", "PlaceTile", "MoveTile", "SwitchFigures", "EndTurn",
    "SamuraiError", "IllegalAction", "DataError", "__version__",
]

_HOMES = {
    **dict.fromkeys(("Action", "ChooseTile", "EndTurn", "PlaceFigure", "PlaceTile"),
                    "samurai_plugins.knizia.core.actions"),
    "play_bots": "samurai_plugins.knizia.adapters.play_bots",
    **dict.fromkeys(("DataError", "IllegalAction", "SamuraiError"), ".errors"),
    **dict.fromkeys(("new_game", "load", "save", "bot", "BotPlayer"), ".front"),
    **dict.fromkeys(("Game", "score"), "samurai_plugins.knizia.play.game"),
    "Coord": "samurai_plugins.knizia.core.hexgrid",
    **dict.fromkeys(("Edition", "available_editions", "load_edition"), ".catalog.editions"),
    **dict.fromkeys(("GameRecord", "from_record", "to_record"), "samurai_plugins.knizia.play.record_files"),
    **dict.fromkeys(("Outcome", "ProtocolGame"), ".playing"),
    **dict.fromkeys(("END_REASONS", "Result"), "samurai_plugins.knizia.core.result"),
    **dict.fromkeys(("MoveTile", "SwitchFigures"), "samurai_plugins.knizia.engine.special_tiles"),
    "CASTES": "samurai_plugins.knizia.core.tiles",
}
"""Each public name's module, imported on first use."""


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562); a subpackage or module of ``samurai`` by
    its name (``samurai_plugins.knizia``), as an attribute reached after ``import samurai``."""
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name], __name__), name)
        globals()[name] = value  # later uses do not come back here
        return value
    if not name.startswith("_"):
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

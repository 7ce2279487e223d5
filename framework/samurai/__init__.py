"""Samurai: a plugin-based engine for Reiner Knizia's hex tile-placement game.

Embed a game in a few lines::

    import samurai

    game = samurai.new_game("ffg2015", players=3, seed=7)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    print(game.result.winners, game.result.explanation)
    samurai.save(game, "game.json")          # a record: JSON or TOML
    again = samurai.load("game.json")        # replayed and checked

Everything listed in ``__all__`` is the stable public API (docs/embedding.md).
"""

from __future__ import annotations

from .actions import Action, ChooseTile, EndTurn, PlaceFigure, PlaceTile
from .bots import play_bots
from .errors import DataError, IllegalAction, SamuraiError
from .game import Game, new_game, score
from .hexgrid import Coord
from .plugins import Edition, available_editions, load_edition
from .records import GameRecord, from_record, load, save, to_record
from .result import END_REASONS, Result
from .special_tiles import MoveTile, SwitchFigures
from .tiles import CASTES

__version__ = "0.1.0"

__all__ = [
    "new_game", "score", "load_edition", "available_editions",
    "save", "load", "to_record", "from_record", "GameRecord", "play_bots",
    "Game", "Edition", "Result", "END_REASONS", "CASTES", "Coord",
    "Action", "ChooseTile", "PlaceFigure", "PlaceTile", "MoveTile", "SwitchFigures", "EndTurn",
    "SamuraiError", "IllegalAction", "DataError", "__version__",
]

"""Samurai: Daimyo and Shinobi, a second game behind the same game protocol.

Not Knizia's game: a two-player battlefield of face-down tiles, a memory element and chess-like moves
(docs/rules/daimyo.md). The package is registered in the ``samurai`` entry-point group as ``daimyo``; its modules:

- ``rules``: positions (``DaimyoState``), what a seat knows, new games, the rulings as options, what an action
  caused (``tell``);
- ``board``: the board files (``load_battlefield``);
- ``measures``: what ``samurai compare`` measures (``MEASURES``, ``DaimyoWatch``, ``GAME_METRICS``);
- ``checks``: the game's own conformance check;
- ``render``: the picture of a seat's view (``draw_daimyo_view``);
- ``web``: the game as the web layer serves it (``DaimyoDefinition``);
- ``observation``: the game as numbers for PettingZoo and OpenSpiel (``DaimyoEncoding``, ``samurai.interop``);
- ``plugin``: the game definition (``GAME``) and the ``samurai_games`` hook.

The names below are the ones this game's users and tests reach for, re-exported from those modules.
"""

from samurai_plugins.daimyo.board import load_battlefield
from samurai_plugins.daimyo.measures import GAME_METRICS, MEASURES, DaimyoWatch
from samurai_plugins.daimyo.plugin import GAME, samurai_games
from samurai_plugins.daimyo.rules import (
    ASHIGARU,
    BLACK,
    BOARD_SIZES,
    DAIMYO,
    DEFAULT_BOARD,
    DEFAULT_OPTIONS,
    EMPTY,
    END_CHECK_ORDER,
    END_WORDS,
    FACES,
    FILE_LETTERS,
    FILES,
    FLIP,
    HEIYA,
    KI,
    KIBATAI,
    KIHEI,
    MOVE,
    PIECES,
    RANKS,
    SHINOBI,
    SQUARES,
    TILE_SET,
    WHITE,
    Battlefield,
    DaimyoKnowledge,
    DaimyoState,
    new_state,
    square_name,
    square_of,
    tell,
    tile_set,
)

__all__ = ["FLIP", "MOVE", "DaimyoState", "DaimyoKnowledge", "new_state", "DEFAULT_OPTIONS", "FILES", "RANKS",
           "PIECES", "FACES", "square_name", "square_of", "Battlefield", "load_battlefield", "GAME", "samurai_games",
           "tell", "END_WORDS", "MEASURES", "DaimyoWatch", "GAME_METRICS", "END_CHECK_ORDER", "DEFAULT_BOARD",
           "FILE_LETTERS", "BOARD_SIZES", "SQUARES", "EMPTY", "WHITE", "BLACK", "DAIMYO", "SHINOBI", "ASHIGARU",
           "KIHEI", "KIBATAI", "HEIYA", "KI", "TILE_SET", "tile_set"]

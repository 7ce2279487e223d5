"""Knizia's game as a plugin of the framework: registered in the ``samurai`` entry-point group as ``knizia``, it
contributes the game (``samurai.knizia.position.GAME``) exactly as ``samurai_plugins.daimyo`` contributes Daimyo.

The game's hooks, defaults and special tiles reach each of its editions through that definition
(``hookspecs``, ``plugins``); the editions shipped in the distribution's ``editions/`` folder are contributed by
the framework's defaults (``samurai.hooks.defaults``), which list the folder whatever games it holds.
"""

from __future__ import annotations

from ..catalog.games import GameDefinition
from ..hooks.specs import hookimpl
from .position import GAME

__all__ = ["samurai_games"]


@hookimpl
def samurai_games() -> list[GameDefinition]:
    """Contribute Knizia's game, ``"knizia"``: the default game."""
    return [GAME]

"""The one name of Knizia's game, everywhere it is named: a manifest's ``game = ...``, records, the web page's game
list, the OpenSpiel short name (a module of its own, below every other of the game's, so any of them may name it)."""

from __future__ import annotations

__all__ = ["KNIZIA"]

KNIZIA = "knizia"
"""The name of Knizia's hex tile-placement game (``samurai_plugins.knizia.plugin.GAME.name``)."""

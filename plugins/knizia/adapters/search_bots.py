"""The bots of Knizia's game: the framework's (``samurai.search.bots``: ``random``, the MCTS kinds and levels) and
this game's own, ``greedy`` (``samurai_plugins.knizia.engine.greedy.GreedyBot``), typed for this game's knowledge.

Knizia's positions hand a bot the engine's ``HexSeatKnowledge`` (``HexGameState.knowledge`` and ``decide``), which
``greedy`` reads (hands, hexes, settlements); the framework's bots read only the protocol's part of it. So every
bot ``make_bot`` here gives is a ``SeatBot``: what this game's fast runner (``samurai_plugins.knizia.adapters.runner``)
and ``decide`` take.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from samurai.protocol import Bot as ProtocolBot
from samurai.search import bots as framework_bots
from samurai_plugins.knizia.adapters.game_state import HexSeatKnowledge, SeatBot
from samurai_plugins.knizia.core.identity import KNIZIA
from samurai_plugins.knizia.engine.greedy import GreedyBot

__all__ = ["Bot", "Observation", "GreedyBot", "GAME_BOTS", "BOT_NAMES", "make_bot", "parse_bots"]

Bot = SeatBot
"""Anything that picks an action for its seat from the seat's knowledge
(``samurai_plugins.knizia.adapters.game_state.SeatBot``)."""

Observation = HexSeatKnowledge
"""What a bot is handed in this game: its seat's knowledge
(``samurai_plugins.knizia.adapters.game_state.HexSeatKnowledge``), never the game itself."""

# greedy reads the engine's SeatKnowledge, which is what this game's positions hand every bot: it is a
# protocol bot of this game only, which the game definition's ``bots`` field says by being this game's.
GAME_BOTS: Mapping[str, Callable[[int], ProtocolBot]] = {"greedy": cast("Callable[[int], ProtocolBot]", GreedyBot)}
"""This game's own bots by name (``GameDefinition.bots`` of ``samurai_plugins.knizia.plugin.GAME``)."""

_THIS_GAME = framework_bots.GameBots(KNIZIA, GAME_BOTS)

BOT_NAMES = framework_bots.bot_names(_THIS_GAME)
"""Every bot name this game's bots take (the framework's and ``greedy``), as shown in help and error messages."""


def make_bot(name: str, seed: int) -> SeatBot:
    """A bot of this game by name (``samurai.search.bots.make_bot`` with this game's own bots), with its own
    generator seeded by ``seed``."""
    # Every bot of this game acts on the SeatKnowledge this game hands it (see the module's docstring).
    return cast(SeatBot, framework_bots.make_bot(name, seed, _THIS_GAME))


def parse_bots(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"random,greedy,hard"`` as a tuple of this game's bot names (``samurai.search.bots.parse_bots``)."""
    return framework_bots.parse_bots(text, _THIS_GAME)

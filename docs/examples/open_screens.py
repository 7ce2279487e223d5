"""Open screens: captured figures are visible to every player, whatever the player count.

FFG 2015 hides them behind screens; the original edition shows them only with
two players (docs/rules/samurai.md#hidden-information). This variant always shows them, to
measure how much the hidden information matters. It also contributes one
metric to ``samurai compare``: how often the finish is close.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl
from samurai.runs.statistics import GameMetric
from samurai_plugins.knizia.core.facts import GameFacts

CLOSE_MARGIN = 1
"""A finish is close when the best total of captured figures leads the next by at most this."""


@hookimpl
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool:
    """Every seat sees every seat's captured figures."""
    return True


@hookimpl
def samurai_game_metrics(players: int, first_player: int) -> Sequence[GameMetric]:
    """Close finishes: with every capture in view, do players keep the totals tight?"""
    return [GameMetric("close_finish", f"best capture total leads the next by {CLOSE_MARGIN} or less", "rate",
                       close_finish)]


def close_finish(game: GameFacts) -> float:
    """1 when the two highest totals of captured figures differ by at most ``CLOSE_MARGIN``."""
    totals = sorted((sum(seat) for seat in game.captured), reverse=True)
    return float(totals[0] - totals[1] <= CLOSE_MARGIN)

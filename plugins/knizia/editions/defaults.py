"""Knizia's game's own answers to its deciding hooks (``samurai_plugins.knizia.editions.hookspecs``),
registered ``trylast``.

An edition plugin overrides any of them by implementing the same hook. They
describe the plainest game: choose hands, place figures anywhere, resolve and
check the end at the end of the turn, captures hidden, most figures wins. The
game definition (``samurai_plugins.knizia.plugin.GAME``) registers this module in the
plugin manager of each of its editions as ``samurai_plugins.knizia.editions.defaults``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl
from samurai.runs.statistics import GameMetric
from samurai_plugins.knizia.core.facts import core_game_metrics
from samurai_plugins.knizia.core.result import Result, seats_text
from samurai_plugins.knizia.editions.native_scoring import native_scoring
from samurai_plugins.knizia.editions.setup import SetupProcedure

__all__ = ["most_figures_wins"]


@hookimpl(trylast=True)
def samurai_setup_procedure(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> SetupProcedure:
    """Choose hands, then place figures in any settlement; capitals start with one of each caste."""
    return SetupProcedure(first_player=int(options.get("first_player", 0)))


@hookimpl(trylast=True)
def samurai_resolution_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """Resolve surrounded settlements at the end of the turn."""
    return "end_of_turn"


@hookimpl(trylast=True)
def samurai_end_check_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """Check the end after the whole turn."""
    return "end_of_turn"


@hookimpl(trylast=True)
def samurai_cannot_play(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """A seat that cannot play passes; the game ends when no seat can (docs/rules/samurai.md#passing)."""
    return "pass"


@hookimpl(trylast=True)
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool:
    """Captured figures are hidden behind each player's screen."""
    return False


@hookimpl(trylast=True)
def samurai_game_metrics(players: int, first_player: int) -> Sequence[GameMetric]:
    """The engine's own comparison metrics (``samurai_plugins.knizia.core.facts.core_game_metrics``)."""
    return core_game_metrics(players, first_player)


@hookimpl(trylast=True)
@native_scoring("most_figures")
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result:
    """Most captured figures in total wins; a tie is shared."""
    return most_figures_wins(captured)


def most_figures_wins(captured: Mapping[int, Mapping[str, int]], seats: Sequence[int] | None = None) -> Result:
    """Among ``seats`` (default: all), most figures in total wins; a tie is a shared win."""
    seats = list(captured) if seats is None else list(seats)
    totals = {seat: sum(captured[seat].values()) for seat in seats}
    best = max(totals.values())
    winners = tuple(seat for seat in seats if totals[seat] == best)

    def listing() -> str:  # the explanation is written only when read
        return ", ".join(f"seat {seat} {totals[seat]}" for seat in seats)

    if len(winners) == 1:
        return Result(winners, "most_figures", lambda: f"Figures in total: {listing()}. Seat {winners[0]} has the "
                                                       f"most and wins.")
    return Result(winners, "shared_most_figures",
                  lambda: f"Figures in total: {listing()}. Seats {seats_text(winners)} tie with {best} and share "
                          f"the win.")


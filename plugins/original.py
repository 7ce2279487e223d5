"""The original (1998) edition of Samurai (the original column of docs/rules/samurai.md#edition-differences).

- Board: islands by player count (Honshu; then Kyushu and Shikoku; then Hokkaido).
- Setup: Edo gets one figure of each caste; players in turn place one figure
  at a time in any city or village; after all the figures are placed, each
  seat secretly chooses its five starting tiles (docs/rules/samurai.md#setup-order).
- Surrounds resolve immediately after each tile (docs/rules/samurai.md#resolution-timing).
- Play stops the moment the end is triggered (docs/rules/samurai.md#end-check).
- Captured figures are hidden, except in a 2-player game (docs/rules/samurai.md#hidden-information).
- Scoring by majorities and "other" figures (docs/rules/samurai.md#original-scoring), below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.result import Result, seats_text
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.native_scoring import native_scoring
from samurai_plugins.knizia.editions.setup import SetupProcedure

__all__ = ["score_majorities", "FIGURE_STAGES", "PUBLIC_CAPTURES_PLAYERS"]

FIGURE_STAGES = (("city", "village"),)
"""Cities and villages fill in any order (docs/rules/samurai.md#figure-setup)."""

PUBLIC_CAPTURES_PLAYERS = 2
"""The player count whose captured figures stay in view (docs/rules/samurai.md#hidden-information)."""


@hookimpl
def samurai_setup_procedure(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> SetupProcedure:
    """Figures first, one at a time in any city or village (Edo prefilled), then chosen hands: "after all
    the figures are placed, each player takes five tiles" (docs/rules/samurai.md#setup-order)."""
    return SetupProcedure(order=("figures", "hands"), hands="choose", figures="choose",
                          figure_stages=FIGURE_STAGES, prefilled=("capital",),
                          first_player=int(options.get("first_player", 0)))


@hookimpl
def samurai_resolution_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """Immediately after each tile (docs/rules/samurai.md#resolution-timing)."""
    return "each_tile"


@hookimpl
def samurai_end_check_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """Play stops the moment the end is triggered (docs/rules/samurai.md#end-check)."""
    return "immediate"


@hookimpl
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool:
    """Hidden, except in a 2-player game (docs/rules/samurai.md#hidden-information)."""
    return players == PUBLIC_CAPTURES_PLAYERS


@hookimpl
@native_scoring("majorities")
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result:
    """Majorities and "other" figures (docs/rules/samurai.md#original-scoring)."""
    return score_majorities(captured)


def score_majorities(captured: Mapping[int, Mapping[str, int]]) -> Result:
    """Decide the winner by majorities (docs/rules/samurai.md#original-scoring).

    1. A caste's majority belongs to the player with strictly the most of it.
    2. A player holding the majority in at least two castes wins.
    3. Otherwise players without a majority are out; each holder counts its
       "other" figures (those outside its majority's caste): most wins; tied,
       most figures in total; still tied, a shared win.
    4. Nobody holds a majority: most figures in total wins; a tie is shared.
    """
    seats = sorted(captured)
    count = {seat: {caste: int(captured[seat].get(caste, 0)) for caste in CASTES} for seat in seats}
    total = {seat: sum(count[seat].values()) for seat in seats}
    majorities: dict[int, list[str]] = {seat: [] for seat in seats}
    counted = []
    for caste in CASTES:
        most = max(count[seat][caste] for seat in seats)
        holders = [seat for seat in seats if count[seat][caste] == most]
        if len(holders) == 1:
            majorities[holders[0]].append(caste)
        counted.append((caste, most, holders))

    # The explanation is written only when read (playouts never read it): each step's text is a function.
    def story() -> str:
        text = "; ".join(f"seat {holders[0]} holds the {caste} majority with {most}" if len(holders) == 1 else
                         f"nobody holds the {caste} majority ({most} each for seats {seats_text(holders)})"
                         for caste, most, holders in counted)
        return text[0].upper() + text[1:] + "."

    double = [seat for seat in seats if len(majorities[seat]) >= 2]
    if double:
        seat = double[0]
        return Result((seat,), "two_majorities",
                      lambda: f"{story()} Seat {seat} holds the majority in {' and '.join(majorities[seat])} and wins.")

    holders = [seat for seat in seats if majorities[seat]]
    if not holders:
        return _most_in_total(seats, total, lambda: f"{story()} Nobody holds a majority, so all compare figures in "
                                                    f"total", "no_majority_total", "no_majority_shared")

    others = {seat: total[seat] - count[seat][majorities[seat][0]] for seat in holders}

    def compared() -> str:
        listing = ", ".join(f"seat {seat} {others[seat]} outside {majorities[seat][0]}" for seat in holders)
        return (f"{story()} Nobody holds two majorities, so players without one are out and the holders compare "
                f"their other figures: {listing}.")

    best = max(others.values())
    leading = [seat for seat in holders if others[seat] == best]
    if len(leading) == 1:
        return Result((leading[0],), "other_figures", lambda: f"{compared()} Seat {leading[0]} has the most and wins.")
    return _most_in_total(leading, total, lambda: f"{compared()} Tied, so seats {seats_text(leading)} compare figures "
                                                  f"in total", "total_figures", "shared_win")


def _most_in_total(seats: list[int], total: Mapping[int, int], story: Callable[[], str], reason: str,
                   shared_reason: str) -> Result:
    best = max(total[seat] for seat in seats)
    winners = tuple(seat for seat in seats if total[seat] == best)

    def compared() -> str:
        listing = ", ".join(f"seat {seat} {total[seat]}" for seat in seats)
        return f"{story()} ({listing}): "

    if len(winners) == 1:
        return Result(winners, reason, lambda: f"{compared()}seat {winners[0]} has the most and wins.")
    return Result(winners, shared_reason, lambda: f"{compared()}seats {seats_text(winners)} tie and share the win.")

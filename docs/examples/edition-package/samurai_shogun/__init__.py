"""Shogun: an example Samurai edition shipped as its own package.

The package registers this module under the engine's ``samurai`` entry-point
group (see its pyproject.toml). It contributes its manifest
(``samurai_edition_manifests``) and one deciding hook, the scoring: the most
captured figures in all win; a tie is broken by FFG 2015's Leader tokens
among the tied players; still tied, they share the win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.result import Result, seats_text
from samurai_plugins.knizia.core.tiles import CASTES

MANIFEST = Path(__file__).with_name("shogun.toml")


@hookimpl
def samurai_edition_manifests() -> Sequence[Path]:
    """The Shogun manifest, shipped inside this package."""
    return [MANIFEST]


@hookimpl
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result:
    """Most figures in all; ties broken by Leader tokens among the tied; then a shared win.

    The manifest extends ffg2015, so this hook is asked before FFG 2015's own scoring.
    """
    totals = {seat: sum(figures.values()) for seat, figures in captured.items()}
    best = max(totals.values())
    tied = [seat for seat, total in totals.items() if total == best]
    if len(tied) == 1:
        return Result((tied[0],), "most_figures",
                      f"Seat {tied[0]} captured the most figures ({best}) and rules Japan as Shogun.")
    tokens = {seat: 0 for seat in tied}
    for caste in CASTES:
        counts = {seat: captured[seat].get(caste, 0) for seat in tied}
        top = max(counts.values())
        leaders = [seat for seat, count in counts.items() if count == top]
        if len(leaders) == 1:
            tokens[leaders[0]] += 1
    most = max(tokens.values())
    winners = tuple(sorted(seat for seat, count in tokens.items() if count == most))
    if len(winners) == 1:
        return Result(winners, "leader_tokens",
                      f"Seats {seats_text(tied)} tied with {best} figures; seat {winners[0]} holds the most "
                      f"Leader tokens among them ({most}) and wins.")
    return Result(winners, "shared", f"Seats {seats_text(winners)} tied on figures ({best}) and on Leader "
                  f"tokens ({most}): they share the win.")

"""The FFG 2015 edition of Samurai: the reference edition (seed 000; RULES.md FFG 2015 column).

- Setup (seed 000 §1): each seat secretly chooses its five starting tiles,
  the other fifteen become its stack; Edo gets one figure of each caste; then
  from seat 0 players in turn place one figure at a time, all cities first
  (two different castes each), then villages.
- Surrounds resolve at the end of the turn, after all of its tiles (§5).
- The end is checked after the whole turn: placement, capture, refill (§7).
- Captured figures stay hidden behind screens (§7).
- Scoring with Leader tokens (§8-9), below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from samurai.editions import EditionManifest
from samurai.hookspecs import hookimpl
from samurai.result import Result, seats_text
from samurai.setup_rules import SetupProcedure
from samurai.tiles import CASTES

__all__ = ["score_leader_tokens", "FIGURE_STAGES"]

FIGURE_STAGES = (("city",), ("village",))
"""Cities are filled before villages (seed 000 §1)."""


@hookimpl
def samurai_setup_procedure(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> SetupProcedure:
    """Hands first, then figures: Edo prefilled, cities, then villages (seed 000 §1).

    Options ``starting_hands`` and ``figure_distribution`` ("choose" or
    "random") select the beginner setup: "Random hands and distribution are
    a separate beginner setup" (seed 000 §1; editions/ffg2015-beginner.toml).
    """
    return SetupProcedure(order=("hands", "figures"), hands=str(options.get("starting_hands", "choose")),
                          figures=str(options.get("figure_distribution", "choose")),
                          figure_stages=FIGURE_STAGES, prefilled=("capital",),
                          first_player=int(options.get("first_player", 0)))


@hookimpl
def samurai_resolution_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """At the end of a turn, after all of its tiles (seed 000 §5)."""
    return "end_of_turn"


@hookimpl
def samurai_end_check_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """After placement, capture and refill; no extra round (seed 000 §7)."""
    return "end_of_turn"


@hookimpl
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool:
    """Captured figures go behind each player's screen (seed 000 §7)."""
    return False


@hookimpl
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result:
    """Leader-token scoring (seed 000 §8-9)."""
    return score_leader_tokens(captured)


def score_leader_tokens(captured: Mapping[int, Mapping[str, int]]) -> Result:
    """Decide the winner with Leader tokens (seed 000 §8-9; RULES.md "FFG 2015 scoring").

    1. For each caste the unique highest count earns its Leader token; a tie gives none.
    2. More tokens than every opponent wins.
    3. Leaders tied on tokens (each holding exactly one) set aside their own
       token's caste and compare the other two; then all three; then share.
       Players without a token are out of that comparison.
    4. Nobody holds a token: everyone compares total figures; a tie is shared.
    """
    seats = sorted(captured)
    count = {seat: {caste: int(captured[seat].get(caste, 0)) for caste in CASTES} for seat in seats}
    total = {seat: sum(count[seat].values()) for seat in seats}
    story = []
    tokens: dict[int, list[str]] = {seat: [] for seat in seats}
    for caste in CASTES:
        best = max(count[seat][caste] for seat in seats)
        top = [seat for seat in seats if count[seat][caste] == best]
        if len(top) == 1:
            tokens[top[0]].append(caste)
            story.append(f"seat {top[0]} leads {caste} with {best} and takes its Leader token")
        else:
            story.append(f"{caste} is tied at {best} between seats {seats_text(top)}, so nobody takes its token")
    text = _sentence("; ".join(story))

    if not any(tokens.values()):
        best_total = max(total.values())
        winners = tuple(seat for seat in seats if total[seat] == best_total)
        listing = ", ".join(f"seat {seat} {total[seat]}" for seat in seats)
        if len(winners) == 1:
            return Result(winners, "no_tokens_total",
                          f"{text} Nobody holds a Leader token, so all compare total figures ({listing}): "
                          f"seat {winners[0]} wins.")
        return Result(winners, "no_tokens_shared",
                      f"{text} Nobody holds a Leader token, so all compare total figures ({listing}): "
                      f"seats {seats_text(winners)} tie and share the win.")

    most = max(len(t) for t in tokens.values())
    leaders = [seat for seat in seats if len(tokens[seat]) == most]
    if len(leaders) == 1:
        winner = leaders[0]
        return Result((winner,), "most_leader_tokens",
                      f"{text} Seat {winner} holds {most} Leader token{'s' if most > 1 else ''}, more than "
                      f"every opponent, and wins.")

    others = {seat: total[seat] - sum(count[seat][c] for c in tokens[seat]) for seat in leaders}
    listing = ", ".join(f"seat {seat} {others[seat]} (without {'/'.join(tokens[seat])})" for seat in leaders)
    text += (f" Seats {seats_text(leaders)} hold {most} token{'s' if most > 1 else ''} each; each sets aside its own "
             f"token's caste and compares the rest: {listing}.")
    best_other = max(others.values())
    contenders = [seat for seat in leaders if others[seat] == best_other]
    if len(contenders) == 1:
        return Result((contenders[0],), "other_castes", f"{text} Seat {contenders[0]} wins.")

    listing = ", ".join(f"seat {seat} {total[seat]}" for seat in contenders)
    text += f" Still tied, so seats {seats_text(contenders)} compare all three castes: {listing}."
    best_total = max(total[seat] for seat in contenders)
    winners = tuple(seat for seat in contenders if total[seat] == best_total)
    if len(winners) == 1:
        return Result(winners, "all_castes", f"{text} Seat {winners[0]} wins.")
    return Result(winners, "shared_win", f"{text} Still tied: seats {seats_text(winners)} share the win.")



def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."

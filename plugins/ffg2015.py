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
    count: dict[int, dict[str, int]] = {}
    total: dict[int, int] = {}
    tokens: dict[int, list[str]] = {}
    for seat in seats:
        held = captured[seat]
        count[seat] = row = {caste: int(held.get(caste, 0)) for caste in CASTES}
        total[seat] = sum(row.values())
        tokens[seat] = []
    leads = []
    for caste in CASTES:
        first = seats[0]
        best, top = count[first][caste], [first]  # the highest count of the caste and the seats holding it
        for seat in seats[1:]:
            held_count = count[seat][caste]
            if held_count > best:
                best, top = held_count, [seat]
            elif held_count == best:
                top.append(seat)
        if len(top) == 1:
            tokens[top[0]].append(caste)
        leads.append((caste, best, top))

    # The explanation is written only when read (playouts never read it): each step's text is a function.
    def story() -> str:
        return _sentence("; ".join(
            f"seat {top[0]} leads {caste} with {best} and takes its Leader token" if len(top) == 1 else
            f"{caste} is tied at {best} between seats {seats_text(top)}, so nobody takes its token"
            for caste, best, top in leads))

    if not any(tokens.values()):
        best_total = max(total.values())
        winners = tuple(seat for seat in seats if total[seat] == best_total)

        def compared() -> str:
            listing = ", ".join(f"seat {seat} {total[seat]}" for seat in seats)
            return f"{story()} Nobody holds a Leader token, so all compare total figures ({listing}): "

        if len(winners) == 1:
            return Result(winners, "no_tokens_total", lambda: f"{compared()}seat {winners[0]} wins.")
        return Result(winners, "no_tokens_shared",
                      lambda: f"{compared()}seats {seats_text(winners)} tie and share the win.")

    most = max(len(t) for t in tokens.values())
    leaders = [seat for seat in seats if len(tokens[seat]) == most]
    if len(leaders) == 1:
        winner = leaders[0]
        return Result((winner,), "most_leader_tokens",
                      lambda: f"{story()} Seat {winner} holds {most} Leader token{'s' if most > 1 else ''}, more "
                              f"than every opponent, and wins.")

    others = {seat: total[seat] - sum(count[seat][c] for c in tokens[seat]) for seat in leaders}

    def set_aside() -> str:
        listing = ", ".join(f"seat {seat} {others[seat]} (without {'/'.join(tokens[seat])})" for seat in leaders)
        return (f"{story()} Seats {seats_text(leaders)} hold {most} token{'s' if most > 1 else ''} each; each sets "
                f"aside its own token's caste and compares the rest: {listing}.")

    best_other = max(others.values())
    contenders = [seat for seat in leaders if others[seat] == best_other]
    if len(contenders) == 1:
        return Result((contenders[0],), "other_castes", lambda: f"{set_aside()} Seat {contenders[0]} wins.")

    def all_castes() -> str:
        listing = ", ".join(f"seat {seat} {total[seat]}" for seat in contenders)
        return f"{set_aside()} Still tied, so seats {seats_text(contenders)} compare all three castes: {listing}."

    best_total = max(total[seat] for seat in contenders)
    winners = tuple(seat for seat in contenders if total[seat] == best_total)
    if len(winners) == 1:
        return Result(winners, "all_castes", lambda: f"{all_castes()} Seat {winners[0]} wins.")
    return Result(winners, "shared_win",
                  lambda: f"{all_castes()} Still tied: seats {seats_text(winners)} share the win.")


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."

"""The FFG 2015 edition of Samurai: the reference edition (docs/rules/samurai.md#edition-differences).

- Setup (docs/rules/samurai.md#setting-up): each seat secretly chooses its five starting tiles,
  the other fifteen become its stack; Edo gets one figure of each caste; then
  from seat 0 players in turn place one figure at a time, all cities first
  (two different castes each), then villages.
- Surrounds resolve at the end of the turn, after all of its tiles (docs/rules/samurai.md#resolution-timing).
- The end is checked after the whole turn: placement, capture, refill
  (docs/rules/samurai.md#end-check).
- Captured figures stay hidden behind screens (docs/rules/samurai.md#hidden-information).
- Scoring with Leader tokens (docs/rules/samurai.md#ffg2015-scoring), below.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from samurai.catalog.manifests import EditionManifest
from samurai.hooks.specs import hookimpl
from samurai_plugins.knizia.core.result import Result, seats_text
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.native_scoring import native_scoring
from samurai_plugins.knizia.editions.setup import SetupProcedure

__all__ = ["score_leader_tokens", "FIGURE_STAGES"]

FIGURE_STAGES = (("city",), ("village",))
"""Cities are filled before villages (docs/rules/samurai.md#figure-setup)."""


@hookimpl
def samurai_setup_procedure(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> SetupProcedure:
    """Hands first, then figures: Edo prefilled, cities, then villages (docs/rules/samurai.md#setup-order).

    Options ``starting_hands`` and ``figure_distribution`` ("choose" or
    "random") select the beginner setup: "Random hands and distribution are
    a separate beginner setup" (docs/rules/samurai.md#beginner-setup; editions/ffg2015-beginner.toml).
    """
    return SetupProcedure(order=("hands", "figures"), hands=str(options.get("starting_hands", "choose")),
                          figures=str(options.get("figure_distribution", "choose")),
                          figure_stages=FIGURE_STAGES, prefilled=("capital",),
                          first_player=int(options.get("first_player", 0)))


@hookimpl
def samurai_resolution_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """At the end of a turn, after all of its tiles (docs/rules/samurai.md#resolution-timing)."""
    return "end_of_turn"


@hookimpl
def samurai_end_check_timing(edition: EditionManifest, options: Mapping[str, Any]) -> str:
    """After placement, capture and refill; no extra round (docs/rules/samurai.md#end-check)."""
    return "end_of_turn"


@hookimpl
def samurai_public_captures(edition: EditionManifest, players: int, options: Mapping[str, Any]) -> bool:
    """Captured figures go behind each player's screen (docs/rules/samurai.md#hidden-information)."""
    return False


@hookimpl
@native_scoring("leader_tokens")
def samurai_score(edition: EditionManifest, captured: Mapping[int, Mapping[str, int]],
                  options: Mapping[str, Any]) -> Result:
    """Leader-token scoring (docs/rules/samurai.md#ffg2015-scoring)."""
    return score_leader_tokens(captured)


def score_leader_tokens(captured: Mapping[int, Mapping[str, int]]) -> Result:
    """Decide the winner with Leader tokens (docs/rules/samurai.md#ffg2015-scoring).

    1. For each caste the unique highest count earns its Leader token; a tie gives none.
    2. More tokens than every opponent wins.
    3. Leaders tied on tokens (each holding exactly one) set aside their own
       token's caste and compare the other two; then all three; then share.
       Players without a token are out of that comparison.
    4. Nobody holds a token: everyone compares total figures; a tie is shared.
    """
    seats = sorted(captured)
    buddha, rice, castle = CASTES
    rows = []
    for seat in seats:
        held = captured[seat]
        rows.append((int(held.get(buddha, 0)), int(held.get(rice, 0)), int(held.get(castle, 0))))
    winners, reason = _leader_token_winners(seats, rows)  # the same steps as _leader_tokens, without the text
    # The explanation is written only when read (playouts never read it), by the same steps.
    return Result(winners, reason, partial(_leader_tokens_explanation, seats, rows))


def _leader_tokens_explanation(seats: list[int], rows: list[tuple[int, int, int]]) -> str:
    return _leader_tokens(seats, rows)[2]


def _leader_tokens(seats: list[int], rows: list[tuple[int, int, int]]) -> tuple[tuple[int, ...], str, str]:
    """The winners, the reason code and the explanation of ``score_leader_tokens``.

    ``rows[i]`` holds the figures of seat ``seats[i]`` by caste (``CASTES`` order); seats are
    compared by position in these lists, and named by their number in the text.
    """
    totals = [sum(row) for row in rows]
    tokens: list[list[int]] = [[] for _ in rows]  # the castes whose Leader token each seat takes
    steps = []
    for caste in range(3):
        best, top = rows[0][caste], [0]  # the highest count of the caste and the positions holding it
        for i in range(1, len(rows)):
            held = rows[i][caste]
            if held > best:
                best, top = held, [i]
            elif held == best:
                top.append(i)
        if len(top) == 1:
            tokens[top[0]].append(caste)
        steps.append(f"seat {seats[top[0]]} leads {CASTES[caste]} with {best} and takes its Leader token"
                     if len(top) == 1 else f"{CASTES[caste]} is tied at {best} between seats "
                     f"{seats_text([seats[i] for i in top])}, so nobody takes its token")
    text = _sentence("; ".join(steps))

    most = max(map(len, tokens))
    if not most:
        best_total = max(totals)
        winners = tuple(seat for seat, total in zip(seats, totals, strict=True) if total == best_total)
        listing = ", ".join(f"seat {seat} {total}" for seat, total in zip(seats, totals, strict=True))
        text = (f"{text} Nobody holds a Leader token, so all compare total figures ({listing}): "
                + (f"seat {winners[0]} wins." if len(winners) == 1
                   else f"seats {seats_text(winners)} tie and share the win."))
        return winners, "no_tokens_total" if len(winners) == 1 else "no_tokens_shared", text

    leaders = [i for i, held in enumerate(tokens) if len(held) == most]
    if len(leaders) == 1:
        winner = seats[leaders[0]]
        text = (f"{text} Seat {winner} holds {most} Leader token{'s' if most > 1 else ''}, more than every "
                f"opponent, and wins.")
        return (winner,), "most_leader_tokens", text

    others = {i: totals[i] - sum(rows[i][caste] for caste in tokens[i]) for i in leaders}
    listing = ", ".join(f"seat {seats[i]} {others[i]} (without {'/'.join(CASTES[c] for c in tokens[i])})"
                        for i in leaders)
    text = (f"{text} Seats {seats_text([seats[i] for i in leaders])} hold {most} token{'s' if most > 1 else ''} "
            f"each; each sets aside its own token's caste and compares the rest: {listing}.")
    best_other = max(others.values())
    contenders = [i for i in leaders if others[i] == best_other]
    if len(contenders) == 1:
        text = f"{text} Seat {seats[contenders[0]]} wins."
        return (seats[contenders[0]],), "other_castes", text

    listing = ", ".join(f"seat {seats[i]} {totals[i]}" for i in contenders)
    text = (f"{text} Still tied, so seats {seats_text([seats[i] for i in contenders])} compare all three "
            f"castes: {listing}.")
    best_total = max(totals[i] for i in contenders)
    winners = tuple(seats[i] for i in contenders if totals[i] == best_total)
    if len(winners) == 1:
        text = f"{text} Seat {winners[0]} wins."
        return winners, "all_castes", text
    text = f"{text} Still tied: seats {seats_text(winners)} share the win."
    return winners, "shared_win", text


def _leader_token_winners(seats: list[int], rows: list[tuple[int, int, int]]) -> tuple[tuple[int, ...], str]:
    """The winners and reason code of ``_leader_tokens`` by the same steps, without the text: plain loops, no
    comprehension or dictionary, as every random game scores once (``tests/test_ffg2015_scoring.py`` holds
    both to the same answers)."""
    count = len(rows)
    held_tokens = [0] * count  # how many Leader tokens each position takes
    holders = [-1, -1, -1]  # per caste, the position taking its token, or -1 for a tie
    for caste in 0, 1, 2:
        best, holder = rows[0][caste], 0
        for i in range(1, count):
            held = rows[i][caste]
            if held > best:
                best, holder = held, i
            elif held == best:
                holder = -1
        if holder >= 0:
            held_tokens[holder] += 1
            holders[caste] = holder
    most = max(held_tokens)
    if not most:  # nobody holds a token: total figures
        totals = list(map(sum, rows))
        best_total = max(totals)
        winners = []
        for i in range(count):
            if totals[i] == best_total:
                winners.append(seats[i])
        return tuple(winners), "no_tokens_total" if len(winners) == 1 else "no_tokens_shared"
    if held_tokens.count(most) == 1:
        return (seats[held_tokens.index(most)],), "most_leader_tokens"
    # Leaders tied on tokens compare the castes other than their own tokens', then all three.
    best_other = -1
    contenders: list[tuple[int, int]] = []  # (position, total) of the leaders with the most other figures
    for i in range(count):
        if held_tokens[i] == most:
            row = rows[i]
            total = other = row[0] + row[1] + row[2]
            for caste in 0, 1, 2:
                if holders[caste] == i:
                    other -= row[caste]
            if other > best_other or not contenders:
                best_other, contenders = other, [(i, total)]
            elif other == best_other:
                contenders.append((i, total))
    if len(contenders) == 1:
        return (seats[contenders[0][0]],), "other_castes"
    best_total = max(total for _, total in contenders)
    winners = [seats[i] for i, total in contenders if total == best_total]
    return tuple(winners), "all_castes" if len(winners) == 1 else "shared_win"


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."

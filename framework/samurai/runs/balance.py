"""Is an edition fair to every seat, at every player count? ``samurai balance``.

One edition (with the options given) is played at each player count asked for (``samurai.runs.paired``, one
setting: game ``i`` is game ``i`` of ``samurai simulate`` and ``compare`` at that player count), and every metric of
its game (``GameMeasures``: who wins, the first player's edge, shared wins, game length, how games end, the game's
own) is given with its 95% interval.

The verdict on the seats (``SEAT_TEST``): a seat of a fair game wins alone its par, 1 / players, of the games won
alone (a shared win or a draw favours nobody, so those games are left out of the count). Each seat's share is given
with its Wilson interval and tested against par with the two-sided score test (the test whose interval that is),
Holm-corrected over the seats of the player count (with two players the two shares are one number, one test): a
seat is *favoured* or *disfavoured beyond chance* when its adjusted p-value is below 5%. The wins are read from the
game's per-seat metrics ``win_rate_seat_K`` (the share of games seat K won alone), which both of the engine's games
and the protocol's measures give.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..catalog.editions import Edition
from ..catalog.trust import TrustLike
from ..errors import DataError
from ..files.writing import write_atomically
from .compare import _no_nan
from .executors import Executor
from .paired import (
    PairedFacts,
    PairedRun,
    SettingMetric,
    edition_of,
    plan_paired,
    play_paired,
    resume_paired,
    setting_metrics,
)
from .statistics import LEVEL, Estimate, holm, share_p_value, wilson_interval

__all__ = ["SEAT_TEST", "Balance", "BalanceReport", "SeatShare", "balance", "plan_balance", "resume_balance",
           "balance_of"]

SEAT_TEST = ("each seat's share of the games won alone against par (1 / players): a two-sided score test (its 95% "
             "interval is Wilson's), Holm-corrected over the seats of the player count at a 5% familywise level "
             "(with two players the two shares are one number: one test)")
"""The test behind "favoured beyond chance", in words (printed under the report, kept in the JSON)."""

_SEAT_METRIC = "win_rate_seat_"


@attrs.frozen
class SeatShare:
    """One seat's share of the games won alone at one player count, and the verdict of its test against par."""

    seat: int
    wins: int
    """The games the seat won alone."""
    share: Estimate
    """Its share of the games won alone, with its Wilson interval."""
    par: float
    p: float
    """The two-sided p-value of the share against par."""
    p_holm: float
    """The same, Holm-adjusted over the seats (with two players, the same: one test)."""

    @property
    def verdict(self) -> str:
        """``"favoured"``, ``"disfavoured"`` (beyond chance) or ``"within chance"``."""
        if self.p_holm >= LEVEL:
            return "within chance"
        return "favoured" if self.share.value > self.par else "disfavoured"

    def words(self) -> str:
        """``seat 0 wins 31.2% (29.0–33.5%)``."""
        s = self.share
        return f"seat {self.seat} wins {s.value:.1%} ({100 * s.low:.1f}–{s.high:.1%})"


@attrs.frozen
class BalanceReport:
    """One player count of a balance report: the game's metrics and the seats' verdicts."""

    players: int
    games: int
    metrics: tuple[SettingMetric, ...]
    """Every metric of the game, its estimate the only one of ``estimates``."""
    seats: tuple[SeatShare, ...]

    @property
    def won_alone(self) -> int:
        """The games some seat won alone."""
        return sum(seat.wins for seat in self.seats)

    @property
    def par(self) -> float:
        """A seat's fair share of the games won alone."""
        return 1.0 / self.players

    def verdict(self) -> str:
        """The verdict line: ``3 players: seat 0 wins 38.6% (35.6–41.7%) of the 893 games won alone (89% of 1000),
        par 33.3%: seat 0 is favoured beyond chance.``"""
        counted = (f"of the {self.won_alone} games won alone ({self.won_alone / self.games:.0%} of {self.games})"
                   if self.games else "of no games")
        beyond = [seat for seat in self.seats if seat.verdict != "within chance"]
        if not beyond:
            if not self.won_alone:
                return f"{self.players} players: no game was won alone, so the seats cannot be told apart."
            furthest = max(self.seats, key=lambda seat: (abs(seat.share.value - seat.par), -seat.seat))
            return (f"{self.players} players: no seat is favoured or disfavoured beyond chance; the furthest from "
                    f"par {self.par:.1%}: {furthest.words()} {counted}.")
        first, *others = beyond
        line = (f"{self.players} players: {first.words()} {counted}, par {self.par:.1%}: seat {first.seat} is "
                f"{first.verdict} beyond chance")
        if self.players == 2:  # the other seat is the mirror image
            return line + "."
        for seat in others:
            line += f"; {seat.words()}: seat {seat.seat} is {seat.verdict} beyond chance"
        return line + "."


@attrs.frozen
class Balance:
    """The outcome of ``balance``: the run's parameters and a report per player count."""

    edition: str
    game: str
    options: dict[str, Any]
    """The options set (the others are the edition's defaults)."""
    players: tuple[int, ...]
    games: int
    seed: int
    bots: tuple[str, ...]
    reports: tuple[BalanceReport, ...]

    def name(self) -> str:
        """``"ffg2015"`` or ``"ffg2015 (removed_to_end=6)"``: the edition with its options."""
        chosen = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.edition} ({chosen})" if chosen else self.edition

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the parameters, the test, and per player count the verdict, the seats and every
        metric."""
        return {
            "command": "balance", "edition": self.edition, "game": self.game, "options": dict(self.options),
            "players": list(self.players), "games": self.games, "seed": self.seed, "bots": list(self.bots),
            "test": SEAT_TEST, "level": LEVEL,
            "reports": [{"players": report.players, "games": report.games, "won_alone": report.won_alone,
                         "par": report.par, "verdict": report.verdict(),
                         "seats": [{"seat": seat.seat, "wins_alone": seat.wins, "share": seat.share.to_dict(),
                                    "p": seat.p, "p_holm": seat.p_holm, "verdict": seat.verdict}
                                   for seat in report.seats],
                         "metrics": [{"name": m.name, "label": m.label, "kind": m.kind,
                                      "estimate": _only(m).to_dict(), "note": m.note} for m in report.metrics]}
                        for report in self.reports]}

    def write_json(self, path: str | Path) -> None:
        """Write ``to_dict()`` as JSON (NaN, for a rate over no games, is written as null)."""
        write_atomically(path, json.dumps(_no_nan(self.to_dict()), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """One row per player count and metric (its estimate and interval), then one per player count and seat
        (its share of the games won alone, par, p-values and verdict)."""
        out = io.StringIO(newline="")
        writer = csv.writer(out)
        writer.writerow(["players", "row", "name", "label", "kind", "value", "low", "high", "n", "par", "p",
                         "p_holm", "verdict"])
        for report in self.reports:
            for m in report.metrics:
                e = _only(m)
                writer.writerow([report.players, "metric", m.name, m.label, m.kind, e.value, e.low, e.high, e.n,
                                 "", "", "", ""])
            for seat in report.seats:
                s = seat.share
                writer.writerow([report.players, "seat", f"seat_{seat.seat}",
                                 f"seat {seat.seat}'s share of the games won alone", "rate", s.value, s.low, s.high,
                                 s.n, seat.par, seat.p, seat.p_holm, seat.verdict])
        write_atomically(path, out.getvalue())  # the whole table, or nothing


def _only(metric: SettingMetric) -> Estimate:
    """A balance metric's estimate (a balance plays one setting)."""
    estimate = metric.estimates[0]
    assert estimate is not None
    return estimate


def plan_balance(edition: Edition, *, options: Mapping[str, Any] | None = None,
                 players: Sequence[int] | None = None, games: int = 1000, seed: int = 1,
                 bots: Sequence[str] = ("random",)) -> PairedRun:
    """The balance run of ``edition`` with ``options``, checked before anything starts (``DataError`` in one line
    naming the argument)."""
    return plan_paired("balance", edition, settings=[dict(options or {})], players=players, games=games, seed=seed,
                       bots=bots)


def balance(edition: str | Edition, *, options: Mapping[str, Any] | None = None,
            players: Sequence[int] | None = None, games: int = 1000, seed: int = 1,
            bots: Sequence[str] = ("random",), workers: int = 1, backend: str = "local",
            scheduler: str | None = None, executor: Executor | None = None, save_dir: str | Path | None = None,
            progress: Callable[[int], None] | None = None) -> Balance:
    """The balance report of ``edition`` (an id, a manifest path or a loaded edition) with ``options``: ``games``
    games at each of ``players`` (default: every count its game allows), every metric of the game with its 95%
    interval and a verdict on the seats (``SEAT_TEST``).

    The executor arguments, ``save_dir`` and ``progress`` are ``samurai.runs.paired.play_paired``'s: the result is
    the same on every backend and for any number of workers, and a run cut short resumes (``resume_balance``).
    """
    chosen = edition_of(edition)
    run = plan_balance(chosen, options=options, players=players, games=games, seed=seed, bots=bots)
    return balance_of(play_paired(chosen, run, save_dir=save_dir, progress=progress, workers=workers,
                                  backend=backend, scheduler=scheduler, executor=executor))


def resume_balance(folder: str | Path, *, trust: TrustLike = (), progress: Callable[[int], None] | None = None,
                   executor: Executor | None = None) -> Balance:
    """Carry on the balance run saved in ``folder`` (``balance(..., save_dir=folder)``) that was cut short; the
    report the whole run would have given."""
    return balance_of(resume_paired(folder, "balance", trust=trust, progress=progress, executor=executor))


def balance_of(paired: PairedFacts) -> Balance:
    """The balance report of a finished paired run of one setting."""
    run = paired.run
    if len(run.settings) != 1:
        raise ValueError(f"a balance report plays one setting, not {len(run.settings)}")
    reports = []
    for players in run.players:
        metrics = tuple(setting_metrics(paired, players))
        reports.append(BalanceReport(players, run.games, metrics, _seats(metrics, players, paired.edition)))
    return Balance(run.edition, paired.edition.game.name, dict(run.settings[0]), run.players, run.games, run.seed,
                   run.bots, tuple(reports))


def _seats(metrics: Sequence[SettingMetric], players: int, edition: Edition) -> tuple[SeatShare, ...]:
    """Each seat's share of the games won alone, tested against par, from the game's ``win_rate_seat_K``."""
    by_name = {m.name: m for m in metrics}
    wins = []
    for seat in range(players):
        metric = by_name.get(f"{_SEAT_METRIC}{seat}")
        if metric is None or metric.kind != "rate":
            raise DataError(f"the game {edition.game.name!r} measures no {_SEAT_METRIC}{seat} (the share of games "
                            f"seat {seat} won alone), so its seats cannot be judged", source=edition.manifest.path)
        estimate = _only(metric)
        wins.append(round(estimate.value * estimate.n))
    alone = sum(wins)
    par = 1.0 / players
    p_values = [share_p_value(count, alone, par) for count in wins]
    # Two seats' shares are one number (one is 1 minus the other): one test, nothing to correct.
    adjusted = holm(p_values) if players > 2 else p_values
    return tuple(SeatShare(seat, count, wilson_interval(count, alone), par, p, p_holm)
                 for seat, (count, p, p_holm) in enumerate(zip(wins, p_values, adjusted, strict=True)))

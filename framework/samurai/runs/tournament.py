"""Tournaments between bots: a seat-balanced schedule, win rates with intervals and ratings.

Which games are played:

- A **table** is a group of ``players`` bots: every distinct group of that
  many entries drawn from the bots list. Name a bot twice to seat it twice at
  one table (``medium,greedy,greedy,greedy`` with 4 players is one table: one
  medium among three greedy). Tables where every seat is the same bot are left
  out: they say nothing about who is stronger.
- A table is played in **rounds**. A round plays the table once in every
  distinct seat order (every permutation of its bots: 2 for a pairing, 6 for
  three different bots, 24 for four, 4 for one bot among three copies of
  another), all on the same deal (the same game seed). So each bot sits in
  each seat equally often, follows each other bot equally often, and meets the
  same luck of the draw from every seat. ``games`` is games per table and must
  be a multiple of the table's seat orders.
- Round ``r`` (numbered across the whole tournament, in schedule order) is
  dealt with seed ``derive_seed(seed, r)``; the bot in seat ``s`` of a game is
  ``make_bot(name, derive_seed(game seed, s), game)``. Games are numbered in
  schedule order and results are kept in that order, so the numbers are the
  same for any number of worker processes. (Bots with a time budget,
  ``mcts:1.5s``, decide by the clock and so depend on the machine's load;
  the levels and ``mcts:N`` count simulations.)

Every game is played through the game protocol only (``samurai.protocol``):
``state.apply(bot.act(state.knowledge(seat)))`` until it is over.

What is reported: each bot's win rate (shared wins split: a win shared by
``k`` counts ``1/k``) per player count and per table, with Wilson 95%
intervals; and Bradley-Terry ratings fitted on every game, with 95% intervals
from a bootstrap that resamples rounds within their table (``samurai.runs.ratings``).
"""

from __future__ import annotations

import csv
import functools
import io
import itertools
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..catalog.editions import Edition, load_edition
from ..errors import DataError, IllegalAction
from ..files.writing import write_atomically
from ..search.bots import make_bot
from ..seeds import derive_seed
from .executors import Executor, make_executor
from .folders import batches_of
from .matches import check_bots_play
from .ratings import Rating, rate
from .statistics import Estimate, wilson_interval

__all__ = ["Table", "ScheduledGame", "GameOutcome", "Standing", "TournamentResult", "schedule", "tournament",
           "play_one", "print_tournament"]

DEFAULT_BOOTSTRAP = 1000
"""Bootstrap replicates behind the rating intervals."""


@attrs.frozen
class Table:
    """A group of bots that play one another, and every distinct order in which they can be seated."""

    players: int
    bots: tuple[str, ...]
    """The bots at the table, in the order of the bots list (a bot named twice sits twice)."""
    seatings: tuple[tuple[str, ...], ...]
    """Every distinct seat order, each played once per round."""

    @property
    def label(self) -> str:
        """``"random vs greedy"``; ``"medium vs 3 greedy"`` for a bot seated three times."""
        counts = Counter(self.bots)
        return " vs ".join(f"{counts[bot]} {bot}" if counts[bot] > 1 else bot for bot in counts)


@attrs.frozen
class ScheduledGame:
    """One game of the schedule: its number, table, round (which names its deal) and seat order."""

    index: int
    table: int
    round: int
    seating: tuple[str, ...]


@attrs.frozen
class GameOutcome:
    """How one game of a tournament went: who sat where and each seat's return."""

    index: int
    table: int
    round: int
    seed: int
    seating: tuple[str, ...]
    returns: tuple[float, ...]
    """1 for a sole win, 1/k for each of k sharing a win, 0 for a loss."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"index": self.index, "table": self.table, "round": self.round, "seed": self.seed,
                "seating": list(self.seating), "returns": list(self.returns)}


@attrs.frozen
class Standing:
    """A bot's results over a set of games; a bot seated ``k`` times in a game counts ``k`` games."""

    bot: str
    games: int
    wins: int
    """Sole wins."""
    shared_wins: int
    score: float
    """Sole wins plus each shared win's share."""
    rate: Estimate
    """``score / games`` with its Wilson 95% interval."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"bot": self.bot, "games": self.games, "wins": self.wins, "shared_wins": self.shared_wins,
                "score": self.score, "rate": self.rate.value, "low": self.rate.low, "high": self.rate.high}


def schedule(bots: Sequence[str], player_counts: Sequence[int], games: int) -> tuple[list[Table],
                                                                                     list[ScheduledGame]]:
    """The tables for each player count and every game, in the order they are numbered.

    Raises ``DataError`` when a player count needs more bots than the list
    names, when fewer than two different bots are named, or when ``games``
    does not split evenly over a table's seat orders.
    """
    if len(set(bots)) < 2:
        raise DataError("a tournament needs at least two different bots", source="--bots")
    if games < 1:
        raise DataError(f"games must be at least 1, not {games}", source="--games")
    order = {name: position for position, name in reversed(list(enumerate(bots)))}
    tables: list[Table] = []
    for players in player_counts:
        if players > len(bots):
            raise DataError(f"{players} players need at least {players} bots in the list, not {len(bots)} (name a "
                            f"bot more than once to seat it more than once, e.g. medium,greedy,greedy,greedy)",
                            source="--bots")
        groups = {tuple(sorted((bots[i] for i in chosen), key=order.__getitem__))
                  for chosen in itertools.combinations(range(len(bots)), players)}
        for group in sorted(groups, key=lambda g: [order[name] for name in g]):
            if len(set(group)) > 1:
                tables.append(Table(players, group, tuple(sorted(set(itertools.permutations(group)),
                                                                 key=lambda s: [order[name] for name in s]))))
    for table in tables:
        if games % len(table.seatings):
            lower = games - games % len(table.seatings)
            suggestion = f"{lower} or {lower + len(table.seatings)}" if lower else f"{len(table.seatings)}"
            raise DataError(f"{games} games do not split evenly over the {len(table.seatings)} seat orders of the "
                            f"{table.players}-player table {table.label}; use a multiple, e.g. {suggestion}",
                            source="--games")
    played: list[ScheduledGame] = []
    rounds = 0
    for number, table in enumerate(tables):
        for _ in range(games // len(table.seatings)):
            for seating in table.seatings:
                played.append(ScheduledGame(len(played), number, rounds, seating))
            rounds += 1
    return tables, played


@attrs.frozen
class TournamentResult:
    """A finished tournament: its parameters, every game, the ratings, and the standings derived from them."""

    edition: str
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    player_counts: tuple[int, ...]
    games_per_table: int
    seed: int
    anchor: str
    bootstrap: int
    tables: tuple[Table, ...]
    games: tuple[GameOutcome, ...]
    ratings: tuple[Rating, ...]
    """Best first."""
    seconds: float
    """Wall-clock time of the games (not part of the results: it varies from run to run)."""
    workers: int
    cpu_seconds: float
    """Processor time of the games summed over the workers (what the run costs, whatever else the machine does)."""

    def standings(self, players: int | None = None, table: int | None = None) -> list[Standing]:
        """Each bot's results in the games with ``players`` seats, or at one table, best rating first."""
        chosen = [g for g in self.games if (players is None or len(g.seating) == players)
                  and (table is None or g.table == table)]
        return _standings(chosen, [r.bot for r in self.ratings])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: parameters, ratings, win rates by player count and by table, and every game."""
        return {
            "edition": self.edition, "options": dict(self.options), "bots": list(self.bots),
            "players": list(self.player_counts), "games_per_table": self.games_per_table, "seed": self.seed,
            "games": len(self.games), "seconds": self.seconds, "workers": self.workers,
            "cpu_seconds": self.cpu_seconds,
            "ratings": {"model": "Bradley-Terry by maximum likelihood, each winner beating each loser, shared "
                                 "wins as draws; 400 points = 10-to-1 odds",
                        "anchor": self.anchor,
                        "interval": f"95% percentile bootstrap, {self.bootstrap} replicates resampling rounds "
                                    "within tables, widened where needed to the Fisher-information interval",
                        "bots": [r.to_dict() for r in self.ratings]},
            "win_rates": [{"players": n, "par": 1 / n, "bots": [s.to_dict() for s in self.standings(players=n)]}
                          for n in self.player_counts],
            "tables": [{"table": number, "players": t.players, "bots": list(t.bots),
                        "seatings": [list(s) for s in t.seatings],
                        "games": sum(1 for g in self.games if g.table == number),
                        "standings": [s.to_dict() for s in self.standings(table=number)]}
                       for number, t in enumerate(self.tables)],
            "game_list": [g.to_dict() for g in self.games],
        }

    def write_json(self, path: str | Path) -> None:
        """Write ``to_dict()`` as JSON."""
        write_atomically(path, json.dumps(self.to_dict(), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """One row per seat of every game (long format, ready for a data frame)."""
        out = io.StringIO(newline="")
        writer = csv.writer(out)
        writer.writerow(["game", "players", "table", "round", "seed", "seat", "bot", "return", "won_alone"])
        for g in self.games:
            for seat, (bot, value) in enumerate(zip(g.seating, g.returns, strict=True)):
                writer.writerow([g.index, len(g.seating), self.tables[g.table].label, g.round, g.seed, seat, bot,
                                 value, int(value == 1.0)])
        write_atomically(path, out.getvalue())  # the whole table, or nothing


def _standings(games: Iterable[GameOutcome], order: Sequence[str]) -> list[Standing]:
    seats: dict[str, list[float]] = {}
    for g in games:
        for bot, value in zip(g.seating, g.returns, strict=True):
            seats.setdefault(bot, []).append(value)
    found = []
    for bot in sorted(seats, key=order.index):
        values = seats[bot]
        score = math.fsum(values)
        found.append(Standing(bot, len(values), sum(1 for v in values if v == 1.0),
                              sum(1 for v in values if 0 < v < 1), score, wilson_interval(score, len(values))))
    return found


@attrs.frozen
class _Task:
    edition: str
    options: dict[str, Any]
    game: ScheduledGame
    seed: int


@functools.lru_cache(maxsize=8)
def _edition(name: str) -> Edition:
    """Editions are loaded once per worker process, not once per game."""
    return load_edition(name)


def _play_task(task: _Task) -> tuple[GameOutcome, float]:
    """One game's outcome and the processor time it took."""
    game = task.game
    began = time.process_time()
    returns = play_one(_edition(task.edition), task.options, task.seed, game.seating)
    return GameOutcome(game.index, game.table, game.round, task.seed, game.seating, returns), \
        time.process_time() - began


def _play_tasks(tasks: list[_Task]) -> list[tuple[GameOutcome, float]]:
    """A batch of games (in any process, on any executor): each one's outcome and the processor time it took."""
    return [_play_task(task) for task in tasks]


def play_one(edition: Edition, options: Mapping[str, Any], seed: int, seating: Sequence[str]) -> tuple[float, ...]:
    """Play one game through the protocol between bots by seat; returns each seat's return."""
    state = edition.start(len(seating), seed, options)
    bots = [make_bot(name, derive_seed(seed, seat), edition.game) for seat, name in enumerate(seating)]
    checked = [not getattr(bot, "trusted", False) for bot in bots]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None  # a game that is not over has a seat to act
        action = bots[seat].act(state.knowledge(seat))
        if checked[seat]:
            reason = state.check(action)
            if reason is not None:
                raise IllegalAction(f"bot {seating[seat]!r} at seat {seat} chose {action}: {reason}")
        state.apply(action)
    return state.returns()


def tournament(bots: Sequence[str], *, players: Sequence[int] = (2,), games: int = 100, seed: int = 1,
               workers: int = 1, edition: str = "ffg2015", options: Mapping[str, Any] | None = None,
               bootstrap: int = DEFAULT_BOOTSTRAP, anchor: str | None = None,
               progress: Callable[[int], None] | None = None, backend: str = "local", scheduler: str | None = None,
               executor: Executor | None = None) -> TournamentResult:
    """Play a seat-balanced tournament (see the module docstring) and rate the bots.

    ``bots`` names bots as ``samurai.search.bots.make_bot`` knows them for the edition's game; ``games`` is
    games per table; ``anchor`` is the bot rated 0 (default: ``random`` when
    it plays, else the first bot). The games are played in batches
    (``samurai.runs.folders.batches_of``) on the executor ``backend`` (``"local"``
    worker processes, ``"dask"``, or one a plugin contributes; see
    ``samurai.runs.executors``) with ``workers`` workers, or on the Dask cluster at
    ``scheduler``, with the same results on every backend; ``executor`` (closed
    by the caller) plays on workers already started instead. ``progress(k)``
    is told how many games are done. Ctrl-C stops the workers and raises
    ``KeyboardInterrupt``.
    """
    names = check_bots_play(_edition(edition).game, bots)  # a bot made for another game is refused
    if workers < 1:
        raise DataError(f"workers must be at least 1, not {workers}", source="--workers")
    if bootstrap < 1:
        raise DataError(f"bootstrap must be at least 1, not {bootstrap}", source="--bootstrap")
    anchor = anchor if anchor is not None else "random" if "random" in names else names[0]
    if anchor not in names:
        raise DataError(f"the anchor {anchor!r} is not one of the bots ({', '.join(names)})", source="--anchor")
    chosen = dict(options or {})
    for count in players:
        _edition(edition).start(count, 0, chosen)  # refuse a player count or option before any game
    tables, scheduled = schedule(names, players, games)
    # Batches of a few games (one each for a short tournament): a search bot's game takes seconds, so the progress
    # bar moves and the workers finish together; sending a batch costs well under a millisecond locally.
    tasks = [_Task(edition, chosen, game, derive_seed(seed, game.round)) for game in scheduled]
    batches = [[tasks[i] for i in indices] for indices in batches_of(len(tasks))]
    began = time.perf_counter()
    results: list[GameOutcome] = []
    runner = make_executor(backend, workers=workers, scheduler=scheduler) if executor is None else executor
    try:
        cpu_seconds = _collect((played for batch in runner.map(_play_tasks, batches) for played in batch), results,
                               progress)
    finally:  # Ctrl-C, or a game that failed: the executor stops the other workers at once
        if executor is None:
            runner.close()
    seconds = time.perf_counter() - began
    results.sort(key=lambda g: g.index)
    rounds: dict[int, list[GameOutcome]] = {}
    for g in results:
        rounds.setdefault(g.round, []).append(g)
    blocks = list(rounds.values())
    ratings = rate([[(g.seating, g.returns) for g in block] for block in blocks], anchor=anchor,
                   strata=[block[0].table for block in blocks], replicates=bootstrap,
                   seed=derive_seed(seed, len(blocks)))  # the first number no deal uses
    ranked = sorted(ratings, key=lambda r: (-r.rating, names.index(r.bot)))
    return TournamentResult(edition, chosen, names, tuple(players), games, seed, anchor, bootstrap, tuple(tables),
                            tuple(results), tuple(ranked), seconds, workers, cpu_seconds)


def _collect(played: Iterable[tuple[GameOutcome, float]], results: list[GameOutcome],
             progress: Callable[[int], None] | None) -> float:
    """Gather the outcomes as they come; returns the processor time the games took."""
    cpu_seconds = 0.0
    for outcome, cpu in played:
        results.append(outcome)
        cpu_seconds += cpu
        if progress is not None:
            progress(len(results))
    return cpu_seconds


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{rest:02d}s" if hours else f"{minutes}m{rest:02d}s" if minutes else \
        f"{seconds:.1f}s"


def print_tournament(result: TournamentResult) -> None:
    """Rich tables: the ratings, and per player count each bot's win rate overall and at each table."""
    from rich.console import Console
    from rich.table import Table as RichTable

    def rate_text(estimate: Estimate) -> str:
        return f"{estimate.value:.1%} ({estimate.low:.1%}–{estimate.high:.1%})"

    console = Console()
    counts = ", ".join(map(str, result.player_counts))
    console.print(f"Tournament on {result.edition}, {counts} players: {len(result.tables)} tables × "
                  f"{result.games_per_table} games = {len(result.games)} games, seed {result.seed}, "
                  f"{_duration(result.seconds)} with {result.workers} worker{'s' if result.workers > 1 else ''} "
                  f"({_duration(result.cpu_seconds)} of processor time)")
    ratings = RichTable(title=f"Ratings ({result.anchor} = 0)")
    for column in ("#", "bot", "rating", "95% interval"):
        ratings.add_column(column, justify="left" if column == "bot" else "right")
    for rank, r in enumerate(result.ratings, 1):
        ratings.add_row(str(rank), r.bot, f"{r.rating:+.0f}", f"{r.low:+.0f} to {r.high:+.0f}")
    console.print(ratings)
    for n in result.player_counts:
        rates = RichTable(title=f"Win shares with {n} players (par {1 / n:.0%})")
        for column in ("table", "bot", "games", "won alone", "win share (95% CI)"):
            rates.add_column(column, justify="left" if column in ("table", "bot") else "right")
        numbers = [number for number, table in enumerate(result.tables) if table.players == n]
        if len(numbers) > 1:
            for k, s in enumerate(result.standings(players=n)):
                rates.add_row("all tables" if k == 0 else "", s.bot, str(s.games), f"{s.wins / s.games:.1%}",
                              rate_text(s.rate))
        for number in numbers:
            table = result.tables[number]
            if number != numbers[0] or len(numbers) > 1:
                rates.add_section()
            for k, s in enumerate(result.standings(table=number)):
                    rates.add_row(table.label if k == 0 else "", s.bot, str(s.games), f"{s.wins / s.games:.1%}",
                                  rate_text(s.rate))
        console.print(rates)
    console.print(f"Ratings: Bradley-Terry fitted on every game (each winner beats each loser), on Elo's scale; "
                  f"95% intervals from a bootstrap over rounds within tables ({result.bootstrap} replicates), at "
                  f"least as wide as the Fisher-information interval. Won alone: games won with nobody beside; "
                  f"win share: a win shared by k counts 1/k; "
                  f"Wilson 95% intervals; a bot seated k times at a table counts k games per game.")

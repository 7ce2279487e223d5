"""Knizia's game's own batch runner (its ``GameDefinition.simulate``): many seeded games between bots on the fast
engine, and their summary.

Game ``i`` of a run with seed ``s`` is played with seed ``derive_seed(s, i)``
and each seat's bot gets its own seed derived from the game's, so one game
can be replayed alone and two rule sets can be compared game by game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..catalog.cache import edition_named, keep_edition, loadable_name
from ..catalog.editions import Edition
from ..errors import DataError, IllegalAction
from ..runs.executors import Executor, make_executor
from ..runs.folders import batches_of, collect_batches, write_run
from ..runs.matches import Batch
from ..runs.summary import SummaryTable, share_rows
from ..search.bots import BOTS, RandomBot
from ..seeds import check_seed, derive_seed
from . import engine
from .editions import knizia_edition
from .knowledge import LeftGame
from .position import decide
from .records import GameRecord, record_of, write_record
from .result import END_REASONS
from .rules import Rules
from .seat_bots import make_bot, parse_bots
from .state import OVER, State, seeded_random
from .tiles import CASTES

__all__ = ["play_game", "play_out", "GameSummary", "SimulationSummary", "simulate", "cached_rules"]


def play_game(rules: Rules, seed: int, bots: Sequence[str], *, trace: bool = False,
              actions: list[tuple[int, ...]] | None = None, watch: Callable[[State], None] | None = None) -> State:
    """Play one game between bots (seat ``k`` gets ``bots[k % len(bots)]``) and return its final state.

    A bot's actions are checked unless it is marked ``trusted`` (the built-in
    bots only produce legal actions, which the property tests verify). When
    ``actions`` is a list, every action played is appended to it (for records).
    ``watch(state)`` is called before the first action and after each one.
    """
    return play_out(rules, engine.new_state(rules, seed, trace=trace), seed, bots, actions=actions, watch=watch)


def play_out(rules: Rules, st: State, seed: int, bots: Sequence[str], *,
             actions: list[tuple[int, ...]] | None = None, watch: Callable[[State], None] | None = None) -> State:
    """Play the game in ``st`` to its end between bots seeded from ``seed`` (see ``play_game``)."""
    names = [bots[seat % len(bots)] for seat in range(rules.players)]
    if all(isinstance(name, str) and BOTS.get(name) is RandomBot for name in names):
        # Random bots only: draw each action straight from the engine with the generator each seat's
        # RandomBot would hold (Random(derive_seed(seed, seat)), seeded the same without building the
        # bots), as RandomBot.act does from its knowledge (the sampler reads only what the seat may know).
        rngs = [seeded_random(derive_seed(seed, seat)) for seat in range(rules.players)]
        if watch is not None:
            watch(st)
        after = None
        if actions is not None or watch is not None:
            def after(action: tuple[int, ...]) -> None:
                if actions is not None:
                    actions.append(action)
                if watch is not None:
                    watch(st)
        engine.play_random(rules, st, rngs, after=after)
        return st
    players = [make_bot(name, derive_seed(seed, seat)) for seat, name in enumerate(names)]
    apply, check = engine.apply, engine.check
    if watch is not None:
        watch(st)
    checked = [not getattr(bot, "trusted", False) for bot in players]
    left_game = LeftGame()
    while st.phase != OVER:
        seat = st.current
        action = decide(players[seat], rules, st, seat, left_game)
        if checked[seat]:
            reason = check(rules, st, action)
            if reason is not None:
                raise IllegalAction(f"bot {players[seat].name!r} at seat {seat} chose {action}: {reason}")
        apply(rules, st, action)
        if actions is not None:
            actions.append(action)
        if watch is not None:
            watch(st)
    return st


@attrs.frozen
class GameSummary:
    """The numbers of one finished game."""

    seed: int
    winners: tuple[int, ...]
    reason: str
    end_reason: str
    turns: int
    tiles_played: int
    captured: tuple[tuple[int, ...], ...]
    """Per seat, figures captured of each caste (``CASTES`` order)."""
    removed: int

    @classmethod
    def of(cls, seed: int, st: State, players: int) -> GameSummary:
        """Summarise a finished game's state."""
        assert st.result is not None and st.end_reason is not None
        return cls(seed, st.result.winners, st.result.reason, st.end_reason, st.turn, st.tiles_played,
                   tuple(tuple(st.captured[s * 3:s * 3 + 3]) for s in range(players)), st.removed_total)


@attrs.frozen
class SimulationSummary:
    """What a run of games showed: wins by seat, shared wins, lengths and end reasons."""

    edition: str
    players: int
    seed: int
    bots: tuple[str, ...]
    """The bot at each seat."""
    games: tuple[GameSummary, ...]

    @property
    def wins(self) -> list[int]:
        """Games each seat won alone."""
        return [sum(1 for g in self.games if g.winners == (seat,)) for seat in range(self.players)]

    @property
    def shared_wins(self) -> list[int]:
        """Games each seat won together with others."""
        return [sum(1 for g in self.games if len(g.winners) > 1 and seat in g.winners)
                for seat in range(self.players)]

    @property
    def shared_games(self) -> int:
        """Games that ended in a shared win."""
        return sum(1 for g in self.games if len(g.winners) > 1)

    def end_reasons(self) -> dict[str, int]:
        """How many games ended for each reason."""
        return dict(Counter(g.end_reason for g in self.games).most_common())

    def win_reasons(self) -> dict[str, int]:
        """How many games were decided by each scoring step."""
        return dict(Counter(g.reason for g in self.games).most_common())

    def mean(self, field: str) -> float:
        """The mean of a per-game number (``"turns"``, ``"tiles_played"``, ``"removed"``)."""
        return sum(getattr(g, field) for g in self.games) / len(self.games) if self.games else 0.0

    def table(self) -> SummaryTable:
        """What ``samurai simulate`` prints of this run (``samurai.runs.summary.print_summary``)."""
        data = self.to_dict()
        games = data["games"]
        rows = tuple((str(seat["seat"]), seat["bot"], str(seat["wins"]), str(seat["shared_wins"]),
                      f"{seat['win_rate']:.1%}") for seat in data["seats"])
        turns = data["turns"]
        figures = [("shared wins", f"{data['shared_games']} games ({data['shared_games'] / games:.1%})"),
                   ("turns", f"mean {turns['mean']:.1f} (min {turns['min']}, max {turns['max']})"),
                   ("tiles played", f"mean {data['tiles_played']['mean']:.1f}"),
                   ("figures removed by ties", f"mean {data['removed_by_ties']['mean']:.2f}"),
                   *share_rows("ended", {END_REASONS.get(r, r): n for r, n in data["end_reasons"].items()}, games),
                   *share_rows("decided by", {r.replace("_", " "): n for r, n in data["win_reasons"].items()}, games)]
        return SummaryTable(f"Samurai {data['edition']}: {data['players']} players, {games} games, seed {data['seed']}",
                            ("seat", "bot", "wins", "shared wins", "win rate"), rows, tuple(figures))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the summary (without the per-game list)."""
        n = len(self.games)
        turns = [g.turns for g in self.games]
        return {
            "edition": self.edition, "players": self.players, "games": n, "seed": self.seed,
            "seats": [{"seat": s, "bot": self.bots[s], "wins": w, "shared_wins": sw,
                       "win_rate": w / n if n else 0.0}
                      for s, (w, sw) in enumerate(zip(self.wins, self.shared_wins, strict=False))],
            "shared_games": self.shared_games,
            "turns": {"mean": self.mean("turns"), "min": min(turns, default=0), "max": max(turns, default=0)},
            "tiles_played": {"mean": self.mean("tiles_played")},
            "removed_by_ties": {"mean": self.mean("removed")},
            "captured": {caste: sum(sum(g.captured[s][c] for s in range(self.players)) for g in self.games) / n
                         if n else 0.0 for c, caste in enumerate(CASTES)},
            "end_reasons": self.end_reasons(),
            "win_reasons": self.win_reasons(),
        }


def simulate(edition: Edition, players: int, games: int, seed: int, bots: Sequence[str], *,
             options: dict[str, Any] | None = None, progress: Callable[[int], None] | None = None,
             save_dir: str | Path | None = None, workers: int = 1, backend: str = "local",
             scheduler: str | None = None, executor: Executor | None = None) -> SimulationSummary:
    """Play ``games`` games and summarise them; ``progress(k)`` is told how many games are done.

    The games are played in batches (``batches_of``) on the executor ``backend``
    (``"local"`` worker processes, ``"dask"``, or one a plugin contributes;
    see ``samurai.runs.executors``) with ``workers`` workers, or on the Dask
    cluster at ``scheduler``; the summary is the same on every backend and
    number of workers. Workers other than this process load the edition again
    by its id, or by its manifest's path when it is not the installed one.
    ``executor`` (from ``samurai.runs.executors.make_executor``, closed by the
    caller) plays on workers already started instead, say several runs on one
    cluster; then ``workers``, ``backend`` and ``scheduler`` are not used.

    ``save_dir`` keeps each game's record as ``DIR/game-NNNNN.json`` (``samurai replay`` reads them),
    after ``DIR/run.json`` saying how many games were asked for (see ``samurai.runs.folders``), each batch's as it
    arrives: a run interrupted by ``KeyboardInterrupt`` keeps its finished games and its workers are stopped.
    """
    if games < 1:
        raise DataError(f"games must be at least 1, not {games}", source="--games")
    if workers < 1:
        raise DataError(f"workers must be at least 1, not {workers}", source="--workers")
    check_seed(seed, source="--seed")
    # compiled here: bad options are refused before any game is sent off
    knizia_edition(edition).rules(players, options)
    bots = parse_bots(bots)
    name = loadable_name(edition)
    chosen = dict(options or {})
    keep_edition(name, edition)  # this process plays with the edition it was given (and its compiled rules)
    keep_records = save_dir is not None
    batches = [Batch(name, players, chosen, seed, bots, indices, keep_records) for indices in batches_of(games)]
    runner = make_executor(backend, workers=workers, scheduler=scheduler) if executor is None else executor
    try:
        if save_dir is not None:
            write_run(save_dir, command="simulate", games=games, edition=edition.reference, players=players,
                      seed=seed, bots=list(bots), options=chosen)
        summaries: list[GameSummary] = collect_batches(runner.map(_play_batch, batches), save_dir, write_record,
                                                       progress)
    finally:
        if executor is None:  # an executor of the caller's stays theirs to close
            runner.close()
    return SimulationSummary(edition.id, players, seed, tuple(bots[s % len(bots)] for s in range(players)),
                             tuple(summaries))


def _play_batch(batch: Batch) -> list[tuple[int, GameSummary, GameRecord | None]]:
    """Play a batch of a ``simulate`` run (in any process): each game's number, summary and record if kept."""
    rules = cached_rules(batch.edition, batch.players, batch.options)
    out: list[tuple[int, GameSummary, GameRecord | None]] = []
    for index in batch.indices:
        game_seed = derive_seed(batch.seed, index)
        actions: list[tuple[int, ...]] | None = [] if batch.keep_records else None
        st = play_game(rules, game_seed, batch.bots, actions=actions)
        record = record_of(rules, game_seed, actions, final=st) if actions is not None else None
        out.append((index, GameSummary.of(game_seed, st, batch.players), record))
    return out


def cached_rules(name: str, players: int, options: Mapping[str, Any]) -> Rules:
    """The rules of edition ``name`` (an id or a manifest path) for ``players`` and ``options``, compiled once per
    process (the edition is loaded once, ``samurai.catalog.cache``, and keeps the rules it compiled): what a batch
    plays with, wherever it runs."""
    return knizia_edition(edition_named(name)).rules(players, options)

"""Knizia's game in the one runner of runs (``samurai.runs.matches``): its accelerator of a batch
(``play_batch``, its ``GameDefinition.runner.play_batch``: the fused random loop and the fast engine), what it reads
of a finished game (``outcome_of``) and its summary of a run (``SimulationSummary``); ``simulate`` is that runner
with this game's summary.

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

from samurai.catalog.cache import edition_named
from samurai.catalog.editions import Edition
from samurai.errors import IllegalAction
from samurai.runs.executors import Executor
from samurai.runs.matches import Batch, MatchGame, MatchSummary, simulate_matches
from samurai.runs.summary import SummaryTable, seat_table, seat_wins, share_rows, spread, spread_row
from samurai.search.bots import BOTS, RandomBot
from samurai.seeds import derive_seed
from samurai_plugins.knizia.adapters.game_state import decide
from samurai_plugins.knizia.adapters.search_bots import make_bot
from samurai_plugins.knizia.core.result import END_REASONS
from samurai_plugins.knizia.core.state import OVER, State, seeded_random
from samurai_plugins.knizia.core.tiles import CASTES
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine.backends import (
    NATIVE,
    Engine,
    collector_paused,
    engine_for,
    engine_of,
    native_module_or_error,
    play_native_run,
)
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.play.knowledge import LeftGame
from samurai_plugins.knizia.play.record_files import GameRecord, record_of

__all__ = ["play_game", "play_out", "GameSummary", "SimulationSummary", "simulate", "cached_rules", "play_batch",
           "outcome_of", "summary_of", "native_bots"]


def play_game(rules: Rules, seed: int, bots: Sequence[str], *, trace: bool = False,
              actions: list[tuple[int, ...]] | None = None, watch: Callable[[State], None] | None = None,
              engine: str | Engine | None = None) -> State:
    """Play one game between bots (seat ``k`` gets ``bots[k % len(bots)]``) and return its final state.

    A bot's actions are checked unless it is marked ``trusted`` (the built-in
    bots only produce legal actions, which the property tests verify). When
    ``actions`` is a list, every action played is appended to it (for records).
    ``watch(state)`` is called before the first action and after each one.
    ``engine`` picks the engine (``samurai_plugins.knizia.engine.backends``; default ``SAMURAI_ENGINE``, else auto): the
    final state is the engine's position, the same game on either.
    """
    chosen = engine_for(rules, engine)
    return play_out(rules, chosen.new_state(rules, seed, trace=trace), seed, bots, actions=actions, watch=watch,
                    engine=chosen)


def play_out(rules: Rules, st: State, seed: int, bots: Sequence[str], *,
             actions: list[tuple[int, ...]] | None = None, watch: Callable[[State], None] | None = None,
             engine: Engine | None = None) -> State:
    """Play the game in ``st`` (a position of either engine) to its end between bots seeded from ``seed`` (see
    ``play_game``)."""
    _play_out(rules, st, seed, bots, actions, watch, engine_of(st) if engine is None else engine)
    return st


def _play_out(rules: Rules, st: State, seed: int, bots: Sequence[str], actions: list[tuple[int, ...]] | None,
              watch: Callable[[State], None] | None, engine: Engine) -> int:
    """``play_out``, counting the actions played (random bots: counted by the fused loop, not collected)."""
    names = [bots[seat % len(bots)] for seat in range(rules.players)]
    if all(isinstance(name, str) and BOTS.get(name) is RandomBot for name in names):
        # On the native engine the seats draw from its own copy of the same generator (no state to convert).
        seat_generator = native_module_or_error().MersenneTwister if engine is NATIVE else seeded_random
        # Random bots only: draw each action straight from the engine with the generator each seat's
        # RandomBot would hold (Random(derive_seed(seed, seat)), seeded the same without building the
        # bots), as RandomBot.act does from its knowledge (the sampler reads only what the seat may know).
        rngs = [seat_generator(derive_seed(seed, seat)) for seat in range(rules.players)]
        if watch is not None:
            watch(st)
        after: Callable[[tuple[int, ...]], None] | None = None
        if watch is None:
            if actions is not None:
                return engine.play_random_into(rules, st, rngs, actions)
        else:
            def after(action: tuple[int, ...]) -> None:
                if actions is not None:
                    actions.append(action)
                if watch is not None:
                    watch(st)
        return engine.play_random(rules, st, rngs, after=after)
    players = [make_bot(name, derive_seed(seed, seat)) for seat, name in enumerate(names)]
    apply, check = engine.apply, engine.check
    if watch is not None:
        watch(st)
    checked = [not getattr(bot, "trusted", False) for bot in players]
    left_game = LeftGame()
    played = 0
    while st.phase != OVER:
        seat = st.current
        action = decide(players[seat], rules, st, seat, left_game, engine=engine)
        if checked[seat]:
            reason = check(rules, st, action)
            if reason is not None:
                raise IllegalAction(f"bot {players[seat].name!r} at seat {seat} chose {action}: {reason}")
        apply(rules, st, action)
        played += 1
        if actions is not None:
            actions.append(action)
        if watch is not None:
            watch(st)
    return played


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

    def shares(self, players: int) -> tuple[float, ...]:
        """Each seat's return, as the game protocol gives it: the winners share 1, the others get 0."""
        return tuple(1 / len(self.winners) if seat in self.winners else 0.0 for seat in range(players))

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

    def seats(self) -> list[dict[str, Any]]:
        """Each seat's bot and wins (``samurai.runs.summary.seat_wins``)."""
        return seat_wins(self.bots, [g.shares(self.players) for g in self.games])

    @property
    def wins(self) -> list[int]:
        """Games each seat won alone."""
        return [seat["wins"] for seat in self.seats()]

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
        figures = [("shared wins", f"{data['shared_games']} games ({data['shared_games'] / games:.1%})"),
                   spread_row("turns", data["turns"]),
                   ("tiles played", f"mean {data['tiles_played']['mean']:.1f}"),
                   ("figures removed by ties", f"mean {data['removed_by_ties']['mean']:.2f}"),
                   *share_rows("ended", {END_REASONS.get(r, r): n for r, n in data["end_reasons"].items()}, games),
                   *share_rows("decided by", {r.replace("_", " "): n for r, n in data["win_reasons"].items()}, games)]
        return seat_table(f"Samurai {data['edition']}: {data['players']} players, {games} games, seed {data['seed']}",
                          data["seats"], figures,
                          "turns: each seat's turn counts one; figures removed by ties: figures taken off the board "
                          "because two or more seats tied for them; ended: why the game stopped; decided by: the step "
                          "of the edition's scoring that named the winner, or a shared win where every step tied.")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the summary (without the per-game list)."""
        n = len(self.games)
        return {
            "edition": self.edition, "players": self.players, "games": n, "seed": self.seed,
            "seats": self.seats(),
            "shared_games": self.shared_games,
            "turns": spread([g.turns for g in self.games]),
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

    The one runner of every game (``samurai.runs.matches.simulate_matches``: batches on the executor ``backend``,
    ``"local"`` worker processes, ``"dask"`` or one a plugin contributes, with ``workers`` workers or on the
    Dask cluster at ``scheduler``; ``executor``, closed by the caller, plays on workers already started), played
    by this game's accelerator (``play_batch``) and summed up as this game shows it (``summary_of``). The
    summary is the same on every backend and number of workers.

    ``save_dir`` keeps each game's record as ``DIR/game-NNNNN.json`` (``samurai replay`` reads them),
    after ``DIR/run.json`` saying how many games were asked for (see ``samurai.runs.folders``), each batch's as it
    arrives: a run interrupted by ``KeyboardInterrupt`` keeps its finished games and its workers are stopped.
    """
    return summary_of(simulate_matches(edition, players, games, seed, bots, options=options, progress=progress,
                                       save_dir=save_dir, workers=workers, backend=backend, scheduler=scheduler,
                                       executor=executor))


def outcome_of(st: State, players: int) -> tuple[Any, ...]:
    """What this game's summary reads of a finished game (its ``GameDefinition.runner.outcome``, plain data): a
    ``GameSummary``'s fields after the seed."""
    assert st.result is not None and st.end_reason is not None
    return (st.result.winners, st.result.reason, st.end_reason, st.turn, st.tiles_played,
            tuple(tuple(st.captured[s * 3:s * 3 + 3]) for s in range(players)), st.removed_total)


def summary_of(summary: MatchSummary) -> SimulationSummary:
    """A run of the one runner summed up as this game shows it (its ``GameDefinition.runner.summary``)."""
    return SimulationSummary(summary.edition, summary.players, summary.seed, summary.bots,
                             tuple(GameSummary(game.seed, *game.facts) for game in summary.games))


def play_batch(edition: Edition, batch: Batch) -> list[tuple[int, MatchGame, GameRecord | None]]:
    """This game's accelerator of a batch of the one runner (its ``GameDefinition.runner.play_batch``): the games on the
    fast engine (random bots: the fused random loop), each with exactly the ``MatchGame`` and record the protocol
    path (``samurai.runs.matches.play_batch_on_protocol``) gives it (``tests/test_fast_paths.py`` pins them)."""
    # compiled once per edition, players and options
    rules = knizia_edition(edition).rules(batch.players, batch.options)
    players = batch.players
    chosen = engine_for(rules)
    whole = native_bots(batch.bots, players)
    if chosen is NATIVE and whole is not None and not batch.keep_records:
        return _play_native_batch(rules, batch, whole)
    out: list[tuple[int, MatchGame, GameRecord | None]] = []
    for index in batch.indices:
        game_seed = derive_seed(batch.seed, index)
        actions: list[tuple[int, ...]] | None = [] if batch.keep_records else None
        st = chosen.new_state(rules, game_seed)
        played = _play_out(rules, st, game_seed, batch.bots, actions, None, chosen)
        assert st.result is not None
        record = record_of(rules, game_seed, actions, final=st) if actions is not None else None
        # What samurai.runs.matches.match_game reads through the protocol: returns, the result's reason.
        out.append((index, MatchGame(game_seed, st.result.shares(players), st.result.reason, played,
                                     outcome_of(st, players)), record))
    return out
def native_bots(bots: Sequence[str], players: int) -> list[str] | None:
    """The bots of every seat as the native engine plays them whole (``random``, ``greedy``), or None when some
    seat's bot is one only Python plays (the searches)."""
    kinds = []
    for seat in range(players):
        name = bots[seat % len(bots)]
        if isinstance(name, str) and BOTS.get(name) is RandomBot:
            kinds.append("random")
        elif name == "greedy":
            kinds.append("greedy")
        else:
            return None
    return kinds


def _play_native_batch(rules: Rules, batch: Batch, bots: list[str]) -> list[tuple[int, MatchGame, GameRecord | None]]:
    """A batch of random and greedy games played whole by the native engine, one call for the batch: the same
    ``MatchGame`` for each game as the per-game path gives it (``tests/test_native_engine.py`` pins them)."""
    out: list[tuple[int, MatchGame, GameRecord | None]] = []
    with collector_paused():
        for index, game in zip(batch.indices, play_native_run(rules, batch.seed, batch.indices, bots),
                               strict=True):
            facts = (game.winners, game.reason, game.end_reason, game.turns, game.tiles_played, game.captured,
                     game.removed)
            out.append((index, MatchGame(game.seed, game.returns, game.reason, game.actions, facts), None))
    return out


def cached_rules(name: str, players: int, options: Mapping[str, Any]) -> Rules:
    """The rules of edition ``name`` (an id or a manifest path) for ``players`` and ``options``, compiled once per
    process (the edition is loaded once, ``samurai.catalog.cache``, and keeps the rules it compiled): what a batch
    plays with, wherever it runs."""
    return knizia_edition(edition_named(name)).rules(players, options)

"""What ``samurai compare`` measures in Knizia's game, over the facts of its games
(``samurai_plugins.knizia.core.facts``).

``game_facts`` replays a record and reads its facts. ``knizia_metrics`` (the game's ``GameMeasures.metrics``)
averages the engine's per-game metrics and those the editions' plugins contribute (``contributed_metrics``),
then adds decisiveness and scoring disagreement (``compare_metrics``), which need more than one game.
Decisiveness is defined only for games with a midpoint leader; its difference pairs the games that have one
under both editions. Stored records can be analysed again at any time: the metrics depend on nothing but the
records.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from samurai.errors import DataError
from samurai.hooks.calls import call_hook, guarded
from samurai.runs.folders import PairTask
from samurai.runs.statistics import (
    Estimate,
    GameMetric,
    Metric,
    average_metrics,
    is_metric_value,
    paired_difference,
    wilson_interval,
)
from samurai.seeds import derive_seed
from samurai_plugins.knizia.adapters.runner import cached_rules, native_bots, play_game
from samurai_plugins.knizia.core.facts import FactsWatch, GameFacts, core_game_metrics
from samurai_plugins.knizia.core.result import Result
from samurai_plugins.knizia.editions.hook_results import KNIZIA_HOOK_RESULTS
from samurai_plugins.knizia.editions.rules import Rules
from samurai_plugins.knizia.engine.backends import NATIVE, collector_paused, engine_for, play_native_run
from samurai_plugins.knizia.engine.edition import knizia_edition
from samurai_plugins.knizia.play.record_files import GameRecord, record_of, replay

if TYPE_CHECKING:
    from samurai.catalog.editions import Edition

__all__ = ["game_facts", "compare_metrics", "scoring_disagreement", "knizia_metrics", "contributed_metrics",
           "play_pairs"]


def game_facts(record: GameRecord, *, edition: Edition | None = None, source: str = "record") -> GameFacts:
    """Replay a finished game's record and read its facts."""
    watch = FactsWatch(record.players)
    game = None
    for game in replay(record, edition=edition, source=source, trace=False):
        watch.see(game.state)
    assert game is not None
    if not game.is_over or game.result.end_reason is None:
        raise DataError(f"the game is not over after its {len(record.actions)} actions", source=source, key="actions")
    return watch.facts(game.state)


def _decisiveness(a: Sequence[GameFacts], b: Sequence[GameFacts]) -> Metric:
    def leader_wins(g: GameFacts) -> float:
        return 1.0 if g.winners == (g.midpoint_leader,) else 0.0

    def estimate(games: Sequence[GameFacts]) -> Estimate:
        led = [leader_wins(g) for g in games if g.midpoint_leader is not None]
        return wilson_interval(int(sum(led)), len(led))

    both = [(x, y) for x, y in zip(a, b, strict=True)
            if x.midpoint_leader is not None and y.midpoint_leader is not None]
    difference = paired_difference([leader_wins(x) for x, _ in both], [leader_wins(y) for _, y in both])
    return Metric("decisiveness", "midpoint leader on captured figures wins alone", "rate", estimate(a), estimate(b),
                  difference, note="among games with one seat ahead on captured figures after the middle turn; "
                                   "B − A over the games with such a leader under both editions")


def scoring_disagreement(games: Sequence[GameFacts], scorer: Callable[[Mapping[int, Mapping[str, int]]], Result]) \
        -> Estimate:
    """The share of these games' final positions that ``scorer`` decides differently (other winners)."""
    differ = 0
    for g in games:
        captured = {seat: {"buddha": c[0], "rice": c[1], "castle": c[2]} for seat, c in enumerate(g.captured)}
        if tuple(scorer(captured).winners) != tuple(g.winners):
            differ += 1
    return wilson_interval(differ, len(games))


def compare_metrics(a: Sequence[GameFacts], b: Sequence[GameFacts], *,
                    score_a: Callable[[Mapping[int, Mapping[str, int]]], Result],
                    score_b: Callable[[Mapping[int, Mapping[str, int]]], Result],
                    game_metrics: Sequence[GameMetric] | None = None, first_player: int = 0) -> list[Metric]:
    """Every metric for paired games ``a[i]``/``b[i]``; ``score_a``/``score_b`` are the two scorings.

    ``game_metrics`` are the per-game metrics to average (by default the
    engine's own, ``core_game_metrics``; ``samurai compare`` adds those the
    editions' plugins contribute through ``samurai_game_metrics``). Then come
    decisiveness and scoring disagreement, which need more than one game.
    """
    if len(a) != len(b) or not a:
        raise ValueError(f"compare needs the same number of games on both sides, at least one ({len(a)}, {len(b)})")
    if game_metrics is None:
        game_metrics = core_game_metrics(a[0].players, first_player)
    metrics = average_metrics(game_metrics, a, b)
    metrics.append(_decisiveness(a, b))
    a_by_b, b_by_a = scoring_disagreement(a, score_b), scoring_disagreement(b, score_a)
    note = ("A column: A's final positions scored by B's rules; B column: B's positions scored by A's rules. "
            + ("The two scorings never decided differently on these games." if a_by_b.value == b_by_a.value == 0
               else ""))
    metrics.append(Metric("scoring_disagreement", "final positions the other scoring decides differently",
                          "rate", a_by_b, b_by_a, None, note.strip()))
    return metrics


def knizia_metrics(editions: Sequence[Edition], players: int, options: Sequence[Mapping[str, Any]],
                   a: Sequence[GameFacts], b: Sequence[GameFacts]) -> list[Metric]:
    """The metrics of Knizia's game (its ``GameMeasures.metrics``): the engine's per-game metrics and those the
    editions' plugins contribute (``contributed_metrics``), then decisiveness and scoring disagreement."""
    rules_a, rules_b = (knizia_edition(edition).rules(players, chosen)
                        for edition, chosen in zip(editions, options, strict=True))
    return compare_metrics(list(a), list(b), score_a=rules_a.scorer, score_b=rules_b.scorer,
                           game_metrics=contributed_metrics(editions, players, rules_a.setup.first_player))


def _play_native_pairs(task: PairTask, rules: list[Rules], bots: list[str]) \
        -> list[tuple[int, tuple[GameFacts, ...], tuple[GameRecord, ...] | None]]:
    """``play_pairs`` of random and greedy games played whole by the native engine, one call per edition: the same
    facts as the watched games of the Python path (``tests/test_native_engine.py`` pins them)."""
    with collector_paused():
        per_edition = [[GameFacts(game.winners, game.end_reason, game.turns, game.tiles_played, game.captured,
                                  game.removed, game.leader)
                        for game in play_native_run(compiled, task.seed, task.indices, bots)]
                       for compiled in rules]
    return [(index, tuple(sides), None) for index, *sides in zip(task.indices, *per_edition, strict=True)]


def contributed_metrics(editions: Sequence[Edition], players: int, first_player: int) -> list[GameMetric]:
    """The per-game metrics of the engine and of both editions' plugins, each name once, the engine's first."""
    chosen: dict[str, GameMetric] = {}
    for edition in editions:
        source = edition.manifest.path
        # Each contribution is checked (samurai_plugins.knizia.editions.hook_results): a list of well-formed GameMetric.
        contributions = call_hook(edition.plugin_manager.hook.samurai_game_metrics, source=source, players=players,
                                  first_player=first_player, hook_results=KNIZIA_HOOK_RESULTS)
        for metrics in reversed(contributions):  # pluggy calls the trylast engine defaults last
            for metric in metrics:
                value = guarded(metric.value, f"samurai_game_metrics metric {metric.name!r}", source=source,
                                check=is_metric_value, expected="a number")
                chosen.setdefault(metric.name, attrs.evolve(metric, value=value))
    return list(chosen.values())


def play_pairs(task: PairTask) \
        -> list[tuple[int, tuple[GameFacts, ...], tuple[GameRecord, ...] | None]]:
    """Play a batch of paired games of Knizia's game (in any process) on its fast engine, with the editions
    compiled once per process (its ``GameMeasures.play_pairs``): each game's facts and records on every side of
    the task (two for a comparison, one per setting for a sweep)."""
    rules = [cached_rules(name, task.players, chosen) for name, chosen in zip(task.editions, task.options, strict=True)]
    whole = native_bots(task.bots, task.players)
    if not task.keep_records and whole is not None and all(engine_for(r) is NATIVE for r in rules):
        return _play_native_pairs(task, rules, whole)
    out = []
    for index in task.indices:
        game_seed = derive_seed(task.seed, index)
        facts, records = [], []
        for compiled in rules:
            # The facts are collected as the game is played (what game_facts reads from a replay of its record);
            # a record is built only to be saved.
            watch = FactsWatch(task.players)
            actions: list[tuple[int, ...]] | None = [] if task.keep_records else None
            final = play_game(compiled, game_seed, task.bots, actions=actions, watch=watch.see)
            facts.append(watch.facts(final))
            if actions is not None:
                records.append(record_of(compiled, game_seed, actions, final=final))
        out.append((index, tuple(facts), tuple(records) if task.keep_records else None))
    return out

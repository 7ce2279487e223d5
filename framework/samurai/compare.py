"""Comparing two editions on paired games.

Game ``i`` is played under edition A and under edition B with the same seed
(``derive_seed(seed, i)``) and the same bots, so what differs between the two
comes from the rules. Games are played in worker processes, a chunk of game
numbers per task; each worker loads the editions itself, so nothing but
plain data crosses process boundaries, and the numbers do not depend on the
number of workers. Every game becomes a record; the metrics are computed
from the records (``samurai.metrics``), so a saved run can be analysed again.
"""

from __future__ import annotations

import csv
import functools
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

from .errors import DataError
from .game_metrics import GameMetric
from .metrics import FactsWatch, GameFacts, Metric, compare_metrics, game_facts
from .plugins import Edition, load_edition
from .records import GameRecord, read_record, record_of, write_record
from .rules import Rules
from .simulate import derive_seed, parse_bots, play_game

__all__ = ["Comparison", "compare", "analyse_records", "contributed_metrics", "default_workers", "CHUNK"]

CHUNK = 50
"""Games per worker task: large enough to amortise loading the editions, small for a smooth progress bar."""


@attrs.frozen
class Comparison:
    """The outcome of ``compare``: the run's parameters and its metrics."""

    edition_a: str
    edition_b: str
    players: int
    games: int
    seed: int | None
    bots: tuple[str, ...]
    metrics: tuple[Metric, ...]
    options_a: Mapping[str, Any] = attrs.field(factory=dict)
    """The options set for edition A (the others are its defaults)."""
    options_b: Mapping[str, Any] = attrs.field(factory=dict)

    def side(self, which: str) -> str:
        """``"ffg2015"`` or ``"ffg2015 (removed_to_end=6)"``: edition ``"a"`` or ``"b"`` with its options."""
        name, options = (self.edition_a, self.options_a) if which == "a" else (self.edition_b, self.options_b)
        return f"{name} ({', '.join(f'{k}={v}' for k, v in options.items())})" if options else name

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the parameters and every metric with its intervals."""
        return {"edition_a": self.edition_a, "edition_b": self.edition_b, "options_a": dict(self.options_a),
                "options_b": dict(self.options_b), "players": self.players,
                "games": self.games, "seed": self.seed, "bots": list(self.bots),
                "metrics": [m.to_dict() for m in self.metrics]}

    def write_json(self, path: str | Path) -> None:
        """Write ``to_dict()`` as JSON (NaN, for a rate over no games, is written as null)."""
        Path(path).write_text(json.dumps(_no_nan(self.to_dict()), indent=2) + "\n", encoding="utf-8")

    def write_csv(self, path: str | Path) -> None:
        """One row per metric: A, B and B − A, each with its interval."""
        with Path(path).open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["metric", "label", "kind", "a", "a_low", "a_high", "a_n", "b", "b_low", "b_high",
                             "b_n", "difference", "difference_low", "difference_high", "note"])
            for m in self.metrics:
                d = m.difference
                writer.writerow([m.name, m.label, m.kind, m.a.value, m.a.low, m.a.high, m.a.n, m.b.value, m.b.low,
                                 m.b.high, m.b.n, d.value if d else "", d.low if d else "", d.high if d else "",
                                 m.note])


def _no_nan(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    return value


@attrs.frozen
class _Task:
    editions: tuple[str, str]
    players: int
    seed: int
    bots: tuple[str, ...]
    indices: tuple[int, ...]
    keep_records: bool
    options: tuple[dict[str, Any], dict[str, Any]]


_worker_rules: tuple[Rules, Rules] | None = None
"""In a worker process of ``compare``: the run's two compiled editions, loaded once when the process starts
(the pool lives for one run) rather than for every chunk."""


def _compiled(editions: tuple[str, str], players: int, options: tuple[dict[str, Any], dict[str, Any]]) \
        -> tuple[Rules, Rules]:
    a, b = (load_edition(name).rules(players, chosen) for name, chosen in zip(editions, options, strict=True))
    return a, b


def _start_worker(editions: tuple[str, str], players: int, options: tuple[dict[str, Any], dict[str, Any]]) -> None:
    global _worker_rules
    _worker_rules = _compiled(editions, players, options)


def _play_chunk(task: _Task, rules: tuple[Rules, Rules] | None = None) \
        -> list[tuple[int, tuple[GameFacts, GameFacts], tuple[GameRecord, GameRecord] | None]]:
    if rules is None:
        rules = _worker_rules or _compiled(task.editions, task.players, task.options)
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
        out.append((index, (facts[0], facts[1]), (records[0], records[1]) if task.keep_records else None))
    return out


def compare(edition_a: str, edition_b: str, *, players: int, games: int, seed: int = 1,
            bots: Sequence[str] = ("random",), workers: int = 1, save_dir: str | Path | None = None,
            options_a: Mapping[str, Any] | None = None, options_b: Mapping[str, Any] | None = None,
            progress: Callable[[int], None] | None = None) -> Comparison:
    """Play ``games`` paired games under editions A and B (ids or manifest paths) and compare them.

    ``options_a`` and ``options_b`` set each side's edition options, so one
    edition can be compared with itself under another option value.

    ``workers`` > 1 plays chunks of games in that many processes; the result
    is the same for any number of workers. ``save_dir`` keeps every game's
    record as ``DIR/a/game-NNNNN.json`` and ``DIR/b/...``. ``progress(k)``
    is told how many pairs are done.
    """
    if games < 1:
        raise DataError(f"games must be at least 1, not {games}", source="--games")
    if workers < 1:
        raise DataError(f"workers must be at least 1, not {workers}", source="--workers")
    loaded = [load_edition(edition_a), load_edition(edition_b)]
    options = (dict(options_a or {}), dict(options_b or {}))
    # Compiling refuses a player count, option or broken edition before any process starts.
    compiled = (loaded[0].rules(players, options[0]), loaded[1].rules(players, options[1]))
    bot_names = parse_bots(bots)
    tasks = [_Task((edition_a, edition_b), players, seed, bot_names, tuple(range(start, min(start + CHUNK, games))),
                   save_dir is not None, options) for start in range(0, games, CHUNK)]
    results: list[Any] = []
    if workers == 1 or len(tasks) == 1:
        chunks: Any = map(functools.partial(_play_chunk, rules=compiled), tasks)
        _collect(chunks, results, progress)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), initializer=_start_worker,
                                 initargs=((edition_a, edition_b), players, options)) as pool:
            _collect(pool.map(_play_chunk, tasks), results, progress)
    results.sort(key=lambda item: item[0])
    if save_dir is not None:
        for index, _, records in results:
            for side, record in zip("ab", records, strict=True):
                write_record(record, Path(save_dir) / side / f"game-{index:05d}.json")
    facts_a = [facts[0] for _, facts, _ in results]
    facts_b = [facts[1] for _, facts, _ in results]
    metrics = _metrics(loaded, players, facts_a, facts_b, options)
    return Comparison(edition_a, edition_b, players, games, seed,
                      tuple(bot_names[s % len(bot_names)] for s in range(players)), tuple(metrics), *options)


def _collect(chunks: Any, results: list[Any], progress: Callable[[int], None] | None) -> None:
    for chunk in chunks:
        results.extend(chunk)
        if progress is not None:
            progress(len(results))


def _metrics(editions: Sequence[Edition], players: int, a: list[GameFacts], b: list[GameFacts],
             options: Sequence[Mapping[str, Any]]) -> list[Metric]:
    rules_a, rules_b = (edition.rules(players, chosen) for edition, chosen in zip(editions, options, strict=True))
    return compare_metrics(a, b, score_a=rules_a.scorer, score_b=rules_b.scorer,
                           game_metrics=contributed_metrics(editions, players, rules_a.setup.first_player))


def contributed_metrics(editions: Sequence[Edition], players: int, first_player: int) -> list[GameMetric]:
    """The per-game metrics of the engine and of both editions' plugins, each name once, the engine's first."""
    chosen: dict[str, GameMetric] = {}
    for edition in editions:
        contributions = edition.plugin_manager.hook.samurai_game_metrics(players=players, first_player=first_player)
        for metrics in reversed(contributions):  # pluggy calls the trylast engine defaults last
            for metric in metrics:
                if not isinstance(metric, GameMetric):
                    raise DataError(f"samurai_game_metrics returned {metric!r}, not a GameMetric",
                                    source=edition.manifest.path)
                chosen.setdefault(metric.name, metric)
    return list(chosen.values())


def analyse_records(folder: str | Path, edition_a: str | None = None, edition_b: str | None = None) -> Comparison:
    """Compare the paired records saved by ``compare(..., save_dir=folder)`` again, from the files alone."""
    root = Path(folder)
    files = {side: sorted((root / side).glob("game-*.json")) for side in "ab"}
    if not files["a"] or [f.name for f in files["a"]] != [f.name for f in files["b"]]:
        raise DataError("expected the same game-NNNNN.json files in a/ and b/ (written by compare --save-dir)",
                        source=str(root))
    records = {side: [read_record(f) for f in files[side]] for side in "ab"}
    names = (edition_a or records["a"][0].edition, edition_b or records["b"][0].edition)
    editions = [load_edition(name) for name in names]
    players = records["a"][0].players
    facts = {side: [game_facts(r, edition=ed, source=str(f)) for r, f in zip(records[side], files[side], strict=True)]
             for side, ed in zip("ab", editions, strict=True)}
    options = [records[side][0].options for side in "ab"]
    changed = [{k: v for k, v in chosen.items() if k in ed.manifest.options and v != ed.manifest.options[k].default}
               for chosen, ed in zip(options, editions, strict=True)]
    return Comparison(names[0], names[1], players, len(files["a"]), None, (),
                      tuple(_metrics(editions, players, facts["a"], facts["b"], options)), *changed)


def default_workers() -> int:
    """The processes ``samurai compare`` uses by default: the machine's cores, at most 8."""
    return max(1, min(8, os.cpu_count() or 1))

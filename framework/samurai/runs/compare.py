"""Comparing two editions on paired games.

Game ``i`` is played under edition A and under edition B with the same seed
(``derive_seed(seed, i)``) and the same bots, so what differs between the two
comes from the rules. Games are played on an executor (``samurai.runs.executors``:
local worker processes or a Dask cluster), a chunk of game numbers per task;
each worker compiles the editions itself, once, so nothing but plain data
crosses process boundaries, and the numbers do not depend on the backend or
the number of workers. Every game can become a record (``samurai.records``, as its game writes them); the metrics
are computed from the games' facts, which a saved run's records give again (``analyse_records``).

What is measured is the game's (``samurai.catalog.games.GameMeasures``, a game
definition's ``measures``): its watch and metrics, or, when it supplies none,
what the protocol shows of any game (``PROTOCOL_MEASURES``). The paired games
are played through the game protocol, unless the game's measures offer an
accelerator (``GameMeasures.play_pairs``: Knizia's fast engine) that returns
what the protocol path returns for the same chunk (tests pin the two together).
Both editions of a comparison must play the same game.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..catalog.cache import edition_named, keep_edition
from ..catalog.editions import Edition, load_edition
from ..catalog.games import GameDefinition, GameMeasures
from ..catalog.trust import Trust, TrustLike
from ..errors import DataError
from ..files.writing import write_atomically
from ..interrupts import deferred_interrupts
from ..protocol import GameState
from ..records import read_record_file, record_facts, record_of, records_of
from ..seeds import check_seed, derive_seed
from .executors import Executor, default_workers, make_executor
from .folders import CHUNK, PairTask, batches_of, games_asked, read_run, write_run
from .matches import check_bots_play, play_match, result_reason
from .statistics import GameMetric, Metric, average_metrics

__all__ = ["Comparison", "compare", "analyse_records", "default_workers", "CHUNK", "measures_of", "PROTOCOL_MEASURES",
           "play_pairs_on_protocol"]


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
    games_asked: int | None = None
    """For a saved run analysed again: the games its run asked for (more than ``games`` when it was cut short)."""
    panels: Sequence[tuple[str, Sequence[str]]] = ()
    """What ``samurai.runs.plot.plot_comparison`` draws by default: the measured game's panels
    (``GameMeasures.panels``); empty: every metric in one panel."""

    def side(self, which: str) -> str:
        """``"ffg2015"`` or ``"ffg2015 (removed_to_end=6)"``: edition ``"a"`` or ``"b"`` with its options."""
        name, options = (self.edition_a, self.options_a) if which == "a" else (self.edition_b, self.options_b)
        return f"{name} ({', '.join(f'{k}={v}' for k, v in options.items())})" if options else name

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the parameters and every metric with its intervals."""
        return {"edition_a": self.edition_a, "edition_b": self.edition_b, "options_a": dict(self.options_a),
                "options_b": dict(self.options_b), "players": self.players,
                "games": self.games, "games_asked": self.games_asked, "seed": self.seed, "bots": list(self.bots),
                "metrics": [m.to_dict() for m in self.metrics]}

    def write_json(self, path: str | Path) -> None:
        """Write ``to_dict()`` as JSON (NaN, for a rate over no games, is written as null)."""
        write_atomically(path, json.dumps(_no_nan(self.to_dict()), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """One row per metric: A, B and B − A, each with its interval."""
        out = io.StringIO(newline="")
        writer = csv.writer(out)
        writer.writerow(["metric", "label", "kind", "a", "a_low", "a_high", "a_n", "b", "b_low", "b_high",
                         "b_n", "difference", "difference_low", "difference_high", "note"])
        for m in self.metrics:
            d = m.difference
            writer.writerow([m.name, m.label, m.kind, m.a.value, m.a.low, m.a.high, m.a.n, m.b.value, m.b.low,
                             m.b.high, m.b.n, d.value if d else "", d.low if d else "", d.high if d else "",
                             m.note])
        write_atomically(path, out.getvalue())  # the whole table, or nothing


def _no_nan(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    return value


def play_pairs_on_protocol(task: PairTask) -> list[tuple[int, tuple[Any, ...], tuple[Any, ...] | None]]:
    """Play a chunk of paired games through the protocol (in any process): each pair's number, the facts its
    game's watch collected on each side (A and B of a comparison), and each side's record (as the game writes them)
    when they are kept. The general path every ``GameMeasures.play_pairs`` is pinned to."""
    editions = [edition_named(name) for name in task.editions]
    measures = measures_of(editions)
    out: list[tuple[int, tuple[Any, ...], tuple[Any, ...] | None]] = []
    for index in task.indices:
        game_seed = derive_seed(task.seed, index)
        facts, records = [], []
        for edition, chosen in zip(editions, task.options, strict=True):
            watch = measures.watch(edition, task.players)
            final, actions = play_match(edition, task.players, game_seed, task.bots, options=chosen, watch=watch.see)
            facts.append(watch.facts(final))
            if task.keep_records:
                records.append(record_of(edition, task.players, game_seed, chosen, actions, final))
        out.append((index, tuple(facts), tuple(records) if task.keep_records else None))
    return out


def measures_of(editions: Sequence[Edition]) -> GameMeasures:
    """What a comparison of ``editions`` measures: their game's ``GameMeasures`` (``PROTOCOL_MEASURES`` for a game
    that supplies none); ``DataError`` in one line when the editions play different games."""
    games = [edition.game for edition in editions]
    if len({game.name for game in games}) > 1:
        plays = " and ".join(f"{edition.id} plays {edition.game.name!r}" for edition in editions)
        raise DataError(f"compare pairs games of one game, but {plays}: compare two editions of the same game",
                        source="compare")
    return _measures(games[0])


def _measures(game: GameDefinition) -> GameMeasures:
    return game.measures if game.measures is not None else PROTOCOL_MEASURES


def compare(edition_a: str, edition_b: str, *, players: int, games: int, seed: int = 1,
            bots: Sequence[str] = ("random",), workers: int = 1, save_dir: str | Path | None = None,
            options_a: Mapping[str, Any] | None = None, options_b: Mapping[str, Any] | None = None,
            progress: Callable[[int], None] | None = None, backend: str = "local",
            scheduler: str | None = None, executor: Executor | None = None) -> Comparison:
    """Play ``games`` paired games under editions A and B (ids or manifest paths) and compare them.

    Both editions play one game (Knizia's, or one a plugin contributes); what
    is measured is that game's (``measures_of``). ``options_a`` and ``options_b``
    set each side's edition options, so one edition can be compared with itself
    under another option value.

    Chunks of at most ``CHUNK`` games are played on the executor ``backend``
    (``"local"`` worker processes, ``"dask"``, or one a plugin contributes;
    see ``samurai.runs.executors``) with ``workers`` workers, or on the Dask
    cluster at ``scheduler``; the result is the same on every backend and for
    any number of workers. ``executor`` (from ``samurai.runs.executors.make_executor``,
    closed by the caller) plays on workers already started instead, say
    several comparisons on one cluster; then ``workers``, ``backend`` and
    ``scheduler`` are not used. ``save_dir`` keeps every game's
    record as ``DIR/a/game-NNNNN.json`` and ``DIR/b/...``, after ``DIR/run.json``
    (the games asked for, see ``samurai.runs.folders``), each finished chunk as it
    arrives: a run interrupted by ``KeyboardInterrupt`` keeps its finished pairs
    and its workers are stopped. ``progress(k)`` is told how many pairs are done.
    """
    if games < 1:
        raise DataError(f"games must be at least 1, not {games}", source="--games")
    if workers < 1:
        raise DataError(f"workers must be at least 1, not {workers}", source="--workers")
    check_seed(seed, source="--seed")
    loaded = [load_edition(edition_a), load_edition(edition_b)]
    measures = measures_of(loaded)
    options = (dict(options_a or {}), dict(options_b or {}))
    for name, edition, chosen in zip((edition_a, edition_b), loaded, options, strict=True):
        # Starting a game refuses a player count, option or broken edition before any process starts.
        edition.start(players, seed, chosen)
        keep_edition(name, edition)  # this process plays with the editions loaded here (workers forked inherit them)
    bot_names = check_bots_play(loaded[0].game.name, bots)
    tasks = [PairTask((edition_a, edition_b), players, seed, bot_names, indices, save_dir is not None, options)
             for indices in batches_of(games)]
    results: list[Any] = []
    runner = make_executor(backend, workers=workers, scheduler=scheduler) if executor is None else executor
    try:
        if save_dir is not None:
            write_run(save_dir, command="compare", games=games, editions=[edition_a, edition_b], players=players,
                      seed=seed, bots=list(bot_names), options=list(options))
        _collect(runner.map(measures.play_pairs or play_pairs_on_protocol, tasks), results, progress, save_dir,
                 records_of(loaded[0].game).write)
    finally:  # interrupted, or a game failed: the executor stops the other workers now, not after their chunks
        if executor is None:  # an executor of the caller's stays theirs to close
            runner.close()
    results.sort(key=lambda item: item[0])
    facts_a = [facts[0] for _, facts, _ in results]
    facts_b = [facts[1] for _, facts, _ in results]
    metrics = measures.metrics(loaded, players, options, facts_a, facts_b)
    return Comparison(edition_a, edition_b, players, games, seed,
                      tuple(bot_names[s % len(bot_names)] for s in range(players)), tuple(metrics), *options,
                      panels=measures.panels)


def _collect(chunks: Any, results: list[Any], progress: Callable[[int], None] | None,
             save_dir: str | Path | None, write: Callable[[Any, Path], object]) -> None:
    """Gather finished chunks; with ``save_dir``, save each pair as it arrives (``write``, as the game writes its
    records), so a run cut short keeps it."""
    for chunk in chunks:
        if save_dir is not None:
            with deferred_interrupts():  # a finished chunk is saved whole, both records of each pair
                for index, _, records in chunk:
                    for side, record in zip("ab", records, strict=True):
                        write(record, Path(save_dir) / side / f"game-{index:05d}.json")
        results.extend(chunk)
        if progress is not None:
            progress(len(results))


def analyse_records(folder: str | Path, edition_a: str | None = None, edition_b: str | None = None, *,
                    partial: bool = False, trust: TrustLike = ()) -> Comparison:
    """Compare the paired records saved by ``compare(..., save_dir=folder)`` again, from the files alone.

    The folder is data: its records' editions must be installed, or their
    manifests vouched for in ``trust`` (see ``samurai.catalog.trust``). A folder whose
    ``run.json`` asked for more games than it holds (a run cut short) is
    refused unless ``partial``; then the games it holds are compared and
    ``Comparison.games_asked`` says how many were asked for.
    """
    vouched = Trust.of(trust)
    root = Path(folder)
    if not root.is_dir():
        raise DataError("no such folder (expected one written by compare --save-dir)", source=str(root))
    files = {side: sorted((root / side).glob("game-*.json")) for side in "ab"}
    if not files["a"] or [f.name for f in files["a"]] != [f.name for f in files["b"]]:
        raise DataError("expected the same game-NNNNN.json files in a/ and b/ (written by compare --save-dir)",
                        source=str(root))
    asked = games_asked(root)
    held = len(files["a"])
    if asked is not None and held > asked:
        raise DataError(f"holds {held} paired games, more than the {asked} its run.json asked for: files of "
                        f"another run?", source=str(root))
    if asked is not None and held < asked and not partial:
        raise DataError(f"holds {held} of the {asked} paired games its run asked for (the run was cut short); "
                        f"pass --partial to analyse the games it holds", source=str(root))
    with _trust_hint(root):
        first = {side: read_record_file(files[side][0], trust=vouched) for side in "ab"}
    if first["a"].game != first["b"].game:
        raise DataError(f"a/ holds records of game {first['a'].game!r} and b/ of game {first['b'].game!r}: the two "
                        f"sides of a comparison play one game", source=str(files["b"][0]))
    records = {side: [first[side].record, *(read_record_file(f, trust=vouched).record for f in files[side][1:])]
               for side in "ab"}
    _check_one_run(records, files)
    names = (edition_a or records["a"][0].edition, edition_b or records["b"][0].edition)
    # An edition the caller names is theirs to trust; the one a record names must be installed or vouched for.
    with _trust_hint(root):
        editions = [load_edition(given) if given else vouched.edition(name, source=str(files[side][0]),
                                                                      folder=root / side)
                    for given, name, side in zip((edition_a, edition_b), names, "ab", strict=True)]
    measures = measures_of(editions)
    players = records["a"][0].players
    facts = {side: [record_facts(record, edition, measures, source=str(file))
                    for record, file in zip(records[side], files[side], strict=True)]
             for side, edition in zip("ab", editions, strict=True)}
    options = [dict(records[side][0].options) for side in "ab"]
    changed = [{k: v for k, v in chosen.items() if k in ed.manifest.options and v != ed.manifest.options[k].default}
               for chosen, ed in zip(options, editions, strict=True)]
    return Comparison(names[0], names[1], players, len(files["a"]), None, (),
                      tuple(measures.metrics(editions, players, options, facts["a"], facts["b"])),
                      options_a=changed[0], options_b=changed[1], games_asked=asked, panels=measures.panels)


@contextlib.contextmanager
def _trust_hint(root: Path) -> Iterator[None]:
    """A refusal for want of trust, raised in the block, names the manifests the run's ``run.json`` names: the paths
    to pass as ``--trust`` if the reader vouches for them."""
    try:
        yield
    except DataError as exc:
        manifests = _manifests_named(root)
        if not manifests or "vouch" not in exc.message:
            raise
        raise DataError(f"{exc.message}; {root / 'run.json'} names the manifest{'s' if len(manifests) > 1 else ''} "
                        f"{', '.join(manifests)} (as compare was given them, from the folder it ran in): add "
                        f"{' '.join('--trust ' + m for m in manifests)} for those you vouch for",
                        source=exc.source, line=exc.line, key=exc.key) from None


def _manifests_named(root: Path) -> list[str]:
    """The editions a saved run's ``run.json`` names by a manifest's path rather than an id (none if unreadable)."""
    try:
        run = read_run(root)
    except (DataError, OSError):
        return []
    editions = run.get("editions") if isinstance(run, Mapping) else None
    if not isinstance(editions, list):
        return []
    return [name for name in editions if isinstance(name, str) and (name.endswith(".toml") or "/" in name)]


def _check_one_run(records: Mapping[str, Sequence[Any]], files: Mapping[str, list[Path]]) -> None:
    """Every record of a side is a game of one edition, version, player count and options, as compare writes them."""
    first = records["a"][0]
    for side in "ab":
        model = records[side][0]
        for record, file in zip(records[side], files[side], strict=True):
            for field in ("edition", "edition_version", "players", "options"):
                if getattr(record, field) != getattr(model, field):
                    raise DataError(f"{field} differs from {files[side][0].name}'s: the records of one side of a "
                                    f"comparison share edition, version, players and options", source=str(file),
                                    key=field)
            if record.players != first.players:
                raise DataError(f"a game of {record.players} players, but a/ holds games of {first.players}",
                                source=str(file), key="players")


# --- what the protocol shows of any game ---------------------------------------------------------

class ProtocolWatch:
    """The facts the protocol shows of a finished game: each seat's return, why it ended, how many actions."""

    def see(self, state: GameState) -> None:
        """Nothing to note on the way: the finished position says it all."""

    def facts(self, state: GameState) -> dict[str, Any]:
        """``{"returns": [...], "reason": ..., "actions": n}`` of the finished game in ``state``."""
        return {"returns": list(state.returns()), "reason": result_reason(state), "actions": state.move_number}


def _protocol_metrics(editions: Sequence[Edition], players: int, options: Sequence[Mapping[str, Any]],
                      a: Sequence[Any], b: Sequence[Any]) -> list[Metric]:
    """Wins by seat, shared results (draws), game length and each way a game ended (those seen in these games)."""
    reasons = sorted({g["reason"] for g in (*a, *b)})
    metrics = [GameMetric(f"win_rate_seat_{seat}", f"seat {seat} wins alone", "rate", _sole_winner(seat))
               for seat in range(players)]
    metrics += [GameMetric("shared_win_rate", "shared result (a draw)", "rate",
                           lambda g: float(max(g["returns"]) < 1.0)),
                GameMetric("actions", "actions per game", "mean", lambda g: g["actions"])]
    metrics += [GameMetric(f"end_{reason}", f"ended: {reason.replace('_', ' ')}", "rate", _ended_by(reason))
                for reason in reasons]
    return average_metrics(metrics, a, b)


def _sole_winner(seat: int) -> Callable[[Any], float]:
    return lambda g: float(g["returns"][seat] == 1.0)


def _ended_by(reason: str) -> Callable[[Any], float]:
    return lambda g: float(g["reason"] == reason)


PROTOCOL_MEASURES = GameMeasures(
    watch=lambda edition, players: ProtocolWatch(), metrics=_protocol_metrics,
    panels=(("Who wins (share of games)", ("win_rate_seat_", "shared_win_rate")), ("How games end", ("end_",)),
            ("Game length (per game)", ("actions",))))
"""What ``samurai compare`` measures in a game that supplies no ``GameMeasures``: what the protocol shows."""

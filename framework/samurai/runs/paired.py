"""Paired runs of one edition under several settings of its options, at several player counts: the runner that
``samurai sweep`` and ``samurai balance`` share.

A *setting* is a set of option values (the options the run names; the others keep their defaults). Game ``i`` of
a player count is played under every setting with the same seed, ``derive_seed(seed, i)``, and the same bots, as
``samurai compare`` pairs its two editions (game ``i`` here is game ``i`` of ``compare`` and of ``simulate`` at
that player count): what differs between the settings comes from the rules. The games are played in batches
(``samurai.runs.folders.PairTask``, one side per setting) on an executor, through the game's accelerator
(``GameMeasures.play_pairs``) or the protocol, so the numbers are the same on every backend and for any number of
workers.

A save folder holds ``run.json`` (the command, edition, player counts, games, seed, bots and settings) and one
record per game, ``DIR/players-P/setting-K/game-NNNNN.json`` (``DIR/players-P/game-NNNNN.json`` for a run of one
setting); every setting's record of a game is saved with the others, as its batch finishes, so a run cut short
keeps whole pairs. ``resume_paired`` carries such a run on: the saved games are replayed (each checked to be that
run's game), the others played, and the facts are those the whole run would have given.

``setting_metrics`` turns the facts into the game's metrics (``GameMeasures.metrics``) under each setting, with
the paired difference of each setting from the first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..catalog.cache import keep_edition, loadable_name
from ..catalog.editions import Edition, load_edition
from ..catalog.games import GameMeasures
from ..catalog.trust import Trust, TrustLike
from ..errors import DataError
from ..files.reading import INT_HIGH, whole_number
from ..interrupts import deferred_interrupts
from ..records import read_record_file, record_facts, records_of
from ..seeds import MAX_SEED, check_seed, derive_seed
from .compare import measures_of, play_pairs_on_protocol
from .executors import Executor, make_executor
from .folders import RUN_FILE, PairTask, batches_of, prepare_save_dir, read_run, write_run
from .matches import check_bots_play
from .statistics import Estimate

__all__ = ["PairedRun", "PairedFacts", "SettingMetric", "plan_paired", "play_paired", "resume_paired",
           "setting_metrics", "saved_pairs", "prepare_paired_folder", "edition_of", "option_text"]


@attrs.frozen
class PairedRun:
    """What a paired run asks for, as plain data (what ``run.json`` keeps)."""

    command: str
    """The command that ran it: ``"sweep"`` or ``"balance"``."""
    edition: str
    """The edition as a saved run names it (``Edition.reference``: its id, or the manifest path it was given)."""
    players: tuple[int, ...]
    settings: tuple[dict[str, Any], ...]
    """The option values of each setting, the first the one the others are measured against."""
    games: int
    """The games of each player count, each played under every setting."""
    seed: int
    bots: tuple[str, ...]
    """The bots, seats taking them in turn."""

    def folder(self, root: str | Path, players: int, setting: int) -> Path:
        """Where the records of ``setting`` at ``players`` are saved under ``root``."""
        base = Path(root) / f"players-{players}"
        return base if len(self.settings) == 1 else base / f"setting-{setting}"

    def folders(self, root: str | Path) -> list[str]:
        """Every folder of the run's records under ``root``, relative to it, each after its parent."""
        return [str(path.relative_to(root)) for players in self.players
                for path in dict.fromkeys([Path(root) / f"players-{players}",
                                           *(self.folder(root, players, k) for k in range(len(self.settings)))])]

    def to_dict(self) -> dict[str, Any]:
        """The run as ``run.json`` keeps it (besides ``run`` and ``games``)."""
        return {"edition": self.edition, "players": list(self.players), "settings": [dict(s) for s in self.settings],
                "seed": self.seed, "bots": list(self.bots)}


@attrs.frozen
class PairedFacts:
    """A finished paired run: its parameters, its edition, what the edition's game measures, and the facts of every
    game by player count, then setting, then game number."""

    run: PairedRun
    edition: Edition
    measures: GameMeasures
    facts: Mapping[int, tuple[tuple[Any, ...], ...]]
    """``facts[players][setting][i]``: the facts of game ``i`` at ``players`` under ``setting``."""


def edition_of(edition: str | Edition) -> Edition:
    """``edition`` itself, or the edition of that id or manifest path."""
    return load_edition(edition) if isinstance(edition, str) else edition


def plan_paired(command: str, edition: Edition, *, settings: Sequence[Mapping[str, Any]],
                players: Sequence[int] | None, games: int, seed: int, bots: Sequence[str]) -> PairedRun:
    """The run of ``settings`` of ``edition`` at ``players`` (default: every count its game allows), checked before
    anything starts: ``DataError`` in one line naming the bad argument (``--players``, ``--option``, ``--games``,
    ``--seed``, ``--bots``). Each setting is checked by the edition itself, as a game would be started with it at
    every player count (its option names, types and choices, then the edition's own limits)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise DataError(f"games must be a whole number of at least 1, not {games!r}", source="--games")
    check_seed(seed, source="--seed")
    counts = tuple(edition.player_counts)
    chosen = counts if players is None else tuple(players)
    if not chosen:
        raise DataError("name at least one player count", source="--players")
    for count in chosen:
        if isinstance(count, bool) or not isinstance(count, int) or count not in counts:
            raise DataError(f"edition {edition.id!r} plays {', '.join(map(str, counts))} players, not {count!r}",
                            source="--players")
    if len(set(chosen)) != len(chosen):
        raise DataError(f"a player count is given twice: {', '.join(map(str, chosen))}", source="--players")
    if not settings:
        raise DataError("a paired run plays at least one setting", source="--option")
    for count in chosen:
        edition.start(count, seed)  # the edition itself at this player count, before any option is blamed
    for setting in settings:
        refusals: list[tuple[int, DataError]] = []
        for count in chosen:
            try:
                edition.start(count, seed, setting)
            except DataError as problem:
                refusals.append((count, problem))
        if refusals:
            count, first = refusals[0]
            values = ", ".join(f"{name}={option_text(value)}" for name, value in setting.items())
            where = f" with {count} players" if len(refusals) < len(chosen) else ""  # another count takes it
            raise DataError(f"{values}{where}: {first.message}", source="--option", key=first.key)
    names = check_bots_play(edition.game, bots)
    return PairedRun(command, edition.reference, chosen, tuple(dict(s) for s in settings), games, seed, names)


def play_paired(edition: Edition, run: PairedRun, *, save_dir: str | Path | None = None,
                progress: Callable[[int], None] | None = None, workers: int = 1, backend: str = "local",
                scheduler: str | None = None, executor: Executor | None = None) -> PairedFacts:
    """Play ``run`` (from ``plan_paired``) of ``edition``: every game of every player count under every setting.

    The batches are played on the executor ``backend`` (``"local"`` worker processes, ``"dask"``, or one a plugin
    contributes) with ``workers`` workers, or on the Dask cluster at ``scheduler``; ``executor`` (closed by the
    caller) plays on workers already started instead. The facts are the same on every backend and for any number
    of workers. ``save_dir`` keeps ``run.json``, then every game's records as their batch finishes (a run
    interrupted by ``KeyboardInterrupt`` keeps its finished pairs, and ``resume_paired`` carries it on).
    ``progress(k)`` is told how many games (each under every setting) are done, over all player counts.
    """
    keep_edition(loadable_name(edition), edition)  # this process plays with the edition it was given
    if save_dir is not None:
        write_run(save_dir, command=run.command, games=run.games, **run.to_dict())
    runner = make_executor(backend, workers=workers, scheduler=scheduler) if executor is None else executor
    return _play(edition, run, {}, save_dir, progress, runner, close=executor is None)


def _play(edition: Edition, run: PairedRun, finished: dict[tuple[int, int], tuple[Any, ...]],
          save_dir: str | Path | None, progress: Callable[[int], None] | None, runner: Executor, *,
          close: bool) -> PairedFacts:
    """Play the games of ``run`` not in ``finished`` (by player count and number) on ``runner`` (closed after when
    ``close``), each batch's records saved in ``save_dir`` as it arrives; the whole run's facts."""
    measures = measures_of([edition])
    name = loadable_name(edition)
    sides = len(run.settings)
    tasks = [PairTask((name,) * sides, players, run.seed, run.bots, numbers, save_dir is not None, run.settings)
             for players in run.players
             for numbers in batches_of([i for i in range(run.games) if (players, i) not in finished])]
    write = records_of(edition.game).write
    try:
        for task, batch in zip(tasks, runner.map(measures.play_pairs or play_pairs_on_protocol, tasks), strict=True):
            with deferred_interrupts():  # a finished batch is saved whole, every setting's record of each game
                for index, facts, records in batch:
                    if save_dir is not None:
                        for setting, record in enumerate(records):
                            write(record, run.folder(save_dir, task.players, setting) / f"game-{index:05d}.json")
                    finished[(task.players, index)] = tuple(facts)
            if progress is not None:
                progress(len(finished))
    finally:  # interrupted, or a game failed: the executor stops the other workers now
        if close:
            runner.close()
    return PairedFacts(run, edition, measures,
                       {players: tuple(tuple(finished[(players, i)][k] for i in range(run.games))
                                       for k in range(sides))
                        for players in run.players})


def prepare_paired_folder(folder: str | Path, run: PairedRun, *, force: bool = False) -> Path:
    """Check (before any game) that ``folder`` can take ``run``'s records, making its folders: a folder holding a
    saved run is refused unless ``force`` (then that run's files are removed)."""
    return prepare_save_dir(folder, sides=run.folders(folder), force=force)


def saved_pairs(folder: str | Path) -> tuple[int, int]:
    """How many games of the paired run saved in ``folder`` have every setting's record, and how many its
    ``run.json`` asked for (every player count's); (0, 0) for a folder without a readable run."""
    try:
        run = _run_of(Path(folder), read_run(folder))
    except (DataError, OSError):
        return 0, 0
    kept = sum(1 for players in run.players for i in range(run.games)
               if all((run.folder(folder, players, k) / f"game-{i:05d}.json").is_file()
                      for k in range(len(run.settings))))
    return kept, run.games * len(run.players)


def resume_paired(folder: str | Path, command: str, *, trust: TrustLike = (),
                  progress: Callable[[int], None] | None = None, executor: Executor | None = None) -> PairedFacts:
    """Carry on the run that ``play_paired(..., save_dir=folder)`` saved in ``folder`` for ``command`` and that was
    cut short: the games with every setting's record are replayed (each checked to be that run's game of its
    number, player count and setting), the others played and saved; the facts are the whole run's.

    ``run.json`` and the records are data: the edition they name must be installed, or its manifest vouched for in
    ``trust``. ``progress(k)`` counts every finished game, the saved ones first. Without ``executor`` the games are
    played in this process.
    """
    root = Path(folder)
    data = read_run(root)
    source = str(root / RUN_FILE)
    if data is None:
        raise DataError(f"no {RUN_FILE} here: not a folder samurai {command} --save-dir wrote", source=str(root))
    if data.get("run") != command:
        raise DataError(f"the run of samurai {data.get('run')!s:.40}, not of {command}: only {command} runs resume "
                        f"here", source=source, key="run")
    vouched = Trust.of(trust)
    edition = vouched.edition(data.get("edition"), source=source, folder=root)
    saved = _run_of(root, data)
    try:
        run = plan_paired(command, edition, settings=saved.settings, players=saved.players, games=saved.games,
                          seed=saved.seed, bots=saved.bots)
    except DataError as refused:  # the run.json is what is wrong, not an argument
        raise DataError(refused.message, source=source,
                        key=_RUN_KEYS.get(refused.source or "", refused.key)) from None
    measures = measures_of([edition])
    wanted = [edition.manifest.resolve_options(setting, source=source) for setting in run.settings]
    finished: dict[tuple[int, int], tuple[Any, ...]] = {}
    for players in run.players:
        _check_numbers(run, root, players)
        for index in range(run.games):
            files = [run.folder(root, players, k) / f"game-{index:05d}.json" for k in range(len(run.settings))]
            if not all(file.is_file() for file in files):
                continue  # a game without every setting's record is played again
            facts = []
            for file, options in zip(files, wanted, strict=True):
                record = read_record_file(file, trust=vouched).record
                if (record.seed != derive_seed(run.seed, index) or record.players != players
                        or record.edition != edition.id
                        or edition.manifest.resolve_options(record.options, source=str(file)) != options):
                    raise DataError(f"the record is not game {index} of the run in {RUN_FILE} at {players} players "
                                    f"under its setting (its edition, players, seed or options differ)",
                                    source=str(file))
                facts.append(record_facts(record, edition, measures, source=str(file)))
            finished[(players, index)] = tuple(facts)
            if progress is not None:
                progress(len(finished))
    keep_edition(loadable_name(edition), edition)
    runner = make_executor("local", workers=1) if executor is None else executor
    return _play(edition, run, finished, root, progress, runner, close=executor is None)


_RUN_KEYS = {"--players": "players", "--option": "settings", "--games": "games", "--seed": "seed", "--bots": "bots"}
"""The key of ``run.json`` behind each argument ``plan_paired`` checks."""


def _run_of(root: Path, data: Mapping[str, Any] | None) -> PairedRun:
    """The paired run a ``run.json``'s data describes, its fields checked as data (``DataError`` naming the key)."""
    source = str(root / RUN_FILE)
    if data is None:
        raise DataError(f"no {RUN_FILE} here", source=str(root))
    players, settings, bots = data.get("players"), data.get("settings"), data.get("bots")
    if not isinstance(players, list) or not players:
        raise DataError("players must be a list of player counts", source=source, key="players")
    counts = tuple(whole_number(p, "players", 1, 99, source=source) for p in players)
    if not isinstance(settings, list) or not settings or not all(isinstance(s, dict) for s in settings):
        raise DataError("settings must be a list of tables of option values", source=source, key="settings")
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise DataError("bots must be a list of bot names", source=source, key="bots")
    edition = data.get("edition")
    return PairedRun(str(data.get("run")), edition if isinstance(edition, str) else "", counts,
                     tuple(dict(s) for s in settings), whole_number(data.get("games"), "games", 1, INT_HIGH,
                                                                    source=source),
                     whole_number(data.get("seed"), "seed", 0, MAX_SEED, source=source), tuple(bots))


def _check_numbers(run: PairedRun, root: Path, players: int) -> None:
    """Every record file of ``players``' folders is a game of this run (``game-00000.json`` up to its games)."""
    for setting in range(len(run.settings)):
        for file in sorted(run.folder(root, players, setting).glob("game-*.json")):
            number = file.stem.removeprefix("game-")
            if not (number.isascii() and number.isdigit()) or not 0 <= int(number) < run.games:
                raise DataError(f"not a game of this run of {run.games} games (game-00000.json to "
                                f"game-{run.games - 1:05d}.json)", source=str(file))


def option_text(value: Any) -> str:
    """An option value as the command line writes it: ``true``/``false`` for a boolean."""
    return str(value).lower() if isinstance(value, bool) else str(value)


# --- the metrics of each setting -----------------------------------------------------------------

@attrs.frozen
class SettingMetric:
    """One of the game's metrics under each setting of a paired run at one player count: its estimate under each
    setting, and the paired difference of each setting from the first."""

    name: str
    label: str
    kind: str
    """``"rate"`` (a share of games, 0..1) or ``"mean"`` (per game)."""
    estimates: tuple[Estimate | None, ...]
    """One per setting; None where the game's measures gave no such metric for that setting."""
    differences: tuple[Estimate | None, ...]
    """One per setting: setting ``k`` minus the first over the paired games (None for the first setting, and where
    there is no paired difference)."""
    note: str = ""


def setting_metrics(paired: PairedFacts, players: int) -> list[SettingMetric]:
    """The game's metrics (``GameMeasures.metrics``) of each setting at ``players``, as ``samurai compare`` measures
    setting ``k`` (edition B) against the first (edition A) on the same games.

    A metric that pairs no games (a comparison of two scorings: Knizia's scoring disagreement) has no difference
    to test and is left out. A metric the game gives for some settings only (an end reason never seen under the
    others, in a game measured by the protocol) has no estimate under the others."""
    facts = paired.facts[players]
    settings = paired.run.settings
    edition = paired.edition
    against = range(1, len(settings)) if len(settings) > 1 else range(1)
    found: dict[str, dict[str, Any]] = {}
    for k in against:
        for metric in paired.measures.metrics([edition, edition], players, [settings[0], settings[k]], facts[0],
                                              facts[k]):
            entry = found.setdefault(metric.name, {"metric": metric, "estimates": {0: metric.a}, "differences": {}})
            if metric.difference is not None and k > 0:
                entry["estimates"][k] = metric.b
                entry["differences"][k] = metric.difference
            elif metric.difference is not None:
                entry["differences"][0] = metric.difference
    out = []
    for entry in found.values():
        if not entry["differences"]:
            continue
        metric = entry["metric"]
        out.append(SettingMetric(metric.name, metric.label, metric.kind,
                                 tuple(entry["estimates"].get(k) for k in range(len(settings))),
                                 (None, *(entry["differences"].get(k) for k in range(1, len(settings)))),
                                 metric.note))
    return out

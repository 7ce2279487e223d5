"""Sweeping an edition's options over their values: which value plays best (``samurai sweep``).

Every combination of the values given (a *setting*; the first values of every option make the first setting, the
one the others are measured against) is played at every player count asked for, game ``i`` dealt alike under
every setting (``samurai.runs.paired``: seed ``derive_seed(seed, i)``, the same bots). Each of the game's metrics
(its ``GameMeasures``, as ``samurai compare`` reports them) comes with its 95% interval under every setting, and
with a verdict: does it change with the value beyond chance?

The test (``SWEEP_TEST``): for each metric and each setting after the first, the two-sided z-test of the mean
paired difference from the first setting (``samurai.runs.statistics.difference_p_value``, the test whose 95%
interval ``compare`` prints as B − A), Holm-corrected (``holm``) over every test of the player count's table, its
metrics times the settings after the first, so that a table of many metrics stars one by chance at most one time
in twenty. A metric *changes with the value* when any of its settings differs from the first beyond chance. Games
that went alike under two settings (an option the edition ignores) differ by exactly 0 in every game: no change.
"""

from __future__ import annotations

import csv
import io
import itertools
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
    option_text,
    plan_paired,
    play_paired,
    resume_paired,
    setting_metrics,
)
from .statistics import LEVEL, difference_p_value, holm

__all__ = ["SWEEP_TEST", "Sweep", "SweepTable", "SweepRow", "sweep", "plan_sweep", "resume_sweep", "sweep_of"]

SWEEP_TEST = ("for each metric and each setting after the first, a two-sided z-test that its mean paired difference "
              "from the first setting is 0 (game i is dealt alike under every setting), Holm-corrected over every "
              "test of the player count's table (its metrics times the settings after the first) at a 5% familywise "
              "level")
"""The test behind "changes with the value beyond chance", in words (printed under the table, kept in the JSON)."""


@attrs.frozen
class SweepRow:
    """One metric of a sweep's table: its estimate under each setting and the test of each setting against the
    first."""

    metric: SettingMetric
    p_values: tuple[float | None, ...]
    """Each setting's two-sided p-value against the first (None for the first, and where nothing is tested)."""
    adjusted: tuple[float | None, ...]
    """The same, Holm-adjusted over the table's tests: below ``LEVEL`` is beyond chance."""

    @property
    def p(self) -> float | None:
        """The smallest adjusted p-value of the metric (None when nothing was tested)."""
        tested = [p for p in self.adjusted if p is not None]
        return min(tested) if tested else None

    @property
    def changes(self) -> bool:
        """Whether the metric changes with the value beyond chance: some setting differs from the first."""
        return self.p is not None and self.p < LEVEL

    def beyond_chance(self, setting: int) -> bool:
        """Whether ``setting`` differs from the first beyond chance on this metric."""
        adjusted = self.adjusted[setting]
        return adjusted is not None and adjusted < LEVEL


@attrs.frozen
class SweepTable:
    """A sweep at one player count: a row per metric."""

    players: int
    rows: tuple[SweepRow, ...]

    @property
    def tests(self) -> int:
        """How many tests the table's Holm correction spans (metrics times the settings after the first)."""
        return sum(1 for row in self.rows for p in row.p_values if p is not None)


@attrs.frozen
class Sweep:
    """The outcome of ``sweep``: the run's parameters, and a table per player count."""

    edition: str
    game: str
    settings: tuple[dict[str, Any], ...]
    """The option values of every setting, the first the one the others are measured against."""
    players: tuple[int, ...]
    games: int
    """The games of each player count, each played under every setting."""
    seed: int
    bots: tuple[str, ...]
    """The bots as given, seats taking them in turn."""
    tables: tuple[SweepTable, ...]
    panels: Sequence[tuple[str, Sequence[str]]] = ()
    """The measured game's panels (``GameMeasures.panels``): what ``samurai.runs.plot.plot_sweep`` draws."""

    @property
    def options(self) -> dict[str, tuple[Any, ...]]:
        """Each option the sweep sets, with its values in the order given."""
        return {name: tuple(dict.fromkeys(setting[name] for setting in self.settings)) for name in self.settings[0]}

    @property
    def swept(self) -> list[str]:
        """The options given more than one value."""
        return [name for name, values in self.options.items() if len(values) > 1]

    @property
    def fixed(self) -> dict[str, Any]:
        """The options given one value: every setting has it."""
        return {name: values[0] for name, values in self.options.items() if len(values) == 1}

    def label(self, setting: int) -> str:
        """``"5"``, or ``"5, random"`` when two options are swept: the swept options' values of ``setting``, in the
        order of ``swept`` (``"as given"`` when nothing is swept)."""
        chosen = self.settings[setting]
        return ", ".join(option_text(chosen[name]) for name in self.swept) or "as given"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the parameters, the test, and per player count every metric under every setting."""
        return {
            "command": "sweep", "edition": self.edition, "game": self.game,
            "options": {name: list(values) for name, values in self.options.items()},
            "settings": [dict(s) for s in self.settings], "players": list(self.players), "games": self.games,
            "seed": self.seed, "bots": list(self.bots), "test": SWEEP_TEST, "level": LEVEL,
            "tables": [{"players": table.players, "tests": table.tests, "metrics": [
                {"name": row.metric.name, "label": row.metric.label, "kind": row.metric.kind,
                 "changes": row.changes, "p_holm": row.p, "note": row.metric.note,
                 "settings": [{"options": dict(self.settings[k]),
                               "estimate": estimate.to_dict() if estimate is not None else None,
                               "difference": difference.to_dict() if difference is not None else None,
                               "p": row.p_values[k], "p_holm": row.adjusted[k]}
                              for k, (estimate, difference) in enumerate(zip(row.metric.estimates,
                                                                             row.metric.differences, strict=True))]}
                for row in table.rows]} for table in self.tables]}

    def write_json(self, path: str | Path) -> None:
        """Write ``to_dict()`` as JSON (NaN, for a rate over no games, is written as null)."""
        write_atomically(path, json.dumps(_no_nan(self.to_dict()), indent=2) + "\n")

    def write_csv(self, path: str | Path) -> None:
        """One row per player count, metric and setting: the setting's option values, the estimate with its
        interval, the difference from the first setting with its interval, its p-value and Holm's, and whether the
        metric changes with the value."""
        names = list(self.options)
        out = io.StringIO(newline="")
        writer = csv.writer(out)
        writer.writerow(["players", "metric", "label", "kind", "setting", *names, "value", "low", "high", "n",
                         "difference", "difference_low", "difference_high", "p", "p_holm", "changes"])
        for table in self.tables:
            for row in table.rows:
                for k, (e, d) in enumerate(zip(row.metric.estimates, row.metric.differences, strict=True)):
                    writer.writerow([table.players, row.metric.name, row.metric.label, row.metric.kind, k,
                                     *(option_text(self.settings[k][name]) for name in names),
                                     *((e.value, e.low, e.high, e.n) if e is not None else ("",) * 4),
                                     *((d.value, d.low, d.high) if d is not None else ("",) * 3),
                                     _blank(row.p_values[k]), _blank(row.adjusted[k]), row.changes])
        write_atomically(path, out.getvalue())  # the whole table, or nothing


def _blank(value: float | None) -> float | str:
    return "" if value is None else value


def plan_sweep(edition: Edition, options: Mapping[str, Sequence[Any]], *, players: Sequence[int] | None = None,
               games: int = 1000, seed: int = 1, bots: Sequence[str] = ("random",)) -> PairedRun:
    """The sweep of ``options`` (each option's values, in order; one option at least with two values or more) of
    ``edition``, checked before anything starts (``DataError`` in one line naming the argument): every combination
    of the values, the first values making the first setting; each setting checked by the edition at every player
    count."""
    if not options:
        raise DataError("name an option to sweep and its values, NAME=V1,V2,...", source="--option")
    for name, values in options.items():
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise DataError(f"give option {name!r} at least one value", source="--option", key=name)
        repeated = [value for value in values if sum(1 for v in values if v == value) > 1]
        if repeated:
            raise DataError(f"option {name!r} is given the value {option_text(repeated[0])} twice",
                            source="--option", key=name)
    if all(len(values) == 1 for values in options.values()):
        raise DataError("a sweep needs an option given two values or more, NAME=V1,V2,... (one setting is samurai "
                        "balance EDITION --option NAME=VALUE)", source="--option")
    settings = [dict(zip(options, values, strict=True)) for values in itertools.product(*options.values())]
    return plan_paired("sweep", edition, settings=settings, players=players, games=games, seed=seed, bots=bots)


def sweep(edition: str | Edition, options: Mapping[str, Sequence[Any]], *, players: Sequence[int] | None = None,
          games: int = 1000, seed: int = 1, bots: Sequence[str] = ("random",), workers: int = 1,
          backend: str = "local", scheduler: str | None = None, executor: Executor | None = None,
          save_dir: str | Path | None = None, progress: Callable[[int], None] | None = None) -> Sweep:
    """Sweep ``options`` of ``edition`` (an id, a manifest path or a loaded edition): ``{"removed_to_end": [3, 4,
    5]}`` plays every game under each value, at each of ``players`` (default: every count the edition's game
    allows), ``games`` games per player count, and tests each metric for a change with the value (``SWEEP_TEST``).

    The values are the options' own types (``OptionSpec.read`` reads them from text); each setting is refused in
    one line (``DataError``) unless the edition takes it at every player count. The executor arguments,
    ``save_dir`` and ``progress`` are ``samurai.runs.paired.play_paired``'s: the result is the same on every
    backend and for any number of workers, and a run cut short resumes (``resume_sweep``).
    """
    chosen = edition_of(edition)
    run = plan_sweep(chosen, options, players=players, games=games, seed=seed, bots=bots)
    return sweep_of(play_paired(chosen, run, save_dir=save_dir, progress=progress, workers=workers, backend=backend,
                                scheduler=scheduler, executor=executor))


def resume_sweep(folder: str | Path, *, trust: TrustLike = (), progress: Callable[[int], None] | None = None,
                 executor: Executor | None = None) -> Sweep:
    """Carry on the sweep saved in ``folder`` (``sweep(..., save_dir=folder)``) that was cut short; the sweep the
    whole run would have given (``samurai.runs.paired.resume_paired``)."""
    return sweep_of(resume_paired(folder, "sweep", trust=trust, progress=progress, executor=executor))


def sweep_of(paired: PairedFacts) -> Sweep:
    """The sweep of a finished paired run: its metrics under each setting and their tests, a table per player
    count."""
    tables = []
    for players in paired.run.players:
        metrics = setting_metrics(paired, players)
        p_values = [tuple(None if d is None else difference_p_value(d) for d in m.differences) for m in metrics]
        flat = holm([p for row in p_values for p in row if p is not None])
        adjusted_values = iter(flat)
        rows = tuple(SweepRow(metric, row, tuple(None if p is None else next(adjusted_values) for p in row))
                     for metric, row in zip(metrics, p_values, strict=True))
        tables.append(SweepTable(players, rows))
    run = paired.run
    return Sweep(run.edition, paired.edition.game.name, run.settings, run.players, run.games, run.seed, run.bots,
                 tuple(tables), paired.measures.panels)

"""A saved run's folder: ``run.json`` says what was asked for, so a folder cut short is known as one.

``simulate`` and ``compare`` with a save folder write ``run.json`` before the
first game (the command, the games asked for, players, seed, bots and
editions), then one record per finished game. A run stopped early keeps the
records it finished; ``analyse`` compares the number of games found with the
number asked for. ``run.json`` is read as data only: nothing in it is loaded,
run or opened.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..errors import DataError
from ..files.reading import INT_HIGH, parse_json, read_text, whole_number
from ..files.writing import write_atomically

__all__ = ["RUN_FILE", "write_run", "read_run", "games_asked", "saved_games", "prepare_save_dir", "collect_batches",
           "CHUNK", "BATCHES", "batches_of", "PairTask"]

RUN_FILE = "run.json"
"""The run manifest's name inside a save folder."""

_RECORDS = "game-*.json"


def write_run(folder: str | Path, *, command: str, games: int, **parameters: Any) -> Path:
    """Write ``folder/run.json`` (making the folder): the command, the games asked for and the parameters."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    path = root / RUN_FILE
    data = {"run": command, "games": games, **parameters}
    return write_atomically(path, json.dumps(data, indent=1) + "\n")


def read_run(folder: str | Path) -> dict[str, Any] | None:
    """The run manifest of ``folder`` as a dict, or None when the folder has none (saved before run.json)."""
    path = Path(folder) / RUN_FILE
    if not path.exists():
        return None
    source = str(path)
    data = parse_json(read_text(path), source=source)
    if not isinstance(data, dict):
        raise DataError("a run manifest is a JSON object", source=source)
    whole_number(data.get("games"), "games", 1, INT_HIGH, source=source)  # the games the run asked for
    return data


def games_asked(folder: str | Path) -> int | None:
    """How many games the run saved in ``folder`` asked for (None without a run manifest)."""
    run = read_run(folder)
    return None if run is None else int(run["games"])


def saved_games(folder: str | Path) -> int:
    """How many game records ``folder`` holds."""
    return sum(1 for _ in Path(folder).glob(_RECORDS))


def prepare_save_dir(folder: str | Path, *, sides: Iterable[str] = ("",), force: bool = False,
                     flag: str = "--save-dir") -> Path:
    """Check (before any game is played) that ``folder`` can take a new run, making it when missing.

    A folder that already holds a saved run (``run.json`` or records in
    ``folder/side`` for each of ``sides``) is refused, so two runs never mix;
    ``force`` removes that run's files first (only those: other files stay).
    """
    if not str(folder).strip():
        raise DataError("name a folder", source=flag)
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise DataError(f"{folder} is a file, not a folder", source=flag)
    old = [path for side in sides for path in (root / side).glob(_RECORDS) if path.is_file()]
    if (root / RUN_FILE).is_file():
        old.append(root / RUN_FILE)
    if old and not force:
        raise DataError(f"{folder} already holds a saved run ({len(old)} files); choose a new folder, or pass "
                        f"--force to replace it", source=flag)
    try:
        root.mkdir(parents=True, exist_ok=True)
        for side in sides:
            (root / side).mkdir(exist_ok=True)
    except OSError as exc:
        raise DataError(f"cannot make the folder {folder}: {exc.strerror or exc}", source=flag) from None
    if not all(os.access(root / side, os.W_OK | os.X_OK) for side in sides):
        raise DataError(f"cannot write into {folder}", source=flag)
    for path in old:
        path.unlink()
    return root



def collect_batches(batches: Iterable[list[tuple[int, Any, Any]]], save_dir: str | Path | None,
                    write: Callable[[Any, Path], object], progress: Callable[[int], None] | None, *,
                    into: list[tuple[int, Any]] | None = None, done: int = 0) -> list[Any]:
    """The games of finished batches of ``(index, game, record)`` in arrival order; with ``save_dir``, each
    batch's records written whole as ``game-NNNNN.json`` by ``write`` (an interrupt waits until they are),
    and ``progress`` told how many games are done after each batch (``done`` more, games finished before).
    ``into`` receives each ``(index, game)`` as its batch is saved, so a caller interrupted keeps what finished."""
    from ..interrupts import deferred_interrupts

    played: list[tuple[int, Any]] = [] if into is None else into
    for batch in batches:
        with deferred_interrupts():  # a finished batch is saved and kept whole
            if save_dir is not None:
                for index, _, record in batch:
                    assert record is not None
                    write(record, Path(save_dir) / f"game-{index:05d}.json")
            played.extend((index, game) for index, game, _ in batch)
        if progress is not None:
            progress(done + len(played))
    return [game for _, game in played]


CHUNK = 50
"""The most games in a batch of ``simulate`` or ``compare``: enough to amortise sending a batch, few enough for a
smooth progress bar."""


BATCHES = 16
"""A run of fewer than ``CHUNK * BATCHES`` games is cut into this many batches (or one a game): a few slow games
(strong bots) still spread over many workers."""


def batches_of(games: int | Sequence[int]) -> list[tuple[int, ...]]:
    """The game numbers ``0 .. games-1`` (or the numbers given: the games a resumed run lacks) cut into batches of
    at most ``CHUNK`` (the numbers never depend on it)."""
    numbers = range(games) if isinstance(games, int) else tuple(games)
    size = max(1, min(CHUNK, len(numbers) // BATCHES))
    return [tuple(numbers[start:start + size]) for start in range(0, len(numbers), size)]


@attrs.frozen
class PairTask:
    """A batch of paired games, as a worker receives it (plain data, so it crosses process and machine
    boundaries): game ``i`` is played under every side (an edition and its options) with seed
    ``derive_seed(seed, i)``; a game's ``GameMeasures.play_pairs`` (or the protocol's player) plays it. ``samurai
    compare`` has two sides, edition A and edition B; ``samurai sweep`` one per setting of the options it sweeps,
    ``samurai balance`` one."""

    editions: tuple[str, ...]
    """How a worker loads each side's edition (``samurai.catalog.cache.loadable_name``): A and B for a
    comparison."""
    players: int
    seed: int
    bots: tuple[str, ...]
    indices: tuple[int, ...]
    """The numbers of the batch's games in the run."""
    keep_records: bool
    options: tuple[dict[str, Any], ...]
    """Each side's options, one per edition."""

"""Seeded self-play for a value model: games between named bots, sampled positions and how each game ended.

A data folder holds ``data.json`` (what was asked: the edition, players, games, seed, bots, sampling, the game's
feature version) and one ``batch-NNNNN.jsonl`` per batch of ``BATCH_GAMES`` games, written whole once the batch
is played: one JSON line per game with its number, seed, returns per seat and its sampled positions (the seat to
act and every seat's features). Game ``i`` is seeded ``derive_seed(seed, i)`` and played as ``samurai simulate``
plays it (``samurai.runs.matches.play_match``); a position is sampled at every ``every``-th decision from an offset
drawn from the game's seed. A run cut short is carried on by calling ``generate_data`` again with the same
settings: the batches already written are kept, not replayed, and the folder ends as an uninterrupted run's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..catalog.cache import edition_named, keep_edition, loadable_name
from ..catalog.editions import Edition
from ..errors import DataError
from ..files.reading import parse_json, read_text
from ..files.writing import write_atomically
from ..interrupts import deferred_interrupts
from ..protocol import GameState
from ..runs.executors import Executor, make_executor
from ..runs.matches import check_bots_play, play_match
from ..seeds import check_seed, derive_seed

__all__ = ["DATA_FILE", "BATCH_GAMES", "DataBatch", "GameRows", "generate_data", "read_data", "features_of",
           "play_data_batch"]

DATA_FILE = "data.json"
"""What a data folder was asked for."""

BATCH_GAMES = 10
"""Games per batch file: the unit that is written whole and not replayed on resume (independent of the workers)."""

_SAMPLE_OFFSET = 7_001
"""The index ``derive_seed`` mixes into a game's seed for its sampling offset (apart from the bots' seeds)."""


def features_of(edition: Edition) -> Callable[[GameState], list[list[int]]]:
    """The features function of ``edition``'s game; ``DataError`` naming the game when it gives none."""
    features = edition.game.faces.features
    if features is None:
        raise DataError(f"the game {edition.game.name!r} gives no features of a position, so it cannot be learned",
                        source="edition")
    return features


@attrs.frozen
class DataBatch:
    """One batch of a data run for a worker: the edition (its key or manifest path), players, options, the run's
    seed, the bots, how often a decision is sampled and the games' numbers."""

    edition: str
    players: int
    options: dict[str, Any]
    seed: int
    bots: tuple[str, ...]
    every: int
    indices: tuple[int, ...]


@attrs.frozen
class GameRows:
    """One finished game's sampled positions: per position the seat to act and each seat's features."""

    index: int
    seed: int
    returns: tuple[float, ...]
    positions: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]

    def to_dict(self) -> dict[str, Any]:
        """The game as one JSON line's object."""
        return {"game": self.index, "seed": self.seed, "returns": list(self.returns),
                "positions": [{"seat": seat, "features": [list(row) for row in rows]}
                              for seat, rows in self.positions]}


def play_data_batch(batch: DataBatch) -> list[GameRows]:
    """Play a batch's games (in any process) and sample their positions."""
    edition = edition_named(batch.edition)
    features = features_of(edition)
    out = []
    for index in batch.indices:
        game_seed = derive_seed(batch.seed, index)
        offset = random.Random(derive_seed(game_seed, _SAMPLE_OFFSET)).randrange(batch.every)
        positions: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
        decisions = 0

        def watch(state: GameState) -> None:
            nonlocal decisions
            seat = state.to_act
            if seat is None:
                return
            if decisions % batch.every == offset:
                positions.append((seat, tuple(tuple(row) for row in features(state))))
            decisions += 1

        final, _ = play_match(edition, batch.players, game_seed, batch.bots, options=batch.options, watch=watch)
        out.append(GameRows(index, game_seed, tuple(final.returns()), tuple(positions)))
    return out


def _batch_file(folder: Path, number: int) -> Path:
    return folder / f"batch-{number:05d}.jsonl"


def generate_data(folder: str | Path, edition: Edition, players: int, games: int, seed: int, bots: Sequence[str], *,
                  every: int = 4, options: Mapping[str, Any] | None = None, workers: int = 1,
                  executor: Executor | None = None, progress: Callable[[int], None] | None = None) -> Path:
    """Play ``games`` seeded games into ``folder`` (made if missing), or carry on the run it holds with these same
    settings (a folder of other settings is refused in one line); ``progress(k)`` with the games done. Interrupted,
    the finished batches stay written. The folder's ``data.json`` path is returned."""
    if games < 1:
        raise DataError(f"games must be at least 1, not {games}", source="--games")
    if every < 1:
        raise DataError(f"every must be at least 1, not {every}", source="--every")
    if workers < 1:
        raise DataError(f"workers must be at least 1, not {workers}", source="--workers")
    check_seed(seed, source="--seed")
    names = check_bots_play(edition.game, bots)
    features_of(edition)
    edition.start(players, seed, options)  # bad players or options are refused before the first game
    root = Path(folder)
    settings = {"format": "samurai-learn-data", "version": 1, "game": edition.game.name, "edition": edition.id,
                "players": players, "games": games, "seed": seed, "bots": list(names), "every": every,
                "options": dict(options or {}), "feature_version": edition.game.faces.feature_version}
    manifest = root / DATA_FILE
    if manifest.exists():
        found = parse_json(read_text(manifest), source=str(manifest))
        if found != settings:
            raise DataError("the folder holds data of other settings; choose a new folder, or ask for the same "
                            "edition, players, games, seed, bots and sampling", source=str(manifest))
    else:
        root.mkdir(parents=True, exist_ok=True)
        write_atomically(manifest, json.dumps(settings, indent=1) + "\n")
    name = loadable_name(edition)
    keep_edition(name, edition)
    chosen = dict(options or {})
    numbers = range(0, games, BATCH_GAMES)
    done = sum(min(BATCH_GAMES, games - start) for start in numbers
               if _batch_file(root, start // BATCH_GAMES).exists())
    if progress is not None and done:
        progress(done)
    missing = [start for start in numbers if not _batch_file(root, start // BATCH_GAMES).exists()]
    batches = [DataBatch(name, players, chosen, seed, names, every,
                         tuple(range(start, min(games, start + BATCH_GAMES)))) for start in missing]
    runner = make_executor("local", workers=workers) if executor is None else executor
    try:
        for batch, rows in zip(batches, runner.map(play_data_batch, batches), strict=True):
            with deferred_interrupts():  # a finished batch is written whole
                text = "".join(json.dumps(game.to_dict(), separators=(",", ":")) + "\n" for game in rows)
                write_atomically(_batch_file(root, batch.indices[0] // BATCH_GAMES), text)
            done += len(rows)
            if progress is not None:
                progress(done)
    finally:
        if executor is None:
            runner.close()
    return manifest


def read_data(folder: str | Path) -> tuple[dict[str, Any], list[GameRows]]:
    """A finished data folder: its settings and its games in their numbers' order; ``DataError`` naming the file
    for a folder cut short or a line that is not a game's."""
    root = Path(folder)
    manifest = root / DATA_FILE
    if not manifest.exists():
        raise DataError(f"no {DATA_FILE} here: not a folder of training data", source=str(root))
    settings = parse_json(read_text(manifest), source=str(manifest))
    if not isinstance(settings, dict) or settings.get("format") != "samurai-learn-data":
        raise DataError("not the settings of training data", source=str(manifest))
    games: list[GameRows] = []
    for start in range(0, int(settings["games"]), BATCH_GAMES):
        path = _batch_file(root, start // BATCH_GAMES)
        if not path.exists():
            raise DataError(f"{path.name} is missing: the run was cut short; run it again with the same settings "
                            f"to finish it", source=str(root))
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            games.append(_game_of(parse_json(line, source=f"{path}:{number}"), f"{path}:{number}"))
    return settings, games


def _game_of(data: Any, source: str) -> GameRows:
    try:
        return GameRows(int(data["game"]), int(data["seed"]), tuple(float(r) for r in data["returns"]),
                        tuple((int(p["seat"]), tuple(tuple(int(v) for v in row) for row in p["features"]))
                              for p in data["positions"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"not a game's line of training data ({type(exc).__name__}: {exc})", source=source) from None

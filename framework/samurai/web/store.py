"""Games kept in SQLite (the standard library's ``sqlite3``, write-ahead log): nothing is lost if the server stops.

One row per game (how it started, its seats, whether it is over) and an
append-only log of actions, one row each, numbered from 0. An action is
committed (``synchronous=FULL``) before the server acknowledges it, so a
server killed at any moment and started again rebuilds every game exactly
by replaying its log.

Seat tokens are never stored: only their SHA-256 digests.

A data file that is not this store's (not SQLite, a damaged file, another
program's tables) is refused with a ``DataError`` naming it, before anything
is written to it. One game whose rows cannot be read refuses that game only
(``Store.load`` raises a ``DataError`` naming the game and the row); the
list of finished games leaves it out, with one warning line on stderr.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..errors import DataError
from ..protocol import Move
from .games import GameSetup

__all__ = ["Store", "StoredGame", "SeatSpec"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,
    seats TEXT NOT NULL,
    imported TEXT,
    over INTEGER NOT NULL DEFAULT 0,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, number)
);
"""

_COLUMNS = {"games": ("id", "created", "setup", "seats", "imported", "over", "summary"),
            "actions": ("game", "number", "action")}
"""The tables of a store and their columns, in order: a file with other tables is not a store's."""

_SQLITE_HEADER = b"SQLite format 3\x00"


@attrs.frozen
class SeatSpec:
    """Who plays a seat: a person (known by the digest of their token) or a bot (by name)."""

    kind: str
    """``"human"``, ``"bot"`` or, for an imported record, ``"record"``."""
    bot: str | None = None
    token_digest: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The stored form."""
        return {"kind": self.kind, "bot": self.bot, "token_digest": self.token_digest}


@attrs.frozen
class StoredGame:
    """A game as stored: enough to rebuild it by replaying ``actions``."""

    id: str
    created: float
    setup: GameSetup
    seats: tuple[SeatSpec, ...]
    actions: tuple[Move, ...]
    imported: Any
    """The record a person uploaded (then the game is read-only), else None."""
    over: bool


class Store:
    """The games of one data directory (``DIR/games.sqlite3``)."""

    def __init__(self, folder: str | Path) -> None:
        """Open (or create) ``folder/games.sqlite3``; a file that is not a store's is refused unchanged.

        Raises ``DataError`` naming the file when it is not SQLite, is damaged, holds other tables than a
        store's, or cannot be opened (the folder is not writable, say).
        """
        self.folder = Path(folder)
        self.path = self.folder / "games.sqlite3"
        self._reported: set[str] = set()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            _check_file(self.path)
            # One connection shared by the server's threads, each use under the lock.
            self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except OSError as exc:
            raise DataError(f"cannot open the games' database: {exc.strerror or exc}", source=str(self.path)) from None
        except sqlite3.Error as exc:
            raise DataError(f"cannot open the games' database: {exc}", source=str(self.path)) from None
        self._lock = threading.Lock()
        try:
            with self._lock:
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")
                self._conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:  # e.g. locked by another program for longer than the default wait
            self._conn.close()
            raise DataError(f"cannot open the games' database: {exc}", source=str(self.path)) from None

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._conn.close()

    def create(self, game_id: str, setup: GameSetup, seats: Sequence[SeatSpec], *, imported: Any = None,
               actions: Sequence[Move] = (), over: bool = False, summary: Any = None) -> None:
        """Add a game (with the actions of an imported record, if any), in one transaction."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute(
                    "INSERT INTO games (id, created, setup, seats, imported, over, summary) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, time.time(), json.dumps(setup.to_dict()), json.dumps([s.to_dict() for s in seats]),
                     None if imported is None else json.dumps(imported), int(over),
                     None if summary is None else json.dumps(summary)))
                self._conn.executemany("INSERT INTO actions (game, number, action) VALUES (?, ?, ?)",
                                       [(game_id, n, json.dumps(list(a))) for n, a in enumerate(actions)])
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def append(self, game_id: str, number: int, action: Move, *, over: bool = False,
               summary: Any = None) -> None:
        """Commit action ``number`` of a game (and, when it ended the game, that it is over)."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("INSERT INTO actions (game, number, action) VALUES (?, ?, ?)",
                                   (game_id, number, json.dumps(list(action))))
                if over:
                    self._conn.execute("UPDATE games SET over = 1, summary = ? WHERE id = ?",
                                       (json.dumps(summary), game_id))
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def ids(self, *, over: bool | None = None) -> list[str]:
        """The stored games' ids, oldest first (only finished or unfinished ones with ``over``)."""
        query = "SELECT id FROM games" + ("" if over is None else " WHERE over = ?") + " ORDER BY created, id"
        with self._lock:
            rows = self._conn.execute(query, () if over is None else (int(over),)).fetchall()
        return [row[0] for row in rows]

    def summaries(self) -> list[dict[str, Any]]:
        """Finished and imported games, newest first: id, when, setup, seats' kinds and the summary kept.

        A game whose rows cannot be read is left out (and named once in a warning line on stderr): the
        list of the others is still given.
        """
        with self._lock:
            rows = self._conn.execute(
                "SELECT g.id, g.created, g.setup, g.seats, g.summary, g.imported IS NOT NULL, "
                "(SELECT COUNT(*) FROM actions a WHERE a.game = g.id) FROM games g "
                "WHERE g.over = 1 OR g.imported IS NOT NULL ORDER BY g.created DESC, g.id").fetchall()
        found = []
        for row in rows:
            try:
                seats = _seat_specs(row[0], row[3])
                found.append({"id": row[0], "created": _created(row[0], row[1]),
                              "setup": _setup(row[0], row[2]).to_dict(),
                              "seats": [{"kind": s.kind, "bot": s.bot} for s in seats],
                              "summary": _json_column(row[0], "summary", row[4]) if row[4] else None,
                              "imported": bool(row[5]), "moves": row[6]})
            except DataError as exc:
                self.report(str(row[0]), f"{self.path}: game {exc}; it is left out of the list of games")
        return found

    def load(self, game_id: str) -> StoredGame | None:
        """A stored game with its actions in order, or None when there is no such game.

        Raises ``DataError`` (naming the file, the game and the row) when its rows cannot be read: a gap in
        its action log, a row that is not the JSON it should be. Other games are not affected.
        """
        with self._lock:
            row = self._conn.execute("SELECT id, created, setup, seats, imported, over FROM games WHERE id = ?",
                                     (game_id,)).fetchone()
            if row is None:
                return None
            actions = self._conn.execute("SELECT number, action FROM actions WHERE game = ? ORDER BY number",
                                         (game_id,)).fetchall()
        try:
            moves = []
            for expected, (number, action) in enumerate(actions):
                if number != expected:
                    raise DataError(f"action {expected} is missing from the log", source=game_id)
                moves.append(_action(game_id, number, action))
            imported = None if row[4] is None else _json_column(game_id, "imported record", row[4])
            return StoredGame(row[0], _created(game_id, row[1]), _setup(game_id, row[2]),
                              _seat_specs(game_id, row[3]), tuple(moves), imported, bool(row[5]))
        except DataError as exc:
            raise DataError(f"game {exc}", source=str(self.path)) from None

    def report(self, game_id: str, problem: str) -> None:
        """Say on stderr, once per game, that a stored game cannot be read or resumed (the server's log)."""
        if game_id not in self._reported:
            self._reported.add(game_id)
            print(f"samurai: warning: {problem}", file=sys.stderr, flush=True)


def _check_file(path: Path) -> None:
    """Refuse, before anything is written to it, a file that is not a store's: not SQLite, damaged, or
    another program's tables. A missing or empty file is a new store."""
    if not path.exists() or path.stat().st_size == 0:
        return
    if path.is_dir():
        raise DataError("is a folder, not the games' database", source=str(path))
    with path.open("rb") as file:
        if file.read(len(_SQLITE_HEADER)) != _SQLITE_HEADER:
            raise DataError("is not a SQLite database (the games' database); move it away or name another "
                            "--data-dir", source=str(path))
    # Read-only, so a damaged file or another program's database is refused before any write; and, unless a
    # write-ahead log is there to be read (a server was killed), immutable, so that no -wal or -shm is created.
    wal = path.with_name(path.name + "-wal")
    flags = "mode=ro" if wal.exists() and wal.stat().st_size else "mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{flags}", uri=True)
    except sqlite3.Error as exc:
        raise DataError(f"cannot be read: {exc}", source=str(path)) from None
    try:
        checked = conn.execute("PRAGMA quick_check").fetchall()
        if checked != [("ok",)]:
            raise DataError(f"is damaged (SQLite's check: {checked[0][0]})", source=str(path))
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        for table in sorted(tables):
            columns = tuple(info[1] for info in conn.execute("SELECT * FROM pragma_table_info(?)", (table,)))
            if _COLUMNS.get(table) != columns:
                raise DataError(f"is not the games' database (it has a table {table!r} with columns "
                                f"{', '.join(columns)}); move it away or name another --data-dir", source=str(path))
        if tables and tables != set(_COLUMNS):
            raise DataError(f"is not the games' database (it has the tables {', '.join(sorted(tables))} only)",
                            source=str(path))
    except sqlite3.Error as exc:  # "file is not a database", "database disk image is malformed"
        raise DataError(f"is not a readable SQLite database: {exc}", source=str(path)) from None
    finally:
        conn.close()


def _json_column(game_id: str, what: str, text: Any) -> Any:
    """A JSON column of one row, or a DataError naming the game and what the column holds."""
    if not isinstance(text, str):
        raise DataError(f"{what}: not JSON text", source=game_id)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or JSON no row of ours is (too deep, too long a number)
        raise DataError(f"{what}: not valid JSON", source=game_id) from None


def _created(game_id: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError("creation time: not a number", source=game_id)
    return float(value)


def _setup(game_id: str, text: Any) -> GameSetup:
    setup = _json_column(game_id, "setup", text)
    fields = {"game": str, "edition": str, "players": int, "seed": int, "options": Mapping}
    if not isinstance(setup, dict) or any(key in setup and (isinstance(setup[key], bool) or not isinstance(
            setup[key], kind)) for key, kind in fields.items()) or not isinstance(setup.get("hints", False), bool):
        raise DataError(f"setup: not {{{', '.join([*fields, 'hints'])}}} of the right types", source=game_id)
    try:
        return GameSetup(**setup)
    except TypeError:  # a field missing, or one GameSetup does not have
        raise DataError(f"setup: not {{{', '.join(fields)}}}", source=game_id) from None


def _seat_specs(game_id: str, text: Any) -> tuple[SeatSpec, ...]:
    seats = _json_column(game_id, "seats", text)
    if not isinstance(seats, list) or not all(
            isinstance(s, dict) and isinstance(s.get("kind"), str) and all(
                isinstance(s.get(key), str | None) for key in ("bot", "token_digest")) for s in seats):
        raise DataError('seats: not a list of {"kind", "bot", "token_digest"}', source=game_id)
    return tuple(SeatSpec(s["kind"], s.get("bot"), s.get("token_digest")) for s in seats)


def _action(game_id: str, number: int, text: Any) -> Move:
    action = _json_column(game_id, f"action {number}", text)
    if not isinstance(action, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in action):
        raise DataError(f"action {number}: not a list of whole numbers", source=game_id)
    return tuple(action)

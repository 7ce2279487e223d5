"""Games kept in SQLite (the standard library's ``sqlite3``, write-ahead log): nothing is lost if the server stops.

One row per game (how it started, its seats, whether it is over) and an
append-only log of actions, one row each, numbered from 0. An action is
committed (``synchronous=FULL``) before the server acknowledges it, so a
server killed at any moment and started again rebuilds every game exactly
by replaying its log.

Seat tokens are never stored: only their SHA-256 digests.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

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
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "games.sqlite3"
        # One connection shared by the server's threads, each use under the lock.
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(_SCHEMA)

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
        """Finished and imported games, newest first: id, when, setup, seats' kinds and the summary kept."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT g.id, g.created, g.setup, g.seats, g.summary, g.imported IS NOT NULL, "
                "(SELECT COUNT(*) FROM actions a WHERE a.game = g.id) FROM games g "
                "WHERE g.over = 1 OR g.imported IS NOT NULL ORDER BY g.created DESC, g.id").fetchall()
        return [{"id": row[0], "created": row[1], "setup": json.loads(row[2]),
                 "seats": [{"kind": s["kind"], "bot": s["bot"]} for s in json.loads(row[3])],
                 "summary": json.loads(row[4]) if row[4] else None, "imported": bool(row[5]), "moves": row[6]}
                for row in rows]

    def load(self, game_id: str) -> StoredGame | None:
        """A stored game with its actions in order, or None."""
        with self._lock:
            row = self._conn.execute("SELECT id, created, setup, seats, imported, over FROM games WHERE id = ?",
                                     (game_id,)).fetchone()
            if row is None:
                return None
            actions = self._conn.execute("SELECT number, action FROM actions WHERE game = ? ORDER BY number",
                                         (game_id,)).fetchall()
        setup = json.loads(row[2])
        seats = tuple(SeatSpec(s["kind"], s.get("bot"), s.get("token_digest")) for s in json.loads(row[3]))
        for expected, (number, _) in enumerate(actions):
            if number != expected:
                raise ValueError(f"game {game_id}: action {expected} is missing from the log")
        return StoredGame(row[0], row[1], GameSetup(**setup), seats, tuple(tuple(json.loads(a)) for _, a in actions),
                          None if row[4] is None else json.loads(row[4]), bool(row[5]))

"""Tables on disk: SQLite in WAL mode with ``synchronous=FULL``, one append-only log per table.

A table is its setup and seed (or an imported starting position), its seat tokens, and the log
of everything done at it: actions with their events, undos, seat hand-overs, undo proposals.
Every row is committed before the server replies, so killing the server loses nothing it
accepted. Snapshots (the state and its undo history as JSON) every few rows keep a restart
from replaying long games from the start.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from meadhall.core.errors import MeadhallError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    seed INTEGER NOT NULL,
    chance TEXT NOT NULL,
    practice INTEGER NOT NULL,
    auto_choices INTEGER NOT NULL,
    base TEXT,
    tokens TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    result TEXT NOT NULL DEFAULT 'ongoing',
    title TEXT NOT NULL DEFAULT '',
    start TEXT,
    public INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


class StoreError(MeadhallError):
    """The database cannot be opened or written."""


def default_path() -> Path:
    """The default database: one SQLite file in the user's data folder."""
    return Path(platformdirs.user_data_dir("meadhall")) / "tables.sqlite3"


@dataclass(slots=True)
class TableRow:
    """A table's fixed facts, as stored."""

    id: str
    game: str
    setup: dict[str, Any]
    seed: int
    chance: str
    practice: bool
    auto_choices: bool
    base: dict[str, Any] | None
    tokens: dict[str, str]
    created: float
    updated: float
    version: int
    result: str
    title: str
    start: list[dict[str, Any]] | None = None
    """The events of the automated setup steps (``Game.start``), shown as the first step;
    ``None`` for an imported table and for tables stored before they were kept."""
    public: bool = False
    """Listed to everyone (``GET /api/tables``, the lobby): a host's choice; otherwise a table
    is listed only to the browsers holding one of its seats."""


@dataclass(slots=True)
class LogRow:
    """One entry of a table's append-only log; ``seq`` is the version it makes."""

    seq: int
    kind: str
    seat: str
    data: dict[str, Any]
    at: float


class Store:
    """The SQLite file holding every table. Thread-safe: one connection, one write lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on disk before the reply, so kill -9 loses no accepted action.
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
            cols = {r[1] for r in self.db.execute("PRAGMA table_info(tables)")}
            if "start" not in cols:  # a database from before setup events were kept
                self.db.execute("ALTER TABLE tables ADD COLUMN start TEXT")
            if "public" not in cols:  # a database from before tables could be listed
                self.db.execute("ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL "
                                "DEFAULT 0")
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"{self.path}: cannot open the table database: {e}") from None
        self.lock = threading.RLock()

    def close(self) -> None:
        with self.lock:
            self.db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise
                self.db.execute("COMMIT")
            except sqlite3.Error as e:
                raise StoreError(f"{self.path}: cannot write: {e}") from None

    # ------------------------------------------------------------------ writing
    def create(self, row: TableRow) -> None:
        """Store a new table (its id must be new)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO tables (id, game, setup, seed, chance, practice, auto_choices, "
                "base, tokens, created, updated, version, result, title, start, public) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (row.id, row.game, json.dumps(row.setup), row.seed, row.chance,
                 int(row.practice), int(row.auto_choices),
                 json.dumps(row.base) if row.base is not None else None, json.dumps(row.tokens),
                 row.created, row.updated, row.version, row.result, row.title,
                 json.dumps(row.start) if row.start is not None else None, int(row.public)))

    def append(self, table_id: str, entry: LogRow, result: str,
               snapshot: dict[str, Any] | None = None) -> None:
        """Append one log row (and optionally a snapshot at it) in one committed transaction."""
        with self._write() as db:
            db.execute("INSERT INTO log (table_id, seq, kind, seat, data, at) VALUES (?,?,?,?,?,?)",
                       (table_id, entry.seq, entry.kind, entry.seat, json.dumps(entry.data),
                        entry.at))
            db.execute("UPDATE tables SET version = ?, updated = ?, result = ? WHERE id = ?",
                       (entry.seq, entry.at, result, table_id))
            if snapshot is not None:
                db.execute("INSERT OR REPLACE INTO snapshots (table_id, seq, data) VALUES (?,?,?)",
                           (table_id, entry.seq, json.dumps(snapshot)))

    # ------------------------------------------------------------------ reading
    def table(self, table_id: str) -> TableRow | None:
        with self.lock:
            r = self.db.execute("SELECT id, game, setup, seed, chance, practice, auto_choices, "
                                "base, tokens, created, updated, version, result, title, start, "
                                "public FROM tables WHERE id = ?", (table_id,)).fetchone()
        if r is None:
            return None
        return TableRow(r[0], r[1], json.loads(r[2]), r[3], r[4], bool(r[5]), bool(r[6]),
                        json.loads(r[7]) if r[7] else None, json.loads(r[8]), r[9], r[10],
                        r[11], r[12], r[13], json.loads(r[14]) if r[14] else None, bool(r[15]))

    def tables(self, limit: int = 200) -> list[TableRow]:
        """The most recently played tables first."""
        with self.lock:
            ids = [r[0] for r in self.db.execute(
                "SELECT id FROM tables ORDER BY updated DESC LIMIT ?", (limit,))]
        return [t for t in (self.table(i) for i in ids) if t is not None]

    def listed(self, tokens: set[str], limit: int = 50) -> list[tuple[TableRow, str | None]]:
        """The most recently played tables that are public or hold a seat whose token is in
        ``tokens``, each with the seat the tokens open there (None: public only)."""
        out: list[tuple[str, str | None]] = []
        with self.lock:
            for tid, raw, public in self.db.execute(
                    "SELECT id, tokens, public FROM tables ORDER BY updated DESC"):
                seat = None
                if tokens:
                    seat = next((s for s, tok in json.loads(raw).items() if tok in tokens),
                                None)
                if seat is not None or public:
                    out.append((tid, seat))
                    if len(out) >= limit:
                        break
        rows = [(self.table(i), seat) for i, seat in out]
        return [(r, seat) for r, seat in rows if r is not None]

    def with_bots(self) -> list[str]:
        """The tables where a seat was ever handed to a bot (most recently played first):
        a restart looks at these, and leaves every other table on disk until it is asked
        for."""
        with self.lock:
            return [r[0] for r in self.db.execute(
                "SELECT t.id FROM tables t WHERE t.result = 'ongoing' AND EXISTS (SELECT 1 "
                "FROM log l WHERE l.table_id = t.id AND l.kind = 'seat' AND "
                "l.data LIKE '%bot:%') ORDER BY t.updated DESC")]

    def set_public(self, table_id: str, public: bool) -> None:
        """List the table to everyone, or only to its seats' browsers."""
        with self._write() as db:
            db.execute("UPDATE tables SET public = ? WHERE id = ?", (int(public), table_id))

    def log(self, table_id: str, after: int = 0) -> list[LogRow]:
        """The log rows with ``seq`` greater than ``after``, in order."""
        with self.lock:
            rows = self.db.execute("SELECT seq, kind, seat, data, at FROM log WHERE table_id = ? "
                                   "AND seq > ? ORDER BY seq", (table_id, after)).fetchall()
        return [LogRow(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def snapshot(self, table_id: str) -> tuple[int, dict[str, Any]] | None:
        """The latest snapshot of a table: its seq and data."""
        with self.lock:
            r = self.db.execute("SELECT seq, data FROM snapshots WHERE table_id = ? "
                                "ORDER BY seq DESC LIMIT 1", (table_id,)).fetchone()
        return (r[0], json.loads(r[1])) if r else None


def now() -> float:
    return time.time()

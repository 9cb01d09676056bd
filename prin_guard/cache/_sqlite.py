"""A cache in a local SQLite file: survives restarts, needs no server.

``prin-guard eval`` uses it by default so that re-running an interrupted or
finished evaluation costs no judge call. Several processes on one machine may
share the file (SQLite locks it); across machines use ``RedisCache``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["SQLiteCache"]

_BATCH = 500  # stay well under SQLite's limit on bound parameters


class SQLiteCache:
    """Keys and JSON values in one SQLite table. Values are text, never pickle."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute("CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT)")
        self.hits = 0
        self.misses = 0

    async def get_many(self, keys: Sequence[str]) -> list[str | None]:
        found: dict[str, str] = {}
        with self._lock:
            for start in range(0, len(keys), _BATCH):
                chunk = list(keys[start : start + _BATCH])
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT key, value FROM kv WHERE key IN ({marks})",  # noqa: S608 - placeholders only
                    chunk,
                ).fetchall()
                found.update(rows)
        out = [found.get(key) for key in keys]
        hits = sum(value is not None for value in out)
        self.hits += hits
        self.misses += len(out) - hits
        return out

    async def set_many(self, entries: Mapping[str, str]) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", list(entries.items())
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM kv").fetchone()
        return int(count)

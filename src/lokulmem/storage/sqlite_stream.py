"""Reading a whole store in pages from one consistent snapshot (for streamed exports)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..records import Cluster, Edge, Episode, Memory
from .sealing import Sealer
from .sqlite_base import SQLiteBase
from .sqlite_rows import (
    CLUSTER_COLUMNS,
    EDGE_COLUMNS,
    EPISODE_COLUMNS,
    SELECT,
    row_to_cluster,
    row_to_edge,
    row_to_episode,
    row_to_memory,
)

__all__ = ["SQLiteStream", "StoreSnapshot"]

_SELECT_WITH_ROWID = SELECT.replace("SELECT ", "SELECT rowid, ", 1)


@dataclass(frozen=True)
class StoreSnapshot:
    """The store as it was when the snapshot began, read in pages (keyset by rowid,
    so each page costs the same however deep into the table it is)."""

    conn: sqlite3.Connection
    sealer: Sealer

    def memory_pages(self, size: int) -> Iterator[list[Memory]]:
        last = 0
        while rows := self.conn.execute(
            _SELECT_WITH_ROWID + " WHERE rowid > ? ORDER BY rowid LIMIT ?", (last, size)
        ).fetchall():
            last = rows[-1][0]
            yield [row_to_memory(r[1:], self.sealer) for r in rows]

    def edge_pages(self, size: int) -> Iterator[list[Edge]]:
        last = 0
        while rows := self.conn.execute(
            f"SELECT rowid, {EDGE_COLUMNS} FROM edges WHERE rowid > ? ORDER BY rowid LIMIT ?", (last, size)
        ).fetchall():
            last = rows[-1][0]
            yield [row_to_edge(r[1:], self.sealer) for r in rows]

    def episodes(self) -> list[Episode]:
        rows = self.conn.execute(f"SELECT {EPISODE_COLUMNS} FROM episodes ORDER BY started_at, id").fetchall()
        return [row_to_episode(r, self.sealer) for r in rows]

    def clusters(self) -> list[Cluster]:
        rows = self.conn.execute(f"SELECT {CLUSTER_COLUMNS} FROM clusters ORDER BY id").fetchall()
        return [row_to_cluster(r, self.sealer) for r in rows]

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])


class SQLiteStream(SQLiteBase):
    """``snapshot()``: a read transaction of its own, so a long export neither blocks
    this client's writers nor sees their writes half-way."""

    @contextmanager
    def snapshot(self) -> Iterator[StoreSnapshot]:
        if self.in_memory:  # one connection only: hold it
            with self._lock:
                self._c.execute("BEGIN")
                try:
                    yield StoreSnapshot(self._c, self._sealer)
                finally:
                    self._c.execute("ROLLBACK")
            return
        conn = self._connect()
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            conn.execute("BEGIN")
            conn.execute("SELECT count(*) FROM meta").fetchone()  # the snapshot starts here
            yield StoreSnapshot(conn, self._sealer)
        finally:
            conn.close()

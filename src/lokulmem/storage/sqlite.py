"""SQLite storage: one file per store, WAL, busy timeout, named migrations.

Several processes may open the same file.  Writes use ``BEGIN IMMEDIATE`` so a
writer takes the lock up front and waits (``busy_timeout``) instead of failing
on a lock upgrade; transactions are short.  ``PRAGMA data_version`` tells a
process that another one committed, so it can refresh its vector index.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import EmbeddingModelMismatchError, SchemaVersionError, StorageError
from ..records import (
    Memory,
    context_text,
)
from .leases import held_by, lease_key, lease_value, may_take
from .migrations import LATEST_VERSION, migrate
from .protocol import EmbeddingTexts, EmbeddingVectors
from .sqlite_backup import SQLiteBackup
from .sqlite_graph import SQLiteGraph
from .sqlite_queries import SQLiteQueries
from .sqlite_rows import (
    INSERT,
    SELECT,
    UPDATE,
    blob_to_vec,
    memory_to_row,
    row_to_memory,
    vec_to_blob,
)
from .sqlite_stream import SQLiteStream

__all__ = ["SQLiteStorage"]


#: Vectors read per query when the index is (re)built.
_VECTOR_PAGE = 2048
#: Pause between two tries of the switch to WAL (see ``SQLiteStorage._enable_wal``).
_WAL_RETRY_S = 0.01


class SQLiteStorage(SQLiteQueries, SQLiteGraph, SQLiteBackup, SQLiteStream):
    """The default :class:`~lokulmem.storage.Storage`.

    ``path=":memory:"`` gives a private in-memory store.  The connection is
    shared by the client's threads behind a re-entrant lock.
    """

    def open(self, *, embedding_model: str, dimension: int) -> None:
        if self._conn is not None:
            return
        if not self.in_memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = self._connect()
        try:
            self._check_before_writing(conn, embedding_model, dimension)
            self._unlock_before_writing(conn)
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            if not self.in_memory:
                mode = self._enable_wal(conn)
                if str(mode).lower() != "wal":  # pragma: no cover - filesystem without WAL
                    raise StorageError(f"cannot enable WAL on {self.path} (got {mode})")
            conn.execute("PRAGMA synchronous = NORMAL")  # safe with WAL; fsync at checkpoint
            conn.execute("PRAGMA foreign_keys = ON")
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            migrate(conn, current)
            self._conn = conn
            self._init_meta(embedding_model, dimension)
            self._attach_encryption()
        except sqlite3.DatabaseError as exc:
            self._conn = None
            conn.close()
            raise StorageError(f"{self.path} is not a usable lokulmem store: {exc}") from exc
        except BaseException:
            self._conn = None
            conn.close()
            raise

    def _enable_wal(self, conn: sqlite3.Connection) -> str:
        """Switch to WAL and return the journal mode.  SQLite answers "database is
        locked" at once, without the busy handler, when another connection switches
        a new file at the same moment: retry within ``busy_timeout_ms``."""
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        while True:
            try:
                return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(_WAL_RETRY_S)

    @staticmethod
    def _check_before_writing(conn: sqlite3.Connection, model: str, dimension: int) -> None:
        """Refuse, without writing anything, a newer schema or another model's vectors."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > LATEST_VERSION:
            raise SchemaVersionError(
                f"store schema version {version} is newer than this lokulmem "
                f"supports ({LATEST_VERSION}); upgrade lokulmem to open it"
            )
        if version == 0:
            return
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_model'").fetchone()
        if row is not None and row[0] != model:
            raise EmbeddingModelMismatchError(
                f"store vectors come from embedding model {row[0]!r}, but the configured "
                f"embedder is {model!r}; open it with that embedder, or re-embed the store"
            )
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dimension'").fetchone()
        if row is not None and int(row[0]) != dimension:
            raise EmbeddingModelMismatchError(
                f"store vectors have dimension {row[0]}, the embedder gives {dimension}"
            )

    def reembed(self, embedder: Any, *, batch_size: int = 64) -> int:
        """Re-embed every memory (and episode) with ``embedder`` and record its model id.

        The path out of :class:`EmbeddingModelMismatchError`: open the store
        with ``SQLiteStorage(path)`` (not yet opened) and call this (or
        :func:`lokulmem.reembed.reembed_store`); one transaction, so an
        interrupted run leaves the old vectors.  Returns the number of
        memories re-embedded.
        """
        from ..reembed import reembed_store  # the embedding is not storage's business

        return reembed_store(self, embedder, batch_size=batch_size)

    def open_unchecked(self) -> None:
        """Open (and migrate) without checking the embedding model: for re-embedding.
        A newer-than-known schema is still refused, untouched."""
        if self._conn is not None:
            return
        conn = self._connect()
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > LATEST_VERSION:
            conn.close()
            raise SchemaVersionError(f"store schema version {version} is newer than supported")
        try:
            self._unlock_before_writing(conn)
            migrate(conn, version)
            self._conn = conn
            self._attach_encryption()
        except BaseException:
            self._conn = None
            conn.close()
            raise

    def texts_to_embed(self) -> EmbeddingTexts:
        """Every text the store keeps a vector of: memory contents, message contexts
        (reply context + source message, for memories that have a context vector)
        and episode summaries, each as ``(id, text)`` in insertion order."""
        c, op = self._c, self._sealer.open
        return EmbeddingTexts(
            memories=[
                (r[0], op(r[1], f"memories.content:{r[0]}"))
                for r in c.execute("SELECT id, content FROM memories ORDER BY rowid")
            ],
            contexts=[
                (
                    r[0],
                    context_text(
                        op(r[1], f"memories.reply_context:{r[0]}"),
                        op(r[2], f"memories.source_context:{r[0]}"),
                    ),
                )
                for r in c.execute(
                    "SELECT id, reply_context, source_context FROM memories "
                    "WHERE context_embedding IS NOT NULL ORDER BY rowid"
                )
            ],
            episodes=[
                (r[0], op(r[1], f"episodes.summary:{r[0]}"))
                for r in c.execute("SELECT id, summary FROM episodes ORDER BY rowid")
            ],
        )

    def replace_vectors(self, vectors: EmbeddingVectors, *, model_id: str, dimension: int) -> None:
        """Store new vectors for memories, contexts and episodes and record the model,
        in one transaction; the clusters, derived from the old vectors, are dropped
        (the next maintenance run recomputes them in the new space)."""
        with self.transaction():
            c = self._c
            c.executemany(
                "UPDATE memories SET embedding = ? WHERE id = ?",
                [(vec_to_blob(v, self._half), i) for i, v in vectors.memories],
            )
            c.executemany(
                "UPDATE memories SET context_embedding = ? WHERE id = ?",
                [(vec_to_blob(v, self._half), i) for i, v in vectors.contexts],
            )
            c.executemany(
                "UPDATE episodes SET embedding = ? WHERE id = ?",
                [(vec_to_blob(v, self._half), i) for i, v in vectors.episodes],
            )
            c.execute("DELETE FROM clusters")
            c.execute("UPDATE memories SET cluster_id = NULL WHERE cluster_id IS NOT NULL")
            c.execute("DELETE FROM meta WHERE key = 'clusters:last_rowid'")
            self.set_meta("embedding_model", model_id)
            self.set_meta("embedding_dimension", str(dimension))

    def _init_meta(self, model: str, dimension: int) -> None:
        with self.transaction():
            conn = self._c
            for key, value in (("embedding_model", model), ("embedding_dimension", str(dimension))):
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
                    (key, value),
                )

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
                self._fts = None

    def insert_memory(self, memory: Memory) -> None:
        with self.transaction():
            try:
                self._c.execute(INSERT, memory_to_row(memory, self._sealer, self._half))
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"memory {memory.id!r} cannot be inserted: {exc}") from exc
            self._c.executemany(
                "INSERT INTO memory_types(memory_id, type) VALUES (?, ?)",
                [(memory.id, t) for t in dict.fromkeys(memory.types)],
            )

    def update_memory(self, memory: Memory) -> None:
        with self.transaction():
            row = memory_to_row(memory, self._sealer, self._half)
            cur = self._c.execute(UPDATE, (*row[1:], memory.id))
            if cur.rowcount != 1:
                raise StorageError(f"memory {memory.id!r} does not exist")
            self._c.execute("DELETE FROM memory_types WHERE memory_id = ?", (memory.id,))
            self._c.executemany(
                "INSERT INTO memory_types(memory_id, type) VALUES (?, ?)",
                [(memory.id, t) for t in dict.fromkeys(memory.types)],
            )

    def get_memory(self, memory_id: str) -> Memory | None:
        with self._lock:
            row = self._c.execute(SELECT + " WHERE id = ?", (memory_id,)).fetchone()
        return row_to_memory(row, self._sealer) if row else None

    def get_memories(self, ids: Sequence[str]) -> list[Memory]:
        if not ids:
            return []
        found: dict[str, Memory] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                for row in self._c.execute(SELECT + f" WHERE id IN ({marks})", chunk):
                    m = row_to_memory(row, self._sealer)
                    found[m.id] = m
        return [found[i] for i in ids if i in found]

    def all_memories(self) -> list[Memory]:
        with self._lock:
            rows = self._c.execute(SELECT + " ORDER BY created_at, id").fetchall()
        return [row_to_memory(r, self._sealer) for r in rows]

    def active_vectors(self) -> Iterator[tuple[str, npt.NDArray[np.float32]]]:
        """Every active memory's vector, read in pages (keyset by rowid) so the blobs
        of a large store are never all in memory at once."""
        last = 0
        while True:
            with self._lock:
                rows = self._c.execute(
                    "SELECT rowid, id, embedding FROM memories WHERE rowid > ? "
                    "AND status = 'active' AND embedding IS NOT NULL ORDER BY rowid LIMIT ?",
                    (last, _VECTOR_PAGE),
                ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            for _, memory_id, blob in rows:
                vec = blob_to_vec(blob)
                assert vec is not None
                yield memory_id, vec

    def superseded_vectors(self, limit: int) -> list[tuple[str, str, npt.NDArray[np.float32]]]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, superseded_by, embedding FROM memories WHERE status = 'superseded' "
                "AND superseded_by IS NOT NULL AND embedding IS NOT NULL "
                "ORDER BY superseded_at DESC, rowid DESC LIMIT ?",
                (limit,),
            ).fetchall()
        out = []
        for memory_id, successor, blob in rows:
            vec = blob_to_vec(blob)
            assert vec is not None
            out.append((memory_id, successor, vec))
        return out

    def data_version(self) -> int:
        with self._lock:
            return int(self._c.execute("PRAGMA data_version").fetchone()[0])

    def size_bytes(self) -> int:
        """Bytes of database pages in use (free pages excluded)."""
        with self._lock:
            pages = self._c.execute("PRAGMA page_count").fetchone()[0]
            free = self._c.execute("PRAGMA freelist_count").fetchone()[0]
            size = self._c.execute("PRAGMA page_size").fetchone()[0]
        return int((pages - free) * size)

    def delete_memories(self, ids: Sequence[str]) -> None:
        if not ids:
            return
        with self.transaction():
            conn = self._c
            gone = set(ids)
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                conn.execute(f"DELETE FROM memory_types WHERE memory_id IN ({marks})", chunk)
                conn.execute(f"DELETE FROM edges WHERE from_id IN ({marks}) OR to_id IN ({marks})", chunk * 2)
                conn.execute(f"DELETE FROM memories WHERE id IN ({marks})", chunk)
            for cid, members in conn.execute("SELECT id, member_ids FROM clusters").fetchall():
                kept = [m for m in json.loads(members) if m not in gone]
                if len(kept) != len(json.loads(members)):
                    conn.execute("UPDATE clusters SET member_ids = ? WHERE id = ?", (json.dumps(kept), cid))

    def clear(self, *, keep_audit: bool = False) -> None:
        with self.transaction():
            tables = ["memory_types", "edges", "clusters", "episodes", "memories"]
            if not keep_audit:
                tables.append("bridge_events")
            for table in tables:
                self._c.execute(f"DELETE FROM {table}")

    def acquire_lease(self, name: str, holder: str, *, ttl_s: float, now_s: float) -> bool:
        """Take (or renew) the lease ``name`` for ``holder`` unless another holder's is
        unexpired (:mod:`lokulmem.storage.leases`)."""
        with self.transaction():
            if not may_take(self.get_meta(lease_key(name)), holder, now_s):
                return False
            self.set_meta(lease_key(name), lease_value(holder, ttl_s=ttl_s, now_s=now_s))
        return True

    def release_lease(self, name: str, holder: str) -> None:
        with self.transaction():
            if held_by(self.get_meta(lease_key(name)), holder):
                self._c.execute("DELETE FROM meta WHERE key = ?", (lease_key(name),))

    def set_context_vectors(self, vectors: Sequence[tuple[str, npt.NDArray[np.float32]]]) -> None:
        """Write each ``(memory id, context vector)``; ids no longer stored are skipped."""
        with self.transaction():
            self._c.executemany(
                "UPDATE memories SET context_embedding = ? WHERE id = ?",
                [(vec_to_blob(v, self._half), i) for i, v in vectors],
            )

    def touch_memories(self, memories: Sequence[Memory]) -> None:
        """Write only what a retrieval changes on each memory: strength, mentions,
        confidence and the access times (no vectors, types or full-text rows)."""
        with self.transaction():
            cur = self._c.executemany(
                "UPDATE memories SET base_strength = ?, mention_count = ?, confidence = ?, "
                "last_accessed_at = ?, last_reinforced = ?, updated_at = ? WHERE id = ?",
                [
                    (
                        m.base_strength,
                        m.mention_count,
                        m.confidence,
                        m.last_accessed_at,
                        m.last_reinforced,
                        m.updated_at,
                        m.id,
                    )
                    for m in memories
                ],
            )
            if cur.rowcount != len(memories):
                raise StorageError(f"{len(memories) - cur.rowcount} of the memories to touch do not exist")

    def mark_faded(self, ids: Sequence[str], now_ms: int) -> None:
        """Set ``status="faded"``, ``faded_at`` and ``updated_at`` on active memories among ``ids``."""
        with self.transaction():
            self._c.executemany(
                "UPDATE memories SET status = 'faded', faded_at = ?, updated_at = ? "
                "WHERE id = ? AND status = 'active'",
                [(now_ms, now_ms, i) for i in ids],
            )

"""SQLite storage: one file per store, WAL, busy timeout, named migrations.

Several processes may open the same file.  Writes use ``BEGIN IMMEDIATE`` so a
writer takes the lock up front and waits (``busy_timeout``) instead of failing
on a lock upgrade; transactions are short.  ``PRAGMA data_version`` tells a
process that another one committed, so it can refresh its vector index.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import EmbeddingModelMismatchError, SchemaVersionError, StorageError
from ..records import (
    BridgeEvent,
    Cluster,
    Edge,
    Episode,
    Memory,
    QualityWalls,
    RejectedItem,
    context_text,
)
from .migrations import LATEST_VERSION, migrate
from .protocol import EmbeddingTexts, EmbeddingVectors, MemoryQuery

__all__ = ["SQLiteStorage", "default_store_path"]

_COLUMNS = (
    "id content types embedding cluster_id base_strength confidence extraction_score "
    "emotional_valence mention_count pinned valid_from valid_to created_at updated_at "
    "last_accessed_at last_reinforced status superseded_by superseded_at supersession_type "
    "temporal_supersedes source_session source_turn source_conversation_ids entities "
    "source_text source project_id track key kind quality_form quality_filter "
    "quality_substance quality_factuality quality_score attribute attribute_value metadata faded_at "
    "source_context reply_context context_embedding event_at"
).split()
_SELECT = "SELECT " + ", ".join(_COLUMNS) + " FROM memories"
_VECTOR_COLUMNS = frozenset({"embedding", "context_embedding"})
_SELECT_LIGHT = (
    "SELECT " + ", ".join("NULL" if c in _VECTOR_COLUMNS else c for c in _COLUMNS) + " FROM memories"
)
_ORDER_COLUMNS = frozenset({"created_at", "last_accessed_at", "mention_count", "updated_at", "base_strength"})
_WORD = re.compile(r"\w+", re.UNICODE)
_INSERT = f"INSERT INTO memories ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
_UPDATE = "UPDATE memories SET " + ", ".join(f"{c} = ?" for c in _COLUMNS[1:]) + " WHERE id = ?"


def default_store_path(store_name: str) -> Path:
    """``<user data dir>/lokulmem/<store_name>.sqlite`` (via platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("lokulmem", appauthor=False)) / f"{store_name}.sqlite"


def _vec_to_blob(vec: npt.NDArray[np.float32] | None) -> bytes | None:
    if vec is None:
        return None
    return np.asarray(vec, dtype="<f4").tobytes()


def _blob_to_vec(blob: bytes | None) -> npt.NDArray[np.float32] | None:
    if blob is None:
        return None
    vec = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    vec.setflags(write=False)
    return vec


def memory_to_row(m: Memory) -> tuple[Any, ...]:
    q = m.quality
    return (
        m.id,
        m.content,
        json.dumps(list(m.types)),
        _vec_to_blob(m.embedding),
        m.cluster_id,
        float(m.base_strength),
        m.confidence,
        float(m.extraction_score),
        float(m.emotional_valence),
        int(m.mention_count),
        int(bool(m.pinned)),
        int(m.valid_from),
        m.valid_to,
        int(m.created_at),
        int(m.updated_at),
        int(m.last_accessed_at),
        int(m.last_reinforced),
        m.status,
        m.superseded_by,
        m.superseded_at,
        m.supersession_type,
        m.temporal_supersedes,
        m.source_session,
        int(m.source_turn),
        json.dumps(list(m.source_conversation_ids)),
        json.dumps(list(m.entities)),
        m.source_text,
        m.source,
        m.project_id,
        m.track,
        m.key,
        m.kind,
        float(q.form),
        float(q.filter),
        float(q.substance),
        float(q.factuality),
        float(q.score),
        m.attribute,
        m.attribute_value,
        json.dumps(dict(m.metadata), sort_keys=True),
        m.faded_at,
        m.source_context,
        m.reply_context,
        _vec_to_blob(m.context_embedding),
        m.event_at,
    )


def row_to_memory(row: Sequence[Any]) -> Memory:
    d = dict(zip(_COLUMNS, row, strict=True))
    return Memory(
        id=d["id"],
        content=d["content"],
        types=tuple(json.loads(d["types"])),
        embedding=_blob_to_vec(d["embedding"]),
        cluster_id=d["cluster_id"],
        base_strength=d["base_strength"],
        confidence=d["confidence"],
        extraction_score=d["extraction_score"],
        emotional_valence=d["emotional_valence"],
        mention_count=d["mention_count"],
        pinned=bool(d["pinned"]),
        valid_from=d["valid_from"],
        valid_to=d["valid_to"],
        created_at=d["created_at"],
        updated_at=d["updated_at"],
        last_accessed_at=d["last_accessed_at"],
        last_reinforced=d["last_reinforced"],
        status=d["status"],
        superseded_by=d["superseded_by"],
        superseded_at=d["superseded_at"],
        supersession_type=d["supersession_type"],
        temporal_supersedes=d["temporal_supersedes"],
        source_session=d["source_session"],
        source_turn=d["source_turn"],
        source_conversation_ids=tuple(json.loads(d["source_conversation_ids"])),
        entities=tuple(json.loads(d["entities"])),
        source_text=d["source_text"],
        source=d["source"],
        project_id=d["project_id"],
        track=d["track"],
        key=d["key"],
        kind=d["kind"],
        quality=QualityWalls(
            form=d["quality_form"],
            filter=d["quality_filter"],
            substance=d["quality_substance"],
            factuality=d["quality_factuality"],
        ),
        attribute=d["attribute"],
        attribute_value=d["attribute_value"],
        metadata=json.loads(d["metadata"]),
        faded_at=d["faded_at"],
        source_context=d["source_context"],
        reply_context=d["reply_context"],
        context_embedding=_blob_to_vec(d["context_embedding"]),
        event_at=d["event_at"],
    )


class SQLiteStorage:
    """The default :class:`~lokulmem.storage.Storage`.

    ``path=":memory:"`` gives a private in-memory store.  The connection is
    shared by the client's threads behind a re-entrant lock.
    """

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout_ms: int = 30_000) -> None:
        self.path = str(path)
        self.location = self.path
        self.busy_timeout_ms = busy_timeout_ms
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._depth = 0
        self._fts: bool | None = None

    @property
    def in_memory(self) -> bool:
        return self.path == ":memory:"

    # -- lifecycle ------------------------------------------------------
    def open(self, *, embedding_model: str, dimension: int) -> None:
        if self._conn is not None:
            return
        if not self.in_memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        conn = self._connect()
        try:
            self._check_before_writing(conn, embedding_model, dimension)
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            if not self.in_memory:
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":  # pragma: no cover - filesystem without WAL
                    raise StorageError(f"cannot enable WAL on {self.path} (got {mode})")
            conn.execute("PRAGMA synchronous = NORMAL")  # safe with WAL; fsync at checkpoint
            conn.execute("PRAGMA foreign_keys = ON")
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            migrate(conn, current)
            self._conn = conn
            self._init_meta(embedding_model, dimension)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StorageError(f"{self.path} is not a usable lokulmem store: {exc}") from exc
        except BaseException:
            conn.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        try:
            return sqlite3.connect(
                self.path,
                timeout=self.busy_timeout_ms / 1000,
                isolation_level=None,  # we issue BEGIN/COMMIT ourselves
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open store {self.path}: {exc}") from exc

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
        migrate(conn, version)
        self._conn = conn

    def texts_to_embed(self) -> EmbeddingTexts:
        """Every text the store keeps a vector of: memory contents, message contexts
        (reply context + source message, for memories that have a context vector)
        and episode summaries, each as ``(id, text)`` in insertion order."""
        c = self._c
        return EmbeddingTexts(
            memories=[(r[0], r[1]) for r in c.execute("SELECT id, content FROM memories ORDER BY rowid")],
            contexts=[
                (r[0], context_text(r[1], r[2]))
                for r in c.execute(
                    "SELECT id, reply_context, source_context FROM memories "
                    "WHERE context_embedding IS NOT NULL ORDER BY rowid"
                )
            ],
            episodes=[(r[0], r[1]) for r in c.execute("SELECT id, summary FROM episodes ORDER BY rowid")],
        )

    def replace_vectors(self, vectors: EmbeddingVectors, *, model_id: str, dimension: int) -> None:
        """Store new vectors for memories, contexts and episodes and record the model,
        in one transaction; the clusters, derived from the old vectors, are dropped
        (the next maintenance run recomputes them in the new space)."""
        with self.transaction():
            c = self._c
            c.executemany(
                "UPDATE memories SET embedding = ? WHERE id = ?",
                [(_vec_to_blob(v), i) for i, v in vectors.memories],
            )
            c.executemany(
                "UPDATE memories SET context_embedding = ? WHERE id = ?",
                [(_vec_to_blob(v), i) for i, v in vectors.contexts],
            )
            c.executemany(
                "UPDATE episodes SET embedding = ? WHERE id = ?",
                [(_vec_to_blob(v), i) for i, v in vectors.episodes],
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

    @property
    def _c(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StorageError("store is not open")
        return self._conn

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            conn = self._c
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StorageError(f"cannot start a write on {self.path}: {exc}") from exc
            self._depth = 1
            try:
                yield
            except BaseException:
                self._depth = 0
                conn.execute("ROLLBACK")
                raise
            else:
                self._depth = 0
                try:
                    conn.execute("COMMIT")
                except sqlite3.Error as exc:
                    conn.execute("ROLLBACK")
                    raise StorageError(f"commit failed on {self.path}: {exc}") from exc

    # -- memories -------------------------------------------------------
    def insert_memory(self, memory: Memory) -> None:
        with self.transaction():
            try:
                self._c.execute(_INSERT, memory_to_row(memory))
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"memory {memory.id!r} cannot be inserted: {exc}") from exc
            self._c.executemany(
                "INSERT INTO memory_types(memory_id, type) VALUES (?, ?)",
                [(memory.id, t) for t in dict.fromkeys(memory.types)],
            )

    def update_memory(self, memory: Memory) -> None:
        with self.transaction():
            row = memory_to_row(memory)
            cur = self._c.execute(_UPDATE, (*row[1:], memory.id))
            if cur.rowcount != 1:
                raise StorageError(f"memory {memory.id!r} does not exist")
            self._c.execute("DELETE FROM memory_types WHERE memory_id = ?", (memory.id,))
            self._c.executemany(
                "INSERT INTO memory_types(memory_id, type) VALUES (?, ?)",
                [(memory.id, t) for t in dict.fromkeys(memory.types)],
            )

    def get_memory(self, memory_id: str) -> Memory | None:
        with self._lock:
            row = self._c.execute(_SELECT + " WHERE id = ?", (memory_id,)).fetchone()
        return row_to_memory(row) if row else None

    def get_memories(self, ids: Sequence[str]) -> list[Memory]:
        if not ids:
            return []
        found: dict[str, Memory] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                for row in self._c.execute(_SELECT + f" WHERE id IN ({marks})", chunk):
                    m = row_to_memory(row)
                    found[m.id] = m
        return [found[i] for i in ids if i in found]

    def ids_by_attribute(self, attribute: str, *, status: str = "active") -> list[str]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id FROM memories WHERE attribute = ? AND status = ?", (attribute, status)
            ).fetchall()
        return [r[0] for r in rows]

    def all_memories(self) -> list[Memory]:
        with self._lock:
            rows = self._c.execute(_SELECT + " ORDER BY created_at, id").fetchall()
        return [row_to_memory(r) for r in rows]

    def active_vectors(self) -> Iterator[tuple[str, npt.NDArray[np.float32]]]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, embedding FROM memories "
                "WHERE status = 'active' AND embedding IS NOT NULL ORDER BY rowid"
            ).fetchall()
        for memory_id, blob in rows:
            vec = _blob_to_vec(blob)
            assert vec is not None
            yield memory_id, vec

    def pinned_ids(self) -> list[str]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id FROM memories WHERE status = 'active' AND pinned = 1"
            ).fetchall()
        return [r[0] for r in rows]

    def count_memories(self, status: str | None = None) -> int:
        with self._lock:
            if status is None:
                row = self._c.execute("SELECT COUNT(*) FROM memories").fetchone()
            else:
                row = self._c.execute("SELECT COUNT(*) FROM memories WHERE status = ?", (status,)).fetchone()
        return int(row[0])

    # -- misc -----------------------------------------------------------
    def data_version(self) -> int:
        with self._lock:
            return int(self._c.execute("PRAGMA data_version").fetchone()[0])

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._c.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def size_bytes(self) -> int:
        """Bytes of database pages in use (free pages excluded)."""
        with self._lock:
            pages = self._c.execute("PRAGMA page_count").fetchone()[0]
            free = self._c.execute("PRAGMA freelist_count").fetchone()[0]
            size = self._c.execute("PRAGMA page_size").fetchone()[0]
        return int((pages - free) * size)

    # -- manage() -------------------------------------------------------
    @property
    def has_fts(self) -> bool:
        """Whether full-text search uses FTS5 (else a ``LIKE`` scan).  Fixed once migrated."""
        with self._lock:
            if self._fts is None:
                row = self._c.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memories_fts'"
                ).fetchone()
                self._fts = row is not None
            return self._fts

    def list_memories(self, query: MemoryQuery) -> list[Memory]:
        where: list[str] = []
        params: list[Any] = []
        if query.types is not None:
            if not query.types:
                return []
            marks = ",".join("?" * len(query.types))
            where.append(f"id IN (SELECT memory_id FROM memory_types WHERE type IN ({marks}))")
            params.extend(query.types)
        if query.status is not None:
            where.append("status = ?")
            params.append(query.status)
        if query.pinned is not None:
            where.append("pinned = ?")
            params.append(int(query.pinned))
        if query.since is not None:
            where.append("created_at >= ?")
            params.append(query.since)
        if query.until is not None:
            where.append("created_at <= ?")
            params.append(query.until)
        if query.conversation is not None:
            where.append(
                "(source_session = ? OR EXISTS (SELECT 1 FROM json_each(memories.source_conversation_ids) "
                "WHERE json_each.value = ?))"
            )
            params.extend([query.conversation, query.conversation])
        if query.order_by not in _ORDER_COLUMNS:
            raise StorageError(f"cannot order by {query.order_by!r}")
        direction = "DESC" if query.descending else "ASC"
        sql = (_SELECT if query.with_embedding else _SELECT_LIGHT) + (
            " WHERE " + " AND ".join(where) if where else ""
        )
        sql += f" ORDER BY {query.order_by} {direction}, id {direction}"
        if query.limit is not None or query.offset:
            sql += " LIMIT ? OFFSET ?"
            params.extend([-1 if query.limit is None else query.limit, query.offset])
        with self._lock:
            rows = self._c.execute(sql, params).fetchall()
        return [row_to_memory(r) for r in rows]

    def search_text(self, query: str, *, limit: int) -> list[str]:
        words = _WORD.findall(query)
        if not words:
            return []
        with self._lock:
            if self.has_fts:
                # Each word quoted (no FTS syntax from user input), prefix-matched, all required.
                match = "content : (" + " ".join('"' + w.replace('"', '""') + '"*' for w in words) + ")"
                rows = self._c.execute(
                    "SELECT m.id FROM memories_fts f JOIN memories m ON m.rowid = f.rowid "
                    "WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts), m.created_at LIMIT ?",
                    (match, limit),
                ).fetchall()
            else:  # pragma: no cover - SQLite built without FTS5
                clauses = " AND ".join("content LIKE ? ESCAPE '\\'" for _ in words)
                likes = ["%" + w.replace("%", "\\%").replace("_", "\\_") + "%" for w in words]
                rows = self._c.execute(
                    f"SELECT id FROM memories WHERE {clauses} ORDER BY created_at LIMIT ?", (*likes, limit)
                ).fetchall()
        return [r[0] for r in rows]

    def lexical_search(
        self,
        terms: Sequence[str],
        *,
        limit: int,
        context_weight: float = 0.0,
        reply_weight: float = 0.0,
    ) -> list[tuple[str, float]]:
        """Active memories matching any of ``terms`` (stemmed), best first, with a
        BM25 score > 0 (larger is better).  Matches in ``source_context`` (the
        whole message) count ``context_weight`` times a match in ``content``,
        and matches in ``reply_context`` (what the message answered)
        ``reply_weight`` times (0: not searched).  Empty without FTS5."""
        words = [w for t in terms for w in _WORD.findall(t)]
        if not words or not self.has_fts:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
        columns = ["content"]
        columns += ["source_context"] if context_weight > 0 else []
        columns += ["reply_context"] if reply_weight > 0 else []
        match = "{" + " ".join(columns) + "} : (" + match + ")"
        with self._lock:
            rows = self._c.execute(
                "SELECT m.id, bm25(memories_fts, 1.0, ?, ?) AS score FROM memories_fts f "
                "JOIN memories m ON m.rowid = f.rowid "
                "WHERE memories_fts MATCH ? AND m.status = 'active' ORDER BY score LIMIT ?",
                (max(0.0, context_weight), max(0.0, reply_weight), match, limit),
            ).fetchall()
        return [(r[0], -float(r[1])) for r in rows]

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

    def existing_ids(self, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                marks = ",".join("?" * len(chunk))
                found.update(
                    r[0] for r in self._c.execute(f"SELECT id FROM memories WHERE id IN ({marks})", chunk)
                )
        return found

    def ids_by_key(self, keys: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = list(keys[start : start + 500])
                marks = ",".join("?" * len(chunk))
                for key, mid in self._c.execute(
                    f"SELECT key, id FROM memories WHERE key IN ({marks}) ORDER BY created_at, id", chunk
                ):
                    out.setdefault(key, []).append(mid)
        return out

    def referencing(self, memory_id: str) -> list[Memory]:
        with self._lock:
            rows = self._c.execute(
                _SELECT + " WHERE superseded_by = ? OR temporal_supersedes = ? ORDER BY created_at, id",
                (memory_id, memory_id),
            ).fetchall()
        return [row_to_memory(r) for r in rows]

    def stat_rows(self) -> list[Mapping[str, Any]]:
        cols = (
            "id types base_strength confidence mention_count pinned created_at updated_at "
            "last_reinforced status faded_at event_at"
        ).split()
        with self._lock:
            rows = self._c.execute(f"SELECT {', '.join(cols)} FROM memories").fetchall()
        out: list[Mapping[str, Any]] = []
        for r in rows:
            d = dict(zip(cols, r, strict=True))
            d["types"] = tuple(json.loads(d["types"]))
            d["pinned"] = bool(d["pinned"])
            out.append(d)
        return out

    def type_counts(self) -> dict[str, int]:
        with self._lock:
            rows = self._c.execute(
                "SELECT type, COUNT(*) FROM memory_types GROUP BY type ORDER BY type"
            ).fetchall()
        return {t: int(n) for t, n in rows}

    def conversation_count(self) -> int:
        with self._lock:
            row = self._c.execute(
                "SELECT COUNT(DISTINCT value) FROM ("
                " SELECT json_each.value AS value FROM memories, json_each(memories.source_conversation_ids)"
                " UNION SELECT source_session FROM memories WHERE source_session != '')"
            ).fetchone()
        return int(row[0])

    # lifecycle --------------------------------------------------------------
    def acquire_lease(self, name: str, holder: str, *, ttl_s: float, now_s: float) -> bool:
        """Take (or renew) the lease ``name`` for ``holder`` unless another holder's is unexpired.

        The lease is a row ``lease:<name>`` in ``meta`` holding the holder and
        its expiry (wall-clock seconds); a crashed holder's lease simply expires.
        """
        key = f"lease:{name}"
        with self.transaction():
            row = self._c.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            if row is not None:
                try:
                    held = json.loads(row[0])
                    other, expires = str(held["holder"]), float(held["expires_s"])
                except (ValueError, KeyError, TypeError):
                    other, expires = "", 0.0  # unreadable lease: treat as expired
                if other != holder and expires > now_s:
                    return False
            self.set_meta(key, json.dumps({"holder": holder, "expires_s": now_s + ttl_s}))
        return True

    def release_lease(self, name: str, holder: str) -> None:
        key = f"lease:{name}"
        with self.transaction():
            row = self._c.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            if row is not None:
                try:
                    mine = json.loads(row[0]).get("holder") == holder
                except (ValueError, AttributeError):
                    mine = False
                if mine:
                    self._c.execute("DELETE FROM meta WHERE key = ?", (key,))

    def mark_faded(self, ids: Sequence[str], now_ms: int) -> None:
        """Set ``status="faded"``, ``faded_at`` and ``updated_at`` on active memories among ``ids``."""
        with self.transaction():
            self._c.executemany(
                "UPDATE memories SET status = 'faded', faded_at = ?, updated_at = ? "
                "WHERE id = ? AND status = 'active'",
                [(now_ms, now_ms, i) for i in ids],
            )

    def max_rowid(self) -> int:
        with self._lock:
            row = self._c.execute("SELECT COALESCE(MAX(rowid), 0) FROM memories").fetchone()
        return int(row[0])

    def count_rows_after(self, rowid: int) -> int:
        """Memories inserted after the row ``rowid`` (rowids only grow on insert)."""
        with self._lock:
            row = self._c.execute("SELECT COUNT(*) FROM memories WHERE rowid > ?", (rowid,)).fetchone()
        return int(row[0])

    def replace_clusters(self, clusters: Sequence[Cluster]) -> None:
        """Store ``clusters`` as the only clusters and set ``cluster_id`` on their members."""
        with self.transaction():
            conn = self._c
            conn.execute("DELETE FROM clusters")
            conn.execute("UPDATE memories SET cluster_id = NULL WHERE cluster_id IS NOT NULL")
            for c in clusters:
                self.put_cluster(c)
                conn.executemany(
                    "UPDATE memories SET cluster_id = ? WHERE id = ?", [(c.id, m) for m in c.member_ids]
                )

    # episodes, edges, clusters ------------------------------------------
    def all_episodes(self) -> list[Episode]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, summary, embedding, memories_extracted, started_at, ended_at, turn_count, "
                "emotional_valence, topics FROM episodes ORDER BY started_at, id"
            ).fetchall()
        return [
            Episode(
                id=r[0],
                summary=r[1],
                embedding=_blob_to_vec(r[2]),
                memories_extracted=tuple(json.loads(r[3])),
                started_at=r[4],
                ended_at=r[5],
                turn_count=r[6],
                emotional_valence=r[7],
                topics=tuple(json.loads(r[8])),
            )
            for r in rows
        ]

    def put_episode(self, episode: Episode) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT OR REPLACE INTO episodes(id, summary, embedding, memories_extracted, started_at, "
                "ended_at, turn_count, emotional_valence, topics) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    episode.id,
                    episode.summary,
                    _vec_to_blob(episode.embedding),
                    json.dumps(list(episode.memories_extracted)),
                    episode.started_at,
                    episode.ended_at,
                    episode.turn_count,
                    episode.emotional_valence,
                    json.dumps(list(episode.topics)),
                ),
            )

    def all_edges(self) -> list[Edge]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, from_id, to_id, weight, shared_entities, created_at, last_updated "
                "FROM edges ORDER BY id"
            ).fetchall()
        return [_row_to_edge(r) for r in rows]

    def edges_of(self, memory_id: str) -> list[Edge]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, from_id, to_id, weight, shared_entities, created_at, last_updated "
                "FROM edges WHERE from_id = ? OR to_id = ? ORDER BY weight DESC, id",
                (memory_id, memory_id),
            ).fetchall()
        return [_row_to_edge(r) for r in rows]

    def put_edge(self, edge: Edge) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT OR REPLACE INTO edges(id, from_id, to_id, weight, shared_entities, created_at, "
                "last_updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    edge.id,
                    edge.from_id,
                    edge.to_id,
                    edge.weight,
                    json.dumps(list(edge.shared_entities)),
                    edge.created_at,
                    edge.last_updated,
                ),
            )

    def all_clusters(self) -> list[Cluster]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, centroid, member_ids, label, last_recomputed FROM clusters ORDER BY id"
            ).fetchall()
        return [
            Cluster(
                id=r[0],
                centroid=_blob_to_vec(r[1]),
                member_ids=tuple(json.loads(r[2])),
                label=r[3],
                last_recomputed=r[4],
            )
            for r in rows
        ]

    def put_cluster(self, cluster: Cluster) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT OR REPLACE INTO clusters(id, centroid, member_ids, label, last_recomputed) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    cluster.id,
                    _vec_to_blob(cluster.centroid),
                    json.dumps(list(cluster.member_ids)),
                    cluster.label,
                    cluster.last_recomputed,
                ),
            )

    # bridge events --------------------------------------------------------
    def add_bridge_event(self, event: BridgeEvent) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT INTO bridge_events(id, created_at, format, name, origin, imported, skipped, "
                "conflicts, rejected, memory_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event.id,
                    event.created_at,
                    event.format,
                    event.name,
                    event.origin,
                    event.imported,
                    event.skipped,
                    event.conflicts,
                    json.dumps(
                        [{"index": r.index, "key": r.key, "reason": r.reason} for r in event.rejected]
                    ),
                    json.dumps(list(event.memory_ids)),
                ),
            )

    def bridge_events(self) -> list[BridgeEvent]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, created_at, format, name, origin, imported, skipped, conflicts, rejected, "
                "memory_ids FROM bridge_events ORDER BY created_at DESC, rowid DESC"
            ).fetchall()
        return [
            BridgeEvent(
                id=r[0],
                created_at=r[1],
                format=r[2],
                name=r[3],
                origin=r[4],
                imported=r[5],
                skipped=r[6],
                conflicts=r[7],
                rejected=tuple(RejectedItem(**x) for x in json.loads(r[8])),
                memory_ids=tuple(json.loads(r[9])),
            )
            for r in rows
        ]


def _row_to_edge(r: Sequence[Any]) -> Edge:
    return Edge(
        id=r[0],
        from_id=r[1],
        to_id=r[2],
        weight=r[3],
        shared_entities=tuple(json.loads(r[4])),
        created_at=r[5],
        last_updated=r[6],
    )

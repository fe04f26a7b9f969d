"""PostgreSQL + pgvector storage: many users' stores in one database.

``LokulMem(storage="postgres", dsn="postgresql://user@host/db", store_name=…)``
keeps one store per ``store_name`` in shared tables (a ``store`` key leads
every row and index; see :mod:`lokulmem.storage.pg_schema` and
docs/postgres.md).  It implements the :class:`~lokulmem.storage.Storage`
protocol and passes the same contract tests as SQLite
(``tests/storage/test_contract.py``).  :meth:`PostgresStorage.nearest` runs
the vector search in the database, on pgvector's HNSW index.

Not available on this backend: encryption at rest (use the database's own),
``backup()``/``restore()`` (use ``pg_dump`` or the cluster's backups) and
re-embedding in place (export, then import into a store with the new model).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg

from ..errors import EmbeddingModelMismatchError, StorageError
from ..records import Cluster, Edge, Episode, Memory
from .pg_graph import PostgresGraph
from .pg_queries import PostgresQueries
from .pg_rows import INSERT, SELECT, UPDATE, memory_params, pg_row_to_memory
from .pg_schema import ensure_vector_extension, ensure_vector_index, migrate, vector_index_name
from .sqlite_rows import (
    CLUSTER_COLUMNS,
    EDGE_COLUMNS,
    EPISODE_COLUMNS,
    row_to_cluster,
    row_to_edge,
    row_to_episode,
    vec_to_blob,
)

__all__ = ["PostgresSnapshot", "PostgresStorage"]

#: Vectors read per query when the index is (re)built.
_VECTOR_PAGE = 2048


class PostgresStorage(PostgresQueries, PostgresGraph):
    """A :class:`~lokulmem.storage.Storage` in a PostgreSQL database with pgvector."""

    def open(self, *, embedding_model: str, dimension: int) -> None:
        if self._conn is not None:
            return
        conn = self._connect()
        try:
            ensure_vector_extension(conn, self.where)
            self._register_types(conn)
            migrate(conn, self.schema)
            self._conn = conn
            self._check_model(embedding_model, dimension)
            if self.vector_index:
                ensure_vector_index(
                    conn, self.schema, dimension, m=self.hnsw_m, ef_construction=self.hnsw_ef_construction
                )
            self._init_store(embedding_model, dimension)
        except psycopg.Error as exc:
            self._conn = None
            conn.close()
            raise StorageError(f"cannot open the store on PostgreSQL ({self.where}): {exc}") from exc
        except BaseException:
            self._conn = None
            conn.close()
            raise
        self.dimension = int(dimension)

    def _check_model(self, model: str, dimension: int) -> None:
        """Refuse, before writing, a store whose vectors come from another model."""
        stored = self.get_meta("embedding_model")
        if stored is not None and stored != model:
            raise EmbeddingModelMismatchError(
                f"store vectors come from embedding model {stored!r}, but the configured "
                f"embedder is {model!r}; open it with that embedder, or export and re-import"
            )
        dim = self.get_meta("embedding_dimension")
        if dim is not None and int(dim) != dimension:
            raise EmbeddingModelMismatchError(
                f"store vectors have dimension {dim}, the embedder gives {dimension}"
            )

    def _init_store(self, model: str, dimension: int) -> None:
        self._run(f"INSERT INTO {self._t('stores')}(store) VALUES (%s) ON CONFLICT DO NOTHING", (self.store,))
        with self.transaction():
            for key, value in (("embedding_model", model), ("embedding_dimension", str(dimension))):
                self._run(
                    f"INSERT INTO {self._t('meta')}(store, key, value) VALUES (%s, %s, %s) "
                    "ON CONFLICT DO NOTHING",
                    (self.store, key, value),
                )

    # -- memories -------------------------------------------------------------
    def insert_memory(self, memory: Memory) -> None:
        with self.transaction():
            try:
                self._run(
                    INSERT.format(t=self._t("memories")), (self.store, *memory_params(memory, self._half))
                )
            except StorageError as exc:
                raise StorageError(f"memory {memory.id!r} cannot be inserted: {exc}") from exc
            self._write_types(memory)
            self._inserted += 1

    def _write_types(self, memory: Memory) -> None:
        self._run_many(
            f"INSERT INTO {self._t('memory_types')}(store, memory_id, type) VALUES (%s, %s, %s)",
            [(self.store, memory.id, t) for t in dict.fromkeys(memory.types)],
        )

    def update_memory(self, memory: Memory) -> None:
        with self.transaction():
            values = memory_params(memory, self._half)[1:]
            if self._run(UPDATE.format(t=self._t("memories")), (*values, self.store, memory.id)) != 1:
                raise StorageError(f"memory {memory.id!r} does not exist")
            self._run(
                f"DELETE FROM {self._t('memory_types')} WHERE store = %s AND memory_id = %s",
                (self.store, memory.id),
            )
            self._write_types(memory)

    def get_memory(self, memory_id: str) -> Memory | None:
        found = self._memories("AND id = %s", (memory_id,))
        return found[0] if found else None

    def get_memories(self, ids: Sequence[str]) -> list[Memory]:
        if not ids:
            return []
        found = {m.id: m for m in self._memories("AND id = ANY(%s)", (list(dict.fromkeys(ids)),))}
        return [found[i] for i in ids if i in found]

    def all_memories(self) -> list[Memory]:
        return self._memories("ORDER BY created_at, id", ())

    def active_vectors(self) -> Iterator[tuple[str, npt.NDArray[np.float32]]]:
        """Every active memory's vector, in pages (keyset by ``seq``)."""
        last = 0
        while rows := self._rows(
            f"SELECT seq, id, embedding FROM {self._t('memories')} WHERE store = %s AND seq > %s "
            "AND status = 'active' AND embedding IS NOT NULL ORDER BY seq LIMIT %s",
            (self.store, last, _VECTOR_PAGE),
        ):
            last = rows[-1][0]
            for _, memory_id, vec in rows:
                yield memory_id, vec

    def superseded_vectors(self, limit: int) -> list[tuple[str, str, npt.NDArray[np.float32]]]:
        rows = self._rows(
            f"SELECT id, superseded_by, embedding FROM {self._t('memories')} WHERE store = %s "
            "AND status = 'superseded' AND superseded_by IS NOT NULL AND embedding IS NOT NULL "
            "ORDER BY superseded_at DESC NULLS LAST, seq DESC LIMIT %s",
            (self.store, limit),
        )
        return [(memory_id, successor, vec) for memory_id, successor, vec in rows]

    def nearest(
        self, vector: npt.NDArray[np.float32], k: int, *, exact: bool = False
    ) -> list[tuple[str, float]]:
        """The ``k`` active memories nearest ``vector`` (cosine similarity, best first),
        searched in the database.

        With the HNSW index (``postgres_vector_index=True`` or
        :meth:`create_vector_index`), on it: ``max(hnsw_ef_search, candidate_pool, k)``
        candidates, their exact distances, the best ``k`` kept (HOM's candidate
        pool + exact rerank, done by the server); iterative scans keep ``k``
        results when other stores share the index.  Without it, or with
        ``exact=True``, a scan of this store's vectors (what
        :meth:`calibrate_nearest` measures against).
        """
        dim = int(self.dimension)
        query = np.asarray(vector, dtype=np.float32)
        if exact:
            order, where = "embedding <=> %s", ""  # not the indexed expression: a scan
        else:
            order, where = (
                f"embedding::vector({dim}) <=> %s::vector({dim})",
                f"AND vector_dims(embedding) = {dim}",
            )
        with self._reading():
            ef = max(int(self.hnsw_ef_search), int(self.candidate_pool), int(k))
            self._run(f"SET LOCAL hnsw.ef_search = {min(ef, 1000)}")
            self._run("SET LOCAL hnsw.iterative_scan = relaxed_order")
            rows = self._rows(
                f"SELECT id, {order} AS d FROM {self._t('memories')} "
                f"WHERE store = %s AND status = 'active' {where} ORDER BY d LIMIT %s",
                (query, self.store, int(k)),
            )
        rows.sort(key=lambda r: (r[1], r[0]))  # relaxed order: re-sort the few rows returned
        return [(r[0], 1.0 - float(r[1])) for r in rows]

    def calibrate_nearest(self, *, samples: int = 50, k: int = 10, seed: int = 0) -> float | None:
        """Recall@``k`` of :meth:`nearest` against ``exact=True``, with ``samples`` of this
        store's own vectors as queries (None for an empty store)."""
        ids = [i for i, _ in self.active_vectors()]
        if not ids:
            return None
        rng = np.random.default_rng(seed)
        picked = [ids[i] for i in rng.choice(len(ids), size=min(samples, len(ids)), replace=False)]
        found = []
        for m in self.get_memories(picked):
            assert m.embedding is not None
            want = {i for i, _ in self.nearest(m.embedding, k, exact=True)}
            got = {i for i, _ in self.nearest(m.embedding, k)}
            found.append(len(want & got) / max(1, len(want)))
        return float(np.mean(found))

    @property
    def vector_index_name(self) -> str:
        """The name of the HNSW index over vectors of this store's dimension."""
        return vector_index_name(int(self.dimension))

    def has_vector_index(self) -> bool:
        """Whether the table has the HNSW index over this store's dimension."""
        row = self._one(
            "SELECT 1 FROM pg_indexes WHERE schemaname = %s AND indexname = %s",
            (self.schema, self.vector_index_name),
        )
        return row is not None

    def create_vector_index(self) -> None:
        """Build the HNSW index :meth:`nearest` searches (for every store of the table
        with this dimension: each of their writes maintains it from now on).  On a
        large table this takes a while; it holds a lock that blocks writes meanwhile."""
        with self._lock:
            try:
                hnsw = {"m": self.hnsw_m, "ef_construction": self.hnsw_ef_construction}
                ensure_vector_index(self._c, self.schema, self.dimension, **hnsw)
            except psycopg.Error as exc:
                raise StorageError(f"cannot create the vector index ({self.where}): {exc}") from exc
        self.vector_index = True

    def delete_memories(self, ids: Sequence[str]) -> None:
        if not ids:
            return
        gone = list(dict.fromkeys(ids))
        with self.transaction():
            self._run(
                f"DELETE FROM {self._t('edges')} WHERE store = %s AND (from_id = ANY(%s) OR to_id = ANY(%s))",
                (self.store, gone, gone),
            )
            for table, column in (("memory_types", "memory_id"), ("memories", "id")):
                where = f"store = %s AND {column} = ANY(%s)"
                self._run(f"DELETE FROM {self._t(table)} WHERE {where}", (self.store, gone))
            dropped = set(gone)
            for cid, members in self._rows(
                f"SELECT id, member_ids FROM {self._t('clusters')} WHERE store = %s", (self.store,)
            ):
                kept = [m for m in json.loads(members) if m not in dropped]
                if len(kept) != len(json.loads(members)):
                    self._run(
                        f"UPDATE {self._t('clusters')} SET member_ids = %s WHERE store = %s AND id = %s",
                        (json.dumps(kept), self.store, cid),
                    )

    def clear(self, *, keep_audit: bool = False) -> None:
        tables = ["memory_types", "edges", "clusters", "episodes", "memories", "store_counts"]
        tables += [] if keep_audit else ["bridge_events"]
        with self.transaction():
            for table in tables:
                self._run(f"DELETE FROM {self._t(table)} WHERE store = %s", (self.store,))

    def set_context_vectors(self, vectors: Sequence[tuple[str, npt.NDArray[np.float32]]]) -> None:
        """Write each ``(memory id, context vector)``; ids no longer stored are skipped."""
        if not vectors:
            return
        with self.transaction():
            self._run(
                f"UPDATE {self._t('memories')} AS m SET context_embedding = v.ctx "
                "FROM unnest(%s::text[], %s::bytea[]) AS v(id, ctx) WHERE m.store = %s AND m.id = v.id",
                ([i for i, _ in vectors], [vec_to_blob(v, self._half) for _, v in vectors], self.store),
            )

    def touch_memories(self, memories: Sequence[Memory]) -> None:
        """Write only what a retrieval changes: strength, mentions, confidence, access times."""
        if not memories:
            return
        with self.transaction():
            rows = self._rows(
                f"UPDATE {self._t('memories')} AS m SET base_strength = v.bs, mention_count = v.mc, "
                "confidence = v.cf, last_accessed_at = v.la, last_reinforced = v.lr, updated_at = v.ua "
                "FROM unnest(%s::text[], %s::float8[], %s::int[], %s::text[], "
                "%s::int8[], %s::int8[], %s::int8[]) "
                "AS v(id, bs, mc, cf, la, lr, ua) WHERE m.store = %s AND m.id = v.id RETURNING m.id",
                (
                    [m.id for m in memories],
                    [float(m.base_strength) for m in memories],
                    [int(m.mention_count) for m in memories],
                    [m.confidence for m in memories],
                    [int(m.last_accessed_at) for m in memories],
                    [int(m.last_reinforced) for m in memories],
                    [int(m.updated_at) for m in memories],
                    self.store,
                ),
            )
            if len(rows) != len(memories):
                raise StorageError(f"{len(memories) - len(rows)} of the memories to touch do not exist")

    def mark_faded(self, ids: Sequence[str], now_ms: int) -> None:
        """Set ``status="faded"``, ``faded_at`` and ``updated_at`` on active memories among ``ids``."""
        with self.transaction():
            self._run(
                f"UPDATE {self._t('memories')} SET status = 'faded', faded_at = %s, updated_at = %s "
                "WHERE store = %s AND id = ANY(%s) AND status = 'active'",
                (now_ms, now_ms, self.store, list(ids)),
            )

    # -- streamed export ------------------------------------------------------
    @contextmanager
    def snapshot(self) -> Iterator[PostgresSnapshot]:
        """The store as of now, on a connection of its own (``REPEATABLE READ``): a long
        export neither blocks writers nor sees their writes half-way."""
        conn = self._connect()
        try:
            self._register_types(conn)
            with conn.transaction():
                conn.execute(b"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                conn.execute(f"SELECT count(*) FROM {self._t('meta')}".encode())  # the snapshot starts here
                yield PostgresSnapshot(conn, self.schema, self.store)
        except psycopg.Error as exc:
            raise StorageError(f"export read failed on PostgreSQL ({self.where}): {exc}") from exc
        finally:
            conn.close()


@dataclass(frozen=True)
class PostgresSnapshot:
    """One store read in pages from a single snapshot (keyset by ``seq`` and ``id``)."""

    conn: psycopg.Connection[Any]
    schema: str
    store: str

    def _rows(self, query: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.conn.cursor(binary=True) as cur:
            cur.execute(query.encode(), params)
            return cur.fetchall()

    def memory_pages(self, size: int) -> Iterator[list[Memory]]:
        last = 0
        select = SELECT.replace("SELECT ", "SELECT seq, ", 1).format(t=f"{self.schema}.memories")
        while rows := self._rows(
            f"{select} WHERE store = %s AND seq > %s ORDER BY seq LIMIT %s", (self.store, last, size)
        ):
            last = rows[-1][0]
            yield [pg_row_to_memory(r[1:]) for r in rows]

    def edge_pages(self, size: int) -> Iterator[list[Edge]]:
        last = ""
        while rows := self._rows(
            f"SELECT {EDGE_COLUMNS} FROM {self.schema}.edges "
            "WHERE store = %s AND id > %s ORDER BY id LIMIT %s",
            (self.store, last, size),
        ):
            last = rows[-1][0]
            yield [row_to_edge(r) for r in rows]

    def episodes(self) -> list[Episode]:
        rows = self._rows(
            f"SELECT {EPISODE_COLUMNS} FROM {self.schema}.episodes WHERE store = %s ORDER BY started_at, id",
            (self.store,),
        )
        return [row_to_episode(r) for r in rows]

    def clusters(self) -> list[Cluster]:
        rows = self._rows(
            f"SELECT {CLUSTER_COLUMNS} FROM {self.schema}.clusters WHERE store = %s ORDER BY id",
            (self.store,),
        )
        return [row_to_cluster(r) for r in rows]

    def meta(self, key: str) -> str | None:
        rows = self._rows(
            f"SELECT value FROM {self.schema}.meta WHERE store = %s AND key = %s", (self.store, key)
        )
        return None if not rows else str(rows[0][0])

"""The PostgreSQL connection under every part of :class:`PostgresStorage`: connecting
with a timeout, the lock, transactions, the change counter, ``meta`` and leases.

One connection per storage object, in autocommit mode, shared by the client's
threads behind a re-entrant lock (as the SQLite backend shares its
connection).  A write transaction first bumps its store's row in ``stores``:
that row lock serialises the writers of one store (SQLite's ``BEGIN
IMMEDIATE``) while other stores write in parallel, and the counter tells a
reader that another connection committed (``data_version``).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from psycopg.adapt import Loader
from psycopg.conninfo import conninfo_to_dict

from ..errors import StorageError
from .leases import held_by, lease_key, lease_value, may_take
from .pg_schema import SCHEMA_NAME, check_schema_name
from .sealing import PLAIN, Sealer

__all__ = ["ANALYZE_AFTER_INSERTS", "PostgresBase", "describe_dsn"]

#: Memories one transaction inserts that make the storage refresh the planner's statistics.
ANALYZE_AFTER_INSERTS = 5000


def describe_dsn(dsn: str) -> str:
    """``host:port/database`` of a DSN, never its password (for messages)."""
    try:
        parts = conninfo_to_dict(dsn)
    except psycopg.Error:
        return "an unparsable DSN"
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"host {host}{port}, database {parts.get('dbname') or parts.get('user') or '(default)'}"


class _VectorLoader(Loader):
    """pgvector's binary ``vector`` straight to a float32 array (a 4-byte header,
    then big-endian float32s)."""

    format = psycopg.pq.Format.BINARY

    def load(self, data: Any) -> Any:
        vec = np.frombuffer(bytes(data), dtype=">f4", offset=4).astype(np.float32)
        vec.setflags(write=False)
        return vec


class PostgresBase:
    """Connection, lock, transactions, ``meta`` and leases of one store in a database."""

    def __init__(
        self,
        dsn: str,
        *,
        store: str = "lokulmem_default",
        schema: str = SCHEMA_NAME,
        connect_timeout_s: float = 10.0,
        statement_timeout_ms: int = 60_000,
        hnsw_m: int = 16,
        hnsw_ef_construction: int = 200,
        hnsw_ef_search: int = 50,
        candidate_pool: int = 100,
        vector_index: bool = False,
        vector_storage: str = "float32",
    ) -> None:
        if not isinstance(dsn, str) or not dsn.strip():
            raise StorageError("storage='postgres' needs dsn='postgresql://user@host/database'")
        if not isinstance(store, str) or not store.strip():
            raise StorageError("the store name must be a non-empty string")
        self.dsn = dsn
        self.store = store
        self.schema = check_schema_name(schema)
        self.connect_timeout_s = connect_timeout_s
        self.statement_timeout_ms = statement_timeout_ms
        self.hnsw_m = hnsw_m
        self.hnsw_ef_construction = hnsw_ef_construction
        self.hnsw_ef_search = hnsw_ef_search
        self.candidate_pool = candidate_pool
        #: Keep pgvector's HNSW index on the memory vectors (created at open if missing).
        self.vector_index = vector_index
        self._half = vector_storage == "float16"
        self.where = describe_dsn(dsn)
        self.location = f"postgresql ({self.where}, schema {self.schema}, store {store!r})"
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.RLock()
        self._depth = 0
        #: Commits made through this connection (``data_version`` subtracts them).
        self._own_commits = 0
        #: Memories inserted by the transaction in progress (a bulk one is followed by ANALYZE).
        self._inserted = 0
        #: (word, columns, bound) → (its document frequency counted up to bound + 1, store size then).
        self._doc_freqs: dict[tuple[str, tuple[bool, bool], int], tuple[int, int]] = {}
        self._sealer: Sealer = PLAIN
        self.encrypted = False
        #: The store's vector dimension (known once open).
        self.dimension = 0

    # -- connection ---------------------------------------------------------
    def _connect(self) -> psycopg.Connection[Any]:
        """A new autocommit connection with pgvector's types, or a clear ``StorageError``."""
        try:
            conn = psycopg.connect(
                self.dsn,
                autocommit=True,
                connect_timeout=max(1, round(self.connect_timeout_s)),
                options=f"-c statement_timeout={int(self.statement_timeout_ms)}",
            )
        except psycopg.Error as exc:
            raise StorageError(f"cannot connect to PostgreSQL ({self.where}): {exc}".strip()) from exc
        return conn

    def _register_types(self, conn: psycopg.Connection[Any]) -> None:
        from pgvector.psycopg import register_vector  # after CREATE EXTENSION: it looks the type up

        register_vector(conn)
        info = psycopg.types.TypeInfo.fetch(conn, "vector")
        assert info is not None
        conn.adapters.register_loader(info.oid, _VectorLoader)

    @property
    def index_cache_path(self) -> Path:
        """Where this client saves the HNSW graph of its in-process index (a store
        above ``hnsw_threshold``): the user cache directory, one file per server,
        database, schema and store, so the next open reuses it; a stale or foreign
        file is detected by its vector digests and rebuilt (``RoutedIndex``)."""
        import platformdirs

        key = hashlib.sha256(f"{self.where}|{self.schema}|{self.store}".encode()).hexdigest()[:32]
        return Path(platformdirs.user_cache_dir("lokulmem", appauthor=False)) / "postgres" / f"{key}.hnsw"

    @property
    def _c(self) -> psycopg.Connection[Any]:
        """The connection; one the server dropped (a restart, a failover, an idle
        timeout) is replaced here, outside a transaction, so the client carries on."""
        if self._conn is None:
            raise StorageError("store is not open")
        if self._conn.broken and not self._depth:
            fresh = self._connect()
            try:
                self._register_types(fresh)
            except psycopg.Error as exc:
                fresh.close()
                raise StorageError(f"cannot reconnect to PostgreSQL ({self.where}): {exc}") from exc
            self._conn.close()
            self._conn = fresh
        return self._conn

    def _t(self, name: str) -> str:
        """The schema-qualified table ``name`` (a literal of this package, never input)."""
        return f"{self.schema}.{name}"

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of ``query`` (binary results), errors as ``StorageError``.  A read
        outside a transaction that finds the connection dropped is retried once on a
        new one."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    with self._c.cursor(binary=True) as cur:
                        cur.execute(query.encode(), params)
                        return cur.fetchall() if cur.description else []
                except psycopg.OperationalError as exc:
                    if attempt == 2 or self._depth or not self._c_broken():
                        raise StorageError(f"PostgreSQL ({self.where}): {exc}") from exc
                except psycopg.Error as exc:
                    raise StorageError(f"PostgreSQL ({self.where}): {exc}") from exc
            raise AssertionError("unreachable")  # pragma: no cover

    def _c_broken(self) -> bool:
        return self._conn is not None and self._conn.broken

    def _one(self, query: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self._rows(query, params)
        return rows[0] if rows else None

    def _run(self, query: str, params: Sequence[Any] = ()) -> int:
        """Execute a write inside the current transaction; the rows it touched."""
        with self._lock:
            try:
                cur = self._c.execute(query.encode(), params)
            except psycopg.Error as exc:
                raise StorageError(f"PostgreSQL ({self.where}): {exc}") from exc
            return int(cur.rowcount)

    def _run_many(self, query: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        with self._lock:
            try:
                with self._c.cursor() as cur:
                    cur.executemany(query.encode(), rows)
            except psycopg.Error as exc:
                raise StorageError(f"PostgreSQL ({self.where}): {exc}") from exc

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
            self._depth = 1
            try:
                with conn.transaction():
                    # The store's row lock serialises its writers; the bump tells others.
                    conn.execute(
                        f"UPDATE {self._t('stores')} SET version = version + 1 WHERE store = %s".encode(),
                        (self.store,),
                    )
                    yield
            except psycopg.Error as exc:
                self._inserted = 0
                raise StorageError(f"write failed on PostgreSQL ({self.where}): {exc}") from exc
            finally:
                self._depth = 0
            self._own_commits += 1
            if self._inserted >= ANALYZE_AFTER_INSERTS:
                self._analyze()
            self._inserted = 0

    def _analyze(self) -> None:
        """Refresh the planner's statistics and the visibility map after a bulk write
        (an import), outside any transaction: until autovacuum gets to it, the
        planner takes the tables for small and scans them, and counts read every
        row's heap page.  At 100k memories just imported, ``augment()`` p50 was
        405 ms before ANALYZE and 161 ms after (``bench/bench_postgres.py``)."""
        for table in ("memories", "memory_types"):
            self._run(f"VACUUM (ANALYZE) {self._t(table)}")

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """A read-only transaction (``SET LOCAL`` settings last until its end)."""
        with self._lock:
            try:
                with self._c.transaction():
                    yield
            except psycopg.Error as exc:
                raise StorageError(f"PostgreSQL ({self.where}): {exc}") from exc

    def data_version(self) -> int:
        """Changes when another connection commits a write to this store."""
        with self._lock:
            row = self._one(f"SELECT version FROM {self._t('stores')} WHERE store = %s", (self.store,))
            return (int(row[0]) if row else 0) - self._own_commits

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def refresh_search_index(self) -> None:
        """Nothing to do: the database's indexes are always in step."""

    # -- meta -----------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self._one(
            f"SELECT value FROM {self._t('meta')} WHERE store = %s AND key = %s", (self.store, key)
        )
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction():
            self._run(
                f"INSERT INTO {self._t('meta')}(store, key, value) VALUES (%s, %s, %s) "
                "ON CONFLICT (store, key) DO UPDATE SET value = excluded.value",
                (self.store, key, value),
            )

    # -- leases ---------------------------------------------------------------
    def acquire_lease(self, name: str, holder: str, *, ttl_s: float, now_s: float) -> bool:
        """Take (or renew) the lease ``name`` unless another holder's is unexpired
        (:mod:`lokulmem.storage.leases`; the transaction's store lock makes it atomic)."""
        with self.transaction():
            if not may_take(self.get_meta(lease_key(name)), holder, now_s):
                return False
            self.set_meta(lease_key(name), lease_value(holder, ttl_s=ttl_s, now_s=now_s))
        return True

    def release_lease(self, name: str, holder: str) -> None:
        with self.transaction():
            if held_by(self.get_meta(lease_key(name)), holder):
                key = lease_key(name)
                self._run(f"DELETE FROM {self._t('meta')} WHERE store = %s AND key = %s", (self.store, key))

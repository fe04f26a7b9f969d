"""The SQLite connection under every part of the storage: lock, transactions, meta."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import StorageError
from .keys import Unlock
from .sealing import PLAIN, Sealer

__all__ = ["SQLiteBase"]


class SQLiteBase:
    """The connection, its lock and transactions, and the ``meta`` table: what every
    part of :class:`SQLiteStorage` stands on."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = 30_000,
        encryption: Unlock | None = None,
        vector_storage: str = "float32",
    ) -> None:
        self.path = str(path)
        #: Vectors are written as float16 (``vector_storage="float16"``) or float32;
        #: both are read (``sqlite_rows.blob_to_vec``).
        self._half = vector_storage == "float16"
        #: How to open an encrypted store (or create one); no passphrase: a plain store.
        self._unlock = encryption or Unlock()
        self.location = self.path
        self.busy_timeout_ms = busy_timeout_ms
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._depth = 0
        self._fts: bool | None = None
        #: Seals and opens text fields (identity unless the store is encrypted).
        self._sealer: Sealer = PLAIN
        #: Term document frequencies of a large store: (match, cap) → (count, total
        #: memories when counted); see ``SQLiteQueries._doc_freq``.
        self._doc_freqs: dict[tuple[str, int], tuple[int, int]] = {}

    @property
    def in_memory(self) -> bool:
        return self.path == ":memory:"

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

    @property
    def encrypted(self) -> bool:
        """Whether the store's text fields are sealed (``encryption_passphrase``)."""
        return self._sealer.encrypted

    def _seal(self, value: str | None, table: str, column: str, row_id: str) -> str | None:
        return None if value is None else self._sealer.seal(value, f"{table}.{column}:{row_id}")

    def _unseal(self, value: str | None, table: str, column: str, row_id: str) -> str | None:
        return None if value is None else self._sealer.open(value, f"{table}.{column}:{row_id}")

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

"""Opening, creating and re-keying an encrypted SQLite store (see ``sealing`` for the format)."""

from __future__ import annotations

import sqlite3

from ..errors import EncryptionError, PassphraseRequiredError, StorageError
from .keys import Unlock, forget_key, key_id, load_key, save_key
from .migrations import build_file_fts, fts5_available
from .sealing import PLAIN, SEALED_FIELDS, EncryptionHeader, Sealer
from .sqlite_base import SQLiteBase
from .sqlite_fts import attach_memory_fts, detach_memory_fts, drop_file_fts, refresh_memory_fts

__all__ = ["HEADER_KEY", "SQLiteCrypto", "read_header"]

#: The ``meta`` row that holds an encrypted store's header (salt, iterations, verifier).
HEADER_KEY = "encryption"


def read_header(conn: sqlite3.Connection) -> EncryptionHeader | None:
    """The store's encryption header, or None for a plain (or new) store."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone():
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (HEADER_KEY,)).fetchone()
    return None if row is None else EncryptionHeader.from_json(row[0])


def _holds_text(conn: sqlite3.Connection) -> bool:
    """Whether the file already holds memories or episodes (in the clear)."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return any(
        t in names and conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone() for t in ("memories", "episodes")
    )


class SQLiteCrypto(SQLiteBase):
    """The encryption side of the store: unlock on open, the in-memory index, re-keying."""

    _header: EncryptionHeader | None = None
    _new_header: EncryptionHeader | None = None

    def _unlock_before_writing(self, conn: sqlite3.Connection) -> None:
        """Choose the sealer before anything is written: a wrong or missing passphrase
        for an encrypted file raises here, with the file untouched."""
        unlock = self._unlock
        header = read_header(conn)
        self._header, self._new_header = header, None
        if header is None:
            if unlock.passphrase is None:
                self._sealer = PLAIN
                return
            if _holds_text(conn):
                raise EncryptionError(
                    f"{self.path} holds unencrypted memories; open it without a passphrase and "
                    "call change_passphrase() to encrypt it"
                )
            if not fts5_available(conn):
                raise EncryptionError("an encrypted store needs SQLite's FTS5 (for its in-memory index)")
            self._new_header, self._sealer = EncryptionHeader.create(unlock.passphrase, unlock.iterations)
            self._header = self._new_header
            return
        ident = key_id(self.path, header.salt)
        if unlock.passphrase is not None:
            sealer = header.unlock(unlock.passphrase)
            save_key(unlock.key_storage, ident, sealer.master_key)
        else:
            key = load_key(unlock.key_storage, ident)
            if key is None:
                raise PassphraseRequiredError(
                    f"{self.path} is encrypted: pass encryption_passphrase= (or key_storage= "
                    "'session'/'keyring' after one unlock)"
                )
            sealer = header.unlock_key(key)
        self._sealer = sealer

    def _attach_encryption(self) -> None:
        """After migrating: write a new store's header, drop any file index, build the
        in-memory one.  No-op for a plain store."""
        if not self._sealer.encrypted:
            return
        conn = self._c
        conn.execute("PRAGMA secure_delete = ON")  # freed pages are zeroed, not left readable
        with self.transaction():
            if self._new_header is not None:
                self.set_meta(HEADER_KEY, self._new_header.to_json())
                save_key(self._unlock.key_storage, key_id(self.path, self._new_header.salt), self._master())
                self._new_header = None
            drop_file_fts(conn)
        attach_memory_fts(conn, self._sealer)

    def _master(self) -> bytes:
        key: bytes = getattr(self._sealer, "master_key")  # noqa: B009 - AESSealer only
        return key

    def refresh_search_index(self) -> None:
        """Rebuild the in-memory full-text index (another process wrote the store)."""
        if self._sealer.encrypted:
            with self._lock:
                refresh_memory_fts(self._c, self._sealer)

    def change_passphrase(self, new_passphrase: str | None, *, iterations: int | None = None) -> None:
        """Re-seal every text field under a new key (a new salt), in one transaction.

        ``None`` decrypts the store; on a plain store a passphrase encrypts it.
        Afterwards the file is vacuumed and its WAL truncated, so no page of the
        old form is left in either.  A key kept by ``key_storage`` is replaced.
        """
        unlock = Unlock(new_passphrase, self._unlock.key_storage, iterations or self._unlock.iterations)
        old, old_header = self._sealer, self._header
        new_header, new = (
            (None, PLAIN)
            if new_passphrase is None
            else EncryptionHeader.create(new_passphrase, unlock.iterations)
        )
        if new.encrypted and not fts5_available(self._c):
            raise EncryptionError("an encrypted store needs SQLite's FTS5 (for its in-memory index)")
        with self._lock:
            conn = self._c
            with self.transaction():
                # No index trigger may fire while fields change form; each index is
                # rebuilt from the new form below.
                detach_memory_fts(conn)
                drop_file_fts(conn)
                for table, columns in SEALED_FIELDS.items():
                    _reseal_table(conn, table, columns, old, new)
                if new_header is None:
                    conn.execute("DELETE FROM meta WHERE key = ?", (HEADER_KEY,))
                    build_file_fts(conn)
                else:
                    self.set_meta(HEADER_KEY, new_header.to_json())
            self._sealer, self._header, self._unlock = new, new_header, unlock
            self._fts = None
            if old_header is not None:
                forget_key(unlock.key_storage, key_id(self.path, old_header.salt))
            if new_header is not None:
                save_key(unlock.key_storage, key_id(self.path, new_header.salt), self._master())
                conn.execute("PRAGMA secure_delete = ON")
                attach_memory_fts(conn, new)
            self.scrub()

    def scrub(self) -> None:
        """Rewrite the file (``VACUUM``) and truncate its WAL: no freed page or old
        frame keeps what was deleted or re-sealed."""
        if self.in_memory:
            return
        with self._lock:
            try:
                self._c.execute("VACUUM")
                self._c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                raise StorageError(f"cannot vacuum {self.path}: {exc}") from exc


def _reseal_table(
    conn: sqlite3.Connection, table: str, columns: tuple[str, ...], old: Sealer, new: Sealer
) -> None:
    extra = ("key",) if table == "memories" else ()
    cols = (*columns, *extra)
    rows = conn.execute(f"SELECT id, {', '.join(cols)} FROM {table}").fetchall()
    out = []
    for rid, *values in rows:
        fields = [
            None if v is None else new.seal(old.open(v, f"{table}.{c}:{rid}"), f"{table}.{c}:{rid}")
            for c, v in zip(columns, values, strict=False)
        ]
        if extra:
            fields.append(new.seal_lookup(old.open_lookup(values[-1])))
        out.append((*fields, rid))
    assignments = ", ".join(f"{c} = ?" for c in cols)
    conn.executemany(f"UPDATE {table} SET {assignments} WHERE id = ?", out)

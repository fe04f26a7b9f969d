"""Backup and restore of a SQLite store through SQLite's online backup API."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from ..errors import (
    EmbeddingModelMismatchError,
    PassphraseRequiredError,
    SchemaVersionError,
    StorageError,
    ValidationError,
)
from .migrations import LATEST_VERSION
from .sealing import PLAIN, EncryptionHeader, Sealer
from .sqlite_crypto import SQLiteCrypto, read_header
from .sqlite_fts import attach_memory_fts, detach_memory_fts

__all__ = ["SQLiteBackup"]


def _check_copy(conn: sqlite3.Connection, what: str) -> None:
    ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if ok != "ok":
        raise StorageError(f"{what} fails its integrity check: {ok}")


def _probe(path: Path, test: Callable[[Path], bool]) -> bool:
    """``test(path)``; a path the OS refuses outright (too long, say) is a ``ValidationError``."""
    try:
        return test(path)
    except (OSError, ValueError) as exc:
        raise ValidationError("path", f"cannot use {str(path)[:80]!r}: {exc}") from None


class SQLiteBackup(SQLiteCrypto):
    """``backup_to`` and ``restore_from``: whole-store copies that never stop writers."""

    def backup_to(self, target: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
        """Copy the store, as it is at one moment, to ``target`` (one self-contained file).

        A file store is read through a connection of its own, in one read
        transaction: other threads and processes keep writing meanwhile (WAL).
        The copy is written beside ``target``, checked (``integrity_check``),
        synced, then renamed into place, so ``target`` never holds half a
        backup.  An encrypted store's copy stays encrypted.
        """
        dest = Path(target)
        if _probe(dest, Path.exists) and not overwrite:
            raise ValidationError("path", f"{dest} exists (pass overwrite=True to replace it)")
        if not _probe(dest.parent, Path.is_dir):
            raise ValidationError("path", f"{dest.parent} is not a directory")
        tmp = dest.with_name(f".{dest.name}.{uuid.uuid4().hex}.partial")
        try:
            out = sqlite3.connect(tmp)
            try:
                if self.in_memory:
                    with self._lock:
                        self._c.backup(out)
                else:
                    src = self._connect()
                    try:
                        src.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
                        src.backup(out)  # all pages in one step: one consistent snapshot
                    finally:
                        src.close()
                out.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
                _check_copy(out, f"the backup {dest}")
            finally:
                out.close()
            with tmp.open("rb+") as fh:
                os.fsync(fh.fileno())
            os.replace(tmp, dest)
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(f"cannot back up {self.path} to {dest}: {exc}") from exc
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        return dest

    def restore_from(
        self, source: str | os.PathLike[str], *, passphrase: str | None, model: str, dimension: int
    ) -> None:
        """Replace the store's content with the backup at ``source``.

        Checked before anything is written: the backup is a lokulmem store
        that passes ``integrity_check``, no newer than this lokulmem, with
        vectors of ``model``; an encrypted backup opens with ``passphrase``
        (default: this store's own key, when the backup has the same salt).
        Then SQLite's backup API writes it into this store in one write
        transaction: other connections see the old store or the restored one.
        """
        src_path = Path(source)
        if not _probe(src_path, Path.is_file):
            raise ValidationError("path", f"{src_path} is not a file")
        try:
            src = sqlite3.connect(f"file:{quote(str(src_path))}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the backup {src_path}: {exc}") from exc
        try:
            header, sealer = self._vet_backup(src, src_path, passphrase, model, dimension)
            with self._lock:
                conn = self._c
                detach_memory_fts(conn)
                try:
                    src.backup(conn)
                except sqlite3.Error as exc:
                    raise StorageError(f"cannot restore {src_path}: {exc}") from exc
                finally:
                    self._sealer, self._header, self._fts = sealer, header, None
                    if sealer.encrypted:
                        attach_memory_fts(conn, sealer)
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"{src_path} is not a usable lokulmem backup: {exc}") from exc
        finally:
            src.close()

    def _vet_backup(
        self, src: sqlite3.Connection, where: Path, passphrase: str | None, model: str, dimension: int
    ) -> tuple[EncryptionHeader | None, Sealer]:
        _check_copy(src, f"the backup {where}")
        version = src.execute("PRAGMA user_version").fetchone()[0]
        if version > LATEST_VERSION:
            raise SchemaVersionError(f"the backup's schema version {version} is newer than {LATEST_VERSION}")
        if not src.execute("SELECT 1 FROM sqlite_master WHERE name = 'memories'").fetchone():
            raise StorageError(f"{where} is not a lokulmem store")
        meta = dict(src.execute("SELECT key, value FROM meta WHERE key LIKE 'embedding_%'").fetchall())
        if (
            meta.get("embedding_model", model) != model
            or int(meta.get("embedding_dimension", dimension)) != dimension
        ):
            raise EmbeddingModelMismatchError(
                f"the backup's vectors come from {meta.get('embedding_model')!r}, this store uses {model!r}"
            )
        header = read_header(src)
        if header is None:
            return None, PLAIN
        if passphrase is not None:
            return header, header.unlock(passphrase)
        if self._header is not None and header.salt == self._header.salt:
            return header, self._sealer
        raise PassphraseRequiredError(f"the backup {where} is encrypted under another key: pass passphrase=")

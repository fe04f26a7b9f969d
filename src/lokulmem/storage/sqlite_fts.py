"""The full-text index of an encrypted store: in memory only, rebuilt from the decrypted rows.

A plain store keeps ``memories_fts`` in the file (migrations 4 and 5, kept in
step by triggers).  An encrypted store must not: an FTS5 index holds its
terms in the clear.  So it has no ``memories_fts`` in the file; each
connection builds ``temp.memories_fts`` (``PRAGMA temp_store = MEMORY``: the
temp database never touches the disk) from the decrypted rows when it opens,
and TEMP triggers keep it in step with this connection's writes, calling the
SQL function ``lm_open`` to decrypt the new values (a rolled-back write rolls
the index back with it).  Every search query names ``memories_fts``
unqualified, so it reads this table as it would the file's.  Writes by other
processes are picked up when the engine sees ``PRAGMA data_version`` change
(:meth:`MemoryFTS.refresh`).  The cost is measured in ``bench/bench_crypto.py``.
"""

from __future__ import annotations

import sqlite3

from ..errors import StorageError
from .migrations import run_script
from .sealing import Sealer

__all__ = [
    "FTS_COLUMNS",
    "FTS_TOKENIZE",
    "attach_memory_fts",
    "detach_memory_fts",
    "drop_file_fts",
    "refresh_memory_fts",
]

#: The columns the full-text index covers (the file index's, migration 5).
FTS_COLUMNS = ("content", "source_context", "reply_context")
#: The tokenizer of every full-text index (the file's, migrations 4 and 5).
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"


def drop_file_fts(conn: sqlite3.Connection) -> None:
    """Remove the file's full-text index and its triggers (inside the caller's transaction)."""
    run_script(
        conn,
        """
        DROP TRIGGER IF EXISTS main.memories_fts_insert;
        DROP TRIGGER IF EXISTS main.memories_fts_delete;
        DROP TRIGGER IF EXISTS main.memories_fts_update;
        DROP TABLE IF EXISTS main.memories_fts
        """,
    )


def detach_memory_fts(conn: sqlite3.Connection) -> None:
    """Remove this connection's in-memory index and its triggers (if any)."""
    run_script(
        conn,
        """
        DROP TRIGGER IF EXISTS temp.lm_fts_insert;
        DROP TRIGGER IF EXISTS temp.lm_fts_delete;
        DROP TRIGGER IF EXISTS temp.lm_fts_update;
        DROP TABLE IF EXISTS temp.memories_fts
        """,
    )


def _opened(column: str) -> str:
    return f"lm_open(new.{column}, 'memories.{column}:' || new.id)"


def attach_memory_fts(conn: sqlite3.Connection, sealer: Sealer) -> None:
    """Create this connection's in-memory index and its triggers, then fill it."""
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.create_function("lm_open", 2, sealer.open, deterministic=True)
    cols = ", ".join(FTS_COLUMNS)
    values = ", ".join(_opened(c) for c in FTS_COLUMNS)
    changed = " OR ".join(f"old.{c} IS NOT new.{c}" for c in FTS_COLUMNS)
    detach_memory_fts(conn)
    run_script(
        conn,
        f"""
        CREATE VIRTUAL TABLE temp.memories_fts USING fts5({cols}, tokenize='{FTS_TOKENIZE}');
        CREATE TEMP TRIGGER lm_fts_insert AFTER INSERT ON main.memories BEGIN
            INSERT INTO memories_fts(rowid, {cols}) VALUES (new.rowid, {values});
        END;
        CREATE TEMP TRIGGER lm_fts_delete AFTER DELETE ON main.memories BEGIN
            DELETE FROM memories_fts WHERE rowid = old.rowid;
        END;
        CREATE TEMP TRIGGER lm_fts_update AFTER UPDATE OF {cols} ON main.memories
        WHEN {changed} BEGIN
            DELETE FROM memories_fts WHERE rowid = old.rowid;
            INSERT INTO memories_fts(rowid, {cols}) VALUES (new.rowid, {values});
        END
        """,
    )
    refresh_memory_fts(conn, sealer)


def refresh_memory_fts(conn: sqlite3.Connection, sealer: Sealer) -> int:
    """Rebuild the in-memory index from the file (after another process wrote).

    A field that does not authenticate (the file was altered) is indexed as
    empty rather than refusing the whole store: reading that memory still
    raises ``StorageError`` naming it.  Returns how many fields were skipped.
    """
    if not conn.execute("SELECT 1 FROM sqlite_temp_master WHERE name = 'memories_fts'").fetchone():
        return 0
    rows = conn.execute(f"SELECT rowid, id, {', '.join(FTS_COLUMNS)} FROM main.memories").fetchall()
    skipped = 0

    def opened(column: str, value: str, mid: str) -> str:
        nonlocal skipped
        try:
            return sealer.open(value, f"memories.{column}:{mid}")
        except StorageError:
            skipped += 1
            return ""

    conn.execute("DELETE FROM temp.memories_fts")
    marks = ", ".join("?" * (len(FTS_COLUMNS) + 1))
    conn.executemany(
        f"INSERT INTO temp.memories_fts(rowid, {', '.join(FTS_COLUMNS)}) VALUES ({marks})",
        (
            (rowid, *(opened(c, v, mid) for c, v in zip(FTS_COLUMNS, vals, strict=True)))
            for rowid, mid, *vals in rows
        ),
    )
    return skipped

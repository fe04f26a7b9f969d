"""Named, ordered schema migrations keyed on ``PRAGMA user_version``.

Migration ``n`` (1-based) brings the schema from version ``n-1`` to ``n``.
Never edit a released migration: append a new one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

__all__ = ["LATEST_VERSION", "MIGRATIONS", "build_file_fts", "fts5_available", "migrate", "run_script"]


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run ``script`` statement by statement, inside the caller's transaction."""
    # Not executescript(): it commits first, and a migration must be atomic.
    # Statements are cut at ";" only where SQLite says one is complete, so
    # trigger bodies (BEGIN ...; ... END) stay whole.
    buffer = ""
    for piece in (script.rstrip().rstrip(";") + ";").split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \n;"):
                conn.execute(buffer)
            buffer = ""
    if buffer.strip(" \n;"):
        conn.execute(buffer)


#: The schema of version 1: memories (PRD §9 fields and HOM fields), their types,
#: episodes, edges, clusters and the meta table.
M001_SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE memories (
    id                      TEXT PRIMARY KEY,
    content                 TEXT NOT NULL,
    types                   TEXT NOT NULL,          -- JSON list
    embedding               BLOB,                   -- float32, L2-normalised
    cluster_id              TEXT,
    base_strength           REAL NOT NULL,
    confidence              TEXT NOT NULL,
    extraction_score        REAL NOT NULL,
    emotional_valence       REAL NOT NULL,
    mention_count           INTEGER NOT NULL,
    pinned                  INTEGER NOT NULL,
    valid_from              INTEGER NOT NULL,
    valid_to                INTEGER,
    created_at              INTEGER NOT NULL,
    updated_at              INTEGER NOT NULL,
    last_accessed_at        INTEGER NOT NULL,
    last_reinforced         INTEGER NOT NULL,
    status                  TEXT NOT NULL,
    superseded_by           TEXT,
    superseded_at           INTEGER,
    supersession_type       TEXT,
    temporal_supersedes     TEXT,
    source_session          TEXT NOT NULL,
    source_turn             INTEGER NOT NULL,
    source_conversation_ids TEXT NOT NULL,          -- JSON list
    entities                TEXT NOT NULL,          -- JSON list
    source_text             TEXT NOT NULL,
    source                  TEXT NOT NULL,
    project_id              TEXT,
    track                   TEXT,
    key                     TEXT,
    kind                    TEXT NOT NULL,
    quality_form            REAL NOT NULL,
    quality_filter          REAL NOT NULL,
    quality_substance       REAL NOT NULL,
    quality_factuality      REAL NOT NULL,
    quality_score           REAL NOT NULL,
    attribute               TEXT,
    attribute_value         TEXT,
    metadata                TEXT NOT NULL           -- JSON object
);
-- PRD §9 indexes. *types is a multi-entry index, kept as a side table.
CREATE TABLE memory_types (
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    type      TEXT NOT NULL,
    PRIMARY KEY (memory_id, type)
) WITHOUT ROWID;
CREATE INDEX idx_memory_types_type ON memory_types(type);
CREATE INDEX idx_memories_status ON memories(status);
CREATE INDEX idx_memories_cluster ON memories(cluster_id);
CREATE INDEX idx_memories_last_accessed ON memories(last_accessed_at);
CREATE INDEX idx_memories_base_strength ON memories(base_strength);
CREATE INDEX idx_memories_valid_from ON memories(valid_from);
CREATE INDEX idx_memories_pinned ON memories(pinned);
CREATE INDEX idx_memories_mention_count ON memories(mention_count);
CREATE INDEX idx_memories_status_last_accessed ON memories(status, last_accessed_at);
CREATE INDEX idx_memories_status_pinned ON memories(status, pinned);
CREATE INDEX idx_memories_created ON memories(created_at);
CREATE INDEX idx_memories_attribute ON memories(attribute, status);
CREATE INDEX idx_memories_key ON memories(key);
CREATE INDEX idx_memories_session ON memories(source_session);

CREATE TABLE episodes (
    id                 TEXT PRIMARY KEY,
    summary            TEXT NOT NULL,
    embedding          BLOB,
    memories_extracted TEXT NOT NULL,
    started_at         INTEGER NOT NULL,
    ended_at           INTEGER NOT NULL,
    turn_count         INTEGER NOT NULL,
    emotional_valence  REAL NOT NULL,
    topics             TEXT NOT NULL
);
CREATE INDEX idx_episodes_started ON episodes(started_at);

CREATE TABLE edges (
    id              TEXT PRIMARY KEY,               -- f"{from_id}__{to_id}"
    from_id         TEXT NOT NULL,
    to_id           TEXT NOT NULL,
    weight          REAL NOT NULL,
    shared_entities TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    last_updated    INTEGER NOT NULL
);
CREATE INDEX idx_edges_from ON edges(from_id);
CREATE INDEX idx_edges_to ON edges(to_id);
CREATE INDEX idx_edges_weight ON edges(weight);
CREATE INDEX idx_edges_from_weight ON edges(from_id, weight);

CREATE TABLE clusters (
    id              TEXT PRIMARY KEY,
    centroid        BLOB,
    member_ids      TEXT NOT NULL,
    label           TEXT NOT NULL,
    last_recomputed INTEGER NOT NULL
);
"""


def m001_initial(conn: sqlite3.Connection) -> None:
    run_script(conn, M001_SCHEMA)


def fts5_available(conn: sqlite3.Connection) -> bool:
    """Whether this SQLite build has the FTS5 extension."""
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.lokulmem_fts5_probe USING fts5(x)")
    except sqlite3.OperationalError:
        return False
    conn.execute("DROP TABLE temp.lokulmem_fts5_probe")
    return True


def m002_manage(conn: sqlite3.Connection) -> None:
    """Full-text search over content (FTS5 with Porter stemming, kept in step by
    triggers) and the import log.

    Without FTS5 the virtual table is not created and ``search()`` falls back
    to ``LIKE``; a later build with FTS5 can add it by a new migration.
    """
    if fts5_available(conn):
        run_script(
            conn,
            """
            CREATE VIRTUAL TABLE memories_fts USING fts5(
                content, content='memories', content_rowid='rowid',
                tokenize='porter unicode61 remove_diacritics 2'
            );
            INSERT INTO memories_fts(memories_fts) VALUES ('rebuild');
            CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
                INSERT INTO memories_fts(rowid, content) VALUES (new.rowid, new.content);
            END;
            CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
                INSERT INTO memories_fts(memories_fts, rowid, content)
                VALUES ('delete', old.rowid, old.content);
            END;
            CREATE TRIGGER memories_fts_update AFTER UPDATE OF content ON memories
            WHEN old.content IS NOT new.content BEGIN
                INSERT INTO memories_fts(memories_fts, rowid, content)
                VALUES ('delete', old.rowid, old.content);
                INSERT INTO memories_fts(rowid, content) VALUES (new.rowid, new.content);
            END
            """,
        )
    run_script(
        conn,
        """
        -- Bridge events (HOM "import validation"): one audit row per import.
        CREATE TABLE bridge_events (
            id         TEXT PRIMARY KEY,
            created_at INTEGER NOT NULL,
            format     TEXT NOT NULL,        -- "lokulmem-export" | "memory-pack"
            name       TEXT,
            origin     TEXT,
            imported   INTEGER NOT NULL,
            skipped    INTEGER NOT NULL,
            conflicts  INTEGER NOT NULL,
            rejected   TEXT NOT NULL,        -- JSON list of {index, key, reason}
            memory_ids TEXT NOT NULL         -- JSON list of the ids written
        );
        CREATE INDEX idx_bridge_events_created ON bridge_events(created_at)
        """,
    )


def m003_lifecycle(conn: sqlite3.Connection) -> None:
    """When a memory faded (purge runs ``purge_after_days`` later)."""
    run_script(
        conn,
        """
        ALTER TABLE memories ADD COLUMN faded_at INTEGER;
        CREATE INDEX idx_memories_status_faded ON memories(status, faded_at)
        """,
    )


def _fts_index(conn: sqlite3.Connection, columns: tuple[str, ...]) -> None:
    """(Re)build ``memories_fts`` over ``columns`` of ``memories``, with the triggers
    that keep it in step.  Each migration passes its own column list, so what
    it does never changes with later code."""
    encrypted = (
        conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
        and conn.execute("SELECT 1 FROM meta WHERE key = 'encryption'").fetchone()
    )
    if encrypted:  # its index lives in memory only (storage.sqlite_fts)
        return
    cols = ", ".join(columns)
    new = ", ".join(f"new.{c}" for c in columns)
    old = ", ".join(f"old.{c}" for c in columns)
    changed = " OR ".join(f"old.{c} IS NOT new.{c}" for c in columns)
    run_script(
        conn,
        f"""
        DROP TRIGGER IF EXISTS memories_fts_insert;
        DROP TRIGGER IF EXISTS memories_fts_delete;
        DROP TRIGGER IF EXISTS memories_fts_update;
        DROP TABLE IF EXISTS memories_fts;
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            {cols}, content='memories', content_rowid='rowid',
            tokenize='porter unicode61 remove_diacritics 2'
        );
        INSERT INTO memories_fts(memories_fts) VALUES ('rebuild');
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
            INSERT INTO memories_fts(rowid, {cols}) VALUES (new.rowid, {new});
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, {cols}) VALUES ('delete', old.rowid, {old});
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF {cols} ON memories
        WHEN {changed} BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, {cols}) VALUES ('delete', old.rowid, {old});
            INSERT INTO memories_fts(rowid, {cols}) VALUES (new.rowid, {new});
        END
        """,
    )


def m004_context(conn: sqlite3.Connection) -> None:
    """``source_context`` (the whole message) and a two-column FTS5 index (content, context)."""
    run_script(conn, "ALTER TABLE memories ADD COLUMN source_context TEXT NOT NULL DEFAULT ''")
    if fts5_available(conn):
        _fts_index(conn, ("content", "source_context"))


def m005_reply_context(conn: sqlite3.Connection) -> None:
    """``reply_context`` (what the message answered) as a third FTS5 column."""
    run_script(conn, "ALTER TABLE memories ADD COLUMN reply_context TEXT NOT NULL DEFAULT ''")
    if fts5_available(conn):
        _fts_index(conn, ("content", "source_context", "reply_context"))


def m006_context_vector(conn: sqlite3.Connection) -> None:
    """``context_embedding``: the vector of "reply context + source message"."""
    run_script(conn, "ALTER TABLE memories ADD COLUMN context_embedding BLOB")


def m007_event_at(conn: sqlite3.Connection) -> None:
    """``event_at``: when the event a memory speaks of ends, if it lay ahead."""
    run_script(conn, "ALTER TABLE memories ADD COLUMN event_at INTEGER")


def m008_recall_indexes(conn: sqlite3.Connection) -> None:
    """Indexes for recall's time-range stage ("what did I do last May?") and for
    proactive memory (events ahead)."""
    run_script(
        conn,
        """
        CREATE INDEX IF NOT EXISTS idx_memories_status_created ON memories(status, created_at);
        CREATE INDEX IF NOT EXISTS idx_memories_status_event ON memories(status, event_at);
        """,
    )


def m009_store_counts(conn: sqlite3.Connection) -> None:
    """Memories per status, kept by triggers: ``count(*)`` of a million rows is a
    5 ms index scan (30 ms with ``WHERE status``), once per ``learn()`` and
    ``augment()``; this is one row read.  (Rows replaced by ``INSERT OR REPLACE``
    would skip the delete trigger; the storage never writes memories that way.)"""
    run_script(
        conn,
        """
        CREATE TABLE store_counts (
            status TEXT PRIMARY KEY,
            n      INTEGER NOT NULL
        );
        INSERT INTO store_counts(status, n) SELECT status, count(*) FROM memories GROUP BY status;
        CREATE TRIGGER memories_count_insert AFTER INSERT ON memories BEGIN
            INSERT INTO store_counts(status, n) VALUES (NEW.status, 1)
                ON CONFLICT(status) DO UPDATE SET n = n + 1;
        END;
        CREATE TRIGGER memories_count_delete AFTER DELETE ON memories BEGIN
            UPDATE store_counts SET n = n - 1 WHERE status = OLD.status;
        END;
        CREATE TRIGGER memories_count_status AFTER UPDATE OF status ON memories
            WHEN OLD.status IS NOT NEW.status BEGIN
            UPDATE store_counts SET n = n - 1 WHERE status = OLD.status;
            INSERT INTO store_counts(status, n) VALUES (NEW.status, 1)
                ON CONFLICT(status) DO UPDATE SET n = n + 1;
        END;
        """,
    )


def build_file_fts(conn: sqlite3.Connection) -> None:
    """(Re)build the file's full-text index at the current columns (a store decrypted)."""
    _fts_index(conn, ("content", "source_context", "reply_context"))


MIGRATIONS: tuple[tuple[str, Callable[[sqlite3.Connection], None]], ...] = (
    ("m001_initial", m001_initial),
    ("m002_manage", m002_manage),
    ("m003_lifecycle", m003_lifecycle),
    ("m004_context", m004_context),
    ("m005_reply_context", m005_reply_context),
    ("m006_context_vector", m006_context_vector),
    ("m007_event_at", m007_event_at),
    ("m008_recall_indexes", m008_recall_indexes),
    ("m009_store_counts", m009_store_counts),
)
LATEST_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection, current: int) -> list[str]:
    """Apply every migration after ``current``, each in its own transaction.

    Returns the names applied.  The caller has already refused ``current`` >
    :data:`LATEST_VERSION`.
    """
    applied: list[str] = []
    for version, (name, step) in enumerate(MIGRATIONS, start=1):
        if version <= current:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            now = conn.execute("PRAGMA user_version").fetchone()[0]
            if now >= version:
                conn.execute("COMMIT")
                continue
            step(conn)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(name)
    return applied

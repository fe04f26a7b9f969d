"""The PostgreSQL schema: named migrations, run once per database under an advisory lock.

Every store of a database lives in the same tables, told apart by the
``store`` column that leads every primary key and index (one user's store is
one ``store_name``).  Vectors of memories are ``vector`` columns (pgvector)
with an HNSW index per dimension (:func:`ensure_vector_index`: an expression
index, so stores embedded by models of different sizes can share the table);
full-text search uses three generated ``tsvector`` columns (content, the
source message, the reply it answered) with GIN indexes, over the text search
configuration ``lm_text`` (English stemming, accents folded when the server
has ``unaccent``).  Other vectors (message context, episodes, clusters) are
``bytea`` in the SQLite blob format: nothing searches them in the database.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from ..errors import SchemaVersionError, StorageError

__all__ = [
    "MIGRATIONS",
    "SCHEMA_NAME",
    "check_schema_name",
    "ensure_vector_extension",
    "ensure_vector_index",
    "migrate",
]

#: Default PostgreSQL schema holding lokulmem's tables.
SCHEMA_NAME = "lokulmem"
#: The PostgreSQL extension vector search needs.
VECTOR_EXTENSION = "vector"
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]{0,62}")
#: Key of the advisory lock that serialises migrations and index creation.
_MIGRATION_LOCK = 0x6C6F6B756C6D656D  # "lokulmem"

_M001 = """
CREATE TABLE IF NOT EXISTS {s}.stores (
    store      TEXT PRIMARY KEY,
    version    BIGINT NOT NULL DEFAULT 0,      -- bumped by every write transaction
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE {s}.meta (
    store TEXT NOT NULL REFERENCES {s}.stores(store) ON DELETE CASCADE,
    key   TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (store, key)
);
CREATE TABLE {s}.memories (
    store                   TEXT NOT NULL REFERENCES {s}.stores(store) ON DELETE CASCADE,
    id                      TEXT NOT NULL,
    seq                     BIGSERIAL NOT NULL,     -- insertion order (SQLite's rowid)
    content                 TEXT NOT NULL,
    types                   TEXT NOT NULL,          -- JSON list
    embedding               vector,                 -- L2-normalised
    cluster_id              TEXT,
    base_strength           DOUBLE PRECISION NOT NULL,
    confidence              TEXT NOT NULL,
    extraction_score        DOUBLE PRECISION NOT NULL,
    emotional_valence       DOUBLE PRECISION NOT NULL,
    mention_count           INTEGER NOT NULL,
    pinned                  INTEGER NOT NULL,
    valid_from              BIGINT NOT NULL,
    valid_to                BIGINT,
    created_at              BIGINT NOT NULL,
    updated_at              BIGINT NOT NULL,
    last_accessed_at        BIGINT NOT NULL,
    last_reinforced         BIGINT NOT NULL,
    status                  TEXT NOT NULL,
    superseded_by           TEXT,
    superseded_at           BIGINT,
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
    quality_form            DOUBLE PRECISION NOT NULL,
    quality_filter          DOUBLE PRECISION NOT NULL,
    quality_substance       DOUBLE PRECISION NOT NULL,
    quality_factuality      DOUBLE PRECISION NOT NULL,
    quality_score           DOUBLE PRECISION NOT NULL,
    attribute               TEXT,
    attribute_value         TEXT,
    metadata                TEXT NOT NULL,          -- JSON object
    faded_at                BIGINT,
    source_context          TEXT NOT NULL DEFAULT '',
    reply_context           TEXT NOT NULL DEFAULT '',
    context_embedding       BYTEA,
    event_at                BIGINT,
    tsv_content tsvector GENERATED ALWAYS AS (to_tsvector('{s}.lm_text', content)) STORED,
    tsv_source  tsvector GENERATED ALWAYS AS (to_tsvector('{s}.lm_text', source_context)) STORED,
    tsv_reply   tsvector GENERATED ALWAYS AS (to_tsvector('{s}.lm_text', reply_context)) STORED,
    PRIMARY KEY (store, id)
);
CREATE INDEX ON {s}.memories (store, seq);
CREATE INDEX ON {s}.memories (store, status, created_at);
CREATE INDEX ON {s}.memories (store, status, event_at);
CREATE INDEX ON {s}.memories (store, status, pinned);
CREATE INDEX ON {s}.memories (store, attribute, status);
CREATE INDEX ON {s}.memories (store, key);
CREATE INDEX ON {s}.memories (store, superseded_by);
CREATE INDEX ON {s}.memories (store, temporal_supersedes);
CREATE INDEX ON {s}.memories (store, source_session);
CREATE INDEX ON {s}.memories USING gin (tsv_content);
CREATE INDEX ON {s}.memories USING gin (tsv_source);
CREATE INDEX ON {s}.memories USING gin (tsv_reply);
-- No foreign key to memories: its check runs a plan cached while the table was
-- small (a scan), and within one import transaction it scanned every row
-- inserted so far, per row.  The storage deletes a memory's types with it.
CREATE TABLE {s}.memory_types (
    store     TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    type      TEXT NOT NULL,
    PRIMARY KEY (store, memory_id, type)
);
CREATE INDEX ON {s}.memory_types (store, type);
CREATE TABLE {s}.episodes (
    store              TEXT NOT NULL REFERENCES {s}.stores(store) ON DELETE CASCADE,
    id                 TEXT NOT NULL,
    summary            TEXT NOT NULL,
    embedding          BYTEA,
    memories_extracted TEXT NOT NULL,
    started_at         BIGINT NOT NULL,
    ended_at           BIGINT NOT NULL,
    turn_count         INTEGER NOT NULL,
    emotional_valence  DOUBLE PRECISION NOT NULL,
    topics             TEXT NOT NULL,
    PRIMARY KEY (store, id)
);
CREATE TABLE {s}.edges (
    store           TEXT NOT NULL REFERENCES {s}.stores(store) ON DELETE CASCADE,
    id              TEXT NOT NULL,
    from_id         TEXT NOT NULL,
    to_id           TEXT NOT NULL,
    weight          DOUBLE PRECISION NOT NULL,
    shared_entities TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    last_updated    BIGINT NOT NULL,
    PRIMARY KEY (store, id)
);
CREATE INDEX ON {s}.edges (store, from_id);
CREATE INDEX ON {s}.edges (store, to_id);
CREATE TABLE {s}.clusters (
    store           TEXT NOT NULL REFERENCES {s}.stores(store) ON DELETE CASCADE,
    id              TEXT NOT NULL,
    centroid        BYTEA,
    member_ids      TEXT NOT NULL,
    label           TEXT NOT NULL,
    last_recomputed BIGINT NOT NULL,
    PRIMARY KEY (store, id)
);
CREATE TABLE {s}.bridge_events (
    store      TEXT NOT NULL REFERENCES {s}.stores(store) ON DELETE CASCADE,
    id         TEXT NOT NULL,
    seq        BIGSERIAL NOT NULL,
    created_at BIGINT NOT NULL,
    format     TEXT NOT NULL,
    name       TEXT,
    origin     TEXT,
    imported   INTEGER NOT NULL,
    skipped    INTEGER NOT NULL,
    conflicts  INTEGER NOT NULL,
    rejected   TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    PRIMARY KEY (store, id)
);
"""


def _m001_initial(cur: psycopg.Cursor[Any], schema: str) -> None:
    """The tables, the text search configuration and their indexes."""
    _text_search_config(cur, schema)
    cur.execute(_M001.replace("{s}", schema).encode())


def _text_search_config(cur: psycopg.Cursor[Any], schema: str) -> None:
    """``<schema>.lm_text``: English stemming, with accents folded where ``unaccent``
    can be installed (as SQLite's ``remove_diacritics`` does)."""
    cur.execute(f"CREATE TEXT SEARCH CONFIGURATION {schema}.lm_text (COPY = pg_catalog.english)".encode())
    try:
        with cur.connection.transaction():  # a savepoint: a refusal must not end the migration
            cur.execute(b"CREATE EXTENSION IF NOT EXISTS unaccent")
    except psycopg.Error:
        return
    cur.execute(
        f"ALTER TEXT SEARCH CONFIGURATION {schema}.lm_text ALTER MAPPING FOR hword, hword_part, word "
        "WITH unaccent, english_stem".encode()
    )


_M002 = """
CREATE TABLE {s}.store_counts (
    store  TEXT NOT NULL,
    status TEXT NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (store, status)
);
INSERT INTO {s}.store_counts (store, status, n)
    SELECT store, status, count(*) FROM {s}.memories GROUP BY store, status;
CREATE FUNCTION {s}.lm_count_memories() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE {s}.store_counts SET n = n - 1 WHERE store = OLD.store AND status = OLD.status;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO {s}.store_counts AS c (store, status, n) VALUES (NEW.store, NEW.status, 1)
            ON CONFLICT (store, status) DO UPDATE SET n = c.n + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER lm_count_added_removed AFTER INSERT OR DELETE ON {s}.memories
    FOR EACH ROW EXECUTE FUNCTION {s}.lm_count_memories();
CREATE TRIGGER lm_count_status AFTER UPDATE OF status ON {s}.memories
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION {s}.lm_count_memories();
"""


def _m002_store_counts(cur: psycopg.Cursor[Any], schema: str) -> None:
    """Memories per store and status, kept by triggers: ``count(*)`` over a store of
    100k memories took about 100 ms (a parallel scan), on every learn() and augment()."""
    cur.execute(_M002.replace("{s}", schema).encode())


MIGRATIONS: tuple[tuple[str, Callable[[psycopg.Cursor[Any], str], None]], ...] = (
    ("m001_initial", _m001_initial),
    ("m002_store_counts", _m002_store_counts),
)


def check_schema_name(schema: str) -> str:
    """``schema`` if it is a plain lower-case identifier (it is written into SQL)."""
    if not isinstance(schema, str) or not _IDENTIFIER.fullmatch(schema):
        raise StorageError(f"PostgreSQL schema name {schema!r} must match [a-z_][a-z0-9_]*")
    return schema


def ensure_vector_extension(conn: psycopg.Connection[Any], where: str) -> None:
    """Create pgvector's extension if it is missing; a clear error if the server lacks it."""
    if conn.execute("SELECT 1 FROM pg_extension WHERE extname = %s", (VECTOR_EXTENSION,)).fetchone():
        return
    available = conn.execute(
        "SELECT 1 FROM pg_available_extensions WHERE name = %s", (VECTOR_EXTENSION,)
    ).fetchone()
    if not available:
        raise StorageError(
            f"the PostgreSQL server at {where} has no {VECTOR_EXTENSION!r} extension (pgvector); "
            "install pgvector on the server (https://github.com/pgvector/pgvector) and retry"
        )
    try:
        conn.execute(sql.SQL("CREATE EXTENSION IF NOT EXISTS {}").format(sql.Identifier(VECTOR_EXTENSION)))
    except psycopg.Error as exc:
        raise StorageError(
            f"cannot create the {VECTOR_EXTENSION!r} extension in {where}: {exc}; "
            f"ask the database owner to run CREATE EXTENSION {VECTOR_EXTENSION}"
        ) from exc


def migrate(conn: psycopg.Connection[Any], schema: str) -> list[str]:
    """Apply the migrations this database lacks, in one transaction under an
    advisory lock (another process may be migrating); refuse a database migrated
    by a newer lokulmem.  Returns the names applied."""
    names = [name for name, _ in MIGRATIONS]
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        cur.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}".encode())
        cur.execute(
            f"CREATE TABLE IF NOT EXISTS {schema}.schema_migrations "
            "(name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())".encode()
        )
        done = {r[0] for r in cur.execute(f"SELECT name FROM {schema}.schema_migrations".encode())}
        unknown = sorted(done - set(names))
        if unknown:
            raise SchemaVersionError(
                f"the PostgreSQL schema {schema!r} has migrations this lokulmem does not know "
                f"({', '.join(unknown)}): it was written by a newer version; upgrade lokulmem"
            )
        applied = []
        for name, step in MIGRATIONS:
            if name in done:
                continue
            step(cur, schema)
            cur.execute(f"INSERT INTO {schema}.schema_migrations(name) VALUES (%s)".encode(), (name,))
            applied.append(name)
    return applied


def vector_index_name(dimension: int) -> str:
    return f"memories_embedding_hnsw_{dimension}"


def ensure_vector_index(
    conn: psycopg.Connection[Any], schema: str, dimension: int, *, m: int, ef_construction: int
) -> None:
    """The HNSW index (cosine) over the memory vectors of ``dimension`` dimensions."""
    dim = int(dimension)
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        cur.execute(
            f"CREATE INDEX IF NOT EXISTS {vector_index_name(dim)} ON {schema}.memories "
            f"USING hnsw ((embedding::vector({dim})) vector_cosine_ops) "
            f"WITH (m = {int(m)}, ef_construction = {int(ef_construction)}) "
            f"WHERE vector_dims(embedding) = {dim}".encode()
        )

import sqlite3
import threading
from pathlib import Path

import numpy as np
import pytest

from lokulmem import (
    EmbeddingModelMismatchError,
    Memory,
    QualityWalls,
    SchemaVersionError,
    SQLiteStorage,
    StorageError,
)
from lokulmem.storage.migrations import LATEST_VERSION, MIGRATIONS
from lokulmem.storage.sqlite_rows import vec_to_blob

MODEL = "all-MiniLM-L6-v2-onnx-int8"


def _memory(**kw: object) -> Memory:
    vec = np.arange(384, dtype=np.float32) / 384
    base: dict[str, object] = dict(
        id="m1",
        content="User lives in Berlin.",
        types=("location",),
        embedding=vec,
        base_strength=1.2,
        confidence="medium",
        extraction_score=0.5,
        emotional_valence=-0.3,
        mention_count=2,
        pinned=True,
        valid_from=10,
        valid_to=20,
        created_at=10,
        updated_at=11,
        last_accessed_at=12,
        last_reinforced=13,
        status="active",
        superseded_by="m2",
        superseded_at=20,
        supersession_type="temporal",
        temporal_supersedes=None,
        source_session="s1",
        source_turn=3,
        source_conversation_ids=("s1", "s2"),
        entities=("Berlin",),
        source_text="I live in Berlin",
        source="direct",
        project_id="p",
        track="conversation",
        key="home:city",
        kind="declarative",
        quality=QualityWalls(form=1.0, filter=0.9, substance=0.65, factuality=1.0),
        attribute="user.residence",
        attribute_value="berlin",
        metadata={"a": [1, 2]},
    )
    base.update(kw)
    return Memory(**base)  # type: ignore[arg-type]


def test_vectors_are_written_as_float16_or_float32_and_both_are_read(store_path: Path) -> None:
    half = SQLiteStorage(store_path, vector_storage="float16")
    half.open(embedding_model=MODEL, dimension=384)
    m = _memory()
    half.insert_memory(m)
    blob = half._c.execute("SELECT embedding FROM memories WHERE id = 'm1'").fetchone()[0]
    assert len(blob) == 1 + 384 * 2  # the tag, then half the bytes
    got = half.get_memory("m1")
    assert got is not None and got.embedding is not None and m.embedding is not None
    assert np.array_equal(got.embedding, m.embedding.astype(np.float16).astype(np.float32))
    # A row an older (float32) store wrote is read as before.
    full = vec_to_blob(m.embedding)
    assert full is not None and len(full) == 384 * 4
    half._c.execute("UPDATE memories SET embedding = ? WHERE id = 'm1'", (full,))
    again = half.get_memory("m1")
    assert again is not None and again.embedding is not None
    assert np.array_equal(again.embedding, m.embedding)
    half.close()


def test_wal_indexes_and_named_migrations(store_path: Path) -> None:
    s = SQLiteStorage(store_path)
    s.open(embedding_model=MODEL, dimension=384)
    s.close()
    conn = sqlite3.connect(store_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION == len(MIGRATIONS)
    assert MIGRATIONS[0][0] == "m001_initial"
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    for idx in (
        "idx_memory_types_type",
        "idx_memories_status",
        "idx_memories_cluster",
        "idx_memories_status_last_accessed",
        "idx_memories_status_pinned",
        "idx_edges_from_weight",
    ):
        assert idx in names
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"memories", "episodes", "edges", "clusters", "meta"} <= tables


def test_newer_schema_is_refused_and_file_untouched(store_path: Path) -> None:
    conn = sqlite3.connect(store_path)
    conn.execute("CREATE TABLE x(y)")
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.commit()
    conn.close()
    before = store_path.read_bytes()
    with pytest.raises(SchemaVersionError):
        SQLiteStorage(store_path).open(embedding_model=MODEL, dimension=384)
    assert store_path.read_bytes() == before
    assert not Path(str(store_path) + "-wal").exists()


def test_other_embedding_model_is_refused_and_file_untouched(store_path: Path) -> None:
    s = SQLiteStorage(store_path)
    s.open(embedding_model=MODEL, dimension=384)
    s.insert_memory(_memory())
    s.close()
    before = store_path.read_bytes()
    with pytest.raises(EmbeddingModelMismatchError, match="all-MiniLM"):
        SQLiteStorage(store_path).open(embedding_model="other-model", dimension=384)
    assert store_path.read_bytes() == before


def test_not_a_database(store_path: Path) -> None:
    store_path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StorageError):
        SQLiteStorage(store_path).open(embedding_model=MODEL, dimension=384)


class HashEmbedder:
    """A different (deterministic, bag-of-words hashing) embedder: a real plug-in."""

    model_id = "hash-64"
    dimension = 64

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                out[i, sum(map(ord, w)) % 64] += 1.0
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
        return out


def test_reembed_switches_the_store_to_another_model(store_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    from lokulmem import LokulMem
    from lokulmem.records import context_text

    with LokulMem(path=store_path, embedder=embedder) as mem:
        mem.learn("I live in Berlin.", "")
    with pytest.raises(EmbeddingModelMismatchError):
        LokulMem(path=store_path, embedder=HashEmbedder()).init()
    s = SQLiteStorage(store_path)
    assert s.reembed(HashEmbedder()) == 1
    s.close()
    with LokulMem(path=store_path, embedder=HashEmbedder()) as mem:
        assert "Berlin" in mem.augment("I live in Berlin", []).context
        (m,) = mem.manage().list()
        (want,) = HashEmbedder().embed([context_text(m.reply_context, m.source_context)])
        assert m.context_embedding is not None and np.allclose(m.context_embedding, want)
    with pytest.raises(EmbeddingModelMismatchError):
        LokulMem(path=store_path, embedder=embedder).init()


def test_m002_migrates_a_version_1_store_and_indexes_old_rows(store_path: Path) -> None:
    from lokulmem.storage.migrations import m001_initial

    conn = sqlite3.connect(store_path, isolation_level=None)
    conn.execute("BEGIN")
    m001_initial(conn)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    conn.close()
    s = SQLiteStorage(store_path)
    s.open(embedding_model=MODEL, dimension=384)
    s.insert_memory(_memory(id="new", content="User plays chess."))
    s.close()
    # Turn it back into a version-1 store that already holds a row: m002 must index it.
    conn = sqlite3.connect(store_path, isolation_level=None)
    conn.execute("DROP TABLE memories_fts")
    for trig in ("memories_fts_insert", "memories_fts_delete", "memories_fts_update"):
        conn.execute(f"DROP TRIGGER {trig}")
    conn.execute("DROP TABLE bridge_events")
    conn.execute("DROP INDEX idx_memories_status_faded")
    conn.execute("ALTER TABLE memories DROP COLUMN faded_at")
    conn.execute("ALTER TABLE memories DROP COLUMN source_context")
    conn.execute("ALTER TABLE memories DROP COLUMN reply_context")
    conn.execute("ALTER TABLE memories DROP COLUMN context_embedding")
    conn.execute("DROP INDEX idx_memories_status_created")
    conn.execute("DROP INDEX idx_memories_status_event")
    conn.execute("ALTER TABLE memories DROP COLUMN event_at")
    for trig in ("memories_count_insert", "memories_count_delete", "memories_count_status"):
        conn.execute(f"DROP TRIGGER {trig}")
    conn.execute("DROP TABLE store_counts")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    s = SQLiteStorage(store_path)
    s.open(embedding_model=MODEL, dimension=384)
    assert s.has_fts and s.search_text("chess", limit=5) == ["new"]
    assert s.bridge_events() == []
    s.close()
    assert [name for name, _ in MIGRATIONS] == [
        "m001_initial",
        "m002_manage",
        "m003_lifecycle",
        "m004_context",
        "m005_reply_context",
        "m006_context_vector",
        "m007_event_at",
        "m008_recall_indexes",
        "m009_store_counts",
    ]


def test_m005_keeps_a_version_4_store_searchable(store_path: Path) -> None:
    from lokulmem.storage.migrations import m001_initial, m002_manage, m003_lifecycle, m004_context
    from lokulmem.storage.sqlite_rows import _COLUMNS, memory_to_row

    conn = sqlite3.connect(store_path, isolation_level=None)
    conn.execute("BEGIN")
    for step in (m001_initial, m002_manage, m003_lifecycle, m004_context):
        step(conn)
    conn.execute("PRAGMA user_version = 4")
    # A row as a version-4 store holds it: every column but those added since.
    row = memory_to_row(
        _memory(id="old", content="User plays chess.", source_context="I play chess on Sundays.")
    )
    later = ("reply_context", "context_embedding", "event_at")
    cols = [c for c in _COLUMNS if c not in later]
    conn.execute(
        f"INSERT INTO memories ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
        [v for c, v in zip(_COLUMNS, row, strict=True) if c not in later],
    )
    conn.execute("COMMIT")
    conn.close()
    s = SQLiteStorage(store_path)
    s.open(embedding_model=MODEL, dimension=384)
    old = s.get_memory("old")
    assert old is not None and old.reply_context == "" and old.context_embedding is None
    assert [i for i, _ in s.lexical_search(["sundays"], limit=5, context_weight=0.6)] == ["old"]
    s.insert_memory(_memory(id="new", content="User's answer is 5 years.", reply_context="Married long?"))
    assert [i for i, _ in s.lexical_search(["married"], limit=5, reply_weight=0.6)] == ["new"]
    s.close()


def test_store_counts_follow_the_rows_through_sql_too(store_path: Path) -> None:
    s = SQLiteStorage(store_path)
    s.open(embedding_model=MODEL, dimension=384)
    for i in range(3):
        s.insert_memory(_memory(id=f"m{i}", content=f"User owns bike {i}."))
    s.mark_faded(["m0"], 5)
    s.delete_memories(["m1"])
    assert (s.count_memories(), s.count_memories("active"), s.count_memories("faded")) == (2, 1, 1)
    raw = s._c.execute("SELECT count(*), sum(status = 'active') FROM memories").fetchone()
    assert raw == (2, 1)
    s.close()


def test_a_large_store_keeps_document_frequencies_while_its_size_holds(
    store_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lokulmem.storage import sqlite_queries

    monkeypatch.setattr(sqlite_queries, "DOC_FREQ_CACHE_FROM", 100)
    s = SQLiteStorage(store_path)
    s.open(embedding_model=MODEL, dimension=384)
    with s.transaction():
        for i in range(200):
            s.insert_memory(_memory(id=f"m{i}", content=f"User owns {'kayak' if i < 10 else 'bike'} {i}."))
    assert s.term_matches(["kayak"], ["m0"]).doc_freq["kayak"] == 10
    for i in range(2):  # the store grows by 1%: the count is kept
        s.insert_memory(_memory(id=f"k{i}", content="User owns another kayak."))
    tm = s.term_matches(["kayak"], ["k0", "m0"])
    assert tm.doc_freq["kayak"] == 10 and tm.matched["kayak"] == frozenset({"k0", "m0"})  # matches are fresh
    s.insert_memory(_memory(id="k2", content="User owns another kayak."))  # more than 1%: counted again
    assert s.term_matches(["kayak"], ["m0"]).doc_freq["kayak"] == 13
    s.close()


def test_two_connections_opening_a_new_store_at_once_both_succeed(tmp_path: Path) -> None:
    """SQLite answers "database is locked" at once, without the busy timeout, to a
    second connection switching a new file to WAL at the same moment: open()
    retries the switch within the timeout.  (Without the retry, about one race in
    fifteen failed here.)"""
    failures: list[BaseException] = []
    for n in range(60):
        path = tmp_path / f"race{n}.sqlite"
        start = threading.Barrier(2)

        def open_one(path: Path = path, start: threading.Barrier = start) -> None:
            s = SQLiteStorage(path)
            start.wait()
            try:
                s.open(embedding_model=MODEL, dimension=384)
            except BaseException as exc:  # the test counts every failure
                failures.append(exc)
            finally:
                s.close()

        threads = [threading.Thread(target=open_one) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert failures == []

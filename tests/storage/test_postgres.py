"""What only the PostgreSQL backend has: many stores in one database, the vector
search in the database, connection and server errors, and the whole client on it.
The shared storage contract is in tests/storage/test_contract.py."""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest

from lokulmem import ConfigError, LokulMem, Memory, SchemaVersionError, StorageError
from lokulmem.storage import pg_schema
from lokulmem.storage.postgres import PostgresStorage

MODEL = "all-MiniLM-L6-v2-onnx-int8"


def name() -> str:
    return f"t{uuid.uuid4().hex[:12]}"


def opened(dsn: str, store: str, **options: Any) -> PostgresStorage:
    s = PostgresStorage(dsn, store=store, **options)
    s.open(embedding_model=MODEL, dimension=384)
    return s


def fact(i: int, vec: np.ndarray, **kw: Any) -> Memory:
    fields: dict[str, Any] = {"content": f"User fact number {i}.", "types": ("preference",), **kw}
    return Memory(id=f"m{i}", embedding=vec, **fields)


def unit_rows(n: int, seed: int = 7) -> np.ndarray:
    """Unit vectors around 60 topics (sentence embeddings cluster; uniform random
    384-d vectors are the worst case for any HNSW graph)."""
    rng = np.random.default_rng(seed)
    topics = np.random.default_rng(0).standard_normal((60, 384))
    m = (topics[rng.integers(0, 60, n)] + 0.6 * rng.standard_normal((n, 384))).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_many_stores_share_the_tables_and_never_see_each_other(pg_dsn: str) -> None:
    alice, bob = opened(pg_dsn, name()), opened(pg_dsn, name())
    vecs = unit_rows(2)
    alice.insert_memory(fact(1, vecs[0], content="User lives in Berlin."))
    bob.insert_memory(fact(1, vecs[1], content="User lives in Lisbon."))  # the same id in another store
    alice.set_meta("k", "alice")
    assert [m.content for m in alice.all_memories()] == ["User lives in Berlin."]
    assert [m.content for m in bob.all_memories()] == ["User lives in Lisbon."]
    assert bob.search_text("berlin", limit=5) == [] and bob.get_meta("k") is None
    assert [i for i, _ in bob.nearest(vecs[0], 5)] == ["m1"]  # bob's own memory, not alice's
    assert not bob.has_vector_index()  # off by default: nearest() scans the store exactly
    bob.create_vector_index()
    assert bob.has_vector_index() and [i for i, _ in bob.nearest(vecs[0], 5)] == ["m1"]
    bob.clear()
    assert alice.count_memories() == 1 and bob.count_memories() == 0
    alice.close()
    bob.close()


def test_nearest_searches_the_hnsw_index_in_the_database(pg_dsn: str) -> None:
    s = opened(pg_dsn, "alone", schema=name(), vector_index=True)  # alone in its schema and its index
    vecs = unit_rows(3000)
    with s.transaction():
        for i, v in enumerate(vecs):
            s.insert_memory(fact(i, v, status="archived" if i % 10 == 0 else "active"))
    s._run(f"ANALYZE {s._t('memories')}")
    active = np.array([i % 10 != 0 for i in range(len(vecs))])
    queries = unit_rows(40, seed=99)
    recall = []
    for q in queries:
        sims = vecs @ q
        sims[~active] = -2
        exact = {f"m{i}" for i in np.argsort(-sims)[:10]}
        got = s.nearest(q, 10)
        assert len(got) == 10 and all(a[1] >= b[1] for a, b in itertools.pairwise(got))
        assert not {i for i, _ in got} & {f"m{i}" for i in range(0, 3000, 10)}  # active memories only
        recall.append(len(exact & {i for i, _ in got}) / 10)
    assert np.mean(recall) >= 0.95
    exact = s.nearest(queries[0], 10, exact=True)
    sims = vecs @ queries[0]
    sims[~active] = -2
    assert [i for i, _ in exact] == [f"m{i}" for i in np.argsort(-sims)[:10]]
    calibrated = s.calibrate_nearest(samples=20)
    assert calibrated is not None and 0.9 <= calibrated <= 1.0
    top = s.nearest(vecs[1], 1)
    assert top[0][0] == "m1" and top[0][1] == pytest.approx(1.0, abs=1e-5)
    with s._reading():
        s._run("SET LOCAL enable_seqscan = off")  # the plan, whatever the table's size
        plan = "\n".join(
            r[0]
            for r in s._rows(
                f"EXPLAIN SELECT id FROM {s._t('memories')} "
                "WHERE store = %s AND vector_dims(embedding) = 384 "
                "ORDER BY embedding::vector(384) <=> %s::vector(384) LIMIT 10",
                (s.store, queries[0]),
            )
        )
    assert s.vector_index_name in plan
    s.close()


def test_an_unreachable_server_is_a_clear_error_not_a_hang(tmp_path: Path) -> None:
    refused = PostgresStorage("postgresql://someone@127.0.0.1:1/memories", store="x", connect_timeout_s=2)
    with pytest.raises(StorageError, match=r"host 127\.0\.0\.1:1, database memories"):
        refused.open(embedding_model=MODEL, dimension=384)
    start = time.monotonic()
    silent = PostgresStorage(
        "postgresql://someone@10.255.255.1:5432/memories", store="x", connect_timeout_s=1
    )
    with pytest.raises(StorageError, match="cannot connect"):
        silent.open(embedding_model=MODEL, dimension=384)
    assert time.monotonic() - start < 10
    secret = PostgresStorage("postgresql://u:hunter2@127.0.0.1:1/db", store="x", connect_timeout_s=1)
    with pytest.raises(StorageError) as info:
        secret.open(embedding_model=MODEL, dimension=384)
    assert "hunter2" not in str(info.value)


def test_a_server_without_the_extension_says_so(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pg_schema, "VECTOR_EXTENSION", "vector_not_installed_here")
    with pytest.raises(StorageError, match="no 'vector_not_installed_here' extension"):
        PostgresStorage(pg_dsn, store=name()).open(embedding_model=MODEL, dimension=384)


def test_a_schema_written_by_a_newer_version_is_refused(pg_dsn: str) -> None:
    schema = name()
    s = opened(pg_dsn, "x", schema=schema)
    s.close()
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(f"INSERT INTO {schema}.schema_migrations(name) VALUES ('m999_future')".encode())
    with pytest.raises(SchemaVersionError, match="m999_future"):
        opened(pg_dsn, "x", schema=schema)
    with pytest.raises(StorageError, match="schema name"):
        PostgresStorage(pg_dsn, store="x", schema="bad; drop")


def test_the_client_on_postgres(pg_dsn: str, embedder: Any, clock: Any, tmp_path: Path) -> None:
    store = name()
    make: Callable[[], LokulMem] = lambda: LokulMem(  # noqa: E731 - two clients, same options
        storage="postgres", dsn=pg_dsn, store_name=store, embedder=embedder, clock=clock, executor="inline"
    )
    mem = make()
    mem.learn("I live in Berlin and I work at Acme Corp as a nurse.", "Nice!")
    clock.advance(days=20)
    mem.learn("I moved to Lisbon last month.", "Cool")
    result = mem.augment("Where do I live now?", [])
    text = result.messages[0]["content"]
    assert text.index("Lisbon") < text.index("Berlin")
    panel = mem.manage()
    [lisbon] = panel.search("Lisbon")
    panel.pin(lisbon.id)
    assert panel.get(lisbon.id).pinned and panel.stats().total == 3
    exported = tmp_path / "export.jsonl"
    assert panel.export_to(exported) == 3
    other = make()  # a second client on the same store sees the first one's writes
    assert {m.content for m in other.manage().list()} == {m.content for m in panel.list()}
    other.learn("My sister Ana lives in Porto.", "")
    assert any("Ana" in m.content for m in panel.list())  # and the first sees the second's
    assert "Ana" in mem.augment("Who is Ana?", []).messages[0]["content"]
    mem.maintenance(sweep=True, cluster=True)
    with pytest.raises(StorageError, match="no backup"):
        mem.backup(tmp_path / "b.sqlite")
    panel.clear()
    assert panel.import_data(exported).imported == 3 and panel.stats().total == 3
    mem.close()
    other.close()


def test_client_options_for_postgres_are_checked(pg_dsn: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="dsn"):
        LokulMem(storage="postgres")
    with pytest.raises(ConfigError, match="dsn"):
        LokulMem(storage="sqlite", dsn=pg_dsn, path=tmp_path / "s.sqlite")
    with pytest.raises(ConfigError, match="path"):
        LokulMem(storage="postgres", dsn=pg_dsn, path=tmp_path / "s.sqlite")
    with pytest.raises(ConfigError, match="encryption_passphrase"):
        LokulMem(storage="postgres", dsn=pg_dsn, encryption_passphrase="secret")
    with pytest.raises(ConfigError, match="postgres_schema"):
        LokulMem(storage="postgres", dsn=pg_dsn, postgres_schema="Not-An-Identifier")


def test_the_hnsw_graph_of_a_database_store_is_cached_locally(
    pg_dsn: str, embedder: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("usearch")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    options: dict[str, Any] = dict(
        storage="postgres", dsn=pg_dsn, store_name=name(), embedder=embedder, executor="inline",
        hnsw_threshold=30, hnsw_ef_construction=64,
    )  # fmt: skip
    first = LokulMem(**options)
    first.manage().import_data(
        {"format": "lokulmem-export", "version": "1",
         "memories": [{"id": f"m{i}", "content": f"User collects item {i}.", "types": ["preference"]}
                      for i in range(60)]}
    )  # fmt: skip
    assert first.manage().stats().search_index["ann_vectors"] == 60
    cached = first.storage.index_cache_path  # type: ignore[attr-defined]
    first.close()
    assert cached.exists() and str(cached).startswith(str(tmp_path / "cache"))
    again = LokulMem(**options)
    assert again.manage().stats().search_index["restored"] is True
    again.close()


def test_a_dropped_connection_is_replaced(pg_dsn: str) -> None:
    s = opened(pg_dsn, name())
    s.insert_memory(fact(1, unit_rows(1)[0]))
    with psycopg.connect(pg_dsn, autocommit=True) as admin:  # what a server restart does to it
        admin.execute("SELECT pg_terminate_backend(%s)", (s._c.info.backend_pid,))
    assert s.count_memories() == 1  # a read retries once on a new connection
    with psycopg.connect(pg_dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (s._c.info.backend_pid,))
    with pytest.raises(StorageError):
        s.insert_memory(fact(2, unit_rows(1)[0]))  # a write in flight fails, clearly...
    s.insert_memory(fact(2, unit_rows(1)[0]))  # ...and the next one reconnects
    assert s.count_memories() == 2
    s.close()


def test_a_bulk_write_refreshes_the_planner_statistics(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from lokulmem.storage import pg_base

    monkeypatch.setattr(pg_base, "ANALYZE_AFTER_INSERTS", 50)
    s = opened(pg_dsn, "bulk", schema=name())

    def analyzed() -> object:
        return s._one(
            "SELECT last_analyze FROM pg_stat_user_tables WHERE schemaname = %s AND relname = 'memories'",
            (s.schema,),
        )[0]  # type: ignore[index]

    with s.transaction():
        for i, v in enumerate(unit_rows(10)):
            s.insert_memory(fact(i, v))
    assert analyzed() is None  # a small write leaves statistics to autovacuum
    with s.transaction():
        for i, v in enumerate(unit_rows(60), start=10):
            s.insert_memory(fact(i, v))
    assert analyzed() is not None
    s.close()

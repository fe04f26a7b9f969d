"""The storage contract (``lokulmem.storage.Storage``), run against every backend:
SQLite, and PostgreSQL + pgvector on a real server (tests/pg_server.py).

Every protocol method is exercised here through the same assertions on both;
what only one backend has (SQLite's file format, PostgreSQL's many stores
in one database) is tested in tests/test_storage.py and tests/storage/test_postgres.py.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from lokulmem import (
    BridgeEvent,
    Cluster,
    Edge,
    EmbeddingModelMismatchError,
    Episode,
    Memory,
    MemoryQuery,
    QualityWalls,
    SQLiteStorage,
    Storage,
    StorageError,
)
from lokulmem.records import RejectedItem

MODEL = "all-MiniLM-L6-v2-onnx-int8"
Make = Callable[..., Any]


def memory(**kw: object) -> Memory:
    """A memory with every field set to something other than its default."""
    vec = np.arange(384, dtype=np.float32) / 384
    base: dict[str, object] = dict(
        id="m1", content="User lives in Berlin.", types=("location",), embedding=vec,
        base_strength=1.2, confidence="medium", extraction_score=0.5, emotional_valence=-0.3,
        mention_count=2, pinned=True, valid_from=10, valid_to=20, created_at=10, updated_at=11,
        last_accessed_at=12, last_reinforced=13, status="active", superseded_by="m2", superseded_at=20,
        supersession_type="temporal", temporal_supersedes=None, source_session="s1", source_turn=3,
        source_conversation_ids=("s1", "s2"), entities=("Berlin",), source_text="I live in Berlin",
        source="direct", project_id="p", track="conversation", key="home:city", kind="declarative",
        quality=QualityWalls(form=1.0, filter=0.9, substance=0.65, factuality=1.0),
        attribute="user.residence", attribute_value="berlin", metadata={"a": [1, 2]},
        source_context="I live in Berlin.", reply_context="Where do you live?",
        context_embedding=vec[::-1].copy(), event_at=99,
    )  # fmt: skip
    base.update(kw)
    return Memory(**base)  # type: ignore[arg-type]


def unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Make]:
    """``make(name=…, model=…, dimension=…, **options)``: an opened store of this backend;
    the same ``name`` twice gives two connections to one store."""
    made: list[Storage] = []
    prefix = f"t{uuid.uuid4().hex[:12]}"
    dsn = request.getfixturevalue("pg_dsn") if request.param == "postgres" else ""

    def make(name: str = "a", *, model: str = MODEL, dimension: int = 384, **options: Any) -> Any:
        store: Any
        if request.param == "sqlite":
            store = SQLiteStorage(tmp_path / f"{name}.sqlite", **options)
        else:
            from lokulmem.storage.postgres import PostgresStorage

            store = PostgresStorage(dsn, store=f"{prefix}_{name}", **options)
        store.open(embedding_model=model, dimension=dimension)
        made.append(store)
        return store

    yield make
    for s in made:
        s.close()


def test_round_trip_every_field(backend: Make) -> None:
    s = backend()
    m = memory()
    s.insert_memory(m)
    got = s.get_memory("m1")
    assert got is not None and got.same_as(m)
    assert s.get_memory("nope") is None
    assert (
        s.ids_by_attribute("user.residence") == ["m1"]
        and s.ids_by_attribute("user.residence", status="x") == []
    )
    assert s.size_bytes() > 0 and s.count_memories("active") == 1 and s.count_memories() == 1
    assert [i for i, _ in s.active_vectors()] == ["m1"]
    assert s.pinned_ids() == ["m1"]
    assert s.existing_ids(["m1", "m9"]) == {"m1"}
    with pytest.raises(StorageError):
        s.insert_memory(m)  # the same id again
    assert s.count_memories() == 1


def test_update_replaces_every_field_and_the_types(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory())
    changed = memory(
        content="User lives in Lisbon.", types=("location", "identity"), embedding=unit(1), pinned=False
    )
    s.update_memory(changed)
    got = s.get_memory("m1")
    assert got is not None and got.same_as(changed)
    assert s.type_counts() == {"identity": 1, "location": 1}
    with pytest.raises(StorageError, match="does not exist"):
        s.update_memory(memory(id="ghost"))


def test_get_memories_keeps_the_order_asked_and_skips_the_missing(backend: Make) -> None:
    s = backend()
    for i in range(3):
        s.insert_memory(memory(id=f"m{i}", created_at=i))
    assert [m.id for m in s.get_memories(["m2", "x", "m0"])] == ["m2", "m0"]
    assert s.get_memories([]) == []
    assert [m.id for m in s.all_memories()] == ["m0", "m1", "m2"]


def test_touch_writes_only_what_a_retrieval_changes(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory())
    touched = memory(
        base_strength=1.5, mention_count=3, confidence="high", last_accessed_at=50, last_reinforced=50,
        updated_at=50, content="ignored", types=("identity",), pinned=False,
    )  # fmt: skip
    s.touch_memories([touched])
    got = s.get_memory("m1")
    assert got is not None
    assert (got.base_strength, got.mention_count, got.confidence) == (1.5, 3, "high")
    assert (got.last_accessed_at, got.last_reinforced, got.updated_at) == (50, 50, 50)
    assert got.content == "User lives in Berlin." and got.types == ("location",) and got.pinned
    with pytest.raises(StorageError):
        s.touch_memories([memory(id="nope", base_strength=9.0), memory(base_strength=7.0)])
    again = s.get_memory("m1")
    assert again is not None and again.same_as(got)  # the failed touch rolled back


def test_set_context_vectors_writes_only_the_context_and_skips_the_missing(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory(id="m1", context_embedding=None))
    before = s.get_memory("m1")
    vec = unit(7)
    s.set_context_vectors([("m1", vec), ("gone", unit(8))])  # a deleted memory is no error
    got = s.get_memory("m1")
    assert got is not None and before is not None and got.context_embedding is not None
    assert np.allclose(got.context_embedding, vec, atol=1e-3)
    assert got.replace(context_embedding=None).same_as(before)
    assert s.get_memory("gone") is None
    s.set_context_vectors([])


def test_transaction_rolls_back_everything(backend: Make) -> None:
    s = backend()
    with pytest.raises(StorageError), s.transaction():
        s.insert_memory(memory(id="a"))
        s.put_edge(Edge(id="e", from_id="a", to_id="b", weight=0.5))
        s.insert_memory(memory(id="a"))  # duplicate id fails
    assert s.count_memories() == 0 and s.all_edges() == []
    with pytest.raises(RuntimeError), s.transaction():
        s.set_meta("k", "v")
        raise RuntimeError("the caller's own failure")
    assert s.get_meta("k") is None


def test_other_embedding_model_is_refused(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory())
    s.close()
    with pytest.raises(EmbeddingModelMismatchError, match="all-MiniLM"):
        backend(model="other-model")
    with pytest.raises(EmbeddingModelMismatchError, match="dimension"):
        backend(dimension=64)
    assert backend().count_memories() == 1


def test_list_filters_orders_and_pages(backend: Make) -> None:
    s = backend()
    rows = [
        ("User lives in Berlin.", ("location",), "active", ("s1",)),
        ("User's café is in Zürich.", ("location", "preference"), "archived", ("s2", "s3")),
        ("User likes 100% dark chocolate.", ("preference",), "active", ("s3",)),
    ]
    for i, (content, types, status, convs) in enumerate(rows):
        s.insert_memory(
            memory(id=f"m{i}", content=content, types=types, status=status, created_at=i, pinned=i == 2,
                   source_session=convs[0], source_conversation_ids=convs, mention_count=10 - i)
        )  # fmt: skip
    ids = lambda q: [m.id for m in s.list_memories(q)]  # noqa: E731 - a local shorthand
    assert ids(MemoryQuery(types=("preference",))) == ["m1", "m2"]
    assert ids(MemoryQuery(status="active", descending=True)) == ["m2", "m0"]
    assert ids(MemoryQuery(pinned=True)) == ["m2"]
    assert ids(MemoryQuery(since=1, until=1)) == ["m1"]
    assert ids(MemoryQuery(conversation="s3")) == ["m1", "m2"]
    assert ids(MemoryQuery(order_by="mention_count")) == ["m2", "m1", "m0"]
    assert ids(MemoryQuery(offset=2)) == ["m2"]
    light = s.list_memories(MemoryQuery(with_embedding=False, limit=1, offset=1))
    assert (
        [m.id for m in light] == ["m1"] and light[0].embedding is None and light[0].context_embedding is None
    )
    assert s.list_memories(MemoryQuery(types=())) == []
    with pytest.raises(StorageError):
        s.list_memories(MemoryQuery(order_by="content; DROP TABLE memories"))  # type: ignore[arg-type]
    assert s.type_counts() == {"location": 2, "preference": 2}
    assert s.conversation_count() == 3
    stats = {r["id"]: r for r in s.stat_rows()}
    assert stats["m1"]["types"] == ("location", "preference") and stats["m2"]["pinned"] is True


def test_full_text_search(backend: Make) -> None:
    s = backend()
    for i, content in enumerate(
        ["User lives in Berlin.", "User's café is in Zürich.", "User likes 100% dark chocolate."]
    ):
        s.insert_memory(
            memory(id=f"m{i}", content=content, created_at=i, source_context="", reply_context="")
        )
    assert s.search_text("zurich cafe", limit=5) == ["m1"]  # diacritics folded, every word required
    assert s.search_text("100%", limit=5) == ["m2"]
    assert s.search_text("choc", limit=5) == ["m2"]  # prefixes match
    assert s.search_text('"*', limit=5) == [] and s.search_text("berlin zurich", limit=5) == []
    assert (
        len(s.search_text("user nowhere", limit=5, max_terms=1)) == 3
        and len(s.search_text("user", limit=2)) == 2
    )
    s.delete_memories(["m0", "m1"])
    assert s.search_text("berlin", limit=5) == [] and s.type_counts() == {"location": 1}


def test_lexical_search_weights_the_message_and_reply_columns(backend: Make) -> None:
    s = backend()
    msg = "We went camping by the lake. The kids loved it."
    s.insert_memory(
        memory(id="a", content="User went camping by the lake.", source_context=msg, reply_context="")
    )
    s.insert_memory(memory(id="b", content="User's kids loved it.", source_context=msg, reply_context=""))
    asked = "That's lovely! How many years have you two been married?"
    s.insert_memory(
        memory(id="c", content="User says 5 years already.", source_context="", reply_context=asked)
    )
    s.insert_memory(
        memory(id="d", content="User got married in Lisbon.", source_context="", reply_context="")
    )
    s.insert_memory(memory(id="e", content="User went camping once.", status="archived"))
    assert [i for i, _ in s.lexical_search(["camping"], limit=5)] == ["a"]  # active only, content only
    hits = dict(s.lexical_search(["camping"], limit=5, context_weight=0.6))
    assert set(hits) == {"a", "b"} and hits["a"] > hits["b"] > 0
    assert [i for i, _ in s.lexical_search(["married"], limit=5)] == ["d"]
    hits = dict(s.lexical_search(["married"], limit=5, reply_weight=0.6))
    assert set(hits) == {"c", "d"} and hits["d"] > hits["c"] > 0
    assert s.lexical_search(["camped", "Lisbon"], limit=5)[0][0] in {"a", "d"}  # stemmed, any term
    assert s.lexical_search(["'); DROP TABLE memories; --"], limit=5) == []
    c = s.get_memory("c")
    assert c is not None
    s.update_memory(dataclasses.replace(c, reply_context="Any pets?"))
    assert dict(s.lexical_search(["married"], limit=5, reply_weight=0.6)).keys() == {"d"}


def test_lexical_search_reaches_active_memories_below_many_archived_ones(backend: Make) -> None:
    # The best matches are archived (kept for word search): the ranking must still
    # fill its limit with active memories further down.
    s = backend()
    for i in range(12):
        s.insert_memory(memory(id=f"x{i}", content="User loves oboe.", status="archived"))
    for i in range(3):
        s.insert_memory(memory(id=f"a{i}", content=f"User once heard an oboe concert in town number {i}."))
    assert {i for i, _ in s.lexical_search(["oboe"], limit=2)} <= {"a0", "a1", "a2"}
    assert len(s.lexical_search(["oboe"], limit=2)) == 2
    assert {i for i, _ in s.lexical_search(["oboe"], limit=5)} == {"a0", "a1", "a2"}


def test_term_matches_counts_documents_and_the_asked_ids(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory(id="a", content="User loves ice-cream.", source_context=""))
    s.insert_memory(memory(id="b", content="User hates cream.", source_context="Ice is cold."))
    s.insert_memory(memory(id="c", content="User rides a bike.", source_context="", status="faded"))
    tm = s.term_matches(["cream", "ice-cream", "bike", "!!"], ["a", "c"])
    assert tm.total == 3
    assert tm.doc_freq["cream"] == 2 and tm.matched["cream"] == frozenset({"a"})
    assert tm.doc_freq["ice-cream"] == 1 and tm.matched["ice-cream"] == frozenset({"a"})
    assert tm.doc_freq["bike"] == 1 and tm.matched["bike"] == frozenset({"c"})
    assert "!!" not in tm.doc_freq
    assert s.term_matches(["cream"], ["a"], cap=1).doc_freq["cream"] == 1


def test_term_matches_finds_the_asked_ids_past_the_count_cap(backend: Make) -> None:
    s = backend()
    for i in range(12):
        s.insert_memory(memory(id=f"m{i}", content=f"User drinks coffee number {i}.", source_context=""))
    tm = s.term_matches(["coffee"], ["m0", "m11", "missing"], cap=3)
    # The count stops at the cap; which asked memories match does not.
    assert tm.doc_freq["coffee"] == 3 and tm.matched["coffee"] == frozenset({"m0", "m11"})


def test_time_windows_keys_and_references(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory(id="a", created_at=100, event_at=500, key="k1", superseded_by=None))
    s.insert_memory(memory(id="b", created_at=200, event_at=300, key="k1", superseded_by="a"))
    s.insert_memory(memory(id="c", created_at=300, event_at=None, key="k2", superseded_by=None,
                           temporal_supersedes="a"))  # fmt: skip
    s.insert_memory(memory(id="d", created_at=250, status="faded", superseded_by=None))
    assert s.events_between(0, 1000, 10) == ["b", "a"] and s.events_between(0, 400, 10) == ["b"]
    assert s.created_between(100, 301, 10) == ["c", "b", "a"] and s.created_between(100, 301, 1) == ["c"]
    assert s.ids_by_key(["k1", "k2", "k3"]) == {"k1": ["a", "b"], "k2": ["c"]}
    assert sorted(m.id for m in s.referencing("a")) == ["b", "c"]
    s.mark_faded(["a", "d"], 777)
    faded = {m.id: m for m in s.get_memories(["a", "d"])}
    assert faded["a"].status == "faded" and faded["a"].faded_at == 777 and faded["a"].updated_at == 777
    assert faded["d"].faded_at is None  # already faded: untouched
    assert sorted(i for i, _ in s.active_vectors()) == ["b", "c"]


def test_superseded_vectors_most_recently_superseded_first(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory(id="new", status="active", superseded_by=None, superseded_at=None))
    for i, at in enumerate((30, 50, 40)):
        s.insert_memory(memory(id=f"old{i}", status="superseded", superseded_by="new", superseded_at=at,
                               embedding=unit(i)))  # fmt: skip
    s.insert_memory(memory(id="orphan", status="superseded", superseded_by=None))  # names no successor
    s.insert_memory(memory(id="gone", status="archived", superseded_by="new"))  # not superseded
    got = s.superseded_vectors(10)
    assert [(i, succ) for i, succ, _ in got] == [("old1", "new"), ("old2", "new"), ("old0", "new")]
    np.testing.assert_allclose(got[0][2], unit(1), atol=1e-3)  # float16 storage rounds
    assert [i for i, _, _ in s.superseded_vectors(1)] == ["old1"] and s.superseded_vectors(0) == []


def test_insertion_order_counters(backend: Make) -> None:
    s = backend()
    assert s.max_rowid() == 0
    s.insert_memory(memory(id="a"))
    mark = s.max_rowid()
    assert mark > 0 and s.count_rows_after(mark) == 0
    s.insert_memory(memory(id="b"))
    s.insert_memory(memory(id="c"))
    assert s.count_rows_after(mark) == 2 and s.max_rowid() > mark


def test_episodes_edges_clusters(backend: Make) -> None:
    s = backend()
    for i in "abc":
        s.insert_memory(memory(id=i))
    ep = Episode(
        id="e1", summary="We talked about Berlin.", embedding=unit(3), memories_extracted=("a",),
        started_at=5, ended_at=9, turn_count=4, emotional_valence=0.25, topics=("berlin",),
    )  # fmt: skip
    s.put_episode(ep)
    s.put_episode(dataclasses.replace(ep, ended_at=12, turn_count=6))  # upsert
    [got] = s.all_episodes()
    assert got == dataclasses.replace(ep, ended_at=12, turn_count=6)
    assert got.embedding is not None and np.allclose(got.embedding, ep.embedding, atol=1e-3)
    assert s.updated_stamp("episodes", "e1") == 12 and s.updated_stamp("episodes", "zz") is None
    edges = [
        Edge(
            id="a__b",
            from_id="a",
            to_id="b",
            weight=0.9,
            shared_entities=("Berlin",),
            created_at=1,
            last_updated=2,
        ),
        Edge(id="b__c", from_id="b", to_id="c", weight=0.8, created_at=1, last_updated=3),
        Edge(id="a__c", from_id="a", to_id="c", weight=0.75, created_at=1, last_updated=4),
    ]
    for e in edges:
        s.put_edge(e)
    s.put_edge(dataclasses.replace(edges[2], weight=0.7, last_updated=5))
    assert [e.id for e in s.all_edges()] == ["a__b", "a__c", "b__c"]
    assert [e.id for e in s.edges_of("c")] == ["b__c", "a__c"]
    assert [e.id for e in s.edges_touching(["a", "a"])] == ["a__b", "a__c"] and s.edges_touching([]) == []
    assert s.all_edges()[0] == edges[0] and s.updated_stamp("edges", "a__c") == 5
    s.delete_edges(["b__c"])
    assert [e.id for e in s.all_edges()] == ["a__b", "a__c"]
    cl = [Cluster(id="c1", centroid=unit(4), member_ids=("a", "b"), label="city", last_recomputed=7),
          Cluster(id="c2", centroid=None, member_ids=("c",), label="misc", last_recomputed=7)]  # fmt: skip
    s.replace_clusters(cl)
    assert [(c.id, c.member_ids, c.label) for c in s.all_clusters()] == [
        ("c1", ("a", "b"), "city"),
        ("c2", ("c",), "misc"),
    ]
    assert {m.id: m.cluster_id for m in s.all_memories()} == {"a": "c1", "b": "c1", "c": "c2"}
    assert s.updated_stamp("clusters", "c1") == 7
    s.delete_memories(["a"])  # its edges go, its cluster membership goes
    assert s.all_edges() == [] and s.all_clusters()[0].member_ids == ("b",)
    s.replace_clusters(cl[1:])
    assert [c.id for c in s.all_clusters()] == ["c2"] and s.get_memories(["b"])[0].cluster_id is None


def test_bridge_events_newest_first(backend: Make) -> None:
    s = backend()
    first = BridgeEvent(id="b1", created_at=5, format="memory-pack", name="pack", origin="/x", imported=2,
                        skipped=1, conflicts=0, rejected=(RejectedItem(index=3, key="k", reason="empty"),),
                        memory_ids=("m1", "m2"))  # fmt: skip
    second = dataclasses.replace(first, id="b2", name=None, origin=None, rejected=())
    s.add_bridge_event(first)
    s.add_bridge_event(second)
    assert s.bridge_events() == [second, first]


def test_clear_keeps_meta_and_optionally_the_audit(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory(id="a"))
    s.put_edge(Edge(id="x", from_id="a", to_id="a", weight=1.0))
    s.put_episode(Episode(id="e", summary="s"))
    s.add_bridge_event(BridgeEvent(id="b", created_at=1, format="memory-pack", name=None, origin=None,
                                   imported=1, skipped=0, conflicts=0))  # fmt: skip
    s.set_meta("k", "v")
    s.clear(keep_audit=True)
    assert (s.count_memories(), s.all_edges(), s.all_episodes(), s.type_counts()) == (0, [], [], {})
    assert len(s.bridge_events()) == 1 and s.get_meta("k") == "v"
    s.clear()
    assert s.bridge_events() == []


def test_meta_and_leases(backend: Make) -> None:
    s = backend()
    assert s.get_meta("embedding_model") == MODEL
    s.set_meta("k", "1")
    s.set_meta("k", "2")
    assert s.get_meta("k") == "2" and s.get_meta("absent") is None
    assert s.acquire_lease("sweep", "p1", ttl_s=10, now_s=100)
    assert not s.acquire_lease("sweep", "p2", ttl_s=10, now_s=105)
    assert s.acquire_lease("sweep", "p1", ttl_s=10, now_s=105)  # renewal
    s.release_lease("sweep", "p2")  # not the holder: no effect
    assert not s.acquire_lease("sweep", "p2", ttl_s=10, now_s=106)
    assert s.acquire_lease("sweep", "p2", ttl_s=10, now_s=200)  # expired
    s.release_lease("sweep", "p2")
    assert s.acquire_lease("sweep", "p3", ttl_s=10, now_s=201)
    s.set_meta("lease:broken", "not json")
    assert s.acquire_lease("broken", "p1", ttl_s=1, now_s=1)


def test_data_version_moves_only_for_another_connection(backend: Make) -> None:
    one, two = backend("shared"), backend("shared")
    v1, v2 = one.data_version(), two.data_version()
    one.insert_memory(memory(id="a"))
    one.set_meta("k", "v")
    assert one.data_version() == v1  # its own commits do not count
    assert two.data_version() != v2  # the other connection sees the change
    assert two.get_memory("a") is not None


def test_snapshot_reads_one_consistent_state_in_pages(backend: Make) -> None:
    s = backend("snap")
    for i in range(5):
        s.insert_memory(memory(id=f"m{i}", created_at=i))
    s.put_edge(Edge(id="e1", from_id="m0", to_id="m1", weight=0.9))
    s.put_edge(Edge(id="e2", from_id="m1", to_id="m2", weight=0.8))
    with s.snapshot() as snap:
        s.insert_memory(memory(id="late"))  # after the snapshot began: not seen
        pages = list(snap.memory_pages(2))
        assert [[m.id for m in p] for p in pages] == [["m0", "m1"], ["m2", "m3"], ["m4"]]
        assert pages[0][0].same_as(memory(id="m0", created_at=0))
        assert [[e.id for e in p] for p in snap.edge_pages(1)] == [["e1"], ["e2"]]
        assert snap.episodes() == [] and snap.clusters() == [] and snap.meta("embedding_model") == MODEL
    assert s.count_memories() == 6


def test_entity_mentions_newest_first_by_phrase(backend: Make) -> None:
    s = backend()
    s.insert_memory(memory(id="a", content="User works at Acme Corp."))
    s.insert_memory(memory(id="b", content="User's sister works at Acme Corp too."))
    s.insert_memory(memory(id="c", content="User dislikes Corp culture at Acme.", source_context=""))
    s.insert_memory(memory(id="d", content="User left Acme Corp.", status="archived"))
    assert s.entity_mentions("Acme Corp", limit=5) == ["b", "a"]  # the phrase, active, newest first
    assert s.entity_mentions("acme corp", limit=1) == ["b"]
    assert s.entity_mentions("Acme", limit=5) == ["c", "b", "a"]
    assert s.entity_mentions("!!", limit=5) == [] and s.entity_mentions("Zed", limit=5) == []


def test_lexical_search_leaves_out_terms_too_common_to_rank(backend: Make) -> None:
    s = backend()
    for i in range(6):
        s.insert_memory(memory(id=f"c{i}", content=f"User's friend Maya likes item {i}.", source_context=""))
    s.insert_memory(memory(id="r", content="User's friend Maya plays the oboe.", source_context=""))
    both = ["Maya", "oboe"]
    assert {i for i, _ in s.lexical_search(both, limit=10)} == {f"c{i}" for i in range(6)} | {"r"}
    assert [i for i, _ in s.lexical_search(both, limit=10, max_doc_freq=5)] == ["r"]  # "maya": 7 > 5
    assert s.lexical_search(["Maya"], limit=10, max_doc_freq=5) == []
    assert len(s.lexical_search(["Maya"], limit=10, max_doc_freq=7)) == 7


def test_counts_follow_inserts_status_changes_deletes_and_clear(backend: Make) -> None:
    s = backend()
    for i in range(4):
        s.insert_memory(memory(id=f"m{i}"))
    s.mark_faded(["m0"], 5)
    m1 = s.get_memory("m1")
    assert m1 is not None
    s.update_memory(dataclasses.replace(m1, status="archived"))
    s.update_memory(dataclasses.replace(m1, status="archived", content="User lives in Rome."))
    s.delete_memories(["m2"])
    assert (s.count_memories(), s.count_memories("active"), s.count_memories("faded")) == (3, 1, 1)
    assert s.count_memories("archived") == 1 and s.count_memories("superseded") == 0
    with pytest.raises(StorageError), s.transaction():
        s.insert_memory(memory(id="m9"))
        s.insert_memory(memory(id="m9"))
    assert s.count_memories() == 3  # a rolled-back write leaves the counts
    s.clear()
    assert s.count_memories() == 0 and s.count_memories("active") == 0
    s.insert_memory(memory(id="again"))
    assert s.count_memories("active") == 1

"""manage(): queries, mutations, bulk operations and events, on a real on-disk store."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import searchable_ids, store_files
from lokulmem import (
    AsyncLokulMem,
    Edge,
    LokulMem,
    ManualClock,
    Memory,
    MemoryNotFoundError,
    MemoryStats,
    MiniLMEmbedder,
    SQLiteStorage,
    StorageError,
    ValidationError,
)
from lokulmem.clock import MS_PER_DAY, MS_PER_HOUR


@pytest.fixture
def seeded(mem: LokulMem, clock: ManualClock) -> LokulMem:
    """Two sessions a day apart: residence (then a move), work, a sister, a hobby."""
    mem.learn("I live in Berlin and I work at Siemens as an engineer.", session_id="s1")
    clock.advance(hours=30)
    mem.learn("My sister Maya lives in Paris. I love climbing.", session_id="s2")
    mem.learn("I moved to Munich.", session_id="s2")
    return mem


def _by_content(mem: LokulMem, needle: str) -> Memory:
    (m,) = [m for m in mem.manage().list() if needle in m.content]
    return m


# -- queries -----------------------------------------------------------------------
def test_list_filters_and_order(seeded: LokulMem, clock: ManualClock) -> None:
    mg = seeded.manage()
    everything = mg.list()
    assert len(everything) == 5
    assert [m.created_at for m in everything] == sorted(m.created_at for m in everything)
    assert {m.content for m in mg.list(types="location")} == {
        "User lives in Berlin.",
        "User moved to Munich.",
        "User's sister Maya lives in Paris.",
    }
    assert {m.content for m in mg.list(types=["profession", "preference"])} == {
        "User works at Siemens as an engineer.",
        "User loves climbing.",
    }
    day2 = everything[-1].created_at
    assert all(m.created_at >= day2 for m in mg.list(since=day2))
    assert len(mg.list(since=day2)) == 3 and len(mg.list(until=day2 - 1)) == 2
    aware = dt.datetime.fromtimestamp(day2 / 1000, tz=dt.UTC)
    assert mg.list(since=aware) == mg.list(since=day2)
    desc = mg.list(direction="desc")
    assert [m.id for m in desc] == [m.id for m in reversed(everything)]
    assert [m.id for m in mg.list(limit=2, offset=1)] == [m.id for m in everything[1:3]]
    # strength: the day-old memories have decayed a little; the fresh climbing one is boosted by valence
    by_strength = mg.list(order_by="strength", direction="desc")
    assert by_strength[0].content == "User loves climbing."
    clock.advance(days=480)
    mg.pin(_by_content(seeded, "Siemens").id)
    strong = mg.list(min_strength=0.6)
    assert [m.content for m in strong] == ["User works at Siemens as an engineer."]
    assert mg.list(pinned=True) == strong
    assert len(mg.list(pinned=False)) == 4
    assert len(mg.list(status="active")) == 5 and mg.list(status="archived") == []
    assert mg.list(order_by="mention_count", limit=1)[0].mention_count == 0


def test_list_rejects_bad_arguments(seeded: LokulMem) -> None:
    mg = seeded.manage()
    bad: list[dict[str, Any]] = [
        {"status": "gone"},
        {"order_by": "id"},
        {"direction": "up"},
        {"limit": -1},
        {"offset": 1.5},
        {"min_strength": "high"},
        {"types": [3]},
        {"pinned": "yes"},
        {"since": "yesterday"},
        {"since": dt.datetime(2026, 1, 1)},  # naive datetime
    ]
    for kwargs in bad:
        with pytest.raises(ValidationError, match=next(iter(kwargs))):
            mg.list(**kwargs)


def test_get_and_unknown_ids(seeded: LokulMem) -> None:
    mg = seeded.manage()
    m = mg.list()[0]
    assert mg.get(m.id) == m
    with pytest.raises(MemoryNotFoundError, match="nope") as info:
        mg.get("nope")
    assert info.value.memory_id == "nope"
    with pytest.raises(ValidationError):
        mg.get(3)  # type: ignore[arg-type]


def test_conversation_recent_top_pinned(seeded: LokulMem, clock: ManualClock) -> None:
    mg = seeded.manage()
    assert {m.content for m in mg.get_by_conversation("s1")} == {
        "User lives in Berlin.",
        "User works at Siemens as an engineer.",
    }
    assert mg.get_by_conversation("nobody") == []
    seeded.learn("I live in Berlin.", session_id="s3")  # restated: reinforced, s3 joins its sources
    assert "User lives in Berlin." in {m.content for m in mg.get_by_conversation("s3")}
    clock.advance(hours=1)
    result = seeded.augment("Which company do I work for?")
    assert "Siemens" in result.context
    recent = mg.get_recent(2)
    assert len(recent) == 2 and recent[0].last_accessed_at == clock.now_ms()
    top = mg.get_top(1)
    assert top[0].mention_count >= 1  # reinforced memories are the strongest
    siemens = _by_content(seeded, "Siemens")
    mg.pin(siemens.id)
    assert [m.id for m in mg.get_pinned()] == [siemens.id]


def test_full_text_search(seeded: LokulMem) -> None:
    mg = seeded.manage()
    assert [m.content for m in mg.search("berl")] == ["User lives in Berlin."]
    assert [m.content for m in mg.search("SISTER paris")] == ["User's sister Maya lives in Paris."]
    assert mg.search("sister berlin") == []  # every word must match
    lives = mg.search("lives")
    assert {m.content for m in lives} == {"User lives in Berlin.", "User's sister Maya lives in Paris."}
    for weird in ['"', "*", "OR", "NEAR(", "a:b", "-", "", "   ", "'; DROP TABLE memories; --"]:
        assert isinstance(mg.search(weird), list)
    assert mg.search("lives", limit=1) and len(mg.search("lives", limit=1)) == 1
    assert mg.search("berlin", status="archived") == []
    with pytest.raises(ValidationError):
        mg.search(None)  # type: ignore[arg-type]
    if isinstance(seeded.storage, SQLiteStorage):  # (PostgreSQL always has full-text search)
        assert seeded.storage.has_fts
    # FTS is kept in step by triggers: edits and deletes are visible at once.
    berlin = _by_content(seeded, "Berlin")
    mg.update(berlin.id, content="User lives in Hamburg.")
    assert mg.search("berlin") == [] and [m.id for m in mg.search("hamburg")] == [berlin.id]
    mg.delete(berlin.id)
    assert mg.search("hamburg") == []


def test_semantic_search(seeded: LokulMem) -> None:
    mg = seeded.manage()
    hits = mg.semantic_search("where does my sibling live?", 2)
    assert hits[0].content == "User's sister Maya lives in Paris."
    scored = mg.semantic_search_scored("rock climbing gym", 1)
    assert scored[0][0].content == "User loves climbing." and 0 < scored[0][1] <= 1
    assert mg.semantic_search("", 3) == [] and mg.semantic_search("x", 0) == []
    mg.archive(hits[0].id)
    assert hits[0].id not in {m.id for m in mg.semantic_search("where does my sibling live?", 5)}


def test_timeline_and_grouped(seeded: LokulMem) -> None:
    mg = seeded.manage()
    days = mg.get_timeline()
    assert [d.date for d in days] == ["2026-01-01", "2026-01-02"]
    assert [len(d.memories) for d in days] == [2, 3]
    g = mg.get_grouped()
    assert {m.content for m in g.location} == {
        "User lives in Berlin.",
        "User moved to Munich.",
        "User's sister Maya lives in Paris.",
    }
    assert [m.content for m in g.relational] == ["User's sister Maya lives in Paris."]
    assert [m.content for m in g.preferences] == ["User loves climbing."]
    assert [m.content for m in g.profession] == ["User works at Siemens as an engineer."]
    assert g.pinned == () and g.custom == {} and len(g.recent) == 5
    assert g.recent[0].created_at >= g.recent[-1].created_at


def test_grouped_custom_types(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(
        custom_types=[{"name": "diet", "decay_lambda": 0.001, "keywords": ["vegan", "vegetarian"]}]
    )
    mem.learn("I am vegan.")
    g = mem.manage().get_grouped()
    assert [m.content for m in g.custom["diet"]] == ["User is vegan."]


def test_related_uses_edges(seeded: LokulMem) -> None:
    mg = seeded.manage()
    a, b, c = mg.list()[:3]
    assert mg.get_related(a.id) == []
    seeded.storage.put_edge(Edge(id=f"{a.id}__{b.id}", from_id=a.id, to_id=b.id, weight=0.5))
    seeded.storage.put_edge(Edge(id=f"{c.id}__{a.id}", from_id=c.id, to_id=a.id, weight=0.9))
    assert [m.id for m in mg.get_related(a.id)] == [c.id, b.id]
    with pytest.raises(MemoryNotFoundError):
        mg.get_related("missing")


def test_lineage_of_conflict_and_temporal_chain(mem: LokulMem, clock: ManualClock) -> None:
    mg = mem.manage()
    mem.learn("I work at Google.", session_id="a")
    clock.advance(days=1)
    mem.learn("I work at Meta.", session_id="b")
    google, meta = _by_content(mem, "Google"), _by_content(mem, "Meta")
    assert google.status == "superseded"
    lin = mg.get_lineage(meta.id)
    assert lin.supersedes == google and lin.superseded_by is None
    assert mg.get_lineage(google.id).superseded_by == meta
    mem.learn("I live in Berlin.", session_id="a")
    clock.advance(days=1)
    mem.learn("I moved to Munich.", session_id="b")
    clock.advance(days=1)
    mem.learn("These days I live in Hamburg.", session_id="c")
    berlin, munich, hamburg = (_by_content(mem, city) for city in ("Berlin", "Munich", "Hamburg"))
    for m in (berlin, munich, hamburg):
        history = mg.get_lineage(m.id).temporal_history
        assert [h.id for h in history] == [berlin.id, munich.id, hamburg.id]
    mem.learn("I live in Hamburg.", session_id="d")  # restated: reinforced
    lin = mg.get_lineage(hamburg.id)
    assert lin.source_conversations == ("c", "d") and lin.reinforcement_count == 1


def test_injection_preview_changes_nothing(seeded: LokulMem) -> None:
    mg = seeded.manage()
    seen: list[object] = []
    for sub in (mg.on_memory_updated, mg.on_stats_changed, mg.on_memory_added):
        sub(seen.append)
    before = store_files(seeded)
    rows = [m.mention_count for m in mg.list()]
    preview = mg.get_injection_preview("Where does my sister live?")
    assert (
        preview.would_inject
        and preview.would_inject[0].memory.content == "User's sister Maya lives in Paris."
    )
    assert preview.estimated_tokens > 0 and preview.context.startswith("[Memory Context")
    only = mg.get_injection_preview(
        "What is my job?", types=["profession"], max_memories=1, require_evidence=False
    )
    assert [i.memory.content for i in only.would_inject] == ["User works at Siemens as an engineer."]
    assert store_files(seeded) == before
    assert [m.mention_count for m in mg.list()] == rows and seen == []
    # The real augment would inject the same and reinforce.
    real = seeded.augment("Where does my sister live?", debug=True)
    assert real.debug is not None
    assert [i.memory.id for i in real.debug.injected] == [i.memory.id for i in preview.would_inject]


# -- mutations ---------------------------------------------------------------------
def test_update_content_reembeds_and_rechecks(seeded: LokulMem, clock: ManualClock) -> None:
    mg = seeded.manage()
    contradictions: list[Any] = []
    mg.on_contradiction_detected(contradictions.append)
    siemens = _by_content(seeded, "Siemens")
    clock.advance(hours=1)
    updated = mg.update(siemens.id, content="User works at Bosch as an engineer.")
    assert updated.content == "User works at Bosch as an engineer."
    assert updated.attribute == "user.employer" and updated.attribute_value == "bosch as an engineer"
    assert updated.metadata["corrections"] == [{"content": siemens.content, "at": clock.now_ms()}]
    assert updated.source_text == siemens.source_text  # provenance kept
    assert updated.embedding is not None and siemens.embedding is not None
    assert float(updated.embedding @ siemens.embedding) < 0.99
    assert mg.semantic_search("Bosch", 1)[0].id == siemens.id
    assert mg.get_lineage(siemens.id).corrections == (siemens.content,)
    assert contradictions == []
    # A correction that conflicts with another current fact supersedes it.
    hobby = _by_content(seeded, "climbing")
    munich = _by_content(seeded, "Munich")
    fixed = mg.update(hobby.id, content="User lives in Stuttgart.")
    assert mg.get(munich.id).status == "superseded" and mg.get(munich.id).superseded_by == hobby.id
    assert fixed.metadata["supersedes"] == munich.id
    assert len(contradictions) == 1 and contradictions[0].resolution == "conflict"
    # Correcting a past (closed) fact leaves the current one alone.
    berlin = _by_content(seeded, "Berlin")
    assert berlin.valid_to is not None
    mg.update(berlin.id, content="User lives in Bonn.")
    assert mg.get(hobby.id).status == "active" and len(contradictions) == 1


def test_update_types_confidence_and_errors(seeded: LokulMem) -> None:
    mg = seeded.manage()
    m = _by_content(seeded, "climbing")
    out = mg.update(m.id, types=["preference", "emotional"], confidence="high")
    assert out.types == ("preference", "emotional") and out.confidence == "high"
    assert out.embedding is not None and m.embedding is not None
    assert (out.embedding == m.embedding).all() and out.content == m.content
    for kwargs in (
        {},
        {"content": "  "},
        {"content": 3},
        {"types": ["nope"]},
        {"types": []},
        {"confidence": "max"},
    ):
        with pytest.raises(ValidationError):
            mg.update(m.id, **kwargs)
    with pytest.raises(MemoryNotFoundError):
        mg.update("missing", confidence="low")
    assert mg.get(m.id) == out


def test_pin_archive_roundtrip(seeded: LokulMem) -> None:
    mg = seeded.manage()
    sister = _by_content(seeded, "sister")
    assert mg.pin(sister.id).pinned and mg.pin(sister.id).pinned  # idempotent
    assert not mg.unpin(sister.id).pinned
    archived = mg.archive(sister.id)
    assert archived.status == "archived"
    assert "Maya" not in seeded.augment("Where does my sister live?").context
    assert mg.unarchive(sister.id).status == "active"
    assert "Maya" in seeded.augment("Where does my sister live?").context
    # Unarchive restores what the memory was before (a superseded fact stays superseded).
    seeded.learn("I work at Bosch.")
    siemens = _by_content(seeded, "Siemens")
    assert siemens.status == "superseded"
    mg.archive(siemens.id)
    restored = mg.unarchive(siemens.id)
    assert restored.status == "superseded" and "archived_from" not in restored.metadata


def test_delete_removes_edges_clusters_and_index(seeded: LokulMem) -> None:
    from lokulmem import Cluster

    mg = seeded.manage()
    a, b = mg.list()[:2]
    storage = seeded.storage
    storage.put_edge(Edge(id="e1", from_id=a.id, to_id=b.id, weight=1.0))
    storage.put_cluster(Cluster(id="c1", member_ids=(a.id, b.id), label="x"))
    mg.delete(a.id)
    with pytest.raises(MemoryNotFoundError):
        mg.get(a.id)
    assert storage.all_edges() == [] and storage.all_clusters()[0].member_ids == (b.id,)
    assert a.id not in searchable_ids(seeded)
    with pytest.raises(MemoryNotFoundError):
        mg.delete(a.id)


def test_bulk_operations_are_all_or_nothing(seeded: LokulMem) -> None:
    mg = seeded.manage()
    ids = [m.id for m in mg.list()]
    before = store_files(seeded)
    events: list[Any] = []
    for sub in (mg.on_memory_updated, mg.on_memory_deleted, mg.on_stats_changed):
        sub(events.append)
    for op in (mg.pin_many, mg.unpin_many, mg.archive_many, mg.unarchive_many, mg.delete_many):
        with pytest.raises(MemoryNotFoundError) as info:
            op([ids[0], "ghost-1", ids[1], "ghost-2"])
        assert info.value.memory_ids == ("ghost-1", "ghost-2")
    assert store_files(seeded) == before and events == []
    assert mg.pin_many(ids[:3]) == 3 and mg.pin_many(ids[:3]) == 0
    assert len(mg.get_pinned()) == 3
    assert mg.unpin_many(ids) == 3
    assert mg.archive_many(ids[:2]) == 2 and len(mg.list(status="archived")) == 2
    assert mg.unarchive_many(ids[:2]) == 2
    assert mg.delete_many([ids[0], ids[0], ids[1]]) == 2  # duplicates collapse
    assert len(mg.list()) == 3
    with pytest.raises(ValidationError):
        mg.delete_many("abc")
    with pytest.raises(ValidationError):
        mg.pin_many([1, 2])  # type: ignore[list-item]


def test_bulk_failure_mid_write_rolls_back(seeded: LokulMem, monkeypatch: pytest.MonkeyPatch) -> None:
    mg = seeded.manage()
    ids = [m.id for m in mg.list()]
    before = store_files(seeded)
    events: list[Any] = []
    mg.on_memory_updated(events.append)
    storage = seeded.storage
    real = storage.update_memory
    calls = {"n": 0}

    def failing(memory: Memory) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise StorageError("disk full (injected)")
        real(memory)

    monkeypatch.setattr(storage, "update_memory", failing)
    with pytest.raises(StorageError, match="injected"):
        mg.archive_many(ids)
    monkeypatch.undo()
    assert store_files(seeded) == before and events == []
    assert all(m.status == "active" for m in mg.list())
    assert set(ids) <= searchable_ids(seeded)


def test_clear(seeded: LokulMem) -> None:
    mg = seeded.manage()
    deleted: list[str] = []
    mg.on_memory_deleted(deleted.append)
    ids = {m.id for m in mg.list()}
    mg.clear()
    assert mg.list() == [] and set(deleted) == ids and searchable_ids(seeded) == set()
    assert seeded.augment("Where do I live?").context == ""
    assert mg.stats().total == 0
    seeded.learn("I live in Oslo.")
    assert [m.content for m in mg.list()] == ["User lives in Oslo."]


# -- analytics ---------------------------------------------------------------------
def test_stats(seeded: LokulMem, clock: ManualClock) -> None:
    mg = seeded.manage()
    clock.advance(hours=1)
    seeded.learn("I work at Bosch.", session_id="s3")  # supersedes Siemens
    climbing = _by_content(seeded, "climbing")
    mg.pin(climbing.id)
    mg.archive(_by_content(seeded, "sister").id)
    seeded.augment("Where do I live now?")
    s = mg.stats()
    assert isinstance(s, MemoryStats)
    assert (s.total, s.active, s.superseded, s.archived, s.faded, s.pinned) == (6, 4, 1, 1, 0, 1)
    assert s.by_type["location"] == 3 and s.by_type["profession"] == 2
    assert sum(s.confidence_distribution.values()) == s.active == sum(s.strength_distribution.values())
    assert 0.9 < s.average_strength < 1.5 and 0 < s.average_confidence <= 1
    assert s.most_mentioned[0].mention_count >= 1
    assert s.recently_updated[0].updated_at == max(m.updated_at for m in mg.list())
    assert s.oldest_memory is not None and s.oldest_memory.source_session == "s1"
    assert s.newest_memory is not None and s.newest_memory.content == "User works at Bosch."
    assert s.conversation_count == 3 and s.recently_faded == ()
    assert s.storage_used_bytes == seeded.storage.size_bytes() > 0
    clock.advance(days=365 * 3)
    later = mg.stats()
    assert later.average_strength < s.average_strength
    assert later.strength_distribution["weak"] >= 1 and later.strength_distribution["strong"] >= 1  # pinned


def test_stats_of_empty_store(mem: LokulMem) -> None:
    s = mem.manage().stats()
    assert s.total == 0 and s.average_strength == 0 and s.oldest_memory is None and s.conversation_count == 0


# -- events ------------------------------------------------------------------------
def test_events_fire_once_per_committed_change(seeded: LokulMem) -> None:
    mg = seeded.manage()
    log: list[tuple[str, Any]] = []
    unsubs = [
        mg.on_memory_added(lambda m: log.append(("added", m.id))),
        mg.on_memory_updated(lambda m: log.append(("updated", m.id))),
        mg.on_memory_deleted(lambda i: log.append(("deleted", i))),
        mg.on_stats_changed(lambda s: log.append(("stats", s.total))),
    ]
    a, b = mg.list()[:2]
    mg.pin(a.id)
    assert log == [("updated", a.id), ("stats", 5)]
    log.clear()
    mg.pin(a.id)  # no change → no event
    assert log == []
    mg.archive_many([a.id, b.id])
    assert log == [("updated", a.id), ("updated", b.id), ("stats", 5)]
    log.clear()
    mg.delete(b.id)
    assert log == [("deleted", b.id), ("stats", 4)]
    log.clear()
    r = seeded.learn("I have a dog named Rex.")
    assert log == [("added", r.extracted[0].id), ("stats", 5)]
    log.clear()
    for u in unsubs:
        u()
        u()  # idempotent
    mg.unpin(a.id)
    assert log == []


def test_raising_callback_does_not_break(seeded: LokulMem, caplog: pytest.LogCaptureFixture) -> None:
    mg = seeded.manage()
    got: list[str] = []

    def boom(_: object) -> None:
        raise RuntimeError("subscriber bug")

    mg.on_memory_updated(boom)
    mg.on_memory_updated(lambda m: got.append(m.id))
    m = mg.list()[0]
    assert mg.pin(m.id).pinned
    assert got == [m.id] and "subscriber bug" in caplog.text


def test_async_manager_parity(embedder: MiniLMEmbedder, tmp_path: Path, clock: ManualClock) -> None:
    async def run() -> None:
        async with AsyncLokulMem(path=tmp_path / "a.sqlite", embedder=embedder, clock=clock) as mem:
            await mem.learn("I live in Berlin. My sister Maya lives in Paris.", session_id="s1")
            mg = mem.manage()
            all_ = await mg.list()
            assert len(all_) == 2
            sister = (await mg.search("sister"))[0]
            assert (await mg.pin(sister.id)).pinned
            assert [m.id for m in await mg.get_pinned()] == [sister.id]
            assert (await mg.stats()).pinned == 1
            assert (await mg.semantic_search("sibling", 1))[0].id == sister.id
            assert (await mg.get_lineage(sister.id)).memory.id == sister.id
            preview = await mg.get_injection_preview("Where does Maya live?")
            assert preview.would_inject
            doc = await mg.export()
            await mg.clear()
            assert await mg.list() == []
            result = await mg.import_data(doc)
            assert result.imported == 2
            got: list[str] = []
            unsub = mg.on_memory_deleted(got.append)
            await mg.delete(sister.id)
            unsub()
            assert got == [sister.id]
            with pytest.raises(MemoryNotFoundError):
                await mg.get(sister.id)

    asyncio.run(run())


def test_decay_shows_in_list_over_a_year(seeded: LokulMem, clock: ManualClock) -> None:
    mg = seeded.manage()
    clock.advance(days=365)
    weak = {m.content for m in mg.list(order_by="strength", limit=2)}
    assert "User loves climbing." in weak  # preferences decay fastest of these types
    assert clock.now_ms() - mg.list()[0].created_at > 364 * MS_PER_DAY
    assert MS_PER_HOUR == 3_600_000


def test_a_huge_query_is_cut_to_its_first_distinct_terms(seeded: LokulMem) -> None:
    mg = seeded.manage()
    short = [m.id for m in mg.search("Berlin")]
    start = time.perf_counter()
    huge = [m.id for m in mg.search("Berlin " * 20_000)]
    distinct = mg.search(" ".join(f"term{i}" for i in range(20_000)))
    preview = mg.get_injection_preview("Where is Berlin? " * 20_000)
    assert time.perf_counter() - start < 5  # quadratic in the words before: minutes
    assert huge == short and short and distinct == []
    assert preview.would_inject == ()  # the message alone overflows the context window


# -- duplicates and merge (PRD v0.2) ---------------------------------------------


def test_find_similar_facts_and_merge_keep_lineage(mem: LokulMem, clock: ManualClock) -> None:
    a = mem.learn("I love hiking in the Alps.", session_id="s1").extracted[0]
    clock.advance(days=1)
    # A near-copy with a new name is stored beside the first (a "variant"), not reinforced.
    b = mem.learn("I love hiking in the Swiss Alps.", session_id="s2").extracted[0]
    other = mem.learn("My brother works as a dentist in Leeds.", session_id="s2").extracted[0]
    pairs = mem.manage().find_similar_facts(threshold=0.9)
    assert [{p.first.id, p.second.id} for p in pairs] == [{a.id, b.id}]
    assert pairs[0].similarity >= 0.9
    assert mem.manage().find_similar_facts(threshold=0.999) == []
    added: list[Memory] = []
    updated: list[Memory] = []
    mem.manage().on_memory_added(added.append)
    mem.manage().on_memory_updated(updated.append)
    merged = mem.manage().merge([a.id, b.id], content="User loves hiking in the Alps.")
    assert added == [merged] and {m.id for m in updated} == {a.id, b.id}
    assert merged.content == "User loves hiking in the Alps." and merged.status == "active"
    assert set(merged.source_conversation_ids) == {"s1", "s2"}
    assert merged.created_at == a.created_at and merged.metadata["merged_from"] == [a.id, b.id]
    for old in (a, b):
        stored = mem.manage().get(old.id)
        assert stored.status == "superseded" and stored.superseded_by == merged.id
        assert stored.supersession_type == "merge"
    lineage = mem.manage().get_lineage(merged.id)
    assert {m.id for m in lineage.merged_from} == {a.id, b.id}
    assert mem.manage().find_similar_facts(threshold=0.9) == []
    assert mem.manage().get(other.id).status == "active"


def test_merge_rejects_bad_input_and_changes_nothing(mem: LokulMem) -> None:
    from lokulmem import MemoryNotFoundError, ValidationError

    a = mem.learn("I play the cello.", session_id="s1").extracted[0]
    b = mem.learn("I teach piano on Saturdays.", session_id="s1").extracted[0]
    before = mem.manage().export(include_embeddings=False)["memories"]
    for ids, kwargs, error in (
        ([a.id], {}, ValidationError),
        ([a.id, a.id], {}, ValidationError),
        ([a.id, "missing"], {}, MemoryNotFoundError),
        ([a.id, b.id], {"content": "  "}, ValidationError),
        ("abc", {}, ValidationError),
    ):
        with pytest.raises(error):
            mem.manage().merge(ids, **kwargs)
    mem.manage().archive(b.id)
    with pytest.raises(ValidationError, match="archived"):
        mem.manage().merge([a.id, b.id])
    with pytest.raises(ValidationError):
        mem.manage().find_similar_facts(threshold=1.5)
    mem.manage().unarchive(b.id)
    after = mem.manage().export(include_embeddings=False)["memories"]
    assert [m["id"] for m in after] == [m["id"] for m in before]

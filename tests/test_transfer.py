"""Export, Markdown export, import (exports and HOM memory packs), bridge events."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from helpers import same_store, searchable_ids, store_files
from lokulmem import (
    Cluster,
    Edge,
    Episode,
    ImportFormatError,
    LokulMem,
    ManualClock,
    Memory,
    MiniLMEmbedder,
    ValidationError,
)
from lokulmem.transfer import EXPORT_VERSION, parse_document, to_markdown


@pytest.fixture
def full(mem: LokulMem, clock: ManualClock) -> LokulMem:
    """A store using every kind of record: conflict, coexistence, pin, archive, graph rows."""
    mem.learn("I live in Berlin and I work at Google.", session_id="s1")
    clock.advance(days=2)
    mem.learn("I work at Meta now. I moved to Munich.", session_id="s2")
    mem.learn("I love sushi.", session_id="s2")
    mem.augment("What food do I like?")
    mg = mem.manage()
    ms = mg.list()
    mg.pin(next(m.id for m in ms if "sushi" in m.content))
    mg.archive(next(m.id for m in ms if "Berlin" in m.content))
    storage = mem.storage
    vec = ms[0].embedding
    storage.put_episode(
        Episode(
            id="ep1",
            summary="moved and changed jobs",
            embedding=vec,
            memories_extracted=(ms[0].id,),
            started_at=1,
            ended_at=2,
            turn_count=3,
            emotional_valence=0.25,
            topics=("work", "home"),
        )
    )
    storage.put_cluster(
        Cluster(id="c1", centroid=vec, member_ids=(ms[0].id, ms[1].id), label="work", last_recomputed=5)
    )
    storage.put_edge(
        Edge(
            id=f"{ms[0].id}__{ms[1].id}",
            from_id=ms[0].id,
            to_id=ms[1].id,
            weight=0.7,
            shared_entities=("Meta",),
        )
    )
    return mem


def _snapshot(mem: LokulMem) -> tuple[list[Memory], list[Episode], list[Cluster], list[Edge]]:
    s = mem.storage
    return s.all_memories(), s.all_episodes(), s.all_clusters(), s.all_edges()


def _same_graph(a: Any, b: Any) -> None:
    """Episodes/clusters compare without vectors (compare=False); check those too."""
    assert a == b
    for x, y in zip(a, b, strict=True):
        vx = getattr(x, "embedding", getattr(x, "centroid", None))
        vy = getattr(y, "embedding", getattr(y, "centroid", None))
        assert (vx is None) == (vy is None)
        if vx is not None:
            assert np.array_equal(vx, vy)


def test_export_clear_import_roundtrips_every_field(full: LokulMem) -> None:
    mg = full.manage()
    before = _snapshot(full)
    doc = mg.export()
    assert doc["format"] == "lokulmem-export" and doc["version"] == EXPORT_VERSION
    text = json.dumps(doc)  # JSON-serialisable as is
    mg.clear()
    assert _snapshot(full) == ([], [], [], [])
    result = mg.import_data(text)
    assert (result.imported, result.skipped, result.conflicts) == (len(before[0]), 0, 0)
    after = _snapshot(full)
    assert len(after[0]) == len(before[0])
    for x, y in zip(before[0], after[0], strict=True):
        assert x.same_as(y), (x, y)
    for i in (1, 2):
        _same_graph(before[i], after[i])
    assert after[3] == before[3]
    # The restored store works: the index was rebuilt from imported vectors.
    assert "Munich" in full.augment("Where do I live?").context


def test_export_without_embeddings_reembeds_on_import(
    full: LokulMem, make_mem: Callable[..., LokulMem], embedder: MiniLMEmbedder
) -> None:
    mg = full.manage()
    before = _snapshot(full)[0]
    doc = mg.export(include_embeddings=False)
    assert all(m["embedding"] is None for m in doc["memories"]) and doc["embedding_model"] is None
    assert all(m["context_embedding"] is None for m in doc["memories"])
    batches: list[int] = []

    class Counting:
        """The same model, counting the batches it is given (an Embedder)."""

        model_id, dimension = embedder.model_id, embedder.dimension

        def embed(self, texts: Any) -> Any:
            batches.append(len(texts))
            return embedder.embed(texts)

    # A fresh client on the same store, with a model whose cache does not hide the calls.
    full.close()
    full = make_mem(**same_store(full), embedder=Counting(), embedding_cache_size=1)
    mg = full.manage()
    mg.clear()
    mg.import_data(doc)
    assert sum(batches) >= len(before) and max(batches) <= full.config.embedding_batch_size
    after = {m.id: m for m in _snapshot(full)[0]}
    for m in before:
        got = after[m.id]
        assert got.replace(embedding=None, context_embedding=None).same_as(
            m.replace(embedding=None, context_embedding=None)
        )
        assert got.embedding is not None and m.embedding is not None
        assert float(got.embedding @ m.embedding) > 0.99
        # The context vector is recomputed from the stored context texts.
        assert got.context_embedding is not None and m.context_embedding is not None
        assert float(got.context_embedding @ m.context_embedding) > 0.99


def test_empty_store_exports_and_reimports(mem: LokulMem) -> None:
    mg = mem.manage()
    doc = mg.export()
    assert doc["memories"] == [] and doc["episodes"] == []
    result = mg.import_data(json.loads(json.dumps(doc)))
    assert (result.imported, result.skipped, result.conflicts) == (0, 0, 0)
    assert mg.list() == []


def test_import_replaces_by_default_and_merges_on_request(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    a, b = make_mem(), make_mem()
    a.learn("I live in Oslo.")
    b.learn("I play the cello.")
    doc = a.manage().export()
    deleted: list[str] = []
    b.manage().on_memory_deleted(deleted.append)
    b_ids = [m.id for m in b.manage().list()]
    b.manage().import_data(doc, merge=True)
    assert {m.content for m in b.manage().list()} == {"User lives in Oslo.", "User plays the cello."}
    assert deleted == []
    b.manage().import_data(doc)  # PRD default: replace
    assert [m.content for m in b.manage().list()] == ["User lives in Oslo."]
    assert deleted == b_ids


@pytest.mark.parametrize(
    ("strategy", "expect_content", "imported", "skipped"),
    [
        ("keep-existing", "User lives in Lima.", 0, 1),
        ("use-imported", "User lives in Quito.", 1, 0),
        ("keep-newer", "User lives in Lima.", 0, 1),
    ],
)
def test_conflict_strategies(
    mem: LokulMem, clock: ManualClock, strategy: str, expect_content: str, imported: int, skipped: int
) -> None:
    mg = mem.manage()
    (m,) = mem.learn("I live in Quito.").extracted
    doc = mg.export()
    clock.advance(hours=1)
    mg.update(m.id, content="User lives in Lima.")  # the store's copy is newer
    result = mg.import_data(doc, merge=True, conflict_strategy=strategy)  # type: ignore[arg-type]
    assert (result.imported, result.skipped, result.conflicts) == (imported, skipped, 1)
    assert mg.get(m.id).content == expect_content


def test_keep_newer_takes_a_newer_import(mem: LokulMem, clock: ManualClock) -> None:
    mg = mem.manage()
    (m,) = mem.learn("I live in Quito.").extracted
    doc = mg.export()
    doc["memories"][0]["content"] = "User lives in Cusco."
    doc["memories"][0]["updated_at"] = m.updated_at + 10
    result = mg.import_data(doc, merge=True, conflict_strategy="keep-newer")
    assert (result.imported, result.conflicts) == (1, 1)
    assert mg.get(m.id).content == "User lives in Cusco."
    assert [x.id for x in mg.search("cusco")] == [m.id]


PACK: dict[str, Any] = {
    "name": "team-notes",
    "origin": "https://example.test/pack.json",
    "memories": [
        {
            "key": "pref:editor",
            "value": "User prefers Neovim for editing code.",
            "memory_type": "procedural",
            "source": "external-data",
            "session_id": "legacy-1",
            "project_id": "alpha",
            "track": "conversation",
            "created_at_s": 1700000000,
            "updated_at_s": 1700000100,
            "metadata": {"kind": "note"},
        },
        {"key": "pref:editor", "value": "User prefers Emacs.", "source": "external-data"},
        {"key": "junk", "value": "ok", "source": "external-data"},
        {
            "key": "home",
            "value": "User lives in Lisbon with two cats named Tapas and Chorizo.",
            "quality_score": 0.9,
        },
        {
            "key": "declared-low",
            "value": "User uses a standing desk at work every day.",
            "quality_score": 0.1,
        },
    ],
}


def test_memory_pack_import(mem: LokulMem, clock: ManualClock) -> None:
    mg = mem.manage()
    added: list[Memory] = []
    mg.on_memory_added(added.append)
    result = mg.import_data(copy.deepcopy(PACK))
    assert (result.imported, result.skipped, result.conflicts) == (2, 3, 0)
    reasons = {r.index: r.reason for r in result.rejected}
    assert reasons[1] == "duplicate key in pack"
    assert reasons[2].startswith("quality") and reasons[4].startswith("quality 0.10")
    editor = mg.list(types=None)[0] if mg.list()[0].key == "pref:editor" else mg.list()[1]
    assert editor.key == "pref:editor" and editor.kind == "procedural" and editor.source == "import"
    assert (
        editor.source_session == "legacy-1"
        and editor.project_id == "alpha"
        and editor.track == "conversation"
    )
    assert editor.created_at == 1_700_000_000_000 and editor.updated_at == 1_700_000_100_000
    assert editor.last_reinforced == clock.now_ms()  # decay starts at import
    prov = editor.metadata["import"]
    assert prov == {
        "pack": "team-notes",
        "origin": "https://example.test/pack.json",
        "source": "external-data",
        "bridge_event": result.bridge_event_id,
    }
    assert editor.metadata["kind"] == "note" and editor.types and editor.embedding is not None
    assert {m.id for m in added} == {m.id for m in mg.list()}
    (event,) = mg.get_bridge_events()
    assert event.id == result.bridge_event_id and event.format == "memory-pack" and event.name == "team-notes"
    assert (event.imported, event.skipped, event.conflicts) == (2, 3, 0)
    assert event.rejected == result.rejected and set(event.memory_ids) == {m.id for m in mg.list()}
    # Imported facts are retrievable and take part in contradiction handling.
    assert "Lisbon" in mem.augment("Where do I live?").context
    mem.learn("I moved to Porto.")
    lisbon = next(m for m in mg.list() if "Lisbon" in m.content)
    assert lisbon.valid_to is not None


def test_pack_keys_dedup_against_store(mem: LokulMem, clock: ManualClock) -> None:
    mg = mem.manage()
    mg.import_data(copy.deepcopy(PACK))
    again = mg.import_data(copy.deepcopy(PACK))
    assert (again.imported, again.conflicts) == (0, 2)
    assert len(mg.list()) == 2 and len(mg.get_bridge_events()) == 2
    newer = {
        "memories": [
            {
                "key": "pref:editor",
                "value": "User prefers Helix for editing code.",
                "updated_at_s": 1800000000,
            }
        ]
    }
    r = mg.import_data(newer, conflict_strategy="keep-newer")
    assert (r.imported, r.conflicts) == (1, 1)
    assert [m.content for m in mg.list() if m.key == "pref:editor"] == [
        "User prefers Helix for editing code."
    ]
    assert len(mg.list()) == 2


def test_malformed_pack_entry_strict_and_lenient(mem: LokulMem) -> None:
    mg = mem.manage()
    mem.learn("I live in Oslo.")
    before = store_files(mem)
    bad = copy.deepcopy(PACK)
    bad["memories"].insert(1, {"key": "broken"})
    with pytest.raises(ImportFormatError, match=r"memories\[1\]\.value") as info:
        mg.import_data(bad)
    assert info.value.item == "memories[1].value"
    assert store_files(mem) == before and mg.get_bridge_events() == []
    result = mg.import_data(bad, strict=False)
    assert result.rejected[0].index == 1 and result.rejected[0].reason.startswith("malformed")
    assert result.imported == 2 and result.skipped == 4


@pytest.mark.parametrize(
    ("data", "item"),
    [
        ("{not json", "data"),
        (b"\xff\xfe", "data"),
        ("[1, 2]", "document"),
        ({"format": "other"}, "format"),
        ({"format": "lokulmem-export", "version": "99", "memories": []}, "version"),
        ({"format": "lokulmem-export", "version": "1"}, "memories"),
        ({"format": "lokulmem-export", "version": "1", "memories": {}}, "memories"),
        ({"memories": [{"value": 3}]}, "memories[0].value"),
        ({"memories": [{"value": "fine fact here", "memory_type": "gossip"}]}, "memories[0].memory_type"),
        ({"memories": [{"value": "fine fact here", "quality_score": 2}]}, "memories[0].quality_score"),
        ({"memories": "nope"}, "memories"),
        (12, "data"),
    ],
)
def test_malformed_documents_name_the_problem(mem: LokulMem, data: Any, item: str) -> None:
    mem.learn("I live in Oslo.")
    before = store_files(mem)
    with pytest.raises(ImportFormatError) as info:
        mem.manage().import_data(data)
    assert info.value.item == item
    assert isinstance(info.value, ValidationError)
    assert store_files(mem) == before


def test_malformed_export_fields(full: LokulMem) -> None:
    mg = full.manage()
    doc = mg.export()
    before = store_files(full)
    cases = [
        ("content", 5, "memories[2].content"),
        ("types", "identity", "memories[2].types"),
        ("mention_count", "many", "memories[2].mention_count"),
        ("status", "lost", "memories[2].status"),
        ("embedding", "!!!", "memories[2].embedding"),
        ("embedding", "AAAA", "memories[2].embedding"),  # 1 float, not 384
        ("pinned", 1, "memories[2].pinned"),
        ("metadata", [], "memories[2].metadata"),
    ]
    for field, value, item in cases:
        bad = copy.deepcopy(doc)
        bad["memories"][2][field] = value
        with pytest.raises(ImportFormatError) as info:
            mg.import_data(bad)
        assert info.value.item == item, field
    dup = copy.deepcopy(doc)
    dup["memories"].append(dup["memories"][0])
    with pytest.raises(ImportFormatError, match="duplicate id"):
        mg.import_data(dup)
    assert store_files(full) == before


def test_failed_write_mid_import_leaves_store_unchanged(
    full: LokulMem, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lokulmem import StorageError

    mg = full.manage()
    doc = mg.export()
    before = store_files(full)
    snapshot = _snapshot(full)[0]
    storage = full.storage
    real = storage.insert_memory
    n = {"calls": 0}

    def failing(m: Memory) -> None:
        n["calls"] += 1
        if n["calls"] == 3:
            raise StorageError("injected")
        real(m)

    monkeypatch.setattr(storage, "insert_memory", failing)
    with pytest.raises(StorageError):
        mg.import_data(doc)  # replace: clear + inserts, all rolled back
    monkeypatch.undo()
    assert store_files(full) == before
    assert all(a.same_as(b) for a, b in zip(snapshot, _snapshot(full)[0], strict=True))
    assert len(searchable_ids(full)) == sum(1 for m in snapshot if m.status == "active")


def test_import_from_path_and_size_limit(full: LokulMem, tmp_path: Path) -> None:
    mg = full.manage()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(mg.export()))
    result = mg.import_data(path, merge=True)
    assert result.conflicts == len(mg.list()) and mg.get_bridge_events()[0].origin == str(path)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(100 * 1024 * 1024)  # a 100 MB (sparse) file
    before = store_files(full)
    with pytest.raises(ImportFormatError, match="max_import_bytes"):
        mg.import_data(huge)
    with pytest.raises(ImportFormatError, match="cannot read"):
        mg.import_data(tmp_path / "missing.json")
    assert store_files(full) == before


def test_import_argument_errors(mem: LokulMem) -> None:
    mg = mem.manage()
    with pytest.raises(ValidationError, match="conflict_strategy"):
        mg.import_data({"memories": []}, conflict_strategy="newest")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="merge"):
        mg.import_data({"memories": []}, merge="yes")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="quality_threshold"):
        mg.import_data({"memories": []}, quality_threshold=2)


def test_markdown_export(full: LokulMem, clock: ManualClock) -> None:
    md = full.manage().export_to_markdown()
    lines = md.splitlines()
    assert lines[0].startswith("# LokulMem Export — ")
    assert "## Location" in lines and "## Profession" in lines and "## No longer current" in lines
    assert "- User works at Meta now. *(medium confidence)*" in lines
    assert "- 📌 User loves sushi. *(pinned)*" in lines
    assert any("User works at Google." in x and "until" in x for x in lines)
    assert lines[lines.index("## Archived") + 1] == "- User lives in Berlin."
    assert to_markdown([], full.config, now_ms=0).splitlines()[-1] == "*No memories.*"
    star = Memory(id="x", content="User likes *bold* and _under_.", types=("preference",))
    assert "\\*bold\\*" in to_markdown([star], full.config, now_ms=0)


def test_parse_document_is_pure_and_lenient_on_unknown_keys() -> None:
    doc = {"format": "lokulmem-export", "version": "1", "memories": [], "future": {"x": 1}}
    parsed = parse_document(doc)
    assert parsed.memories == ()  # type: ignore[union-attr]
    minimal = {
        "format": "lokulmem-export",
        "version": "1",
        "memories": [{"id": "a", "content": "User is here.", "types": ["identity"]}],
    }
    (m,) = parse_document(minimal).memories  # type: ignore[union-attr]
    assert m == Memory(id="a", content="User is here.", types=("identity",))


def test_pack_sources_are_import_unless_the_pack_is_trusted(mem: LokulMem) -> None:
    pack = {
        "name": "agent-notes",
        "memories": [
            {"key": "a", "value": "User prefers tea over coffee in the morning.", "source": "reasoning"},
            {"key": "b", "value": "User is training for a marathon in Valencia.", "source": "external-data"},
        ],
    }
    mem.manage().import_data(pack)
    assert {m.source for m in mem.manage().list()} == {"import"}
    mem.manage().clear()
    mem.manage().import_data(pack, trust_sources=True)
    by_key = {m.key: m.source for m in mem.manage().list()}
    assert by_key == {"a": "reasoning", "b": "import"}  # "external-data" is not a HOM source
    with pytest.raises(ValidationError):
        mem.manage().import_data(pack, trust_sources="yes")  # type: ignore[arg-type]

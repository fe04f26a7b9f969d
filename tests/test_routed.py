"""The routed search index: HOM search modes, calibration that blocks or allows the
approximate path, and an HNSW graph kept in step with adds, removes and reloads."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from lokulmem import LokulMem
from lokulmem.index import AnnSettings, RoutedIndex
from lokulmem.index import routed as routed_module
from lokulmem.index.hnsw import available

if not available():  # imports onnxruntime before usearch (see lokulmem.index.hnsw)
    pytest.skip("usearch is not installed", allow_module_level=True)

Matrix = npt.NDArray[np.float32]
DIM = 64


def settings(**changes: object) -> AnnSettings:
    base: dict[str, object] = dict(
        threshold=500,
        connectivity=16,
        expansion_add=64,
        expansion_search=50,
        dtype="f16",
        candidate_pool=100,
        min_recall=0.98,
        calibration_samples=100,
        recalibrate_share=0.2,
        build_async=False,
    )
    base.update(changes)
    return AnnSettings(**base)  # type: ignore[arg-type]  # test helper over keyword fields


def clustered(n: int, seed: int = 0) -> Matrix:
    """Normalised vectors around 40 centres: the shape sentence embeddings have."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, DIM)).astype(np.float32)
    x = centres[rng.integers(0, 40, n)] + 0.35 * rng.standard_normal((n, DIM)).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def uniform(n: int, seed: int = 0) -> Matrix:
    x = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def filled(vectors: Matrix, **changes: object) -> RoutedIndex:
    index = RoutedIndex(DIM, settings(**changes))
    index.reset((f"m{i}", v) for i, v in enumerate(vectors))
    return index


def test_below_the_threshold_search_is_exact_and_says_why() -> None:
    index = filled(clustered(100))
    assert index.choose() == ("exact", "below hnsw_threshold (500)")
    assert index.profile()["ann"] == "none"


def test_a_calibrated_graph_serves_candidates_reranked_exactly() -> None:
    vectors = clustered(3000)
    index = filled(vectors)
    profile = index.profile()
    assert profile["ann"] == "built" and profile["ann_vectors"] == 3000
    assert profile["calibration"]["recall"] >= 0.98 and profile["calibration"]["samples"] == 100
    mode, reason = index.choose()
    assert mode == "hybrid_candidate_exact_rerank" and "≥ 0.98" in reason
    assert index.strategy == "hnsw"
    rng = np.random.default_rng(1)
    queries = vectors[:50] + 0.2 * rng.standard_normal((50, DIM)).astype(np.float32)
    overlap = [
        len({h.id for h in index.search(q, 10)} & {h.id for h in index.exact.search(q, 10)}) / 10
        for q in queries
    ]
    assert np.mean(overlap) >= 0.97
    hit = index.search(queries[0], 10)
    assert [h.similarity for h in hit] == sorted((h.similarity for h in hit), reverse=True)  # exact rerank


def test_calibration_below_the_bar_blocks_the_approximate_path() -> None:
    # Uniform vectors in 64 dimensions and a narrow graph: the hybrid path misses neighbours.
    vectors = uniform(3000)
    index = filled(vectors, connectivity=4, expansion_search=10, candidate_pool=10)
    calibration = index.profile()["calibration"]
    assert calibration["recall"] < 0.98
    mode, reason = index.choose()
    assert mode == "blocked_threshold_missing" and "exact search serves" in reason
    q = uniform(1, seed=3)[0]
    assert [h.id for h in index.search(q, 10)] == [h.id for h in index.exact.search(q, 10)]
    assert index.strategy == "brute-force"


def test_the_graph_follows_adds_removes_and_reloads_without_a_rebuild() -> None:
    vectors = clustered(1200)
    index = filled(vectors)
    graph = index._ann
    assert graph is not None
    index.remove("m0")
    index.add("new", vectors[0])
    assert "m0" not in graph and "new" in graph and len(graph) == 1200
    # A reload (another process committed): ten gone, ten changed, ten new.
    rows = {f"m{i}": v for i, v in enumerate(vectors) if i >= 10}
    rows["new"] = vectors[0]
    for i in range(10, 20):
        rows[f"m{i}"] = vectors[i + 500]
    for i in range(10):
        rows[f"later{i}"] = vectors[i + 700]
    index.reset(rows.items())
    assert index._ann is graph and len(graph) == len(rows)
    assert not any(f"m{i}" in graph for i in range(1, 10))
    hits = [h.id for h in index.search(vectors[510], 5)]
    assert hits[0] in {"m10", "m510"}  # m10 now holds m510's vector


def test_enough_change_recalibrates() -> None:
    vectors = clustered(1500)
    index = filled(vectors[:1000])
    first = index.profile()["calibration"]
    for i in range(1000, 1250):  # 25% of the index: over the 20% share
        index.add(f"m{i}", vectors[i])
    index.choose()
    second = index.profile()["calibration"]
    assert first["size"] == 1000 and second["size"] == 1250
    assert index.profile()["changes_since_calibration"] == 0


def test_without_usearch_search_stays_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(routed_module, "available", lambda: False)
    index = filled(clustered(800))
    assert index.choose() == ("exact", "usearch is not installed (lokulmem[ann])")


def test_the_debug_record_and_stats_show_the_mode(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(hnsw_threshold=30, hnsw_ef_construction=64)
    for i in range(40):
        mem.learn(f"My friend number {i} lives in city {i} and loves sport {i}.")
    stats = mem.manage().stats().search_index
    assert stats["ann"] == "built" and stats["calibration"]["recall"] >= 0.98
    result = mem.augment("Where does my friend number 7 live?", debug=True)
    assert result.debug is not None
    assert result.debug.search_mode == "hybrid_candidate_exact_rerank"
    assert result.debug.retrieval_strategy == "hnsw"
    stage = next(s for s in result.debug.stages if s.name == "mode-selection")
    assert "calibrated recall@10" in stage.detail


def test_a_failed_build_leaves_exact_search_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: object, ids: object, vectors: object) -> None:
        raise MemoryError("no room for the graph")

    monkeypatch.setattr(routed_module.HnswIndex, "add_many", broken)
    index = filled(clustered(800))
    assert index.choose() == ("exact", "the HNSW build failed: no room for the graph")
    q = clustered(1, seed=5)[0]
    assert [h.id for h in index.search(q, 5)] == [h.id for h in index.exact.search(q, 5)]
    index.add("another", q)  # no retry on every add
    assert index.profile()["ann"] == "none"


def persisted(vectors: Matrix, path: Path, **changes: object) -> RoutedIndex:
    index = RoutedIndex(DIM, settings(**changes), persist=path)
    index.reset((f"m{i}", v) for i, v in enumerate(vectors))
    return index


def test_the_graph_is_saved_beside_the_store_and_reused(tmp_path: Path) -> None:
    vectors, path = clustered(1500), tmp_path / "store.sqlite.hnsw"
    first = persisted(vectors, path)
    assert path.exists() and path.with_name(path.name + ".json").exists()
    assert first.profile()["restored"] is False
    written = path.stat().st_mtime_ns
    second = persisted(vectors, path)  # a later open: nothing changed
    profile = second.profile()
    assert profile["restored"] is True and profile["ann_vectors"] == 1500
    assert profile["calibration"]["recall"] >= 0.98
    q = vectors[7]
    assert second.search(q, 1)[0].id == "m7"
    second.save()  # as on close: an unchanged graph is not written again
    assert path.stat().st_mtime_ns == written
    second.remove("m7")
    second.save()
    assert "m7" not in json.loads(path.with_name(path.name + ".json").read_text())["keys"]


def test_a_stale_saved_graph_is_brought_up_to_date(tmp_path: Path) -> None:
    vectors, path = clustered(1500), tmp_path / "store.sqlite.hnsw"
    persisted(vectors, path)
    # Another process changed the store meanwhile: ten gone, ten re-embedded, ten new.
    rows = {f"m{i}": v for i, v in enumerate(vectors) if i >= 10}
    for i in range(10, 20):
        rows[f"m{i}"] = vectors[i + 600]
    extra = clustered(10, seed=9)
    rows.update({f"new{i}": v for i, v in enumerate(extra)})
    index = RoutedIndex(DIM, settings(), persist=path)
    index.reset(rows.items())
    assert index.profile()["restored"] is True and index.profile()["ann_vectors"] == len(rows)
    graph = index._ann
    assert graph is not None and "m0" not in graph and "new3" in graph
    assert index.search(extra[3], 1)[0].id == "new3"
    assert index.search(vectors[615], 2)[0].id in {"m15", "m615"}  # m15 now holds m615's vector


@pytest.mark.parametrize("damage", ["garbage graph", "missing sidecar", "other settings", "mismatched pair"])
def test_a_damaged_saved_graph_is_rebuilt(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    vectors, path = clustered(1200), tmp_path / "store.sqlite.hnsw"
    persisted(vectors, path)
    side = path.with_name(path.name + ".json")
    if damage == "garbage graph":
        path.write_bytes(b"\x00garbage" * 1000)
        side.write_text(side.read_text().replace('"graph_bytes": ', '"graph_bytes": 8000, "x": '))
    elif damage == "missing sidecar":
        side.unlink()
    elif damage == "mismatched pair":
        path.write_bytes(path.read_bytes()[:-100])
    changes: dict[str, object] = {"connectivity": 8} if damage == "other settings" else {}
    with caplog.at_level("WARNING", logger="lokulmem.index.routed"):
        index = persisted(vectors, path, **changes)
    assert index.profile()["restored"] is False and index.profile()["ann_vectors"] == 1200
    assert "rebuilding the HNSW index" in caplog.text
    assert index.search(vectors[5], 1)[0].id == "m5"


def test_a_store_saves_its_graph_when_closed(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    path = tmp_path / "graph.sqlite"
    mem = make_mem(path=path, hnsw_threshold=30, hnsw_ef_construction=64)
    for i in range(40):
        mem.learn(f"My friend number {i} lives in city {i} and loves sport {i}.")
    mem.close()
    assert Path(str(path) + ".hnsw").exists()
    again = make_mem(path=path, hnsw_threshold=30, hnsw_ef_construction=64)
    assert again.manage().stats().search_index["restored"] is True


def test_saves_racing_in_one_process_both_land(tmp_path: Path) -> None:
    """A background build and close() may save at once: neither may fail or mix files."""
    import threading

    from lokulmem.index.hnsw import HnswIndex, row_digests

    vectors = clustered(800)
    ids = [f"m{i}" for i in range(len(vectors))]
    graph = HnswIndex(DIM, connectivity=16, expansion_add=64, expansion_search=50, dtype="f16")
    graph.add_many(ids, vectors)
    path, errors = tmp_path / "store.sqlite.hnsw", []

    def save() -> None:
        try:
            for _ in range(5):
                graph.save(path, row_digests(ids, vectors))
        except OSError as exc:  # the race used to lose a temporary file
            errors.append(exc)

    threads = [threading.Thread(target=save) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    expected = HnswIndex.file_settings(DIM, "f16", 16)
    loaded, digests = HnswIndex.load(path, expected, expansion_add=64, expansion_search=50)
    assert len(loaded) == 800 and digests == row_digests(ids, vectors)

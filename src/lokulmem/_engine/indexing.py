"""The engine's search index, from the config and the store: what
:class:`~lokulmem.index.RoutedIndex` reads, and where its HNSW graph is saved."""

from __future__ import annotations

from pathlib import Path

from ..config import Config
from ..index import AnnSettings
from ..storage import Storage

__all__ = ["ann_settings", "graph_path"]


def ann_settings(config: Config, *, build_async: bool) -> AnnSettings:
    """What the search index reads from the config (``build_async``: build and
    recalibrate the HNSW graph on a background thread)."""
    return AnnSettings(
        threshold=config.hnsw_threshold,
        connectivity=config.hnsw_connectivity,
        expansion_add=config.hnsw_ef_construction,
        expansion_search=config.hnsw_ef_search,
        dtype=config.ann_dtype,
        candidate_pool=config.ann_candidate_pool,
        min_recall=config.ann_min_recall,
        calibration_samples=config.ann_calibration_samples,
        recalibrate_share=config.ann_recalibrate_share,
        build_async=build_async,
    )


def graph_path(storage: Storage) -> Path | None:
    """Where the HNSW graph of a store is saved: ``<store>.hnsw`` beside a store file,
    the backend's ``index_cache_path`` for a database store (PostgreSQL: a file in
    the user cache directory), None for a store in memory."""
    cache = getattr(storage, "index_cache_path", None)
    if isinstance(cache, Path):
        return cache
    location = getattr(storage, "path", None)
    if not isinstance(location, str) or location == ":memory:":
        return None
    return Path(location + ".hnsw")

"""The search index recall uses, and the HOM search modes it chooses between.

Exact search (:class:`BruteForceIndex`) always holds every vector and serves
whenever the approximate path may not.  Above ``hnsw_threshold`` vectors an
HNSW graph (:mod:`lokulmem.index.hnsw`) is built (on a background thread with
the thread executor; exact search serves meanwhile) and kept in step with
every add and remove, including another process's writes (``reset`` applies
the difference instead of rebuilding).  Then each search is one of:

* ``exact``: below the threshold, without ``usearch``, or while the graph
  builds;
* ``blocked_threshold_missing``: the graph exists but its *calibration* has
  not shown recall@k ≥ ``ann_min_recall`` against exact search, so exact
  search serves;
* ``hybrid_candidate_exact_rerank``: ``ann_candidate_pool`` candidates from
  the graph, reranked with the exact float32 vectors.

Persistence: for a store file the graph is saved as ``<store>.hnsw`` with a
``.json`` sidecar (settings, ids, a digest of each vector) after each build and
when the store closes.  The next open loads it and applies what changed since
(another process's writes included); a damaged, mismatched or mostly stale
file is rebuilt, with a log line, while exact search serves.

Calibration: ``ann_calibration_samples`` stored vectors (a fixed seed) are
searched both ways; recall@k is the share of the exact top ``k`` that the
hybrid path returns.  It is recomputed when adds and removes since the last
one reach ``ann_recalibrate_share`` of the index.  ``profile()`` reports it
(shown in ``stats()``), ``mode`` and ``reason`` the last search's choice
(shown in ``debug``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .brute import BruteForceIndex, SearchHit
from .hnsw import HnswIndex, available, row_digests

__all__ = ["AnnSettings", "Calibration", "RoutedIndex", "SearchMode"]

logger = logging.getLogger(__name__)

Vector = npt.NDArray[np.float32]
SearchMode = Literal["exact", "blocked_threshold_missing", "hybrid_candidate_exact_rerank"]
#: k of the calibration's recall@k.
CALIBRATION_K = 10
#: Calibration queries answered by one exact matrix product (bounds its memory: N × this).
CALIBRATION_BATCH = 16
#: Share of the index that may change before a rebuild replaces incremental updates.
REBUILD_SHARE = 0.5


@dataclass(frozen=True, kw_only=True)
class AnnSettings:
    """The ``Config`` fields this index reads."""

    threshold: int
    connectivity: int
    expansion_add: int
    expansion_search: int
    dtype: str
    candidate_pool: int
    min_recall: float
    calibration_samples: int
    recalibrate_share: float
    build_async: bool = True


@dataclass(frozen=True, kw_only=True)
class Calibration:
    """Recall of the hybrid path against exact search, measured on stored vectors."""

    recall: float
    k: int
    samples: int
    size: int
    seconds: float


class RoutedIndex:
    """Exact search, or HNSW candidates reranked exactly once calibrated (module doc)."""

    def __init__(self, dimension: int, settings: AnnSettings, *, persist: Path | None = None) -> None:
        self.dimension = dimension
        self.settings = settings
        #: Where the graph is saved (and its sidecar ``.json``): beside the store file.
        self.persist = persist
        self.exact = BruteForceIndex(dimension)
        self._ann: HnswIndex | None = None
        self._building = False
        self._pending: list[tuple[str, Vector | None]] = []  # changes made while building
        self._calibration: Calibration | None = None
        self._changes = 0
        #: Adds and removes ever applied, and their count when the graph file was last
        #: written or read (close skips rewriting an unchanged graph).
        self._edits, self._saved_at, self._restore_edits = 0, -1, 0
        self._recalibrating = False
        self._failed = ""  # why a build failed (no retry: exact search serves)
        self._lock = threading.RLock()
        #: Whether the graph came from the saved file (brought up to date) rather than a build.
        self.restored = False
        self.mode: SearchMode = "exact"
        self.reason = "no search yet"
        self.build_seconds = 0.0

    # -- the VectorIndex interface ---------------------------------------------------
    @property
    def strategy(self) -> str:
        return "hnsw" if self.mode == "hybrid_candidate_exact_rerank" else "brute-force"

    @property
    def search_mode(self) -> str:
        return self.mode

    def __len__(self) -> int:
        return len(self.exact)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self.exact

    def add(self, memory_id: str, vector: Vector) -> None:
        v = np.asarray(vector, dtype=np.float32).reshape(-1)
        with self._lock:
            if memory_id in self.exact and np.array_equal(self.exact.vectors([memory_id])[0], v):
                return  # an update that kept the vector (a correction of types, a pin)
            self.exact.add(memory_id, v)
            self._changed(memory_id, v)
        self._maybe_build()

    def remove(self, memory_id: str) -> None:
        with self._lock:
            present = memory_id in self.exact
            self.exact.remove(memory_id)
            if present:
                self._changed(memory_id, None)

    def reset(self, items: Iterable[tuple[str, Vector]], expected: int = 0) -> None:
        """Reload every vector (``expected``: about how many, a sizing hint); a built
        graph takes only the difference."""
        with self._lock:
            if self._ann is None and not self._building:  # nothing to keep in step: no copy
                self.exact.reset(items, expected)
            else:
                old_ids, old = self.exact.snapshot()
                self.exact.reset(items, expected)
                self._apply_difference(old_ids, old)
        self._maybe_build()

    def similarities(self, query: Vector, ids: Sequence[str]) -> list[float]:
        return self.exact.similarities(query, ids)

    def close_pairs(self, threshold: float, neighbours: int) -> list[tuple[str, str, float]]:
        return self.exact.close_pairs(threshold, neighbours)

    def choose(self) -> tuple[SearchMode, str]:
        """The mode searches take now and why (HOM mode selection); also sets
        ``mode`` and ``reason``, and starts a recalibration when one is due."""
        self._maybe_recalibrate()
        with self._lock:
            self.mode, self.reason = self._select()
            return self.mode, self.reason

    def search(self, query: Vector, k: int) -> list[SearchHit]:
        mode, _ = self.choose()
        with self._lock:
            ann = self._ann if mode == "hybrid_candidate_exact_rerank" else None
        if ann is None:
            return self.exact.search(query, k)
        return self._hybrid(ann, query, k)

    # -- choosing -------------------------------------------------------------------
    def _select(self) -> tuple[SearchMode, str]:
        s, n = self.settings, len(self.exact)
        if n < s.threshold:
            return "exact", f"below hnsw_threshold ({s.threshold})"
        if self._ann is None:
            if self._failed:
                return "exact", self._failed
            why = (
                "the HNSW index is building" if self._building else "usearch is not installed (lokulmem[ann])"
            )
            return "exact", why
        cal = self._calibration
        if cal is None:
            return "blocked_threshold_missing", "not calibrated yet: exact search serves"
        if cal.recall < s.min_recall:
            return (
                "blocked_threshold_missing",
                f"calibrated recall@{cal.k} {cal.recall:.3f} < ann_min_recall {s.min_recall}:"
                " exact search serves",
            )
        return "hybrid_candidate_exact_rerank", f"calibrated recall@{cal.k} {cal.recall:.3f} ≥ {s.min_recall}"

    def _hybrid(self, ann: HnswIndex, query: Vector, k: int) -> list[SearchHit]:
        pool = [i for i in ann.candidates(query, max(k, self.settings.candidate_pool)) if i in self.exact]
        sims = self.exact.similarities(query, pool)
        ranked = sorted(zip(pool, sims, strict=True), key=lambda p: -p[1])[:k]
        return [SearchHit(i, s) for i, s in ranked]

    # -- building and keeping in step -----------------------------------------------------
    def _changed(self, memory_id: str, vector: Vector | None) -> None:
        self._changes += 1
        self._edits += 1
        if self._building:
            self._pending.append((memory_id, vector))
        elif self._ann is not None:
            if vector is None:
                self._ann.remove(memory_id)
            else:
                self._ann.add(memory_id, vector)

    def _apply_difference(self, old_ids: list[str], old: Vector) -> None:
        new_ids, new = self.exact.snapshot()
        before = dict(zip(old_ids, range(len(old_ids)), strict=True))
        gone = set(old_ids) - set(new_ids)
        changed = [
            j for j, i in enumerate(new_ids) if i not in before or not np.array_equal(old[before[i]], new[j])
        ]
        if len(gone) + len(changed) > REBUILD_SHARE * max(1, len(new_ids)) and not self._building:
            self._ann, self._calibration = None, None  # rebuilt below: cheaper than the difference
            return
        for memory_id in gone:
            self._changed(memory_id, None)
        for j in changed:
            self._changed(new_ids[j], new[j])

    def _maybe_build(self) -> None:
        with self._lock:
            if (
                self._ann is not None
                or self._building
                or self._failed
                or len(self.exact) < self.settings.threshold
            ):
                return
            if not available():
                return
            self._building = True
        self._start(self._build, "lokulmem-hnsw-build")

    def _start(self, work: Callable[[], None], name: str) -> None:
        """Run ``work`` on a background thread (thread executor) or now (inline)."""
        if self.settings.build_async:
            threading.Thread(target=work, name=name, daemon=True).start()
        else:
            work()

    def _build(self) -> None:
        try:
            self._build_graph()
        except Exception as exc:  # any failure: exact search serves, said once
            logger.warning("HNSW index build failed, exact search serves: %s", exc)
            with self._lock:
                self._building, self._failed = False, f"the HNSW build failed: {exc}"

    def _new_graph(self) -> HnswIndex:
        s = self.settings
        return HnswIndex(
            self.dimension,
            connectivity=s.connectivity,
            expansion_add=s.expansion_add,
            expansion_search=s.expansion_search,
            dtype=s.dtype,
        )

    def _build_graph(self) -> None:
        started = time.perf_counter()
        ids, matrix = self.exact.snapshot()
        ann = self._restored(ids, matrix)
        if ann is None:
            ann = self._new_graph()
            ann.add_many(ids, matrix)
            self.restored = False
        with self._lock:
            # The file already says what the graph holds: a restore that changed nothing.
            unchanged = self.restored and not self._restore_edits and not self._pending
            for memory_id, vector in self._pending:
                if vector is None:
                    ann.remove(memory_id)
                else:
                    ann.add(memory_id, vector)
            self._pending.clear()
            self._ann, self._building = ann, False
            self.build_seconds = time.perf_counter() - started
            if unchanged:
                self._saved_at = self._edits
        self.save()
        self.calibrate()

    def _restored(self, ids: list[str], matrix: Vector) -> HnswIndex | None:
        """The saved graph brought up to date, or None (missing, damaged, other
        settings, or more than ``REBUILD_SHARE`` of it stale: rebuilt, logged)."""
        if self.persist is None or not self.persist.exists():
            return None
        s = self.settings
        expected = HnswIndex.file_settings(self.dimension, s.dtype, s.connectivity)
        try:
            ann, saved = HnswIndex.load(
                self.persist, expected, expansion_add=s.expansion_add, expansion_search=s.expansion_search
            )
        except ValueError as exc:
            logger.warning("rebuilding the HNSW index %s: %s", self.persist, exc)
            return None
        current = row_digests(ids, matrix)
        stale = [i for i in saved if current.get(i) != saved[i]]
        fresh = [j for j, i in enumerate(ids) if saved.get(i) != current[i]]
        if len(stale) + len(fresh) > REBUILD_SHARE * max(1, len(ids)):
            logger.info("rebuilding the HNSW index %s: most of it is stale", self.persist)
            return None
        for memory_id in stale:
            ann.remove(memory_id)
        ann.add_many([ids[j] for j in fresh], matrix[fresh] if fresh else matrix[:0])
        self.restored, self._restore_edits = True, len(stale) + len(fresh)
        return ann

    def save(self) -> None:
        """Write the graph beside the store (no-op without a place or a graph); a
        failure is logged, never raised: the graph can always be rebuilt."""
        with self._lock:  # the graph and the digests of one moment
            ann = self._ann
            if self.persist is None or ann is None:
                return
            if self._saved_at == self._edits and self.persist.exists():
                return  # nothing changed since the file was written (or read)
            ids, matrix = self.exact.snapshot()
            try:
                ann.save(self.persist, row_digests(ids, matrix))
            except (OSError, RuntimeError, ValueError) as exc:
                logger.warning("could not save the HNSW index to %s: %s", self.persist, exc)
                return
            self._saved_at = self._edits

    # -- calibration ----------------------------------------------------------------------
    def calibrate(self) -> Calibration | None:
        """Measure the hybrid path's recall@k against exact search now (None without a graph)."""
        with self._lock:
            ann = self._ann
            if ann is None:
                return None
            ids, matrix = self.exact.snapshot()
            self._changes = 0
        started = time.perf_counter()
        rng = np.random.default_rng(0)
        picks = rng.choice(len(ids), size=min(self.settings.calibration_samples, len(ids)), replace=False)
        k = min(CALIBRATION_K, len(ids))
        hits = 0
        for start in range(0, len(picks), CALIBRATION_BATCH):
            rows = picks[start : start + CALIBRATION_BATCH]
            sims = matrix @ matrix[rows].T  # exact, one matrix product per batch of queries
            top = np.argpartition(-sims, k - 1, axis=0)[:k] if k < len(ids) else None
            for c, row in enumerate(rows.tolist()):
                exact = {ids[i] for i in (top[:, c] if top is not None else range(len(ids)))}
                hybrid = {h.id for h in self._hybrid(ann, matrix[row], k)}
                hits += len(exact & hybrid)
        calibration = Calibration(
            recall=hits / (k * len(picks)) if len(picks) else 0.0,
            k=k,
            samples=len(picks),
            size=len(ids),
            seconds=round(time.perf_counter() - started, 3),
        )
        with self._lock:
            self._calibration = calibration
        return calibration

    def _maybe_recalibrate(self) -> None:
        with self._lock:
            due = (
                self._ann is not None
                and self._calibration is not None
                and not self._recalibrating
                and self._changes >= self.settings.recalibrate_share * max(1, len(self.exact))
            )
            if due:
                self._recalibrating = True
        if due:  # the last profile keeps serving meanwhile
            self._start(self._recalibrate, "lokulmem-hnsw-calibrate")

    def _recalibrate(self) -> None:
        try:
            self.calibrate()
        finally:
            with self._lock:
                self._recalibrating = False

    def profile(self) -> dict[str, Any]:
        """The index as ``stats()`` shows it: size, mode, graph and calibration."""
        with self._lock:
            cal = self._calibration
            mode, reason = self._select()
            return {
                "vectors": len(self.exact),
                "hnsw_threshold": self.settings.threshold,
                "ann": "built" if self._ann is not None else "building" if self._building else "none",
                "ann_vectors": len(self._ann) if self._ann is not None else 0,
                "ann_memory_bytes": self._ann.memory_bytes() if self._ann is not None else 0,
                "build_seconds": round(self.build_seconds, 3),
                "restored": self.restored,
                "calibration": None
                if cal is None
                else {
                    "recall": cal.recall,
                    "k": cal.k,
                    "samples": cal.samples,
                    "size": cal.size,
                    "seconds": cal.seconds,
                },
                "min_recall": self.settings.min_recall,
                "changes_since_calibration": self._changes,
                "mode": mode,
                "reason": reason,
            }

"""Superseded facts as a way to their replacements (recall's lineage source).

A fact closed by temporal coexistence (``valid_to``) stays in the search index,
and a question that finds it also gets the fact that replaced it, standing
where the old one stands (:func:`lokulmem.retrieval.stages.successors`).  A
*superseded* fact leaves the index, so a question phrased like the old fact
("How many hours do I work?" after "I work full-time", then "I work
part-time now to look after my son") found neither: the replacement, phrased
otherwise, was under the relevance bar.  :class:`History` keeps the vectors
of the most recently superseded facts (``Config.history_pool``) in one small
matrix; recall asks it for the ones nearest the question, which join the
candidates as history (never injected themselves) so their replacements can
stand where they stand.  The matrix is read from the store on first use and
dropped whenever a write may have changed it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ..records import Memory
from ..storage import Storage

__all__ = ["History"]

Vector = npt.NDArray[np.float32]


class History:
    """The vectors of superseded facts that name their successor (module doc).
    Thread-safe; the engine tells it of each write (:meth:`written`) and clears
    it when it reloads from the store (another process wrote, a restore)."""

    def __init__(self, storage: Storage, pool: int) -> None:
        self._storage = storage
        self._pool = pool
        self._lock = threading.Lock()
        self._loaded: tuple[list[str], Vector | None] | None = None
        #: id → row of the loaded matrix (built on first use by :meth:`nearest_of`).
        self._rows: tuple[list[str], dict[str, int]] | None = None

    def clear(self) -> None:
        with self._lock:
            self._loaded = self._rows = None

    def written(self, updated: Iterable[Memory], deleted: Iterable[str]) -> None:
        """Drop the matrix if a write may have changed it: a memory superseded, or one
        it holds updated (restored, say) or deleted.  Reinforcements keep it."""
        with self._lock:
            if self._loaded is None:
                return
            held = set(self._loaded[0])
            if any(m.status == "superseded" or m.id in held for m in updated) or not held.isdisjoint(deleted):
                self._loaded = self._rows = None

    def _load(self) -> tuple[list[str], Vector | None]:
        with self._lock:
            if self._loaded is None:
                rows = self._storage.superseded_vectors(self._pool) if self._pool > 0 else []
                ids = [memory_id for memory_id, _, _ in rows]
                mat = np.stack([np.asarray(v, dtype=np.float32) for _, _, v in rows]) if rows else None
                self._loaded = (ids, mat)
            return self._loaded

    def nearest(self, query: Vector, k: int, floor: float) -> list[str]:
        """Ids of the ``k`` superseded facts nearest ``query`` with cosine from ``floor`` up,
        nearest first."""
        if k <= 0:
            return []
        ids, mat = self._load()
        if mat is None or mat.shape[1] != query.shape[0]:
            return []
        sims = mat @ query
        top = np.argsort(-sims, kind="stable")[:k]
        return [ids[i] for i in top if float(sims[i]) >= floor]

    def nearest_of(self, query: Vector, among: Iterable[str], k: int) -> list[str]:
        """Ids of the ``k`` superseded facts of ``among`` nearest ``query`` (those this
        pool holds: they name their successor), nearest first, whatever their cosine."""
        wanted = set(among)
        if k <= 0 or not wanted:
            return []
        ids, mat = self._load()
        with self._lock:
            if self._rows is None or self._rows[0] is not ids:  # built for this very load
                self._rows = (ids, {memory_id: n for n, memory_id in enumerate(ids)})
            where = self._rows[1]
        rows = sorted(where[i] for i in wanted if i in where)
        if mat is None or not rows or mat.shape[1] != query.shape[0]:
            return []
        sims = mat[rows] @ query
        return [ids[rows[i]] for i in np.argsort(-sims, kind="stable")[:k]]

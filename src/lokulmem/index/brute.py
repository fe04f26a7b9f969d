"""Exact cosine search over one float32 matrix of normalised vectors."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["BruteForceIndex", "SearchHit", "VectorIndex"]

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class SearchHit:
    id: str
    similarity: float


class VectorIndex(Protocol):
    """The search interface the algorithms use.  ``strategy`` names it in debug output."""

    strategy: str
    search_mode: str

    def __len__(self) -> int: ...
    def __contains__(self, memory_id: object) -> bool: ...
    def add(self, memory_id: str, vector: Vector) -> None: ...
    def remove(self, memory_id: str) -> None: ...
    def reset(self, items: Iterable[tuple[str, Vector]], expected: int = 0) -> None: ...
    def search(self, query: Vector, k: int) -> list[SearchHit]: ...
    def similarities(self, query: Vector, ids: Sequence[str]) -> list[float]: ...
    def close_pairs(self, threshold: float, neighbours: int) -> list[tuple[str, str, float]]: ...


#: Similarity rows computed at once by ``close_pairs`` (bounds its memory: rows × N floats).
_PAIR_BLOCK_CELLS = 1 << 22


def _capacity(rows: int) -> int:
    """Rows to allocate for ``rows`` vectors: a quarter more, so adds do not copy at once."""
    return max(64, rows + rows // 4)


class BruteForceIndex:
    """Exact search: matmul + argpartition.  Serves to ~100k vectors (PYTHON.md)."""

    strategy = "brute-force"
    search_mode = "exact"

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self._mat: Vector = np.zeros((64, dimension), dtype=np.float32)
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._row

    def _check(self, vector: Vector) -> Vector:
        v = np.asarray(vector, dtype=np.float32).reshape(-1)
        if v.shape[0] != self.dimension:
            raise ValueError(f"vector has dimension {v.shape[0]}, index has {self.dimension}")
        return v

    def add(self, memory_id: str, vector: Vector) -> None:
        v = self._check(vector)
        with self._lock:
            row = self._row.get(memory_id)
            if row is not None:
                self._mat[row] = v
                return
            n = len(self._ids)
            if n == self._mat.shape[0]:
                grown = np.zeros((max(64, n * 2), self.dimension), dtype=np.float32)
                grown[:n] = self._mat[:n]
                self._mat = grown
            self._mat[n] = v
            self._ids.append(memory_id)
            self._row[memory_id] = n

    def remove(self, memory_id: str) -> None:
        with self._lock:
            row = self._row.pop(memory_id, None)
            if row is None:
                return
            last = len(self._ids) - 1
            if row != last:
                moved = self._ids[last]
                self._mat[row] = self._mat[last]
                self._ids[row] = moved
                self._row[moved] = row
            self._ids.pop()

    def reset(self, items: Iterable[tuple[str, Vector]], expected: int = 0) -> None:
        """Replace every vector with ``items``.  ``expected``: how many there will
        probably be (a hint; more or fewer are fine)."""
        # Rows go straight into a matrix sized for the hint plus headroom, grown by
        # doubling past it: with a good hint the matrix is allocated once, without
        # one the doublings allocate and free up to twice the index on the way.
        ids: list[str] = []
        mat = np.zeros((_capacity(expected), self.dimension), dtype=np.float32)
        for memory_id, vec in items:
            if len(ids) == len(mat):
                grown = np.zeros((2 * len(mat), self.dimension), dtype=np.float32)
                grown[: len(mat)] = mat
                mat = grown
            mat[len(ids)] = self._check(vec)
            ids.append(memory_id)
        with self._lock:
            target = _capacity(len(ids))
            # Unhinted, keep a quarter of headroom; hinted, shrink only when far fewer came.
            if len(mat) > (2 * target if expected else target):
                mat = mat[:target].copy()
            self._mat = mat
            self._ids = ids
            self._row = {m: i for i, m in enumerate(ids)}

    def search(self, query: Vector, k: int) -> list[SearchHit]:
        q = self._check(query)
        with self._lock:
            n = len(self._ids)
            if n == 0 or k <= 0:
                return []
            sims = self._mat[:n] @ q
            top = np.argpartition(-sims, k - 1)[:k] if k < n else np.arange(n)
            order = top[np.argsort(-sims[top], kind="stable")]
            return [SearchHit(self._ids[i], float(sims[i])) for i in order]

    def snapshot(self) -> tuple[list[str], Vector]:
        """Every id and a copy of its vector, row for row (for building another index)."""
        with self._lock:
            n = len(self._ids)
            return list(self._ids), self._mat[:n].copy()

    def vectors(self, ids: Sequence[str]) -> Vector:
        """The stored vectors of ``ids`` (each must be present), row for row."""
        with self._lock:
            return self._mat[[self._row[i] for i in ids]].copy()

    def similarities(self, query: Vector, ids: Sequence[str]) -> list[float]:
        """Cosine of ``query`` with each id (0.0 for ids not in the index)."""
        q = self._check(query)
        with self._lock:
            rows = [self._row.get(i) for i in ids]
            out = [0.0] * len(ids)
            present = [(j, r) for j, r in enumerate(rows) if r is not None]
            if present:
                sims = self._mat[[r for _, r in present]] @ q
                for (j, _), s in zip(present, sims, strict=True):
                    out[j] = float(s)
            return out

    def close_pairs(self, threshold: float, neighbours: int) -> list[tuple[str, str, float]]:
        """Pairs ``(a, b, cosine)`` with cosine ≥ ``threshold`` among each vector's
        ``neighbours`` nearest, each pair once, most similar first.

        A k-nearest-neighbour self-join: blocks of rows against the matrix
        (memory bounded by ``_PAIR_BLOCK_CELLS``), ``argpartition`` per row.
        Exact, so its cost grows as N² · dimension multiply-adds, done by BLAS;
        an approximate index answers the same call from its graph.
        """
        with self._lock:
            n = len(self._ids)
            if n < 2 or neighbours <= 0:
                return []
            mat = self._mat[:n]
            k = min(neighbours + 1, n)
            block = max(1, _PAIR_BLOCK_CELLS // n)
            found: dict[tuple[int, int], float] = {}
            for start in range(0, n, block):
                sims = mat[start : start + block] @ mat.T
                top = np.argpartition(-sims, k - 1, axis=1)[:, :k] if k < n else None
                for r in range(sims.shape[0]):
                    i = start + r
                    cols = top[r] if top is not None else np.arange(n)
                    for j in cols[sims[r, cols] >= threshold]:
                        if int(j) != i:
                            found[(min(i, int(j)), max(i, int(j)))] = float(sims[r, j])
            pairs = [(self._ids[a], self._ids[b], s) for (a, b), s in found.items()]
        pairs.sort(key=lambda p: (-p[2], p[0], p[1]))
        return pairs

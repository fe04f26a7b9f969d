"""Topic clusters by k-means (PRD §6 layer 2, §14).  Pure numpy.

Lloyd's algorithm on L2-normalised vectors with cosine similarity (spherical
k-means: assign each vector to the centroid with the largest dot product,
recompute each centroid as the normalised mean of its members), k-means++
initialisation from a seeded generator so the same store gives the same
clusters, at most ``max_iterations`` rounds, stopping as soon as no
assignment changes.  numpy's matrix product is all it needs: at 50k vectors
and K = 158 one round is a 50k×384 by 384×158 product; scikit-learn would
add a large dependency for the same arithmetic.

``K = max(min_k, floor(sqrt(active / divisor)))`` (PRD: ``max(3,
floor(sqrt(n / 2)))``), but never more than the number of distinct vectors:
with fewer memories than K each distinct memory is its own cluster, and an
empty store has none.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .extraction.lexicon import STOPWORDS

__all__ = ["KMeansResult", "choose_k", "cluster_all", "kmeans", "label_terms"]

#: Rows assigned to their nearest centroid per matrix product in
#: :func:`cluster_all` (bounds its memory: block × K floats).
ASSIGN_BLOCK = 16_384

Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True)
class KMeansResult:
    #: (k, d) normalised centroids.
    centroids: Matrix
    #: Cluster index of each input row.
    labels: npt.NDArray[np.int64]
    iterations: int
    converged: bool


def choose_k(active: int, *, min_k: int = 3, divisor: float = 2.0) -> int:
    """The PRD's dynamic K for ``active`` memories (before capping by distinct vectors)."""
    if active <= 0:
        return 0
    return max(min_k, math.floor(math.sqrt(active / divisor)))


def _normalise(m: Matrix) -> Matrix:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Matrix = (m / norms).astype(np.float32)
    return out


def _plus_plus(x: Matrix, k: int, rng: np.random.Generator) -> Matrix:
    """Greedy k-means++: each new centre is the best of a few distance-weighted samples."""
    n = x.shape[0]
    tries = 2 + int(math.log(k)) if k > 1 else 1
    first = int(rng.integers(n))
    centres = [x[first]]
    # Cosine distance to the nearest chosen centre, kept up to date incrementally.
    dist = np.clip(1.0 - x @ x[first], 0.0, None)
    for _ in range(1, k):
        total = float(dist.sum())
        if total <= 0.0:
            break  # every remaining vector coincides with a centre
        picks = rng.choice(n, size=tries, p=dist / total)
        cand = np.clip(1.0 - x @ x[picks].T, 0.0, None)  # (n, tries)
        after = np.minimum(dist[:, None], cand)
        best = int(np.argmin(after.sum(axis=0)))
        centres.append(x[picks[best]])
        dist = after[:, best]
    return np.stack(centres).astype(np.float32)


def kmeans(vectors: Matrix, k: int, *, max_iterations: int = 50, seed: int = 0) -> KMeansResult:
    """Spherical k-means of the rows of ``vectors`` into at most ``k`` clusters."""
    x = _normalise(np.asarray(vectors, dtype=np.float32))
    n = x.shape[0]
    if n == 0 or k <= 0:
        return KMeansResult(
            np.zeros((0, x.shape[1] if x.ndim == 2 else 0), np.float32), np.zeros(0, np.int64), 0, True
        )
    rng = np.random.default_rng(seed)
    centroids = _plus_plus(x, min(k, n), rng)
    labels = np.full(n, -1, dtype=np.int64)
    converged = False
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 - the count is reported
        new = np.argmax(x @ centroids.T, axis=1).astype(np.int64)
        if np.array_equal(new, labels):
            converged = True
            break
        labels = new
        # Member sums as one matrix product (much faster than np.add.at).
        onehot = np.zeros((n, centroids.shape[0]), dtype=np.float32)
        onehot[np.arange(n), labels] = 1.0
        sums = onehot.T @ x
        counts = np.bincount(labels, minlength=centroids.shape[0])
        empty = counts == 0
        if empty.any():
            # Re-seed an empty cluster with the vector farthest from its centroid.
            sims = np.einsum("ij,ij->i", x, centroids[labels])
            for c in np.flatnonzero(empty):
                far = int(np.argmin(sims))
                sums[c] = x[far]
                sims[far] = np.inf
        centroids = _normalise(sums)
    # Drop clusters that ended up empty so every stored cluster has members.
    used = np.unique(labels)
    remap = {int(old): i for i, old in enumerate(used)}
    labels = np.array([remap[int(lab)] for lab in labels], dtype=np.int64)
    return KMeansResult(centroids[used], labels, iterations, converged)


def cluster_all(
    vectors: Matrix, k: int, *, sample_size: int, max_iterations: int = 50, seed: int = 0
) -> KMeansResult:
    """k-means that stays bounded on a large store: the centroids are fitted on a
    seeded uniform sample of at most ``sample_size`` rows, then every row is
    assigned to its nearest centroid, ``ASSIGN_BLOCK`` rows at a time.

    With at most ``sample_size`` rows this *is* :func:`kmeans` (same result).
    At 1M vectors and K = 707, fitting on every row costs a 1M × 707 product
    per Lloyd round and a 2.8 GB one-hot matrix; a sample of 20,000 holds ~28
    rows per centroid, plenty to place centres for a topic tie-breaker.
    """
    x = np.asarray(vectors, dtype=np.float32)
    n = x.shape[0] if x.ndim == 2 else 0
    if n <= sample_size:
        return kmeans(x, k, max_iterations=max_iterations, seed=seed)
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.choice(n, size=sample_size, replace=False))
    fitted = kmeans(x[rows], k, max_iterations=max_iterations, seed=seed)
    labels = np.empty(n, dtype=np.int64)
    for start in range(0, n, ASSIGN_BLOCK):
        block = _normalise(x[start : start + ASSIGN_BLOCK])
        labels[start : start + ASSIGN_BLOCK] = np.argmax(block @ fitted.centroids.T, axis=1)
    # A centroid no row is nearest to any more is dropped (every cluster has members).
    used = np.unique(labels)
    remap = np.full(fitted.centroids.shape[0], -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return KMeansResult(fitted.centroids[used], remap[labels], fitted.iterations, fitted.converged)


_WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'\-]+")


def label_terms(central: str, others: Sequence[str] = (), *, terms: int = 3, user_label: str = "User") -> str:
    """A readable label: the key terms of the cluster's most central memory.

    Content words of ``central`` (no stopwords, not the user label), ranked by
    how many member memories share them, then by position.
    """
    skip = {user_label.lower(), f"{user_label.lower()}'s"}
    words = [w for w in _WORD.findall(central) if w.lower() not in STOPWORDS and w.lower() not in skip]
    if not words:
        return central.strip()[:40]
    shared = Counter(w.lower() for text in others for w in set(_WORD.findall(text)))
    order = {w.lower(): i for i, w in reversed(list(enumerate(words)))}
    ranked = sorted(dict.fromkeys(w.lower() for w in words), key=lambda w: (-shared[w], order[w]))
    chosen = set(ranked[:terms])
    out: list[str] = []
    for w in words:
        if w.lower() in chosen and w.lower() not in {o.lower() for o in out}:
            out.append(w)
    return " ".join(out)

"""k-means++, the choice of K and cluster labels (``lokulmem.clustering``): pure, no store."""

from __future__ import annotations

import numpy as np

from lokulmem.clustering import choose_k, kmeans, label_terms


def test_kmeans_small_and_degenerate_inputs() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 8)).astype(np.float32)
    r = kmeans(x, choose_k(2))  # K = 3 > 2 memories: each is its own cluster
    assert sorted(r.labels.tolist()) == [0, 1] and r.centroids.shape == (2, 8)
    same = np.ones((5, 8), dtype=np.float32)
    r = kmeans(same, 3)
    assert r.centroids.shape[0] == 1 and set(r.labels.tolist()) == {0}
    r = kmeans(np.zeros((0, 8), dtype=np.float32), 3)
    assert r.labels.size == 0 and choose_k(0) == 0
    # Deterministic for a seed.
    y = rng.normal(size=(200, 16)).astype(np.float32)
    assert np.array_equal(kmeans(y, 5, seed=3).labels, kmeans(y, 5, seed=3).labels)
    assert choose_k(1000) == 22 and choose_k(10) == 3
    assert label_terms("User loves hiking in the Alps.", ["User went hiking."]) == "hiking Alps"

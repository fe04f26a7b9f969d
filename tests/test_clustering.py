"""k-means++, the choice of K and cluster labels (``lokulmem.clustering``): pure, no store."""

from __future__ import annotations

import numpy as np
import pytest

from lokulmem import clustering
from lokulmem.clustering import choose_k, cluster_all, kmeans, label_terms


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


def test_cluster_all_is_kmeans_up_to_the_sample_size() -> None:
    y = np.random.default_rng(1).normal(size=(300, 16)).astype(np.float32)
    whole, sampled = kmeans(y, 6, seed=2), cluster_all(y, 6, sample_size=300, seed=2)
    assert np.array_equal(whole.labels, sampled.labels)
    assert np.array_equal(whole.centroids, sampled.centroids)


def test_cluster_all_fits_a_sample_and_assigns_every_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clustering, "ASSIGN_BLOCK", 128)  # several blocks
    rng = np.random.default_rng(4)
    centres = rng.normal(size=(5, 32)).astype(np.float32)
    truth = rng.integers(5, size=3000)
    x = (centres[truth] + 0.05 * rng.normal(size=(3000, 32))).astype(np.float32)
    fitted: list[int] = []
    real = clustering.kmeans

    def spy(v: np.ndarray, k: int, **kw: object) -> clustering.KMeansResult:
        fitted.append(v.shape[0])
        return real(v, k, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(clustering, "kmeans", spy)
    r = cluster_all(x, 5, sample_size=400, seed=0)
    assert fitted == [400]  # fitted on the sample only
    assert r.labels.shape == (3000,) and set(r.labels.tolist()) == set(range(r.centroids.shape[0]))
    # Every row sits with its nearest centroid, and the planted groups are found.
    nearest = np.argmax(x @ r.centroids.T, axis=1)
    assert np.array_equal(nearest, r.labels)
    pairs = {(int(t), int(label)) for t, label in zip(truth, r.labels, strict=True)}
    assert len(pairs) == 5
    again = cluster_all(x, 5, sample_size=400, seed=0)
    assert np.array_equal(again.labels, r.labels)

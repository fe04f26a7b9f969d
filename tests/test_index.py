import numpy as np
import pytest

from lokulmem.index import BruteForceIndex


def test_matches_naive_search_and_survives_removal() -> None:
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(300, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    idx = BruteForceIndex(8)
    for i, v in enumerate(vecs):
        idx.add(f"m{i}", v)
    for i in range(0, 300, 3):
        idx.remove(f"m{i}")
    assert len(idx) == 200 and "m0" not in idx and "m1" in idx
    q = vecs[7]
    hits = idx.search(q, 10)
    alive = [i for i in range(300) if i % 3]
    naive = sorted(alive, key=lambda i: -float(vecs[i] @ q))[:10]
    assert [h.id for h in hits] == [f"m{i}" for i in naive]
    assert hits[0].id == "m7" and abs(hits[0].similarity - 1.0) < 1e-5
    assert idx.similarities(q, ["m7", "m0"]) == [hits[0].similarity, 0.0]
    idx.reset([])
    assert idx.search(q, 5) == []


def test_close_pairs_is_a_neighbour_self_join() -> None:
    from lokulmem.index import BruteForceIndex

    rng = np.random.default_rng(3)
    base = rng.normal(size=(40, 8)).astype(np.float32)
    base /= np.linalg.norm(base, axis=1, keepdims=True)
    near = base[0] + 0.01 * rng.normal(size=8).astype(np.float32)
    near /= np.linalg.norm(near)
    index = BruteForceIndex(8)
    index.reset([(f"m{i}", v) for i, v in enumerate(base)])
    index.add("twin", near)
    pairs = index.close_pairs(0.99, 5)
    assert [(a, b) for a, b, _ in pairs] == [("m0", "twin")]
    assert pairs[0][2] == pytest.approx(float(base[0] @ near), abs=1e-5)
    # Every pair above a low threshold, each once, agrees with the full matrix.
    mat = np.vstack([base, near])
    sims = mat @ mat.T
    expected = {(i, j) for i in range(41) for j in range(i + 1, 41) if sims[i, j] >= 0.5}
    ids = [f"m{i}" for i in range(40)] + ["twin"]
    got = {tuple(sorted((ids.index(a), ids.index(b)))) for a, b, _ in index.close_pairs(0.5, 40)}
    assert got == expected
    assert index.close_pairs(0.5, 0) == [] and BruteForceIndex(8).close_pairs(0.1, 3) == []


@pytest.mark.parametrize("expected", [0, 10, 300, 5_000])
def test_reset_takes_any_size_hint(expected: int) -> None:
    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((300, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    idx = BruteForceIndex(8)
    idx.reset(((f"m{i}", v) for i, v in enumerate(vecs)), expected)
    assert len(idx) == 300
    ids, mat = idx.snapshot()
    assert ids == [f"m{i}" for i in range(300)] and np.array_equal(mat, vecs)
    assert idx.search(vecs[7], 1)[0].id == "m7"
    # Room for a quarter more, but not what a wrong hint asked for.
    assert 300 <= idx._mat.shape[0] <= 2 * (300 + 300 // 4)
    idx.add("new", vecs[0])
    assert len(idx) == 301

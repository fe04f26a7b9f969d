import numpy as np

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

"""Exact vs HNSW-candidates-with-exact-rerank search at N vectors (lokulmem.index.routed).

    python bench/bench_ann.py [--sizes 10000 100000] [--queries 200] [--dtype f16]

Vectors: 2,000 real all-MiniLM-L6-v2 embeddings of template user facts, and N
vectors made from them (a normalised mix of two real ones plus noise), so the
set has the clustered shape of real sentence embeddings without embedding N
sentences (embedding cost is measured by bench_core.py).  Queries: other mixes.
For each N: HNSW build time (PRD parameters: M 16, ef_construction 200,
ef_search 50, candidate pool 100), calibration recall@10 and its time, search
p50/p95 for exact and for the hybrid path, recall@10 of the hybrid path
against exact on the queries, and memory (exact matrix, graph).  Prints a
table and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import CITIES, NAMES, THINGS  # the same template facts

from lokulmem import Config
from lokulmem._engine.indexing import ann_settings
from lokulmem.client import shared_minilm
from lokulmem.index import RoutedIndex

BASE = 2000


def base_vectors(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    texts = [
        f"User's friend {rng.choice(NAMES)} loves {rng.choice(THINGS)}"
        f" and lives in {rng.choice(CITIES)} ({i})."
        for i in range(BASE)
    ]
    model = shared_minilm()
    return np.asarray(np.vstack(model.embed(texts)), dtype=np.float32)


def mixes(base: np.ndarray, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, len(base), n), rng.integers(0, len(base), n)
    w = rng.uniform(0.55, 0.95, (n, 1)).astype(np.float32)
    x = w * base[a] + (1 - w) * base[b] + 0.03 * rng.standard_normal((n, base.shape[1])).astype(np.float32)
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def ms(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


def bench(n: int, queries: int, dtype: str, base: np.ndarray) -> dict[str, object]:
    vectors = mixes(base, n, seed=n)
    config = Config(hnsw_threshold=1, ann_dtype=dtype)
    index = RoutedIndex(base.shape[1], ann_settings(config, build_async=False))
    started = time.perf_counter()
    index.reset((f"m{i}", v) for i, v in enumerate(vectors))
    build_s = time.perf_counter() - started
    profile = index.profile()
    qs = mixes(base, queries, seed=n + 1)
    exact_t, hybrid_t, overlap = [], [], []
    for q in qs:
        t0 = time.perf_counter()
        exact = index.exact.search(q, 10)
        t1 = time.perf_counter()
        hybrid = index.search(q, 10)
        t2 = time.perf_counter()
        exact_t.append(t1 - t0)
        hybrid_t.append(t2 - t1)
        overlap.append(len({h.id for h in exact} & {h.id for h in hybrid}) / 10)
    e50, e95 = ms(exact_t)
    h50, h95 = ms(hybrid_t)
    return {
        "n": n,
        "dtype": dtype,
        "build_s": round(build_s, 1),
        "graph_build_s": round(profile["build_seconds"], 1),
        "calibration": profile["calibration"],
        "mode": index.choose()[0],
        "exact_p50_ms": round(e50, 3),
        "exact_p95_ms": round(e95, 3),
        "hybrid_p50_ms": round(h50, 3),
        "hybrid_p95_ms": round(h95, 3),
        "recall_at_10": round(float(np.mean(overlap)), 4),
        "exact_matrix_mb": round(vectors.nbytes / 1e6, 1),
        "graph_mb": round(profile["ann_memory_bytes"] / 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--dtype", default="f16", choices=["f32", "f16", "i8"])
    args = parser.parse_args()
    base = base_vectors()
    results = []
    for n in args.sizes:
        r = bench(n, args.queries, args.dtype, base)
        results.append(r)
        cal = r["calibration"] or {}
        print(
            f"N={n:>8}  build {r['graph_build_s']:6.1f} s | exact p50 {r['exact_p50_ms']:7.3f} ms"
            f" | hybrid p50 {r['hybrid_p50_ms']:7.3f} ms p95 {r['hybrid_p95_ms']:7.3f}"
            f" | recall@10 {r['recall_at_10']:.4f} (calibration {cal.get('recall', 0):.4f})"
            f" | mode {r['mode']} | matrix {r['exact_matrix_mb']} MB, graph {r['graph_mb']} MB",
            flush=True,
        )
    print(json.dumps({"bench": "ann", "results": results}))


if __name__ == "__main__":
    main()

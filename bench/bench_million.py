"""``augment()`` and ``learn()`` through a real store of N memories (default 1M).

    pip install 'lokulmem[ann]'
    python bench/bench_million.py [--n 1000000] [--runs 50] [--store /tmp/m.sqlite]

The store is a real SQLite store (float16 vectors, FTS5, every index) written
through ``SQLiteStorage``: N template facts (bench_core's generator, so the
full-text index sees realistic, repetitive words) told over the past two weeks,
each with a vector made from real all-MiniLM-L6-v2 embeddings of 2,000 of
them (bench_ann's normalised mixes: clustered like sentence embeddings,
without embedding N sentences).  Then ``LokulMem`` opens it as a user would
(default options, ``executor="inline"`` so the HNSW graph is built, or
restored from ``<store>.hnsw``, during ``init()``), and ``learn()`` of new
facts and ``augment()`` of new questions (3 turns of history) are timed.
Reported: build and open times, the search mode recall ran in (from
``debug``), p50/p95 of each call and of its stages (``debug.stages``), RSS.
``--store`` keeps the store (and its graph) for the next run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ann import base_vectors, mixes
from bench_core import CITIES, NAMES, THINGS, fact, p50_p95, timed_calls

from lokulmem import LokulMem, Memory
from lokulmem.client import shared_minilm
from lokulmem.storage import SQLiteStorage

DAY_MS = 86_400_000
#: The facts were told over this many days up to now (recent enough that none has faded).
SPAN_DAYS = 14
BATCH = 20_000
HISTORY = [
    {"role": "user", "content": "Let's plan my week."},
    {"role": "assistant", "content": "Sure, what's on it?"},
    {"role": "user", "content": "Some jazz and a call with my family."},
]


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def build(path: Path, n: int) -> float:
    """Write ``n`` memories into a new store at ``path``; seconds taken."""
    t0 = time.perf_counter()
    model = shared_minilm()
    base = base_vectors()
    store = SQLiteStorage(path, vector_storage="float16")
    store.open(embedding_model=model.model_id, dimension=model.dimension)
    rng = random.Random(0)
    now = time.time_ns() // 1_000_000
    for start in range(0, n, BATCH):
        count = min(BATCH, n - start)
        vectors = mixes(base, count, seed=start)
        with store.transaction():
            for j in range(count):
                i = start + j
                text = fact(rng, i)
                told = now - DAY_MS * SPAN_DAYS + (DAY_MS * SPAN_DAYS * i) // n
                store.insert_memory(
                    Memory(id=f"m{i}", content=text, types=("preference",), embedding=vectors[j],
                           created_at=told, updated_at=told, last_accessed_at=told, last_reinforced=told,
                           valid_from=told, source_session="bench", source_turn=i, source_text=text,
                           source_context=text, base_strength=1.0 + 4.0 * (i % 7 == 0))
                )  # fmt: skip
        print(f"  {start + count:>9,} memories written ({time.perf_counter() - t0:.0f} s)", flush=True)
    store.close()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--store", type=Path)
    args = ap.parse_args()
    path = args.store or Path(f"/tmp/lokulmem-million-{args.n}.sqlite")
    shared_minilm().load()
    result: dict[str, object] = {"n": args.n}
    if not path.exists():
        result["build_s"] = round(build(path, args.n), 1)
    base_rss = rss_mb()
    t0 = time.perf_counter()
    mem = LokulMem(path=path, executor="inline")
    mem.init()
    result["open_s"] = round(time.perf_counter() - t0, 1)
    result["rss_added_mb"] = round(rss_mb() - base_rss, 1)
    result["search_index"] = mem.manage().stats().search_index
    print(f"opened in {result['open_s']} s: {result['search_index']}", flush=True)
    rng = np.random.default_rng(1)
    asks = [
        f"What should I do with {rng.choice(NAMES)} in {rng.choice(CITIES)}, plan {i}?"
        for i in range(args.runs)
    ]
    stages: dict[str, list[float]] = {}
    modes: set[str] = set()
    injected: list[int] = []

    def ask(q: str) -> None:
        r = mem.augment(q, HISTORY, debug=True)
        assert r.debug is not None
        modes.add(r.debug.search_mode)
        injected.append(len(r.debug.injected))
        for stage in r.debug.stages:
            stages.setdefault(stage.name, []).append(stage.ms)

    result["augment"] = p50_p95(timed_calls([lambda q=q: ask(q) for q in asks]))
    facts = [
        f"My {rng.choice(['sister', 'friend'])} Zed{i} loves {rng.choice(THINGS)} now."
        for i in range(args.runs)
    ]
    result["learn"] = p50_p95(timed_calls([lambda t=t: mem.learn(t, "Nice!") for t in facts]))
    result["augment_stages_p50_ms"] = {k: round(statistics.median(v), 2) for k, v in stages.items()}
    result["search_modes"] = sorted(modes)
    result["mean_injected"] = round(float(np.mean(injected)), 2)
    mem.close()  # saves the graph beside the store for the next run
    print(f"augment p50 {result['augment']['p50']} ms (p95 {result['augment']['p95']}), "  # type: ignore[index]
          f"learn p50 {result['learn']['p50']} ms, modes {result['search_modes']}")  # type: ignore[index]  # fmt: skip
    print(json.dumps({"bench": "million", **result}))


if __name__ == "__main__":
    main()

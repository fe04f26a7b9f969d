"""lokulmem beside what users would pick instead, in one run, same embedder.

    pip install chromadb mem0ai         # bench-only dependencies, not lokulmem's
    python bench/side_by_side.py [--n 10000] [--runs 50] [--systems lokulmem chromadb mem0 floor]

Every system uses the same all-MiniLM-L6-v2 int8 model (lokulmem's), embeds
one sentence per call like an app would, and stores the same N template
facts.  Each system runs in a fresh subprocess, so its resident memory is its
own:

* **lokulmem**: the store built through the import path, then ``learn()``
  of new facts and ``augment()`` of new questions (default options, 3 turns of
  history), and ``get_injection_preview()``;
* **chromadb** ``PersistentClient``: ``collection.add`` of one embedded fact,
  ``collection.query`` of one embedded question (10 results);
* **mem0** (``mem0ai``) ``Memory`` with ``infer=False`` (no LLM call: each
  message stored as it is) on its default local vector store (Qdrant in a
  local directory) and history database, its embedder replaced by the same
  MiniLM model: ``add`` of one message, ``search`` of one question (10 results);
  telemetry off, a dummy OpenAI key (nothing calls it);
* **numpy + sqlite floor**: an embedded fact inserted as a float32 blob, a
  question embedded and matched against a numpy matrix (top 10): what any
  system must at least do.

Reported: p50 and p95 per call (ms), disk after a WAL checkpoint / close, and
RSS added by the store (the model is loaded before measuring).  Prints a
table and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import CITIES, NAMES, THINGS, build_store

SYSTEMS = ("lokulmem", "chromadb", "mem0", "floor")


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def disk_mb(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    siblings = list(path.parent.glob(path.name + "-*")) if path.is_file() else []
    return sum(p.stat().st_size for p in files + siblings) / 1e6


def facts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [
        f"My {rng.choice(['sister', 'friend', 'boss'])} {rng.choice(NAMES)} loves {rng.choice(THINGS)}"
        f" and lives in {rng.choice(CITIES)} ({i})."
        for i in range(n)
    ]


def questions(runs: int, seed: int = 7) -> list[str]:
    rng = np.random.default_rng(seed)
    return [
        f"What should I do with {rng.choice(NAMES)} in {rng.choice(CITIES)}, plan {i}?" for i in range(runs)
    ]


def timed(calls: list[Any]) -> tuple[float, float]:
    out = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        out.append((time.perf_counter() - t0) * 1000)
    out.sort()
    return round(statistics.median(out), 2), round(out[int(0.95 * (len(out) - 1))], 2)


def run_lokulmem(n: int, runs: int, root: Path) -> dict[str, Any]:
    from lokulmem import LokulMem

    path = root / "lokulmem.sqlite"
    build_store(path, n)
    base = rss_mb()
    history = [
        {"role": "user", "content": "Let's plan my week."},
        {"role": "assistant", "content": "Sure, what's on it?"},
        {"role": "user", "content": "Some jazz and a call with my family."},
    ]
    with LokulMem(path=path, executor="inline") as mem:
        mem.init()
        added = rss_mb() - base
        new = facts(runs, seed=1)
        learn = timed([lambda t=t: mem.learn(t, "Nice!") for t in new])
        qs = questions(runs)
        augment = timed([lambda q=q: mem.augment(q, history) for q in qs])
        # Other questions: the ones above are in the embedding cache now.
        preview = timed([lambda q=q: mem.manage().get_injection_preview(q) for q in questions(runs, seed=8)])
    return {
        "add": learn,
        "query": augment,
        "preview": preview,
        "rss_mb": round(added, 1),
        "disk_mb": disk_mb(path),
    }


def run_chromadb(n: int, runs: int, root: Path) -> dict[str, Any]:
    import chromadb

    from lokulmem.client import shared_minilm

    model = shared_minilm()
    model.load()
    texts = facts(n, seed=0)
    vectors = np.vstack(model.embed(texts))
    base = rss_mb()
    client = chromadb.PersistentClient(path=str(root / "chroma"))
    col = client.create_collection("facts", embedding_function=None, metadata={"hnsw:space": "cosine"})
    for start in range(0, n, 1000):
        col.add(
            ids=[str(i) for i in range(start, min(n, start + 1000))],
            embeddings=vectors[start : start + 1000].tolist(),
            documents=texts[start : start + 1000],
        )
    added = rss_mb() - base
    new = facts(runs, seed=1)

    def add(i: int, t: str) -> None:
        col.add(ids=[f"new{i}"], embeddings=[model.embed([t])[0].tolist()], documents=[t])

    def query(q: str) -> None:
        col.query(query_embeddings=[model.embed([q])[0].tolist()], n_results=10)

    result = {
        "add": timed([lambda i=i, t=t: add(i, t) for i, t in enumerate(new)]),
        "query": timed([lambda q=q: query(q) for q in questions(runs)]),
        "rss_mb": round(added, 1),
    }
    del client
    result["disk_mb"] = disk_mb(root / "chroma")
    return result


def run_mem0(n: int, runs: int, root: Path) -> dict[str, Any]:
    os.environ["MEM0_TELEMETRY"] = "False"  # before mem0 is imported: no network
    os.environ.setdefault("OPENAI_API_KEY", "sk-unused")  # its default LLM is built, never called
    from mem0 import Memory

    from lokulmem.client import shared_minilm

    model = shared_minilm()
    model.load()

    class MiniLM:  # mem0's embedder interface, on lokulmem's model
        def embed(self, text: str, memory_action: str | None = None) -> list[float]:
            return [float(x) for x in model.embed([text])[0]]

    texts = facts(n, seed=0)
    base = rss_mb()
    store = {"path": str(root / "qdrant"), "collection_name": "facts", "embedding_model_dims": 384}
    config = {
        "vector_store": {"provider": "qdrant", "config": {**store, "on_disk": True}},
        "history_db_path": str(root / "history.db"),
    }
    mem = Memory.from_config(config)
    mem.embedding_model = MiniLM()
    for t in texts:
        mem.add([{"role": "user", "content": t}], user_id="u", infer=False)
    added = rss_mb() - base

    def add(t: str) -> None:
        mem.add([{"role": "user", "content": t}], user_id="u", infer=False)

    def query(q: str) -> None:
        mem.search(q, filters={"user_id": "u"}, top_k=10)

    result = {
        "add": timed([lambda t=t: add(t) for t in facts(runs, seed=1)]),
        "query": timed([lambda q=q: query(q) for q in questions(runs)]),
        "rss_mb": round(added, 1),
    }
    result["disk_mb"] = disk_mb(root / "qdrant") + disk_mb(root / "history.db")
    return result


def run_floor(n: int, runs: int, root: Path) -> dict[str, Any]:
    from lokulmem.client import shared_minilm

    model = shared_minilm()
    model.load()
    texts = facts(n, seed=0)
    vectors = np.vstack(model.embed(texts)).astype(np.float32)
    base = rss_mb()
    path = root / "floor.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE facts (id INTEGER PRIMARY KEY, text TEXT, vec BLOB)")
    conn.executemany(
        "INSERT INTO facts (text, vec) VALUES (?, ?)",
        [(t, v.tobytes()) for t, v in zip(texts, vectors, strict=True)],
    )
    conn.commit()
    matrix = [vectors]
    added = rss_mb() - base

    def add(t: str) -> None:
        v = model.embed([t])[0]
        with conn:
            conn.execute("INSERT INTO facts (text, vec) VALUES (?, ?)", (t, v.tobytes()))
        matrix.append(v.reshape(1, -1))

    mat = np.vstack(matrix)

    def query(q: str) -> None:
        sims = mat @ model.embed([q])[0]
        top = np.argpartition(-sims, 10)[:10]
        conn.execute(
            f"SELECT text FROM facts WHERE id IN ({','.join(str(int(i) + 1) for i in top)})"
        ).fetchall()

    result = {
        "add": timed([lambda t=t: add(t) for t in facts(runs, seed=1)]),
        "query": timed([lambda q=q: query(q) for q in questions(runs)]),
        "rss_mb": round(added, 1),
    }
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    result["disk_mb"] = disk_mb(path)
    return result


def child(system: str, n: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        runner = {"lokulmem": run_lokulmem, "chromadb": run_chromadb, "mem0": run_mem0, "floor": run_floor}
        result = runner[system](n, runs, Path(tmp))
    print(json.dumps({"system": system, **result}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--child", choices=SYSTEMS)
    parser.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS))
    args = parser.parse_args()
    if args.child:
        child(args.child, args.n, args.runs)
        return
    rows = []
    for system in args.systems:
        done = subprocess.run(
            [sys.executable, __file__, "--child", system, "--n", str(args.n), "--runs", str(args.runs)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            print(f"{system}: failed\n{done.stderr[-2000:]}")
            continue
        row = json.loads(done.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(
            f"{system:<9} add/learn p50 {row['add'][0]:7.2f} ms  query/augment p50 {row['query'][0]:7.2f} ms"
            f"  disk {row['disk_mb']:6.1f} MB  RSS added {row['rss_mb']:6.1f} MB",
            flush=True,
        )
    print(json.dumps({"bench": "side_by_side", "n": args.n, "runs": args.runs, "results": rows}))


if __name__ == "__main__":
    main()

"""lokulmem beside what users would pick instead, in one run, same embedder.

    pip install chromadb mem0ai         # bench-only dependencies, not lokulmem's
    python bench/side_by_side.py [--n 10000] [--runs 50] [--systems lokulmem chromadb mem0 floor] [--gap-ms 0]

Every system uses the same all-MiniLM-L6-v2 int8 model (lokulmem's), embeds
one sentence per call like an app would, and stores the same N template
facts.  Each system runs in its own subprocess, so its resident memory is its
own.  The systems are set up one after another, then the timed calls are split
into ``--rounds`` rounds (5) in which every system takes its share, in an order
that rotates round by round: a shared machine's slow minutes fall on all of
them instead of on whichever ran then.

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

Each round, a system does its ``add``/``learn`` calls, then its queries (and
lokulmem its previews).  Reported: p50 and p95 per call (ms) over all rounds,
disk after a WAL checkpoint / close, and RSS added by building and opening the
store (the model is loaded, and freed heap given back, before measuring).
``--gap-ms``: a pause before each timed call, for every system, as an
application's model call makes between two calls (the first call after a
pause is slower for everyone: docs/tuning.md entry 53).  Prints a table and a
JSON line.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import CITIES, NAMES, THINGS, build_store

SYSTEMS = ("lokulmem", "chromadb", "mem0", "floor")


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def settled_rss_mb() -> float:
    """RSS once the heap freed so far is given back (gc, then glibc's ``malloc_trim``):
    the base "RSS added" is measured from, the same way for every system, so what
    the model load or the store build freed is not counted as the store's."""
    gc.collect()
    ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)  # glibc (Linux)
    return rss_mb()


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


def times(calls: list[Callable[[], object]], gap_ms: float = 0.0) -> list[float]:
    """Milliseconds each call took (``gap_ms``: a pause before each, not timed)."""
    out = []
    for call in calls:
        if gap_ms:
            time.sleep(gap_ms / 1000)
        t0 = time.perf_counter()
        call()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def p50_p95(values: list[float]) -> list[float]:
    ordered = sorted(values)
    return [round(statistics.median(ordered), 2), round(ordered[int(0.95 * (len(ordered) - 1))], 2)]


@dataclass
class System:
    """One system, set up and holding its store: the calls the rounds time."""

    add: Callable[[int, str], object]
    query: Callable[[str], object]
    #: RSS added by building and opening the store (MB), measured at set-up.
    rss_mb: float
    #: Closes the store; returns its size on disk (MB).
    close: Callable[[], float]
    preview: Callable[[str], object] | None = None


HISTORY = [
    {"role": "user", "content": "Let's plan my week."},
    {"role": "assistant", "content": "Sure, what's on it?"},
    {"role": "user", "content": "Some jazz and a call with my family."},
]


def setup_lokulmem(n: int, runs: int, root: Path) -> System:
    from lokulmem import LokulMem

    path = root / "lokulmem.sqlite"
    build_store(path, n)
    base = settled_rss_mb()
    mem = LokulMem(path=path, executor="inline")
    mem.init()

    def close() -> float:
        mem.close()
        return disk_mb(path)

    return System(
        add=lambda i, t: mem.learn(t, "Nice!"),
        query=lambda q: mem.augment(q, HISTORY),
        preview=lambda q: mem.manage().get_injection_preview(q),
        rss_mb=round(rss_mb() - base, 1),
        close=close,
    )


def setup_chromadb(n: int, runs: int, root: Path) -> System:
    import chromadb

    from lokulmem.client import shared_minilm

    model = shared_minilm()
    model.load()
    texts = facts(n, seed=0)
    vectors = np.vstack(model.embed(texts))
    base = settled_rss_mb()
    client = chromadb.PersistentClient(path=str(root / "chroma"))
    col = client.create_collection("facts", embedding_function=None, metadata={"hnsw:space": "cosine"})
    for start in range(0, n, 1000):
        col.add(
            ids=[str(i) for i in range(start, min(n, start + 1000))],
            embeddings=vectors[start : start + 1000].tolist(),
            documents=texts[start : start + 1000],
        )
    added = rss_mb() - base

    def add(i: int, t: str) -> None:
        col.add(ids=[f"new{i}"], embeddings=[model.embed([t])[0].tolist()], documents=[t])

    def query(q: str) -> None:
        col.query(query_embeddings=[model.embed([q])[0].tolist()], n_results=10)

    def close() -> float:
        nonlocal client
        del client
        return disk_mb(root / "chroma")

    return System(add=add, query=query, rss_mb=round(added, 1), close=close)


def setup_mem0(n: int, runs: int, root: Path) -> System:
    os.environ["MEM0_TELEMETRY"] = "False"  # before mem0 is imported: no network
    os.environ.setdefault("OPENAI_API_KEY", "sk-unused")  # its default LLM is built, never called
    from mem0 import Memory

    from lokulmem.client import shared_minilm

    model = shared_minilm()
    model.load()

    class MiniLM:  # mem0's embedder interface, on lokulmem's model
        def embed(self, text: str, memory_action: str | None = None) -> list[float]:
            return [float(x) for x in model.embed([text])[0]]

    base = settled_rss_mb()
    store = {"path": str(root / "qdrant"), "collection_name": "facts", "embedding_model_dims": 384}
    config = {
        "vector_store": {"provider": "qdrant", "config": {**store, "on_disk": True}},
        "history_db_path": str(root / "history.db"),
    }
    mem = Memory.from_config(config)
    mem.embedding_model = MiniLM()
    for t in facts(n, seed=0):
        mem.add([{"role": "user", "content": t}], user_id="u", infer=False)
    added = rss_mb() - base
    return System(
        add=lambda i, t: mem.add([{"role": "user", "content": t}], user_id="u", infer=False),
        query=lambda q: mem.search(q, filters={"user_id": "u"}, top_k=10),
        rss_mb=round(added, 1),
        close=lambda: disk_mb(root / "qdrant") + disk_mb(root / "history.db"),
    )


def setup_floor(n: int, runs: int, root: Path) -> System:
    from lokulmem.client import shared_minilm

    model = shared_minilm()
    model.load()
    texts = facts(n, seed=0)
    vectors = np.vstack(model.embed(texts)).astype(np.float32)
    base = settled_rss_mb()
    path = root / "floor.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE facts (id INTEGER PRIMARY KEY, text TEXT, vec BLOB)")
    conn.executemany(
        "INSERT INTO facts (text, vec) VALUES (?, ?)",
        [(t, v.tobytes()) for t, v in zip(texts, vectors, strict=True)],
    )
    conn.commit()
    # Rows for the added facts are allocated up front, as a real floor would grow in blocks.
    matrix = np.zeros((n + runs, vectors.shape[1]), dtype=np.float32)
    matrix[:n] = vectors
    count = [n]
    added = rss_mb() - base

    def add(i: int, t: str) -> None:
        v = model.embed([t])[0]
        with conn:
            conn.execute("INSERT INTO facts (text, vec) VALUES (?, ?)", (t, v.tobytes()))
        matrix[count[0]] = v
        count[0] += 1

    def query(q: str) -> None:
        sims = matrix[: count[0]] @ model.embed([q])[0]
        top = np.argpartition(-sims, 10)[:10]
        conn.execute(
            f"SELECT text FROM facts WHERE id IN ({','.join(str(int(i) + 1) for i in top)})"
        ).fetchall()

    def close() -> float:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        return disk_mb(path)

    return System(add=add, query=query, rss_mb=round(added, 1), close=close)


SETUPS: dict[str, Callable[[int, int, Path], System]] = {
    "lokulmem": setup_lokulmem,
    "chromadb": setup_chromadb,
    "mem0": setup_mem0,
    "floor": setup_floor,
}


def serve(system: str, n: int, runs: int, gap_ms: float = 0.0) -> None:
    """The child: set the system up, then time the calls of each round the parent asks for
    (one JSON line in, one out), until it asks to close."""
    reply = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever the libraries print goes to stderr, not into the replies
    new, qs, others = facts(runs, seed=1), questions(runs), questions(runs, seed=8)
    with tempfile.TemporaryDirectory() as tmp:
        sut = SETUPS[system](n, runs, Path(tmp))
        print(json.dumps({"rss_mb": sut.rss_mb}), file=reply, flush=True)
        for line in sys.stdin:
            ask = json.loads(line)
            if ask["op"] == "close":
                print(json.dumps({"disk_mb": sut.close()}), file=reply, flush=True)
                return
            part = range(ask["lo"], ask["hi"])
            out = {
                "add": times([lambda i=i: sut.add(i, new[i]) for i in part], gap_ms),
                "query": times([lambda i=i: sut.query(qs[i]) for i in part], gap_ms),
            }
            if sut.preview is not None:
                # Other questions: the ones above are in the embedding cache now.
                out["preview"] = times([lambda i=i: sut.preview(others[i]) for i in part], gap_ms)  # type: ignore[misc]
            print(json.dumps(out), file=reply, flush=True)


class Child:
    """One system's process, driven line by line."""

    def __init__(self, system: str, n: int, runs: int, log: Any, gap_ms: float = 0.0) -> None:
        cmd = [sys.executable, __file__, "--serve", system, "--n", str(n), "--runs", str(runs)]
        cmd += ["--gap-ms", str(gap_ms)]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True
        )

    def ask(self, **message: Any) -> dict[str, Any]:
        if message:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.flush()
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the child exited with {self.proc.wait()}")
        return dict(json.loads(line))


def run(systems: list[str], n: int, runs: int, rounds: int, gap_ms: float = 0.0) -> list[dict[str, Any]]:
    """Set each system up in turn (so builds do not compete), then time ``rounds`` rounds,
    each system taking its share of the calls in an order that rotates round by round."""
    with tempfile.TemporaryFile(mode="w+") as log:
        children: dict[str, Child] = {}
        try:
            rows = _rounds(systems, n, runs, rounds, log, children, gap_ms)
        except RuntimeError:
            log.seek(0)
            print(log.read()[-3000:], file=sys.stderr)
            raise
        finally:
            for child in children.values():
                if child.proc.poll() is None:
                    child.proc.kill()
    for row in rows:
        for key in ("add", "query", "preview"):
            if key in row:
                row[key] = p50_p95(row[key])
    return rows


def _rounds(
    systems: list[str],
    n: int,
    runs: int,
    rounds: int,
    log: Any,
    children: dict[str, Child],
    gap_ms: float = 0.0,
) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for system in systems:
        child = children[system] = Child(system, n, runs, log, gap_ms)
        rows[system] = {"system": system, **child.ask(), "add": [], "query": []}
    cuts = [runs * r // rounds for r in range(rounds + 1)]
    for r in range(rounds):
        for system in systems[r % len(systems) :] + systems[: r % len(systems)]:
            for key, values in children[system].ask(op="round", lo=cuts[r], hi=cuts[r + 1]).items():
                rows[system].setdefault(key, []).extend(values)
    for system, child in children.items():
        rows[system].update(child.ask(op="close"))
        child.proc.wait()
    return list(rows.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5, help="rounds the timed calls are split into")
    parser.add_argument("--serve", choices=SYSTEMS, help=argparse.SUPPRESS)
    parser.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS))
    parser.add_argument(
        "--gap-ms", type=float, default=0.0, help="pause before each timed call (an app's model call)"
    )
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.n, args.runs, args.gap_ms)
        return
    rows = run(args.systems, args.n, args.runs, max(1, min(args.rounds, args.runs)), args.gap_ms)
    for row in rows:
        print(
            f"{row['system']:<9} add/learn p50 {row['add'][0]:7.2f} ms"
            f"  query/augment p50 {row['query'][0]:7.2f} ms"
            f"  disk {row['disk_mb']:6.1f} MB  RSS added {row['rss_mb']:6.1f} MB",
            flush=True,
        )
    out = {
        "bench": "side_by_side",
        "n": args.n,
        "runs": args.runs,
        "rounds": args.rounds,
        "gap_ms": args.gap_ms,
        "results": rows,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()

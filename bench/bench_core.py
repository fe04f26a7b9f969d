"""Latency and size of the core loop at N stored memories.

    python bench/bench_core.py [--sizes 1000 3000 10000] [--runs 50]

For each N: a store file is filled with N realistic user facts (real MiniLM
vectors, written through the storage layer in one transaction so building
10k does not take 10k learn() calls), then a client opens it and times
``learn()`` (new, unseen messages: embedding cache misses) and ``augment()``
(new questions, 3 turns of history).  Also: cold ``init()`` in a fresh
process (import + model + store + index), and bytes per stored memory.
Prints p50/p95 in milliseconds and a JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lokulmem import LokulMem, ManualClock
from lokulmem.client import shared_minilm
from lokulmem.transfer import EXPORT_FORMAT, EXPORT_VERSION

NAMES = ["Maya", "Tom", "Priya", "Omar", "Lucy", "Jonas", "Aiko", "Diego", "Nina", "Sam"]
CITIES = ["Berlin", "Lisbon", "Oslo", "Kyoto", "Austin", "Nairobi", "Lyon", "Seoul", "Quito", "Perth"]
THINGS = [
    "jazz",
    "sushi",
    "chess",
    "hiking",
    "pottery",
    "tennis",
    "sci-fi novels",
    "opera",
    "board games",
    "sourdough",
    "cycling",
    "photography",
    "yoga",
    "climbing",
    "tea",
]
RELS = ["sister", "brother", "friend", "colleague", "cousin", "neighbour", "boss", "aunt"]
TEMPLATES = [
    "My {rel} {name} lives in {city}.",
    "I have been into {thing} since {year}.",
    "I visited {city} with {name} in {year}.",
    "My {rel} {name} loves {thing}.",
    "I prefer {thing} over {thing2} on weekends.",
    "I spent {n} hours on {thing} last week.",
    "{name} and I started a {thing} club in {city}.",
    "I want to learn more about {thing} before my trip to {city}.",
]


def fact(rng: random.Random, i: int) -> str:
    t = rng.choice(TEMPLATES)
    return (
        t.format(
            rel=rng.choice(RELS),
            name=rng.choice(NAMES),
            city=rng.choice(CITIES),
            thing=rng.choice(THINGS),
            thing2=rng.choice(THINGS),
            year=1990 + i % 35,
            n=2 + i % 40,
        )
        + f" (note {i})"
    )


#: When the benchmark stores' facts were told: a day before this run, so a store
#: opened with the system clock (or ``ManualClock(START_MS)``) holds fresh, active
#: memories.  (A fixed date here once left every fact faded by the time the
#: benchmarks ran, and recall searched an empty index.)
START_MS = time.time_ns() // 1_000_000 - 86_400_000


def build_store(path: Path, n: int, seed: int = 0, **options: object) -> None:
    """``n`` template facts, each its own message, through the public import path
    (an export document without vectors: import embeds content and message).
    ``options`` go to ``LokulMem`` (an ``encryption_passphrase``, say)."""
    rng = random.Random(seed)
    clock = ManualClock(START_MS)
    start = clock.now_ms()
    memories = [
        {
            "id": f"bench-{i}",
            "content": text,
            "types": ["preference"],
            "created_at": start + i,
            "updated_at": start + i,
            "last_accessed_at": start + i,
            "last_reinforced": start + i,
            "valid_from": start + i,
            "source_session": "bench",
            "source_turn": i,
            "source_text": text,
            "source_context": text,
        }
        for i, text in enumerate(fact(rng, i) for i in range(n))
    ]
    doc = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "memories": memories}
    # Closing the store checkpoints the WAL: the file size is the store's.
    with LokulMem(path=path, clock=clock, max_import_bytes=1 << 31, **options) as mem:  # type: ignore[arg-type]
        mem.manage().import_data(doc)


def timed_calls(calls: list[Callable[[], object]]) -> list[float]:
    """Milliseconds each call took, in order."""
    out = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def p50_p95(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p95": round(pct(values, 0.95), 2)}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


COLD = """
import sys, time
t = time.perf_counter()
from lokulmem import LokulMem
t_import = time.perf_counter()
m = LokulMem(path=sys.argv[1]); m.init()
t_end = time.perf_counter()
print(t_end - t, t_end - t_import)
"""


def bench(n: int, runs: int, workdir: Path) -> dict[str, float]:
    path = workdir / f"bench-{n}.sqlite"
    t = time.perf_counter()
    build_store(path, n)
    build_s = time.perf_counter() - t
    size = path.stat().st_size
    cold = []
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", COLD, str(path)], check=True, capture_output=True, text=True
        ).stdout.split()
        cold.append((float(out[0]), float(out[1])))
    rng = random.Random(1000 + n)
    with LokulMem(path=path) as mem:
        learn_ms: list[float] = []
        for i in range(runs):
            msg = (
                f"My {rng.choice(RELS)} {rng.choice(NAMES)} just moved to {rng.choice(CITIES)} "
                f"and I'm thinking about visiting in {2030 + i}."
            )
            t0 = time.perf_counter()
            mem.learn(msg, "That sounds great!")
            learn_ms.append((time.perf_counter() - t0) * 1000)
        aug_ms: list[float] = []
        history = [
            {"role": "user", "content": "Let's plan my week."},
            {"role": "assistant", "content": "Sure, what's on it?"},
            {"role": "user", "content": f"Some {rng.choice(THINGS)} and a call with my family."},
        ]
        for i in range(runs):
            q = f"What should I do with {rng.choice(NAMES)} in {rng.choice(CITIES)}, plan {i}?"
            t0 = time.perf_counter()
            mem.augment(q, history, debug=True)
            aug_ms.append((time.perf_counter() - t0) * 1000)
    return {
        "n": n,
        "build_s": round(build_s, 1),
        "learn_p50_ms": round(statistics.median(learn_ms), 2),
        "learn_p95_ms": round(pct(learn_ms, 0.95), 2),
        "augment_p50_ms": round(statistics.median(aug_ms), 2),
        "augment_p95_ms": round(pct(aug_ms, 0.95), 2),
        "cold_init_total_ms": round(statistics.median(c[0] for c in cold) * 1000, 1),
        "cold_init_after_import_ms": round(statistics.median(c[1] for c in cold) * 1000, 1),
        "bytes_per_memory": round(size / n),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000, 10000])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    shared_minilm().load()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            results.append(bench(n, args.runs, Path(tmp)))
            r = results[-1]
            print(
                f"N={r['n']:>6}  learn p50 {r['learn_p50_ms']:7.2f} ms  p95 {r['learn_p95_ms']:7.2f} ms | "
                f"augment p50 {r['augment_p50_ms']:7.2f} ms  p95 {r['augment_p95_ms']:7.2f} ms | "
                f"cold init {r['cold_init_total_ms']:6.0f} ms"
                f" (after import {r['cold_init_after_import_ms']:.0f})"
                f" | {r['bytes_per_memory']} B/memory | built in {r['build_s']} s",
                flush=True,
            )
    print(json.dumps({"bench": "core", "results": results}))


if __name__ == "__main__":
    main()

"""Streamed export and import of a large store: time and peak memory at N memories.

    python bench/bench_transfer.py [--sizes 20000 100000]

For each N: a store of N memories (realistic texts from ``bench_core.fact``,
random unit vectors: a transfer moves vectors, it does not compute them;
written through the storage layer in one transaction, with a knowledge-graph
edge per memory), then, each in a fresh process so its peak resident memory
is its own (``ru_maxrss``):

* ``export_to(path)`` of the store, and
* ``import_data(path)`` of that file into an empty store (vectors reused,
  one transaction).

Each process reports its resident memory after opening the store (model
loaded, index built; ``VmRSS``) and its peak (``ru_maxrss``); the
difference bounds what the transfer itself needed (from above: the peak may
be the model's loading).  Bounded memory means that difference does not grow with N.
Prints a line per N and a JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from lokulmem import Edge, LokulMem, ManualClock, Memory

sys.path.insert(0, str(Path(__file__).parent))
from bench_core import fact

CHILD = """
import json, resource, sys, time
from pathlib import Path
from lokulmem import LokulMem, ManualClock
kind, store, file = sys.argv[1], sys.argv[2], sys.argv[3]
def rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
def current_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
mem = LokulMem(path=store, executor="inline", clock=ManualClock())
mem.init()
base = current_mb()
t = time.perf_counter()
if kind == "export":
    n = mem.manage().export_to(file)
else:
    n = mem.manage().import_data(Path(file)).imported
seconds = time.perf_counter() - t
mem.close()
print(json.dumps({"n": n, "seconds": round(seconds, 1), "base_mb": round(base), "peak_mb": round(rss_mb())}))
"""


def build(path: Path, n: int) -> None:
    rng = random.Random(n)
    vecs = np.random.default_rng(n).standard_normal((n, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    clock = ManualClock()
    with LokulMem(path=path, executor="inline", clock=clock) as mem:
        storage = mem.storage
        now = clock.now_ms()
        with storage.transaction():
            for i in range(n):
                text = fact(rng, i)
                storage.insert_memory(
                    Memory(
                        id=f"m{i}",
                        content=text,
                        types=("preference",),
                        embedding=vecs[i],
                        created_at=now - i,
                        updated_at=now - i,
                        last_accessed_at=now - i,
                        last_reinforced=now - i,
                        valid_from=now - i,
                        source_context=text,
                        context_embedding=vecs[(i + 1) % n],
                        entities=("Maya",) if "Maya" in text else (),
                    )
                )
                if i:
                    storage.put_edge(
                        Edge(
                            id=f"m{i}__m{i - 1}",
                            from_id=f"m{i}",
                            to_id=f"m{i - 1}",
                            weight=0.8,
                            created_at=now,
                            last_updated=now,
                        )
                    )


def child(kind: str, store: Path, file: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(store), str(file)], check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            source, target, file = (
                Path(tmp) / f"s{n}.sqlite",
                Path(tmp) / f"t{n}.sqlite",
                Path(tmp) / f"e{n}.json",
            )
            t0 = time.perf_counter()
            build(source, n)
            built = time.perf_counter() - t0
            export = child("export", source, file)
            imported = child("import", target, file)
            r = {
                "n": n,
                "build_s": round(built),
                "file_mb": round(file.stat().st_size / 1e6),
                "export": export,
                "import": imported,
                "export_extra_mb": export["peak_mb"] - export["base_mb"],
                "import_extra_mb": imported["peak_mb"] - imported["base_mb"],
            }
            results.append(r)
            ex, im = export, imported
            print(
                f"N={n}: file {r['file_mb']} MB | export {ex['seconds']} s, resident {ex['base_mb']} MB, "
                f"peak {ex['peak_mb']} MB | import {im['seconds']} s, resident {im['base_mb']} MB, "
                f"peak {im['peak_mb']} MB",
                flush=True,
            )
            for p in (source, target, file):
                p.unlink()
    print(json.dumps({"bench": "transfer", "results": results}))


if __name__ == "__main__":
    main()

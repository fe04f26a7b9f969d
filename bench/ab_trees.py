"""Interleaved A/B of ``learn()`` and ``augment()`` between two source trees.

    git worktree add /tmp/base <commit>
    python bench/ab_trees.py /tmp/base/src src [--n 10000] [--rounds 10] [--calls 40] [--gap-ms 0]

Builds (once, under ``--workdir``) a store of ``n`` memories with
``bench_core.build_store``; then, for each round, runs each tree in its own
process (``PYTHONPATH`` = the tree) on a fresh copy of that store: 10 warm-up
calls of each verb, then ``--calls`` timed ``learn()`` and ``augment()`` calls
(the side-by-side benchmark's facts and questions, another seed each round).
The order of the two trees alternates between rounds, so drift on a shared
machine falls on both.  ``--gap-ms``: a pause before each timed call (an
application's model call comes between two calls; 0: back to back).
Prints one JSON line per tree: p50 and p95 (ms) of each verb.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HISTORY = [
    {"role": "user", "content": "Let's plan my week."},
    {"role": "assistant", "content": "Sure, what's on it?"},
    {"role": "user", "content": "Some jazz and a call with my family."},
]


def child(store: Path, seed: int, calls: int, gap_ms: float = 0.0) -> None:
    """One arm of one round (runs under the tree's ``PYTHONPATH``)."""
    from side_by_side import facts, questions

    from lokulmem import LokulMem

    out: dict[str, list[float]] = {"learn": [], "augment": []}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "store.sqlite"
        shutil.copy(store, path)
        with LokulMem(path=path, executor="inline") as mem:
            mem.init()
            for text in facts(10, seed=99):
                mem.learn(text, "Nice!")
            for q in questions(10, seed=98):
                mem.augment(q, HISTORY)
            for text in facts(calls, seed=seed):
                time.sleep(gap_ms / 1000)
                t0 = time.perf_counter()
                mem.learn(text, "Nice!")
                out["learn"].append((time.perf_counter() - t0) * 1000)
            for q in questions(calls, seed=seed + 1000):
                time.sleep(gap_ms / 1000)
                t0 = time.perf_counter()
                mem.augment(q, HISTORY)
                out["augment"].append((time.perf_counter() - t0) * 1000)
    print(json.dumps(out))


def p50_p95(values: list[float]) -> list[float]:
    ordered = sorted(values)
    return [round(statistics.median(ordered), 2), round(ordered[int(0.95 * (len(ordered) - 1))], 2)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, help="the first tree's src/ folder")
    ap.add_argument("new", type=Path, help="the second tree's src/ folder")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--calls", type=int, default=40)
    ap.add_argument("--gap-ms", type=float, default=0.0, help="pause before each timed call (ms)")
    ap.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "lokulmem-ab")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(Path(args.child[0]), int(args.child[1]), args.calls, args.gap_ms)
        return
    from bench_core import build_store

    args.workdir.mkdir(parents=True, exist_ok=True)
    store = args.workdir / f"store-{args.n}.sqlite"
    if not store.exists():
        build_store(store, args.n)
    arms = {"base": args.base.resolve(), "new": args.new.resolve()}
    times: dict[str, dict[str, list[float]]] = {a: {"learn": [], "augment": []} for a in arms}
    for r in range(args.rounds):
        order = list(arms) if r % 2 == 0 else list(arms)[::-1]
        for arm in order:
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(arms[arm]), str(HERE)]))
            cmd = [sys.executable, __file__, str(args.base), str(args.new), "--calls", str(args.calls)]
            cmd += ["--gap-ms", str(args.gap_ms)]
            cmd += ["--child", str(store), str(r)]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            for verb, values in json.loads(done.stdout.strip().splitlines()[-1]).items():
                times[arm][verb] += values
    for arm, by_verb in times.items():
        print(json.dumps({"tree": str(arms[arm]), **{verb: p50_p95(t) for verb, t in by_verb.items()}}))


if __name__ == "__main__":
    main()

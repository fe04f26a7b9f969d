"""Embedding latency with and without ONNX Runtime spinning (why
``MiniLMEmbedder(spin=False)`` is the default; docs/tuning.md entry 35).

    python bench/bench_spin.py [--runs 150] [--gap-ms 5]

For each of spin off / on: one sentence, then a sentence and its context in one
batch (what ``learn()`` embeds), back to back and with ``--gap-ms`` of Python
work before each call (a real ``learn()`` or ``augment()`` does other work
between model calls).  Prints medians (ms) as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

from side_by_side import facts

from lokulmem import MiniLMEmbedder


def busy(ms: float) -> None:
    """Keep this thread on a core for ``ms`` milliseconds."""
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


def timed(call: Callable[[], object], gap_ms: float) -> float:
    busy(gap_ms)
    t0 = time.perf_counter()
    call()
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=150)
    ap.add_argument("--gap-ms", type=float, default=5.0)
    args = ap.parse_args()
    texts = facts(3 * args.runs, seed=3)
    results: dict[str, float] = {}
    for spin in (False, True):
        model = MiniLMEmbedder(spin=spin)
        model.load()
        model.embed(texts[:5])
        for gap in (0.0, args.gap_ms):
            one, two = [], []
            for i in range(args.runs):
                one.append(timed(lambda m=model, i=i: m.embed([texts[i]]), gap))
                pair = [texts[args.runs + i], "Nice! " + texts[2 * args.runs + i]]
                two.append(timed(lambda m=model, p=pair: m.embed(p), gap))
            key = f"spin={'on' if spin else 'off'} gap={gap:g}ms"
            results[f"{key} one sentence"] = round(statistics.median(one), 2)
            results[f"{key} sentence+context"] = round(statistics.median(two), 2)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

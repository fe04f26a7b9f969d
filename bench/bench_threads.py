"""Embedding latency beside numpy's BLAS threads (why ``Config.blas_threads`` is 1).

    python bench/bench_threads.py [--n 10000] [--runs 300]

Each run embeds one short question with the built-in model, then multiplies
an ``n`` × 384 float32 matrix by its vector (what exact search does), as
``augment()`` does.  Three ways: the embedding alone; alternated with the
product, BLAS left at its default thread count; alternated, the product run
with BLAS on one thread (``threadpoolctl``, as lokulmem does during its
calls).  Prints medians (ms) of the embedding and of the product.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from threadpoolctl import ThreadpoolController

from lokulmem import MiniLMEmbedder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=300)
    args = ap.parse_args()
    model = MiniLMEmbedder()
    model.load()
    matrix = np.random.default_rng(0).random((args.n, 384), dtype=np.float32)
    controller = ThreadpoolController()
    questions = [f"What should I do with Maya in Austin, plan {i}?" for i in range(args.runs)]
    results = {}
    for way in ("embedding alone", "with BLAS default", "with BLAS on 1 thread"):
        embed_ms, product_ms = [], []
        for q in questions:
            t0 = time.perf_counter()
            vec = model.embed([q])[0]
            t1 = time.perf_counter()
            if way == "with BLAS default":
                np.argpartition(-(matrix @ vec), 50)
            elif way == "with BLAS on 1 thread":
                with controller.limit(limits=1, user_api="blas"):
                    np.argpartition(-(matrix @ vec), 50)
            embed_ms.append((t1 - t0) * 1000)
            product_ms.append((time.perf_counter() - t1) * 1000)
        skip = len(questions) // 6  # warm-up
        results[way] = {
            "embed_p50_ms": round(statistics.median(embed_ms[skip:]), 2),
            "product_p50_ms": round(statistics.median(product_ms[skip:]), 2),
        }
        print(f"{way:<24} embed p50 {results[way]['embed_p50_ms']:6.2f} ms   product p50 "
              f"{results[way]['product_p50_ms']:5.2f} ms", flush=True)  # fmt: skip
    print(json.dumps({"bench": "threads", "n": args.n, "blas": controller.info(), "results": results}))


if __name__ == "__main__":
    main()

"""What encryption at rest costs: the same store plain and encrypted, at N memories.

    python bench/bench_crypto.py [--n 10000] [--runs 30] [--rounds 3]

Builds one store of N realistic facts (``bench_core.build_store``), copies it
and encrypts the copy with ``change_passphrase()`` (timed: re-sealing N
memories and vacuuming), then alternates the two stores ``--rounds`` times
(this machine is shared and noisy): open (``init()`` with the model already
loaded: PBKDF2 at ``pbkdf2_iterations`` plus the in-memory full-text index),
``learn()`` of new messages, ``augment()`` with 3 turns of history, and
``manage().search()``.  Prints medians and the encrypted/plain ratios, then a
JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lokulmem import LokulMem, ManualClock
from lokulmem.client import shared_minilm

sys.path.insert(0, str(Path(__file__).parent))
from bench_core import CITIES, NAMES, RELS, START_MS, THINGS, build_store

PASSPHRASE = "bench passphrase"


def _timed(fn, *args, **kwargs) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn(*args, **kwargs)
    return (time.perf_counter() - t0) * 1000


def one_round(path: Path, runs: int, seed: int, **options: object) -> dict[str, list[float]]:
    rng = random.Random(seed)
    out: dict[str, list[float]] = {"open": [], "learn": [], "augment": [], "search": []}
    mem = LokulMem(path=path, clock=ManualClock(START_MS), executor="inline", **options)  # type: ignore[arg-type]
    out["open"].append(_timed(mem.init))
    history = [
        {"role": "user", "content": "Let's plan my week."},
        {"role": "assistant", "content": "Sure, what's on it?"},
        {"role": "user", "content": f"Some {rng.choice(THINGS)} and a call with my family."},
    ]
    for i in range(runs):
        msg = f"My {rng.choice(RELS)} {rng.choice(NAMES)} just moved to {rng.choice(CITIES)} in {2030 + i}."
        out["learn"].append(_timed(mem.learn, msg, "That sounds great!"))
        q = f"What should I do with {rng.choice(NAMES)} in {rng.choice(CITIES)}, plan {i}?"
        out["augment"].append(_timed(mem.augment, q, history))
        out["search"].append(_timed(mem.manage().search, f"{rng.choice(THINGS)} {rng.choice(CITIES)}"))
    mem.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    shared_minilm().load()
    with tempfile.TemporaryDirectory() as tmp:
        plain, sealed = Path(tmp) / "plain.sqlite", Path(tmp) / "sealed.sqlite"
        t0 = time.perf_counter()
        build_store(plain, args.n)
        print(f"built {args.n} memories in {time.perf_counter() - t0:.0f} s", flush=True)
        shutil.copy(plain, sealed)
        with LokulMem(path=sealed, clock=ManualClock(START_MS), executor="inline") as mem:
            rekey_ms = _timed(mem.change_passphrase, PASSPHRASE)
        sizes = {"plain": plain.stat().st_size, "encrypted": sealed.stat().st_size}
        times: dict[str, dict[str, list[float]]] = {"plain": {}, "encrypted": {}}
        for r in range(args.rounds):
            for name, path, opts in (
                ("plain", plain, {}),
                ("encrypted", sealed, {"encryption_passphrase": PASSPHRASE}),
            ):
                for k, v in one_round(path, args.runs, 1000 + r, **opts).items():
                    times[name].setdefault(k, []).extend(v)
    medians = {name: {k: round(statistics.median(v), 2) for k, v in t.items()} for name, t in times.items()}
    ratios = {k: round(medians["encrypted"][k] / medians["plain"][k], 2) for k in medians["plain"]}
    for k in medians["plain"]:
        plain_ms, sealed_ms = medians["plain"][k], medians["encrypted"][k]
        print(f"{k:8s} plain p50 {plain_ms:8.2f} ms  encrypted p50 {sealed_ms:8.2f} ms  x{ratios[k]:.2f}")
    print(f"encrypting {args.n} memories (change_passphrase, with VACUUM): {rekey_ms:.0f} ms")
    print(f"file size: plain {sizes['plain']:,} B, encrypted {sizes['encrypted']:,} B")
    result = {"bench": "crypto", "n": args.n, "medians_ms": medians, "ratios": ratios}
    print(json.dumps({**result, "rekey_ms": round(rekey_ms), "bytes": sizes}))


if __name__ == "__main__":
    main()

"""Concurrency proof: many processes on one store, and the async client under many tasks.

    python bench/concurrency.py [--writers 8] [--learns 500] [--mutators 2] [--readers 2]
                                [--tasks 200] [--encrypted]

Processes: ``--writers`` processes each ``learn()`` ``--learns`` distinct facts
(each fact names its writer and number), while ``--mutators`` processes pin,
unpin, archive and unarchive random memories through ``manage()`` and
``--readers`` processes ``augment()`` and ``search()``, all on one store
file, all at once.  Every call's exception (if any) is counted.  Afterwards:
every fact a writer was told was stored is there exactly once (no loss, no
duplicate), the store holds no fact nobody wrote, ``PRAGMA integrity_check``
is ok.

Async: one ``AsyncLokulMem`` runs ``--tasks`` concurrent tasks (learn,
augment, search, list, pin) with ``asyncio.gather``; every task completes,
none raises, every learned fact is there once.

Prints the counts and a JSON line; exit status 1 on any failure.
``tests/test_concurrency.py`` runs a short version.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bench_core import CITIES, RELS, THINGS

PASSPHRASE = "concurrency passphrase"
_FACT = re.compile(r"Ctest(\d+)x(\d+)")


def _options(encrypted: bool) -> dict[str, Any]:
    return {"encryption_passphrase": PASSPHRASE, "pbkdf2_iterations": 100_000} if encrypted else {}


def _fact(writer: int, i: int) -> str:
    """A distinct fact (a restatement would be merged, as it should, and prove nothing)."""
    rng = random.Random(writer * 100_003 + i)
    return (
        f"My {rng.choice(RELS)} Ctest{writer}x{i} moved to {rng.choice(CITIES)} in {1950 + i % 70} "
        f"and loves {rng.choice(THINGS)}."
    )


# -- the processes ----------------------------------------------------------------------


def role(kind: str, store: Path, index: int, count: int, encrypted: bool) -> dict[str, Any]:
    from lokulmem import LokulMem

    rng = random.Random(index)
    errors: list[str] = []
    stored: list[str] = []
    done = 0
    with LokulMem(path=store, executor="inline", **_options(encrypted)) as mem:
        m = mem.manage()
        for i in range(count):
            try:
                if kind == "writer":
                    r = mem.learn(_fact(index, i), force_extract=True, session_id=f"w{index}")
                    stored.extend(x.content for x in r.extracted)
                elif kind == "mutator":
                    ids = [x.id for x in m.get_recent(20)]
                    if ids:
                        pick = rng.choice(ids)
                        getattr(m, rng.choice(["pin", "unpin", "archive", "unarchive"]))(pick)
                else:
                    thing = rng.choice(THINGS)
                    mem.augment(f"Who loves {thing}?", [])
                    m.search(thing)
                done += 1
            except Exception as exc:  # counted and reported: the proof is that there are none
                if type(exc).__name__ == "MemoryNotFoundError":  # a writer's fact was just superseded
                    done += 1
                    continue
                errors.append(f"{type(exc).__name__}: {exc}")
    return {"kind": kind, "index": index, "done": done, "errors": errors, "stored": stored}


def _spawn(kind: str, store: Path, index: int, count: int, encrypted: bool) -> subprocess.Popen[str]:
    cmd = [sys.executable, str(Path(__file__)), "--role", kind, str(store), str(index), str(count)]
    if encrypted:
        cmd.append("--encrypted")
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def processes(
    store: Path, *, writers: int, learns: int, mutators: int, readers: int, encrypted: bool
) -> dict[str, Any]:
    from lokulmem import LokulMem

    with LokulMem(path=store, executor="inline", **_options(encrypted)) as mem:
        mem.learn("I like green tea.", force_extract=True)  # the store exists before the crowd arrives
    procs = [_spawn("writer", store, w, learns, encrypted) for w in range(writers)]
    procs += [_spawn("mutator", store, 100 + i, learns, encrypted) for i in range(mutators)]
    procs += [_spawn("reader", store, 200 + i, learns // 5, encrypted) for i in range(readers)]
    results, crashed = [], []
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            crashed.append(err[-800:])
            continue
        results.append(json.loads(out.strip().splitlines()[-1]))
    told = Counter(c for r in results for c in r["stored"])
    with LokulMem(path=store, executor="inline", **_options(encrypted)) as mem:
        contents = Counter(x.content for x in mem.manage().list() if _FACT.search(x.content))
    conn = sqlite3.connect(store)
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    conn.close()
    lost = [c for c in told if contents[c] == 0]
    duplicated = [c for c, n in contents.items() if n > 1]
    unwritten = [c for c in contents if c not in told]
    return {
        "processes": len(procs),
        "calls": sum(r["done"] for r in results),
        "errors": [e for r in results for e in r["errors"]][:10],
        "error_count": sum(len(r["errors"]) for r in results),
        "crashed": crashed,
        "facts_told_stored": len(told),
        "facts_in_store": sum(contents.values()),
        "lost": lost[:5],
        "duplicated": duplicated[:5],
        "unwritten": unwritten[:5],
        "integrity": integrity,
    }


# -- the async client -------------------------------------------------------------------


async def _tasks(store: Path, tasks: int, encrypted: bool) -> dict[str, Any]:
    from lokulmem import AsyncLokulMem

    async with AsyncLokulMem(path=store, executor="inline", **_options(encrypted)) as mem:
        m = mem.manage()

        async def one(i: int) -> tuple[str, list[str]]:
            kind = ("learn", "learn", "augment", "search", "list", "pin")[i % 6]
            if kind == "learn":
                r = await mem.learn(_fact(9000, i), force_extract=True, session_id="async")
                return kind, [x.content for x in r.extracted]
            if kind == "augment":
                await mem.augment("Who loves jazz?", [])
            elif kind == "search":
                await m.search("jazz")
            elif kind == "list":
                await m.list(limit=20)
            else:
                recent = await m.get_recent(1)
                if recent:
                    await m.pin(recent[0].id)
            return kind, []

        t0 = time.perf_counter()
        outcomes = await asyncio.gather(*(one(i) for i in range(tasks)), return_exceptions=True)
        seconds = time.perf_counter() - t0
        errors = [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
        told = Counter(c for o in outcomes if not isinstance(o, BaseException) for c in o[1])
        listed = await m.list()
        contents = Counter(x.content for x in listed if "Ctest9000x" in x.content)
    return {
        "tasks": tasks,
        "completed": tasks - len(errors),
        "errors": errors[:10],
        "seconds": round(seconds, 1),
        "lost": [c for c in told if contents[c] == 0][:5],
        "duplicated": [c for c, n in contents.items() if n > 1][:5],
        "facts": sum(contents.values()),
    }


def run(
    workdir: Path,
    *,
    writers: int = 8,
    learns: int = 500,
    mutators: int = 2,
    readers: int = 2,
    tasks: int = 200,
    encrypted: bool = False,
) -> dict[str, Any]:
    procs = processes(
        workdir / "shared.sqlite",
        writers=writers,
        learns=learns,
        mutators=mutators,
        readers=readers,
        encrypted=encrypted,
    )
    async_ = asyncio.run(_tasks(workdir / "async.sqlite", tasks, encrypted))
    return {"processes": procs, "async": async_, "encrypted": encrypted}


def failed(result: dict[str, Any]) -> bool:
    p, a = result["processes"], result["async"]
    return bool(
        p["error_count"]
        or p["crashed"]
        or p["lost"]
        or p["duplicated"]
        or p["unwritten"]
        or p["integrity"] != "ok"
        or a["errors"]
        or a["lost"]
        or a["duplicated"]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--learns", type=int, default=500)
    parser.add_argument("--mutators", type=int, default=2)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--tasks", type=int, default=200)
    parser.add_argument("--encrypted", action="store_true")
    parser.add_argument("--role", nargs=4, metavar=("KIND", "STORE", "INDEX", "COUNT"))
    args = parser.parse_args(argv)
    if args.role:
        kind, store, index, count = args.role
        print(json.dumps(role(kind, Path(store), int(index), int(count), args.encrypted)))
        return 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        result = run(
            Path(tmp),
            writers=args.writers,
            learns=args.learns,
            mutators=args.mutators,
            readers=args.readers,
            tasks=args.tasks,
            encrypted=args.encrypted,
        )
    result["seconds"] = round(time.perf_counter() - t0)
    p, a = result["processes"], result["async"]
    print(
        f"{p['processes']} processes, {p['calls']} calls, {p['error_count']} errors, "
        f"{p['facts_told_stored']} facts stored as told, {p['facts_in_store']} in the store, "
        f"{len(p['lost'])} lost, {len(p['duplicated'])} duplicated, integrity {p['integrity']}"
    )
    done, errs = f"{a['completed']}/{a['tasks']}", len(a["errors"])
    print(f"async: {done} tasks, {errs} errors, {a['facts']} facts, {a['seconds']} s")
    print(json.dumps(result))
    return 1 if failed(result) else 0


if __name__ == "__main__":
    sys.exit(main())

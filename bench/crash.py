"""Crash proof: writer processes SIGKILLed at random points, the store checked after each kill.

    python bench/crash.py [--kills 1000] [--encrypted] [--seed 0]

A writer process opens one store and loops over random operations —
``learn()``, bulk ``manage()`` operations (``archive_many``, ``pin_many``,
``delete_many``), ``import_data()`` of a small memory pack, and
``maintenance()`` with the sweep and clustering forced — appending one
*acknowledgement* line per call that returned (``ack`` below) to a file.
The parent kills it with SIGKILL after a random delay (the kill lands
anywhere: inside a transaction, an import, a VACUUM-free commit, the
clustering pass), then checks the store:

* ``PRAGMA integrity_check`` is ``ok`` and the full-text index agrees with
  its table (FTS5 ``integrity-check``, plain stores);
* every acknowledged write is there: a learned or imported memory exists
  unless a later delete was attempted on it (the writer logs its intent before
  each delete: one killed after its commit but before its acknowledgement may
  or may not have happened), and an acknowledged delete is not undone;
* no memory is half-written: each row has its vector, its ``memory_types``
  rows and its full-text row; no ``memory_types`` or edge row points at a
  missing memory;
* the store opens through ``LokulMem`` and its in-memory vector index holds
  exactly the active memories with vectors, and a semantic search finds a
  recently acknowledged fact.

Prints the counts and a JSON line; exit status 1 on any failure.
``tests/test_crash.py`` runs a short version.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PASSPHRASE = "crash passphrase"
#: Seconds the writer needs to be ready (model and store) varies; kills land after "ready".
READY_TIMEOUT_S = 120.0


# -- the writer -------------------------------------------------------------------------


def _ack(out: Any, kind: str, ids: list[str], note: str = "") -> None:
    out.write(json.dumps({"op": kind, "ids": ids, "note": note}) + "\n")
    out.flush()  # the OS keeps it across a SIGKILL of this process


def writer(store: Path, acks: Path, seed: int, encrypted: bool) -> None:
    from lokulmem import LokulMem

    rng = random.Random(seed)
    options: dict[str, Any] = {"encryption_passphrase": PASSPHRASE} if encrypted else {}
    with (
        LokulMem(path=store, executor="inline", pbkdf2_iterations=100_000, **options) as mem,
        acks.open("a") as out,
    ):
        m = mem.manage()
        print("ready", flush=True)
        known: list[str] = [x.id for x in m.list(limit=400)]
        step = 0
        while True:
            step += 1
            tag = f"{seed}-{step}"
            op = rng.choices(["learn", "bulk", "import", "maintain"], weights=[6, 2, 1, 1])[0]
            if op == "learn":
                text = f"My colleague Crashtest{tag} collects {rng.choice(['stamps', 'coins', 'maps'])}."
                r = mem.learn(text, force_extract=True, session_id=f"s{seed}")
                ids = [x.id for x in r.extracted]
                known.extend(ids)
                _ack(out, "learn", ids, f"Crashtest{tag}")
            elif op == "bulk" and known:
                pick = rng.sample(known, min(len(known), rng.randint(1, 5)))
                action = rng.choice(["archive_many", "pin_many", "delete_many"])
                if action == "delete_many":
                    # Intent first: a delete that commits but is killed before its
                    # acknowledgement may or may not have happened.
                    _ack(out, "deleting", pick)
                getattr(m, action)(pick)
                if action == "delete_many":
                    known = [k for k in known if k not in pick]
                _ack(out, "delete" if action == "delete_many" else action, pick)
            elif op == "import":
                keys = [f"k{tag}-{i}" for i in range(3)]
                pack = {
                    "name": f"pack {tag}",
                    "memories": [{"key": k, "value": f"User owns {k}."} for k in keys],
                }
                m.import_data(pack, merge=True)
                found = mem.storage.ids_by_key(keys)
                _ack(out, "import", [i for k in keys for i in found.get(k, [])], tag)
            else:
                mem.maintenance(sweep=True, cluster=True)
                _ack(out, "maintain", [])


# -- the checks -------------------------------------------------------------------------


@dataclass
class Check:
    failures: list[str] = field(default_factory=list)
    acked_present: int = 0
    acked_deleted: int = 0
    memories: int = 0


def _expected(acks: Path) -> tuple[set[str], set[str], list[tuple[str, list[str]]]]:
    """The memories that must be there, those that must not, and each acknowledged
    learn's note with its memory ids."""
    present: set[str] = set()
    deleted: set[str] = set()
    notes: list[tuple[str, list[str]]] = []
    if not acks.exists():
        return present, deleted, notes
    for line in acks.read_text().splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by the kill was never acknowledged
        if rec["op"] in ("learn", "import"):
            present.update(rec["ids"])
            deleted.difference_update(rec["ids"])
            if rec["op"] == "learn" and rec["ids"]:
                notes.append((rec["note"], rec["ids"]))
        elif rec["op"] in ("delete", "deleting"):  # an attempted delete lifts the promise
            present.difference_update(rec["ids"])
            if rec["op"] == "delete":
                deleted.update(rec["ids"])
    return present, deleted, notes


def check_file(store: Path, acks: Path, encrypted: bool) -> Check:
    """The file-level checks (sqlite3 only, no lokulmem)."""
    result = Check()
    conn = sqlite3.connect(store)
    try:
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if ok != "ok":
            result.failures.append(f"integrity_check: {ok}")
        has_fts = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memories_fts'").fetchone()
        if has_fts:
            try:
                conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')")
            except sqlite3.DatabaseError as exc:
                result.failures.append(f"fts integrity-check: {exc}")
            missing_fts = conn.execute(
                "SELECT count(*) FROM memories m WHERE NOT EXISTS "
                "(SELECT 1 FROM memories_fts f WHERE f.rowid = m.rowid)"
            ).fetchone()[0]
            if missing_fts:
                result.failures.append(f"{missing_fts} memories without a full-text row")
        elif not encrypted:
            result.failures.append("a plain store lost its full-text index")
        ids = {r[0] for r in conn.execute("SELECT id FROM memories")}
        result.memories = len(ids)
        half = conn.execute(
            "SELECT count(*) FROM memories WHERE embedding IS NULL "
            "OR NOT EXISTS (SELECT 1 FROM memory_types t WHERE t.memory_id = memories.id)"
        ).fetchone()[0]
        if half:
            result.failures.append(f"{half} half-written memories (no vector or no types)")
        orphans = conn.execute(
            "SELECT (SELECT count(*) FROM memory_types WHERE memory_id NOT IN (SELECT id FROM memories))"
            " + (SELECT count(*) FROM edges WHERE from_id NOT IN (SELECT id FROM memories)"
            "    OR to_id NOT IN (SELECT id FROM memories))"
        ).fetchone()[0]
        if orphans:
            result.failures.append(f"{orphans} type or edge rows of missing memories")
    finally:
        conn.close()
    present, deleted, _ = _expected(acks)
    lost = present - ids
    back = deleted & ids
    result.acked_present, result.acked_deleted = len(present), len(deleted)
    if lost:
        result.failures.append(f"{len(lost)} acknowledged memories lost, e.g. {sorted(lost)[:3]}")
    if back:
        result.failures.append(f"{len(back)} acknowledged deletes undone, e.g. {sorted(back)[:3]}")
    return result


def check_open(store: Path, acks: Path, encrypted: bool, embedder: Any) -> list[str]:
    """Open through lokulmem: the index rebuilds consistently and finds a recent fact."""
    from lokulmem import LokulMem

    failures: list[str] = []
    options: dict[str, Any] = {"encryption_passphrase": PASSPHRASE} if encrypted else {}
    with LokulMem(path=store, executor="inline", embedder=embedder, **options) as mem:
        engine = mem.engine
        active = mem.storage.count_memories("active")
        if len(engine.index) != active:
            failures.append(f"index holds {len(engine.index)} vectors for {active} active memories")
        present, _, notes = _expected(acks)
        # The latest acknowledged fact no delete was tried on: search must find it.
        kept = [note for note, ids in notes if set(ids) <= present]
        if kept and not mem.manage().search(kept[-1]):
            failures.append(f"full-text search misses the acknowledged {kept[-1]}")
    return failures


# -- the loop ---------------------------------------------------------------------------


def _start(store: Path, acks: Path, seed: int, encrypted: bool) -> subprocess.Popen[str]:
    cmd = [sys.executable, str(Path(__file__)), "--worker", str(store), str(acks), str(seed)]
    if encrypted:
        cmd.append("--encrypted")
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run(
    kills: int, *, workdir: Path, seed: int = 0, encrypted: bool = False, max_delay_s: float = 1.5
) -> dict[str, Any]:
    from lokulmem.client import shared_minilm

    embedder = shared_minilm()
    embedder.load()
    rng = random.Random(seed)
    store, acks = workdir / "crash.sqlite", workdir / "acks.jsonl"
    failures: list[str] = []
    last = Check()
    survived = 0
    for k in range(kills):
        proc = _start(store, acks, seed * 100_000 + k, encrypted)
        assert proc.stdout is not None
        deadline = time.monotonic() + READY_TIMEOUT_S
        line = proc.stdout.readline()
        if line.strip() != "ready" or time.monotonic() > deadline:
            err = proc.stderr.read() if proc.stderr else ""
            proc.kill()
            failures.append(f"kill {k}: the writer did not start: {line!r} {err[-500:]}")
            break
        time.sleep(rng.uniform(0.0, max_delay_s))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        last = check_file(store, acks, encrypted)
        problems = last.failures + check_open(store, acks, encrypted, embedder)
        if problems:
            failures.extend(f"kill {k}: {p}" for p in problems)
        else:
            survived += 1
    return {
        "kills": kills,
        "survived": survived,
        "failures": failures[:20],
        "failure_count": len(failures),
        "memories": last.memories,
        "acknowledged_present": last.acked_present,
        "acknowledged_deleted": last.acked_deleted,
        "encrypted": encrypted,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--encrypted", action="store_true")
    parser.add_argument("--worker", nargs=3, metavar=("STORE", "ACKS", "SEED"))
    args = parser.parse_args(argv)
    if args.worker:
        store, acks, seed = args.worker
        writer(Path(store), Path(acks), int(seed), args.encrypted)
        return 0
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        result = run(args.kills, workdir=Path(tmp), seed=args.seed, encrypted=args.encrypted)
    result["seconds"] = round(time.perf_counter() - t0)
    for f in result["failures"]:
        print("FAIL", f)
    print(
        f"{result['survived']}/{result['kills']} kills survived; {result['memories']} memories, "
        f"{result['acknowledged_present']} acknowledged present, {result['acknowledged_deleted']} deleted"
    )
    print(json.dumps(result))
    return 0 if result["failure_count"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

"""Several processes on one store: cross-process reads, 4 concurrent writers, the maintenance lease."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lokulmem import LokulMem, MiniLMEmbedder

WRITER = """
import sys
from lokulmem import LokulMem
with LokulMem(path=sys.argv[1]) as mem:
    r = mem.learn("My daughter Emma plays the cello in the school orchestra.", "Lovely!")
    assert r.extracted, r.decisions
"""

READER = """
import json, sys
from lokulmem import LokulMem
with LokulMem(path=sys.argv[1]) as mem:
    r = mem.augment("What instrument does my kid play?", [], debug=True)
    print(json.dumps([{"content": i.memory.content, "score": i.score,
                       "parts": [i.score_breakdown.semantic, i.score_breakdown.recency,
                                 i.score_breakdown.strength, i.score_breakdown.continuity,
                                 i.score_breakdown.cluster, i.score_breakdown.lexical]}
                      for i in r.debug.injected]))
"""

PINNER = """
import sys
from lokulmem import LokulMem
with LokulMem(path=sys.argv[1]) as mem:
    mem.manage().pin(sys.argv[2])
"""


@pytest.mark.slow
def test_cross_process_learn_then_augment(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    store = tmp_path / "shared.sqlite"
    # This process holds the store open the whole time, as a running app would.
    with LokulMem(path=store, embedder=embedder) as here:
        here.learn("I live in Lyon.", "")
        subprocess.run([sys.executable, "-c", WRITER, str(store)], check=True, timeout=120)
        out = subprocess.run(
            [sys.executable, "-c", READER, str(store)],
            check=True,
            timeout=120,
            capture_output=True,
            text=True,
        ).stdout
        injected = json.loads(out.strip().splitlines()[-1])
        assert injected and "cello" in injected[0]["content"]
        for inj in injected:
            assert abs(sum(inj["parts"]) - inj["score"]) < 1e-9
        # The long-lived process sees the other process's write before searching.
        r = here.augment("What instrument does my kid play?", [], debug=True)
        assert r.debug is not None and "cello" in r.debug.injected[0].memory.content
        # An update by another process replaces this process's cached record.
        lyon = next(m for m in here.manage().list() if "Lyon" in m.content)
        here.augment("Where do I live?", [])  # caches the Lyon record
        subprocess.run([sys.executable, "-c", PINNER, str(store), lyon.id], check=True, timeout=120)
        r = here.augment("Where do I live?", [], debug=True)
        assert r.debug is not None
        got = next(i.memory for i in r.debug.injected if i.memory.id == lyon.id)
        assert got.pinned


WORKER = """
import json, sys, time
from lokulmem import LokulMem
path, w, go = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = ["Ava", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun"]
things = ["bikes", "cameras", "clocks", "lamps"]
errors = []
with LokulMem(path=path) as mem:
    import os
    while not os.path.exists(go):
        time.sleep(0.01)
    for i in range(200):
        text = f"My colleague {names[i % 10]} from team {w * 1000 + i} owns {i + 2} vintage {things[w]}."
        try:
            r = mem.learn(text, session_id=f"worker-{w}")
            if not r.extracted:
                errors.append(f"not stored: {text} {[d.outcome for d in r.decisions]}")
        except Exception as exc:  # any locking error would land here
            errors.append(repr(exc))
print(json.dumps(errors))
"""

FIFTH = """
import json, sys
from lokulmem import LokulMem
with LokulMem(path=sys.argv[1]) as mem:
    out = {}
    for thing in ["bikes", "cameras", "clocks", "lamps"]:
        r = mem.augment(f"Which colleague owns vintage {thing}?", [], debug=True)
        out[thing] = [i.memory.content for i in r.debug.injected]
    print(json.dumps(out))
"""


@pytest.mark.slow
def test_four_processes_learn_200_facts_each_at_once(tmp_path: Path) -> None:
    store, go = tmp_path / "shared.sqlite", tmp_path / "go"
    LokulMem(path=store, executor="inline").init()  # create the store once
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(store), str(w), str(go)], stdout=subprocess.PIPE, text=True
        )
        for w in range(4)
    ]
    go.touch()  # all four start writing together
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    for out in outs:
        assert json.loads(out.strip().splitlines()[-1]) == []  # no locking error, every fact stored
    with LokulMem(path=store, executor="inline") as mem:
        contents = [m.content for m in mem.manage().list()]
    assert len(contents) == 800
    for w in range(4):
        for i in range(200):
            assert sum(f"team {w * 1000 + i} " in c for c in contents) == 1
    found = json.loads(
        subprocess.run(
            [sys.executable, "-c", FIFTH, str(store)], check=True, capture_output=True, text=True, timeout=120
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    for thing, injected in found.items():
        assert any(thing in c for c in injected), (thing, injected)


HANGER = """
import sys, time
import lokulmem.maintenance as maint
from lokulmem import LokulMem

def hang(*args, **kwargs):
    print("IN_SWEEP", flush=True)
    time.sleep(120)

mem = LokulMem(path=sys.argv[1], executor="inline", lease_ttl_seconds=float(sys.argv[2]))
mem.init()
maint.plan_sweep = hang
mem.maintenance()
"""


@pytest.mark.slow
def test_lease_of_a_killed_process_is_taken_over_after_expiry(
    tmp_path: Path, embedder: MiniLMEmbedder
) -> None:
    import sqlite3
    import time

    store, ttl = tmp_path / "lease.sqlite", 2.0
    with LokulMem(path=store, embedder=embedder, executor="inline", lease_ttl_seconds=ttl) as mem:
        mem.learn("I prefer oat milk lattes.")
        proc = subprocess.Popen(
            [sys.executable, "-c", HANGER, str(store), str(ttl)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "IN_SWEEP"
        killed_at = time.time()
        proc.kill()  # SIGKILL in the middle of the sweep, lease held
        proc.wait(timeout=30)
        blocked = mem.maintenance()
        assert not blocked.ran and blocked.skipped_reason == "lease held by another process"
        time.sleep(max(0.0, killed_at + ttl + 0.2 - time.time()))
        assert mem.maintenance().ran
    conn = sqlite3.connect(store)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


INITER = """
import os, sys, time
from lokulmem import LokulMem
path, go = sys.argv[1], sys.argv[2]
mem = LokulMem(path=path, executor="inline")
while not os.path.exists(go):
    time.sleep(0.005)
mem.init()
mem.close()
"""


@pytest.mark.slow
def test_two_processes_initialising_at_once_sweep_once(tmp_path: Path) -> None:
    from lokulmem.maintenance import SWEEP_COUNT

    store, go = tmp_path / "twice.sqlite", tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", INITER, str(store), str(go)]) for _ in range(2)]
    time.sleep(1.5)  # both processes have imported lokulmem and loaded the model
    go.touch()
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with LokulMem(path=store, executor="inline") as mem:
        assert mem.storage.get_meta(SWEEP_COUNT) == "1"

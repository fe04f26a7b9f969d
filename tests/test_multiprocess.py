"""A fact learned in one process is injected by augment() in another."""

import json
import subprocess
import sys
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
                                 i.score_breakdown.cluster]} for i in r.debug.injected]))
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

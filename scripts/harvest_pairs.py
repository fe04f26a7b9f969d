"""Harvest the pairs stage 3b of the contradiction pipeline would score, from consistent conversations.

    python scripts/harvest_pairs.py scripts/data/consistent_conversations.jsonl \
        /tmp/lokulmem-train/consistent.npz

Each line of the input is ``{"id": ..., "turns": [user message, ...]}``: one
person talking about their life over weeks, written so that no turn
contradicts another (``scripts/data/consistent_conversations.jsonl``, written
by the team for this purpose).  Every conversation is replayed through
``learn()`` into a fresh store (a day passes every five turns) with the rules
only; each time the rules leave a new fact open, the stored facts stage 3b
would score against it (at least ``--floor`` similar, embedded, not the same
attribute value) are recorded.  These are related, compatible facts by one
person, the negatives the pair head needs most and DECODE lacks: a head
trained without them fires on elaborations ("User has played basketball
since childhood." / "User is grateful for User's basketball career.").

Output: an ``.npz`` with ``sample``, ``old``, ``new`` (fact texts), ``uo``,
``un`` (their unit vectors) and ``sim``, read by
``scripts/train_contradiction.py --negatives``.  The recording wraps the
pipeline's stage 3b function (this script only; the product is untouched).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import lokulmem.contradiction as pipeline  # noqa: E402  (after the path is set)
from lokulmem import LokulMem, ManualClock  # noqa: E402
from lokulmem.client import shared_minilm  # noqa: E402

TURNS_PER_DAY = 5


class Recorder:
    """Stands in for stage 3b: records the pool it would score, decides nothing."""

    def __init__(self) -> None:
        self.sample = ""
        self.rows: list[tuple[str, str, str, np.ndarray, np.ndarray, float]] = []

    def __call__(
        self, current: Any, content: str, attribute: Any, vector: Any, head: Any, marker: Any, config: Any
    ) -> None:
        new = np.asarray(vector, np.float32)
        for c in pipeline.classifier_pool(current, attribute, config):  # embedded facts only
            old = np.asarray(c.memory.embedding, np.float32)
            self.rows.append((self.sample, c.memory.content, content, old, new, float(c.similarity)))


@contextmanager
def recording(recorder: Recorder) -> Iterator[Recorder]:
    """Stage 3b replaced by ``recorder`` inside the block, restored after it."""
    original = pipeline._by_classifier
    pipeline._by_classifier = recorder  # type: ignore[assignment]  # this script only: record, decide nothing
    try:
        yield recorder
    finally:
        pipeline._by_classifier = original


def replay(conversations: list[dict[str, Any]], floor: float, recorder: Recorder) -> None:
    """Each conversation through ``learn()`` into a fresh store, ``recorder`` in stage 3b's place."""
    embedder = shared_minilm()
    with tempfile.TemporaryDirectory() as tmp:
        for conv in conversations:
            recorder.sample = str(conv["id"])
            clock = ManualClock()
            with (
                recording(recorder),
                LokulMem(
                    path=Path(tmp) / f"{recorder.sample}.sqlite",
                    embedder=embedder,
                    clock=clock,
                    executor="inline",
                    contradiction_classifier=True,
                    classifier_candidate_similarity=floor,
                ) as mem,
            ):
                for i, turn in enumerate(conv["turns"]):
                    mem.learn(turn, "", session_id=f"{recorder.sample}-{i // TURNS_PER_DAY}")
                    mem.wait_for_maintenance()
                    clock.advance(hours=24 / TURNS_PER_DAY)
            print(f"{recorder.sample}: {len(recorder.rows)} pairs so far", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="JSONL of {id, turns}")
    ap.add_argument("out", help="where to write the .npz")
    ap.add_argument("--floor", type=float, default=0.3, help="lowest similarity recorded")
    args = ap.parse_args()
    conversations = [json.loads(line) for line in Path(args.path).read_text().splitlines() if line.strip()]
    recorder = Recorder()
    replay(conversations, args.floor, recorder)
    rows = recorder.rows
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        out,
        sample=np.array([r[0] for r in rows]),
        old=np.array([r[1] for r in rows]),
        new=np.array([r[2] for r in rows]),
        uo=np.stack([r[3] for r in rows]),
        un=np.stack([r[4] for r in rows]),
        sim=np.array([r[5] for r in rows]),
    )
    print(f"wrote {out}: {len(rows)} pairs, {sum(r[5] >= 0.5 for r in rows)} at similarity 0.5 or more")


if __name__ == "__main__":
    main()

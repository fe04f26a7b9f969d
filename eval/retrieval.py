"""Retrieval relevance on the team's labeled set: the PRD §13 "top-3 rated relevant".

    python -m eval.retrieval [PATH ...] [--k 3] [--set key=value ...] [--prd]

The set (``eval/data/retrieval_cases.json``, written by us) is one user's
chat over dated sessions, each turn ``{id, user, assistant}``, and questions
that list the turns whose facts answer them (``relevant``).

**Replay.**  A fresh store; the clock set to each session's date (plus 30 s
per turn); each turn goes through the app loop, ``augment(user)`` then
``learn(user, assistant)``, so the assistant's reply is what the next
message answers.  Every stored or reinforced memory remembers the turns
that produced it.  Questions are asked an hour after the last session.

**Metrics**, on what ``augment()`` would inject with ``max_memories=k``
(``get_injection_preview``):

* ``hit@k``: questions with at least one relevant memory among the k, the
  PRD's "top-3 rated relevant" (target > 80%);
* ``precision@k``: injected memories that are relevant, over all the k
  slots filled (a question with one relevant turn cannot reach 100%);
* ``recall@k``: relevant turns covered by the k memories;
* ``mrr``: mean reciprocal rank of the first relevant memory (within 25).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lokulmem import LokulMem, ManualClock

from .common import add_config_args, config_label, config_options, emit, model, pct, table

CASES = Path(__file__).resolve().parent / "data" / "retrieval_cases.json"
DEPTH = 25


def _time_ms(text: str) -> int:
    return int(dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def evaluate(doc: dict[str, Any], *, k: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    clock = ManualClock()
    provenance: dict[str, set[str]] = defaultdict(set)
    hits: list[float] = []
    precision: list[float] = []
    recall: list[float] = []
    rr: list[float] = []
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        mem = LokulMem(
            path=Path(tmp) / "retrieval.sqlite",
            embedder=model(),
            clock=clock,
            executor="inline",
            **(options or {}),
        )
        with mem:
            turns = 0
            for n, session in enumerate(doc["sessions"]):
                clock.set(_time_ms(session["date"]))
                for turn in session["turns"]:
                    mem.augment(turn["user"])
                    result = mem.learn(turn["user"], turn.get("assistant", ""), session_id=f"session{n}")
                    for m in (*result.extracted, *result.reinforced):
                        provenance[m.id].add(turn["id"])
                    turns += 1
                    clock.advance(seconds=30)
            clock.advance(hours=1)
            panel = mem.manage()
            stored = panel.stats().total
            for qa in doc["questions"]:
                relevant = set(qa["relevant"])
                ranked = [
                    provenance.get(i.memory.id, set())
                    for i in panel.get_injection_preview(qa["question"], max_memories=DEPTH).would_inject
                ]
                top = ranked[:k]
                good = [bool(ids & relevant) for ids in top]
                hits.append(float(any(good)))
                precision.append(sum(good) / len(top) if top else 0.0)
                covered = set().union(*top) & relevant if top else set()
                recall.append(len(covered) / len(relevant))
                first = next((r for r, ids in enumerate(ranked, start=1) if ids & relevant), None)
                rr.append(1.0 / first if first else 0.0)
                rows.append({"question": qa["question"], "hit": any(good), "first_relevant_rank": first})
    return {
        "turns": turns,
        "memories": stored,
        "questions": len(hits),
        "k": k,
        f"hit@{k}": statistics.fmean(hits) if hits else 0.0,
        f"precision@{k}": statistics.fmean(precision) if precision else 0.0,
        f"recall@{k}": statistics.fmean(recall) if recall else 0.0,
        "mrr": statistics.fmean(rr) if rr else 0.0,
        "misses": [r["question"] for r in rows if not r["hit"]],
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m eval.retrieval", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help=f"labeled set(s) (default {CASES.name})")
    parser.add_argument("--k", type=int, default=3)
    add_config_args(parser)
    args = parser.parse_args(argv)
    options = config_options(args)
    figures: dict[str, Any] = {
        "eval": "retrieval",
        "config_overrides": config_label(args),
        "sets": {},
    }
    rows = []
    for path in args.paths or [str(CASES)]:
        f = evaluate(json.loads(Path(path).read_text()), k=args.k, options=options)
        figures["sets"][Path(path).name] = f
        k = args.k
        rows.append(
            [
                Path(path).name,
                f["questions"],
                pct(f[f"hit@{k}"]),
                pct(f[f"precision@{k}"]),
                pct(f[f"recall@{k}"]),
                f"{f['mrr']:.3f}",
            ]
        )
        if f["misses"]:
            print(f"{Path(path).name}: no relevant memory in the top {k} for: " + " | ".join(f["misses"]))
    k = args.k
    table(
        ["set", "questions", f"hit@{k} (>80)", f"precision@{k}", f"recall@{k}", "MRR"],
        rows,
        title="Retrieval relevance, product path (%)",
    )
    emit(figures)


if __name__ == "__main__":
    main()

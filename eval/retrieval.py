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

**Metrics**, on the ranking ``augment()`` injects from, with the count fixed
at k (``get_injection_preview`` with ``max_memories=k`` and
``require_evidence=False``; questions are asked mid-conversation, so
``include_proactive=False`` throughout):

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
            default_path = _default_path(panel, doc, provenance)
            for qa in doc["questions"]:
                relevant = set(qa["relevant"])
                ranked = [
                    provenance.get(i.memory.id, set())
                    for i in panel.get_injection_preview(
                        qa["question"], max_memories=DEPTH, require_evidence=False, include_proactive=False
                    ).would_inject
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
        **default_path,
    }


def _default_path(panel: Any, doc: dict[str, Any], provenance: dict[str, set[str]]) -> dict[str, Any]:
    """What augment() injects with default options: for the questions, recall of
    their relevant turns, the share of injected memories that are relevant, the
    mean count and the share injecting nothing; for the unrelated questions, the
    mean count and the share injecting nothing."""
    recall: list[float] = []
    precise: list[float] = []
    counts: list[int] = []
    for qa in doc["questions"]:
        relevant = set(qa["relevant"])
        got = [
            provenance.get(i.memory.id, set())
            for i in panel.get_injection_preview(qa["question"], include_proactive=False).would_inject
        ]
        covered = set().union(*got) & relevant if got else set()
        recall.append(len(covered) / len(relevant))
        precise.extend(float(bool(ids & relevant)) for ids in got)
        counts.append(len(got))
    silent = [
        len(panel.get_injection_preview(q, include_proactive=False).would_inject)
        for q in doc.get("unrelated", [])
    ]
    out: dict[str, Any] = {
        "default_path": {
            "recall": statistics.fmean(recall) if recall else 0.0,
            "precision": statistics.fmean(precise) if precise else 0.0,
            "mean_injected": statistics.fmean(counts) if counts else 0.0,
            "empty_share": sum(c == 0 for c in counts) / len(counts) if counts else 0.0,
        }
    }
    if silent:
        out["silence"] = {
            "questions": len(silent),
            "mean_injected": statistics.fmean(silent),
            "empty_share": sum(c == 0 for c in silent) / len(silent),
        }
    return out


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
        title="Retrieval relevance, the ranking with the count fixed at k (%)",
    )
    table(
        ["set", "recall", "precision", "mean injected", "none injected", "unrelated: mean", "none injected"],
        [
            [
                name,
                pct(f["default_path"]["recall"]),
                pct(f["default_path"]["precision"]),
                f"{f['default_path']['mean_injected']:.2f}",
                pct(f["default_path"]["empty_share"]),
                f"{f['silence']['mean_injected']:.2f}" if "silence" in f else "-",
                pct(f["silence"]["empty_share"]) if "silence" in f else "-",
            ]
            for name, f in figures["sets"].items()
        ],
        title="What augment() injects with default options (%)",
    )
    emit(figures)


if __name__ == "__main__":
    main()

"""Contradiction detection: DECODE pairs and the team's labeled set.

    python -m eval.contradiction PATH [PATH ...] [--start N] [--limit N]
        [--team eval/data/contradiction_cases.jsonl] [--set key=value ...] [--prd]

DECODE pairs are read from line ``--start`` (default 24,000): the lines
before it trained the contradiction head (``scripts/train_contradiction.py``),
so the default figures are on pairs the head never saw.

For each pair: an empty store, ``learn(earlier)``, ``learn(later)`` in a new
session a day later, and whether a contradiction event fired and with which
resolution.  Two modes: ``product`` (``learn()`` as an app calls it, so a
sentence that is not worth storing cannot contradict anything) and
``forced`` (``force_extract=True``: isolates the contradiction stage).

* DECODE (``{earlier, later, contradiction}``): precision, recall, F1 and
  false-positive rate of "an event fired" against ``contradiction``.
* Team set (``eval/data/contradiction_cases.jsonl``, labels ``conflict``,
  ``temporal``, ``compatible``, ``unrelated``; written by us, the PRD's four
  scenarios first): the PRD §13 figures — true conflict detection (conflict
  cases resolved as ``conflict``, target > 90%), false-positive
  contradictions (any event on compatible or unrelated cases, target < 5%),
  temporal coexistence classified correctly (temporal cases resolved as
  ``temporal-coexistence``, target > 85%).
* Hold-out (``--team eval/data/contradiction_holdout.jsonl``): 100 more
  cases in the same four labels, written before the rules of
  docs/tuning.md entry 18 were fitted on the first set and not used to fit
  them: the same figures on cases the rules were not tuned on.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from lokulmem import LokulMem, ManualClock

from .common import add_config_args, config_label, config_options, emit, model, pct, progress, table

TEAM = Path(__file__).resolve().parent / "data" / "contradiction_cases.jsonl"


#: Lines of DECODE's development file that trained the shipped head.
TRAINED_LINES = 24000


def read_jsonl(paths: Iterable[str | Path], limit: int | None = None, start: int = 0) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen = 0
    for p in paths:
        with Path(p).open() as f:
            for line in f:
                if not line.strip():
                    continue
                seen += 1
                if seen <= start:
                    continue
                out.append(json.loads(line))
                if limit is not None and len(out) >= limit:
                    return out
    return out


class Judge:
    """One reusable in-memory store; cleared between pairs."""

    def __init__(self, **options: Any) -> None:
        self.clock = ManualClock()
        self.mem = LokulMem(
            storage="memory", embedder=model(), clock=self.clock, executor="inline", **options
        )
        self.mem.init()
        self.n = 0

    def run(self, earlier: str, later: str, *, force: bool) -> str | None:
        """The resolution of the contradiction event fired by ``later``, or None."""
        self.mem.manage().clear()
        self.n += 1
        self.mem.learn(earlier, session_id=f"pair{self.n}-a", force_extract=force)
        self.clock.advance(days=1)
        result = self.mem.learn(later, session_id=f"pair{self.n}-b", force_extract=force)
        return result.contradictions[0].resolution if result.contradictions else None


def binary(pred: Sequence[bool], gold: Sequence[bool]) -> dict[str, float]:
    tp = sum(p and g for p, g in zip(pred, gold, strict=True))
    fp = sum(p and not g for p, g in zip(pred, gold, strict=True))
    fn = sum(g and not p for p, g in zip(pred, gold, strict=True))
    tn = len(gold) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "n": len(gold),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "false_positive_rate": fp / (fp + tn) if fp + tn else 0.0,
    }


def decode(judge: Judge, pairs: Sequence[dict[str, Any]], force: bool) -> dict[str, Any]:
    results = [judge.run(p["earlier"], p["later"], force=force) for p in progress(pairs, "judging pairs")]
    figures = binary([r is not None for r in results], [bool(p["contradiction"]) for p in pairs])
    figures["resolutions"] = dict(Counter(r or "none" for r in results))
    return figures


def team(judge: Judge, cases: Sequence[dict[str, Any]], force: bool) -> dict[str, Any]:
    by_label: dict[str, Counter[str]] = {}
    for c in cases:
        r = judge.run(c["earlier"], c["later"], force=force)
        by_label.setdefault(c["label"], Counter())[r or "none"] += 1

    def share(label: str, outcomes: Sequence[str]) -> float:
        counts = by_label.get(label, Counter())
        total = sum(counts.values())
        return sum(counts[o] for o in outcomes) / total if total else 0.0

    negatives = sum(sum(by_label.get(lab, Counter()).values()) for lab in ("compatible", "unrelated"))
    fired = sum(
        n
        for lab in ("compatible", "unrelated")
        for o, n in by_label.get(lab, Counter()).items()
        if o != "none"
    )
    return {
        "n": len(cases),
        "conflict_detection": share("conflict", ["conflict"]),
        "conflict_any_event": share("conflict", ["conflict", "temporal-coexistence"]),
        "temporal_correct": share("temporal", ["temporal-coexistence"]),
        "temporal_any_event": share("temporal", ["conflict", "temporal-coexistence"]),
        "false_positive_rate": fired / negatives if negatives else 0.0,
        "outcomes": {lab: dict(c) for lab, c in by_label.items()},
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m eval.contradiction", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("paths", nargs="*", help="DECODE-format JSONL file(s)")
    parser.add_argument(
        "--start", type=int, default=TRAINED_LINES, help="skip the first N DECODE pairs (the head's training)"
    )
    parser.add_argument("--limit", type=int, default=2000, help="N DECODE pairs from --start (default 2000)")
    parser.add_argument("--team", default=str(TEAM), help="team-labeled cases (JSONL)")
    add_config_args(parser)
    args = parser.parse_args(argv)
    judge = Judge(**config_options(args))
    figures: dict[str, Any] = {"eval": "contradiction", "config_overrides": config_label(args)}
    cases = read_jsonl([args.team])
    pairs = read_jsonl(args.paths, args.limit, args.start) if args.paths else []
    for mode, force in (("product", False), ("forced", True)):
        t = team(judge, cases, force)
        figures[f"team_{mode}"] = t
        if pairs:
            figures[f"decode_{mode}"] = decode(judge, pairs, force)
    rows = []
    for mode in ("product", "forced"):
        t = figures[f"team_{mode}"]
        rows.append(
            [
                mode,
                t["n"],
                pct(t["conflict_detection"]),
                pct(t["temporal_correct"]),
                pct(t["false_positive_rate"]),
            ]
        )
    table(
        ["team set", "n", "conflict det. (>90)", "temporal ok (>85)", "false pos. (<5)"],
        rows,
        title="Team-labeled cases (%)",
    )
    for mode in ("product", "forced"):
        t = figures[f"team_{mode}"]
        print(f"  {mode} outcomes: " + "; ".join(f"{lab}: {dict(c)}" for lab, c in t["outcomes"].items()))
    if pairs:
        rows = []
        for mode in ("product", "forced"):
            d = figures[f"decode_{mode}"]
            rows.append(
                [
                    mode,
                    d["n"],
                    pct(d["precision"]),
                    pct(d["recall"]),
                    pct(d["f1"]),
                    pct(d["false_positive_rate"]),
                ]
            )
        table(["DECODE", "n", "precision", "recall", "F1", "FPR (<5)"], rows, title="DECODE pairs (%)")
    emit(figures)


if __name__ == "__main__":
    main()

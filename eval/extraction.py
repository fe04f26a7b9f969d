"""Extraction quality: LoCoMo silver labels, PersonaExt recall and typing, a team set.

    python -m eval.extraction --locomo PATH [PATH ...] --personaext PATH [PATH ...] [--limit N]
        [--set key=value ...] [--prd]

* **LoCoMo** (silver): each conversation is replayed exactly as in
  ``eval.locomo``; a turn cited by at least one LLM-written ``observation``
  is fact-bearing; lokulmem's decision for a turn is positive when
  ``learn()`` stored or reinforced a memory for it.  Per-turn precision,
  recall, F1 (and the share of turns kept).
* **PersonaExt** (positives only): each utterance learned into an empty
  store; recall = share stored; type agreement = share whose memory has the
  type the relation label maps to (``expected_type``, by label family).
* **Team set** (``eval/data/extraction_cases.jsonl``: 60 first-person facts
  and 60 non-facts — greetings, requests, questions, general-knowledge
  statements — written by us): precision and recall of "stored".
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lokulmem import LokulMem, ManualClock

from .common import add_config_args, config_label, config_options, emit, model, pct, table
from .contradiction import binary, read_jsonl
from .locomo import Replay

TEAM = Path(__file__).resolve().parent / "data" / "extraction_cases.jsonl"

#: PersonaExt relation label → the lokulmem type a memory of it should carry.
#: PersonaExt's labels are the Dialogue NLI persona relations (Welleck et al.
#: 2019); its splits hold disjoint label sets, so the mapping goes by label
#: *family* (the name's prefix), with a table for the rest:
#:
#: * ``like_*``, ``dislike*``, ``favorite*``, ``has_hobby``, ``diet`` → preference
#:   (a taste or a pastime; a dislike is a preference too);
#: * ``have_pet``, ``have_children``, ``have_family``, ``have_sibling``,
#:   ``live_with``, ``marital_status``, ``member_of`` → relational;
#: * ``live_in*``, ``place_origin``, ``nationality`` → location;
#: * ``has_profession``, ``previous_profession``, ``job_status``, ``teach``,
#:   ``employed_by*``, ``work*``, ``want_job``, ``attend_school``,
#:   ``school_status`` → profession (what the user does for a living or study);
#: * ``want*`` (other than ``want_job``), ``plan*``, ``goal*`` → project;
#: * ``name``, ``has_age``, ``gender``, ``physical_attribute``, ``health_status``
#:   (a lasting condition), ``misc_attribute``, ``religion``, ``political_view``,
#:   ``has_degree``, ``have``, ``own``, ``have_vehicle`` → identity.
#:
#: Anything else (``other``) has no expected type: it counts for recall, not
#: for type agreement, and the report lists it as unmapped.
_EXACT = {
    "has_hobby": "preference",
    "diet": "preference",
    "want_job": "profession",
    "teach": "profession",
    "job_status": "profession",
    "has_profession": "profession",
    "previous_profession": "profession",
    "attend_school": "profession",
    "school_status": "profession",
    "place_origin": "location",
    "nationality": "location",
    "name": "identity",
    "has_age": "identity",
    "gender": "identity",
    "physical_attribute": "identity",
    "health_status": "identity",
    "misc_attribute": "identity",
    "religion": "identity",
    "political_view": "identity",
    "has_degree": "identity",
    "have": "identity",
    "own": "identity",
    "have_vehicle": "identity",
    "have_pet": "relational",
    "have_children": "relational",
    "have_family": "relational",
    "have_sibling": "relational",
    "live_with": "relational",
    "marital_status": "relational",
    "member_of": "relational",
}
_PREFIXES = (
    ("like_", "preference"),
    ("dislike", "preference"),
    ("favorite", "preference"),
    ("live_in", "location"),
    ("employed_by", "profession"),
    ("work", "profession"),
    ("want", "project"),
    ("plan", "project"),
    ("goal", "project"),
)


def expected_type(label: str) -> str | None:
    """The type a memory of a PersonaExt relation ``label`` should carry (None: no expectation)."""
    if label in _EXACT:
        return _EXACT[label]
    return next((t for prefix, t in _PREFIXES if label.startswith(prefix)), None)


def locomo(paths: Sequence[str], limit: int | None, options: dict[str, Any]) -> dict[str, Any]:
    data: list[dict[str, Any]] = []
    for p in paths:
        data.extend(json.loads(Path(p).read_text()))
    data = data[:limit] if limit is not None else data
    pred: list[bool] = []
    gold: list[bool] = []
    with tempfile.TemporaryDirectory() as tmp:
        for sample in data:
            cited = {
                str(fact[1])
                for session in sample["observation"].values()
                for facts in session.values()
                for fact in facts
                if isinstance(fact, list) and len(fact) > 1
            }
            # An observation may cite several turns at once ("D1:3, D1:5").
            cited = {c.strip() for item in cited for c in item.replace(";", ",").split(",")}
            rp = Replay(sample, model(), Path(tmp), **options)
            rp.play()
            for dia, kept in rp.kept.items():
                pred.append(kept)
                gold.append(dia in cited)
            rp.close()
    out = binary(pred, gold)
    out["kept_share"] = sum(pred) / len(pred) if pred else 0.0
    out["fact_bearing_share"] = sum(gold) / len(gold) if gold else 0.0
    return out


def _learner(options: dict[str, Any]) -> tuple[LokulMem, ManualClock]:
    clock = ManualClock()
    mem = LokulMem(storage="memory", embedder=model(), clock=clock, executor="inline", **options)
    mem.init()
    return mem, clock


def personaext(paths: Sequence[str], limit: int | None, options: dict[str, Any]) -> dict[str, Any]:
    mem, clock = _learner(options)
    rows = read_jsonl(paths, limit)
    stored = typed = typable = 0
    unmapped: set[str] = set()
    per_label: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        t = row["triplets"][0]
        text = " ".join(t["tokens"])
        mem.manage().clear()
        clock.advance(hours=1)
        result = mem.learn(text, session_id=f"p{i}")
        kept = bool(result.extracted or result.reinforced)
        want = expected_type(t["label"])
        ok = kept and want is not None and any(want in m.types for m in result.extracted)
        stored += kept
        typed += ok
        typable += kept and want is not None
        if want is None:
            unmapped.add(t["label"])
        stats = per_label.setdefault(t["label"], [0, 0, 0])
        stats[0] += 1
        stats[1] += kept
        stats[2] += ok
    n = len(rows)
    mem.close()
    return {
        "n": n,
        "recall": stored / n if n else 0.0,
        "type_agreement": typed / typable if typable else 0.0,
        "unmapped_labels": sorted(unmapped),
        "per_label": {
            k: {"n": v[0], "recall": v[1] / v[0], "type_agreement": v[2] / v[1] if v[1] else 0.0}
            for k, v in per_label.items()
        },
    }


def team(path: str, options: dict[str, Any]) -> dict[str, Any]:
    mem, clock = _learner(options)
    cases = read_jsonl([path])
    pred: list[bool] = []
    for i, c in enumerate(cases):
        mem.manage().clear()
        clock.advance(hours=1)
        result = mem.learn(c["text"], session_id=f"t{i}")
        pred.append(bool(result.extracted))
    mem.close()
    return binary(pred, [c["label"] == "fact" for c in cases])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m eval.extraction", description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", nargs="*", default=[], help="LoCoMo JSON file(s)")
    parser.add_argument("--personaext", nargs="*", default=[], help="PersonaExt JSONL file(s)")
    parser.add_argument("--limit", type=int, help="first N LoCoMo conversations / PersonaExt lines")
    parser.add_argument("--team", default=str(TEAM))
    add_config_args(parser)
    args = parser.parse_args(argv)
    options = config_options(args)
    figures: dict[str, Any] = {
        "eval": "extraction",
        "config_overrides": config_label(args),
        "team": team(args.team, options),
    }
    rows = [["team set (precision set)", figures["team"]["n"], *_prf(figures["team"])]]
    if args.locomo:
        figures["locomo"] = locomo(args.locomo, args.limit, options)
        rows.append(["LoCoMo turns (silver)", figures["locomo"]["n"], *_prf(figures["locomo"])])
    table(["set", "n", "precision (>85)", "recall (>75)", "F1"], rows, title="Extraction (%)")
    if args.locomo:
        lo = figures["locomo"]
        print(f"  LoCoMo: kept {pct(lo['kept_share'])}% of turns; {pct(lo['fact_bearing_share'])}% are cited")
    if args.personaext:
        pe = figures["personaext"] = personaext(args.personaext, args.limit, options)
        table(
            ["PersonaExt label", "n", "recall", "type agreement"],
            [
                [k, v["n"], pct(v["recall"]), pct(v["type_agreement"])]
                for k, v in sorted(pe["per_label"].items())
            ]
            + [["all", pe["n"], pct(pe["recall"]), pct(pe["type_agreement"])]],
            title="PersonaExt (%)",
        )
        if pe["unmapped_labels"]:
            print("  no expected type (recall only): " + ", ".join(pe["unmapped_labels"]))
    emit(figures)


def _prf(f: dict[str, Any]) -> list[str]:
    return [pct(f["precision"]), pct(f["recall"]), pct(f["f1"])]


if __name__ == "__main__":
    main()

"""The golden trace: every decision lokulmem makes on a fixed script, as JSON lines.

    python tests/golden_trace.py            # print the trace
    python tests/golden_trace.py --update   # rewrite tests/data/golden_trace.jsonl
    python tests/golden_trace.py --diff     # first differing lines against the file

Refactors that must not change behaviour are checked against this file
(``tests/test_golden.py``: every string, integer and decision exactly, floats
within :data:`FLOAT_TOLERANCE`, so another build of onnxruntime or numpy that
moves the sixth decimal is not a change of behaviour).  The script runs only the
public API, with a :class:`~lokulmem.ManualClock`, the inline executor and
deterministic ids (``uuid.uuid4`` replaced by a counter while it runs), over:

* the CLI demo's two sessions and question, then questions about the
  replaced facts, every ``manage()`` query and mutation (``update()`` with a
  contradicting correction, pin, archive, delete, bulk operations), export,
  import of the export into a second store, import of a memory pack,
  maintenance after a year (fade, purge, clustering);
* the team retrieval set (``eval/data/retrieval_cases.json``) replayed as the
  app loop (augment, then learn) and its questions with ``debug=True``;
* the first cases of the team contradiction set, each in a fresh store.

Each line holds a step's result: learned decisions, contradiction events,
context blocks, score breakdowns, candidates with their exclusion reasons,
and at the end every store's export.  Floats are rounded to
:data:`DIGITS` places and vectors reduced to their size, sum and first
components; timings, byte sizes and paths are left out.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from lokulmem import LokulMem, ManualClock
from lokulmem.cli import QUESTION, SESSION_1, SESSION_2

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "data" / "golden_trace.jsonl"
RETRIEVAL_CASES = ROOT / "eval" / "data" / "retrieval_cases.json"
CONTRADICTION_CASES = ROOT / "eval" / "data" / "contradiction_cases.jsonl"
#: Contradiction cases replayed (each in a fresh store).
CONTRADICTION_LIMIT = 40
#: Decimal places kept for floats.
DIGITS = 6
#: Largest difference between a float in the file and now that is not a change.
FLOAT_TOLERANCE = 1e-4
#: Fields that measure time or bytes, not decisions.
VOLATILE = frozenset(
    {"embedding_latency_ms", "retrieval_latency_ms", "sweep_ms", "cluster_ms", "storage_used_bytes"}
)


@contextmanager
def deterministic_ids() -> Iterator[None]:
    """``uuid.uuid4()`` returns 00000000-…-000000000001, …-0002, … while inside."""
    real = uuid.uuid4
    counter = iter(range(1, 10**9))
    uuid.uuid4 = lambda: uuid.UUID(int=next(counter))  # type: ignore[assignment]  # deterministic trace
    try:
        yield
    finally:
        uuid.uuid4 = real  # type: ignore[assignment]  # restored


#: Leading components of a vector kept in the trace (with its length and sum).
VECTOR_HEAD = 6


def _digest(vec: Any) -> dict[str, Any]:
    """A vector as its size, sum and first components, rounded: enough to tell which
    text was embedded, and comparable with a tolerance (a hash of the rounded values
    flipped when another onnxruntime or numpy moved a component by 1e-7)."""
    arr = np.asarray(vec, dtype=np.float64).ravel()
    head = [round(float(x), DIGITS) for x in arr[:VECTOR_HEAD]]
    return {"dim": int(arr.size), "head": head, "sum": round(float(arr.sum()), DIGITS)}


def plain(obj: Any) -> Any:
    """A JSON-ready, rounded copy of a record (dataclasses, mappings, vectors)."""
    if isinstance(obj, np.ndarray):
        return _digest(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            f.name: plain(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.name not in VOLATILE
        }
    if isinstance(obj, Mapping):
        return {str(k): plain(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if isinstance(obj, (bool, int, str)) or obj is None:
        return obj
    if isinstance(obj, (float, np.floating)):
        return round(float(obj), DIGITS)
    if isinstance(obj, np.integer):
        return int(obj)
    raise TypeError(f"cannot trace {type(obj).__name__}")


def _brief(memory: Any) -> dict[str, Any]:
    return {"id": memory.id, "content": memory.content, "status": memory.status}


def _debug(result: Any) -> dict[str, Any]:
    dbg = result.debug
    out: dict[str, Any] = {"context": result.context, "messages": plain(result.messages)}
    if dbg is None:
        return out
    out["injected"] = [
        {
            "memory": _brief(i.memory),
            "score": plain(i.score),
            "breakdown": plain(i.score_breakdown),
            "reason": i.reason,
            "rank": i.injection_rank,
            "tokens": i.tokens,
            "evidence": plain(i.evidence),
            "coverage": plain(i.term_coverage),
        }
        for i in dbg.injected
    ]
    out["candidates"] = [
        {
            "memory": _brief(c.memory),
            "score": plain(c.score),
            "breakdown": plain(c.breakdown),
            "similarity": plain(c.similarity),
            "injected": c.injected,
            "excluded_reason": c.excluded_reason,
            "evidence": plain(c.evidence),
            "coverage": plain(c.term_coverage),
        }
        for c in dbg.candidates
    ]
    out["tokens"] = [dbg.tokens_used, dbg.tokens_available]
    out["mode"] = [dbg.retrieval_strategy, dbg.search_mode, dbg.searched, list(dbg.pipeline)]
    # Stage counts and notes (not their wall times), the parse, the cards, the exclusions.
    out["stages"] = [[s.name, dict(s.counts), s.detail] for s in dbg.stages]
    out["query"] = plain(dbg.query)
    out["evidence"] = plain(dbg.evidence)
    out["excluded"] = dict(sorted(dbg.excluded.items()))
    return out


def _learned(result: Any) -> dict[str, Any]:
    return {
        "decisions": plain(result.decisions),
        "extracted": plain(result.extracted),
        "contradictions": plain(result.contradictions),
        "reinforced": [_brief(m) for m in result.reinforced],
        "faded": [_brief(m) for m in result.faded],
        "total": result.total_memories,
        "truncated": result.truncated,
    }


class Trace:
    """Collects the trace lines; ``step`` runs and records one call."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, step: str, value: Any) -> None:
        self.lines.append(
            json.dumps({"step": step, "value": plain(value)}, ensure_ascii=False, sort_keys=True)
        )

    def step(
        self, step: str, show: Callable[[Any], Any], call: Callable[..., Any], *args: Any, **kw: Any
    ) -> Any:
        """Record ``show(call(*args, **kw))``, or the typed error it raised."""
        try:
            result = call(*args, **kw)
        except Exception as exc:  # the error is part of the behaviour
            self.add(step, {"error": type(exc).__name__, "message": str(exc)})
            return None
        self.add(step, show(result))
        return result


def _events(mem: LokulMem, trace: Trace) -> None:
    panel = mem.manage()
    panel.on_memory_added(lambda m: trace.add("event:added", _brief(m)))
    panel.on_memory_updated(lambda m: trace.add("event:updated", _brief(m)))
    panel.on_memory_deleted(lambda mid: trace.add("event:deleted", mid))
    panel.on_memory_faded(lambda m: trace.add("event:faded", _brief(m)))
    panel.on_contradiction_detected(
        lambda ev: trace.add("event:contradiction", [ev.existing.id, ev.incoming.id, ev.resolution])
    )


def _demo(trace: Trace, tmp: Path, embedder: Any) -> None:
    clock = ManualClock()
    mem = LokulMem(path=tmp / "demo.sqlite", clock=clock, embedder=embedder, executor="inline")
    with mem:
        _events(mem, trace)
        for user, reply in SESSION_1:
            trace.step("demo:learn", _learned, mem.learn, user, reply, session_id="demo-session-1")
        clock.advance(days=3)
        for user, reply in SESSION_2:
            trace.step("demo:learn", _learned, mem.learn, user, reply, session_id="demo-session-2")
        panel = mem.manage()
        trace.add("demo:list", [_brief(m) for m in panel.list()])
        history = [{"role": "system", "content": "You are a helpful travel assistant."}]
        trace.step("demo:augment", _debug, mem.augment, QUESTION, history, debug=True)
        for q in ("Where do I work?", "Where do I live?", "Which theme do I like in my editor?"):
            trace.step(f"demo:augment:{q}", _debug, mem.augment, q, debug=True)
        _manage(trace, mem, clock, tmp, embedder)


def _manage(trace: Trace, mem: LokulMem, clock: ManualClock, tmp: Path, embedder: Any) -> None:
    panel = mem.manage()
    clock.advance(hours=2)
    mem.learn("I live in Porto now. I work at Bosch.", "Congratulations!", session_id="s3")
    lisbon = panel.search("Lisbon")
    trace.add("manage:search", [_brief(m) for m in lisbon])
    trace.step("manage:lineage", plain, panel.get_lineage, lisbon[0].id)
    trace.add("manage:semantic", [[_brief(m), s] for m, s in panel.semantic_search_scored("my sibling", 5)])
    sister = panel.semantic_search("my sister", 1)[0]
    trace.step("manage:pin", _brief, panel.pin, sister.id)
    trace.step("manage:preview", plain, panel.get_injection_preview, "Tell me about my family")
    bosch = panel.search("Bosch")[0]
    trace.step("manage:update", plain, panel.update, bosch.id, content="User works at Siemens.")
    mem.learn("My favourite colour is blue. I have a red bike.", session_id="s3")
    bike = panel.search("bike")[0]
    trace.step(
        "manage:update-conflict", plain, panel.update, bike.id, content="User's favourite colour is green."
    )
    trace.step("manage:update-types", plain, panel.update, sister.id, types=["relational", "location"])
    trace.step("manage:update-bad", plain, panel.update, sister.id, confidence="sure")
    ids = [m.id for m in panel.list(order_by="created_at", direction="asc")]
    trace.step("manage:archive", _brief, panel.archive, ids[2])
    trace.step("manage:archive_many", plain, panel.archive_many, ids[3:5])
    trace.step("manage:unarchive", _brief, panel.unarchive, ids[3])
    trace.step("manage:delete", plain, panel.delete, ids[1])
    trace.step("manage:missing", plain, panel.get, "no-such-id")
    trace.add("manage:timeline", panel.get_timeline())
    trace.add("manage:grouped", {k: [m.id for m in v] for k, v in vars(panel.get_grouped()).items() if v})
    trace.add("manage:stats", panel.stats())
    doc = panel.export()
    second = LokulMem(path=tmp / "second.sqlite", clock=clock, embedder=embedder, executor="inline")
    with second:
        trace.step("import:export", plain, second.manage().import_data, json.dumps(doc))
        pack = {
            "name": "team-pack",
            "memories": [
                {
                    "key": "editor:theme",
                    "value": "User prefers tabs over spaces.",
                    "memory_type": "procedural",
                },
                {"key": "editor:theme", "value": "User prefers spaces.", "memory_type": "procedural"},
                {"key": "pet", "value": "User has a dog named Pixel.", "source": "reasoning"},
                {"value": "ok"},
                {"key": "city", "value": "User lives in Porto, Portugal."},
            ],
        }
        trace.step("import:pack", plain, second.manage().import_data, pack, strict=False)
        trace.step("import:bad", plain, second.manage().import_data, {"memories": "nope"})
        trace.add("import:export-after", second.manage().export(include_embeddings=False))
    clock.advance(days=365)
    trace.step("maintenance", plain, mem.maintenance, sweep=True, cluster=True)
    clock.advance(days=45)
    trace.step("maintenance:purge", plain, mem.maintenance, sweep=True, cluster=True)
    trace.step("learn:after", _learned, mem.learn, "I started learning Japanese.", session_id="s4")
    trace.step("augment:after", _debug, mem.augment, "What am I learning?", debug=True)
    trace.add("demo:export", panel.export(include_embeddings=False))


def _time_ms(text: str) -> int:
    return int(dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def _retrieval(trace: Trace, tmp: Path, embedder: Any) -> None:
    doc = json.loads(RETRIEVAL_CASES.read_text())
    clock = ManualClock()
    mem = LokulMem(path=tmp / "retrieval.sqlite", clock=clock, embedder=embedder, executor="inline")
    with mem:
        for n, session in enumerate(doc["sessions"]):
            clock.set(_time_ms(session["date"]))
            for turn in session["turns"]:
                trace.step("retrieval:augment", _debug, mem.augment, turn["user"], debug=True)
                trace.step(
                    "retrieval:learn",
                    _learned,
                    mem.learn,
                    turn["user"],
                    turn.get("assistant", ""),
                    session_id=f"session{n}",
                )
                clock.advance(seconds=30)
        clock.advance(hours=1)
        history: list[dict[str, Any]] = []
        for qa in doc["questions"]:
            result = trace.step(
                "retrieval:question", _debug, mem.augment, qa["question"], history, debug=True
            )
            history = [*history, {"role": "user", "content": qa["question"]}][-6:]
            assert result is not None
        trace.add("retrieval:export", mem.manage().export(include_embeddings=False))


def _contradictions(trace: Trace, tmp: Path, embedder: Any) -> None:
    lines = CONTRADICTION_CASES.read_text().splitlines()[:CONTRADICTION_LIMIT]
    for line in lines:
        case = json.loads(line)
        clock = ManualClock()
        with LokulMem(storage="memory", clock=clock, embedder=embedder, executor="inline") as mem:
            mem.learn(case["earlier"], session_id="a")
            clock.advance(days=20)
            trace.step(f"contradiction:{case['id']}", _learned, mem.learn, case["later"], session_id="b")


def record(embedder: Any = None) -> str:
    """The whole trace as text (one JSON object per line)."""
    from lokulmem.client import shared_minilm

    model = embedder if embedder is not None else shared_minilm()
    trace = Trace()
    with deterministic_ids(), tempfile.TemporaryDirectory() as tmp:
        _demo(trace, Path(tmp), model)
        _retrieval(trace, Path(tmp), model)
        _contradictions(trace, Path(tmp), model)
    return "\n".join(trace.lines) + "\n"


def differences(expected: str, actual: str, limit: int = 30) -> list[str]:
    """Where two traces differ: line number, path inside the line, both values
    (floats within :data:`FLOAT_TOLERANCE` are the same)."""
    old, new = expected.splitlines(), actual.splitlines()
    found = [f"{len(old)} lines in the file, {len(new)} now"] if len(old) != len(new) else []
    for n, (a, b) in enumerate(zip(old, new, strict=False), start=1):  # a length change is reported above
        if a != b:
            found.extend(f"line {n}: {d}" for d in _compare(json.loads(a), json.loads(b), ""))
        if len(found) >= limit:
            break
    return found[:limit]


def _compare(a: Any, b: Any, where: str) -> Iterator[str]:
    if isinstance(a, float) and isinstance(b, (float, int)) and not isinstance(b, bool):
        if abs(a - b) > FLOAT_TOLERANCE:
            yield f"{where}: {a} -> {b}"
    elif isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            yield f"{where}: keys {sorted(a.keys() ^ b.keys())}"
        for k in a.keys() & b.keys():
            yield from _compare(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _compare(x, y, f"{where}[{i}]")
    elif a != b or type(a) is not type(b):
        yield f"{where}: {str(a)[:150]!r} -> {str(b)[:150]!r}"


def main(argv: list[str]) -> int:
    text = record()
    if "--update" in argv:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text)
        print(f"wrote {GOLDEN} ({len(text.splitlines())} lines)")
    elif "--diff" in argv:
        found = differences(GOLDEN.read_text(), text)
        print("\n".join(found) or "the same (floats within the tolerance)")
        return 1 if found else 0
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Hostile input against every public entry point: only results or library errors, bounded time.

    python bench/hostile.py [--memories 10000] [--big-mb 10]

Fills a store with N realistic memories (the same generator as
``bench_core.py``), then calls every public entry point of ``LokulMem`` and
``manage()`` with hostile values in each text, id, list, option and document
slot: lone surrogates, NUL and other control characters, bidi overrides,
10 MB strings, 3,000-sentence messages, deeply nested and self-referencing
content blocks, FTS5 operators, SQL fragments, wrong types, NaN and huge
numbers.  Each call must return or raise a :class:`lokulmem.LokulMemError`;
anything else is an *escape*.  Prints, per entry point, the calls tried,
the escapes and the slowest call, then a JSON line.  Exit status 1 if any
call escaped or took longer than ``--max-seconds`` (default 1.0; calls whose
work is the whole store by design — ``export_to``, ``backup``, ``restore``,
``maintenance``, an unlimited ``list()`` — are timed but not held to it).

``tests/test_hostile.py`` runs the same cases on a small store.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lokulmem import LokulMem, LokulMemError, ManualClock
from lokulmem.transfer import EXPORT_FORMAT, EXPORT_VERSION

# -- hostile values ---------------------------------------------------------------


def hostile_texts(big_mb: float = 10.0) -> list[tuple[str, Any]]:
    """(label, value) pairs for a text slot."""
    big = int(big_mb * 1_000_000)
    return [
        ("lone surrogate", "\ud800"),
        ("surrogate in text", "I live in Berlin\udfff and work at Acme."),
        ("NUL", "I live\x00 in Berlin."),
        ("control chars", "\x1b[31mI like tea\x07\x08\x7f"),
        ("bidi override", "I like \u202etea\u202c and \u2066coffee\u2069."),
        ("zero width", "I\u200b like\ufeff tea."),
        ("combining flood", "e" + "\u0301" * 100_000),
        ("emoji", "I love 🍕🍕🍕 and 👨‍👩‍👧."),
        ("empty", ""),
        ("whitespace", " \t\n " * 10),
        ("fts operators", 'NEAR(berlin acme) OR "tea* AND -coffee ^col:x (( ))'),
        ("fts quotes", '"""" \'\'\' * ** ***'),
        ("sql fragment", "'; DROP TABLE memories; -- \" OR 1=1"),
        ("repeated words", "I live in " + "Berlin " * 20_000),
        ("3000 sentences", " ".join(f"I like dish number {i}." for i in range(3000))),
        ("one long word", "x" * 1_000_000),
        (f"{big_mb:g} MB", "a " * (big // 2)),
        ("not a string: None", None),
        ("not a string: int", 42),
        ("not a string: bytes", b"I like tea"),
        ("not a string: list", ["I like tea"]),
    ]


def hostile_ids() -> list[tuple[str, Any]]:
    return [
        ("lone surrogate", "\ud800"),
        ("NUL", "abc\x00"),
        ("empty", ""),
        ("sql fragment", "' OR 1=1 --"),
        ("10 MB id", "i" * 10_000_000),
        ("None", None),
        ("int", 7),
        ("list", ["a"]),
    ]


def _nested(depth: int) -> Any:
    node: Any = "deep"
    for _ in range(depth):
        node = [{"type": "text", "text": node}]
    return node


def hostile_histories() -> list[tuple[str, Any]]:
    loop: list[Any] = []
    loop.append({"role": "user", "content": loop})
    block_loop: list[Any] = [{"type": "text", "text": "hi"}]
    block_loop.append(block_loop)
    return [
        ("not a list", "hello"),
        ("None items", [None, None]),
        ("missing role", [{"content": "hi"}]),
        ("bad role", [{"role": "\ud800", "content": "hi"}]),
        ("surrogate content", [{"role": "user", "content": "I live in \ud800 Berlin"}]),
        ("nested blocks 10k deep", [{"role": "user", "content": _nested(10_000)}]),
        ("self-referencing content", loop),
        ("self-referencing block list", [{"role": "user", "content": block_loop}]),
        ("1M items", [{"role": "user", "content": "hi"}] * 1_000_000),
        ("10 MB turn", [{"role": "user", "content": "a " * 5_000_000}]),
        ("block without text", [{"role": "user", "content": [{"type": "text"}, {"type": "image"}]}]),
        ("content is int", [{"role": "assistant", "content": 5}]),
        ("tool call garbage", [{"role": "assistant", "content": None, "tool_calls": [None, 3, {"x": 1}]}]),
    ]


def hostile_numbers() -> list[tuple[str, Any]]:
    return [
        ("nan", math.nan),
        ("inf", math.inf),
        ("-1", -1),
        ("huge", 10**18),
        ("bool", True),
        ("string", "10"),
        ("None", None),
    ]


def hostile_type_lists() -> list[tuple[str, Any]]:
    return [
        ("string not list", "identity"),
        ("unknown type", ["\ud800"]),
        ("1M names", ["identity"] * 1_000_000),
        ("non-strings", [1, None]),
    ]


def hostile_documents() -> list[tuple[str, Any]]:
    def export(content: Any, **extra: Any) -> dict[str, Any]:
        memory = {"id": "m1", "content": content, "types": ["identity"], **extra}
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "memories": [memory]}

    def pack(value: Any, **extra: Any) -> dict[str, Any]:
        return {"memories": [{"value": value, **extra}]}

    deep: Any = {}
    for _ in range(100_000):
        deep = {"a": deep}
    return [
        ("surrogate content", export("I live in \ud800")),
        ("NUL content", export("I live\x00 here")),
        ("bidi content", export("I like \u202etea")),
        ("10 MB content", export("a " * 5_000_000)),
        ("surrogate id", export("I like tea", id="\ud800")),
        ("memories not a list", {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "memories": "x"}),
        ("100k-deep JSON text", "[" * 100_000 + "]" * 100_000),
        ("100k-deep mapping", deep),
        ("invalid JSON", "{not json"),
        ("surrogate JSON text", '{"memories": [{"value": "\\ud800"}]}'),
        ("bytes not utf-8", b"\xff\xfe\x00"),
        ("huge number", export("I like tea", created_at=10**400)),
        ("nan strength", export("I like tea", base_strength=math.nan)),
        ("pack: surrogate value", pack("I like \ud800 tea")),
        ("pack: NUL source", pack("I like tea", source="\x00")),
        ("pack: 10 MB value", pack("a " * 5_000_000)),
        ("pack: deep metadata", pack("I like tea", metadata=deep)),
        ("pack: nan quality", pack("I like tea", quality_score=math.nan)),
        ("not a document", 12),
        ("path to nowhere", Path("/nonexistent/\ud800.json")),
    ]


# -- the harness ------------------------------------------------------------------

#: Calls whose work is the whole store by design (a file copy, a full export, the
#: sweep and clustering, and ``list()`` whose hostile case leaves no limit so returns
#: every memory): timed and reported, not held to ``--max-seconds``.
WHOLE_STORE = frozenset(
    {"export_to(path)", "backup(path)", "restore(path)", "maintenance(sweep)", "list(status)", "list(limit)"}
)


@dataclass
class Outcome:
    entry: str
    case: str
    seconds: float
    escaped: str | None = None


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def by_entry(self) -> dict[str, list[Outcome]]:
        out: dict[str, list[Outcome]] = {}
        for o in self.outcomes:
            out.setdefault(o.entry, []).append(o)
        return out

    @property
    def escapes(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.escaped is not None]

    def slowest(self) -> Outcome:
        return max(self.outcomes, key=lambda o: o.seconds)


def _attempt(report: Report, entry: str, case: str, call: Callable[[], object]) -> None:
    start = time.perf_counter()
    escaped = None
    try:
        call()
    except LokulMemError:
        pass
    except RecursionError as exc:  # a RecursionError is also an escape, named as such
        escaped = f"RecursionError: {str(exc)[:80]}"
    except Exception as exc:
        escaped = f"{type(exc).__name__}: {str(exc)[:120]}"
    report.outcomes.append(Outcome(entry, case, time.perf_counter() - start, escaped))


def calls(
    mem: LokulMem, known_id: str, big_mb: float, spare: Iterator[str]
) -> Iterator[tuple[str, str, Callable[[], object]]]:
    """(entry point, case, call) for every hostile value in every slot."""
    m = mem.manage()
    ok_hist = [{"role": "user", "content": "hi"}]
    for label, text in hostile_texts(big_mb):
        t = text
        yield "learn(user_message)", label, lambda t=t: mem.learn(t, "ok")
        yield "learn(assistant_response)", label, lambda t=t: mem.learn("I like tea.", t)
        yield "learn(session_id)", label, lambda t=t: mem.learn("I like tea.", session_id=t)
        yield "learn(in_reply_to)", label, lambda t=t: mem.learn("I like tea.", in_reply_to=t)
        yield "remember(text)", label, lambda t=t: mem.remember(t)
        yield "augment(message)", label, lambda t=t: mem.augment(t, ok_hist, debug=True)
        yield "end_session", label, lambda t=t: mem.end_session(t)
        yield "search(query)", label, lambda t=t: m.search(t)
        yield "semantic_search(query)", label, lambda t=t: m.semantic_search(t)
        yield "get_injection_preview", label, lambda t=t: m.get_injection_preview(t)
        yield "update(content)", label, lambda t=t: m.update(known_id, content=t)
        pair = (next(spare), next(spare))
        yield "merge(content)", label, lambda t=t, pair=pair: m.merge(list(pair), content=t)
        yield "import_data(text)", label, lambda t=t: m.import_data(t, merge=True)
        yield "get_by_conversation", label, lambda t=t: m.get_by_conversation(t)
        yield "list(status)", label, lambda t=t: m.list(status=t)
    for label, mid in hostile_ids():
        i = mid
        for name in ("get", "pin", "unpin", "archive", "unarchive", "get_related", "get_lineage"):
            yield f"{name}(id)", label, lambda i=i, name=name: getattr(m, name)(i)
        yield "update(id)", label, lambda i=i: m.update(i, confidence="high")
        yield "delete_many(ids)", label, lambda i=i: m.delete_many([i])
        yield "merge(ids)", label, lambda i=i: m.merge([i, known_id])
    many = [f"no-such-{i}" for i in range(100_000)]
    for name in ("delete_many", "archive_many", "unarchive_many", "pin_many", "unpin_many"):
        yield f"{name}(ids)", "100k unknown ids", lambda name=name: getattr(m, name)(many)
        yield f"{name}(ids)", "not a list", lambda name=name: getattr(m, name)(12)
        yield f"{name}(ids)", "a string", lambda name=name: getattr(m, name)("abc")
    for label, hist in hostile_histories():
        h = hist
        yield "augment(history)", label, lambda h=h: mem.augment("Where do I live?", h)
        yield "compact(history)", label, lambda h=h: mem.compact(h, session_id="s-hostile", budget_tokens=512)
        yield "get_injection_preview(history)", label, lambda h=h: m.get_injection_preview("tea?", history=h)
    for label, num in hostile_numbers():
        n = num
        yield "augment(max_memories)", label, lambda n=n: mem.augment("tea?", [], max_memories=n)
        yield "augment(min_relevance)", label, lambda n=n: mem.augment("tea?", [], min_relevance=n)
        yield (
            "compact(budget_tokens)",
            label,
            lambda n=n: mem.compact(ok_hist, session_id="s-hostile", budget_tokens=n),
        )
        yield "search(limit)", label, lambda n=n: m.search("tea", limit=n)
        yield "semantic_search(limit)", label, lambda n=n: m.semantic_search("tea", limit=n)
        yield "list(limit)", label, lambda n=n: m.list(limit=n)
        yield "list(min_strength)", label, lambda n=n: m.list(min_strength=n)
        yield "list(since)", label, lambda n=n: m.list(since=n)
        yield "get_recent(limit)", label, lambda n=n: m.get_recent(n)
        yield "get_upcoming(within_days)", label, lambda n=n: m.get_upcoming(within_days=n)
        yield "find_similar_facts(threshold)", label, lambda n=n: m.find_similar_facts(n, limit=5)
        yield "set_retention_policy", label, lambda n=n: mem.set_retention_policy(max_age_days=n)
        yield "maintenance(sweep)", label, lambda n=n: mem.maintenance(sweep=n)
        yield "LokulMem(max_memories)", label, lambda n=n: LokulMem(storage="memory", max_memories=n)
        yield "LokulMem(decay_rate)", label, lambda n=n: LokulMem(storage="memory", base_decay=n)
    for label, types in hostile_type_lists():
        ty = types
        yield "augment(types)", label, lambda ty=ty: mem.augment("tea?", [], types=ty)
        yield "learn(skip_types)", label, lambda ty=ty: mem.learn("I like tea.", skip_types=ty)
        yield "update(types)", label, lambda ty=ty: m.update(known_id, types=ty)
        yield "list(types)", label, lambda ty=ty: m.list(types=ty)
    for label, doc in hostile_documents():
        d = doc
        yield "import_data(document)", label, lambda d=d: m.import_data(d, merge=True)
    for label, value in [*hostile_ids(), ("too long a path", "x" * 5000), ("a directory", "/")]:
        v = value
        yield "backup(path)", label, lambda v=v: mem.backup(v)
        yield "export_to(path)", label, lambda v=v: m.export_to(v)
        yield "restore(path)", label, lambda v=v: mem.restore(v)
        yield "change_passphrase", label, lambda v=v: mem.change_passphrase(b"x" if v == "" else 3)
        yield "manage.on_memory_added", label, lambda v=v: m.on_memory_added(v)
    for label, opt in [
        ("unknown option", {"bogus": 1}),
        ("surrogate store", {"store_name": "\ud800"}),
        ("NUL store", {"store_name": "a\x00b"}),
        ("path traversal", {"store_name": "../../x"}),
        ("surrogate path", {"path": "/tmp/\ud800.sqlite"}),
        ("surrogate passphrase", {"storage": "memory", "encryption_passphrase": "\ud800"}),
        ("bad key storage", {"storage": "memory", "encryption_passphrase": "x", "key_storage": "disk"}),
        ("passphrase not text", {"storage": "memory", "encryption_passphrase": b"x"}),
    ]:
        o = opt
        yield "LokulMem(options)", label, lambda o=o: LokulMem(**o).init()


def run(mem: LokulMem, *, big_mb: float = 10.0) -> Report:
    """Every hostile call on ``mem`` (it needs at least 50 active memories)."""
    ids = [x.id for x in mem.manage().list(status="active", limit=50)]
    if len(ids) < 50:
        raise ValueError("the hostile run needs a store with at least 50 active memories")
    report = Report()
    # Hostile text is also tried as a path (backup, restore): a scratch working directory
    # keeps what a valid relative path writes out of the caller's directory.
    with tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch):
        for entry, case, call in calls(mem, ids[0], big_mb, iter(ids[1:])):
            _attempt(report, entry, case, call)
    return report


def summary(report: Report) -> dict[str, Any]:
    slow = report.slowest()
    return {
        "calls": len(report.outcomes),
        "entry_points": len(report.by_entry()),
        "escapes": [f"{o.entry} / {o.case}: {o.escaped}" for o in report.escapes],
        "slowest": {"entry": slow.entry, "case": slow.case, "seconds": round(slow.seconds, 3)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--big-mb", type=float, default=10.0)
    parser.add_argument("--max-seconds", type=float, default=1.0)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_core import START_MS, build_store  # the same realistic store as the latency benchmark

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hostile.sqlite"
        build_store(path, args.memories)
        # The default executor: maintenance runs on its background thread, as for a user.
        with LokulMem(path=path, clock=ManualClock(START_MS)) as mem:
            report = run(mem, big_mb=args.big_mb)
    for entry, outs in report.by_entry().items():
        worst = max(outs, key=lambda o: o.seconds)
        bad = sum(o.escaped is not None for o in outs)
        slowest = f"{worst.seconds * 1000:8.1f} ms ({worst.case})"
        print(f"{entry:34s} {len(outs):3d} calls  {bad} escaped  slowest {slowest}")
    for o in report.escapes:
        print(f"ESCAPE {o.entry} / {o.case}: {o.escaped}")
    result = summary(report)
    print(json.dumps(result))
    too_slow = [o for o in report.outcomes if o.seconds > args.max_seconds and o.entry not in WHOLE_STORE]
    for o in too_slow:
        print(f"SLOW {o.entry} / {o.case}: {o.seconds:.2f} s")
    return 1 if report.escapes or too_slow else 0


if __name__ == "__main__":
    sys.exit(main())

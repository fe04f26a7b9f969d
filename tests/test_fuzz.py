"""Property-based fuzzing of every public entry point (hypothesis).

For each entry point, hypothesis draws arguments from strategies that mix
plausible values (real ids of the store, known type names, short messages)
with hostile ones (any Unicode including lone surrogates and controls,
NaN/inf, huge and negative numbers, wrong types, nested junk).  The property:
the call returns, or raises a ``LokulMemError``; nothing else.  And when it
raises, the store's files (database and WAL) are byte-for-byte what they were.

``LOKULMEM_FUZZ_EXAMPLES`` sets the examples per entry point (default 25; the
number run is printed by ``pytest -s``).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lokulmem import LokulMem, LokulMemError, ManualClock, MiniLMEmbedder

EXAMPLES = int(os.environ.get("LOKULMEM_FUZZ_EXAMPLES", "25"))
#: Stands for "an id of a memory in the store now" (drawn at call time).
EXISTING = "@existing"

any_char = st.characters(exclude_categories=())  # lone surrogates and controls included
text = st.one_of(
    st.text(any_char, max_size=80),
    st.sampled_from(
        [
            "I live in Berlin.",
            "My sister Maya is a pianist.",
            "Where do I live?",
            "",
            "   ",
            "\ud800",
            "a\x00b",
        ]
    ),
    st.builds(
        lambda w, n: (w + " ") * n, st.sampled_from(["Berlin", "NEAR(a b)", '"', "*"]), st.integers(1, 3000)
    ),
)
number = st.one_of(
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 5, -1, 10**18]),
)
junk = st.one_of(
    st.none(), st.booleans(), number, text, st.binary(max_size=16), st.lists(st.integers(), max_size=3)
)
ident = st.one_of(st.just(EXISTING), text, junk)
ids = st.one_of(st.lists(ident, max_size=4), junk)
types = st.one_of(
    st.none(), st.lists(st.sampled_from(["identity", "location", "preference", "nope"]), max_size=3), junk
)
message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "system", "tool"]), "content": text}
)
history = st.one_of(st.none(), st.lists(message, max_size=4), junk, st.lists(junk, max_size=3))
flag = st.one_of(st.none(), st.booleans(), junk)
pack = st.fixed_dictionaries(
    {"memories": st.lists(st.fixed_dictionaries({"value": text, "key": ident}), max_size=3)}
)
document = st.one_of(pack, text, junk, st.dictionaries(text, junk, max_size=3))

#: name → (how to get the callable from the client, strategies of its keyword arguments).
ENTRY_POINTS: dict[
    str, tuple[Callable[[LokulMem], Callable[..., Any]], dict[str, st.SearchStrategy[Any]]]
] = {
    "learn": (
        lambda m: m.learn,
        {
            "user_message": text,
            "assistant_response": st.one_of(text, junk),
            "session_id": ident,
            "force_extract": flag,
            "skip_types": types,
            "in_reply_to": st.one_of(text, junk),
        },
    ),
    "remember": (
        lambda m: m.remember,
        {"text": text, "source": st.one_of(st.sampled_from(["reasoning", "direct"]), junk)},
    ),
    "augment": (
        lambda m: m.augment,
        {
            "message": text,
            "history": history,
            "max_memories": number,
            "min_relevance": number,
            "types": types,
            "debug": flag,
            "require_evidence": flag,
            "include_proactive": flag,
            "include_episodes": flag,
        },
    ),
    "compact": (lambda m: m.compact, {"history": history, "session_id": ident, "budget_tokens": number}),
    "end_session": (lambda m: m.end_session, {"session_id": ident}),
    "maintenance": (lambda m: m.maintenance, {"sweep": flag, "cluster": flag}),
    "set_retention_policy": (
        lambda m: m.set_retention_policy,
        {"max_age_days": number, "max_facts": number, "min_confidence": number, "action": junk},
    ),
    "change_passphrase": (
        lambda m: m.change_passphrase,
        {"new_passphrase": st.one_of(st.just(""), number, st.binary())},
    ),
    "backup": (
        lambda m: m.backup,
        {"path": st.one_of(junk, st.just("/nonexistent/dir/x.sqlite")), "overwrite": flag},
    ),
    "restore": (
        lambda m: m.restore,
        {"path": st.one_of(junk, st.just("/nonexistent.sqlite")), "passphrase": junk},
    ),
    "manage.get": (lambda m: m.manage().get, {"memory_id": ident}),
    "manage.update": (
        lambda m: m.manage().update,
        {"memory_id": ident, "content": st.one_of(text, junk), "types": types, "confidence": junk},
    ),
    "manage.pin": (lambda m: m.manage().pin, {"memory_id": ident}),
    "manage.unpin": (lambda m: m.manage().unpin, {"memory_id": ident}),
    "manage.archive": (lambda m: m.manage().archive, {"memory_id": ident}),
    "manage.unarchive": (lambda m: m.manage().unarchive, {"memory_id": ident}),
    "manage.delete": (lambda m: m.manage().delete, {"memory_id": ident}),
    "manage.delete_many": (lambda m: m.manage().delete_many, {"memory_ids": ids}),
    "manage.archive_many": (lambda m: m.manage().archive_many, {"memory_ids": ids}),
    "manage.pin_many": (lambda m: m.manage().pin_many, {"memory_ids": ids}),
    "manage.merge": (lambda m: m.manage().merge, {"memory_ids": ids, "content": st.one_of(text, junk)}),
    "manage.list": (
        lambda m: m.manage().list,
        {
            "types": types,
            "status": junk,
            "min_strength": number,
            "pinned": flag,
            "since": number,
            "until": number,
            "limit": number,
            "offset": number,
            "order_by": junk,
            "direction": junk,
        },
    ),
    "manage.get_by_conversation": (lambda m: m.manage().get_by_conversation, {"conversation_id": ident}),
    "manage.get_recent": (lambda m: m.manage().get_recent, {"limit": number}),
    "manage.get_top": (lambda m: m.manage().get_top, {"limit": number}),
    "manage.search": (lambda m: m.manage().search, {"query": text, "limit": number, "status": junk}),
    "manage.semantic_search": (lambda m: m.manage().semantic_search, {"query": text, "limit": number}),
    "manage.get_related": (lambda m: m.manage().get_related, {"memory_id": ident}),
    "manage.get_upcoming": (lambda m: m.manage().get_upcoming, {"within_days": number}),
    "manage.get_timeline": (lambda m: m.manage().get_timeline, {"status": junk}),
    "manage.get_lineage": (lambda m: m.manage().get_lineage, {"memory_id": ident}),
    "manage.get_injection_preview": (
        lambda m: m.manage().get_injection_preview,
        {
            "user_message": text,
            "types": types,
            "max_memories": number,
            "history": history,
            "require_evidence": flag,
        },
    ),
    "manage.export": (lambda m: m.manage().export, {"include_embeddings": flag}),
    "manage.export_to": (
        lambda m: m.manage().export_to,
        {"path": st.one_of(junk, st.just("/nonexistent/d/x.json")), "include_embeddings": flag},
    ),
    "manage.import_data": (
        lambda m: m.manage().import_data,
        {
            "data": document,
            "merge": flag,
            "conflict_strategy": junk,
            "strict": flag,
            "origin": junk,
            "quality_threshold": number,
            "trust_sources": flag,
        },
    ),
    "manage.find_similar_facts": (
        lambda m: m.manage().find_similar_facts,
        {"threshold": number, "limit": number},
    ),
    "manage.on_memory_added": (lambda m: m.manage().on_memory_added, {"callback": junk}),
    "LokulMem": (
        lambda m: lambda **kw: LokulMem(storage="memory", **kw),
        {
            "max_memories": number,
            "min_relevance": number,
            "store_name": junk,
            "key_storage": junk,
            "encryption_passphrase": junk,
            "injection_mode": junk,
        },
    ),
}


@pytest.fixture(scope="module")
def fuzz_mem(tmp_path_factory: pytest.TempPathFactory, embedder: MiniLMEmbedder) -> Iterator[LokulMem]:
    path = tmp_path_factory.mktemp("fuzz") / "store.sqlite"
    # Drawn text can be a valid relative path: backup() and export_to() then write
    # there, so the working directory is a scratch one, never the repository.
    scratch = tmp_path_factory.mktemp("cwd")
    with (
        contextlib.chdir(scratch),
        LokulMem(path=path, embedder=embedder, clock=ManualClock(), executor="inline") as mem,
    ):
        for line in ("I live in Berlin.", "My sister Maya is a pianist.", "I love strong black coffee."):
            mem.learn(line)
        yield mem


def _fingerprint(mem: LokulMem) -> dict[str, str]:
    path = Path(mem.location)
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in path.parent.glob(path.name + "*")
        if not p.name.endswith("-shm")
    }  # the shared-memory index is not the store's content


def _resolve(value: Any, mem: LokulMem) -> Any:
    if value == EXISTING:
        found = mem.manage().list(limit=1)
        return found[0].id if found else "gone"
    if isinstance(value, list):
        return [_resolve(v, mem) for v in value]
    return value


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_only_results_or_library_errors(name: str, fuzz_mem: LokulMem, data: st.DataObject) -> None:
    get, strategies = ENTRY_POINTS[name]
    kwargs = {
        k: _resolve(data.draw(s, label=k), fuzz_mem)
        for k, s in strategies.items()
        if data.draw(st.booleans(), label=f"pass {k}")
    }
    fuzz_mem.wait_for_maintenance()  # earlier calls' background writes land first
    before = _fingerprint(fuzz_mem)
    try:
        get(fuzz_mem)(**kwargs)
    except LokulMemError:
        assert _fingerprint(fuzz_mem) == before, f"{name} failed and changed the store"
    except TypeError as exc:
        # Only Python's own call check (a required argument not drawn) may raise TypeError.
        assert "required" in str(exc) and "argument" in str(exc), exc


def test_every_public_method_is_fuzzed() -> None:
    from lokulmem.manage import Manager

    public = {n for n in dir(LokulMem) if not n.startswith("_") and callable(getattr(LokulMem, n))}
    manager = {f"manage.{n}" for n in dir(Manager) if not n.startswith("_") and callable(getattr(Manager, n))}
    # Covered elsewhere, each for a reason: lifecycle (init/close/context), blocking waits,
    # destructive wipes (clear), and the other event subscriptions (same code as on_memory_added).
    excused = {
        "init",
        "close",
        "wait_for_maintenance",
        "manage",
        "manage.clear",
        "manage.on_memory_updated",
        "manage.on_memory_deleted",
        "manage.on_memory_faded",
        "manage.on_contradiction_detected",
        "manage.on_stats_changed",
        "manage.unarchive_many",
        "manage.unpin_many",
        "manage.semantic_search_scored",
        "manage.get_grouped",
        "manage.get_pinned",
        "manage.stats",
        "manage.export_to_markdown",
        "manage.get_bridge_events",
        "get_retention_policy",
    }
    missing = sorted((public | manager) - set(ENTRY_POINTS) - excused)
    assert not missing, f"add to ENTRY_POINTS: {missing}"
    assert math.isfinite(EXAMPLES) and EXAMPLES > 0

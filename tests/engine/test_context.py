"""Context vectors embedded after ``learn()`` returns (``lokulmem._engine.context``):
written before anything reads them, with the same vectors and the same recall as
embedding them inside ``learn()``, and never lost on close."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from lokulmem import LokulMem, MiniLMEmbedder
from lokulmem._engine.context import DeferredContexts
from lokulmem.records.memory import context_text
from lokulmem.storage.sqlite_rows import blob_to_vec

CONVERSATION = [
    ("Nine years, and I still love it.", "How long have you been painting?"),
    ("My sister Ana moved to Porto last spring.", "Any family news?"),
    ("I run every morning before work.", "How do you stay fit?"),
]


def _stored_contexts(path: Path) -> dict[str, np.ndarray | None]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT id, context_embedding FROM memories").fetchall()
    finally:
        conn.close()
    return {i: blob_to_vec(b) for i, b in rows}


def test_the_queue_embeds_on_its_thread_then_lands() -> None:
    names: list[str] = []
    landed = threading.Event()

    def embed(text: str) -> np.ndarray:
        names.append(threading.current_thread().name)
        return np.full(3, len(text), dtype=np.float32)

    q = DeferredContexts(embed=embed, land=landed.set)
    q.queue(q.start("hello"), ["a", "b"])
    assert landed.wait(5)
    (job,) = q.ready(wait=True)
    assert [i for i, _ in job.pairs()] == ["a", "b"] and job.pairs()[0][1][0] == 5
    assert names[0].startswith("lokulmem-context")
    q.written([job])
    assert not q.pending
    q.shutdown()


def test_a_failed_embedding_leaves_no_vector_and_no_pending_wait() -> None:
    def broken(text: str) -> np.ndarray:
        raise RuntimeError("model gone")

    q = DeferredContexts(embed=broken, land=lambda: None)
    q.queue(q.start("hello"), ["a"])
    (job,) = q.ready(wait=True)  # done, even though it failed
    assert job.pairs() == []
    q.shutdown()


def test_after_close_intake_jobs_are_embedded_on_the_callers_thread() -> None:
    names: list[str] = []

    def embed(text: str) -> np.ndarray:
        names.append(threading.current_thread().name)
        return np.zeros(3, dtype=np.float32)

    q = DeferredContexts(embed=embed, land=lambda: None)
    q.close_intake()
    q.queue(q.start("hello"), ["a"])
    assert names == [threading.current_thread().name]
    assert [j.ids for j in q.ready(wait=False)] == [("a",)]  # queued for the closing write


def test_learn_returns_before_the_context_and_a_read_sees_it(
    make_mem: Callable[..., LokulMem], embedder: MiniLMEmbedder
) -> None:
    mem = make_mem()
    reply, message = CONVERSATION[0][1], CONVERSATION[0][0]
    learned = mem.learn(message, in_reply_to=reply).extracted[0]
    assert learned.context_embedding is None  # embedded after learn() returned
    got = mem.manage().get(learned.id)
    (want,) = embedder.embed([context_text(reply, message)])
    assert got.context_embedding is not None
    assert np.allclose(got.context_embedding, want, atol=1e-3)


def test_deferring_changes_no_vector_and_no_recall(make_mem: Callable[..., LokulMem]) -> None:
    deferred, inline = make_mem(), make_mem(defer_context_vector=False)
    for mem in (deferred, inline):
        for message, reply in CONVERSATION:
            mem.learn(message, in_reply_to=reply)
    a = {m.content: m for m in deferred.manage().list()}
    b = {m.content: m for m in inline.manage().list()}
    assert a.keys() == b.keys()
    for content, m in a.items():
        other = b[content].context_embedding
        assert m.context_embedding is not None and other is not None
        assert np.allclose(m.context_embedding, other, atol=1e-3)
    for q in ("How long has the user been painting?", "Where does Ana live?", "Do I exercise?"):
        ra, rb = deferred.augment(q, debug=True), inline.augment(q, debug=True)
        assert ra.debug is not None and rb.debug is not None
        got = [(c.memory.content, round(c.score, 4)) for c in ra.debug.candidates]
        want = [(c.memory.content, round(c.score, 4)) for c in rb.debug.candidates]
        assert got == want


def test_augment_right_after_learn_scores_with_the_context(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    message, reply = CONVERSATION[0]
    learned = mem.learn(message, in_reply_to=reply).extracted[0]
    r = mem.augment("How long has the user been painting?", debug=True)
    assert r.debug is not None
    top = next(c for c in r.debug.candidates if c.memory.id == learned.id)
    assert top.memory.context_embedding is not None


def test_close_writes_what_is_pending(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    path = tmp_path / "closing.sqlite"
    mem = make_mem(path=path)
    engine = mem._engine
    mem.learn("I grow tomatoes.")  # the session's first message runs maintenance (which settles)
    mem.wait_for_maintenance()  # finished now, not late beside what follows
    # Hold the helper's write back: only close() can write the vector.  And hold its
    # embedding until learn() has returned, or a fast helper would hand the vector to
    # learn()'s own write (a race the test would otherwise lose on a loaded machine).
    engine.contexts._land = lambda: None
    gate = threading.Event()
    embed = engine.contexts._embed

    def held(text: str) -> np.ndarray:
        gate.wait(10)
        return embed(text)

    engine.contexts._embed = held
    learned = mem.learn("I keep bees in my garden.", in_reply_to="Any hobbies?").extracted[0]
    assert engine.contexts.pending
    gate.set()
    mem.close()
    stored = _stored_contexts(path)
    assert stored[learned.id] is not None


def test_a_failed_learn_keeps_the_pending_vectors(
    make_mem: Callable[..., LokulMem], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "rollback.sqlite"
    mem = make_mem(path=path)
    engine = mem._engine
    mem.learn("I grow tomatoes.")  # the session's first message runs maintenance (which settles)
    # Let that maintenance finish now: run late, on a busy machine, it would settle
    # the next message's context vector before the failed write this test is about.
    mem.wait_for_maintenance()
    # ... and let the helper thread finish its run for that message: it calls the
    # real ``_land`` after the vector is ready, and on a busy machine that call
    # could come after the next message and write its vector (the pool runs one
    # job at a time, so a no-op queued behind it returns once it has).
    pool = engine.contexts._pool
    if pool is not None:
        pool.submit(lambda: None).result()
    engine.contexts._land = lambda: None  # only a later write lands it
    first = mem.learn("I collect vintage maps.", in_reply_to="Any hobbies?").extracted[0]
    engine.contexts.ready(wait=True)

    def broken(memory: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(engine.storage, "insert_memory", broken)
    with pytest.raises(Exception, match="disk I/O error"):
        mem.learn("I play the cello on Sundays.")
    assert _stored_contexts(path)[first.id] is None  # rolled back with the failed write
    assert engine.contexts.pending
    monkeypatch.undo()
    assert mem.manage().get(first.id).context_embedding is not None
    assert _stored_contexts(path)[first.id] is not None

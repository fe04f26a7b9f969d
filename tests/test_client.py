import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lokulmem
from helpers import searchable_ids
from lokulmem import (
    AsyncLokulMem,
    LokulMem,
    ManualClock,
    MemoryNotFoundError,
    MiniLMEmbedder,
    ProgressEvent,
    StorageError,
    StoreClosedError,
    ValidationError,
)


def _dump(mem: LokulMem) -> dict[str, Any]:
    return mem.manage().export()


def test_empty_messages_are_a_no_op(mem: LokulMem) -> None:
    assert mem.learn("", "").extracted == ()
    assert mem.learn("   \n\t", "").total_memories == 0
    r = mem.augment("  ", [{"role": "user", "content": "x"}], debug=True)
    assert r.context == "" and r.debug is not None and r.debug.injected == ()


def test_wrong_types_name_the_item(mem: LokulMem) -> None:
    with pytest.raises(ValidationError, match="user_message"):
        mem.learn(None, "")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="assistant_response"):
        mem.learn("hi", 3)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="skip_types"):
        mem.learn("hi", "", skip_types="identity")
    with pytest.raises(ValidationError, match=r"history\[0\]"):
        mem.augment("hi", ["not a dict"])  # type: ignore[list-item]
    with pytest.raises(MemoryNotFoundError, match="nope"):
        mem.manage().get("nope")


def test_one_megabyte_message_is_bounded(mem: LokulMem) -> None:
    text = ("I live in Berlin and I love cycling along the river every single morning. " * 14000)[:1_000_000]
    start = time.perf_counter()
    r = mem.learn(text, "")
    assert time.perf_counter() - start < 30
    assert r.truncated and len(r.decisions) <= mem.config.max_sentences_per_message
    a = mem.augment(text, [{"role": "user", "content": text}])
    assert a.messages[-1]["content"] == text


def test_failed_learn_leaves_store_as_it_was(mem: LokulMem, monkeypatch: pytest.MonkeyPatch) -> None:
    mem.learn("I live in Berlin.", "")
    before = _dump(mem)
    index_before = searchable_ids(mem)
    storage = mem.storage
    real_update = storage.update_memory

    def failing_update(m: Any) -> None:
        real_update(m)
        raise StorageError("disk full (injected)")

    monkeypatch.setattr(storage, "update_memory", failing_update)
    added: list[Any] = []
    mem.manage().on_memory_added(added.append)
    with pytest.raises(StorageError, match="injected"):
        # a new fact is inserted, then the supersession update fails
        mem.learn("I love jazz. I live in London.", "")
    assert _dump(mem) == before and searchable_ids(mem) == index_before and added == []


def test_skip_types_force_extract_and_sessions(mem: LokulMem) -> None:
    assert mem.learn("I feel so tired today.", "", skip_types=["emotional", "temporal"]).extracted == ()
    r = mem.learn("ok cool", "", force_extract=True, session_id="s-9")
    assert len(r.extracted) == 1 and r.extracted[0].source_session == "s-9"
    r2 = mem.learn("My brother Tom lives in Oslo.", "", session_id="s-9")
    assert r2.extracted[0].source_turn == 1 and r2.extracted[0].source_text == "My brother Tom lives in Oslo."
    assert r2.extracted[0].entities == ("Tom", "Oslo")


def test_custom_types(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(custom_types=[{"name": "medical", "decay_lambda": 0.00005, "keywords": ["allergic"]}])
    m = mem.learn("I am allergic to penicillin.", "").extracted[0]
    assert "medical" in m.types


def test_progress_callbacks_and_close(embedder: MiniLMEmbedder, clock: ManualClock, tmp_path: Path) -> None:
    stages: list[ProgressEvent] = []
    added: list[Any] = []
    mem = LokulMem(
        path=tmp_path / "p.sqlite",
        embedder=embedder,
        clock=clock,
        on_progress=stages.append,
        on_memory_added=added.append,
    )
    with mem:
        mem.wait_for_maintenance(30)
        done = [e.stage for e in stages if e.progress == 1.0]
        # executor="thread": maintenance runs in the background and may finish after "ready".
        assert sorted(done) == sorted(["worker", "model", "storage", "maintenance", "ready"])
        assert done[:3] == ["worker", "model", "storage"]
        mem.learn("I live in Rome.", "")
        assert len(added) == 1
    with pytest.raises(StoreClosedError):
        mem.learn("I live in Rome.", "")


def test_a_raising_callback_does_not_break_learn(mem: LokulMem) -> None:
    seen: list[Any] = []
    mem.manage().on_memory_added(lambda m: 1 / 0)
    unsub = mem.manage().on_memory_added(seen.append)
    assert mem.learn("I live in Madrid.", "").extracted
    unsub()
    mem.learn("I work at Globex.", "")
    assert len(seen) == 1


def _script(mem: Any) -> list[str]:
    return [
        "Hi, my name is Sam and I live in Oslo.",
        "I work at Initech as a data analyst.",
        "I prefer tea over coffee.",
        "I live in Bergen now.",
    ]


def test_async_and_sync_give_identical_results(embedder: MiniLMEmbedder, tmp_path: Path) -> None:
    def norm(result: Any) -> Any:
        return [(m.content, m.types, m.base_strength, m.extraction_score) for m in result.extracted], [
            (c.resolution, c.existing.content, c.incoming.content) for c in result.contradictions
        ]

    sync = LokulMem(path=tmp_path / "s.sqlite", embedder=embedder, clock=ManualClock(), session_id="x")
    sync_out = [norm(sync.learn(t, "")) for t in _script(sync)]
    sync_aug = sync.augment("Where do I live and work?", [], debug=True)
    sync.close()

    async def run() -> tuple[list[Any], Any]:
        async with AsyncLokulMem(
            path=tmp_path / "a.sqlite", embedder=embedder, clock=ManualClock(), session_id="x"
        ) as amem:
            out = [norm(await amem.learn(t, "")) for t in _script(amem)]
            aug = await amem.augment("Where do I live and work?", [], debug=True)
            listed = await amem.manage().list()
            assert len(listed) == sum(len(x[0]) for x in out) >= 4
            return out, aug

    async_out, async_aug = asyncio.run(run())
    assert sync_out == async_out
    assert sync_aug.context == async_aug.context
    assert sync_aug.debug and async_aug.debug
    assert [round(i.score, 9) for i in sync_aug.debug.injected] == [
        round(i.score, 9) for i in async_aug.debug.injected
    ]


def test_async_does_not_block_the_loop(embedder: MiniLMEmbedder, tmp_path: Path) -> None:
    async def run() -> int:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.001)
                ticks += 1

        async with AsyncLokulMem(path=tmp_path / "b.sqlite", embedder=embedder) as amem:
            task = asyncio.create_task(ticker())
            for i in range(10):
                await amem.learn(f"I visited city number {i} called Town{i} last summer.", "")
            task.cancel()
        return ticks

    assert asyncio.run(run()) > 5


def test_in_memory_store(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem(storage="memory", path=None)
    assert mem.location == ":memory:"
    assert mem.learn("I live in Quito.", "").extracted
    assert "Quito" in mem.augment("Where do I live?", []).context


def test_recurrence_counts_earlier_sentences_of_the_session(mem: LokulMem) -> None:
    recs = [
        mem.learn("The weather was nice on the walk.", "", session_id="r").decisions[0].recurrence
        for _ in range(3)
    ]
    assert recs == pytest.approx([0.2, 0.45, 0.7])
    other = mem.learn("The weather was nice on the walk.", "", session_id="other").decisions[0]
    assert other.recurrence == pytest.approx(0.2)  # recurrence is per session


def test_progress_order_inline(embedder: MiniLMEmbedder, clock: ManualClock, tmp_path: Path) -> None:
    stages: list[ProgressEvent] = []
    with LokulMem(
        path=tmp_path / "p.sqlite",
        embedder=embedder,
        clock=clock,
        executor="inline",
        on_progress=stages.append,
    ):
        assert [e.stage for e in stages if e.progress == 1.0] == [
            "worker",
            "model",
            "storage",
            "maintenance",
            "ready",
        ]


def test_session_state_is_bounded(make_mem: Callable[..., LokulMem]) -> None:
    # A session's state (turn, what the next message answers) is kept for the
    # session_cache_size most recent sessions; an evicted session starts afresh.
    mem = make_mem(session_cache_size=3)
    for i in range(6):
        mem.learn(
            f"The weather was nice on walk number {i}.", f"Which route did you take, {i}?", session_id=f"s{i}"
        )
    kept = mem.learn("I took the long river path.", session_id="s5").extracted[0]
    evicted = mem.learn("I took the short forest path.", session_id="s0").extracted[0]
    assert kept.reply_context == "Which route did you take, 5?" and kept.source_turn == 1
    assert evicted.reply_context == "" and evicted.source_turn == 0


def test_feeling_about_an_event_is_backed_by_a_durable_type(make_mem: Callable[..., LokulMem]) -> None:
    mem = make_mem()
    state = mem.learn("I'm so excited today!").extracted
    event = mem.learn("I felt really proud running my talk at the school board").extracted
    assert state and set(state[0].types) <= {"emotional", "temporal"}
    assert event and "emotional" in event[0].types and len(event[0].types) >= 2
    off = make_mem(config=lokulmem.Config(backing_min_terms=0)).learn(
        "I felt really proud running my talk at the school board"
    )
    assert off.extracted and off.extracted[0].types == ("emotional",)


def test_a_message_remembers_what_it_answered(mem: LokulMem) -> None:
    mem.learn(
        "My wife and I renewed our vows last weekend.",
        "Congratulations! How many years have you two been married?",
    )
    result = mem.learn("Five years already, and it still feels new.")
    assert result.extracted
    m = result.extracted[0]
    assert m.reply_context == "Congratulations! How many years have you two been married?"
    # The question's words are in what the memory answered, not in its content.
    preview = mem.manage().get_injection_preview("How long have I been married?")
    assert m.id in [i.memory.id for i in preview.would_inject[:2]]
    assert preview.would_inject[0].score_breakdown.lexical > 0

    # Only the end of a long response is kept; an explicit in_reply_to wins; "" means none.
    long = "x" * 5000 + " Which city were you born in?"
    mem.learn("I have two cats.", long, session_id="s2")
    born = mem.learn("Porto, in the north of Portugal.", session_id="s2").extracted[0]
    assert born.reply_context == long[-mem.config.max_reply_context_chars :]
    told = mem.learn("I collect vinyl records.", in_reply_to="Any hobbies?", session_id="s2").extracted[0]
    assert told.reply_context == "Any hobbies?"
    none = mem.learn("I speak Portuguese and German.", in_reply_to="", session_id="s3").extracted[0]
    assert none.reply_context == ""
    with pytest.raises(ValidationError, match="in_reply_to"):
        mem.learn("I like tea.", in_reply_to=3)  # type: ignore[arg-type]


def test_remember_stores_an_agents_conclusion_as_reasoning(mem: LokulMem) -> None:
    from lokulmem import ValidationError

    mem.learn("I live in Berlin.", "Nice!", session_id="s")
    result = mem.remember("I moved to Lisbon last month.", session_id="s")
    (fact,) = result.extracted
    assert fact.source == "reasoning" and fact.content.startswith("User moved to Lisbon")
    # It is judged like any fact: the Berlin fact is closed, not deleted.
    assert [e.existing.content for e in result.contradictions] == ["User lives in Berlin."]
    # Not a turn of the conversation: the next message still answers "Nice!".
    nxt = mem.learn("Yes, with my partner Ana.", session_id="s")
    assert all(m.reply_context == "Nice!" for m in nxt.extracted)
    # Stored even when the gate would skip it, and shown as reasoning in the evidence.
    out = mem.augment("Where do I live?", debug=True)
    assert any(card.source == "reasoning" for card in out.debug.evidence)  # type: ignore[union-attr]
    with pytest.raises(ValidationError):
        mem.remember("x", source="nightly")  # type: ignore[arg-type]


def test_general_statements_and_hypotheticals_are_not_stored(mem: LokulMem) -> None:
    for text, outcome in (
        ("Water boils at 100 degrees.", "general-statement"),
        ("If I won the lottery I would buy a boat.", "hypothetical"),
        ("Imagine I lived in Rome.", "hypothetical"),
    ):
        result = mem.learn(text)
        assert [d.outcome for d in result.decisions] == [outcome] and not result.extracted
        assert mem.learn(text, force_extract=True).extracted  # the user can still insist
    # Tied to the user's world by a date or a relation: kept.
    assert mem.learn("Meeting moved to Friday.").extracted
    assert mem.learn("Sister's birthday is on the 5th.").extracted


def test_news_of_someone_the_user_told_about_is_stored_and_current(mem: LokulMem, clock: ManualClock) -> None:
    """No "I" in the news, and the name opens it: the wife the user introduced makes
    it the user's world, so it is stored, and it answers for how things stand now."""
    clock.set(1_790_000_000_000)
    mem.learn("My wife Ola is a nurse, she works night shifts at the city hospital.")
    clock.advance(days=30)
    news = mem.learn("Big news: Ola got a day job at a private clinic, no more night shifts!")
    assert [d.outcome for d in news.decisions] == ["stored"]
    assert "Ola" in news.extracted[0].entities
    clock.advance(days=2)
    out = mem.augment("Does my wife still work nights?", debug=True)
    assert out.debug is not None
    assert "day job" in out.debug.injected[0].memory.content
    # Someone the store has never heard of is still no one's news.
    stranger = mem.learn("Olek got a day job at a bakery.")
    assert [d.outcome for d in stranger.decisions] == ["general-statement"]


@pytest.mark.parametrize(
    ("before", "after", "question"),
    [
        ("I'm cycling to school every day.", "Now I take the tram.", "How do I get to work?"),
        ("I teach chemistry at a secondary school.", "I'm a nurse now.", "What's my job?"),
        ("I'm at 94 kg.", "Weight is back up to 97 kg, sadly.", "How much do I weigh?"),
        ("I retired in May.", "I retired after 30 years as a postman.", "What did I do for a living?"),
        # No slot, but a named grandson's standing arrangement and its change.
        (
            "My grandson Alfie stays with us on Wednesdays.",
            "Alfie now comes on Fridays instead of Wednesdays.",
            "When does Alfie visit?",
        ),
    ],
)
def test_a_slot_told_in_other_words_answers_with_its_newest_value(
    mem: LokulMem, clock: ManualClock, before: str, after: str, question: str
) -> None:
    """The newer fact, told in other words, answers first: both set the slot the
    question asks for, or the older states an arrangement the newer changes."""
    clock.set(1_790_000_000_000)
    mem.learn(before)
    clock.advance(days=20)
    news = mem.learn(after).extracted[0]
    clock.advance(days=20)
    out = mem.augment(question, debug=True)
    assert out.debug is not None and out.debug.injected[0].memory.id == news.id


def test_the_vectors_a_process_holds_are_the_ones_it_stored(make_mem: Callable[..., LokulMem]) -> None:
    # vector_storage="float16" (default): vectors are rounded as they are made, so the
    # learned memory, the index and a fresh read of the file agree to the bit.
    mem = make_mem()
    learned = mem.learn("I live in Porto.").decisions[0].memory_id
    assert learned is not None
    held = mem.engine.index.exact.vectors([learned])[0]
    stored = mem.storage.get_memory(learned)
    assert stored is not None and stored.embedding is not None
    assert np.array_equal(held, stored.embedding)
    assert np.array_equal(held, held.astype(np.float16).astype(np.float32))


class _BlasWatcher:
    """The real model, noting numpy's BLAS thread count while it embeds on the
    caller's thread (a message context is embedded after ``learn()`` returns, on
    the engine's context thread, outside any call: see lokulmem._engine.context)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.seen = inner, []
        self.model_id, self.dimension = inner.model_id, inner.dimension
        self.caller = threading.get_ident()

    def embed(self, texts: Any) -> Any:
        from threadpoolctl import threadpool_info

        if threading.get_ident() == self.caller:
            self.seen.append(max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"))
        return self.inner.embed(texts)


def test_blas_runs_on_blas_threads_during_calls_and_is_restored(make_mem, embedder) -> None:  # type: ignore[no-untyped-def]
    from threadpoolctl import threadpool_info, threadpool_limits

    def blas() -> int:
        return max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")

    with threadpool_limits(limits=3, user_api="blas"):  # a user's own setting, above one
        watcher = _BlasWatcher(embedder)
        mem = make_mem(embedder=watcher)
        mem.learn("I live in Berlin and I play the cello.", "")
        mem.augment("Where do I live?", [])
        assert watcher.seen and set(watcher.seen) == {1}
        assert blas() == 3  # restored after each call
        untouched = _BlasWatcher(embedder)
        other = make_mem(embedder=untouched, blas_threads=0)
        other.augment("Where do I live?", [])
        assert set(untouched.seen) == {3}


@pytest.mark.parametrize(
    ("asked", "kept"), [("Lovely! What do they eat?", True), ("Lovely, enjoy them.", False)]
)
def test_an_answer_to_the_question_just_asked_is_about_the_user_world(
    make_mem: Callable[..., LokulMem], asked: str, kept: bool
) -> None:
    """No "I" and no name, but it answers what the user was asked: the impersonal
    margin is ``answer_margin`` (0) instead of ``impersonal_margin``."""
    mem = make_mem()
    mem.learn("I adopted two rabbits last spring.", asked)
    result = mem.learn("They eat hay, fresh greens and the odd carrot.", "Nice.")
    outcomes = [d.outcome for d in result.decisions]
    assert outcomes == (["stored"] if kept else ["below-threshold"])
    strict = make_mem(answer_margin=0.10)  # the impersonal margin for answers too
    strict.learn("I adopted two rabbits last spring.", asked)
    assert [d.outcome for d in strict.learn("They eat hay, fresh greens and the odd carrot.").decisions] == [
        "below-threshold"
    ]

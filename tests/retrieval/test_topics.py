"""Topic hints: an untyped memory speaks of the attribute of its nearest example
statement (lokulmem.retrieval.topics, lokulmem._engine.topics)."""

from collections.abc import Callable

import numpy as np

from lokulmem import LokulMem, ManualClock
from lokulmem._engine.topics import statement_vectors
from lokulmem.embedding import MiniLMEmbedder
from lokulmem.retrieval.routing import ROUTES, routed_attributes
from lokulmem.retrieval.topics import STATEMENTS, example_statements


def test_every_statement_speaks_of_a_route() -> None:
    firsts = {names[0] for names, _ in ROUTES}
    assert set(STATEMENTS) <= firsts
    texts, routes = example_statements()
    assert len(texts) == len(routes) == sum(len(s) for s in STATEMENTS.values())
    for text, route in zip(texts, routes, strict=True):
        assert text in STATEMENTS[ROUTES[route][0][0]]
        assert text.startswith("User"), text  # as memories store the user


def test_the_examples_are_embedded_once_per_model(embedder: MiniLMEmbedder) -> None:
    first = statement_vectors(embedder)
    assert first.shape == (len(example_statements()[0]), embedder.dimension)
    assert statement_vectors(embedder) is first
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)


def test_a_change_in_other_words_speaks_of_its_slot_and_a_remark_of_none(embedder: MiniLMEmbedder) -> None:
    examples = statement_vectors(embedder)
    _, routes = example_statements()
    said = {
        "User is on the bus every morning now.": {"user.commute"},
        "Since the baby came User gets maybe four hours.": {"user.sleep", "user.bedtime"},
        "User had pasta for dinner.": set(),
        "User's dog is called Biscuit.": set(),
    }
    vectors = embedder.embed(list(said))
    for (text, want), v in zip(said.items(), vectors, strict=True):
        unit = np.asarray(v, dtype=np.float32) / np.linalg.norm(v)
        got = set(routed_attributes(unit, examples, routes, similarity=0.6, margin=0.03))
        assert got == want, text


def test_a_later_word_told_untyped_stands_above_the_fact_of_the_slot(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """The bus to work, told in words no rule types, follows the cycling fact: with
    hints it is injected above it, with its reason; an untyped remark told no later
    than the fact is not hinted (the stage's note counts one hint)."""
    for hints in (0.6, 0.0):
        mem = make_mem(asked_topic_similarity=hints)
        mem.learn("I cycle to work.")
        mem.learn("I'm on the bus to my sister's today, she just had a baby.")
        clock.advance(days=20)
        mem.learn("My bike got stolen so I'm on the bus every morning now.")
        mem.learn("I had pasta for dinner.")
        clock.advance(days=20)
        result = mem.augment("How do I get to work?", debug=True)
        assert result.debug is not None
        injected = [(i.memory.content, i.reason) for i in result.debug.injected]
        note = next(s.detail for s in result.debug.stages if s.name == "candidates")
        if hints:
            assert [c for c, _ in injected] == [
                "User is on the bus every morning now.",
                "User cycles to work.",
            ]
            assert "speaks of what the question asks about" in injected[0][1]
            assert "1 memory with no attribute speaks of it" in note
        else:
            assert [c for c, _ in injected] == ["User cycles to work."]
            assert "speaks of it" not in note
        mem.close()


def test_without_a_fact_of_the_slot_nothing_is_hinted(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """A hint follows a fact of the slot; alone, it would only lift remarks."""
    mem = make_mem()
    mem.learn("My bike got stolen so I'm on the bus every morning now.")
    clock.advance(days=2)
    result = mem.augment("How do I get to work?", debug=True)
    assert result.debug is not None
    assert all("speaks of" not in i.reason for i in result.debug.injected)


def test_a_later_word_no_search_of_the_question_finds_is_found_by_the_slot_s_examples(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """With the question's vector search cut to two candidates, the bus to work is
    no candidate of "How do I get to work?": the search by the commute's example
    statements finds it (count ``topic``); with ``asked_topic_pool`` 0 it is not found."""
    for pool in (20, 0):
        mem = make_mem(asked_topic_pool=pool, candidate_pool=2)
        mem.learn("I cycle to work.")
        clock.advance(days=20)
        remarks = ("I love the work my team does.", "Work was mad busy today.", "I got to the gym twice.")
        for remark in remarks:
            mem.learn(remark)
        mem.learn("My bike got stolen so I'm on the bus every morning now.")
        clock.advance(days=20)
        result = mem.augment("How do I get to work?", debug=True)
        assert result.debug is not None
        stage = next(s for s in result.debug.stages if s.name == "candidates")
        injected = [i.memory.content for i in result.debug.injected]
        if pool:
            assert stage.counts["topic"] == 1
            assert injected[:2] == ["User is on the bus every morning now.", "User cycles to work."]
        else:
            assert stage.counts["topic"] == 0
            assert "User is on the bus every morning now." not in injected
        mem.close()

"""Routing: a question no cue reads asks for the attributes of its nearest example
(lokulmem.retrieval.routing, lokulmem._engine.routing)."""

from collections.abc import Callable

import numpy as np
import pytest

from lokulmem import LokulMem, ManualClock
from lokulmem._engine.routing import example_vectors
from lokulmem.embedding import MiniLMEmbedder
from lokulmem.extraction.attribute_patterns import PATTERNS
from lokulmem.extraction.attribute_rules import RULES
from lokulmem.retrieval.asked import asked_attributes
from lokulmem.retrieval.routing import (
    ROUTES,
    about_user,
    example_questions,
    named_relations,
    routed_attributes,
)


def _unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


# Three routes in a toy space: the first two unrelated, a third sharing the first's attribute.
_TOY = np.stack([_unit(1, 0, 0), _unit(0, 1, 0), _unit(0.9, 0.1, 0.3)])


def _route_of(name: str) -> int:
    return next(n for n, (names, _) in enumerate(ROUTES) if names[0] == name)


def test_the_nearest_example_gives_its_route_s_attributes() -> None:
    routes = [_route_of("employer"), _route_of("diet"), _route_of("job")]
    got = routed_attributes(_unit(1, 0.05, 0), _TOY, routes, similarity=0.6, margin=0.03)
    assert got == ("user.employer", "user.job")


def test_below_the_similarity_or_the_margin_nothing_is_routed() -> None:
    routes = [_route_of("employer"), _route_of("diet"), _route_of("job")]
    far = _unit(0.5, 0.4, 0.77)
    assert routed_attributes(far, _TOY, routes, similarity=0.9, margin=0.0) == ()
    # A route sharing an attribute with the best is no rival.
    assert routed_attributes(_unit(1, 0, 0.1), _TOY, routes, similarity=0.5, margin=0.03) == (
        "user.employer",
        "user.job",
    )


def test_a_near_tie_asks_for_both_routes_and_a_three_way_tie_for_none() -> None:
    three = np.stack([_unit(1, 0, 0), _unit(0, 1, 0), _unit(0, 0, 1)])
    routes = [_route_of("employer"), _route_of("diet"), _route_of("religion")]
    tie = _unit(1, 1.02, 0)
    got = routed_attributes(tie, three, routes, similarity=0.5, margin=0.03)
    assert got == ("user.diet", "user.employer", "user.job")
    # Outside the margin the best route is alone.
    assert routed_attributes(tie, three, routes, similarity=0.5, margin=0.01) == ("user.diet",)
    assert routed_attributes(_unit(1, 1, 1.02), three, routes, similarity=0.5, margin=0.03) == ()
    # A named relation's question takes a tie only when both routes name it.
    manager = [_route_of("relation:manager"), _route_of("diet"), _route_of("religion")]
    near_manager = _unit(1.02, 1, 0)
    assert routed_attributes(
        near_manager, three, manager, similarity=0.5, margin=0.01, named=frozenset({"manager"})
    )
    assert (
        routed_attributes(
            near_manager, three, manager, similarity=0.5, margin=0.03, named=frozenset({"manager"})
        )
        == ()
    )


@pytest.mark.parametrize(
    ("text", "user", "named"),
    [
        ("Who's in charge of me these days?", True, set()),
        ("What does my sister eat?", True, {"sister"}),
        ("Where do our kids go to school?", True, {"kid", "kids"}),
        ("Who is my boss?", True, {"boss"}),
        ("What is the boiling point of tungsten?", False, set()),
    ],
)
def test_who_a_question_is_about(text: str, user: bool, named: set[str]) -> None:
    assert about_user(text) is user
    assert named_relations(text) == named


def test_every_route_names_attributes_the_rules_set() -> None:
    """A route to an attribute no rule writes would find nothing."""
    written = {r.attribute.split(":")[0] for r in RULES} | {name.split(":")[0] for name, _ in PATTERNS}
    written |= {"relation", "platform", "provider"}
    texts, routes = example_questions()
    assert len(texts) == len(routes) and set(routes) == set(range(len(ROUTES)))
    for names, questions in ROUTES:
        assert questions, names
        for name in names:
            assert name.split(":")[0] in written, name


def test_the_examples_are_embedded_once_per_model(embedder: MiniLMEmbedder) -> None:
    first = example_vectors(embedder)
    assert first.shape == (len(example_questions()[0]), embedder.dimension)
    assert example_vectors(embedder) is first
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)


def test_a_question_in_other_words_finds_the_fact_of_its_attribute(
    make_mem: Callable[..., LokulMem], clock: ManualClock
) -> None:
    """ "Are there foods I stay away from?" is read by no cue; routed to the diet, it
    gets the diet fact it shares no word with (off, nothing is injected)."""
    question = "Are there foods I stay away from?"
    assert not asked_attributes(question)
    for routing in (True, False):
        mem = make_mem(asked_routing=routing)
        mem.learn("I'm vegan these days.")
        mem.learn("I play five-a-side football on Thursdays.")
        clock.advance(days=3)
        result = mem.augment(question, debug=True)
        assert result.debug is not None and result.debug.query is not None
        injected = [i.memory.content for i in result.debug.injected]
        if routing:
            assert result.debug.query.routed and result.debug.query.asked_attributes == ("user.diet",)
            assert injected == ["User is vegan these days."]
            stage = next(s for s in result.debug.stages if s.name == "candidates")
            assert "nearest example question: user.diet" in stage.detail
        else:
            assert not result.debug.query.routed and injected == []
        mem.close()


def test_someone_else_s_question_and_a_statement_are_not_routed(mem: LokulMem) -> None:
    mem.learn("I'm vegan these days.")
    for text in ("What does my sister eat?", "I eat a lot of pasta.", "What do vegans eat?"):
        result = mem.augment(text, debug=True)
        assert result.debug is not None and result.debug.query is not None
        assert not result.debug.query.routed, text

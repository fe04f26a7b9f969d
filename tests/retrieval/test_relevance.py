"""The evidence decision: pure parts on hand-built inputs, then through augment()
on real text with the real model."""

import math

import pytest

from lokulmem import Config, LokulMem
from lokulmem.retrieval import name_terms
from lokulmem.retrieval.query import clauses
from lokulmem.retrieval.relevance import BELOW_MARGIN, NO_EVIDENCE, coverage, evidence, idf, inherit


def test_idf_is_bm25s_and_falls_with_frequency() -> None:
    assert idf(0, 10) == pytest.approx(math.log(1 + 10.5 / 0.5))
    assert idf(0, 10) > idf(1, 10) > idf(5, 10) > idf(10, 10) > 0


def test_coverage_weighs_rare_terms_names_and_unknown_words() -> None:
    df = {"sister": 1, "live": 4, "weekend": 0, "priya": 0}
    matched = {"sister": frozenset({"a"}), "live": frozenset({"a", "b"})}
    both = coverage(["sister", "live"], df, matched, 10)
    assert both["a"] == pytest.approx(1.0)
    assert 0 < both["b"] < 0.5  # "live" is common: it covers less than half
    # An ordinary word never seen weighs a share of its IDF; a name all of it.
    word = coverage(["sister", "weekend"], df, matched, 10, unknown_weight=0.2)["a"]
    name = coverage(["sister", "priya"], df, matched, 10, names={"priya"}, unknown_weight=0.2)["a"]
    assert name < word < 1.0
    assert coverage([], df, matched, 10) == {}


def test_evidence_adds_coverage_and_the_asked_attribute() -> None:
    cfg = Config()
    plain = evidence(0.3, 0.5, cfg)
    assert plain == pytest.approx(0.3 + cfg.relevance_coverage_weight * 0.5)
    asked = evidence(0.3, 0.5, cfg, asked_attribute=True)
    assert asked == pytest.approx(plain + cfg.relevance_attribute_weight)


def test_a_successor_inherits_its_predecessors_evidence() -> None:
    assert inherit({"old": 0.6, "new": 0.2, "x": 0.1}, [("old", "new"), ("gone", "x")]) == {
        "old": 0.6,
        "new": 0.6,
        "x": 0.1,
    }


def test_names_and_clauses_of_a_query() -> None:
    assert name_terms("Where does Priya live? Ask Dev's mum.") == {"priya", "dev"}
    assert name_terms("Where do I live?") == set()
    assert clauses("Where do I live now, and could my sister visit me this weekend?") == [
        "Where do I live now",
        "could my sister visit me this weekend?",
    ]
    assert clauses("What do Rui and Dana have in common?") == ["What do Rui and Dana have in common?"]


def _seed(mem: LokulMem) -> None:
    for text in [
        "I live in Berlin.",
        "I work at Acme Corp as a product manager.",
        "My sister Maya is a doctor in Hamburg.",
        "I am allergic to peanuts.",
        "I'm training for the Berlin marathon in October.",
        "I moved to Munich.",
    ]:
        mem.learn(text, "")


@pytest.mark.parametrize(
    "question",
    [
        "What's the capital of Peru?",
        "How do I reverse a list in Python?",
        "Tell me a joke.",
        "What did Rui sculpt last week?",
        "When is my dentist appointment?",
    ],
)
def test_a_question_about_nothing_stored_injects_nothing(mem: LokulMem, question: str) -> None:
    _seed(mem)
    r = mem.augment(question, debug=True)
    assert r.debug is not None
    assert r.context == "" and r.debug.injected == ()
    assert r.messages == [{"role": "user", "content": question}]
    assert r.debug.candidates and all(not c.injected for c in r.debug.candidates)
    assert all(c.evidence is not None for c in r.debug.candidates)
    # Nothing injected, so nothing reinforced.
    assert all(m.mention_count == 0 for m in mem.manage().list())


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What am I allergic to?", "peanuts"),
        ("What does my sister do?", "Maya"),
        ("How should I prepare for my race?", "marathon"),
        ("Where do I work?", "Acme"),
    ],
)
def test_a_relevant_question_injects_what_answers_it(mem: LokulMem, question: str, expected: str) -> None:
    _seed(mem)
    r = mem.augment(question, debug=True)
    assert r.debug is not None and r.debug.injected
    assert expected in r.debug.injected[0].memory.content
    assert len(r.debug.injected) < 4  # not every memory, as a fixed K would
    cfg = mem.engine.config
    for i in r.debug.injected:
        assert i.evidence is not None and i.evidence >= cfg.relevance_threshold
    for c in r.debug.candidates:
        if c.excluded_reason == NO_EVIDENCE:
            assert c.evidence is not None and c.evidence < cfg.relevance_threshold
        if c.excluded_reason == BELOW_MARGIN:
            assert c.score < cfg.relevance_margin * r.debug.injected[0].score


def test_the_asked_attribute_is_evidence(mem: LokulMem) -> None:
    _seed(mem)
    r = mem.augment("Where do I live?", debug=True)
    assert r.debug is not None
    # "User moved to Munich." shares no word with the question; it sets user.residence,
    # and the Berlin fact it closed is history after it.
    contents = [i.memory.content for i in r.debug.injected]
    assert contents[0] == "User moved to Munich." and "User lives in Berlin." in contents
    off = mem.augment("Where do I live?", debug=True, require_evidence=False)
    assert off.debug is not None and all(i.evidence is None for i in off.debug.injected)


def test_require_evidence_false_ranks_without_the_test(make_mem) -> None:  # type: ignore[no-untyped-def]
    mem = make_mem(require_evidence=False)
    _seed(mem)
    r = mem.augment("What's the capital of Peru?", debug=True)
    assert r.debug is not None and len(r.debug.injected) > 0
    assert all(c.evidence is None and c.term_coverage is None for c in r.debug.candidates)
    with pytest.raises(Exception, match="require_evidence"):
        mem.augment("hi", require_evidence="yes")  # type: ignore[arg-type]

import datetime as dt

import pytest

from lokulmem import Config
from lokulmem.retrieval.parse import intent_of, parse_query

NOW = int(dt.datetime(2026, 12, 3, 15, 0, tzinfo=dt.UTC).timestamp() * 1000)


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("Where do I live?", "question"),
        ("what's my sister's name", "question"),
        ("Tell me about my family.", "command"),
        ("Can you suggest a dinner recipe for me?", "command"),
        ("Please remind me what I said about Rome", "command"),
        ("I had a long day.", "statement"),
    ],
)
def test_intent(text: str, intent: str) -> None:
    assert intent_of(text) == intent


def test_parse_reads_every_part_of_a_question() -> None:
    q = parse_query("Where do I live now, and did Priya visit me last May?", NOW, Config())
    assert q.intent == "question"
    assert q.terms[:3] == ("live", "now", "priya") and q.names == ("priya",)
    assert q.clauses == ("Where do I live now", "did Priya visit me last May?")
    assert q.asked_attributes == ("user.residence",)
    assert q.time_range is not None and q.time_range.phrase == "last May"


def test_parse_is_bounded_on_huge_input() -> None:
    cfg = Config()
    q = parse_query("Where is Berlin? " * 50_000, NOW, cfg)
    assert len(q.terms) <= cfg.max_query_terms and len(q.clauses) <= cfg.max_query_clauses


@pytest.mark.parametrize(
    ("text", "now"),
    [
        ("Who is my manager?", True),
        ("What pet do I have?", True),
        ("Which bank am I with", True),
        ("When did I move to Dublin?", False),
        ("What was my first car?", False),
        ("Where did I live before Lisbon?", False),
        ("What did I do last May?", False),  # a time range
        ("Tell me about my family.", False),  # a request, not a question
        ("I have a dog.", False),
        ("Has my sister had her baby?", True),  # the present perfect asks about now
        ("Have I had my hip operation?", True),
        ("Had I been there before?", False),
    ],
)
def test_asks_now_is_a_question_about_how_things_stand(text: str, now: bool) -> None:
    assert parse_query(text, NOW, Config()).asks_now is now

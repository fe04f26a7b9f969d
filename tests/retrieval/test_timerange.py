import datetime as dt

import pytest

from lokulmem.retrieval.timerange import time_range

NOW = int(dt.datetime(2026, 12, 3, 15, 0, tzinfo=dt.UTC).timestamp() * 1000)  # a Thursday


def _days(text: str) -> tuple[str, str] | None:
    r = time_range(text, NOW)
    if r is None:
        return None
    day = lambda ms: dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime("%Y-%m-%d")  # noqa: E731
    return day(r.start), day(r.end)


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("What did I do last May?", ("2026-05-01", "2026-06-01")),
        ("What did Rui post in August 2022?", ("2022-08-01", "2022-09-01")),
        ("When did Dana sprain her wrist in 2023?", ("2023-01-01", "2024-01-01")),
        ("What did we eat yesterday?", ("2026-12-02", "2026-12-03")),
        ("Who did I meet last weekend?", ("2026-11-28", "2026-11-30")),
        ("What did I read last week?", ("2026-11-23", "2026-11-30")),
        ("Where did we go last summer?", ("2026-06-01", "2026-09-01")),
        ("What did I cook last winter?", ("2025-12-01", "2026-03-01")),
        ("Who called last Friday?", ("2026-11-27", "2026-11-28")),
        ("What happened on March 14th?", ("2026-03-14", "2026-03-15")),
        ("What happened in December?", ("2026-12-01", "2027-01-01")),
        ("What did I say in January?", ("2026-01-01", "2026-02-01")),  # the latest January
        ("What did I do this week?", ("2026-11-30", "2026-12-07")),
        ("three weeks ago I started a course", ("2026-11-08", "2026-11-15")),
        ("a few days ago", ("2026-11-29", "2026-11-30")),
    ],
)
def test_time_phrases_resolve_against_the_question_time(text: str, span: tuple[str, str]) -> None:
    assert _days(text) == span


@pytest.mark.parametrize(
    "text",
    [
        "What is my job?",
        "Could my sister visit me this weekend?",  # a plan, not a time already lived
        "What happened on February 30?",
        "",
    ],
)
def test_no_time_range(text: str) -> None:
    assert time_range(text, NOW) is None


def test_the_first_phrase_wins_and_the_range_is_half_open() -> None:
    r = time_range("in May 2019 and last week", NOW)
    assert r is not None and r.phrase == "in May 2019"
    assert r.contains(r.start) and not r.contains(r.end)


@pytest.mark.parametrize("text", ["Any ideas for dinner tonight?", "What should I wear today?"])
def test_plans_for_now_are_not_a_time_asked_about(text: str) -> None:
    assert time_range(text, NOW) is None


def test_today_in_a_question_about_the_past() -> None:
    assert _days("What did I eat today?") == ("2026-12-03", "2026-12-04")

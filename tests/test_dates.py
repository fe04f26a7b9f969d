import datetime as dt

import pytest

from lokulmem.extraction.dates import event_span, event_time

NOW = int(dt.datetime(2026, 4, 19, 19, 30, tzinfo=dt.UTC).timestamp() * 1000)


def _day(ms: int | None) -> str | None:
    return None if ms is None else dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).date().isoformat()


@pytest.mark.parametrize(
    ("sentence", "day"),
    [
        ("We're going to Valencia in May for Jordan's birthday.", "2026-05-31"),
        ("My exam is on June 3rd.", "2026-06-03"),
        ("The party is on the 14th of February 2027.", "2027-02-14"),
        ("The wedding is June 3, 2026.", "2026-06-03"),
        ("We fly to Oslo in March.", "2027-03-31"),  # said in April: next March
        ("My exam is on April 2nd.", "2027-04-02"),
        ("I have a dentist appointment tomorrow.", "2026-04-21"),
        ("We're moving next month.", "2026-06-20"),
        # Past, modal "may", no date, a date already gone: no event ahead.
        ("We went to Rome in May.", None),
        ("I was born on May 3, 1990.", None),
        ("I may go hiking.", None),
        ("I love hiking.", None),
        ("The launch was planned for February 2026.", None),
        ("It is due on February 31.", None),
    ],
)
def test_event_time(sentence: str, day: str | None) -> None:
    assert _day(event_time(sentence, NOW)) == day


MONDAY = int(dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.UTC).timestamp() * 1000)


@pytest.mark.parametrize(
    ("sentence", "span"),
    [
        ("I need to finish the report for Friday.", ("2026-12-04", "2026-12-05")),
        ("My dentist appointment is tomorrow.", ("2026-12-01", "2026-12-02")),
        ("The party is this weekend.", ("2026-12-05", "2026-12-07")),
        ("My exam is in 3 days.", ("2026-12-03", "2026-12-04")),
        ("We fly to Rome next month.", ("2026-12-01", "2027-01-01")),
        ("We're going to Valencia in May.", ("2027-05-01", "2027-06-01")),
        ("The wedding is June 3, 2027.", ("2027-06-03", "2027-06-04")),
    ],
)
def test_event_span_gives_the_start_and_end(sentence: str, span: tuple[str, str]) -> None:
    found = event_span(sentence, MONDAY)
    assert found is not None and (_day(found[0]), _day(found[1])) == span


@pytest.mark.parametrize(
    "sentence", ["I went there on Friday.", "I like Fridays.", "I climb every Sunday.", "Nothing planned."]
)
def test_no_event_span(sentence: str) -> None:
    assert event_span(sentence, MONDAY) is None

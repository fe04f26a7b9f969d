"""Relative times kept with the date they name (pure)."""

from __future__ import annotations

import datetime as dt

import pytest

from lokulmem.extraction.anchoring import anchor_times

#: Tuesday 3 March 2026, 15:00 UTC.
NOW = int(dt.datetime(2026, 3, 3, 15, tzinfo=dt.UTC).timestamp() * 1000)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We're going to Japan next month!", "We're going to Japan next month (April 2026)!"),
        ("I had an interview yesterday.", "I had an interview yesterday (2 March 2026)."),
        ("Dinner tomorrow", "Dinner tomorrow (4 March 2026)"),
        ("I moved here 3 weeks ago.", "I moved here 3 weeks ago (week of 9 February 2026)."),
        ("In two days I fly out.", "In two days (5 March 2026) I fly out."),
        ("This weekend I hike.", "This weekend (weekend of 7 March 2026) I hike."),
        ("Last year I lived in Rome.", "Last year (2025) I lived in Rome."),
        ("Exams next week", "Exams next week (week of 9 March 2026)"),
        ("In December last month was busy", "In December last month (February 2026) was busy"),
        ("Nothing relative here.", "Nothing relative here."),
        ("The board meeting is next Friday.", "The board meeting is next Friday (6 March 2026)."),
        ("Gym this Tuesday", "Gym this Tuesday (10 March 2026)"),
        ("I went there on Friday.", "I went there on Friday."),
        ("next month (April 2026) already", "next month (April 2026) already"),
        # A span up to now, not a time ahead (docs/tuning.md entry 84).
        ("Haven't spoken to Dev in a year.", "Haven't spoken to Dev in a year."),
        (
            "First holiday in two years, back in 3 days.",
            "First holiday in two years, back in 3 days (6 March 2026).",
        ),
        ("Best night out in a year!", "Best night out in a year!"),
        ("My first day is in two weeks.", "My first day is in two weeks (week of 16 March 2026)."),
        ("No, I'm off in two days.", "No, I'm off in two days (5 March 2026)."),
    ],
)
def test_anchor_times(text: str, expected: str) -> None:
    assert anchor_times(text, NOW) == expected


def test_year_and_month_boundaries() -> None:
    new_year = int(dt.datetime(2025, 12, 31, tzinfo=dt.UTC).timestamp() * 1000)
    assert anchor_times("next month", new_year) == "next month (January 2026)"
    assert anchor_times("tomorrow", new_year) == "tomorrow (1 January 2026)"
    assert anchor_times("in 2 months", new_year) == "in 2 months (February 2026)"

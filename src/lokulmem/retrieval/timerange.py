"""The time a query asks about ("last May", "three weeks ago", "in August 2023").  Pure.

:func:`time_range` returns the span (Unix ms, UTC) the first time phrase of a
query names, resolved against the time of the question, or ``None``.  Recall
uses it as a candidate source and as evidence: memories learned in that span
join the pool and score ``Config.time_range_bonus`` more
(:mod:`lokulmem.retrieval.stages`).

Read: "today", "this morning", "yesterday", "last night", "this/last week | weekend | month |
year", "last summer | winter | spring | autumn | fall", "N days | weeks |
months | years ago" (digits, number words, "a", "a few", "a couple of"), "last
<weekday>", "last <month>", "in/during <month>( <year>)", "<month> <year>",
"in <year>", "on <month> <day>(, <year>)".  A month without a year is its
latest occurrence not after the question.  "Today", "this morning" and
"this week / weekend / month / year" count only in a question about the past
("What did I do this week?"): "could my sister visit this weekend?" and "Any
ideas for dinner tonight?" ask about no learned memory.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from ..extraction.lexicon import MONTH_NUMBERS, MONTH_PATTERN, WEEKDAYS
from ..records.recall import TimeRange

__all__ = ["TimeRange", "time_range"]

_DAY = dt.timedelta(days=1)
_COUNT = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a few": 3, "a couple of": 2,
    "couple of": 2, "few": 3,
}  # fmt: skip
_COUNT_WORDS = "|".join(sorted(map(re.escape, _COUNT), key=len, reverse=True))
_NOW_WORDS = ("today", "this morning")
# Past-tense cues that let "this week" or "today" be a span already lived.
_PAST = re.compile(r"\b(?:did|was|were|have|has|had|went|been|\w+ed)\b", re.IGNORECASE)
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11), "winter": (12, 2)}

_PATTERNS = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?P<n>\d{{1,3}}|{_COUNT_WORDS})\s+(?P<unit>day|week|month|year)s?\s+ago\b",
        r"\b(?P<rel>today|yesterday|last night|this morning)\b",
        r"\b(?P<which>this|last|past)\s+(?P<span>week|weekend|month|year)\b",
        r"\blast\s+(?P<season>spring|summer|autumn|fall|winter)\b",
        rf"\blast\s+(?P<weekday>{'|'.join(WEEKDAYS)})\b",
        rf"\b(?:on\s+)?(?P<dmonth>{MONTH_PATTERN})\.?\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)?\b(?:,?\s+(?P<dyear>(?:19|20)\d\d))?",
        rf"\b(?:last|in|during)\s+(?P<month>{MONTH_PATTERN})\b(?:,?\s+(?P<year>(?:19|20)\d\d))?",
        rf"\b(?P<month2>{MONTH_PATTERN})\s+(?P<year2>(?:19|20)\d\d)\b",
        r"\b(?:in|during)\s+(?P<year3>(?:19|20)\d\d)\b",
    )
)


def _ms(when: dt.datetime) -> int:
    return int(when.timestamp() * 1000)


def _span(start: dt.datetime, end: dt.datetime, phrase: str) -> TimeRange:
    return TimeRange(start=_ms(start), end=_ms(end), phrase=phrase)


def _month_span(year: int, month: int) -> tuple[dt.datetime, dt.datetime]:
    start = dt.datetime(year, month, 1, tzinfo=dt.UTC)
    return start, start + calendar.monthrange(year, month)[1] * _DAY


def _latest_month(month: int, today: dt.datetime) -> int:
    """The year of the latest ``month`` that has begun by ``today``."""
    return today.year if month <= today.month else today.year - 1


def _ago(n: int, unit: str, today: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """A window around the time N units ago: that day, that week, that month, that year."""
    days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit.lower()]
    center = today - dt.timedelta(days=n * days)
    half = dt.timedelta(days=max(0.5, days / 2))
    return center - half, center + half


def _relative(word: str, today: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    word = word.lower()
    if word in ("today", "this morning"):
        return today, today + _DAY
    return today - _DAY, today + (dt.timedelta(hours=6) if word == "last night" else dt.timedelta(0))


def _named_span(which: str, span: str, today: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    which, span = which.lower(), span.lower()
    back = which in ("last", "past")
    if span in ("week", "weekend"):
        monday = today - today.weekday() * _DAY
        start = monday - 7 * _DAY if back else monday
        if span == "weekend":
            start += 5 * _DAY
            return start, start + 2 * _DAY
        return start, start + 7 * _DAY
    if span == "month":
        year, month = today.year, today.month
        if back:
            year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        return _month_span(year, month)
    year = today.year - 1 if back else today.year
    return dt.datetime(year, 1, 1, tzinfo=dt.UTC), dt.datetime(year + 1, 1, 1, tzinfo=dt.UTC)


def _season(name: str, today: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    first, last = _SEASONS[name.lower()]
    year = today.year if today.month > (last if first <= last else 12) else today.year - 1
    start = dt.datetime(year, first, 1, tzinfo=dt.UTC)
    end_year = year + 1 if first > last else year
    return start, _month_span(end_year, last)[1]


def _last_weekday(name: str, today: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    back = (today.weekday() - WEEKDAYS.index(name.lower())) % 7 or 7
    day = today - back * _DAY
    return day, day + _DAY


def _resolve(m: re.Match[str], today: dt.datetime) -> tuple[dt.datetime, dt.datetime] | None:
    g = {k: v for k, v in m.groupdict().items() if v is not None}
    if "n" in g:
        n = int(g["n"]) if g["n"].isdigit() else _COUNT[g["n"].lower()]
        return _ago(n, g["unit"], today)
    if "rel" in g:
        return _relative(g["rel"], today)
    if "span" in g:
        return _named_span(g["which"], g["span"], today)
    if "season" in g:
        return _season(g["season"], today)
    if "weekday" in g:
        return _last_weekday(g["weekday"], today)
    if "dmonth" in g:
        month, day = MONTH_NUMBERS[g["dmonth"].lower()], int(g["day"])
        year = int(g["dyear"]) if "dyear" in g else _latest_month(month, today)
        if not 1 <= day <= calendar.monthrange(year, month)[1]:
            return None
        start = dt.datetime(year, month, day, tzinfo=dt.UTC)
        return start, start + _DAY
    key = "month" if "month" in g else "month2" if "month2" in g else None
    if key is not None:
        month = MONTH_NUMBERS[g[key].lower()]
        raw = g.get("year") or g.get("year2")
        return _month_span(int(raw) if raw else _latest_month(month, today), month)
    if "year3" in g:
        year = int(g["year3"])
        return dt.datetime(year, 1, 1, tzinfo=dt.UTC), dt.datetime(year + 1, 1, 1, tzinfo=dt.UTC)
    return None


def time_range(text: str, now_ms: int) -> TimeRange | None:
    """The span the earliest time phrase of ``text`` names, or None."""
    now = dt.datetime.fromtimestamp(now_ms / 1000, tz=dt.UTC)
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    found = [m for p in _PATTERNS if (m := p.search(text)) is not None]
    past = _PAST.search(text) is not None
    for m in sorted(found, key=lambda m: m.start()):
        g = m.groupdict()
        present = (g.get("which") or "").lower() == "this" or (g.get("rel") or "").lower() in _NOW_WORDS
        if present and not past:
            continue
        span = _resolve(m, today)
        if span is not None:
            return _span(span[0], span[1], m.group(0).strip())
    return None

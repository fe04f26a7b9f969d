"""When an event a sentence speaks of happens, if it lies ahead.  Pure.

"We're going to Valencia in May" said in January is a plan for May: typed
by its words it may decay within days, yet it must not fade before May.
:func:`event_time` reads the future time a sentence names and returns the
end of it (Unix ms, UTC); the maintenance sweep does not fade a memory before
that time plus ``Config.event_hold_days``.

Read: "tomorrow", "tonight", "this weekend", "next week / month / year",
"(on / by / for / this / next) <weekday>", "in N days / weeks", a month
with or without a day ("in May", "on June 3", "3rd of June", "May 2027").
A sentence with a past cue ("went", "last May", "ago") names no event ahead.
Anything else gives ``None``.

:func:`event_span` gives the event's start and end precisely (proactive
memory measures the days to its start: :mod:`lokulmem.proactive`);
:func:`event_time` keeps a generous end for the relative phrases, since it
only holds a memory back from fading.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from .classify import PAST_CUES
from .lexicon import MONTH_NUMBERS, MONTH_PATTERN, WEEKDAYS

__all__ = ["event_span", "event_time"]


def _month(n: int) -> str:
    return rf"(?P<month{n}>{MONTH_PATTERN})\.?"


def _day(n: int) -> str:
    return rf"(?P<day{n}>[0-3]?\d)(?:st|nd|rd|th)?"


def _year(n: int) -> str:
    return rf"(?:,?\s+(?P<year{n}>20\d\d))?"


# "June 3(, 2027)" | "3(rd) (of) June( 2027)" | "in / this / next / by / until June( 2027)"
_MONTH_DATE = re.compile(
    r"\b(?:"
    + "|".join(
        (
            _month(1) + r"\s+" + _day(1) + r"\b" + _year(1),
            _day(2) + r"\s+(?:of\s+)?" + _month(2) + _year(2),
            r"(?:in|this|next|by|until)\s+" + _month(3) + _year(3),
        )
    )
    + r")\b",
    re.IGNORECASE,
)
_RELATIVE: tuple[tuple[re.Pattern[str], float], ...] = tuple(
    (re.compile(p, re.IGNORECASE), days)
    for p, days in (
        (r"\btonight\b", 1),
        (r"\btomorrow\b", 2),
        (r"\bthis weekend\b", 4),
        (r"\bnext (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)\b", 14),
        (r"\bnext week\b", 14),
        (r"\bnext month\b", 62),
        (r"\bnext year\b", 731),
    )
)
_MS_PER_DAY = 86_400_000
# "on Friday", "by Friday", "for Friday", "this Friday", "next Friday", "Friday".
_WEEKDAY = re.compile(r"\b(?:(?:on|by|for|this|next|until)\s+)?(?P<wd>" + "|".join(WEEKDAYS) + r")\b", re.I)
_IN_N = re.compile(
    r"\bin\s+(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|ten)\s+(?P<u>day|week)s?\b", re.I
)
_N_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "ten": 10,
}
_SPANS = {  # relative phrase -> (start, end) in days from today's midnight
    "tonight": (0, 1),
    "tomorrow": (1, 2),
}


def _month_end(year: int, month: int) -> dt.datetime:
    last = calendar.monthrange(year, month)[1]
    return dt.datetime(year, month, last, 23, 59, 59, tzinfo=dt.UTC)


def _ms(when: dt.datetime) -> int:
    return int(when.timestamp() * 1000)


def _month_start(end: dt.datetime, day_named: bool) -> dt.datetime:
    if day_named:
        return end.replace(hour=0, minute=0, second=0)
    return end.replace(day=1, hour=0, minute=0, second=0)


def _relative_span(sentence: str, today: dt.datetime) -> tuple[dt.datetime, dt.datetime] | None:
    """The day(s) a relative phrase names, from ``today``'s midnight."""
    low = sentence.lower()
    for word, (a, b) in _SPANS.items():
        if re.search(rf"\b{word}\b", low):
            return today + dt.timedelta(days=a), today + dt.timedelta(days=b)
    if "this weekend" in low:
        sat = today + dt.timedelta(days=(5 - today.weekday()) % 7 if today.weekday() < 5 else 0)
        if today.weekday() == 6:
            sat = today - dt.timedelta(days=1)
        return sat, sat + dt.timedelta(days=2)
    monday = today + dt.timedelta(days=7 - today.weekday())
    if re.search(r"\bnext week\b", low):
        return monday, monday + dt.timedelta(days=7)
    if re.search(r"\bnext month\b", low):
        first = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
        return first, (first + dt.timedelta(days=32)).replace(day=1)
    if re.search(r"\bnext year\b", low):
        return today.replace(year=today.year + 1, month=1, day=1), today.replace(
            year=today.year + 2, month=1, day=1
        )
    return _counted_span(sentence, today)


def _counted_span(sentence: str, today: dt.datetime) -> tuple[dt.datetime, dt.datetime] | None:
    """ "(on) Friday" (the next one, today excluded; "every Friday" is a habit, not
    an event) and "in 3 days / 2 weeks"."""
    m = _IN_N.search(sentence)
    if m is not None:
        n = int(m["n"]) if m["n"].isdigit() else _N_WORDS[m["n"].lower()]
        day = today + dt.timedelta(days=n * (7 if m["u"].lower() == "week" else 1))
        return day, day + dt.timedelta(days=1)
    w = _WEEKDAY.search(sentence)
    if w is not None and not re.search(r"\bevery\s+" + w["wd"], sentence, re.IGNORECASE):
        ahead = (WEEKDAYS.index(w["wd"].lower()) - today.weekday()) % 7 or 7
        day = today + dt.timedelta(days=ahead)
        return day, day + dt.timedelta(days=1)
    return None


def event_span(sentence: str, now_ms: int) -> tuple[int, int] | None:
    """(start, end) of the future time ``sentence`` names (Unix ms, end exclusive), or None."""
    if PAST_CUES.search(sentence):
        return None
    now = dt.datetime.fromtimestamp(now_ms / 1000, tz=dt.UTC)
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    end = _month_date_end(sentence, now)
    if end is not None:
        m = _MONTH_DATE.search(sentence)
        named = m is not None and bool(m["day1"] or m["day2"])
        return _ms(_month_start(end, named)), _ms(end) + 1000
    span = _relative_span(sentence, today)
    if span is None or span[1] <= now:
        return None
    return _ms(span[0]), _ms(span[1])


def event_time(sentence: str, now_ms: int) -> int | None:
    """The end of the future time ``sentence`` names (Unix ms), or None."""
    if PAST_CUES.search(sentence):
        return None
    now = dt.datetime.fromtimestamp(now_ms / 1000, tz=dt.UTC)
    end = _month_date_end(sentence, now)
    if end is not None:
        return _ms(end)
    if _MONTH_DATE.search(sentence) is not None:
        return None
    for pattern, days in _RELATIVE:
        if pattern.search(sentence):
            return now_ms + int(days * _MS_PER_DAY)
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    counted = _counted_span(sentence, today)
    return _ms(counted[1]) - 1000 if counted is not None else None


def _month_date_end(sentence: str, now: dt.datetime) -> dt.datetime | None:
    """The end of the month or day a sentence names, if ahead of ``now``."""
    m = _MONTH_DATE.search(sentence)
    if m is not None:
        g = m.groupdict()
        month = MONTH_NUMBERS[(g["month1"] or g["month2"] or g["month3"]).lower()]
        raw_day = g["day1"] or g["day2"]
        raw_year = g["year1"] or g["year2"] or g["year3"]
        year = int(raw_year) if raw_year else now.year
        if raw_day is not None:
            day = int(raw_day)
            if not 1 <= day <= calendar.monthrange(year, month)[1]:
                return None
            end = dt.datetime(year, month, day, 23, 59, 59, tzinfo=dt.UTC)
        else:
            end = _month_end(year, month)
        if end < now and not raw_year:
            # "in March" said in April: next March ("February 29" has no next year).
            if raw_day is None:
                end = _month_end(year + 1, month)
            elif int(raw_day) <= calendar.monthrange(year + 1, month)[1]:
                end = end.replace(year=year + 1)
        return end if end > now else None
    return None

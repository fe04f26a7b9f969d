"""When an event a sentence speaks of happens, if it lies ahead.  Pure.

"We're going to Valencia in May" said in January is a plan for May: typed
by its words it may decay within days, yet it must not fade before May.
:func:`event_time` reads the future time a sentence names and returns the
end of it (Unix ms, UTC); the maintenance sweep does not fade a memory before
that time plus ``Config.event_hold_days``.

Read: "tomorrow", "tonight", "this weekend", "next week / month / year",
"next <weekday>", a month with or without a day ("in May", "on June 3",
"3rd of June", "May 2027").  A sentence with a past cue ("went", "last
May", "ago") names no event ahead.  Anything else gives ``None``.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from .classify import PAST_CUES
from .lexicon import MONTHS

__all__ = ["event_time"]

# Full names, their three-letter forms ("jun", "sep") and "sept".
_MONTH_NUMBER = {name[:n]: i for i, name in enumerate(MONTHS[:12], start=1) for n in (3, len(name))} | {
    "sept": 9
}
_MONTH_NAMES = "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True))


def _month(n: int) -> str:
    return rf"(?P<month{n}>{_MONTH_NAMES})\.?"


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


def _month_end(year: int, month: int) -> dt.datetime:
    last = calendar.monthrange(year, month)[1]
    return dt.datetime(year, month, last, 23, 59, 59, tzinfo=dt.UTC)


def event_time(sentence: str, now_ms: int) -> int | None:
    """The end of the future time ``sentence`` names (Unix ms), or None."""
    if PAST_CUES.search(sentence):
        return None
    now = dt.datetime.fromtimestamp(now_ms / 1000, tz=dt.UTC)
    m = _MONTH_DATE.search(sentence)
    if m is not None:
        g = m.groupdict()
        month = _MONTH_NUMBER[(g["month1"] or g["month2"] or g["month3"]).lower()]
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
        return int(end.timestamp() * 1000) if end > now else None
    for pattern, days in _RELATIVE:
        if pattern.search(sentence):
            return now_ms + int(days * _MS_PER_DAY)
    return None

"""Relative times kept with the date they resolve to (PRD §6 layer 1, fact rewriting).

"We're going to Japan next month", said on 3 March 2026, is stored as "…
next month (April 2026)": read a year later, "next month" alone would be
wrong, and the absolute date is what a later question ("in April?") names.
Pure: the text and the moment it was said (Unix ms, UTC) in, text out.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from .lexicon import WEEKDAYS

__all__ = ["anchor_times"]

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10}
_N = r"(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|ten)"

Today = dt.date


def _day(d: dt.date) -> str:
    return f"{d.day} {d:%B %Y}"


def _month(d: dt.date, shift: int) -> str:
    index = d.year * 12 + d.month - 1 + shift
    return dt.date(index // 12, index % 12 + 1, 1).strftime("%B %Y")


def _week_of(monday: dt.date) -> str:
    return f"week of {_day(monday)}"


def _monday(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


def _saturday(d: dt.date, weeks: int) -> dt.date:
    sat = d + dt.timedelta(days=(5 - d.weekday()) % 7)
    if d.weekday() == 6:  # on a Sunday, "this weekend" is the one under way
        sat = d - dt.timedelta(days=1)
    return sat + dt.timedelta(weeks=weeks)


def _counted(unit: str, n: int, today: dt.date, sign: int) -> str:
    if unit == "day":
        return _day(today + dt.timedelta(days=sign * n))
    if unit == "week":
        return _week_of(_monday(today + dt.timedelta(weeks=sign * n)))
    if unit == "month":
        return _month(today, sign * n)
    return str(today.year + sign * n)


_PHRASES: tuple[tuple[str, Callable[[re.Match[str], dt.date], str]], ...] = (
    (r"today|tonight|this morning|this evening", lambda m, t: _day(t)),
    (r"tomorrow", lambda m, t: _day(t + dt.timedelta(days=1))),
    (r"yesterday", lambda m, t: _day(t - dt.timedelta(days=1))),
    (r"this weekend", lambda m, t: f"weekend of {_day(_saturday(t, 0))}"),
    (r"next weekend", lambda m, t: f"weekend of {_day(_saturday(t, 1))}"),
    (r"last weekend", lambda m, t: f"weekend of {_day(_saturday(t, -1))}"),
    (r"next week", lambda m, t: _week_of(_monday(t) + dt.timedelta(weeks=1))),
    (r"last week", lambda m, t: _week_of(_monday(t) - dt.timedelta(weeks=1))),
    (r"this week", lambda m, t: _week_of(_monday(t))),
    (r"next month", lambda m, t: _month(t, 1)),
    (r"last month", lambda m, t: _month(t, -1)),
    (r"this month", lambda m, t: _month(t, 0)),
    (r"next year", lambda m, t: str(t.year + 1)),
    (r"last year", lambda m, t: str(t.year - 1)),
    (r"this year", lambda m, t: str(t.year)),
    (
        # "next Friday", "this Friday": the coming one (today excluded), as the event
        # reader takes it (extraction.dates); "on Friday" may be past, so it stays.
        r"(?:next|this) (?P<wd>" + "|".join(WEEKDAYS) + r")",
        lambda m, t: _day(t + dt.timedelta(days=(WEEKDAYS.index(m["wd"].lower()) - t.weekday() - 1) % 7 + 1)),
    ),
    (
        r"in " + _N + r" (?P<u>day|week|month|year)s?",
        lambda m, t: _counted(m["u"].lower(), _NUMBERS.get(m["n"].lower()) or int(m["n"]), t, 1),
    ),
    (
        _N + r" (?P<u>day|week|month|year)s? ago",
        lambda m, t: _counted(m["u"].lower(), _NUMBERS.get(m["n"].lower()) or int(m["n"]), t, -1),
    ),
)
_PATTERN = re.compile(
    r"\b(?:"
    # Inner names are re-matched per phrase (a name may appear in one alternative only).
    + "|".join(f"(?P<p{i}>{re.sub(r'[(][?]P<[a-z]+>', '(?:', p)})" for i, (p, _) in enumerate(_PHRASES))
    + r")\b(?!\s*\()",
    re.IGNORECASE,
)


#: The index of "in N days/weeks/…" in ``_PHRASES``.
_IN_N = next(i for i, (p, _) in enumerate(_PHRASES) if p.startswith("in "))
#: Before "in a year" in its clause, words that make it a span up to now, not a time
#: ahead: a negation anywhere before it ("haven't seen her in a year"), or a first
#: or a best just before it ("first holiday in two years", "best night in a year";
#: not "my first day is in two weeks").
_SPAN_BEFORE = re.compile(
    r"\b(?:\w+n't|not|never)\b"
    r"|\b(?:first|best|worst|longest)\s+(?:(?!(?:is|are|was|were|will|be|starts?)\b)[a-z'-]+\s+){1,2}$",
    re.IGNORECASE,
)


def _clause_before(text: str, end: int) -> str:
    """The text of the clause that ``end`` falls in, up to ``end``."""
    start = max(text.rfind(c, 0, end) for c in ".,;!?")
    return text[start + 1 : end]


def anchor_times(text: str, now_ms: int) -> str:
    """``text`` with each relative time followed by the date it names, in brackets
    ("next month" → "next month (April 2026)"; "3 days ago" → "3 days ago (28
    February 2026)").  Text without one is returned unchanged."""
    today = dt.datetime.fromtimestamp(now_ms / 1000, tz=dt.UTC).date()

    def repl(m: re.Match[str]) -> str:
        if m.group(f"p{_IN_N}") is not None and _SPAN_BEFORE.search(_clause_before(text, m.start())):
            return m.group(0)  # "Haven't spoken to Dev in a year": how long, not when
        for i, (_, resolve) in enumerate(_PHRASES):
            if m.group(f"p{i}") is not None:
                inner = re.fullmatch(_PHRASES[i][0], m.group(0), re.IGNORECASE)
                return f"{m.group(0)} ({resolve(inner or m, today)})"
        return m.group(0)  # pragma: no cover - one group always matched

    return _PATTERN.sub(repl, text)

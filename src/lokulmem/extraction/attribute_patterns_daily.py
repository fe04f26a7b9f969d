"""The attribute rules' patterns for the user's days: the team they are on at
work, the book they are reading, the show they are watching, when they work
best.  As data.

Tried last, after :mod:`.attribute_patterns_life`'s; the named groups are
:mod:`.attribute_patterns`' own.
"""

from __future__ import annotations

from .lexicon import MONTHS, WEEKDAYS

__all__ = ["DAILY_PATTERNS"]

#: Words of when, which name no book ("started on Monday").
WHEN_WORDS = "|".join((*WEEKDAYS, *MONTHS, "today", "tomorrow", "tonight", "next", "last", "this"))

#: A title (a book's, a show's) and where it ends ("The Name of the Wind at night").
TITLE = (
    r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,60}?)(?=\s*(?:[,;!?]|\.(?:\s|$)|$)|\s+(?:to|for|with|on|at|and|but|"
    r"now|again|these\s+days|right\s+now|at\s+the\s+moment|at\s+night|before\s+bed)\b)"
)
#: The title after one left: it ends at the clause's end or at "now", "next", "and", "but".
NEXT_TITLE = r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,60}?)(?=\s*(?:[,;!?]|\.(?:\s|$)|$)|\s+(?:now|next|and|but)\b)"
#: Leaving a book or a show: finished, put down, given up on.
LEFT_ONE = r"(?:finished|put\s+[^,.;!?]{1,40}?\s+down|gave\s+up\s+on)\s*[^,.;!?]{0,60}?"

DAILY_PATTERNS: tuple[tuple[str, str], ...] = (
    # The team the user is on at work, and a move to another: "I'm on the payments
    # team.", "They moved me across to the platform team."
    (
        "work_team",
        r"\bi(?:'m|\s+am)\s+(?:now\s+|still\s+)?(?:on|in)\s+the\s+(?P<v>[a-z0-9][a-z0-9&'\-]*(?:\s+[a-z0-9&'\-]+)?)"
        r"\s+team\b",
    ),
    (
        "work_team",
        r"\b(?:(?:moved|put|transferred|switched)\s+me|i(?:'ve|\s+have)?\s+(?:just\s+)?(?:moved|transferred|switched|"
        r"joined))\s+(?:across\s+|over\s+)?(?:to|onto|into)?\s*the\s+(?P<v>[a-z0-9][a-z0-9&'\-]*(?:\s+[a-z0-9&'\-]+)?)"
        r"\s+team\b",
    ),
    # "I got moved to the fraud team in the reorg." (the move said in the passive).
    (
        "work_team",
        r"\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:got|been|was)\s+(?:moved|put|transferred|switched)\s+"
        r"(?:across\s+|over\s+)?(?:to|onto|into)\s+the\s+(?P<v>[a-z0-9][a-z0-9&'\-]*(?:\s+[a-z0-9&'\-]+)?)"
        r"\s+team\b",
    ),
    # The book the user is reading: "I'm reading The Name of the Wind.", "now I'm onto
    # Piranesi." (a title: "I'm onto something" names none).
    (
        "reading",
        r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+|still\s+)?(?:reading|onto|on\s+to|halfway\s+through)\s+"
        + TITLE,
    ),
    # ... and the next one: "Finally finished War and Peace, started on Middlemarch.",
    # "I put Middlemarch down and started The Overstory."
    (
        "reading",
        r"\b" + LEFT_ONE + r",?\s+(?:and\s+)?(?:now\s+)?(?:i'm\s+|i\s+am\s+|i've\s+|i\s+have\s+)?"
        r"(?:started\s+on|starting\s+on|started|starting|moved\s+on\s+to|onto|on\s+to|reading)\s+"
        r"(?!(?:" + WHEN_WORDS + r")\b)" + NEXT_TITLE,
    ),
    # The show the user is watching, and the next one: "I'm watching Severance at the
    # moment.", "Finished Severance, now I'm into Slow Horses."
    (
        "watching",
        r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+|still\s+)?(?:watching|binging|bingeing|re-?watching)\s+"
        + TITLE,
    ),
    (
        "watching",
        r"\b"
        + LEFT_ONE
        + r",?\s+(?:and\s+)?(?:now\s+)?(?:i'm|i\s+am)\s+(?:into|watching|binging|bingeing)\s+"
        + NEXT_TITLE,
    ),
    # When the user works best: "I'm a night owl", "I've become a morning person."
    (
        "chronotype",
        r"\bi(?:'m|\s+am|'ve\s+become|\s+have\s+become|\s+became|'ve\s+turned\s+into|\s+turned\s+into)"
        r"\s+(?:now\s+)?(?:a\s+|an\s+)?(?:total\s+|real\s+|proper\s+|complete\s+)?(?P<v>night\s+owl|"
        r"morning\s+person|early\s+bird|night\s+person|early\s+riser|evening\s+person)\b",
    ),
)

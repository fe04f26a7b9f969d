"""The attribute rules' patterns for study, as data: the school one attends, the
subject or course one studies, and a course left or finished.

Tried in :data:`lokulmem.extraction.attribute_patterns_life.LIFE_PATTERNS`' order,
where they stand (after pets and colours, before the team one supports); the
named groups are :mod:`lokulmem.extraction.attribute_patterns`'.
"""

from __future__ import annotations

from .attribute_fragments import ADV, COURSE, END, INSTITUTION, SUBJECT, VALUE

#: Degrees named alone ("an MBA", "my PhD").
DEGREES = r"mba|phd|master'?s|masters|pgce|llm|bsc|msc|ba|ma"

__all__ = ["DEGREES", "STUDY_PATTERNS"]


#: School, study and study left, in the order they are tried.
STUDY_PATTERNS: tuple[tuple[str, str], ...] = (
    # The school one attends: "I go to Kingston University" / "I transferred to
    # Leeds Beckett University" / "I study at the University of Bath".
    (
        "school",
        SUBJECT
        + r"(?:'m|\s+am)?"
        + ADV
        + r"\s+(?:go|goes|going|transferred|transfer|switched|moved|study|studies|studying|enrolled|"
        + r"a student)\s+(?:to|at|in)\s+(?:the\s+)?"
        + INSTITUTION,
    ),
    (
        "study",
        SUBJECT
        + r"(?:'m|\s+am)?"
        + ADV
        + r"(?:\s+(?:switched|changed|moved)\s+to|\s+(?:started|began))?"
        + r"\s+(?:study|studies|studying|major in|majoring in)\s+"
        + VALUE
        + END,
    ),
    # The course by its qualification: "I'm studying for a law degree.", "I enrolled
    # in a nursing diploma.", "I'm doing a master's in data science."
    (
        "study",
        r"\bi(?:'m|\s+am|'ve|\s+have)?\s+(?:now\s+|just\s+)?(?:studying\s+for|doing|enrolled\s+(?:in|on))\s+"
        r"(?:an?|my)\s+" + COURSE,
    ),
    # "I transferred to a midwifery course." (a course one moves to is what one studies).
    (
        "study",
        r"\bi(?:'ve|\s+have)?\s+(?:just\s+)?(?:transferred|switched|changed)\s+(?:over\s+)?(?:to|onto)\s+"
        r"(?:a|an|the)\s+(?P<v>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)\s+(?:course|degree|programme|program)\b",
    ),
    (
        "study",
        r"\bi\s+(?:dropped\s+out\s+of|left|quit|finished)\s+[^,.;!?]{1,40}?\s+and\s+(?:then\s+)?"
        r"enrolled\s+(?:in|on)\s+(?:an?|my)\s+" + COURSE,
    ),
    (
        "study",
        r"\bi(?:'m|\s+am)\s+(?:now\s+)?doing\s+(?:an?\s+|my\s+)?(?:master'?s|masters|phd|degree|diploma|"
        r"ba|bsc|msc|ma)\s+in\s+" + VALUE + END,
    ),
    # A course by its degree alone: "I'm doing a part-time MBA at Warwick."
    (
        "study",
        r"\bi(?:'m|\s+am)\s+(?:now\s+|still\s+)?(?:doing|studying\s+for)\s+(?:an?\s+|my\s+)?"
        r"(?:(?:part|full)-time\s+|online\s+)?(?P<v>" + DEGREES + r")\b",
    ),
    # ... and left or done: "I dropped out of the MBA.", "I quit my nursing degree.",
    # "I finished my masters last month." (the
    # course's subject, or the degree: the value the rules above read).
    (
        "study_left",
        r"\bi(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?P<neg>dropped\s+out\s+of|quit|gave\s+up(?:\s+on)?|"
        r"finished|completed)\s+"
        r"(?:the|my)\s+(?:(?:part|full)-time\s+|online\s+)?(?:(?P<v>" + DEGREES + r")\b"
        r"|(?P<v2>[a-z][a-z\-]*)\s+(?:degree|diploma|course|programme|program)\b)",
    ),
    # "The MA is done!", "my PhD is finally finished".
    (
        "study_left",
        r"\b(?:the|my)\s+(?P<v>" + DEGREES + r")\s+is\s+(?:finally\s+|officially\s+|all\s+)?"
        r"(?P<neg>done|finished|over|complete)\b",
    ),
)

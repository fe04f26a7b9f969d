"""Typed attributes: (entity, attribute, value) read from a sentence by rules.

Contradiction stage 3 (PRD §6) needs "same entity AND same attribute type AND
different value".  ``extract_attribute`` returns, for sentences that set a
single-valued attribute, e.g. ``Attribute("user.residence", "berlin")`` for "I
live in Berlin" and ``Attribute("sister.residence", "paris")`` for "My sister
lives in Paris".  Multi-valued facts ("I like pizza") set no attribute: liking
sushi too does not contradict them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lexicon import DIETS, EXCLUSIVE_RELATIONS, JOB_WORDS, RELATIONS, RELATIONSHIP_STATUSES

__all__ = ["Attribute", "extract_attribute", "polarity_conflict"]


@dataclass(frozen=True, slots=True)
class Attribute:
    """``key`` is ``"<entity>.<attribute>"``; ``value`` is normalised lower case."""

    key: str
    value: str
    negated: bool = False


_SUBJECT = r"(?:(?P<i>\bi)|\bmy\s+(?P<subj>[a-z\-]+))"
_ADV = r"(?:\s+(?:currently|now|still|actually|really|also|just|recently))*"
_VALUE = r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,60}?)"
_END = r"(?=\s*(?:[,.;!?]|\band\b|\bbut\b|\bwith\b|\bsince\b|\bbecause\b|\bfor\b|\bnow\b|$))"
_NEG = r"(?P<neg>\s+(?:no longer|not|never|don't|do not|doesn't|does not))?"

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "residence",
            _SUBJECT
            + r"(?:'m|\s+am|\s+is|'s)?"
            + _NEG
            + _ADV
            + r"(?:\s+used to)?\s+(?:live|lives|living|reside|resides|residing|based|"
            + r"stay|stays|staying)\s+in\s+"
            + _VALUE
            + _END,
        ),
        ("residence", _SUBJECT + _ADV + r"\s+(?:just\s+)?(?:moved|relocated)\s+to\s+" + _VALUE + _END),
        ("residence", r"\bmy\s+(?:home|house|apartment|flat)\s+is\s+in\s+(?P<v>[a-z0-9 .'\-]{1,60}?)" + _END),
        (
            "employer",
            _SUBJECT
            + r"(?:'m|\s+am|\s+is|'s)?"
            + _NEG
            + _ADV
            + r"\s+(?:work|works|working|employed|interning|intern)\s+(?:at|for|by|with)\s+"
            + _VALUE
            + _END,
        ),
        (
            "employer_at",
            _SUBJECT
            + r"(?:'m|\s+am|\s+is|'s)"
            + r"(?P<neg>\s+(?:no longer|not))?"
            + r"\s+(?:at|with)\s+(?P<v>[A-Z][A-Za-z0-9&'.\-]*(?:\s+[A-Z][A-Za-z0-9&'.\-]*)*)"
            + _END,
        ),
        (
            "employer",
            _SUBJECT + _ADV + r"\s+(?:joined|started at|got hired at|got a job at)\s+" + _VALUE + _END,
        ),
        ("job", _SUBJECT + _ADV + r"\s+(?:work|works|working)\s+as\s+(?:an?\s+)?" + _VALUE + _END),
        (
            "job",
            r"\bmy\s+(?:job|role|position|title|profession|occupation)\s+is\s+(?:an?\s+)?"
            + r"(?P<v>[a-z0-9 \-]{1,60}?)"
            + _END,
        ),
        ("job", _SUBJECT + r"(?:'m|\s+am|\s+is|'s)" + _NEG + _ADV + r"\s+an?\s+" + _VALUE + _END),
        ("name", r"\bmy\s+name\s+is\s+(?P<v>[a-z][a-z'\-]*(?:\s+[a-z][a-z'\-]*)?)" + _END),
        ("name", r"\b(?:call me|i go by)\s+(?P<v>[a-z][a-z'\-]*)" + _END),
        ("age", _SUBJECT + r"(?:'m|\s+am|\s+is|'s)\s+(?P<v>\d{1,3})(?:\s+years?\s+old)?" + _END),
        ("age", _SUBJECT + r"\s+(?:just\s+)?turned\s+(?P<v>\d{1,3})" + _END),
        (
            "diet",
            _SUBJECT
            + r"(?:'m|\s+am|\s+is|'s)"
            + _NEG
            + _ADV
            + r"\s+(?:an?\s+)?(?P<v>"
            + "|".join(sorted(DIETS))
            + r")\b",
        ),
        (
            "relationship_status",
            _SUBJECT
            + r"(?:'m|\s+am|\s+is|'s)"
            + _NEG
            + _ADV
            + r"\s+(?P<v>"
            + "|".join(sorted(RELATIONSHIP_STATUSES))
            + r")\b",
        ),
        ("car", _SUBJECT + _ADV + r"\s+(?:drive|drives)\s+(?:an?\s+)?" + _VALUE + _END),
        ("prefers", _SUBJECT + _ADV + r"\s+(?:prefer|prefers)\s+" + _VALUE + _END),
        (
            "favorite",
            r"\bmy\s+(?:absolute\s+)?favou?rite\s+(?P<attr>[a-z]+(?:\s+[a-z]+)?)\s+"
            r"(?:is|are)\s+" + _VALUE + _END,
        ),
        ("birthplace", _SUBJECT + r"\s+(?:was|were)\s+born\s+in\s+" + _VALUE + _END),
        (
            "origin",
            _SUBJECT + r"(?:'m|\s+am|\s+is|'s|\s+are)\s+(?:originally\s+)?from\s+" + _VALUE + _END,
        ),
        ("origin", _SUBJECT + r"\s+(?:come|comes)\s+from\s+" + _VALUE + _END),
        ("birthday", r"\bmy\s+birthday\s+is\s+(?:in|on)\s+(?P<v>[a-z0-9 ]{1,30}?)" + _END),
        (
            "pet_name",
            r"\bmy\s+(?P<attr>dog|cat|puppy|kitten|parrot|horse|rabbit|hamster|bird|turtle|pet)"
            r"(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?(?P<v>[A-Z][a-z'\-]+)" + _END,
        ),
        (
            "count",
            r"\bi\s+have\s+(?P<v>\d+|no|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
            r"(?P<attr>kids|children|sons|daughters|brothers|sisters|siblings|grandchildren)\b",
        ),
        (
            "color",
            r"\bmy\s+(?P<attr>car|bike|bicycle|house|door|phone|hair|eyes|room|van|truck)\s+(?:is|are)\s+"
            r"(?P<v>red|blue|green|black|white|silver|grey|gray|yellow|orange|purple|pink|brown|"
            r"blonde|blond|dark|light)\b",
        ),
        (
            "study",
            _SUBJECT
            + r"(?:'m|\s+am)?"
            + _ADV
            + r"\s+(?:study|studies|studying|major in|majoring in)\s+"
            + _VALUE
            + _END,
        ),
        ("team", _SUBJECT + _ADV + r"\s+(?:support|supports|root for)\s+" + _VALUE + _END),
        (
            "place",
            r"\bmy\s+(?P<attr>office|workplace|school|gym|studio)\s+is\s+in\s+(?P<v>[a-z0-9 .'\-]{1,60}?)"
            + _END,
        ),
        ("handedness", r"\bi(?:'m|\s+am)\s+(?P<v>left|right)[- ]handed\b"),
        (
            "religion",
            _SUBJECT
            + r"(?:'m|\s+am|\s+is|'s)\s+(?:an?\s+)?(?P<v>christian|catholic|protestant|muslim|jewish|"
            + r"hindu|buddhist|atheist|agnostic|sikh)\b",
        ),
        (
            "work_mode",
            r"\bi\s+(?:mostly\s+|usually\s+)?work\s+(?P<v>from home|remotely|in the office|on site|onsite)\b",
        ),
        ("sleep", r"\bi\s+(?:usually\s+)?sleep\s+(?P<v>\d+|five|six|seven|eight|nine|ten)\s+hours\b"),
        (
            "relation",
            r"\bmy\s+(?P<attr>[a-z\-]+)(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?"
            r"(?P<v>[A-Z][a-z'\-]+(?:\s+[A-Z][a-z'\-]+)?)" + _END,
        ),
    )
)

_NOT_A_SUBJECT = frozenset("at in on for with every hard late early night nights alone together".split())
_ARTICLES = re.compile(r"^(?:the|a|an|my|our)\s+")
_VALUE_TAIL = re.compile(
    r"\s+(?:last|this|next|yesterday|today|tomorrow|anymore|any more|these days|lately|"
    r"recently|since|ago|at|for|in|from|until)\b.*$"
)
_PREFER_TAIL = re.compile(
    r"\s+(?:over|to|than|instead|rather|when|because|since|for|in|on|at|during|with|while)\b.*$"
)


def _norm(value: str) -> str:
    v = re.sub(r"\s+", " ", value.lower()).strip(" .,'\"")
    return _ARTICLES.sub("", v)


def extract_attribute(sentence: str) -> Attribute | None:
    """The single-valued attribute ``sentence`` sets, if a rule recognises one."""
    text = re.sub(r"\s+", " ", sentence.replace("’", "'"))
    for name, pattern in _RULES:
        m = pattern.search(text)
        if not m:
            continue
        groups = m.groupdict()
        subj = (groups.get("subj") or "").lower()
        if groups.get("subj") is not None and subj not in RELATIONS:
            continue  # "my car is in Berlin": not a person's attribute
        entity = subj or "user"
        raw = groups.get("v") or ""
        value = _norm(raw)
        if not value:
            continue
        if name in ("employer_at", "relation") and not raw[:1].isupper():
            continue  # "I'm at the gym" is not an employer; a relation's value is a name
        if name == "employer_at":
            name = "employer"
        if name not in ("residence", "prefers", "favorite"):
            value = _VALUE_TAIL.sub("", value) or value
        else:
            value = (
                re.sub(r"\s+(?:last|this|next|anymore|any more|these days|since|ago)\b.*$", "", value)
                or value
            )
        negated = bool(groups.get("neg"))
        attr = name
        if name == "study" and value.split()[0] in _NOT_A_SUBJECT:
            continue  # "I study at night": when or where, not what
        if name == "job":
            words = set(re.findall(r"[a-z\-]+", value))
            if not words & JOB_WORDS:
                continue  # "I'm a big fan of..." is not a job
        elif name == "prefers":
            value = _PREFER_TAIL.sub("", value)
            parts = value.split()
            # "prefer dark mode" / "light mode": same head noun; "prefer tea" / "coffee": one word.
            attr = f"prefers:{parts[-1]}" if len(parts) > 1 else "prefers"
        elif name in ("pet_name", "count", "color", "place"):
            attr = f"{name}:{groups['attr'].lower()}"
            if name == "count":
                value = {"no": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5"}.get(
                    value, value
                )
        elif name == "favorite":
            attr = f"favorite:{_norm(groups['attr'])}"
        elif name == "relation":
            rel = groups["attr"].lower()
            if rel not in EXCLUSIVE_RELATIONS:
                continue  # several sisters can coexist
            attr = f"relation:{rel}"
            entity = "user"
        return Attribute(key=f"{entity}.{attr}", value=value, negated=negated)
    return None


_NEGATORS = re.compile(
    r"\b(?:not|no|never|don't|doesn't|didn't|isn't|aren't|wasn't|won't|can't|cannot|"
    r"no longer|anymore|hate|hates|dislike|dislikes)\b|n't\b",
    re.IGNORECASE,
)
_STOP = frozenset(
    "the a an and or but to of in on at for with is are was were be been am user user's "
    "i my me it this that do does did really very so just also like likes love loves enjoy "
    "enjoys prefer prefers has have had any all at".split()
)


def _content_words(text: str) -> set[str]:
    stripped = _NEGATORS.sub(" ", text.lower())
    return {w for w in re.findall(r"[a-z0-9']+", stripped) if w not in _STOP}


def polarity_conflict(a: str, b: str, min_overlap: float = 0.6) -> bool:
    """True when ``a`` and ``b`` say the same thing with opposite polarity.

    ("User likes cats." / "User doesn't like cats.")  Content words must
    overlap (Jaccard ≥ ``min_overlap``) once negators are removed.
    """
    neg_a = bool(_NEGATORS.search(a))
    neg_b = bool(_NEGATORS.search(b))
    if neg_a == neg_b:
        return False
    wa, wb = _content_words(a), _content_words(b)
    # Crude stems: "smokes" / "smoke" / "smoking" all give "smok".
    wa = {w[:4] if len(w) > 4 else re.sub(r"s$", "", w) for w in wa}
    wb = {w[:4] if len(w) > 4 else re.sub(r"s$", "", w) for w in wb}
    if not wa or not wb:
        return False
    return len(wa & wb) / len(wa | wb) >= min_overlap

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

from .lexicon import (
    DIETS,
    EXCLUSIVE_RELATIONS,
    JOB_WORDS,
    NEGATION,
    RELATIONS,
    RELATIONSHIP_STATUSES,
    VALUE_STOPWORDS,
    normalise_quotes,
)

__all__ = ["Attribute", "extract_attribute", "polarity_conflict", "same_slot", "slot_keys"]


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
        # Who one lives with: "I live alone" / "I live with my parents" / "I moved out".
        (
            "household",
            r"\bi"
            + _ADV
            + r"\s+(?:live|living)\s+(?P<v>alone|by myself|on my own|with\s+[a-z' ]{2,40}?)"
            + _END,
        ),
        (
            "household",
            r"\bi" + _ADV + r"\s+(?:moved|moving)\s+(?:out|into|to)\s+(?:a\s+place\s+of\s+my\s+own|"
            r"my\s+own\s+(?P<v>place|apartment|flat|house|home))\b",
        ),
        (
            "residence",
            _SUBJECT
            + r"(?:'m|\s+am|\s+is|'s)?"
            + _NEG
            + _ADV
            + r"(?:\s+used to)?\s+(?:live|lives|living|reside|resides|residing|based|"
            + r"stay|stays|staying)\s+(?:in|near|by|on)\s+"
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
        (
            "employer",
            r"\bi\s+(?:\w+\s+)?(?:to|got|have|found|took|started|began)\s+(?:a\s+|my\s+|the\s+)?"
            r"(?:new\s+)?job\s+(?:at|with)\s+" + _VALUE + _END,
        ),
        ("job", _SUBJECT + _ADV + r"\s+(?:work|works|working)\s+as\s+(?:an?\s+)?" + _VALUE + _END),
        # The platform one uses: "I use an iPhone" / "I switched to Android" / "I'm a Mac user".
        (
            "platform",
            r"\bi" + _ADV + r"(?:\s+(?:use|uses|using|own|have|switched to|changed to|moved to|got)|"
            r"'m\s+(?:an?\s+)|\s+am\s+(?:an?\s+))\s*(?:an?\s+|the\s+|my\s+)?"
            r"(?P<v>windows|linux|ubuntu|macos|mac|macbook|chromebook|iphone|ios|android|pixel|samsung|"
            r"blackberry)\b",
        ),
        # How one gets to work: "I take the bus to work" / "I cycle to work".
        (
            "commute",
            r"\bi" + _ADV + r"\s+(?:(?:take|takes|ride|catch)\s+(?:the\s+|a\s+)?(?P<v>bus|train|subway|"
            r"metro|tram|ferry|bike)|(?P<v2>cycle|bike|walk|drive|run|commute by \w+))\s+to\s+"
            r"(?:work|the office|school)\b",
        ),
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
            "pet_name",
            r"\bi\s+have\s+an?\s+(?P<attr>dog|cat|puppy|kitten|parrot|horse|rabbit|hamster|bird|turtle)"
            r"\s+(?:called|named)\s+(?P<v>[A-Z][a-z'\-]+)" + _END,
        ),
        # "I'm an only child" / "I have no siblings": a sibling count of 0.
        ("count", r"\bi(?:'m|\s+am)\s+an\s+(?P<v>only)\s+(?P<attr>child)\b"),
        (
            "count",
            r"\bi\s+have\s+(?P<v>\d+|no|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
            r"(?P<attr>kids?|children|child|sons?|daughters?|brothers?|sisters?|siblings?|grandchildren|"
            r"grandchild)\b",
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
            + r"(?:\s+(?:switched|changed|moved)\s+to|\s+(?:started|began))?"
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
        ("work_hours", r"\bi\s+(?:now\s+)?work\s+(?P<v>part[- ]time|full[- ]time)\b"),
        ("hair_length", r"\bmy\s+hair\s+is\s+(?:\w+\s+)?(?P<v>long|short)\b"),
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


_JOINED = re.compile(r"\b(?:joined|started at)\b", re.IGNORECASE)
_EMPLOYER_WORDS = re.compile(
    r"\b(?:company|firm|startup|agency|bank|hospital|clinic|school|university|studio|office|practice|"
    r"corp|inc|ltd|llc|lab|team at)\b",
    re.IGNORECASE,
)
_SIBLING_KEYS = ("user.count:siblings", "user.count:brothers", "user.count:sisters")
_PLATFORMS = {
    "windows": ("computer", "windows"),
    "linux": ("computer", "linux"),
    "ubuntu": ("computer", "linux"),
    "macos": ("computer", "mac"),
    "mac": ("computer", "mac"),
    "macbook": ("computer", "mac"),
    "chromebook": ("computer", "chromeos"),
    "iphone": ("phone", "iphone"),
    "ios": ("phone", "iphone"),
    "android": ("phone", "android"),
    "pixel": ("phone", "android"),
    "samsung": ("phone", "android"),
    "blackberry": ("phone", "blackberry"),
}
_HOUSEHOLD_ALONE = frozenset({"alone", "by myself", "on my own"})
_NUMBER_WORDS = {
    "no": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
}
_PLURAL = {
    "kid": "kids",
    "child": "children",
    "son": "sons",
    "daughter": "daughters",
    "brother": "brothers",
    "sister": "sisters",
    "sibling": "siblings",
    "grandchild": "grandchildren",
}


def slot_keys(attribute: Attribute | None) -> tuple[str, ...]:
    """The attribute keys whose facts may conflict with ``attribute``: its own, and
    for "no siblings" (a count of 0) the brother and sister counts too."""
    if attribute is None:
        return ()
    if attribute.key in _SIBLING_KEYS:
        return _SIBLING_KEYS if attribute.value == "0" else (attribute.key, _SIBLING_KEYS[0])
    return (attribute.key,)


def same_slot(attribute: Attribute, key: str | None, value: str | None) -> bool:
    """Whether a stored fact with ``key``/``value`` sets the same slot as ``attribute``:
    the same key, or "no siblings" against a brother or sister count."""
    if key == attribute.key:
        return True
    if key in _SIBLING_KEYS and attribute.key in _SIBLING_KEYS:
        return _SIBLING_KEYS[0] in (key, attribute.key) and "0" in (value, attribute.value)
    return False


def _norm(value: str) -> str:
    v = re.sub(r"\s+", " ", value.lower()).strip(" .,'\"")
    return _ARTICLES.sub("", v)


def extract_attribute(sentence: str) -> Attribute | None:
    """The single-valued attribute ``sentence`` sets, if a rule recognises one."""
    text = re.sub(r"\s+", " ", normalise_quotes(sentence))
    for name, pattern in _RULES:
        m = pattern.search(text)
        if not m:
            continue
        groups = m.groupdict()
        if name == "household" and not groups.get("v"):
            groups["v"] = "own place"  # "I moved into a place of my own"
        if name == "commute" and not groups.get("v"):
            groups["v"] = groups.get("v2")
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
        joined = name == "employer" and _JOINED.search(m.group(0)) is not None
        if joined and not (raw[:1].isupper() or _EMPLOYER_WORDS.search(raw)):
            continue  # "I joined a gym / a new group": not an employer
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
        elif name == "household":
            value = "alone" if value in _HOUSEHOLD_ALONE else value.removeprefix("with ").removeprefix("my ")
            value = "own place" if value in ("place", "apartment", "flat", "house", "home") else value
        elif name == "platform":
            device, value = _PLATFORMS[value]
            attr = f"platform:{device}"
        elif name == "commute":
            value = value.removeprefix("commute by ")
            value = {"cycle": "bike", "car": "drive"}.get(value, value)
        elif name == "count":
            noun = groups["attr"].lower()
            attr = f"count:{_PLURAL.get(noun, noun)}"
            value = _NUMBER_WORDS.get(value, value)
            if noun == "child" and value == "only":
                attr, value = "count:siblings", "0"  # "I'm an only child"
        elif name in ("pet_name", "color", "place"):
            attr = f"{name}:{groups['attr'].lower()}"
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


_CLAUSE = re.compile(r"\s*(?:[,;]|\band\b|\bbut\b)\s*", re.IGNORECASE)


def _content_words(text: str) -> set[str]:
    stripped = NEGATION.sub(" ", text.lower())
    return {w for w in re.findall(r"[a-z0-9']+", stripped) if w not in VALUE_STOPWORDS}


def polarity_conflict(a: str, b: str, min_overlap: float = 0.6) -> bool:
    """True when ``a`` and ``b`` (or a clause of each) say the same thing with
    opposite polarity.

    ("User likes cats." / "User doesn't like cats."; "User drinks a lot of
    milk." / "User is lactose intolerant and never drinks milk.")  Content
    words must overlap (Jaccard ≥ ``min_overlap``) once negators are removed.
    """
    clauses_a = [c for c in _CLAUSE.split(a) if c.strip()] or [a]
    clauses_b = [c for c in _CLAUSE.split(b) if c.strip()] or [b]
    pairs = [(a, b)] + [(x, y) for x in clauses_a for y in clauses_b if (x, y) != (a, b)]
    return any(_opposite(x, y, min_overlap) for x, y in pairs)


def _opposite(a: str, b: str, min_overlap: float) -> bool:
    neg_a = bool(NEGATION.search(a))
    neg_b = bool(NEGATION.search(b))
    if neg_a == neg_b:
        return False
    wa, wb = _content_words(a), _content_words(b)
    # Crude stems: "smokes" / "smoke" / "smoking" all give "smok".
    wa = {w[:4] if len(w) > 4 else re.sub(r"s$", "", w) for w in wa}
    wb = {w[:4] if len(w) > 4 else re.sub(r"s$", "", w) for w in wb}
    if not wa or not wb:
        return False
    return len(wa & wb) / len(wa | wb) >= min_overlap

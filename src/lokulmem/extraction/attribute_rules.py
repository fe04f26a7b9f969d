"""The attribute rules, as data: one :class:`Rule` per way a sentence sets an attribute.

Each rule is a pattern (named groups: ``v`` the value, ``subj`` whose
attribute, ``attr`` a qualifier such as the pet in "my dog is called Rex",
``neg`` a negation) and how its match is finished into ``(attribute, value)``:
which tail is cut from the value, whether the value must be a name (capital
letter), and a ``finish`` function for the rules whose attribute name or value
needs more than the pattern (``prefers:mode``, ``count:siblings``).
:func:`lokulmem.extraction.attributes.extract_attribute` tries them in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .lexicon import DIETS, EXCLUSIVE_RELATIONS, JOB_WORDS, PET_KINDS, RELATIONSHIP_STATUSES

__all__ = ["EMPLOYER_WORDS", "JOINED", "RULES", "Rule", "norm_value"]

Groups = Mapping[str, str | None]
#: ``(attribute, groups, value) -> (attribute, value)``, or None when the match is not this attribute.
Finish = Callable[[str, Groups, str], "tuple[str, str] | None"]

_SUBJECT = r"(?:(?P<i>\bi)|\bmy\s+(?P<subj>[a-z\-]+))"
_ADV = r"(?:\s+(?:currently|now|still|actually|really|also|just|recently))*"
_VALUE = r"(?P<v>[a-z0-9][a-z0-9 .&'\-]{0,60}?)"
_END = r"(?=\s*(?:[,.;!?]|\band\b|\bbut\b|\bwith\b|\bsince\b|\bbecause\b|\bfor\b|\bnow\b|$))"
#: A school's name: "Kingston University", "University of Bath", "Imperial College London".
_INSTITUTION = (
    r"(?P<v>(?:[a-z][a-z'.&\-]*\s+){1,4}(?:university|college|institute|academy)(?:\s+[a-z][a-z\-]*)?"
    r"|(?:university|college)\s+of\s+[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*){0,2})"
) + _END
_PETS = "|".join(PET_KINDS)
_NEG = r"(?P<neg>\s+(?:no longer|not|never|don't|do not|doesn't|does not))?"

_PATTERNS: tuple[tuple[str, str], ...] = (
    # Who one lives with: "I live alone" / "I live with my parents" / "I moved out".
    # Alone is alone whatever follows ("I live alone in a studio").
    ("household", r"\bi" + _ADV + r"\s+(?:live|living)\s+(?P<v>alone|by myself|on my own)\b"),
    (
        "household",
        r"\bi" + _ADV + r"\s+(?:live|living)\s+(?P<v>alone|by myself|on my own|with\s+[a-z' ]{2,40}?)" + _END,
    ),
    (
        "household",
        r"\bi" + _ADV + r"\s+(?:moved|moving)\s+(?:out(?:\s+(?:into|to))?|into|to)\s+"
        r"(?:a\s+place\s+of\s+my\s+own|my\s+own\s+(?P<v>place|apartment|flat|house|home))\b",
    ),
    # Someone moved in: "My girlfriend moved in with me" (the household is with her).
    (
        "household",
        r"\bmy\s+(?P<v>[a-z\-]+)\s+(?:just\s+|finally\s+)?(?:moved|has moved|is moving)\s+in\s+with\s+me\b",
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
    # "I'm in Vancouver now" / "I'm now in Vancouver": a place name, said with "now".
    ("residence_now", r"\bi(?:'m|\s+am)\s+in\s+(?P<v>[a-z][a-z'.\-]*(?:\s+[a-z][a-z'.\-]*){0,3}?)\s+now\b"),
    ("residence_now", r"\bi(?:'m|\s+am)\s+now\s+(?:in|based in|living in)\s+" + _VALUE + _END),
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
    # "I left Deloitte and joined KPMG": the employer is the one joined.
    (
        "employer",
        r"\bi\s+(?:left|quit)\s+[^,.;!?]{1,60}?\s+(?:and|to)\s+(?:joined|started at)\s+" + _VALUE + _END,
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
    # "I quit teaching and became a freelance translator" (a job word is required).
    ("job", r"\bi\s+(?:[a-z']+\s+){0,5}?(?:became|have become|'ve become)\s+an?\s+" + _VALUE + _END),
    # "I was promoted to senior developer" / "I got promoted to team lead" (a job word is required).
    (
        "job",
        r"\bi"
        + _ADV
        + r"\s+(?:was|got|have been|'ve been|just got)\s+promoted\s+to\s+(?:an?\s+|the\s+)?"
        + _VALUE
        + _END,
    ),
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
    # "I went vegan in January" / "I've been vegetarian for years".
    (
        "diet",
        _SUBJECT
        + r"(?:'ve been|\s+have been|\s+went|\s+became|\s+turned|'ve gone|\s+have gone)"
        + _ADV
        + r"(?:\s+fully)?\s+(?:an?\s+)?(?P<v>"
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
    # "I sold the Focus and bought a Tesla Model 3": the car is the one bought.
    (
        "car",
        r"\bi\s+(?:sold|traded in|got rid of)\s+[^,.;!?]{1,40}?\s+and\s+(?:bought|got)\s+"
        r"(?:an?\s+|the\s+|my\s+)?(?:new\s+)?" + _VALUE + _END,
    ),
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
        r"\bmy\s+(?P<attr>" + _PETS + r"|pet)"
        r"(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?(?P<v>[A-Z][a-z'\-]+)" + _END,
    ),
    (
        "pet_name",
        r"\bi\s+have\s+an?\s+(?P<attr>" + _PETS + r")"
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
    # The school one attends: "I go to Kingston University" / "I transferred to
    # Leeds Beckett University" / "I study at the University of Bath".
    (
        "school",
        _SUBJECT
        + r"(?:'m|\s+am)?"
        + _ADV
        + r"\s+(?:go|goes|going|transferred|transfer|switched|moved|study|studies|studying|enrolled|"
        + r"a student)\s+(?:to|at|in)\s+(?:the\s+)?"
        + _INSTITUTION,
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
        r"\bmy\s+(?P<attr>office|workplace|school|gym|studio)\s+is\s+in\s+(?P<v>[a-z0-9 .'\-]{1,60}?)" + _END,
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
    # "We're back in the office.", "I'm back to working from home.": a change of
    # where the user works, said of the team as often as of themselves.
    (
        "work_mode",
        r"\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:all\s+)?back\s+(?:to\s+working\s+)?"
        r"(?P<v>from home|in the office|on site|onsite)\b",
    ),
    ("work_hours", r"\bi\s+(?:now\s+)?work\s+(?P<v>part[- ]time|full[- ]time)\b"),
    ("hair_length", r"\bmy\s+hair\s+is\s+(?:\w+\s+)?(?P<v>long|short)\b"),
    (
        "sleep",
        r"\bi\s+(?:usually\s+|normally\s+)?sleep\s+(?:about\s+|around\s+|roughly\s+|only\s+|just\s+)?"
        r"(?P<v>\d+|four|five|six|seven|eight|nine|ten)\s+hours\b",
    ),
    (
        "relation",
        r"\bmy\s+(?P<attr>[a-z\-]+)(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?"
        r"(?P<v>[A-Z][a-z'\-]+(?:\s+[A-Z][a-z'\-]+)?)" + _END,
    ),
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


JOINED = re.compile(r"\b(?:joined|started at)\b", re.IGNORECASE)
EMPLOYER_WORDS = re.compile(
    r"\b(?:company|firm|startup|agency|bank|hospital|clinic|school|university|studio|office|practice|"
    r"corp|inc|ltd|llc|lab|team at)\b",
    re.IGNORECASE,
)
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


def norm_value(value: str) -> str:
    v = re.sub(r"\s+", " ", value.lower()).strip(" .,'\"")
    return _ARTICLES.sub("", v)


#: What trails a time-sensitive value and is cut ("Lisbon since May" → "lisbon").
_TIME_TAIL = re.compile(r"\s+(?:last|this|next|anymore|any more|these days|since|ago)\b.*$")


def _keep(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, value


def _study(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return None if value.split()[0] in _NOT_A_SUBJECT else (attribute, value)  # "I study at night"


def _job(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    words = set(re.findall(r"[a-z\-]+", value))
    return (attribute, value) if words & JOB_WORDS else None  # "I'm a big fan of..." is no job


def _prefers(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    value = _PREFER_TAIL.sub("", value)
    parts = value.split()
    # "prefer dark mode" / "light mode": same head noun; "prefer tea" / "coffee": one word.
    return (f"prefers:{parts[-1]}" if len(parts) > 1 else "prefers"), value


def _household(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    value = "alone" if value in _HOUSEHOLD_ALONE else value.removeprefix("with ").removeprefix("my ")
    return attribute, "own place" if value in ("place", "apartment", "flat", "house", "home") else value


def _platform(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    device, value = _PLATFORMS[value]
    return f"platform:{device}", value


def _commute(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    value = value.removeprefix("commute by ")
    return attribute, {"cycle": "bike", "car": "drive"}.get(value, value)


def _count(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    noun = str(groups["attr"]).lower()
    value = _NUMBER_WORDS.get(value, value)
    if noun == "child" and value == "only":
        return "count:siblings", "0"  # "I'm an only child"
    return f"count:{_PLURAL.get(noun, noun)}", value


def _number(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, _NUMBER_WORDS.get(value, value)  # "eight hours" and "8 hours" agree


def _qualified(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return f"{attribute}:{str(groups['attr']).lower()}", value  # "pet_name:dog"


def _favorite(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return f"favorite:{norm_value(str(groups['attr']))}", value


def _relation(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    rel = str(groups["attr"]).lower()
    return (f"relation:{rel}", value) if rel in EXCLUSIVE_RELATIONS else None  # sisters coexist


@dataclass(frozen=True)
class Rule:
    """One way a sentence sets a single-valued attribute (see the module docstring)."""

    #: The rule's name in the table (several rules may set one attribute).
    name: str
    pattern: re.Pattern[str]
    #: The attribute it sets, before ``finish`` qualifies it.
    attribute: str
    finish: Finish = _keep
    #: Cut from the end of the value.
    tail: re.Pattern[str] = _VALUE_TAIL
    #: The value must start with a capital letter in the sentence: a name.
    proper: bool = False
    #: After "joined"/"started at", the value must be a name or an employer word ("a gym" is not).
    employer_words: bool = False
    #: The value when the pattern matched without one ("a place of my own").
    default: str | None = None
    #: The group holding the value when ``v`` is empty.
    alt_group: str | None = None


#: Per-rule settings; a rule not named here keeps its value as matched (minus the tail).
_SETTINGS: Mapping[str, Mapping[str, object]] = {
    "residence": {"tail": _TIME_TAIL},
    "prefers": {"tail": _TIME_TAIL, "finish": _prefers},
    "favorite": {"tail": _TIME_TAIL, "finish": _favorite},
    "employer": {"employer_words": True},
    "employer_at": {"attribute": "employer", "proper": True},
    "residence_now": {"attribute": "residence", "proper": True, "tail": _TIME_TAIL},
    "school": {"proper": True, "tail": _TIME_TAIL},
    "relation": {"proper": True, "finish": _relation},
    "household": {"default": "own place", "finish": _household},
    "commute": {"alt_group": "v2", "finish": _commute},
    "study": {"finish": _study},
    "job": {"finish": _job},
    "platform": {"finish": _platform},
    "count": {"finish": _count},
    "sleep": {"finish": _number},
    "pet_name": {"finish": _qualified},
    "color": {"finish": _qualified},
    "place": {"finish": _qualified},
}


def _rule(name: str, pattern: str) -> Rule:
    settings = dict(_SETTINGS.get(name, {}))
    attribute = str(settings.pop("attribute", name))
    # The settings table holds Rule's own keyword arguments; Rule checks them when built.
    return Rule(name=name, pattern=re.compile(pattern, re.IGNORECASE), attribute=attribute, **settings)  # type: ignore[arg-type]


#: Every rule, in the order they are tried.
RULES: tuple[Rule, ...] = tuple(_rule(name, pattern) for name, pattern in _PATTERNS)

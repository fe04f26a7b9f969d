"""The attribute rules, as data: one :class:`Rule` per way a sentence sets an attribute.

Each rule is a pattern (:mod:`lokulmem.extraction.attribute_patterns`; named
groups: ``v`` the value, ``subj`` whose attribute, ``attr`` a qualifier such as
the pet in "my dog is called Rex", ``neg`` a negation) and how its match is
finished into ``(attribute, value)``: which tail is cut from the value, whether
the value must be a name (capital letter), and a ``finish`` function for the
rules whose attribute name or value needs more than the pattern
(``prefers:mode``, ``count:siblings``).
:func:`lokulmem.extraction.attributes.extract_attribute` tries them in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .attribute_fragments import HOME_WORDS
from .attribute_patterns import PATTERNS
from .lexicon import (
    CAR_WORDS,
    EXCLUSIVE_RELATIONS,
    JOB_WORDS,
    LATIN_LETTERS,
    MONTHS,
    PET_BREEDS,
    SMALL_NUMBERS,
    WEEKDAYS,
)

__all__ = ["EMPLOYER_WORDS", "JOINED", "RULES", "Rule", "norm_value"]

Groups = Mapping[str, str | None]
#: ``(attribute, groups, value) -> (attribute, value)``, or None when the match is not this attribute.
Finish = Callable[[str, Groups, str], "tuple[str, str] | None"]


_NOT_A_SUBJECT = frozenset("at in on for with every hard late early night nights alone together".split())
_ARTICLES = re.compile(r"^(?:the|a|an|my|our)\s+")


def _tail(*words: str) -> re.Pattern[str]:
    """What is cut from the end of a value: the first of ``words`` and all after it."""
    return re.compile(r"\s+(?:" + "|".join(words) + r")\b(?!-).*$")  # not "in-laws"


#: Words that say when, and trail a time-sensitive value ("Lisbon since May" → "lisbon").
_WHEN = ("last", "this", "next", "anymore", "any more", "these days", "since", "ago")
_TIME_TAIL = _tail(*_WHEN)
#: The default: when, or where and for how long ("Stripe for two years", "Acme at the moment").
_VALUE_TAIL = _tail(*_WHEN, *"yesterday today tomorrow lately recently at for in from until".split())
#: What trails a provider's name ("Halifax in the autumn", "Direct Line this year").
_PROVIDER_TAIL = _tail(*_WHEN, *"in on after before when because from until at for".split())
#: What trails the employer of a job about to start ("Canva on Monday", "the BBC in May").
_START_TAIL = _tail(*"on in from next this tomorrow today after at as once when soon".split())
#: What trails a preference ("tea over coffee" → "tea").
_PREFER_TAIL = _tail(*"over to than instead rather when because since for in on at during with while".split())


#: Verbs after which an employer rule's value must be a name or an employer word
#: ("I joined a gym", "I accepted an offer from a buyer": no employer).
JOINED = re.compile(
    r"\b(?:join(?:ed|ing)?|start(?:ed|ing)?\s+(?:my\s+(?:new\s+)?job\s+)?at|accepted)\b", re.IGNORECASE
)
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
_NUMBER_WORDS = {"no": "0", **SMALL_NUMBERS}
_PLURAL = {
    "kid": "kids",
    "child": "children",
    "son": "sons",
    "daughter": "daughters",
    "brother": "brothers",
    "sister": "sisters",
    "sibling": "siblings",
    "grandchild": "grandchildren",
    "cat": "cats",
    "dog": "dogs",
    "baby": "children",
}
_ORDINALS = {"second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6"}


def norm_value(value: str) -> str:
    v = re.sub(r"\s+", " ", value.lower()).strip(" .,'\"")
    return _ARTICLES.sub("", v)


def _keep(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, value


#: A home and where it is ("flat in leeds", "small house near york"): the place is the value.
_HOME_IN = re.compile(
    r"^(?:[a-z\-]+\s+){0,2}?" + HOME_WORDS + r"\s+(?:in|near|outside|just\s+outside)\s+(?P<place>\S.*)$"
)


#: When, after a place ("lisbon in may", "leeds for six years"): not part of it.
_PLACE_WHEN = re.compile(
    r"\s+(?:(?:in|on|by|during|from|over)\s+(?:the\s+)?(?:"
    + "|".join((*MONTHS[:12], *WEEKDAYS))
    + r"|spring|summer|autumn|fall|winter|new\s+year|\d{4}|weekend)|"
    r"for\s+(?:a|an|one|two|three|four|five|six|seven|"
    r"eight|nine|ten|\d+|a\s+few|several|many)\b|"
    # "newcastle two years ago", "leeds last year"
    r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a\s+few|several|many)\s+"
    r"(?:days?|weeks?|months?|years?)(?:\s+ago)?\b|(?:last|this)\s+(?:week|month|year|spring|summer|autumn|winter)\b)"
    r".*$"
)


def _residence(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    # "I live in a flat in Leeds" and "I live in Leeds" name one place, and so does
    # "I moved to Leeds in May".
    home = _HOME_IN.match(value)
    return attribute, _PLACE_WHEN.sub("", home.group("place") if home else value)


def _study(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return None if value.split()[0] in _NOT_A_SUBJECT else (attribute, value)  # "I study at night"


def _job(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    words = set(re.findall(r"[a-z\-]+", value))
    return (attribute, value) if words & JOB_WORDS else None  # "I'm a big fan of..." is no job


def _business(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, f"{value} owner"  # "bakery" → "bakery owner": the work is running it


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


_COMMUTE_MODES = {
    "cycle": "bike",
    "cycling": "bike",
    "biking": "bike",
    "car": "drive",
    "driving": "drive",
    "walking": "walk",
    "running": "run",
}


def _commute(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    value = value.removeprefix("commute by ")
    return attribute, _COMMUTE_MODES.get(value, value)  # "cycling to school" and "I cycle" agree


def _service_name(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    # "Disney+", "disney plus" and "disney +" are one service; "vscode" and "vs code" one editor.
    name = re.sub(r"\s*\+$|\s+plus$", "+", value)
    return attribute, {"vscode": "vs code", "visual studio code": "vs code"}.get(name, name)


def _chronotype(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, "night" if value.startswith(("night", "evening")) else "morning"


def _gp(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, re.sub(r"^dr\.?\s+", "", value)  # "Dr Patel" and "Patel" are one doctor


def _car_swap(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    words = set(re.findall(r"[a-z]+", value))
    return (attribute, value) if words & CAR_WORDS else None  # "bought a Steam Deck" is no car


#: What is bought for a car, or is a toy one, not a car ("a car seat", "a toy car").
_NOT_A_CAR_BOUGHT = re.compile(r"\btoy\b|\bcar\s+(?:seat|charger|wash|mat|cover|park|radio|phone)")


def _car_bought(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    # "bought a second-hand Toyota Yaris": a car by its make or the word, nothing for one.
    return None if _NOT_A_CAR_BOUGHT.search(value) else _car_swap(attribute, groups, value)


def _retired(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, f"retired {value}"  # the job one had, and that it ended


def _teacher(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, f"{value} teacher"  # "I teach chemistry": a chemistry teacher


def _count(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    noun = str(groups["attr"]).lower()
    value = _NUMBER_WORDS.get(value, _ORDINALS.get(value, value))  # "a third cat": 3 of them
    if noun == "child" and value == "only":
        return "count:siblings", "0"  # "I'm an only child"
    return f"count:{_PLURAL.get(noun, noun)}", value


def _shift(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, re.sub(r"s$", "", value.split()[0])  # "nights", "night shifts" → "night"


def _tenure(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, "rent" if value.startswith("rent") else "own"


def _project(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, re.sub(r"\s+project$", "", value)


def _number(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, _NUMBER_WORDS.get(value, value)  # "eight hours" and "8 hours" agree


def _days(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return attribute, f"{_NUMBER_WORDS.get(value, value)} days a week"  # "four" and "4" agree


def _weight(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    m = re.match(r"([\d.]+)\s?([a-z]+)", value)
    if m is None:
        return None
    unit = {"kilo": "kg", "kilos": "kg", "lb": "lbs", "pounds": "lbs"}.get(m.group(2), m.group(2))
    return attribute, f"{m.group(1)} {unit}"  # "92 kilos" and "92kg" agree


def _qualified(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return f"{attribute}:{str(groups['attr']).lower()}", value  # "pet_name:dog"


def _breed(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    breed = re.sub(r"\s+", " ", str(groups["attr"]).lower())
    return f"pet_name:{PET_BREEDS[breed]}", value  # "Maine Coon" → "pet_name:cat"


#: The service a ``provider`` fact names, by the word that names it.
_SERVICES = {
    "mortgage": "mortgage",
    "remortgaged": "mortgage",
    **{
        f"{kind} insurance": f"{kind}-insurance"
        for kind in ("car", "home", "contents", "pet", "travel", "health")
    },
    "house insurance": "home-insurance",
    **dict.fromkeys(("phone", "mobile", "cell", "number"), "mobile"),
    **dict.fromkeys(("broadband", "internet", "wifi", "wi-fi"), "internet"),
    **dict.fromkeys(("energy", "electricity", "gas"), "energy"),
}


def _provider(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    if value in _PLATFORMS:  # "I switched my phone to Android" names a platform
        return _platform("platform", groups, value)
    service = re.sub(r"\s+", " ", str(groups["attr"]).lower())
    return f"{attribute}:{_SERVICES[service]}", value  # "provider:mobile"


def _favorite(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    return f"favorite:{norm_value(str(groups['attr']))}", value


def _relationship_event(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    # A break-up leaves one single; the other events name the status they lead to.
    status = "single" if value.endswith((" up", " quits")) else value
    return "relationship_status", status


def _relation(attribute: str, groups: Groups, value: str) -> tuple[str, str] | None:
    rel = str(groups["attr"]).lower()
    if rel.endswith(" friend"):  # "best friend", "closest friend": one slot
        rel = "best-friend"
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
    "residence": {"tail": _TIME_TAIL, "finish": _residence},
    "prefers": {"tail": _TIME_TAIL, "finish": _prefers},
    "favorite": {"tail": _TIME_TAIL, "finish": _favorite},
    "employer": {"employer_words": True},
    "employer_start": {"attribute": "employer", "employer_words": True, "tail": _START_TAIL},
    "household_alone": {"attribute": "household", "default": "alone"},
    "employer_at": {"attribute": "employer", "proper": True},
    "employer_left": {"attribute": "employer", "proper": True, "tail": _START_TAIL},
    "residence_now": {"attribute": "residence", "proper": True, "tail": _TIME_TAIL, "finish": _residence},
    "residence_perfect": {"attribute": "residence", "proper": True, "tail": _TIME_TAIL, "finish": _residence},
    "school": {"proper": True, "tail": _TIME_TAIL},
    "relation": {"proper": True, "finish": _relation},
    "household": {"default": "own place", "finish": _household},
    "commute": {"alt_group": "v2", "finish": _commute},
    "study": {"finish": _study},
    "study_left": {"attribute": "study", "alt_group": "v2"},
    "reading": {"proper": True, "tail": _TIME_TAIL},
    "watching": {"proper": True, "tail": _TIME_TAIL},
    "streaming": {"finish": _service_name},
    "chronotype": {"finish": _chronotype},
    "editor": {"finish": _service_name},
    "gp": {"proper": True, "tail": _PROVIDER_TAIL, "finish": _gp},
    "job": {"finish": _job},
    "job_teach": {"attribute": "job", "finish": _teacher},
    "job_retired": {"attribute": "job", "finish": _retired},
    "job_business": {"attribute": "job", "finish": _business},
    "work_leave_back": {"attribute": "work_leave", "default": "back"},
    "platform": {"finish": _platform},
    "count": {"finish": _count},
    "sleep": {"finish": _number},
    "pet_name": {"finish": _qualified},
    "pet_breed_name": {"attribute": "pet_name", "proper": True, "finish": _breed},
    "color": {"finish": _qualified},
    "place": {"finish": _qualified},
    "bank": {"proper": True, "tail": _PROVIDER_TAIL},
    "relationship_dating": {"attribute": "relationship_status", "default": "dating"},
    "bedtime": {"finish": _number},
    "weight": {"finish": _weight},
    "work_mode_recalled": {"attribute": "work_mode", "default": "in the office"},
    "work_days": {"finish": _days},
    "provider": {"proper": True, "tail": _PROVIDER_TAIL, "finish": _provider},
    "car_swap": {"attribute": "car", "finish": _car_swap},
    "car_bought": {"attribute": "car", "finish": _car_bought},
    "code_language": {"proper": True, "tail": _TIME_TAIL},
    "team_follow": {"attribute": "team", "proper": True, "tail": _TIME_TAIL},
    "home_language": {"proper": True},
    "shift": {"finish": _shift},
    "tenure": {"finish": _tenure},
    "project": {"finish": _project},
    "relationship_event": {"finish": _relationship_event},
}


def _rule(name: str, pattern: str) -> Rule:
    settings = dict(_SETTINGS.get(name, {}))
    attribute = str(settings.pop("attribute", name))
    # Letters are those of Latin-script languages, not ASCII only: "I live in Zürich."
    # (case-insensitive, so "A-Z" is the same range).
    pattern = pattern.replace("a-z", LATIN_LETTERS).replace("A-Z", LATIN_LETTERS)
    # The settings table holds Rule's own keyword arguments; Rule checks them when built.
    return Rule(name=name, pattern=re.compile(pattern, re.IGNORECASE), attribute=attribute, **settings)  # type: ignore[arg-type]


#: Every rule, in the order they are tried.
RULES: tuple[Rule, ...] = tuple(_rule(name, pattern) for name, pattern in PATTERNS)

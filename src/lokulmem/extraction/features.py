"""Rule-based NER and the specificity signal (PRD §6, signal 2).

``detect(sentence)`` finds the PRD's features (person names, places and
organisations, numbers, dates and times, explicit preferences, negated
preferences, first-person possession) and the named entities behind them.
``specificity(features, weights)`` is ``min(1, Σ weight of each feature present)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..config import DEFAULT_ENDING_ROLES, SpecificityWeights
from .lexicon import (
    FIRST_NAMES,
    LATIN_LETTERS,
    MONTHS,
    NOT_PROPER,
    NUMBER_WORDS,
    ORG_SUFFIXES,
    PLACES,
    RELATIONS,
    SELF_NEGATION,
    STOPWORDS,
    WEEKDAYS,
    normalise_quotes,
)

__all__ = ["Features", "detect", "specificity"]

_WORD = re.compile(rf"[{LATIN_LETTERS}][{LATIN_LETTERS}'\-]*|\d+(?:[.,:]\d+)*", re.IGNORECASE)
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b|\$\d")
_PREFERENCE = re.compile(
    r"\b(?:i|we)\s+(?:really\s+|truly\s+|absolutely\s+|just\s+|also\s+|kind of\s+|kinda\s+)?"
    r"(?:prefer|like|love|hate|enjoy|adore|dislike|detest|loathe|can't stand|cannot stand)\b"
    r"|\bmy\s+(?:absolute\s+)?favou?rite\b|\bi'?m\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of\b"
    r"|\bi'?m\s+(?:really\s+)?into\b|\bi\s+(?:am|'m)\s+(?:not\s+)?(?:a\s+)?(?:morning|night)\s+person\b",
    re.IGNORECASE,
)
#: What may open a sentence before its first-person subject: one word and a comma
#: ("Well, I ..."), a phrase that introduces news ("It turns out I ...", "To be
#: honest, my ..."), who said it ("The clinic says I ..."), or when it holds ("These
#: days I ...", "Last week my ...").
_LEAD_IN = (
    r"(?:\W*\w+,\s*"
    r"|\W*(?:it\s+)?turns\s+out(?:\s+that)?,?\s+"
    r"|\W*the\s+(?:[a-z\-]+\s+){1,2}?(?:says|said|thinks|reckons|confirmed)\s+(?:that\s+)?"
    r"|\W*(?:to\s+be\s+honest|by\s+the\s+way|in\s+fact|guess\s+what|truth\s+is|fun\s+fact)[,:]?\s+"
    r"|\W*(?:these\s+days|nowadays|lately|recently|currently|right\s+now|at\s+the\s+moment|now|today|"
    r"yesterday|this\s+(?:week|month|year|morning|weekend)|last\s+(?:night|week|month|year|weekend))"
    r"[,:]?\s+)?"
)
_SELF = re.compile(
    rf"^{_LEAD_IN}(?:i|i'm|i've|i'd|im)\s+(?!think\b|guess\b|wonder\b|mean\b|know\b|see\b|hope\b)"
    rf"|^{_LEAD_IN}my\s+\w+",
    re.IGNORECASE,
)
_POSSESSION = re.compile(r"\b(?:my|mine|our|ours)\b", re.IGNORECASE)
_DATE = re.compile(
    r"\b(?:" + "|".join(MONTHS + WEEKDAYS) + r")\b"
    r"|\b(?:today|tomorrow|yesterday|tonight|weekend|weekends|ago)\b"
    r"|\b(?:next|last|this|coming|past)\s+(?:week|month|year|weekend|summer|winter|spring|"
    r"fall|autumn|morning|evening|night|semester|quarter|friday|monday|tuesday|wednesday|"
    r"thursday|saturday|sunday)\b"
    r"|\bin\s+(?:a|an|\d+|two|three|four|five|a few|several)\s+(?:minutes?|hours?|days?|weeks?|"
    r"months?|years?)\b"
    r"|\b(?:19|20)\d{2}\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
    r"|\b(?:birthday|anniversary|o'clock|noon|midnight)\b",
    re.IGNORECASE,
)
_NAME_CUE = re.compile(r"\b(?:named|called|name is|name's|i'm|i am|this is|with|met|and)\s*$", re.IGNORECASE)
_PLACE_CUE = re.compile(
    r"\b(?:in|from|to|at|near|visit|visited|visiting|around|across|moved to|live in|"
    r"based in|trip to|flew to)\s*$",
    re.IGNORECASE,
)
_ORG_CUE = re.compile(
    r"\b(?:work at|work for|working at|working for|joined|employed by|job at)\s*$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Features:
    """What :func:`detect` found in one sentence."""

    person_names: tuple[str, ...] = ()
    places_or_orgs: tuple[str, ...] = ()
    number: bool = False
    date_time: bool = False
    preference: bool = False
    negated_preference: bool = False
    possession: bool = False
    self_statement: bool = False

    @property
    def entities(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.person_names + self.places_or_orgs))

    @property
    def names(self) -> tuple[str, ...]:
        """The feature names present, in the PRD's table order."""
        out: list[str] = []
        if self.person_names:
            out.append("person_name")
        if self.places_or_orgs:
            out.append("place_or_org")
        for name in (
            "number",
            "preference",
            "date_time",
            "negated_preference",
            "possession",
            "self_statement",
        ):
            if getattr(self, name):
                out.append(name)
        return tuple(out)


#: The roles a person is named by (boss, landlady, GP …): "our landlady Maureen";
#: and the children one names by their place in the family ("our eldest, Rosie").
_ROLES = frozenset(DEFAULT_ENDING_ROLES) | {"eldest", "youngest", "oldest"}


#: After a capitalised word and "'s" at a sentence's start, words that make it
#: someone's news ("Callum's got a job", "Imogen's expecting", "Dad's home").
_NEWS_AFTER_NAME = frozenset(
    "got been just finally moved started left back off now having getting gone engaged pregnant "
    "expecting retired found home".split()
)


#: Common words a sentence opens with before "'s got", "'s been": no one's name.
_NOT_NEWS_SUBJECTS = frozenset(
    "everyone everybody everything someone somebody something anyone anybody anything nobody "
    "nothing one work life today tonight tomorrow yesterday weather traffic dinner lunch breakfast "
    "money time school uni college home business year week month day night morning evening "
    "weekend summer winter spring autumn christmas".split()
)


def _names_news(tokens: Sequence[re.Match[str]], i: int, low: str) -> bool:
    """Whether token ``i`` (capitalised, opening a sentence) is a name with "'s" before
    a word of news (``_NEWS_AFTER_NAME``): "Callum's got an onshore job now." names
    a person, whatever list of first names holds."""
    word = low[:-2]
    if not low.endswith("'s") or i + 1 >= len(tokens) or word in PLACES or word in NOT_PROPER:
        return False
    if word in STOPWORDS or word in _NOT_NEWS_SUBJECTS:
        return False  # "Everyone's got a cold", "Work's been mad"
    return tokens[i + 1].group(0).lower() in _NEWS_AFTER_NAME


def _proper_nouns(sentence: str) -> tuple[list[str], list[str]]:
    """Split capitalised spans into (person names, places/organisations)."""
    persons: list[str] = []
    places: list[str] = []
    tokens = list(_WORD.finditer(sentence))
    i = 0
    while i < len(tokens):
        tok = tokens[i].group(0)
        low = tok.lower()
        is_cap = tok[0].isupper() and low not in NOT_PROPER and not tok.isdigit()
        at_start = i == 0 or sentence[: tokens[i].start()].rstrip().endswith((".", "!", "?", ":", '"'))
        if is_cap and at_start and _names_news(tokens, i, low):
            persons.append(tok[:-2])  # "Callum's got a job in Aberdeen": someone's news
            i += 1
            continue
        if not is_cap or (at_start and low not in FIRST_NAMES and low not in PLACES):
            i += 1
            continue
        # Extend to a multi-word span ("New York", "Acme Corp").
        j = i + 1
        while j < len(tokens):
            nxt = tokens[j].group(0)
            gap = sentence[tokens[j - 1].end() : tokens[j].start()]
            if gap.strip() or not (nxt[0].isupper() or nxt.lower() in ORG_SUFFIXES):
                break
            if nxt.lower() in NOT_PROPER:
                break
            j += 1
        span_tokens = [t.group(0) for t in tokens[i:j]]
        span = " ".join(span_tokens)
        before = sentence[: tokens[i].start()]
        last = span_tokens[-1].lower()
        first = span_tokens[0].lower()
        if (
            last in ORG_SUFFIXES
            or _ORG_CUE.search(before)
            or (first in PLACES and (len(span_tokens) == 1 or last in PLACES or j - i > 1))
        ):
            places.append(span)
        elif first in FIRST_NAMES or _NAME_CUE.search(before):
            persons.append(span)
        elif _PLACE_CUE.search(before):
            places.append(span)
        else:
            prev = tokens[i - 1].group(0).lower() if i > 0 else ""
            # "my sister Ola", "Tom's Ola", "our landlady Maureen", "my GP Dr Shah"
            if prev in RELATIONS or prev in _ROLES or prev.endswith("'s"):
                persons.append(span)
            else:
                places.append(span)  # an unknown proper noun: treat as place/organisation
        i = j
    return persons, places


def detect(sentence: str) -> Features:
    """Run the NER rules over one sentence."""
    persons, places = _proper_nouns(sentence)
    low_words = {w.lower() for w in _WORD.findall(sentence)}
    return Features(
        person_names=tuple(dict.fromkeys(persons)),
        places_or_orgs=tuple(dict.fromkeys(places)),
        number=bool(_NUMBER.search(sentence)) or bool(low_words & NUMBER_WORDS),
        date_time=bool(_DATE.search(sentence)),
        preference=bool(_PREFERENCE.search(sentence)),
        negated_preference=bool(SELF_NEGATION.search(sentence)),
        possession=bool(_POSSESSION.search(sentence)),
        self_statement=bool(_SELF.search(normalise_quotes(sentence.strip()))),
    )


def specificity(features: Features, weights: SpecificityWeights) -> float:
    """``min(1, Σ weights[feature] for feature present)``."""
    total = 0.0
    if features.person_names:
        total += weights.person_name
    if features.places_or_orgs:
        total += weights.place_or_org
    if features.number:
        total += weights.number
    if features.preference:
        total += weights.preference
    if features.date_time:
        total += weights.date_time
    if features.negated_preference:
        total += weights.negated_preference
    if features.possession:
        total += weights.possession
    if features.self_statement:
        total += weights.self_statement
    return min(1.0, total)

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
from collections.abc import Iterator
from dataclasses import dataclass

from .attribute_rules import EMPLOYER_WORDS, JOINED, RULES, norm_value
from .lexicon import (
    NEGATION,
    RELATIONS,
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


_SIBLING_KEYS = ("user.count:siblings", "user.count:brothers", "user.count:sisters")


_PAST = re.compile(r"\b(?:used to|previously|formerly)\b", re.IGNORECASE)


#: Where a thing joined is ("a gym near my office"): no part of what was joined.
_WHERE_TAIL = re.compile(
    r"\s+(?:near|by|beside|behind|opposite|next\s+to|close\s+to|round\s+the\s+corner\s+from)\s+",
    re.IGNORECASE,
)


def _current_match(matches: Iterator[re.Match[str]]) -> re.Match[str] | None:
    """The first match, unless it tells of the past and a later one does not ("I used
    to live in London, now I live in Madrid": the attribute is the current value)."""
    found = list(matches)
    if not found:
        return None
    if _PAST.search(found[0].group(0)):
        present = [m for m in found[1:] if not _PAST.search(m.group(0))]
        if present:
            return present[0]
    return found[0]


def extract_attribute(sentence: str) -> Attribute | None:
    """The single-valued attribute ``sentence`` sets, if a rule recognises one."""
    text = re.sub(r"\s+", " ", normalise_quotes(sentence))
    for rule in RULES:
        m = _current_match(rule.pattern.finditer(text))
        if m is None:
            continue
        groups = m.groupdict()
        raw = (
            groups.get("v") or (groups.get(rule.alt_group) if rule.alt_group else None) or rule.default or ""
        )
        subj = (groups.get("subj") or "").lower()
        if groups.get("subj") is not None and subj not in RELATIONS:
            continue  # "my car is in Berlin": not a person's attribute
        value = norm_value(raw)
        if not value or (rule.proper and not raw[:1].isupper()):
            continue  # "I'm at the gym" is not an employer; a relation's value is a name
        if (
            rule.employer_words
            and JOINED.search(m.group(0))
            and not (raw[:1].isupper() or EMPLOYER_WORDS.search(_WHERE_TAIL.split(raw, maxsplit=1)[0]))
        ):
            continue  # "I joined a gym / a new group / a gym near my office": not an employer
        found = rule.finish(rule.attribute, groups, rule.tail.sub("", value) or value)
        if found is not None:
            return Attribute(
                key=f"{subj or 'user'}.{found[0]}", value=found[1], negated=bool(groups.get("neg"))
            )
    return None


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

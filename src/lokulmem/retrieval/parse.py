"""The parse stage of recall: what a message asks, read without a model.  Pure.

:func:`parse_query` returns a :class:`~lokulmem.records.QueryAnalysis`: the key
terms searched lexically, the terms that look like names (an unknown name
weighs fully in the key-term coverage), the clauses of a compound message
(each tested on its own), the intent, the typed attributes a question asks
for (:mod:`.asked`) and the time it asks about (:mod:`.timerange`).
"""

from __future__ import annotations

import re

from ..config import Config
from ..records.recall import Intent, QueryAnalysis
from .asked import asked_attributes, asked_types
from .query import clauses, key_terms, name_terms
from .timerange import time_range

__all__ = ["asks_now", "intent_of", "parse_query"]

#: Words that ask about a time without saying about what ("What happened…?").
_EVENT_WORDS = frozenset("happen happened happens do did done doing up get got go went".split())

_QUESTION_START = re.compile(
    r"^\s*(?:what|what's|whats|where|where's|when|who|who's|whom|whose|which|why|how|how's|"
    r"is|are|am|was|were|do|does|did|have|has|had|will|would|should|shall|may|might|"
    r"any|anything)\b",
    re.IGNORECASE,
)
_COMMAND_START = re.compile(
    r"^\s*(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:tell|give|show|list|remind|help|"
    r"write|make|suggest|recommend|explain|find|plan|summari[sz]e|translate|describe|create|draft|"
    r"book|send|check|compare|let's|lets)\b",
    re.IGNORECASE,
)


#: Words that put a question in the past ("When did…", "What was…", "… last year").
_PAST = re.compile(
    r"\b(?:did|didn't|was|wasn't|were|weren't|had|hadn't|used to|ago|ever|before|previously|"
    r"originally|first|last|yesterday)\b",
    re.IGNORECASE,
)


#: "had" as the present perfect's participle ("Have I had my operation?", "Has my
#: sister had the baby yet?"): a question about now, not the past.
_PERFECT_HAD = re.compile(
    r"\b(?:have|has|haven't|hasn't)\s+(?:i|we|you|he|she|they|[a-z]+|my\s+[a-z]+)\s+(?:\w+\s+)?had\b",
    re.IGNORECASE,
)


def asks_now(text: str, intent: Intent) -> bool:
    """Whether ``text`` is a question about how things stand now: asked in the
    present (or the present perfect: "Has my sister had her baby?"), with no word
    that puts it in the past ("Where do I live?", not "Where did I live before?")."""
    if intent != "question":
        return False
    past = [m.group(0).lower() for m in _PAST.finditer(text)]
    if _PERFECT_HAD.search(text):  # "Has my sister had her baby?" asks how things stand
        past = [w for w in past if w != "had"]
    return not past


def intent_of(text: str) -> Intent:
    """ "command" for a request ("Can you suggest…", "Tell me…"), "question" for a
    question, else "statement"."""
    if _COMMAND_START.search(text):
        return "command"
    if "?" in text or _QUESTION_START.search(text):
        return "question"
    return "statement"


def parse_query(text: str, now_ms: int, config: Config) -> QueryAnalysis:
    """The parse of ``text`` at ``now_ms`` (its first ``max_message_chars`` characters)."""
    text = text[: config.max_message_chars]
    limit = config.max_query_terms
    terms = key_terms(text, limit=limit)
    names = name_terms(text, limit=limit)
    span = time_range(text, now_ms)
    phrase = set(key_terms(span.phrase)) if span is not None else set()
    intent = intent_of(text)
    return QueryAnalysis(
        terms=tuple(terms),
        names=tuple(t for t in terms if t in names),
        clauses=tuple(clauses(text, limit=config.max_query_clauses)),
        intent=intent,
        asks_now=span is None and asks_now(text, intent),
        asked_attributes=tuple(sorted(asked_attributes(text))),
        asked_types=tuple(sorted(asked_types(text))),
        time_range=span,
        time_only=span is not None and all(t in phrase or t in _EVENT_WORDS for t in terms),
    )

"""Whether an impersonal sentence is still about the user's world (pure).

``learn()`` keeps what a user says about themselves and their world and skips
general statements ("Water boils at 100 degrees.").  A sentence without "I"
may still be the user's: an answer to the question they were just asked, a
date, a possessive or a relation, a definite reference to a thing a stored
fact of theirs names ("The chess club meets on Tuesdays now."), or a person
a stored fact of theirs names ("Ola got a day job." after "User's wife Ola is
a nurse.").  The stored facts read are the sentence's stage-1 candidates (its
nearest stored facts), so nothing here reads the store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..config import Config
from ..contradiction import Candidate, topic_stems
from ..extraction import Analysis
from ..extraction.features import detect, specificity
from ..extraction.lexicon import STOPWORDS

__all__ = ["answers_a_question", "general_statement", "names_known", "with_known_people"]

#: The questions in a message: each runs from the end of the sentence before to its "?".
_QUESTION = re.compile(r"[^.!?]*\?")
#: "the" (or "this", "that") and the two words after it: a definite reference.
_DEFINITE = re.compile(r"\b(?:the|this|that)\s+([a-z][a-z'-]+)\s+([a-z][a-z'-]+)", re.IGNORECASE)
#: "the greenhouse": one word after "the", long enough to name a thing of one's own.
_DEFINITE_ONE = re.compile(r"\bthe\s+([a-z][a-z'-]{6,})\b", re.IGNORECASE)


#: Before a thing a stored fact says the user has: "User's (old) bike", "have two chickens".
_OWNED = r"(?:'s|\bhas|\bhave|\bowns?|\bgot) "

#: A thing of the user's said with "the": in chat, a new job, home or boss ("The new
#: job pays 37 grand."; not a product's: "The new iPhone has a better camera" is
#: news), and the landlord, the rent or the kids with or without "new" ("The landlord
#: put the rent up.": one landlord, one rent, one set of kids) are the speaker's own.
_OWN_THING = re.compile(
    r"^\W*the\s+(?:new\s+(?:job|role|position|flat|house|place|home|apartment|car|boss|manager|team|"
    r"school|office|gym|doctor|dentist|landlord|neighbours?|flatmates?|housemates?|bike|puppy|kitten)|"
    r"(?:landlord|landlady|rent|mortgage|kids|baby|boss|commute|flatmates?|housemates?|"
    r"neighbours?|neighbors?))\b",
    re.IGNORECASE,
)


def answers_a_question(reply_context: str, sentence: str) -> bool:
    """Whether ``sentence`` answers a question the user was just asked: the message
    they replied to asks one ("Lovely! What do they eat?") that shares a content
    word with it ("They eat hay and greens.").  An answer is about the user's world."""
    asked = frozenset().union(*(topic_stems(q) for q in _QUESTION.findall(reply_context)))
    return bool(asked & topic_stems(sentence))


def _tied_to_the_user(a: Analysis) -> bool:
    """Something ties an impersonal sentence to the user's world: a date, a person,
    a possessive or a relation ("Meeting moved to Friday", "Sister's birthday is
    the 5th"); without it, it is a general statement ("Water boils at 100 degrees")."""
    f = a.features
    return (
        f.date_time
        or bool(f.person_names)
        or f.possession
        or "relational" in a.rule_types
        or bool(_OWN_THING.match(a.sentence))
    )


def names_known(sentence: str, candidates: Sequence[Candidate]) -> bool:
    """Whether the sentence refers, with "the", to a thing of two content words that a
    nearby stored fact names ("The book club meets on Wednesdays now." after "User is
    in a book club on Thursdays."), or of one long word that fact names with "the"
    too ("the greenhouse") or says the user has ("the chickens" after "User has two
    chickens"): the user's world, not a general statement."""
    phrases = {
        f"{x.lower()} {y.lower()}"
        for x, y in _DEFINITE.findall(sentence)
        if x.lower() not in STOPWORDS and y.lower() not in STOPWORDS
    }
    known = [c.memory.content.lower() for c in candidates if c.memory.status == "active"]
    if any(p in text for p in phrases for text in known):
        return True
    # "… so the greenhouse is all chillies now." after "User is growing tomatoes in
    # the greenhouse.": the same thing, named with "the" in both.
    # "The fox got one of the chickens …" after "User and others have two chickens in
    # the garden.": a thing the fact says the user has, named with "the" now.
    things = {w.lower() for w in _DEFINITE_ONE.findall(sentence) if w.lower() not in STOPWORDS}
    return any(
        re.search(rf"\bthe {re.escape(t)}\b|{_OWNED}(?:[\w-]+ ){{0,2}}{re.escape(t)}\b", text)
        for t in things
        for text in known
    )


def with_known_people(a: Analysis, candidates: Sequence[Candidate], config: Config) -> Analysis:
    """``a`` with the people it names that a nearby active stored fact names too
    ("Ola got a day job at a clinic." after "User's wife Ola is a nurse."): someone
    the user has told about, so their news is the user's world.  The name rules
    take a name at a sentence's start only from their list of first names; a name
    the user has introduced is a name wherever it stands.  Read for impersonal
    sentences only (a sentence with "I" is the user's already); the user's own
    label is no one else.  The person counts as a detected one: it raises the
    sentence's specificity, and the sentence is no longer impersonal."""
    if not a.impersonal:
        return a
    people = {
        name
        for c in candidates
        if c.memory.status == "active"
        for name in detect(c.memory.content).person_names
        if name != config.user_label and name not in a.features.person_names
    }
    named = tuple(n for n in sorted(people) if re.search(rf"\b{re.escape(n)}\b", a.sentence))
    if not named:
        return a
    features = replace(a.features, person_names=(*a.features.person_names, *named))
    return replace(
        a, features=features, specificity=specificity(features, config.specificity_weights), impersonal=False
    )


def general_statement(
    a: Analysis, *, personal: bool, reply: str, config: Config, candidates: Sequence[Candidate] = ()
) -> bool:
    """Not about the user: no first person in the message (``personal``), no
    message it answers (``reply``), nothing tying it to their world, no definite
    reference to a thing a stored fact of theirs names (a person one names is read
    before: :func:`with_known_people`)."""
    return (
        config.skip_general_statements
        and a.impersonal
        and not personal
        and not reply
        and not _tied_to_the_user(a)
        and not names_known(a.sentence, candidates)
    )

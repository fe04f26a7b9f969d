"""Stage 1e of the contradiction pipeline: a named thing that ended.  Pure functions.

"Left Vodafone for giffgaff", "Cancelled Riverford", "We had to say goodbye to
Biscuit", "Anita retired": the new sentence ends something it names, and an
older fact about the user names the same thing ("User is on Vodafone.", "User
has a golden retriever called Biscuit.", "User's boss is a woman called
Anita.").  No typed attribute covers these, the two sentences share no topic
word and their cosine is low (0.2–0.4 for MiniLM), so stages 1–3 leave them
unrelated; the shared name is the evidence.  The older fact is then closed
(*temporal coexistence*: ``valid_to`` set, both kept), like a fact followed by
"no longer".

The phrases are templates with ``{}`` where the name stands
(``Config.ending_phrases``); one that starts with ``{}`` says the named one
ended ("{} passed away"), the others that the user ended it and need the user
as their subject ("User cancelled Riverford", not "My sister cancelled
Riverford").  Phrases of ``Config.role_ending_phrases`` ("{} retired", "{}
left") close only a fact that names the one ended in a role
(``Config.ending_roles``: "User's boss … Anita"): "Anita retired" says nothing
of where the user's sister Anita lives.  A fact of origin ("User is from
Sweden") is never closed: one leaves a place, not where one comes from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .config import Config
from .extraction.lexicon import NOT_PROPER, PET_KINDS, RELATIONS
from .records import Memory

__all__ = ["Ending", "closed_by_ending", "ended", "ending_of"]

#: A name as the rewritten content spells it: capitalised words ("Riverford",
#: "Hard Fork"), after an optional determiner; it starts a word, and its words
#: and their number are bounded, so a pattern tried at every capital of a long
#: sentence stays linear in its length.
_NAME = r"(?:(?:my|our|the|his|her|their) )?(?<![\w&'-])([A-Z][\w&'-]{0,40}(?: [A-Z][\w&'-]{0,40}){0,4})"
#: Words a named one's ending may carry between its name and the verb.
_SUBJECT_FILLER = r"(?:(?:has|had|have|just|finally|recently|sadly|now|also|already) )*"
#: The user as the subject of an ending, with up to three words before the verb
#: ("We had to say goodbye to", "I finally cancelled"), or no subject at all
#: ("Cancelled Riverford, …": chat leaves the "I" out).  Judged before the
#: first-person rewrite; stored content's label is read too.
_USER_SUBJECT = (
    r"(?:^(?i:(?:just|finally|also|so|and|then|recently|sadly|eventually) )*"
    r"|(?<![\w'])(?:I|[Ww]e|{label}(?: and others)?)(?: [a-z']+){{0,3}}? )"
)
#: Facts of origin: a place one comes from stays where one comes from.
_ORIGIN = re.compile(
    r"\b(?:(?:is|am|are|was|were|comes?|came) (?:originally )?from|born|grew up|raised|native)\b", re.I
)
#: Endings of the user's tie with a person: they close a fact about that person.
_TIES = ("broke up with", "split up with", "dumped")
#: Relations that are the user's own animals.
_PETS = frozenset((*PET_KINDS, "pet"))
#: Words before a name that make it no subject.
_PREPOSITIONS = frozenset("on in at from to with near by of for off into onto about behind opposite".split())
#: Words a sentence may open with before a name ("Yesterday Anita retired").
_OPENERS = frozenset("yesterday today tonight tomorrow recently last this then".split())
#: The word after a name, unless punctuation ends the name first.
_NEXT_WORD = re.compile(r" +([^\s,.;:]+)")
#: Capitalised words that are no name.
_NOT_NAMES = frozenset({"I"})


@dataclass(frozen=True, slots=True)
class Ending:
    """A name the new fact says ended, and how it said so."""

    #: The name as written ("Riverford").
    name: str
    #: The phrase with the name ("cancelled Riverford"): the verdict's marker.
    phrase: str
    #: Only a fact naming it in a role may be closed (``role_ending_phrases``).
    role: bool


@lru_cache(maxsize=8)
def _patterns(
    phrases: tuple[str, ...], role: bool, label: str
) -> tuple[tuple[re.Pattern[str], bool, str], ...]:
    """Each phrase as a pattern over stored content (the name is group 1)."""
    out: list[tuple[re.Pattern[str], bool, str]] = []
    for phrase in phrases:
        before, _, after = phrase.partition("{}")
        left, right = re.escape(before.strip()), re.escape(after.strip())
        if not before.strip():  # the named one ended: "{} passed away"
            body = _NAME + " " + _SUBJECT_FILLER + f"(?i:{right})" + r"\b"
        else:  # the user ended it: "cancelled {}"
            subject = _USER_SUBJECT.format(label=re.escape(label))
            body = subject + f"(?i:{left}) " + _NAME + r"(?!'s)" + (rf" (?i:{right})\b" if right else r"\b")
        out.append((re.compile(body), role, phrase))
    return tuple(out)


def ended(
    content: str, phrases: Sequence[str], role_phrases: Sequence[str], label: str = "User"
) -> list[Ending]:
    """The names ``content`` (a fact in the first person, "Cancelled Riverford, we
    …", or as stored, "User cancelled Riverford.") says ended, each once, in the
    order found.  Kept for the last few sentences: ``learn()`` reads a sentence's
    endings to fetch the facts naming them, and stage 1e reads them again."""
    return list(_ended(content, tuple(phrases), tuple(role_phrases), label))


@lru_cache(maxsize=64)
def _ended(
    content: str, phrases: tuple[str, ...], role_phrases: tuple[str, ...], label: str
) -> tuple[Ending, ...]:
    found: dict[str, Ending] = {}
    # The rewrite says "User and Kieran called it quits" for "Kieran and I …".
    content = re.sub(rf"\b{re.escape(label)} and ([A-Z][\w'-]*)", r"\1 and I", content)
    patterns = (*_patterns(phrases, False, label), *_patterns(role_phrases, True, label))
    for pattern, role, template in patterns:
        for match in pattern.finditer(content):
            before = content[: match.start(1)].split()
            if template.startswith("{}") and before and before[-1].lower() in _PREPOSITIONS:
                continue  # "The Thai place on Elm Street shut down": Elm Street did not
            name = _trimmed(match.group(1))
            if name and name not in _NOT_NAMES and name != label and name not in found:
                found[name] = Ending(name=name, phrase=template.replace("{}", name), role=role)
    return tuple(found.values())


def _trimmed(name: str) -> str:
    """``name`` without the capitalised words a sentence opens with ("Sadly Rex",
    "Yesterday Anita"): the last word is kept."""
    words = name.split()
    while len(words) > 1 and (
        words[0].lower() in NOT_PROPER or words[0].lower() in _OPENERS or words[0].endswith("ly")
    ):
        words.pop(0)
    return " ".join(words)


def _names(name: str, text: str, label: str) -> bool:
    """``text`` names ``name`` itself, not a longer name it begins ("Riverford
    Hall"); a name may end one ("the Civic" is the "Honda Civic")."""
    for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
        after = _NEXT_WORD.match(text, m.end())
        if not _name_word(after.group(1) if after else "", label):
            return True
    return False


def _name_word(word: str, label: str) -> bool:
    """``word`` may be part of a capitalised name (not "The", "My", the user's label)."""
    return word[:1].isupper() and word.lower() not in NOT_PROPER and not word.startswith(label)


def _about_user(text: str, label: str) -> bool:
    """``text`` is a fact about the user ("User …", "April is the marathon User
    trains for"), not about the world."""
    return re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", text) is not None


def _someone_elses(text: str, label: str) -> bool:
    """``text`` is about a person of the user's ("User's sister works at …"), not the
    user's own thing; a pet is the user's own ("User's dog Biscuit …")."""
    found = re.match(rf"{re.escape(label)}'s ([a-z-]+)", text)
    return found is not None and found.group(1) in RELATIONS and found.group(1) not in _PETS


def _in_role(name: str, text: str, roles: Iterable[str], label: str) -> bool:
    """``text`` names ``name`` in one of ``roles`` ("User's boss is a woman called Anita")."""
    words = "|".join(re.escape(r) for r in roles)
    found = re.search(rf"\b{re.escape(label)}'s (?:[a-z-]+ )?(?:{words})\b.*\b{re.escape(name)}\b", text)
    return bool(words) and found is not None


def ending_of(
    endings: Sequence[Ending],
    facts: Iterable[tuple[Memory, float]],
    *,
    min_similarity: float,
    roles: Sequence[str],
    label: str = "User",
) -> tuple[Memory, float, Ending] | None:
    """The current fact about the user (``facts``: with their cosines to the new
    fact) that one of ``endings`` closes, the most similar first; None if none."""
    if not endings:
        return None
    best: tuple[Memory, float, Ending] | None = None
    for memory, similarity in facts:
        text = memory.content
        if similarity < min_similarity or not _about_user(text, label) or _ORIGIN.search(text):
            continue
        for e in endings:
            if e.phrase in text or not _names(e.name, text, label):
                continue  # the old fact told the same ending: nothing closes
            if e.role and not _in_role(e.name, text, roles, label):
                continue
            if _someone_elses(text, label) and not e.phrase.startswith((e.name, *_TIES)):
                continue  # "I cancelled Riverford" says nothing of "User's sister works at Riverford"
            if best is None or similarity > best[1]:
                best = (memory, similarity, e)
    return best


def closed_by_ending(
    facts: Iterable[tuple[Memory, float]], content: str, config: Config
) -> tuple[Memory, float, Ending] | None:
    """:func:`ending_of` the endings ``content`` tells, with ``config``'s phrases,
    roles, floor and user label."""
    label = config.user_label
    return ending_of(
        ended(content, config.ending_phrases, config.role_ending_phrases, label),
        facts,
        min_similarity=config.ending_candidate_similarity,
        roles=config.ending_roles,
        label=label,
    )

"""Sentence splitting for chat messages (rule-based, no model)."""

from __future__ import annotations

import re

from .lexicon import SHARED_SUBJECT_VERBS

__all__ = ["split_sentences"]

_ABBREVIATIONS = {
    "mr",
    "mrs",
    "ms",
    "dr",
    "prof",
    "sr",
    "jr",
    "st",
    "vs",
    "etc",
    "e.g",
    "i.e",
    "inc",
    "ltd",
    "co",
    "corp",
    "mt",
    "ft",
    "no",
    "approx",
    "dept",
    "univ",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
}
#: Letters a word before "." needs for a lower-case word after it to start a new
#: sentence (shorter words may be abbreviations the list above lacks).
LOWER_CASE_BREAK_MIN = 4
# A boundary: terminal punctuation (with closing quotes/brackets) then space.
_BOUNDARY = re.compile(r"([.!?…]+[\"')\]]*)(\s+)")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
# A new first-person clause inside a sentence: "I live in Berlin and I work at Acme"
# holds two facts that can change independently, so they become two units.
_CLAUSE = re.compile(r"\s*;\s+|,?\s+(?:and|but|so|plus|while)\s+(?=(?:I|I'm|I've|I'd|I'll|my|My)\b)")


def _short_or_dotted(token: str) -> bool:
    """A word before "." that may abbreviate ("fig", "tbh", "p.m"): a lower-case word
    after it continues the sentence.  Chat written in lower case ends sentences
    after longer words ("about two years. also trying to learn Welsh")."""
    token = token.rstrip(".")
    return len(token) < LOWER_CASE_BREAK_MIN or "." in token


def _split_line(line: str) -> list[str]:
    out: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(line):
        end = m.end(1)
        before = line[start:end]
        word = re.search(r"([A-Za-z.]+)\.$", before)
        if m.group(1) == "." and word:
            token = word.group(1).lower().rstrip(".")
            if token in _ABBREVIATIONS or len(token) == 1:
                continue  # "Dr. Smith", "J. Doe"
        nxt = line[m.end() : m.end() + 1]
        if nxt and nxt.islower() and m.group(1) == "." and (not word or _short_or_dotted(word.group(1))):
            continue  # "approx. three" style: lower-case after an abbreviation-like word
        out.append(before.strip())
        start = m.end()
    tail = line[start:].strip()
    if tail:
        out.append(tail)
    return out


#: "I live in Berlin and work at Acme": a second verb of the same "I" (common
#: verbs of lasting facts) starts a second fact, "I" copied to it.
_SHARED_SUBJECT = re.compile(r",?\s+and\s+(?=(?:" + SHARED_SUBJECT_VERBS + r")\b)")


#: The start of a compound subject: "My wife", "our kids", "Maya", "Tom Baker"; not a
#: name told ("My name's Priyanka and I'm a designer" is two clauses).
_NOUN_PHRASE = re.compile(
    r"^(?!(?:[Mm]y|[Oo]ur) name's\b)"
    r"(?:(?:[Mm]y|[Oo]ur|[Tt]he) [\w'-]+(?: [\w'-]+)?|[A-Z][a-z'-]+(?: [A-Z][a-z'-]+)?)$"
)


def _clauses(sentence: str) -> list[str]:
    """``sentence`` cut at each new first-person clause; a short noun phrase before
    "and I" is a compound subject ("My wife and I are moving"), not a clause."""
    out: list[str] = []
    start = 0
    for m in _CLAUSE.finditer(sentence):
        left = sentence[start : m.start()]
        if ";" not in m.group(0) and _NOUN_PHRASE.match(left.strip()):
            continue
        out.append(left)
        start = m.end()
    out.append(sentence[start:])
    return [piece for c in out for piece in _shared_subject(c)]


#: "I prefer dark mode now, my eyes hurt at night": a comma splice after a
#: first-person clause, before another one, joins two facts.
_SPLICE = re.compile(r",\s+(?=(?:I|my|My)\s)")
_CHANGE = re.compile(
    r"\b(?:no longer|not|never|anymore|quit|left|stopped|instead|cancell?ed|switched|sold|gave up|"
    r"moved|dropped|ended|broke up)\b|n't\b",
    re.I,
)
_REFERS_BACK = re.compile(r"\b(?:it|its|them|they|their|that|this|those|these|he|she|him|her|there)\b", re.I)


def _shared_subject(clause: str) -> list[str]:
    # "I'm Tomasz, I teach chemistry": a contracted "I" opens a splice as well.
    if not re.match(r"\s*(?:I|My|I'm|I've|I'd|I'll|I’m|I’ve)\s", clause):
        return [clause]
    out: list[str] = []
    parts = _SPLICE.split(clause)
    # "I hate treadmills, I find them boring": the second needs the first ("them");
    # "I no longer work there, I opened my own practice" (or "I cancelled Spotify and
    # use Apple Music"): one change, old and new together.
    if any(_REFERS_BACK.search(p) for p in parts[1:]) or _CHANGE.search(parts[0]):
        parts = [clause]
    for part in parts:
        if re.match(r"\s*I\s", part) and not _CHANGE.search(part):
            first, *rest = _SHARED_SUBJECT.split(part)
            out.extend([first, *(f"I {r}" for r in rest)])
        else:
            out.append(part)
    return out


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences; newlines and list bullets also end sentences."""
    sentences: list[str] = []
    for raw in re.split(r"\n+", text):
        line = _BULLET.sub("", raw).strip()
        if not line:
            continue
        for sentence in _split_line(line):
            for clause in _clauses(sentence):
                clause = clause.strip()
                if any(ch.isalnum() for ch in clause):
                    sentences.append(clause)
    return sentences

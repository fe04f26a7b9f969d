"""Sentence splitting for chat messages (rule-based, no model)."""

from __future__ import annotations

import re

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
# A boundary: terminal punctuation (with closing quotes/brackets) then space.
_BOUNDARY = re.compile(r"([.!?…]+[\"')\]]*)(\s+)")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
# A new first-person clause inside a sentence: "I live in Berlin and I work at Acme"
# holds two facts that can change independently, so they become two units.
_CLAUSE = re.compile(r"\s*;\s+|,?\s+(?:and|but|so|plus|while)\s+(?=(?:I|I'm|I've|I'd|I'll|my|My)\b)")


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
        if nxt and nxt.islower() and m.group(1) == ".":
            continue  # "approx. three" style: lower-case continuation
        out.append(before.strip())
        start = m.end()
    tail = line[start:].strip()
    if tail:
        out.append(tail)
    return out


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences; newlines and list bullets also end sentences."""
    sentences: list[str] = []
    for raw in re.split(r"\n+", text):
        line = _BULLET.sub("", raw).strip()
        if not line:
            continue
        for sentence in _split_line(line):
            for clause in _CLAUSE.split(sentence):
                clause = clause.strip()
                if any(ch.isalnum() for ch in clause):
                    sentences.append(clause)
    return sentences

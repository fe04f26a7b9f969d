"""Query parsing for retrieval: the key terms of a message.  Pure.

The lexical component of ``R`` matches these terms against memory contents
(SQLite FTS5, Porter-stemmed, BM25).  Function words and question words are
dropped; names, numbers and content words are kept, in order, once each.
"""

from __future__ import annotations

import re

from ..extraction.lexicon import QUERY_STOPWORDS

__all__ = ["QUERY_STOPWORDS", "clauses", "key_terms", "name_terms"]

_TERM = re.compile(r"[A-Za-zÀ-ÿ0-9][A-Za-zÀ-ÿ0-9'\-]*")
_SENTENCE_END = re.compile(r"[.!?]\s*$")
# Where one question or request ends and the next begins: sentence ends, and a
# comma or "and"/"but"/"or" before a new question word or auxiliary.
_CLAUSE_BREAK = re.compile(
    r"[.!?;]+\s+|,?\s+(?:and|but|or)\s+(?=(?:could|can|would|will|should|do|does|did|is|are|was|"
    r"what|where|when|who|whom|whose|which|how|why|tell|give|show)\b)|,\s+(?:and|but|or)\s+",
    re.IGNORECASE,
)


def key_terms(text: str, *, limit: int = 16) -> list[str]:
    """Content words of ``text`` (lower-cased, possessive ``'s`` stripped), at most ``limit``."""
    out: list[str] = []
    for raw in _TERM.findall(text):
        w = _term(raw)
        if len(w) < 2 or w in QUERY_STOPWORDS or w in out:
            continue
        out.append(w)
        if len(out) >= limit:
            break
    return out


def _term(raw: str) -> str:
    w = raw.lower()
    if w.endswith("'s"):
        w = w[:-2]
    return w.strip("'-")


def name_terms(text: str, *, limit: int = 16) -> set[str]:
    """The key terms of ``text`` that look like names (at most ``limit``): written
    with a capital letter where a sentence does not start ("Where does *Priya* live?")."""
    out: set[str] = set()
    end = 0  # where the previous word ended
    for m in _TERM.finditer(text):
        raw, gap = m.group(0), text[end : m.start()]
        starts = end == 0 or _SENTENCE_END.search(gap) is not None
        end = m.end()
        if starts or not raw[0].isupper():
            continue
        w = _term(raw)
        if len(w) >= 2 and w not in QUERY_STOPWORDS:
            out.add(w)
            if len(out) >= limit:
                break
    return out


def clauses(text: str, *, limit: int = 4) -> list[str]:
    """The first ``limit`` questions and requests of ``text`` ("Where could I go from
    where I live, and could my sister come?" → two), each with a key term."""
    out: list[str] = []
    for part in _CLAUSE_BREAK.split(text, maxsplit=4 * limit):
        part = part.strip()
        if part and key_terms(part, limit=1):
            out.append(part)
            if len(out) >= limit:
                break
    return out

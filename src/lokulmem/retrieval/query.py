"""Query parsing for retrieval: the key terms of a message.  Pure.

The lexical component of ``R`` matches these terms against memory contents
(SQLite FTS5, Porter-stemmed, BM25).  Function words and question words are
dropped; names, numbers and content words are kept, in order, once each.
"""

from __future__ import annotations

import re

__all__ = ["QUERY_STOPWORDS", "key_terms"]

#: Words that carry no topic in a question or request.
QUERY_STOPWORDS = frozenset(
    """
    a an the and or but if then so of in on at to for from by with about as into over under
    what when where who whom whose why how which did does do doing done was were is are am be
    been being has have had will would can could shall should may might must not no nor
    any some tell know think remember say said please ever one ones get got let lets also
    much many lot lots way yes ok okay hey hi hello thanks thank very too just really quite
    i me my mine you your yours we our us he him his she her they them their it its this that
    these those there here than all each every both few more most other such own same only
    kind sort thing things something anything
    """.split()
)
_TERM = re.compile(r"[A-Za-zÀ-ÿ0-9][A-Za-zÀ-ÿ0-9'\-]*")


def key_terms(text: str, *, limit: int = 16) -> list[str]:
    """Content words of ``text`` (lower-cased, possessive ``'s`` stripped), at most ``limit``."""
    out: list[str] = []
    for raw in _TERM.findall(text):
        w = raw.lower()
        if w.endswith("'s"):
            w = w[:-2]
        w = w.strip("'-")
        if len(w) < 2 or w in QUERY_STOPWORDS or w in out:
            continue
        out.append(w)
        if len(out) >= limit:
            break
    return out

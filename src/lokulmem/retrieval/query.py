"""Query parsing for retrieval: the key terms of a message.  Pure.

The lexical component of ``R`` matches these terms against memory contents
(SQLite FTS5, Porter-stemmed, BM25).  Function words and question words are
dropped; names, numbers and content words are kept, in order, once each.
"""

from __future__ import annotations

import re

from ..extraction.lexicon import STOPWORDS

__all__ = ["QUERY_STOPWORDS", "key_terms"]

#: Words that carry no topic in a question or request.
QUERY_STOPWORDS = STOPWORDS | frozenset(
    """
    what when where who whom whose why how which did does do doing done was were is are am be
    been any some tell know think remember say said please could would should can will shall
    about kind sort thing things something anything ever one ones get got make made go went
    let lets also like much many lot lots way yes ok okay hey hi hello thanks thank
    i me my you your we our us he she they them his her their it its the a an
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

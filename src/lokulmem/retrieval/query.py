"""Query parsing for retrieval: the key terms of a message.  Pure.

The lexical component of ``R`` matches these terms against memory contents
(SQLite FTS5, Porter-stemmed, BM25).  Function words and question words are
dropped; names, numbers and content words are kept, in order, once each.
"""

from __future__ import annotations

import re

from ..extraction.lexicon import QUERY_STOPWORDS

__all__ = ["QUERY_STOPWORDS", "key_terms"]

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

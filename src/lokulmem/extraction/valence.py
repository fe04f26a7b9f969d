"""Emotional valence in [-1, 1] with VADER (PRD §10.2).

The ``vaderSentiment`` package (Hutto & Gilbert, ICWSM 2014; MIT licence)
ships its 7,500-entry lexicon and rules (negation, boosters, "but", capitals,
exclamation marks); its ``compound`` score is the valence.  The analyzer is
built once, on first use, and only read afterwards, so threads may share it.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Protocol, cast

__all__ = ["valence"]


class _Analyzer(Protocol):
    def polarity_scores(self, text: str) -> dict[str, float]: ...


_lock = threading.Lock()


@lru_cache(maxsize=1)
def _analyzer() -> _Analyzer:
    with _lock:
        from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

        return cast(_Analyzer, SentimentIntensityAnalyzer())


def valence(text: str) -> float:
    """VADER's compound score of ``text``: -1 (most negative) to 1 (most positive)."""
    if not text.strip():
        return 0.0
    return float(_analyzer().polarity_scores(text)["compound"])

"""Emotional valence in [-1, 1] from a small VADER-style lexicon (PRD §10.2).

Word scores are on VADER's -4..4 scale; a negator within the three preceding
words flips and damps a score (×-0.74, as VADER does); the sum is normalised
with VADER's compound formula ``s / sqrt(s² + 15)``.
"""

from __future__ import annotations

import math
import re

from .lexicon import NEGATION_WORDS, normalise_quotes

__all__ = ["valence"]

_LEXICON: dict[str, float] = {
    # positive
    "love": 3.2,
    "loved": 2.9,
    "adore": 2.9,
    "amazing": 2.8,
    "awesome": 3.1,
    "excellent": 3.2,
    "fantastic": 2.6,
    "wonderful": 2.7,
    "great": 3.1,
    "good": 1.9,
    "happy": 2.7,
    "glad": 2.0,
    "excited": 2.2,
    "thrilled": 2.9,
    "proud": 2.1,
    "grateful": 2.0,
    "thankful": 2.0,
    "enjoy": 2.2,
    "enjoyed": 2.3,
    "like": 1.5,
    "nice": 1.8,
    "fun": 2.3,
    "best": 3.2,
    "beautiful": 2.9,
    "joy": 2.8,
    "delighted": 3.0,
    "hopeful": 2.3,
    "relieved": 1.9,
    "calm": 1.3,
    "peaceful": 2.2,
    "perfect": 2.7,
    "brilliant": 2.8,
    "win": 2.8,
    "won": 2.7,
    "celebrate": 2.7,
    "blessed": 2.9,
    "lucky": 1.9,
    "comfortable": 1.5,
    "fond": 1.9,
    # negative
    "hate": -2.7,
    "hated": -3.2,
    "terrible": -2.1,
    "awful": -2.0,
    "horrible": -2.5,
    "bad": -2.5,
    "sad": -2.1,
    "unhappy": -1.8,
    "angry": -2.3,
    "furious": -3.0,
    "upset": -1.6,
    "stressed": -1.4,
    "stress": -1.8,
    "anxious": -1.0,
    "anxiety": -0.7,
    "worried": -1.2,
    "scared": -1.9,
    "afraid": -2.0,
    "terrified": -3.0,
    "depressed": -2.3,
    "miserable": -2.2,
    "lonely": -1.5,
    "exhausted": -1.5,
    "tired": -1.9,
    "overwhelmed": -1.5,
    "frustrated": -2.4,
    "annoyed": -1.6,
    "hurt": -2.4,
    "pain": -2.3,
    "sick": -1.7,
    "worst": -3.1,
    "fail": -2.5,
    "failed": -2.3,
    "lost": -1.3,
    "cry": -2.1,
    "crying": -2.1,
    "grief": -2.2,
    "died": -2.6,
    "death": -2.9,
    "divorce": -2.0,
    "fired": -2.6,
    "broke": -1.6,
    "nervous": -1.1,
    "heartbroken": -3.0,
    "disappointed": -1.9,
    "dread": -2.4,
    "burned": -1.0,
    "awful.": -2.0,
}
_BOOSTERS = {
    "very": 0.293,
    "really": 0.293,
    "so": 0.293,
    "extremely": 0.293,
    "super": 0.293,
    "incredibly": 0.293,
    "totally": 0.293,
    "absolutely": 0.293,
}
_WORD = re.compile(r"[a-z']+")


def valence(text: str) -> float:
    """Compound valence of ``text`` in [-1, 1]; 0.0 when no lexicon word occurs."""
    words = _WORD.findall(normalise_quotes(text.lower()))
    total = 0.0
    for i, w in enumerate(words):
        score = _LEXICON.get(w)
        if score is None:
            continue
        if i > 0 and words[i - 1] in _BOOSTERS:
            score += math.copysign(_BOOSTERS[words[i - 1]], score)
        if any(p in NEGATION_WORDS for p in words[max(0, i - 3) : i]):
            score *= -0.74
        total += score
    if "!" in text and total:
        total += math.copysign(min(text.count("!"), 4) * 0.292, total)
    if total == 0.0:
        return 0.0
    return max(-1.0, min(1.0, total / math.sqrt(total * total + 15)))

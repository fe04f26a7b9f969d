"""HOM quality walls computed at write time (each in [0, 1]).

* form: structural correctness — enough words to be a statement, not absurdly long,
  mostly letters.
* filter: relevance and deduplication — falls as the nearest existing memory
  approaches the duplicate threshold.
* substance: evidence strength — grows with the specificity of the sentence.
* factuality: atomic precision — hedges ("I think", "maybe") and questions lower it.
"""

from __future__ import annotations

import re

from ..records import QualityWalls

__all__ = ["HEDGES", "quality_walls"]

HEDGES = re.compile(
    r"\b(?:i think|i guess|i suppose|maybe|perhaps|probably|might|not sure|kind of|kinda|"
    r"sort of|i believe|possibly|i wonder|supposedly|apparently)\b",
    re.I,
)


def quality_walls(
    sentence: str,
    *,
    specificity: float,
    top1_similarity: float,
    duplicate_similarity: float,
) -> QualityWalls:
    words = re.findall(r"[A-Za-z0-9']+", sentence)
    n = len(words)
    letters = sum(ch.isalpha() for ch in sentence)
    form = 1.0
    if n < 3:
        form = 0.4 + 0.2 * n
    elif n > 60:
        form = max(0.3, 1.0 - (n - 60) / 100)
    if sentence and letters / max(1, len(sentence)) < 0.5:
        form *= 0.5
    floor = 0.5
    if top1_similarity <= floor:
        filt = 1.0
    else:
        filt = max(0.0, min(1.0, (duplicate_similarity - top1_similarity) / (duplicate_similarity - floor)))
        filt = max(filt, 0.05)
    substance = min(1.0, 0.4 + specificity)
    hedges = len(HEDGES.findall(sentence))
    factuality = max(0.2, 1.0 - 0.3 * hedges)
    if sentence.rstrip().endswith("?"):
        factuality = min(factuality, 0.3)
    return QualityWalls(
        form=round(form, 4),
        filter=round(filt, 4),
        substance=round(substance, 4),
        factuality=round(factuality, 4),
    )

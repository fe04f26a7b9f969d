"""Composite relevance ``R(m, q)`` and its human-readable explanation.

    R = w1·cos(m, q) + w2·e^(-rate·hours_since_created) + w3·strength/3 + w4·max cos(m, last turns)
        [+ w_lex·bm25(m, key terms of q)/best bm25] [+ cluster bonus] [+ time-range bonus]
        [+ graph bonus: a knowledge-graph neighbour of a top result]
        [+ asked-attribute bonus: a fact that sets the attribute the query asks about]
        [+ nearby bonus: said in the same session just before or after a top result]

Pinned memories take 1.0 for the strength term.  Cosines are clipped to [0, 1]
so every component stays in [0, 1] and R ≤ Σw.
"""

from __future__ import annotations

import math

from ..config import Config
from ..decay import hours_between, strength
from ..records import Memory, ScoreBreakdown

__all__ = ["breakdown", "explain"]


def breakdown(
    memory: Memory,
    *,
    similarity: float,
    continuity: float,
    now_ms: int,
    config: Config,
    cluster_bonus: float = 0.0,
    lexical: float = 0.0,
    time_bonus: float = 0.0,
    attribute_bonus: float = 0.0,
) -> ScoreBreakdown:
    """Weighted components of R for one memory (they sum to the score)."""
    w = config.retrieval_weights
    sem = max(0.0, min(1.0, similarity))
    cont = max(0.0, min(1.0, continuity))
    recency = math.exp(-config.recency_rate * hours_between(memory.created_at, now_ms))
    if memory.pinned:
        strength_term = 1.0
    elif not w.strength:
        # Weighted by zero (the default): skip the decay curve, about a tenth of
        # the scoring stage over a full candidate pool; the term is 0 either way.
        strength_term = 0.0
    else:
        strength_term = min(strength(memory, now_ms, config), config.max_strength) / config.max_strength
    return ScoreBreakdown(
        semantic=w.semantic * sem,
        recency=w.recency * recency,
        strength=w.strength * strength_term,
        continuity=w.continuity * cont,
        cluster=cluster_bonus,
        lexical=w.lexical * max(0.0, min(1.0, lexical)),
        time=time_bonus,
        attribute=attribute_bonus,
    )


def explain(memory: Memory, b: ScoreBreakdown, similarity: float, config: Config) -> str:
    """A short reason: "high semantic match + recently reinforced"."""
    w = config.retrieval_weights
    parts: list[str] = []
    if memory.pinned:
        parts.append("pinned")
    if similarity >= 0.6:
        parts.append("high semantic match")
    elif similarity >= 0.4:
        parts.append("moderate semantic match")
    elif similarity >= 0.25:
        parts.append("weak semantic match")
    if w.continuity and b.continuity / w.continuity >= 0.5:
        parts.append("continues the recent conversation")
    if memory.mention_count > 0 and not memory.pinned and w.strength and b.strength / w.strength >= 0.4:
        parts.append("recently reinforced")
    elif not memory.pinned and w.strength and b.strength / w.strength >= 0.5:
        parts.append("strong memory")
    if w.recency and b.recency / w.recency >= 0.8:
        parts.append("recently learned")
    if b.cluster > 0:
        parts.append("in the query's topic cluster")
    if b.time > 0:
        parts.append("learned in the time asked about")
    if b.graph > 0:
        parts.append("linked to a top result")
    if b.attribute > 0:  # a memory with no attribute of its own was hinted at it
        parts.append(
            "sets what the question asks about"
            if memory.attribute
            else "speaks of what the question asks about"
        )
    if b.nearby > 0:
        parts.append("said next to a top result")
    if w.lexical and b.lexical / w.lexical >= 0.5:
        parts.append("shares key words with the message")
    return " + ".join(parts) if parts else "above relevance threshold"

"""Layer 1 — what is worth remembering (PRD §6).

Pure functions over a sentence, its vector, the search results and the config:
``analyze`` gives everything ``learn()`` needs to decide about one sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..config import Config
from .attributes import Attribute, extract_attribute, polarity_conflict
from .classify import PROTOTYPES, classify_by_prototype, classify_by_rules
from .features import Features, detect, specificity
from .quality import HEDGES, quality_walls
from .rewrite import strip_fillers, to_first_person, to_user_fact
from .sentences import split_sentences
from .valence import valence

__all__ = [
    "PROTOTYPES",
    "Analysis",
    "Attribute",
    "Features",
    "analyze_text",
    "classify_by_prototype",
    "classify_by_rules",
    "detect",
    "extract_attribute",
    "extraction_score",
    "is_question",
    "novelty",
    "polarity_conflict",
    "quality_walls",
    "recurrence",
    "specificity",
    "split_sentences",
    "strip_fillers",
    "to_first_person",
    "to_user_fact",
    "valence",
]

_QUESTION_START = re.compile(
    r"^(?:what|who|whom|whose|where|when|why|how|which|can|could|would|will|should|shall|do|"
    r"does|did|is|are|am|was|were|have|has|had|may|might)\b",
    re.I,
)


def is_question(sentence: str) -> bool:
    s = strip_fillers(sentence).strip()
    return s.endswith("?") or bool(_QUESTION_START.match(s) and not s.endswith("."))


def recurrence(occurrences: int, config: Config) -> float:
    """``min(1, base + step × occurrences)`` (PRD: 0.2 + 0.25 × occurrences)."""
    return min(1.0, config.recurrence_base + config.recurrence_step * occurrences)


def novelty(top1_similarity: float | None, config: Config) -> float:
    """1.0 for an empty store; else ``clamp((ceiling - top1) / (ceiling - floor), 0, 1)``."""
    if top1_similarity is None:
        return 1.0
    span = config.novelty_ceiling - config.novelty_floor
    return max(0.0, min(1.0, (config.novelty_ceiling - top1_similarity) / span))


def extraction_score(novelty: float, spec: float, rec: float, config: Config) -> float:
    """``E(s) = α·novelty + β·specificity + γ·recurrence``."""
    w = config.extraction_weights
    return w.novelty * novelty + w.specificity * spec + w.recurrence * rec


@dataclass(frozen=True, slots=True)
class Analysis:
    """The text-only part of one sentence's analysis (no vectors, no store)."""

    sentence: str
    content: str
    features: Features
    specificity: float
    attribute: Attribute | None
    rule_types: tuple[str, ...]
    valence: float
    question: bool
    hedged: bool


def analyze_text(sentence: str, config: Config) -> Analysis:
    """Rewrite, NER, specificity, attribute, rule types and valence of ``sentence``."""
    feats = detect(sentence)
    attr = extract_attribute(sentence)
    types = classify_by_rules(sentence, feats, attr, config.custom_types)
    return Analysis(
        sentence=sentence,
        content=to_user_fact(sentence, config.user_label),
        features=feats,
        specificity=specificity(feats, config.specificity_weights),
        attribute=attr,
        rule_types=tuple(types),
        valence=valence(sentence),
        question=is_question(sentence),
        hedged=bool(HEDGES.search(sentence)),
    )

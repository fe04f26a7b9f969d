"""Layer 2 — decay and reinforcement (PRD §6, §14).  Pure functions.

``strength(t) = base_strength × e^(-λ × Δt_hours)`` with Δt measured from the
last reinforcement (a retrieval resets the curve, as a review does in
Ebbinghaus's experiments).  A memory with several types uses the λ chosen by
``Config.multi_type_lambda`` (default ``min``: the most durable facet wins, so
"my sister Maya lives in Paris" decays as relational, not as location).
Pinned memories never decay.  ``linear`` reaches half strength at the same
half-life as the exponential curve and zero at twice it; ``none`` keeps
``base_strength``.
"""

from __future__ import annotations

import math

from .clock import MS_PER_HOUR
from .config import Config
from .records import Confidence, Memory

__all__ = [
    "confidence_label",
    "hours_between",
    "initial_strength",
    "memory_lambda",
    "reinforce",
    "strength",
    "strength_at",
]


def hours_between(earlier_ms: int, later_ms: int) -> float:
    return max(0.0, (later_ms - earlier_ms) / MS_PER_HOUR)


def memory_lambda(types: tuple[str, ...] | list[str], config: Config, *, pinned: bool = False) -> float:
    """The λ (per hour) that applies to a memory with ``types``."""
    if pinned:
        return 0.0
    table = config.lambdas
    lams = [table[t] for t in types if t in table]
    if not lams:
        return config.fallback_lambda
    if config.multi_type_lambda == "min":
        return min(lams)
    if config.multi_type_lambda == "max":
        return max(lams)
    return sum(lams) / len(lams)


def strength_at(base: float, lam: float, hours: float, model: str) -> float:
    """Strength after ``hours`` under ``model`` (``ebbinghaus``, ``linear``, ``none``)."""
    if model == "none" or lam == 0.0:
        return base
    if model == "linear":
        return base * max(0.0, 1.0 - lam * hours / (2.0 * math.log(2.0)))
    return base * math.exp(-lam * hours)


def strength(memory: Memory, now_ms: int, config: Config) -> float:
    """Current strength of ``memory``."""
    lam = memory_lambda(memory.types, config, pinned=memory.pinned)
    since = memory.last_reinforced or memory.created_at
    return strength_at(memory.base_strength, lam, hours_between(since, now_ms), config.decay_model)


def initial_strength(valence: float, config: Config) -> float:
    """Base strength at creation: boosted when ``|valence| > valence_threshold``."""
    if abs(valence) > config.valence_threshold:
        return config.base_strength + config.valence_boost * min(1.0, abs(valence))
    return config.base_strength


def confidence_label(memory: Memory, config: Config) -> Confidence:
    """PRD §6: high = base ≥ 1.5 and explicitly stated; medium = base ≥ 0.8 or stated once;
    low = inferred (hedged or stored as low)."""
    if memory.confidence == "low":
        return "low"
    if memory.base_strength >= config.high_confidence_strength:
        return "high"
    if memory.confidence == "high":
        return "high"
    return "medium"


def reinforce(memory: Memory, now_ms: int, config: Config) -> Memory:
    """The memory after one retrieval: +step (capped), one more mention, curve reset."""
    base = min(config.max_strength, memory.base_strength + config.reinforcement_step)
    updated = memory.replace(
        base_strength=base,
        mention_count=memory.mention_count + 1,
        last_accessed_at=now_ms,
        last_reinforced=now_ms,
        updated_at=now_ms,
    )
    if memory.confidence == "medium" and base >= config.high_confidence_strength:
        updated = updated.replace(confidence="high")
    return updated

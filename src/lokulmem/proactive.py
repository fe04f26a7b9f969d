"""Proactive memory (PRD §10.3, §14): what is coming up, pushed before it is asked.  Pure.

A memory of a plan ("the report is due Friday", "we fly to Rome next month")
has an event time, read from its sentence against the time it was said
(:func:`lokulmem.extraction.dates.event_span`).  Its push score::

    temporal_urgency = σ(−proactive_steepness × (days_to_event − proactive_lead_days))
    proactive_score  = temporal_urgency × min(1, base_strength)

``days_to_event`` counts to the event's start (0 while it is under way);
once it has ended the memory is no longer proactive.  ``augment()`` injects
the memories scoring above ``proactive_threshold`` on the first turn of a
conversation (``include_proactive``).

Two choices differ from the PRD's formula, ``σ(days_to_event × −2.0) ×
memory_strength`` with threshold 0.7, on purpose: (1) the PRD's curve is
centred on the event itself, so a fact said once (strength 1) scores at most
0.5 before its day and is never pushed; ``proactive_lead_days`` (1.5) moves
the midpoint a day and a half ahead, so the day before is urgent; (2) the
strength term is the memory's base strength capped at 1, not its decayed
strength: a plan is typed temporal and decays within days by design, yet it
matters most just before it happens.
"""

from __future__ import annotations

import math

from .config import Config
from .extraction.dates import event_span
from .records import Memory, UpcomingMemory

__all__ = ["MS_PER_DAY", "upcoming", "urgency"]

MS_PER_DAY = 86_400_000


def urgency(days_to_event: float, config: Config) -> float:
    """σ(−steepness × (days − lead)), in (0, 1)."""
    x = -config.proactive_steepness * (days_to_event - config.proactive_lead_days)
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def upcoming(memory: Memory, now_ms: int, config: Config) -> UpcomingMemory | None:
    """The memory's coming event and push score, or None (no event, or it is over)."""
    if memory.event_at is None or memory.status != "active":
        return None
    span = event_span(memory.source_text or memory.content, memory.created_at)
    start, end = span if span is not None else (memory.event_at - MS_PER_DAY, memory.event_at)
    if end <= now_ms:
        return None
    days = max(0.0, (start - now_ms) / MS_PER_DAY)
    u = urgency(days, config)
    return UpcomingMemory(
        memory=memory,
        event_start=start,
        event_end=end,
        days_to_event=days,
        urgency=u,
        score=u * min(1.0, memory.base_strength),
    )

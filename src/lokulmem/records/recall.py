"""What the recall pipeline records about one ``augment()``: the parsed query,
each stage's trace, and the evidence card of each injected memory."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .memory import Confidence, Memory, MemoryStatus, QualityWalls, Source

__all__ = ["EvidenceCard", "Intent", "QueryAnalysis", "StageTrace", "TimeRange", "UpcomingMemory"]

#: What the message is: a question, a request or command, or a statement.
Intent = Literal["question", "command", "statement"]


@dataclass(frozen=True, kw_only=True)
class TimeRange:
    """A span of time a query names: ``start`` ≤ t < ``end`` (Unix ms, UTC)."""

    start: int
    end: int
    #: The words that named it ("last May").
    phrase: str

    def contains(self, when_ms: int) -> bool:
        return self.start <= when_ms < self.end


@dataclass(frozen=True, kw_only=True)
class QueryAnalysis:
    """The parse stage's reading of the message (lokulmem.retrieval.parse)."""

    #: Key terms searched lexically (at most ``max_query_terms``).
    terms: tuple[str, ...]
    #: Key terms that look like names (capitalised where no sentence starts).
    names: tuple[str, ...]
    #: The questions or requests of a compound message.
    clauses: tuple[str, ...]
    intent: Intent
    #: Typed attributes asked for ("user.residence" for "Where do I live?").
    asked_attributes: tuple[str, ...] = ()
    #: True when ``asked_attributes`` are those of the nearest example question
    #: (lokulmem.retrieval.routing), not read by a cue.
    routed: bool = False
    #: Memory types asked about as a whole ("relational" for "Tell me about my family").
    asked_types: tuple[str, ...] = ()
    #: The time the message asks about ("last May"), if any.
    time_range: TimeRange | None = None
    #: True when that time is all the message asks about ("What did I do last
    #: May?"): whatever was learned then is relevant.
    time_only: bool = False
    #: A question about how things stand now ("Who is my manager?"), not about the
    #: past or a time: newer facts on the same subject rank first for it
    #: (lokulmem.retrieval.newer).
    asks_now: bool = False


@dataclass(frozen=True, kw_only=True)
class StageTrace:
    """One stage of the recall pipeline as it ran."""

    name: str
    #: Wall time of the stage in milliseconds.
    ms: float
    #: What the stage produced, by kind ("vector": 50, "lexical": 12, ...).
    counts: Mapping[str, int] = field(default_factory=dict)
    #: A one-line note ("exact search over 9,812 vectors").
    detail: str = ""


@dataclass(frozen=True, kw_only=True)
class EvidenceCard:
    """One injected memory as evidence (HOM "evidence card"): what it says, how
    current and how sure it is, where it came from, and why it was chosen."""

    memory_id: str
    content: str
    types: tuple[str, ...]
    status: MemoryStatus
    #: False for a fact closed by a later change (shown as history).
    current: bool
    #: When the fact was learned, and when it stopped being true (if it did).
    valid_from: int
    valid_to: int | None
    #: How the memory was made (HOM source attribution): "direct", "import", ...
    source: Source
    #: The session and turn it was first said in.
    session: str
    turn: int
    confidence: Confidence
    rank: int
    score: float
    #: One-line reason ("high semantic match + shares key words with the message").
    reason: str
    #: Evidence of relevance; None when relevance was not tested.
    evidence: float | None
    #: The memory's HOM quality walls (form, filter, substance, factuality).
    quality: QualityWalls | None = None


@dataclass(frozen=True, kw_only=True)
class UpcomingMemory:
    """A memory of an event ahead, with its push score (lokulmem.proactive)."""

    memory: Memory
    #: When the event starts and ends (Unix ms, end exclusive).
    event_start: int
    event_end: int
    #: Days from now to the start (0 while the event is under way).
    days_to_event: float
    #: σ(−steepness × (days_to_event − lead)), in (0, 1).
    urgency: float
    #: urgency × min(1, base_strength); pushed above ``proactive_threshold``.
    score: float

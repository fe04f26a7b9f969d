"""The records lokulmem stores and returns.

All records are frozen, keyword-only dataclasses.  Times are integer Unix
milliseconds (PRD §9); ``None`` means "not set".  Field names are the PRD's in
snake_case, plus the HOM fields (``source``, ``project_id``, ``track``,
``key``, ``kind``, quality walls, ``metadata``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "AugmentResult",
    "BridgeEvent",
    "Cluster",
    "Confidence",
    "ContradictionEvent",
    "Edge",
    "Episode",
    "GroupedMemories",
    "ImportResult",
    "InjectedMemory",
    "InjectionPreview",
    "LearnResult",
    "Lineage",
    "LokulMemDebug",
    "MaintenanceReport",
    "Memory",
    "MemoryStats",
    "MemoryStatus",
    "Message",
    "ProgressEvent",
    "QualityWalls",
    "RejectedItem",
    "Resolution",
    "ScoreBreakdown",
    "ScoredMemory",
    "SentenceDecision",
    "Source",
    "TimelineDay",
    "context_text",
]

Vector = npt.NDArray[np.float32]
Message = Mapping[str, Any]
MemoryStatus = Literal["active", "faded", "superseded", "archived"]
Confidence = Literal["high", "medium", "low"]
Resolution = Literal["conflict", "temporal-coexistence"]
ProgressStage = Literal["worker", "model", "storage", "maintenance", "ready"]
Source = Literal["direct", "import", "reasoning", "compaction", "nightly"]
Kind = Literal["declarative", "procedural", "episodic", "semantic", "action_trace", "reasoning"]

MEMORY_STATUSES: tuple[str, ...] = ("active", "faded", "superseded", "archived")
CONFIDENCES: tuple[str, ...] = ("high", "medium", "low")
SOURCES: tuple[str, ...] = ("direct", "import", "reasoning", "compaction", "nightly")
KINDS: tuple[str, ...] = (
    "declarative",
    "procedural",
    "episodic",
    "semantic",
    "action_trace",
    "reasoning",
)


@dataclass(frozen=True, kw_only=True)
class QualityWalls:
    """HOM quality walls, each in [0, 1]; ``score`` is their product."""

    form: float = 1.0
    filter: float = 1.0
    substance: float = 1.0
    factuality: float = 1.0

    @property
    def score(self) -> float:
        return self.form * self.filter * self.substance * self.factuality


def context_text(reply_context: str, source_context: str) -> str:
    """The text embedded as a memory's ``context_embedding``: what the message
    answered, then the message."""
    return f"{reply_context} {source_context}".strip()


@dataclass(frozen=True, kw_only=True, eq=False)
class Memory:
    """One remembered fact about the user (PRD §9 plus HOM fields)."""

    id: str
    #: The fact as a sentence about the user ("User lives in Berlin.").
    content: str
    types: tuple[str, ...]
    #: L2-normalised float32 vector (read-only), or None when not loaded.
    embedding: Vector | None = field(default=None, repr=False)
    cluster_id: str | None = None
    base_strength: float = 1.0
    confidence: Confidence = "medium"
    extraction_score: float = 0.0
    emotional_valence: float = 0.0
    mention_count: int = 0
    pinned: bool = False
    valid_from: int = 0
    valid_to: int | None = None
    created_at: int = 0
    updated_at: int = 0
    last_accessed_at: int = 0
    last_reinforced: int = 0
    status: MemoryStatus = "active"
    superseded_by: str | None = None
    superseded_at: int | None = None
    supersession_type: Literal["conflict", "temporal"] | None = None
    #: For a fact stored by temporal coexistence: the earlier memory it follows.
    temporal_supersedes: str | None = None
    #: Session where the fact was first extracted, and the turn in that session.
    source_session: str = ""
    source_turn: int = 0
    #: Every session that stated (or restated) this fact.
    source_conversation_ids: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    #: The user's own sentence the fact was extracted from (provenance).
    source_text: str = ""
    # -- HOM fields --
    source: Source = "direct"
    project_id: str | None = None
    track: str | None = None
    #: Optional namespaced key ("architecture:boundaries").
    key: str | None = None
    kind: Kind = "declarative"
    quality: QualityWalls = field(default_factory=QualityWalls)
    #: Typed attribute used by contradiction stage 3 ("residence", "employer"...).
    attribute: str | None = None
    attribute_value: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    #: When the maintenance sweep marked it faded (purged ``purge_after_days`` later).
    faded_at: int | None = None
    #: The whole message the fact came from (at most ``max_context_chars``): the
    #: context of a sentence, searched lexically beside ``content``.
    source_context: str = ""
    #: The end of the message the user was answering (the assistant's previous
    #: response in the session, or ``learn(in_reply_to=...)``), at most
    #: ``max_reply_context_chars``: "5 years already!" answers "How long have
    #: you been married?".  Searched lexically beside ``content``.
    reply_context: str = ""
    #: L2-normalised vector of "reply context + source message" (read-only): the
    #: message's meaning, blended into the semantic term at recall
    #: (``context_vector_weight``); None when not computed.
    context_embedding: Vector | None = field(default=None, repr=False)
    #: When the event the fact speaks of ends, if it lay ahead when learned
    #: ("going to Valencia in May"): the sweep does not fade the memory before
    #: then plus ``event_hold_days`` (Unix ms; None: no such event).
    event_at: int | None = None

    @property
    def quality_score(self) -> float:
        """``form × filter × substance × factuality``."""
        return self.quality.score

    @property
    def session_id(self) -> str:
        """HOM name of :attr:`source_session`."""
        return self.source_session

    def replace(self, **changes: Any) -> Memory:
        """A copy with ``changes`` applied."""
        return dataclasses.replace(self, **changes)

    def same_as(self, other: Memory) -> bool:
        """Field-by-field equality, embeddings compared by value."""
        for f in dataclasses.fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name in ("embedding", "context_embedding"):
                if (a is None) != (b is None):
                    return False
                if a is not None and not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Memory) and self.same_as(other)

    def __hash__(self) -> int:
        return hash(self.id)


@dataclass(frozen=True, kw_only=True)
class Episode:
    """A session-level summary (PRD §9; populated by a later release)."""

    id: str
    summary: str
    embedding: Vector | None = field(default=None, repr=False, compare=False)
    memories_extracted: tuple[str, ...] = ()
    started_at: int = 0
    ended_at: int = 0
    turn_count: int = 0
    emotional_valence: float = 0.0
    topics: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Edge:
    """A knowledge-graph edge between two memories (PRD §9)."""

    id: str
    from_id: str
    to_id: str
    weight: float
    shared_entities: tuple[str, ...] = ()
    created_at: int = 0
    last_updated: int = 0


@dataclass(frozen=True, kw_only=True)
class Cluster:
    """A k-means topic cluster (PRD §9)."""

    id: str
    centroid: Vector | None = field(default=None, repr=False, compare=False)
    member_ids: tuple[str, ...] = ()
    label: str = ""
    last_recomputed: int = 0

    @property
    def member_count(self) -> int:
        return len(self.member_ids)


@dataclass(frozen=True, kw_only=True)
class ContradictionEvent:
    """A contradiction found while learning (PRD §8)."""

    existing: Memory
    incoming: Memory
    resolution: Resolution
    #: The marker that sent the pair down the coexistence path, if any.
    temporal_marker_detected: str | None = None
    similarity: float = 0.0
    #: The typed attribute both facts set, when stage 3 matched on it.
    attribute: str | None = None


@dataclass(frozen=True, kw_only=True)
class SentenceDecision:
    """Why one sentence of a learned message was (or was not) stored."""

    sentence: str
    content: str
    score: float
    novelty: float
    specificity: float
    recurrence: float
    features: tuple[str, ...]
    types: tuple[str, ...]
    #: "stored", "reinforced" (restated a known fact), "contradiction",
    #: "below-threshold", "question", "request", "chit-chat", "about-listener",
    #: "skipped-type", "empty".
    outcome: str
    memory_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class LearnResult:
    """What ``learn()`` did (PRD §8)."""

    extracted: tuple[Memory, ...] = ()
    contradictions: tuple[ContradictionEvent, ...] = ()
    faded: tuple[Memory, ...] = ()
    total_memories: int = 0
    #: Known memories restated in this message (reinforced, not duplicated).
    reinforced: tuple[Memory, ...] = ()
    #: Per-sentence scores and outcomes, in message order.
    decisions: tuple[SentenceDecision, ...] = ()
    #: True when the message was longer than ``max_message_chars`` and cut.
    truncated: bool = False


@dataclass(frozen=True, kw_only=True)
class ScoreBreakdown:
    """Weighted components of ``R``; they sum to the score."""

    semantic: float
    recency: float
    strength: float
    continuity: float
    #: Cluster bonus for memories in the query's nearest topic cluster.
    cluster: float = 0.0
    #: Lexical match (FTS5 BM25 of the query's key terms, 1.0 for the best match).
    lexical: float = 0.0

    @property
    def total(self) -> float:
        return self.semantic + self.recency + self.strength + self.continuity + self.cluster + self.lexical


@dataclass(frozen=True, kw_only=True)
class ScoredMemory:
    """A candidate considered by ``augment()`` (PRD §8)."""

    memory: Memory
    score: float
    breakdown: ScoreBreakdown
    #: Raw cosine between the memory and the query.
    similarity: float
    injected: bool
    #: "below relevance threshold" | "token budget exhausted" | "type filtered"
    #: | "max memories reached".
    excluded_reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class InjectedMemory:
    """A memory put into the prompt, and why (PRD §8)."""

    memory: Memory
    score: float
    score_breakdown: ScoreBreakdown
    reason: str
    injection_rank: int
    tokens: int = 0


@dataclass(frozen=True, kw_only=True)
class LokulMemDebug:
    """Everything ``augment(debug=True)`` can tell about its choice (PRD §8)."""

    injected: tuple[InjectedMemory, ...]
    candidates: tuple[ScoredMemory, ...]
    tokens_used: int
    tokens_available: int
    retrieval_strategy: Literal["brute-force", "hnsw"]
    #: HOM search mode used for candidates.
    search_mode: str
    embedding_latency_ms: float
    retrieval_latency_ms: float
    #: Memories searched (active vectors in the index).
    searched: int = 0
    #: The HOM recall pipeline stages run, in order.
    pipeline: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class AugmentResult:
    """The messages to send to the LLM, and the debug record if asked for."""

    messages: list[dict[str, Any]]
    debug: LokulMemDebug | None = None
    #: The memory block text that was injected ("" when nothing was).
    context: str = ""


@dataclass(frozen=True, kw_only=True)
class ProgressEvent:
    """``on_progress`` payload: a stage of ``init()`` and its progress in [0, 1]."""

    stage: ProgressStage
    progress: float


# -- manage() records ----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TimelineDay:
    """Memories created on one UTC calendar day (``get_timeline()``)."""

    #: ISO date, ``YYYY-MM-DD`` (UTC).
    date: str
    memories: tuple[Memory, ...]


@dataclass(frozen=True, kw_only=True)
class GroupedMemories:
    """Active memories pre-organised for a panel (``get_grouped()``).

    A memory with several types appears under each of them; pinned memories
    appear under ``pinned`` and under their types.
    """

    pinned: tuple[Memory, ...] = ()
    identity: tuple[Memory, ...] = ()
    location: tuple[Memory, ...] = ()
    profession: tuple[Memory, ...] = ()
    preferences: tuple[Memory, ...] = ()
    projects: tuple[Memory, ...] = ()
    temporal: tuple[Memory, ...] = ()
    relational: tuple[Memory, ...] = ()
    emotional: tuple[Memory, ...] = ()
    #: Developer-defined (custom) types, by name.
    custom: Mapping[str, tuple[Memory, ...]] = field(default_factory=dict)
    #: The most recently created memories, whatever their type.
    recent: tuple[Memory, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Lineage:
    """Where a memory came from and what became of it (``get_lineage()``)."""

    memory: Memory
    #: Every conversation (session) that stated or restated the fact.
    source_conversations: tuple[str, ...]
    #: The memory this one replaced by conflict, if any (and still stored).
    supersedes: Memory | None
    #: The memory that replaced this one (conflict or temporal), if any.
    superseded_by: Memory | None
    #: Every version of the fact linked by temporal coexistence, oldest first
    #: (this memory included); just ``(memory,)`` when there are none.
    temporal_history: tuple[Memory, ...]
    #: Times the memory was restated or retrieved and reinforced.
    reinforcement_count: int
    #: Earlier contents the user corrected through ``update()``, oldest first.
    corrections: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class InjectionPreview:
    """What ``augment()`` would inject now, computed without changing the store."""

    would_inject: tuple[InjectedMemory, ...]
    estimated_tokens: int
    #: The memory block text that would be prepended ("" when nothing).
    context: str = ""


@dataclass(frozen=True, kw_only=True)
class MemoryStats:
    """Store analytics (``stats()``, PRD §8).  Strength is the current (decayed) one."""

    total: int
    active: int
    faded: int
    archived: int
    superseded: int
    pinned: int
    #: Memories per type (a memory with two types counts under both).
    by_type: Mapping[str, int]
    #: Mean current strength of active memories (0 when there are none).
    average_strength: float
    #: Mean confidence of active memories, scored by ``Config.confidence_scores``.
    average_confidence: float
    #: Active memories per confidence label.
    confidence_distribution: Mapping[str, int]
    #: Active memories per strength band (``Config.strong_strength`` / ``weak_strength``).
    strength_distribution: Mapping[str, int]
    most_mentioned: tuple[Memory, ...]
    recently_updated: tuple[Memory, ...]
    recently_faded: tuple[Memory, ...]
    oldest_memory: Memory | None
    newest_memory: Memory | None
    #: Bytes of database pages in use, measured from the store.
    storage_used_bytes: int
    #: Distinct conversation ids across all memories.
    conversation_count: int


@dataclass(frozen=True, kw_only=True)
class RejectedItem:
    """An import entry that was not written, and why."""

    #: Position of the entry in the imported ``memories`` list.
    index: int
    key: str | None
    reason: str


@dataclass(frozen=True, kw_only=True)
class ImportResult:
    """What ``import_data()`` did (PRD §8 counts, plus the HOM audit)."""

    imported: int
    skipped: int
    conflicts: int
    #: Entries refused by validation, the quality gate or key deduplication.
    rejected: tuple[RejectedItem, ...] = ()
    #: Id of the stored :class:`BridgeEvent` for this import.
    bridge_event_id: str = ""


@dataclass(frozen=True, kw_only=True)
class BridgeEvent:
    """The stored audit record of one import (HOM "bridge event")."""

    id: str
    created_at: int
    #: ``"lokulmem-export"`` or ``"memory-pack"``.
    format: str
    #: Pack or export name, if the document had one.
    name: str | None
    #: Where it came from (a file path, or the caller's ``origin=``).
    origin: str | None
    imported: int
    skipped: int
    conflicts: int
    rejected: tuple[RejectedItem, ...] = ()
    memory_ids: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class MaintenanceReport:
    """What one maintenance run did (``LokulMem.maintenance()``)."""

    #: False when another process held the maintenance lease, or nothing was due.
    ran: bool
    #: Why it did not run (``"lease held by another process"``, ``"not due"``).
    skipped_reason: str | None = None
    #: Memories that faded in this run (strength below ``fade_threshold``).
    faded: tuple[Memory, ...] = ()
    #: Ids deleted for good (faded for ``purge_after_days``).
    purged: tuple[str, ...] = ()
    #: Whether k-means ran, and how many clusters the store has after this run.
    clustered: bool = False
    clusters: int = 0
    sweep_ms: float = 0.0
    cluster_ms: float = 0.0

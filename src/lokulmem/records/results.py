"""What ``learn()`` and ``augment()`` return, with their decisions and debug records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .memory import Episode, Memory, ProgressStage, Resolution
from .recall import EvidenceCard, QueryAnalysis, StageTrace, UpcomingMemory

__all__ = [
    "SCORE_PARTS",
    "AugmentResult",
    "ContradictionEvent",
    "InjectedMemory",
    "LearnResult",
    "LokulMemDebug",
    "ProgressEvent",
    "ScoreBreakdown",
    "ScoredMemory",
    "SentenceDecision",
]


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
    #: What decided it: ``attribute`` (same typed attribute), ``polarity`` (the
    #: same statement negated), ``marker`` (a change marker on a related fact),
    #: ``classifier`` (the learned pair head, stage 3b).
    signal: str = "attribute"
    #: The pair head's probability when ``signal`` is ``classifier``.
    classifier_score: float | None = None


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

    #: The memories stored.  Their ``context_embedding`` is None here when
    #: ``Config.defer_context_vector`` is on (it is embedded after ``learn()``
    #: returns); ``manage().get(id)`` and every later read carry it.
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
    #: Bonus for a memory learned in the time the query asks about ("last May").
    time: float = 0.0
    #: Second-pass bonus for a knowledge-graph neighbour of one of the best results.
    graph: float = 0.0
    #: Bonus for a fact that sets the typed attribute the query asks about
    #: ("Where do I live?": ``user.residence``; ``Config.asked_attribute_bonus``).
    attribute: float = 0.0
    #: Bonus for a memory said just before or after one of the best results, in
    #: the same session (``Config.nearby_bonus``; :mod:`lokulmem.retrieval.nearby`).
    nearby: float = 0.0

    @property
    def total(self) -> float:
        return (
            self.semantic
            + self.recency
            + self.strength
            + self.continuity
            + self.cluster
            + self.lexical
            + self.time
            + self.graph
            + self.attribute
            + self.nearby
        )

    @property
    def matched(self) -> float:
        """``total`` without the asked-attribute bonus: how well the memory matches
        the question.  The bonus says which fact sets the slot asked about; the
        relevance margin's bar and newer first compare memories by this."""
        return self.total - self.attribute


#: The components of ``R``, in ``ScoreBreakdown``'s order (what a display lists).
SCORE_PARTS: tuple[str, ...] = tuple(f.name for f in fields(ScoreBreakdown))


@dataclass(frozen=True, kw_only=True)
class ScoredMemory:
    """A candidate considered by ``augment()`` (PRD §8)."""

    memory: Memory
    score: float
    breakdown: ScoreBreakdown
    #: Raw cosine between the memory and the query.
    similarity: float
    injected: bool
    #: "below relevance threshold" | "no semantic or key-word evidence" | "far
    #: below the best candidate" | "token budget exhausted" | "type filtered" |
    #: "max memories reached".
    excluded_reason: str | None = None
    #: Evidence of relevance (semantic match + weighted key-term coverage; see
    #: ``Config.relevance_threshold``); None when relevance was not tested.
    evidence: float | None = None
    #: IDF-weighted share of the query's key terms the memory contains; None
    #: when relevance was not tested.
    term_coverage: float | None = None


@dataclass(frozen=True, kw_only=True)
class InjectedMemory:
    """A memory put into the prompt, and why (PRD §8)."""

    memory: Memory
    score: float
    score_breakdown: ScoreBreakdown
    reason: str
    injection_rank: int
    tokens: int = 0
    #: See :attr:`ScoredMemory.evidence`.
    evidence: float | None = None
    #: See :attr:`ScoredMemory.term_coverage`.
    term_coverage: float | None = None


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
    #: The names of the recall stages that ran, in order (see ``stages``).
    pipeline: tuple[str, ...] = ()
    #: The parse of the message: key terms, names, clauses, intent, asked
    #: attributes, time range.
    query: QueryAnalysis | None = None
    #: Each stage as it ran: wall time and what it produced.
    stages: tuple[StageTrace, ...] = ()
    #: An evidence card per injected memory, in injection order.
    evidence: tuple[EvidenceCard, ...] = ()
    #: Candidates left out, by exclusion reason.
    excluded: Mapping[str, int] = field(default_factory=dict)
    #: Memories of coming events pushed first in the block (PRD §10.3).
    proactive_injected: tuple[UpcomingMemory, ...] = ()
    #: The past conversation injected as ``[Episode Context]`` (PRD §10.1), if any.
    episode_injected: Episode | None = None


@dataclass(frozen=True, kw_only=True)
class CompactionResult:
    """What ``compact()`` did (HOM session compaction)."""

    #: The history to send from now on: leading system messages, one summary
    #: message for the compacted part, then the recent turns verbatim.
    messages: list[dict[str, Any]]
    #: How many messages the summary replaced (0: nothing needed compacting).
    compacted: int = 0
    #: The artifact memories written (source ``compaction``), every track in full.
    artifact_ids: tuple[str, ...] = ()
    #: Artifact chunks per track (``conversation``, ``tool_usage``, ``action_taken``).
    track_counts: Mapping[str, int] = field(default_factory=dict)
    #: Facts the learn path stored or reinforced from the compacted user messages.
    fact_ids: tuple[str, ...] = ()
    #: The summary message's text.
    summary: str = ""
    #: Tokens of the history before and after (``message_tokens``).
    tokens_before: int = 0
    tokens_after: int = 0


@dataclass(frozen=True, kw_only=True)
class AugmentResult:
    """The messages to send to the LLM, and the debug record if asked for."""

    messages: list[dict[str, Any]]
    debug: LokulMemDebug | None = None
    #: The memory block text that was injected ("" when nothing was).
    context: str = ""
    #: Set when ``auto_compact=True`` compacted the history first (its
    #: ``messages`` are what ``messages`` was built on: keep them as the history).
    compaction: CompactionResult | None = None


@dataclass(frozen=True, kw_only=True)
class ProgressEvent:
    """``on_progress`` payload: a stage of ``init()`` and its progress in [0, 1]."""

    stage: ProgressStage
    progress: float

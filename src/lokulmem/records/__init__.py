"""The records lokulmem stores and returns.

All records are frozen, keyword-only dataclasses.  Times are integer Unix
milliseconds (PRD §9); ``None`` means "not set".  Field names are the PRD's in
snake_case, plus the HOM fields (``source``, ``project_id``, ``track``,
``key``, ``kind``, quality walls, ``metadata``).
"""

from __future__ import annotations

# Names outside __all__ (vocabularies, aliases) are re-exported for the package's own modules.
from .memory import (
    CONFIDENCES as CONFIDENCES,
)
from .memory import (
    KINDS as KINDS,
)
from .memory import (
    MEMORY_STATUSES as MEMORY_STATUSES,
)
from .memory import (
    SOURCES as SOURCES,
)
from .memory import (
    Cluster,
    Confidence,
    Edge,
    Episode,
    Memory,
    MemoryStatus,
    Message,
    QualityWalls,
    Resolution,
    Source,
    context_text,
)
from .memory import (
    Kind as Kind,
)
from .memory import (
    ProgressStage as ProgressStage,
)
from .memory import (
    Vector as Vector,
)
from .panel import (
    BridgeEvent,
    GroupedMemories,
    ImportResult,
    InjectionPreview,
    Lineage,
    MaintenanceReport,
    MemoryStats,
    RejectedItem,
    RetentionPolicy,
    SimilarFacts,
    TimelineDay,
)
from .recall import EvidenceCard, Intent, QueryAnalysis, StageTrace, TimeRange, UpcomingMemory
from .results import (
    SCORE_PARTS,
    AugmentResult,
    CompactionResult,
    ContradictionEvent,
    InjectedMemory,
    LearnResult,
    LokulMemDebug,
    ProgressEvent,
    ScoreBreakdown,
    ScoredMemory,
    SentenceDecision,
)

__all__ = [
    "SCORE_PARTS",
    "AugmentResult",
    "BridgeEvent",
    "Cluster",
    "CompactionResult",
    "Confidence",
    "ContradictionEvent",
    "Edge",
    "Episode",
    "EvidenceCard",
    "GroupedMemories",
    "ImportResult",
    "InjectedMemory",
    "InjectionPreview",
    "Intent",
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
    "QueryAnalysis",
    "RejectedItem",
    "Resolution",
    "RetentionPolicy",
    "ScoreBreakdown",
    "ScoredMemory",
    "SentenceDecision",
    "SimilarFacts",
    "Source",
    "StageTrace",
    "TimeRange",
    "TimelineDay",
    "UpcomingMemory",
    "context_text",
]

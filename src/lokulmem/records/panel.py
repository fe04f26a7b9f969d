"""What ``manage()`` and maintenance return."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..config.parts import check_count, check_nonneg, check_unit
from ..errors import ConfigError
from .memory import Memory
from .recall import EvidenceCard
from .results import InjectedMemory

__all__ = [
    "BridgeEvent",
    "GroupedMemories",
    "ImportResult",
    "InjectionPreview",
    "Lineage",
    "MaintenanceReport",
    "MemoryStats",
    "RejectedItem",
    "RetentionPolicy",
    "SimilarFacts",
    "TimelineDay",
]


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
    #: The memories ``merge()`` folded into this one (superseded, kept).
    merged_from: tuple[Memory, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SimilarFacts:
    """Two active memories that may say the same thing (``find_similar_facts()``)."""

    first: Memory
    second: Memory
    #: Cosine similarity of their vectors.
    similarity: float


@dataclass(frozen=True, kw_only=True)
class InjectionPreview:
    """What ``augment()`` would inject now, computed without changing the store."""

    would_inject: tuple[InjectedMemory, ...]
    estimated_tokens: int
    #: The memory block text that would be prepended ("" when nothing).
    context: str = ""
    #: An evidence card per memory that would be injected, in order.
    evidence: tuple[EvidenceCard, ...] = ()


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
    #: The vector search index: size, HNSW graph, calibration, the mode searches take
    #: and why (``lokulmem.index.routed.RoutedIndex.profile``).
    search_index: Mapping[str, Any] = field(default_factory=dict)


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
    #: Ids the retention policy retired in this run (archived or deleted, as
    #: ``retention_action`` says).
    retired: tuple[str, ...] = ()
    retention_action: Literal["archive", "delete"] | None = None
    sweep_ms: float = 0.0
    cluster_ms: float = 0.0


@dataclass(frozen=True, kw_only=True)
class RetentionPolicy:
    """What the maintenance sweep retires beyond decay (PRD v0.2, ``set_retention_policy``).

    Each limit is off when None.  Pinned memories are exempt, and so is a plan
    still ahead (``event_at``); superseded, archived and faded memories are
    history and are left alone.  ``action="archive"`` (default) keeps the
    memory with its lineage, out of retrieval; ``"delete"`` removes it for good.
    """

    #: Retire active memories created more than this many days ago.
    max_age_days: float | None = None
    #: Keep at most this many active memories: the weakest (current strength,
    #: then oldest) beyond it are retired.  Pinned ones count but stay.
    max_facts: int | None = None
    #: Retire memories whose confidence score (``Config.confidence_scores``) is below this.
    min_confidence: float | None = None
    action: Literal["archive", "delete"] = "archive"

    def __post_init__(self) -> None:
        # The same rules as Config's own fields (None: the limit is off).
        for name, check in (
            ("max_age_days", check_nonneg),
            ("max_facts", check_count),
            ("min_confidence", check_unit),
        ):
            if getattr(self, name) is not None:
                check(name, getattr(self, name))
        if self.action not in ("archive", "delete"):
            raise ConfigError("action", f"must be 'archive' or 'delete', got {self.action!r}")

    @property
    def active(self) -> bool:
        """Whether any limit is set."""
        return not (self.max_age_days is None and self.max_facts is None and self.min_confidence is None)

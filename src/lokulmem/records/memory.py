"""What the store holds: memories (PRD and HOM fields), episodes, edges, clusters."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "CONFIDENCES",
    "KINDS",
    "MEMORY_STATUSES",
    "SOURCES",
    "Cluster",
    "Confidence",
    "Edge",
    "Episode",
    "Kind",
    "Memory",
    "MemoryStatus",
    "Message",
    "ProgressStage",
    "QualityWalls",
    "Resolution",
    "Source",
    "Vector",
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
    #: ``conflict`` (contradicted), ``temporal`` (a change: still history, with
    #: ``valid_to``) or ``merge`` (folded into ``superseded_by`` by ``merge()``).
    supersession_type: Literal["conflict", "temporal", "merge"] | None = None
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
    #: ``max_reply_context_chars``: "Twelve years in June!" answers "When did you
    #: two get married?".  Searched lexically beside ``content``.
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
        """A copy with ``changes`` applied (``dataclasses.replace``, which it equals for
        this class: every field is an ``__init__`` field and nothing runs after
        ``__init__``; copying the instance dict is 8× faster, and recall replaces
        a memory for each one it reinforces)."""
        unknown = changes.keys() - _FIELDS
        if unknown:
            raise TypeError(f"Memory has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy

    @classmethod
    def from_fields(cls, fields: dict[str, Any]) -> Memory:
        """The memory whose fields are exactly ``fields`` (every field, no other key),
        as ``Memory(**fields)`` would build it, without the frozen ``__init__``'s
        one ``object.__setattr__`` per field (0.4 → 0.1 ms for the 33 records a
        recall reads at 10k memories).  ``fields`` is taken over, not copied."""
        if fields.keys() != _FIELDS:
            missing, extra = _FIELDS - fields.keys(), fields.keys() - _FIELDS
            raise TypeError(f"Memory fields missing {sorted(missing)}, unknown {sorted(extra)}")
        made = object.__new__(cls)
        made.__dict__.update(fields)
        return made

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


#: The field names :meth:`Memory.replace` accepts.
_FIELDS = frozenset(f.name for f in dataclasses.fields(Memory))


@dataclass(frozen=True, kw_only=True)
class Episode:
    """A finished session as one summary (PRD §9, §10.1; see ``lokulmem.episodes``)."""

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

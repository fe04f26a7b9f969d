"""Pure write-side policies shared by ``learn()``, ``manage().update()`` and import.

* :func:`close_fact`: what happens to a stored fact when a new one
  contradicts it (conflict: superseded; temporal change: closed with
  ``valid_to``, still active as history), and the event that says so;
* :func:`memory_from_sentence`: the record ``learn()`` stores for one analysed
  sentence;
* :func:`memory_from_pack_entry`: the record a memory-pack import stores.

Learn and import type memories differently on purpose (today's behaviour,
kept by the golden trace): learn adds a durable prototype type to rule types
that need backing, import uses rule types or else the nearest prototype.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..contradiction import Candidate, Verdict, judge
from ..decay import initial_strength
from ..extraction import Analysis, classify_by_prototype, quality_walls, substance
from ..extraction.anchoring import anchor_times
from ..extraction.attributes import Attribute
from ..extraction.dates import event_time
from ..extraction.rewrite import plural_to_user
from ..records import SOURCES, ContradictionEvent, Memory, QualityWalls, Resolution, Source

__all__ = [
    "Closure",
    "Correction",
    "close_fact",
    "correct",
    "frozen",
    "imported_types",
    "learned_types",
    "memory_from_pack_entry",
    "memory_from_sentence",
    "merge_facts",
    "pack_source",
]

Vector = npt.NDArray[np.float32]


def frozen(vec: Any) -> Vector:
    """A read-only float32 copy of ``vec`` (records share vectors safely)."""
    out = np.array(vec, dtype=np.float32)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class Closure:
    """The closed (or superseded) fact, the incoming one linked to it, and the event."""

    closed: Memory
    incoming: Memory
    event: ContradictionEvent


def close_fact(existing: Memory, incoming: Memory, verdict: Verdict, now: int) -> Closure:
    """Close ``existing`` because ``incoming`` contradicts it.

    A temporal change (``temporal-coexistence``) sets ``valid_to`` and keeps the
    old fact active as history; ``incoming`` records ``temporal_supersedes``.
    A conflict marks the old fact ``superseded``; ``incoming`` records
    ``metadata["supersedes"]``.  Either way nothing is deleted.
    """
    resolution: Resolution
    if verdict.kind == "temporal-coexistence":
        closed = existing.replace(
            valid_to=now,
            superseded_by=incoming.id,
            superseded_at=now,
            supersession_type="temporal",
            updated_at=now,
        )
        incoming = incoming.replace(temporal_supersedes=existing.id)
        resolution = "temporal-coexistence"
    else:
        closed = existing.replace(
            status="superseded",
            valid_to=now,
            superseded_by=incoming.id,
            superseded_at=now,
            supersession_type="conflict",
            updated_at=now,
        )
        incoming = incoming.replace(metadata={**incoming.metadata, "supersedes": existing.id})
        resolution = "conflict"
    event = ContradictionEvent(
        existing=closed,
        incoming=incoming,
        resolution=resolution,
        temporal_marker_detected=verdict.marker,
        similarity=verdict.similarity,
        attribute=verdict.attribute,
        signal=verdict.signal,
        classifier_score=verdict.score,
    )
    return Closure(closed=closed, incoming=incoming, event=event)


def learned_types(a: Analysis, vec: Vector, prototypes: Mapping[str, Vector], config: Config) -> list[str]:
    """The types ``learn()`` gives a sentence: its rule types, plus the nearest durable
    prototype when it has none or they need backing (a feeling with content beside
    it: ``backed_types``, ``backing_min_terms``)."""
    types = list(a.rule_types)
    backed = (
        config.backing_min_terms > 0
        and bool(types)
        and all(t in config.backed_types for t in types)
        and substance(a.sentence, types) >= config.backing_min_terms
    )
    if not types or backed:
        proto = classify_by_prototype(vec, dict(prototypes))
        if proto and proto not in types:
            types.append(proto)
    return types


def imported_types(a: Analysis, vec: Vector, prototypes: Mapping[str, Vector]) -> list[str]:
    """The types a memory-pack entry gets: its rule types, or else the nearest prototype
    of any type (transient ones included: a pack entry has no conversation to cue it).
    Kept apart from :func:`learned_types` on purpose; the golden trace holds both."""
    return list(a.rule_types) or [t for t in [classify_by_prototype(vec, dict(prototypes))] if t]


@dataclass(frozen=True)
class Provenance:
    """Where a learned sentence came from: session, turn, time and its message."""

    session_id: str
    turn: int
    now: int
    #: The source message (capped at ``max_context_chars``) and what it answered.
    message: str = ""
    reply: str = ""
    #: HOM source of what is stored: ``direct`` (the user said it, ``learn()``)
    #: or ``reasoning`` (an agent's conclusion, ``remember()``).
    origin: Source = "direct"


def memory_from_sentence(
    a: Analysis,
    vec: Vector,
    *,
    types: Sequence[str],
    score: float,
    top1: float | None,
    source: Provenance,
    config: Config,
) -> Memory:
    """The memory ``learn()`` stores for a sentence (its message vector is filled in later)."""
    now = source.now
    metadata: dict[str, Any] = {}
    if a.attribute is not None:
        metadata["attribute_negated"] = a.attribute.negated
    # "next month" -> "next month (April 2026)" and "we" -> "User and others" in the
    # stored text only: the vector stays that of the fact as analysed, so neither the
    # date nor the label adds noise to similarity (docs/tuning.md entry 50).
    content = anchor_times(a.content, now) if config.anchor_relative_times else a.content
    if config.rewrite_plural_first_person:
        content = plural_to_user(content, config.user_label)
    return Memory(
        id=str(uuid.uuid4()),
        content=content,
        types=tuple(types),
        embedding=frozen(vec),
        base_strength=initial_strength(a.valence, config),
        confidence="low" if a.hedged else "medium",
        extraction_score=round(score, 6),
        emotional_valence=round(a.valence, 6),
        valid_from=now,
        created_at=now,
        updated_at=now,
        last_accessed_at=now,
        last_reinforced=now,
        source=source.origin,
        source_session=source.session_id,
        source_turn=source.turn,
        source_conversation_ids=(source.session_id,),
        entities=a.features.entities,
        source_text=a.sentence,
        source_context=source.message,
        reply_context=source.reply,
        event_at=event_time(a.sentence, now) if a.features.date_time else None,
        quality=quality_walls(
            a.sentence,
            specificity=a.specificity,
            top1_similarity=top1 or 0.0,
            duplicate_similarity=config.duplicate_similarity,
        ),
        attribute=a.attribute.key if a.attribute else None,
        attribute_value=a.attribute.value if a.attribute else None,
        metadata=metadata,
    )


def pack_source(declared: str | None, trusted: bool) -> Source:
    """A pack entry's HOM source: its own (``reasoning``, ``compaction``, ...) when
    the pack is trusted and names a known one, else ``import``."""
    if trusted and declared in SOURCES:
        return cast(Source, declared)
    return "import"


def memory_from_pack_entry(
    entry: Any,
    analysis: Analysis,
    vec: Vector,
    *,
    types: Sequence[str],
    walls: QualityWalls,
    provenance: Mapping[str, Any],
    event_id: str,
    now: int,
    config: Config,
    trusted: bool = False,
) -> Memory:
    """The memory a memory-pack entry (:class:`lokulmem.transfer.PackEntry`) becomes.

    Stored with ``source="import"`` (or the entry's own source when the pack
    is ``trusted``: :func:`pack_source`) and its provenance in
    ``metadata["import"]``; decay starts at the import, so an old entry is
    not faded on arrival.
    """
    e = entry
    created = e.created_at_ms if e.created_at_ms is not None else now
    attr = analysis.attribute
    metadata: dict[str, Any] = {**e.metadata, "import": dict(provenance)}
    if attr is not None:
        metadata["attribute_negated"] = attr.negated
    return Memory(
        id=e.memory_id or str(uuid.uuid4()),
        content=e.value,
        types=tuple(types) or ("preference",),
        embedding=vec,
        base_strength=config.base_strength,
        confidence="medium",
        valid_from=created,
        created_at=created,
        updated_at=e.updated_at_ms if e.updated_at_ms is not None else created,
        last_accessed_at=now,
        last_reinforced=now,
        source_session=e.session_id or f"import-{event_id}",
        source_conversation_ids=(e.session_id,) if e.session_id else (),
        entities=analysis.features.entities,
        source_text=e.value,
        source=pack_source(entry.source, trusted),
        project_id=e.project_id,
        track=e.track,
        key=e.key,
        kind=e.memory_type,
        quality=walls,
        attribute=attr.key if attr else None,
        attribute_value=attr.value if attr else None,
        metadata=metadata,
    )


@dataclass(frozen=True)
class Correction:
    """What a user changes in a memory (``manage().update``); None leaves a field as is."""

    content: str | None = None
    types: tuple[str, ...] | None = None
    confidence: str | None = None


def correct(
    memory: Memory,
    correction: Correction,
    *,
    analysis: Analysis | None,
    vec: Vector | None,
    candidates: Sequence[Candidate],
    now: int,
    config: Config,
) -> tuple[Memory, Closure | None]:
    """``memory`` after a user's correction, and the fact it closes, if any.

    New content (with its ``analysis`` and vector) replaces the text, vector,
    entities, attribute and quality walls; the old text is appended to
    ``metadata["corrections"]``.  It is judged against ``candidates`` (current
    facts near the new text): one it contradicts is closed by
    :func:`close_fact`, the user's correction winning.
    """
    patch: dict[str, Any] = {"updated_at": now}
    if correction.types is not None:
        patch["types"] = correction.types
    if correction.confidence is not None:
        patch["confidence"] = correction.confidence
    content = correction.content
    if analysis is None or vec is None or content is None:
        return memory.replace(**patch), None
    attr = analysis.attribute
    corrections = [*memory.metadata.get("corrections", []), {"content": memory.content, "at": now}]
    patch.update(
        content=content,
        embedding=vec,
        entities=analysis.features.entities,
        attribute=attr.key if attr else None,
        attribute_value=attr.value if attr else None,
        quality=quality_walls(
            content,
            specificity=analysis.specificity,
            top1_similarity=max((c.similarity for c in candidates), default=0.0),
            duplicate_similarity=config.duplicate_similarity,
        ),
        metadata={
            **memory.metadata,
            "corrections": corrections,
            "attribute_negated": attr.negated if attr else False,
        },
    )
    updated = memory.replace(**patch)
    verdict = judge(sentence=content, content=content, attribute=attr, candidates=candidates, config=config)
    if verdict is None or verdict.kind not in ("conflict", "temporal-coexistence"):
        return updated, None
    closure = close_fact(verdict.existing, updated, verdict, now)
    return closure.incoming, closure


_RANK = {"low": 0, "medium": 1, "high": 2}


def merge_facts(
    memories: Sequence[Memory],
    *,
    content: str,
    vec: Vector,
    attribute: Attribute | None,
    now: int,
) -> tuple[Memory, list[Memory]]:
    """One memory standing for ``memories`` (``manage().merge()``), and those memories
    superseded by it.

    The merged fact keeps the union of their types, entities and conversations,
    their summed restatements, the strongest base strength and confidence, the
    earliest ``created_at`` and ``valid_from``, and is pinned if any was.  Its
    ``metadata["merged_from"]`` lists them; each becomes ``superseded`` with
    ``supersession_type="merge"`` (kept, with its lineage, out of retrieval).
    A merge is the user's own statement of the fact: source ``direct``.
    """
    first = memories[0]
    merged = first.replace(
        id=str(uuid.uuid4()),
        content=content,
        embedding=vec,
        types=tuple(dict.fromkeys(t for m in memories for t in m.types)),
        entities=tuple(dict.fromkeys(e for m in memories for e in m.entities)),
        source_conversation_ids=tuple(dict.fromkeys(c for m in memories for c in m.source_conversation_ids)),
        mention_count=sum(m.mention_count for m in memories),
        base_strength=max(m.base_strength for m in memories),
        confidence=max((m.confidence for m in memories), key=lambda c: _RANK.get(c, 1)),
        pinned=any(m.pinned for m in memories),
        created_at=min(m.created_at for m in memories),
        valid_from=min(m.valid_from for m in memories),
        valid_to=None,
        updated_at=now,
        last_reinforced=now,
        status="active",
        source="direct",
        attribute=attribute.key if attribute else None,
        attribute_value=attribute.value if attribute else None,
        superseded_by=None,
        superseded_at=None,
        supersession_type=None,
        temporal_supersedes=None,
        metadata={"merged_from": [m.id for m in memories]},
    )
    closed = [
        m.replace(
            status="superseded",
            superseded_by=merged.id,
            superseded_at=now,
            supersession_type="merge",
            valid_to=now,
            updated_at=now,
        )
        for m in memories
    ]
    return merged, closed

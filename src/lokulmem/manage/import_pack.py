"""Importing a HOM memory pack: keys de-duplicated, quality gated, typed, then written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._engine.facts import frozen, imported_types, memory_from_pack_entry
from .._engine.unit import Changes
from ..extraction import analyze_text, quality_walls, to_first_person
from ..records import Memory, RejectedItem
from ..storage import MemoryQuery, Storage
from ..transfer import PackEntry, ParsedPack
from .import_export import Audit, Tally, wins

if TYPE_CHECKING:
    from .._engine.engine import Engine

__all__ = ["PackGate", "dedup_keys", "pack_memories", "write_pack"]


@dataclass(frozen=True)
class PackGate:
    """How a pack's entries are judged: the quality threshold, and whether the
    store is being replaced (then nothing stored counts as a duplicate)."""

    threshold: float
    replace: bool
    #: Keep each entry's own HOM source (``reasoning``, ``compaction``...) instead of ``import``.
    trusted: bool = False


def dedup_keys(entries: Sequence[PackEntry]) -> tuple[list[PackEntry], list[RejectedItem]]:
    """Entries with a key seen before in the pack are rejected (the first wins)."""
    seen: set[str] = set()
    kept: list[PackEntry] = []
    rejected: list[RejectedItem] = []
    for e in entries:
        if e.key is not None:
            if e.key in seen:
                rejected.append(RejectedItem(index=e.index, key=e.key, reason="duplicate key in pack"))
                continue
            seen.add(e.key)
        kept.append(e)
    return kept, rejected


def pack_memories(
    engine: Engine, pack: ParsedPack, entries: Sequence[PackEntry], gate: PackGate, audit: Audit
) -> tuple[list[tuple[PackEntry, Memory]], list[RejectedItem]]:
    """Each entry as the memory it becomes, or rejected by the quality gate."""
    cfg = engine.config
    vectors = engine.embed([e.value[: cfg.max_sentence_chars] for e in entries])
    protos = engine.prototype_vectors()
    out: list[tuple[PackEntry, Memory]] = []
    rejected: list[RejectedItem] = []
    for e, raw in zip(entries, vectors, strict=True):
        vec = frozen(raw)
        analysis = analyze_text(to_first_person(e.value, cfg.user_label), cfg)
        # The filter (dedup) wall looks at the nearest stored memory that is not
        # this entry's own key: a key match is a conflict, settled when writing.
        near = [(m, sim) for m, sim in engine.nearest(vec, 2) if e.key is None or m.key != e.key]
        top1 = near[0][1] if near and not gate.replace else 0.0
        walls = quality_walls(
            e.value,
            specificity=analysis.specificity,
            top1_similarity=top1,
            duplicate_similarity=cfg.duplicate_similarity,
        )
        score = walls.score if e.quality_score is None else min(walls.score, e.quality_score)
        if score < gate.threshold:
            reason = f"quality {score:.2f} below threshold {gate.threshold:.2f}"
            rejected.append(RejectedItem(index=e.index, key=e.key, reason=reason))
            continue
        types = imported_types(analysis, vec, protos)
        provenance = {
            "pack": pack.name,
            "origin": audit.origin,
            "source": e.source,
            "bridge_event": audit.event_id,
        }
        memory = memory_from_pack_entry(
            e,
            analysis,
            vec,
            types=types,
            walls=walls,
            provenance=provenance,
            event_id=audit.event_id,
            now=audit.created_at,
            config=cfg,
            trusted=gate.trusted,
        )
        out.append((e, memory))
    return out, rejected


def write_pack(
    storage: Storage,
    memories: Sequence[tuple[PackEntry, Memory]],
    tally: Tally,
    *,
    replace: bool,
    strategy: str,
    audit: Audit,
) -> Changes:
    """Write the pack's memories inside the caller's transaction: a stored memory with
    the same key (or id) is a conflict settled by ``strategy``; a bridge event records it."""
    changes = Changes(reload_index=True, other=True, written=True)
    # Every stored id only when replacing (they are deleted unless re-imported); a merge
    # needs none: whether a record was there is whether it met a stored one below.
    before = {m.id for m in storage.list_memories(MemoryQuery(with_embedding=False))} if replace else set()
    if replace:
        storage.clear(keep_audit=True)
    by_key = storage.ids_by_key([m.key for _, m in memories if m.key])
    taken = storage.existing_ids([m.id for _, m in memories])
    for e, m in memories:
        old_ids = by_key.get(m.key, []) if m.key else []
        old = storage.get_memory(old_ids[0]) if old_ids else None
        if old is None and m.id in taken:
            old = storage.get_memory(m.id)
        if old is not None:
            tally.conflicts += 1
            if not wins(strategy, old.updated_at, m.updated_at):
                tally.rejected.append(RejectedItem(index=e.index, key=e.key, reason="kept existing memory"))
                continue
            merged = (*old.source_conversation_ids, *m.source_conversation_ids)
            m = m.replace(
                id=old.id, created_at=old.created_at, source_conversation_ids=tuple(dict.fromkeys(merged))
            )
            storage.update_memory(m)
        else:
            storage.insert_memory(m)
        (changes.updated if old is not None or m.id in before else changes.added).append(m)
        tally.written.append(m.id)
    if replace:
        changes.deleted = sorted(before - set(tally.written))
    tally.skipped = len(tally.rejected)  # every entry not written has a reason
    storage.add_bridge_event(audit.event(tally))
    return changes

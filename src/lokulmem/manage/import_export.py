"""Importing a lokulmem export: vectors reused or recomputed, then rows written under a conflict strategy."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .._engine.facts import frozen
from .._engine.unit import Changes
from ..records import BridgeEvent, Memory, RejectedItem, context_text
from ..storage import MemoryQuery, Storage
from ..transfer import ExportDocument

if TYPE_CHECKING:
    from .._engine.engine import Engine

__all__ = ["Audit", "Tally", "embed_export", "wins", "write_export"]


@dataclass
class Tally:
    """What an import did, filled while it writes."""

    conflicts: int = 0
    skipped: int = 0
    written: list[str] = field(default_factory=list)
    rejected: list[RejectedItem] = field(default_factory=list)


@dataclass(frozen=True)
class Audit:
    """Who and what an import is, for its bridge event (HOM)."""

    event_id: str
    created_at: int
    format: str
    name: str | None
    origin: str | None

    def event(self, tally: Tally) -> BridgeEvent:
        """The bridge event of an import that did what ``tally`` says."""
        return BridgeEvent(
            id=self.event_id,
            created_at=self.created_at,
            format=self.format,
            name=self.name,
            origin=self.origin,
            imported=len(tally.written),
            skipped=tally.skipped,
            conflicts=tally.conflicts,
            rejected=tuple(sorted(tally.rejected, key=lambda r: r.index)),
            memory_ids=tuple(tally.written),
        )


def wins(strategy: str, existing_stamp: int, incoming_stamp: int) -> bool:
    """Whether an incoming record replaces an existing one under ``strategy``
    (``keep-newer`` compares the records' update times)."""
    if strategy == "use-imported":
        return True
    if strategy == "keep-newer":
        return incoming_stamp > existing_stamp
    return False


def embed_export(engine: Engine, doc: ExportDocument) -> list[Memory]:
    """The export's memories with vectors: reused when the document's model is ours,
    else recomputed in batches (a message context shared by several memories once)."""
    reuse = doc.embedding_model == engine.embedder.model_id
    need = [m for m in doc.memories if m.embedding is None or not reuse]
    vectors = dict(zip([m.id for m in need], engine.embed([m.content for m in need]), strict=True))
    # Context vectors are recomputed like the others, for memories that have a context.
    need_ctx = [
        m
        for m in doc.memories
        if (m.context_embedding is None or not reuse)
        and (m.source_context or m.reply_context)
        and engine.config.context_vector_weight > 0
    ]
    ctx_texts = list(dict.fromkeys(context_text(m.reply_context, m.source_context) for m in need_ctx))
    by_text = dict(zip(ctx_texts, engine.embed(ctx_texts), strict=True))
    ctx_vectors = {m.id: by_text[context_text(m.reply_context, m.source_context)] for m in need_ctx}
    incoming = []
    for m in doc.memories:
        if m.id in vectors:
            m = m.replace(embedding=frozen(vectors[m.id]))
        if m.id in ctx_vectors:
            m = m.replace(context_embedding=frozen(ctx_vectors[m.id]))
        elif not reuse:
            m = m.replace(context_embedding=None)
        incoming.append(m)
    return incoming


def _put_graph(storage: Storage, doc: ExportDocument, strategy: str, replace: bool) -> None:
    """Episodes, clusters and edges under the same conflict strategy as memories."""
    groups: tuple[
        tuple[Sequence[Any], Callable[[], Sequence[Any]], Callable[[Any], int], Callable[[Any], None]],
        ...,
    ] = (
        (doc.episodes, storage.all_episodes, lambda e: e.ended_at, storage.put_episode),
        (doc.clusters, storage.all_clusters, lambda c: c.last_recomputed, storage.put_cluster),
        (doc.edges, storage.all_edges, lambda e: e.last_updated, storage.put_edge),
    )
    for items, stored, stamp, put in groups:
        have = {x.id: x for x in stored()} if not replace else {}
        for item in items:
            old = have.get(item.id)
            if old is None or wins(strategy, stamp(old), stamp(item)):
                put(item)


def write_export(
    storage: Storage,
    doc: ExportDocument,
    incoming: Sequence[Memory],
    tally: Tally,
    *,
    replace: bool,
    strategy: str,
    audit: Audit,
) -> Changes:
    """Write the export inside the caller's transaction, counting in ``tally``; a
    bridge event records it."""
    changes = Changes(reload_index=True, other=True, written=True)
    # Every stored id only when replacing (they are deleted unless re-imported); a merge
    # needs none: whether a record was there is whether it met a stored one below.
    before = {m.id for m in storage.list_memories(MemoryQuery(with_embedding=False))} if replace else set()
    if replace:
        storage.clear(keep_audit=True)
    existing = {m.id: m for m in storage.get_memories([m.id for m in incoming])}
    for m in incoming:
        old = existing.get(m.id)
        if old is None:
            storage.insert_memory(m)
        else:
            tally.conflicts += 1
            if not wins(strategy, old.updated_at, m.updated_at):
                tally.skipped += 1
                continue
            storage.update_memory(m)
        (changes.updated if old is not None or m.id in before else changes.added).append(m)
        tally.written.append(m.id)
    if replace:
        changes.deleted = sorted(before - set(tally.written))
    _put_graph(storage, doc, strategy, replace)
    storage.add_bridge_event(audit.event(tally))
    return changes

"""``manage().import_data()``: lokulmem exports and HOM memory packs."""

from __future__ import annotations

import builtins
import json
import os
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._engine.facts import frozen, memory_from_pack_entry
from .._engine.unit import Changes
from ..errors import ImportFormatError, ValidationError
from ..extraction import (
    analyze_text,
    classify_by_prototype,
    quality_walls,
    to_first_person,
)
from ..records import (
    BridgeEvent,
    ImportResult,
    Memory,
    RejectedItem,
    context_text,
)
from ..storage import MemoryQuery
from ..transfer import ExportDocument, ParsedPack, parse_document
from ._base import (
    _STRATEGIES,
    ConflictStrategy,
    PanelBase,
)

__all__ = ["Importing"]


class Importing(PanelBase):
    """Import of lokulmem exports and HOM memory packs, in one transaction."""

    def _load(self, data: object) -> tuple[object, str | None]:
        limit = self._engine.config.max_import_bytes
        origin: str | None = None
        raw: str | bytes
        if isinstance(data, os.PathLike):
            path = Path(data)
            origin = str(path)
            try:
                size = path.stat().st_size
            except OSError as exc:
                raise ImportFormatError("data", f"cannot read {path}: {exc}") from None
            if size > limit:
                raise ImportFormatError("data", f"{path} is {size} bytes; max_import_bytes is {limit}")
            raw = path.read_bytes()
        elif isinstance(data, (str, bytes, bytearray)):
            raw = bytes(data) if isinstance(data, bytearray) else data
        elif isinstance(data, Mapping):
            return data, None
        else:
            raise ImportFormatError("data", f"must be a dict, JSON text or a path, got {type(data).__name__}")
        size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
        if size > limit:
            raise ImportFormatError("data", f"document is {size} bytes; max_import_bytes is {limit}")
        try:
            return json.loads(raw), origin
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ImportFormatError("data", f"not valid JSON: {exc}") from None

    def import_data(
        self,
        data: Mapping[str, Any] | str | bytes | os.PathLike[str],
        *,
        merge: bool | None = None,
        conflict_strategy: ConflictStrategy = "keep-existing",
        strict: bool = True,
        origin: str | None = None,
        quality_threshold: float | None = None,
    ) -> ImportResult:
        """Import a lokulmem export or a HOM memory pack, in one transaction.

        ``data``: the decoded document, its JSON text, or a path to a JSON file
        (at most ``max_import_bytes``).  ``merge``: ``False`` replaces the
        store's memories, episodes, clusters and edges; ``True`` adds to them;
        default (``None``) replaces for an export (PRD) and adds for a pack.
        When an incoming memory has the id (export) or key (pack) of a stored
        one, ``conflict_strategy`` decides: ``keep-existing`` (default),
        ``use-imported``, or ``keep-newer`` (by ``updated_at``).

        Packs are validated: entries are de-duplicated by key (first wins),
        gated on quality (``quality_threshold``, default
        ``Config.import_quality_threshold``, against the product of the
        quality walls computed from the text, or the entry's own
        ``quality_score`` if lower), stored with ``source="import"`` and
        their provenance in ``metadata["import"]``.  Every import stores a
        :class:`BridgeEvent` (see :meth:`get_bridge_events`).

        A malformed document raises :class:`ImportFormatError` naming the
        first problem and changes nothing; with ``strict=False`` malformed
        pack entries are reported in ``rejected`` instead.
        """
        if merge is not None and not isinstance(merge, bool):
            raise ValidationError("merge", "must be true, false or None")
        if conflict_strategy not in _STRATEGIES:
            raise ValidationError("conflict_strategy", f"must be one of {list(_STRATEGIES)}")
        if origin is not None and not isinstance(origin, str):
            raise ValidationError("origin", "must be a string")
        threshold = self._engine.config.import_quality_threshold
        if quality_threshold is not None:
            if not isinstance(quality_threshold, (int, float)) or not 0 <= quality_threshold <= 1:
                raise ValidationError("quality_threshold", "must be a number in [0, 1]")
            threshold = float(quality_threshold)
        doc, file_origin = self._load(data)
        parsed = parse_document(doc, strict=strict)
        if isinstance(parsed, ExportDocument):
            return self._import_export(
                parsed,
                replace=not merge if merge is not None else True,
                strategy=conflict_strategy,
                origin=origin or file_origin,
            )
        return self._import_pack(
            parsed,
            replace=not merge if merge is not None else False,
            strategy=conflict_strategy,
            origin=origin or parsed.origin or file_origin,
            threshold=threshold,
        )

    @staticmethod
    def _wins(strategy: str, existing_stamp: int, incoming_stamp: int) -> bool:
        """Whether an incoming record replaces an existing one under ``strategy``
        (``keep-newer`` compares the records' update times)."""
        if strategy == "use-imported":
            return True
        if strategy == "keep-newer":
            return incoming_stamp > existing_stamp
        return False

    def _import_export(
        self, doc: ExportDocument, *, replace: bool, strategy: str, origin: str | None
    ) -> ImportResult:
        engine = self._engine
        ours = engine.embedder.model_id
        reuse = doc.embedding_model == ours
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
        # The memories of one message share its context: embed each text once.
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
        event_id = str(uuid.uuid4())
        counts = {"imported": 0, "skipped": 0, "conflicts": 0}

        def plan() -> Changes:
            storage = engine.storage
            changes = Changes(reload_index=True, other=True, written=True)
            before = {m.id for m in storage.list_memories(MemoryQuery(with_embedding=False))}
            if replace:
                storage.clear(keep_audit=True)
            existing = {m.id: m for m in storage.get_memories([m.id for m in incoming])}
            written: builtins.list[str] = []
            for m in incoming:
                old = existing.get(m.id)
                if old is None:
                    storage.insert_memory(m)
                else:
                    counts["conflicts"] += 1
                    if not self._wins(strategy, old.updated_at, m.updated_at):
                        counts["skipped"] += 1
                        continue
                    storage.update_memory(m)
                (changes.updated if m.id in before else changes.added).append(m)
                written.append(m.id)
            counts["imported"] = len(written)
            if replace:
                changes.deleted = sorted(before - set(written))
            self._put_graph(doc, strategy, replace)
            storage.add_bridge_event(
                BridgeEvent(
                    id=event_id,
                    created_at=self._now,
                    format="lokulmem-export",
                    name=doc.store_name,
                    origin=origin,
                    imported=counts["imported"],
                    skipped=counts["skipped"],
                    conflicts=counts["conflicts"],
                    memory_ids=tuple(written),
                )
            )
            return changes

        engine.commit(plan)
        return ImportResult(
            imported=counts["imported"],
            skipped=counts["skipped"],
            conflicts=counts["conflicts"],
            bridge_event_id=event_id,
        )

    def _put_graph(self, doc: ExportDocument, strategy: str, replace: bool) -> None:
        """Episodes, clusters and edges under the same conflict strategy as memories."""
        storage = self._engine.storage
        groups: tuple[
            tuple[Sequence[Any], Callable[[], Sequence[Any]], Callable[[Any], int], Callable[[Any], None]],
            ...,
        ] = (
            (doc.episodes, storage.all_episodes, lambda e: e.ended_at, storage.put_episode),
            (doc.clusters, storage.all_clusters, lambda c: c.last_recomputed, storage.put_cluster),
            (doc.edges, storage.all_edges, lambda e: e.last_updated, storage.put_edge),
        )
        for incoming, stored, stamp, put in groups:
            have = {x.id: x for x in stored()} if not replace else {}
            for item in incoming:
                old = have.get(item.id)
                if old is None or self._wins(strategy, stamp(old), stamp(item)):
                    put(item)

    def _import_pack(
        self, pack: ParsedPack, *, replace: bool, strategy: str, origin: str | None, threshold: float
    ) -> ImportResult:
        engine = self._engine
        cfg = engine.config
        rejected: builtins.list[RejectedItem] = list(pack.malformed)
        seen_keys: set[str] = set()
        entries = []
        for e in pack.entries:
            if e.key is not None:
                if e.key in seen_keys:
                    rejected.append(RejectedItem(index=e.index, key=e.key, reason="duplicate key in pack"))
                    continue
                seen_keys.add(e.key)
            entries.append(e)
        vectors = engine.embed([e.value[: cfg.max_sentence_chars] for e in entries])
        protos = engine.prototype_vectors()
        event_id = str(uuid.uuid4())
        now = self._now
        candidates: builtins.list[tuple[Any, Memory]] = []
        for e, raw in zip(entries, vectors, strict=True):
            vec = frozen(raw)
            analysis = analyze_text(to_first_person(e.value, cfg.user_label), cfg)
            # The filter (dedup) wall looks at the nearest stored memory that is not
            # this entry's own key: a key match is a conflict, settled below.
            near = [(m, sim) for m, sim in engine.nearest(vec, 2) if e.key is None or m.key != e.key]
            top1 = near[0][1] if near and not replace else 0.0
            walls = quality_walls(
                e.value,
                specificity=analysis.specificity,
                top1_similarity=top1,
                duplicate_similarity=cfg.duplicate_similarity,
            )
            score = walls.score if e.quality_score is None else min(walls.score, e.quality_score)
            if score < threshold:
                rejected.append(
                    RejectedItem(
                        index=e.index,
                        key=e.key,
                        reason=f"quality {score:.2f} below threshold {threshold:.2f}",
                    )
                )
                continue
            types = list(analysis.rule_types) or [t for t in [classify_by_prototype(vec, protos)] if t]
            provenance = {"pack": pack.name, "origin": origin, "source": e.source, "bridge_event": event_id}
            memory = memory_from_pack_entry(
                e,
                analysis,
                vec,
                types=types,
                walls=walls,
                provenance=provenance,
                event_id=event_id,
                now=now,
                config=cfg,
            )
            candidates.append((e, memory))
        counts = {"imported": 0, "skipped": 0, "conflicts": 0}
        written: builtins.list[str] = []

        def plan() -> Changes:
            storage = engine.storage
            changes = Changes(reload_index=True, other=True, written=True)
            before = {m.id for m in storage.list_memories(MemoryQuery(with_embedding=False))}
            if replace:
                storage.clear(keep_audit=True)
            by_key = storage.ids_by_key([m.key for _, m in candidates if m.key])
            taken = storage.existing_ids([m.id for _, m in candidates])
            for e, m in candidates:
                old_ids = by_key.get(m.key, []) if m.key else []
                old = storage.get_memory(old_ids[0]) if old_ids else None
                if old is None and m.id in taken:
                    old = storage.get_memory(m.id)
                if old is not None:
                    counts["conflicts"] += 1
                    if not self._wins(strategy, old.updated_at, m.updated_at):
                        rejected.append(RejectedItem(index=e.index, key=e.key, reason="kept existing memory"))
                        continue
                    m = m.replace(
                        id=old.id,
                        created_at=old.created_at,
                        source_conversation_ids=tuple(
                            dict.fromkeys((*old.source_conversation_ids, *m.source_conversation_ids))
                        ),
                    )
                    storage.update_memory(m)
                else:
                    storage.insert_memory(m)
                (changes.updated if m.id in before else changes.added).append(m)
                written.append(m.id)
            if replace:
                changes.deleted = sorted(before - set(written))
            counts["imported"] = len(written)
            counts["skipped"] = len(rejected)  # every entry not written has a reason
            storage.add_bridge_event(
                BridgeEvent(
                    id=event_id,
                    created_at=now,
                    format="memory-pack",
                    name=pack.name,
                    origin=origin,
                    imported=counts["imported"],
                    skipped=counts["skipped"],
                    conflicts=counts["conflicts"],
                    rejected=tuple(sorted(rejected, key=lambda r: r.index)),
                    memory_ids=tuple(written),
                )
            )
            return changes

        engine.commit(plan)
        return ImportResult(
            imported=counts["imported"],
            skipped=counts["skipped"],
            conflicts=counts["conflicts"],
            rejected=tuple(sorted(rejected, key=lambda r: r.index)),
            bridge_event_id=event_id,
        )

"""``memory.manage()``: the memory-panel API (PRD §8), sync and async.

Every query reads the store as it is now (including other processes'
commits).  Every mutation is one transaction: all of it is stored or none of
it, and the events (``memory_added``, ``memory_updated``, ``memory_deleted``,
``contradiction_detected``, then one ``stats_changed``) fire after the commit,
never for a change that rolled back.  Unknown ids raise
:class:`~lokulmem.MemoryNotFoundError` naming them; bulk operations change
nothing when any id is unknown (``MemoryNotFoundError.memory_ids`` lists them
all).
"""

from __future__ import annotations

import builtins
import datetime as dt
import json
import os
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from ._async import async_twin, same_thread
from ._engine.engine import Engine
from ._engine.facts import close_fact, frozen, memory_from_pack_entry
from ._engine.unit import Changes
from .contradiction import Candidate, judge
from .decay import strength
from .errors import ImportFormatError, MemoryNotFoundError, ValidationError
from .extraction import (
    analyze_text,
    classify_by_prototype,
    quality_walls,
    to_first_person,
)
from .records import (
    CONFIDENCES,
    MEMORY_STATUSES,
    BridgeEvent,
    ContradictionEvent,
    GroupedMemories,
    ImportResult,
    InjectionPreview,
    Lineage,
    Memory,
    MemoryStats,
    RejectedItem,
    TimelineDay,
    context_text,
)
from .storage import MemoryQuery
from .transfer import ExportDocument, ParsedPack, export_document, parse_document, to_markdown

__all__ = ["AsyncManager", "ConflictStrategy", "Manager", "OrderBy"]

T = TypeVar("T")
OrderBy = Literal["created_at", "last_accessed_at", "strength", "mention_count", "updated_at"]
ConflictStrategy = Literal["keep-existing", "use-imported", "keep-newer"]
_ORDER_BY = ("created_at", "last_accessed_at", "strength", "mention_count", "updated_at")
_STRATEGIES = ("keep-existing", "use-imported", "keep-newer")
#: Group names of ``get_grouped()`` for the default types.
_GROUP_FIELDS = {
    "identity": "identity",
    "location": "location",
    "profession": "profession",
    "preference": "preferences",
    "project": "projects",
    "temporal": "temporal",
    "relational": "relational",
    "emotional": "emotional",
}


# -- argument checks --------------------------------------------------------------
def _id(name: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise ValidationError(name, f"must be a non-empty string id, got {value!r}")
    return value


def _ids(name: str, values: object) -> list[str]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ValidationError(name, "must be a list of ids")
    out = [_id(f"{name}[{i}]", v) for i, v in enumerate(values)]
    return list(dict.fromkeys(out))


def _limit(name: str, value: object, *, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValidationError(name, f"must be an integer >= 0, got {value!r}")
    return value


def _time(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise ValidationError(name, "a datetime must be timezone-aware")
        return int(value.timestamp() * 1000)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValidationError(name, f"must be Unix milliseconds or an aware datetime, got {value!r}")
    return int(value)


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ValidationError(name, f"must be a string, got {type(value).__name__}")
    return value


class Manager:
    """The memory-panel API: queries, mutations, analytics, export/import, events.

    Obtained from :meth:`LokulMem.manage`.  Method names are the PRD's in
    snake_case; see ``docs/api.md`` for every contract.
    """

    def __init__(self, engine: Engine, *, store_name: str = "lokulmem_default") -> None:
        self._engine = engine
        self._store_name = store_name

    # -- helpers ------------------------------------------------------------------
    @property
    def _now(self) -> int:
        return self._engine.clock.now_ms()

    def _query(self, query: MemoryQuery) -> builtins.list[Memory]:
        with self._engine.reading():
            return self._engine.storage.list_memories(query)

    def _fresh(self, ids: Sequence[str]) -> builtins.list[Memory]:
        """Read ``ids`` from the store (inside a transaction: the truth), all or error."""
        found = self._engine.storage.get_memories(ids)
        if len(found) != len(ids):
            have = {m.id for m in found}
            missing = [i for i in ids if i not in have]
            raise MemoryNotFoundError(*missing)
        return found

    # -- queries ------------------------------------------------------------------
    def get(self, memory_id: str) -> Memory:
        """The memory with ``memory_id``; :class:`MemoryNotFoundError` if none."""
        return self._engine.get(_id("memory_id", memory_id))

    def list(
        self,
        *,
        types: str | Sequence[str] | None = None,
        status: str | None = None,
        min_strength: float | None = None,
        pinned: bool | None = None,
        since: int | dt.datetime | None = None,
        until: int | dt.datetime | None = None,
        limit: int | None = None,
        offset: int = 0,
        order_by: OrderBy = "created_at",
        direction: Literal["asc", "desc"] = "asc",
    ) -> builtins.list[Memory]:
        """Memories matching every given filter.

        ``types``: one type or several (a memory having any of them matches);
        ``status``: one of active/faded/superseded/archived (default: all);
        ``min_strength``: current (decayed) strength at least this;
        ``since``/``until``: ``created_at`` bounds, inclusive (Unix ms or an
        aware datetime); ``order_by`` ``created_at`` (default),
        ``last_accessed_at``, ``strength`` (current), ``mention_count`` or
        ``updated_at``; ``direction`` ``asc`` (default) or ``desc``; then
        ``offset`` and ``limit``.
        """
        if isinstance(types, str):
            types = (types,)
        if types is not None and (
            not isinstance(types, Sequence) or not all(isinstance(t, str) for t in types)
        ):
            raise ValidationError("types", "must be a type name or a list of type names")
        if status is not None and status not in MEMORY_STATUSES:
            raise ValidationError("status", f"unknown status {status!r} (use one of {list(MEMORY_STATUSES)})")
        if min_strength is not None and (
            not isinstance(min_strength, (int, float)) or isinstance(min_strength, bool) or min_strength < 0
        ):
            raise ValidationError("min_strength", f"must be a number >= 0, got {min_strength!r}")
        if pinned is not None and not isinstance(pinned, bool):
            raise ValidationError("pinned", "must be true, false or None")
        if order_by not in _ORDER_BY:
            raise ValidationError("order_by", f"unknown order {order_by!r} (use one of {list(_ORDER_BY)})")
        if direction not in ("asc", "desc"):
            raise ValidationError("direction", "must be 'asc' or 'desc'")
        lim = _limit("limit", limit, allow_none=True)
        off = _limit("offset", offset)
        assert off is not None
        in_python = order_by == "strength" or min_strength is not None
        query = MemoryQuery(
            types=tuple(types) if types is not None else None,
            status=status,
            pinned=pinned,
            since=_time("since", since),
            until=_time("until", until),
            order_by="created_at" if order_by == "strength" else order_by,
            descending=direction == "desc",
            limit=None if in_python else lim,
            offset=0 if in_python else off,
        )
        memories = self._query(query)
        if not in_python:
            return memories
        now, cfg = self._now, self._engine.config
        scored = [(strength(m, now, cfg), m) for m in memories]
        if min_strength is not None:
            scored = [(s, m) for s, m in scored if s >= min_strength]
        if order_by == "strength":
            scored.sort(key=lambda x: x[0], reverse=direction == "desc")
        out = [m for _, m in scored][off:]
        return out if lim is None else out[:lim]

    def get_by_conversation(self, conversation_id: str) -> builtins.list[Memory]:
        """Memories that conversation (session) ``conversation_id`` stated or restated, oldest first."""
        return self._query(MemoryQuery(conversation=_id("conversation_id", conversation_id)))

    def get_recent(self, limit: int = 10) -> builtins.list[Memory]:
        """Active memories, most recently accessed first."""
        lim = _limit("limit", limit)
        return self._query(
            MemoryQuery(status="active", order_by="last_accessed_at", descending=True, limit=lim)
        )

    def get_top(self, limit: int = 10) -> builtins.list[Memory]:
        """Active memories by current strength, strongest first (ties: most mentioned)."""
        lim = _limit("limit", limit)
        assert lim is not None
        now, cfg = self._now, self._engine.config
        memories = self._query(MemoryQuery(status="active"))
        memories.sort(key=lambda m: (-strength(m, now, cfg), -m.mention_count, m.created_at))
        return memories[:lim]

    def get_pinned(self) -> builtins.list[Memory]:
        """Active pinned memories, oldest first."""
        return self._query(MemoryQuery(status="active", pinned=True))

    def search(self, query: str, *, limit: int = 50, status: str | None = None) -> builtins.list[Memory]:
        """Full-text search over content (every word must match, as a prefix), best match first.

        Uses SQLite FTS5 (BM25 ranking) when the build has it, else ``LIKE``.
        Any status by default; pass ``status`` to restrict.
        """
        text = _text("query", query)
        lim = _limit("limit", limit)
        assert lim is not None
        if status is not None and status not in MEMORY_STATUSES:
            raise ValidationError("status", f"unknown status {status!r}")
        with self._engine.reading():
            ids = self._engine.storage.search_text(text, limit=lim if status is None else max(lim * 4, 200))
            found = self._engine.storage.get_memories(ids)
        if status is not None:
            found = [m for m in found if m.status == status]
        return found[:lim]

    def semantic_search(self, query: str, limit: int = 10) -> builtins.list[Memory]:
        """Active memories nearest in meaning to ``query`` (cosine), best first."""
        return [m for m, _ in self.semantic_search_scored(query, limit)]

    def semantic_search_scored(self, query: str, limit: int = 10) -> builtins.list[tuple[Memory, float]]:
        """Like :meth:`semantic_search`, with each memory's cosine similarity."""
        text = _text("query", query)
        lim = _limit("limit", limit)
        assert lim is not None
        if not text.strip() or lim == 0:
            return []
        vec = self._engine.embed([text[: self._engine.config.max_message_chars]])[0]
        return self._engine.nearest(vec, lim)

    def get_related(self, memory_id: str) -> builtins.list[Memory]:
        """First-degree knowledge-graph neighbours (strongest edge first).

        Edges are built by a later release (PRD v0.2); until then this is empty.
        """
        mid = _id("memory_id", memory_id)
        with self._engine.reading():
            self.get(mid)
            edges = self._engine.storage.edges_of(mid)
            other = [e.to_id if e.from_id == mid else e.from_id for e in edges]
            return self._engine.storage.get_memories(list(dict.fromkeys(other)))

    def get_timeline(self, *, status: str | None = None) -> builtins.list[TimelineDay]:
        """Memories grouped by UTC creation date, oldest day first."""
        if status is not None and status not in MEMORY_STATUSES:
            raise ValidationError("status", f"unknown status {status!r}")
        days: dict[str, builtins.list[Memory]] = {}
        for m in self._query(MemoryQuery(status=status)):
            day = dt.datetime.fromtimestamp(m.created_at / 1000, tz=dt.UTC).strftime("%Y-%m-%d")
            days.setdefault(day, []).append(m)
        return [TimelineDay(date=d, memories=tuple(ms)) for d, ms in days.items()]

    def get_grouped(self) -> GroupedMemories:
        """Active memories by type for display, plus pinned and the most recent."""
        active = self._query(MemoryQuery(status="active"))
        groups: dict[str, builtins.list[Memory]] = {f: [] for f in _GROUP_FIELDS.values()}
        custom: dict[str, builtins.list[Memory]] = {ct.name: [] for ct in self._engine.config.custom_types}
        for m in active:
            for t in dict.fromkeys(m.types):
                if t in _GROUP_FIELDS:
                    groups[_GROUP_FIELDS[t]].append(m)
                else:
                    custom.setdefault(t, []).append(m)
        recent = sorted(active, key=lambda m: (-m.created_at, m.id))[: self._engine.config.grouped_recent]
        return GroupedMemories(
            pinned=tuple(m for m in active if m.pinned),
            custom={k: tuple(v) for k, v in custom.items()},
            recent=tuple(recent),
            **{k: tuple(v) for k, v in groups.items()},
        )

    def get_lineage(self, memory_id: str) -> Lineage:
        """Sources, supersession links, temporal versions and reinforcement of one memory."""
        mid = _id("memory_id", memory_id)
        with self._engine.reading():
            storage = self._engine.storage
            memory = self.get(mid)
            supersedes_id = memory.metadata.get("supersedes")
            supersedes = storage.get_memory(supersedes_id) if isinstance(supersedes_id, str) else None
            if supersedes is None:
                earlier = [r for r in storage.referencing(mid) if r.supersession_type == "conflict"]
                supersedes = earlier[0] if earlier else None
            superseded_by = storage.get_memory(memory.superseded_by) if memory.superseded_by else None
            history = [memory]
            seen = {memory.id}
            cur = memory
            while cur.temporal_supersedes and cur.temporal_supersedes not in seen:  # walk back
                prev = storage.get_memory(cur.temporal_supersedes)
                if prev is None:
                    break
                history.insert(0, prev)
                seen.add(prev.id)
                cur = prev
            cur = memory
            while cur.supersession_type == "temporal" and cur.superseded_by and cur.superseded_by not in seen:
                nxt = storage.get_memory(cur.superseded_by)
                if nxt is None:
                    break
                history.append(nxt)
                seen.add(nxt.id)
                cur = nxt
        corrections = tuple(
            str(c.get("content", ""))
            for c in memory.metadata.get("corrections", [])
            if isinstance(c, Mapping)
        )
        return Lineage(
            memory=memory,
            source_conversations=tuple(dict.fromkeys((*memory.source_conversation_ids,))),
            supersedes=supersedes,
            superseded_by=superseded_by,
            temporal_history=tuple(history),
            reinforcement_count=memory.mention_count,
            corrections=corrections,
        )

    def get_injection_preview(
        self,
        user_message: str,
        *,
        types: Sequence[str] | None = None,
        max_memories: int | None = None,
        history: Sequence[Mapping[str, Any]] | None = None,
    ) -> InjectionPreview:
        """What ``augment(user_message, history)`` would inject now, and its token cost.

        Nothing is reinforced and nothing is written: the store is left byte
        for byte as it was.
        """
        result = self._engine.augment(
            user_message,
            history,
            types=types,
            max_memories=max_memories,
            debug=True,
            reinforce_injected=False,
        )
        assert result.debug is not None
        return InjectionPreview(
            would_inject=result.debug.injected,
            estimated_tokens=result.debug.tokens_used,
            context=result.context,
        )

    # -- mutations ----------------------------------------------------------------
    def update(
        self,
        memory_id: str,
        *,
        content: str | None = None,
        types: Sequence[str] | None = None,
        confidence: str | None = None,
    ) -> Memory:
        """Correct a memory.  Returns the updated record.

        A new ``content`` is re-embedded and, for a current fact, re-checked
        for contradictions: an active fact it conflicts with is superseded by this one (the
        user's correction wins), or closed with ``valid_to`` when the new
        text carries a temporal marker; the earlier content is kept in
        ``metadata["corrections"]`` and shown by :meth:`get_lineage`.
        ``types`` must be known type names; ``confidence`` high/medium/low.
        """
        mid = _id("memory_id", memory_id)
        cfg = self._engine.config
        if content is None and types is None and confidence is None:
            raise ValidationError("patch", "give at least one of content, types, confidence")
        if content is not None:
            content = _text("content", content).strip()
            if not content:
                raise ValidationError("content", "must not be empty")
            if len(content) > cfg.max_sentence_chars:
                raise ValidationError(
                    "content", f"is longer than max_sentence_chars={cfg.max_sentence_chars}"
                )
        new_types: tuple[str, ...] | None = None
        if types is not None:
            if isinstance(types, str) or not all(isinstance(t, str) for t in types):
                raise ValidationError("types", "must be a list of type names")
            unknown = [t for t in types if t not in cfg.type_names]
            if unknown:
                raise ValidationError("types", f"unknown type {unknown[0]!r} (known: {list(cfg.type_names)})")
            if not types:
                raise ValidationError("types", "must not be empty")
            new_types = tuple(dict.fromkeys(types))
        if confidence is not None and confidence not in CONFIDENCES:
            raise ValidationError("confidence", f"must be one of {list(CONFIDENCES)}, got {confidence!r}")
        current = self.get(mid)
        vec = None
        analysis = None
        candidates: builtins.list[Candidate] = []
        if content is not None and content != current.content:
            analysis = analyze_text(to_first_person(content, cfg.user_label), cfg)
            vec = frozen(self._engine.embed([content])[0])
            # Only a current fact is checked: correcting a past one (closed or
            # superseded) must not close the fact that replaced it.
            if current.status == "active" and current.valid_to is None:
                candidates = [
                    c
                    for c in self._engine.contradiction_candidates(vec, analysis.attribute)
                    if c.memory.id != mid
                ]

        def plan() -> Changes:
            now = self._now
            (m,) = self._fresh([mid])
            changes = Changes()
            patch: dict[str, Any] = {"updated_at": now}
            if new_types is not None:
                patch["types"] = new_types
            if confidence is not None:
                patch["confidence"] = confidence
            if analysis is not None and vec is not None and content is not None:
                corrections = [*m.metadata.get("corrections", []), {"content": m.content, "at": now}]
                metadata = {**m.metadata, "corrections": corrections}
                attr = analysis.attribute
                metadata["attribute_negated"] = attr.negated if attr else False
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
                        duplicate_similarity=self._engine.config.duplicate_similarity,
                    ),
                    metadata=metadata,
                )
                updated = m.replace(**patch)
                fresh = {
                    o.id: o for o in self._engine.storage.get_memories([c.memory.id for c in candidates])
                }
                verdict = judge(
                    sentence=content,
                    content=content,
                    attribute=attr,
                    candidates=[
                        Candidate(fresh[c.memory.id], c.similarity)
                        for c in candidates
                        if c.memory.id in fresh
                    ],
                    config=cfg,
                )
                if verdict is not None and verdict.kind in ("conflict", "temporal-coexistence"):
                    closure = close_fact(verdict.existing, updated, verdict, now)
                    updated = closure.incoming
                    changes.updated.append(closure.closed)
                    changes.contradictions.append(closure.event)
            else:
                updated = m.replace(**patch)
            changes.updated.insert(0, updated)
            return changes

        return self._engine.commit(plan).updated[0]

    def _set_many(
        self, ids: Sequence[str], change: Callable[[Memory, int], Memory | None]
    ) -> builtins.list[Memory]:
        def plan() -> Changes:
            now = self._now
            out = Changes()
            for m in self._fresh(ids):
                new = change(m, now)
                if new is not None:
                    out.updated.append(new)
            return out

        return self._engine.commit(plan).updated

    @staticmethod
    def _pinned(value: bool) -> Callable[[Memory, int], Memory | None]:
        return lambda m, now: None if m.pinned == value else m.replace(pinned=value, updated_at=now)

    @staticmethod
    def _archive(m: Memory, now: int) -> Memory | None:
        if m.status == "archived":
            return None
        return m.replace(
            status="archived", updated_at=now, metadata={**m.metadata, "archived_from": m.status}
        )

    @staticmethod
    def _unarchive(m: Memory, now: int) -> Memory | None:
        if m.status != "archived":
            return None
        metadata = dict(m.metadata)
        before = metadata.pop("archived_from", "active")
        status = before if before in MEMORY_STATUSES and before != "archived" else "active"
        return m.replace(status=status, updated_at=now, metadata=metadata)

    def _one(self, memory_id: str, change: Callable[[Memory, int], Memory | None]) -> Memory:
        mid = _id("memory_id", memory_id)
        changed = self._set_many([mid], change)
        return changed[0] if changed else self.get(mid)

    def pin(self, memory_id: str) -> Memory:
        """Pin: never decays (λ = 0), injected first, marked 📌."""
        return self._one(memory_id, self._pinned(True))

    def unpin(self, memory_id: str) -> Memory:
        return self._one(memory_id, self._pinned(False))

    def archive(self, memory_id: str) -> Memory:
        """Soft delete: kept with its history, excluded from retrieval; :meth:`unarchive` restores."""
        return self._one(memory_id, self._archive)

    def unarchive(self, memory_id: str) -> Memory:
        """Restore an archived memory to the status it had before (a no-op otherwise)."""
        return self._one(memory_id, self._unarchive)

    def delete(self, memory_id: str) -> None:
        """Delete permanently (with its edges and cluster membership)."""
        self.delete_many([_id("memory_id", memory_id)])

    def delete_many(self, memory_ids: Sequence[str]) -> int:
        """Delete every id permanently, in one transaction; returns how many."""
        ids = _ids("memory_ids", memory_ids)

        def plan() -> Changes:
            self._fresh(ids)
            return Changes(deleted=ids)

        return len(self._engine.commit(plan).deleted)

    def archive_many(self, memory_ids: Sequence[str]) -> int:
        """Archive every id in one transaction; returns how many changed."""
        return len(self._set_many(_ids("memory_ids", memory_ids), self._archive))

    def unarchive_many(self, memory_ids: Sequence[str]) -> int:
        return len(self._set_many(_ids("memory_ids", memory_ids), self._unarchive))

    def pin_many(self, memory_ids: Sequence[str]) -> int:
        """Pin every id in one transaction; returns how many changed."""
        return len(self._set_many(_ids("memory_ids", memory_ids), self._pinned(True)))

    def unpin_many(self, memory_ids: Sequence[str]) -> int:
        return len(self._set_many(_ids("memory_ids", memory_ids), self._pinned(False)))

    def clear(self) -> None:
        """Delete every memory, episode, edge, cluster and import record (full reset)."""

        def plan() -> Changes:
            ids = [m.id for m in self._engine.storage.list_memories(MemoryQuery(with_embedding=False))]
            self._engine.storage.clear()
            return Changes(deleted=ids, reload_index=True, other=True)

        self._engine.commit(plan)

    # -- analytics ----------------------------------------------------------------
    def stats(self) -> MemoryStats:
        """Counts, distributions and highlights (PRD ``MemoryStats``)."""
        return self._engine.stats()

    # -- export / import ------------------------------------------------------------
    def export(self, *, include_embeddings: bool = True) -> dict[str, Any]:
        """The whole store as a versioned JSON-ready document (see :mod:`lokulmem.transfer`).

        ``json.dumps`` it to save; :meth:`import_data` reads it back losslessly.
        """
        engine = self._engine
        with engine.reading():
            storage = engine.storage
            return export_document(
                memories=storage.all_memories(),
                episodes=storage.all_episodes(),
                clusters=storage.all_clusters(),
                edges=storage.all_edges(),
                store_name=self._store_name,
                exported_at=self._now,
                embedding_model=storage.get_meta("embedding_model"),
                embedding_dimension=engine.embedder.dimension,
                include_embeddings=include_embeddings,
            )

    def export_to_markdown(self) -> str:
        """A human-readable, one-way Markdown summary (PRD format)."""
        with self._engine.reading():
            memories = self._engine.storage.all_memories()
        return to_markdown(memories, self._engine.config, now_ms=self._now)

    def get_bridge_events(self) -> builtins.list[BridgeEvent]:
        """The stored audit record of every import, newest first."""
        with self._engine.reading():
            return self._engine.storage.bridge_events()

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

    # -- events -------------------------------------------------------------------
    def on_memory_added(self, callback: Callable[[Memory], object]) -> Callable[[], None]:
        """Subscribe; returns the unsubscribe callable."""
        return self._engine.events.subscribe("memory_added", callback)

    def on_memory_updated(self, callback: Callable[[Memory], object]) -> Callable[[], None]:
        return self._engine.events.subscribe("memory_updated", callback)

    def on_memory_deleted(self, callback: Callable[[str], object]) -> Callable[[], None]:
        return self._engine.events.subscribe("memory_deleted", callback)

    def on_memory_faded(self, callback: Callable[[Memory], object]) -> Callable[[], None]:
        return self._engine.events.subscribe("memory_faded", callback)

    def on_contradiction_detected(
        self, callback: Callable[[ContradictionEvent], object]
    ) -> Callable[[], None]:
        return self._engine.events.subscribe("contradiction_detected", callback)

    def on_stats_changed(self, callback: Callable[[MemoryStats], object]) -> Callable[[], None]:
        """Fresh :class:`MemoryStats` after every committed change (computed only while subscribed)."""
        return self._engine.events.subscribe("stats_changed", callback)


class AsyncManager:
    """Async twin of :class:`Manager`: the same methods, awaitable.

    Each call runs on the client's worker thread, so the event loop never
    waits on SQLite or the model.  Subscriptions (``on_*``) are synchronous:
    they only register a callback.
    """

    def __init__(self, manager: Manager, run: Callable[..., Awaitable[Any]]) -> None:
        self._sync = manager
        self._runner = run

    def _run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Awaitable[T]:
        return self._runner(fn, *args, **kwargs)

    get = async_twin(Manager.get)
    list = async_twin(Manager.list)
    get_by_conversation = async_twin(Manager.get_by_conversation)
    get_recent = async_twin(Manager.get_recent)
    get_top = async_twin(Manager.get_top)
    get_pinned = async_twin(Manager.get_pinned)
    search = async_twin(Manager.search)
    semantic_search = async_twin(Manager.semantic_search)
    semantic_search_scored = async_twin(Manager.semantic_search_scored)
    get_related = async_twin(Manager.get_related)
    get_timeline = async_twin(Manager.get_timeline)
    get_grouped = async_twin(Manager.get_grouped)
    get_lineage = async_twin(Manager.get_lineage)
    get_injection_preview = async_twin(Manager.get_injection_preview)
    update = async_twin(Manager.update)
    pin = async_twin(Manager.pin)
    unpin = async_twin(Manager.unpin)
    archive = async_twin(Manager.archive)
    unarchive = async_twin(Manager.unarchive)
    delete = async_twin(Manager.delete)
    delete_many = async_twin(Manager.delete_many)
    archive_many = async_twin(Manager.archive_many)
    unarchive_many = async_twin(Manager.unarchive_many)
    pin_many = async_twin(Manager.pin_many)
    unpin_many = async_twin(Manager.unpin_many)
    clear = async_twin(Manager.clear)
    stats = async_twin(Manager.stats)
    export = async_twin(Manager.export)
    export_to_markdown = async_twin(Manager.export_to_markdown)
    get_bridge_events = async_twin(Manager.get_bridge_events)
    import_data = async_twin(Manager.import_data)
    on_memory_added = same_thread(Manager.on_memory_added)
    on_memory_updated = same_thread(Manager.on_memory_updated)
    on_memory_deleted = same_thread(Manager.on_memory_deleted)
    on_memory_faded = same_thread(Manager.on_memory_faded)
    on_contradiction_detected = same_thread(Manager.on_contradiction_detected)
    on_stats_changed = same_thread(Manager.on_stats_changed)

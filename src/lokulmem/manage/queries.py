"""``manage()`` reads: listing, search, lineage, previews, analytics, export."""

from __future__ import annotations

import builtins
import datetime as dt
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .._engine.pool import upcoming_events
from ..decay import strength
from ..errors import ValidationError
from ..hygiene import is_clean
from ..records import (
    MEMORY_STATUSES,
    BridgeEvent,
    GroupedMemories,
    InjectionPreview,
    Lineage,
    Memory,
    MemoryStats,
    TimelineDay,
    UpcomingMemory,
)
from ..storage import MemoryQuery
from ..transfer import export_document, to_markdown
from ._base import (
    _GROUP_FIELDS,
    _ORDER_BY,
    OrderBy,
    PanelBase,
    _limit,
    _text,
    _time,
)

__all__ = ["Queries"]

#: Distinct type names one ``list(types=...)`` may ask for (a store defines far fewer).
_MAX_TYPE_NAMES = 256
#: Longest look-ahead of ``get_upcoming`` (a century; nan, inf and more are refused).
_MAX_WINDOW_DAYS = 36_500


class Queries(PanelBase):
    """Reads: listing, search, lineage, previews, analytics, export."""

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
        query, in_python, lim, off = _list_query(
            types, status, min_strength, pinned, since, until, limit, offset, order_by, direction
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
        return self._query(MemoryQuery(conversation=self._id("conversation_id", conversation_id)))

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

        The first ``Config.max_query_terms`` distinct words of ``query`` are used, so
        the time stays linear in the query's length.  Uses SQLite FTS5 (BM25
        ranking) when the build has it, else ``LIKE``.
        Any status by default; pass ``status`` to restrict.
        """
        text = _text("query", query, self._engine.config.max_message_chars)
        lim = _limit("limit", limit)
        assert lim is not None
        if status is not None and status not in MEMORY_STATUSES:
            raise ValidationError("status", f"unknown status {status!r}")
        with self._engine.reading():
            cfg = self._engine.config
            ids = self._engine.storage.search_text(
                text, limit=lim if status is None else max(lim * 4, 200), max_terms=cfg.max_query_terms
            )
            found = self._engine.storage.get_memories(ids)
        if status is not None:
            found = [m for m in found if m.status == status]
        return found[:lim]

    def semantic_search(self, query: str, limit: int = 10) -> builtins.list[Memory]:
        """Active memories nearest in meaning to ``query`` (cosine), best first."""
        return [m for m, _ in self.semantic_search_scored(query, limit)]

    def semantic_search_scored(self, query: str, limit: int = 10) -> builtins.list[tuple[Memory, float]]:
        """Like :meth:`semantic_search`, with each memory's cosine similarity."""
        text = _text("query", query, self._engine.config.max_message_chars)
        lim = _limit("limit", limit)
        assert lim is not None
        if not text.strip() or lim == 0:
            return []
        vec = self._engine.embed([text[: self._engine.config.max_message_chars]])[0]
        return self._engine.nearest(vec, lim)

    def get_related(self, memory_id: str) -> builtins.list[Memory]:
        """First-degree knowledge-graph neighbours (strongest edge first): the
        memories ``learn()`` linked to this one (nearest facts, shared entities,
        the same message), reweighed by the clustering pass."""
        mid = self._id("memory_id", memory_id)
        with self._engine.reading():
            self.get(mid)
            edges = self._engine.storage.edges_of(mid)
            other = [e.to_id if e.from_id == mid else e.from_id for e in edges]
            return self._engine.storage.get_memories(list(dict.fromkeys(other)))

    def get_upcoming(self, *, within_days: float | None = None) -> builtins.list[UpcomingMemory]:
        """Memories of events ahead (not yet ended, starting within ``within_days``,
        default ``proactive_window_days``), soonest first, each with its temporal
        urgency and push score (``lokulmem.proactive``)."""
        if within_days is None:
            days = self._engine.config.proactive_window_days
        elif (
            isinstance(within_days, bool)
            or not isinstance(within_days, (int, float))
            or not 0 <= within_days <= _MAX_WINDOW_DAYS
        ):
            raise ValidationError("within_days", f"must be a number in [0, {_MAX_WINDOW_DAYS:,}]")
        else:
            days = float(within_days)
        with self._engine.reading():
            return upcoming_events(self._engine, self._engine.clock.now_ms(), days)

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
        mid = self._id("memory_id", memory_id)
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
            merged_ids = memory.metadata.get("merged_from", [])
            merged = storage.get_memories([i for i in merged_ids if isinstance(i, str)])
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
            merged_from=tuple(merged),
        )

    def get_injection_preview(
        self,
        user_message: str,
        *,
        types: Sequence[str] | None = None,
        max_memories: int | None = None,
        history: Sequence[Mapping[str, Any]] | None = None,
        require_evidence: bool | None = None,
        include_proactive: bool | None = None,
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
            require_evidence=require_evidence,
            include_proactive=include_proactive,
        )
        assert result.debug is not None
        return InjectionPreview(
            would_inject=result.debug.injected,
            estimated_tokens=result.debug.tokens_used,
            context=result.context,
            evidence=result.debug.evidence,
        )

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


def _list_query(
    types: object,
    status: object,
    min_strength: object,
    pinned: object,
    since: object,
    until: object,
    limit: object,
    offset: object,
    order_by: object,
    direction: object,
) -> tuple[MemoryQuery, bool, int | None, int]:
    """The store query of ``list()`` (arguments checked, typed errors naming them),
    whether strength (current, decayed) must be filtered or sorted in Python, and
    the limit and offset to apply there."""
    if isinstance(types, str):
        types = (types,)
    if types is not None:
        if not isinstance(types, Sequence) or not all(isinstance(t, str) for t in types):
            raise ValidationError("types", "must be a type name or a list of type names")
        types = tuple(dict.fromkeys(types))
        if len(types) > _MAX_TYPE_NAMES:
            raise ValidationError("types", f"{len(types):,} distinct names; at most {_MAX_TYPE_NAMES}")
        types = tuple(t for t in types if is_clean(t))  # a name no type can have matches nothing
    if status is not None and status not in MEMORY_STATUSES:
        raise ValidationError("status", f"unknown status {status!r} (use one of {list(MEMORY_STATUSES)})")
    if min_strength is not None and (
        not isinstance(min_strength, (int, float))
        or isinstance(min_strength, bool)
        or not 0 <= min_strength < math.inf
    ):
        raise ValidationError("min_strength", f"must be a number >= 0, got {min_strength!r}")
    if pinned is not None and not isinstance(pinned, bool):
        raise ValidationError("pinned", "must be true, false or None")
    if order_by not in _ORDER_BY:
        raise ValidationError("order_by", f"unknown order {order_by!r} (use one of {list(_ORDER_BY)})")
    if direction not in ("asc", "desc"):
        raise ValidationError("direction", "must be 'asc' or 'desc'")
    lim = _limit("limit", limit, allow_none=True)
    off = _limit("offset", offset) or 0
    in_python = order_by == "strength" or min_strength is not None
    query = MemoryQuery(
        types=tuple(types) if types is not None else None,
        status=status,
        pinned=pinned,
        since=_time("since", since),
        until=_time("until", until),
        order_by="created_at" if order_by == "strength" else order_by,  # type: ignore[arg-type]  # checked above
        descending=direction == "desc",
        limit=None if in_python else lim,
        offset=0 if in_python else off,
    )
    return query, in_python, lim, off

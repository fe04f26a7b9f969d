"""``manage()`` corrections and bulk operations."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence

from .._engine.facts import Correction, correct, frozen
from .._engine.unit import Changes
from ..config import Config
from ..contradiction import Candidate
from ..errors import ValidationError
from ..extraction import (
    analyze_text,
    to_first_person,
)
from ..records import (
    CONFIDENCES,
    MEMORY_STATUSES,
    Memory,
)
from ..storage import MemoryQuery
from ._base import (
    PanelBase,
    _text,
)

__all__ = ["Mutations"]


class Mutations(PanelBase):
    """Corrections and bulk operations, each one unit of work."""

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
        mid = self._id("memory_id", memory_id)
        cfg = self._engine.config
        change = _correction(cfg, content, types, confidence)
        current = self.get(mid)
        vec = None
        analysis = None
        candidates: builtins.list[Candidate] = []
        if change.content is not None and change.content != current.content:
            analysis = analyze_text(to_first_person(change.content, cfg.user_label), cfg)
            vec = frozen(self._engine.embed([change.content])[0])
            # Only a current fact is checked: correcting a past one (closed or
            # superseded) must not close the fact that replaced it.
            if current.status == "active" and current.valid_to is None:
                candidates = [
                    c
                    for c in self._engine.contradiction_candidates(vec, analysis.attribute)
                    if c.memory.id != mid
                ]

        def plan() -> Changes:
            (m,) = self._fresh([mid])
            # The candidates as they are now, inside the transaction.
            fresh = {o.id: o for o in self._engine.storage.get_memories([c.memory.id for c in candidates])}
            now_candidates = [
                Candidate(fresh[c.memory.id], c.similarity) for c in candidates if c.memory.id in fresh
            ]
            updated, closure = correct(
                m,
                change,
                analysis=analysis,
                vec=vec,
                candidates=now_candidates,
                now=self._now,
                config=cfg,
            )
            if closure is None:
                return Changes(updated=[updated])
            return Changes(updated=[updated, closure.closed], contradictions=[closure.event])

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
        mid = self._id("memory_id", memory_id)
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
        self.delete_many([self._id("memory_id", memory_id)])

    def delete_many(self, memory_ids: Sequence[str]) -> int:
        """Delete every id permanently, in one transaction; returns how many."""
        ids = self._ids("memory_ids", memory_ids)

        def plan() -> Changes:
            self._fresh(ids)
            return Changes(deleted=ids)

        return len(self._engine.commit(plan).deleted)

    def archive_many(self, memory_ids: Sequence[str]) -> int:
        """Archive every id in one transaction; returns how many changed."""
        return len(self._set_many(self._ids("memory_ids", memory_ids), self._archive))

    def unarchive_many(self, memory_ids: Sequence[str]) -> int:
        return len(self._set_many(self._ids("memory_ids", memory_ids), self._unarchive))

    def pin_many(self, memory_ids: Sequence[str]) -> int:
        """Pin every id in one transaction; returns how many changed."""
        return len(self._set_many(self._ids("memory_ids", memory_ids), self._pinned(True)))

    def unpin_many(self, memory_ids: Sequence[str]) -> int:
        return len(self._set_many(self._ids("memory_ids", memory_ids), self._pinned(False)))

    def clear(self) -> None:
        """Delete every memory, episode, edge, cluster and import record (full reset)."""

        def plan() -> Changes:
            ids = [m.id for m in self._engine.storage.list_memories(MemoryQuery(with_embedding=False))]
            self._engine.storage.clear()
            return Changes(deleted=ids, reload_index=True, other=True)

        self._engine.commit(plan)


def _correction(config: Config, content: object, types: object, confidence: object) -> Correction:
    """Validated arguments of ``update()``: typed errors naming the argument."""
    if content is None and types is None and confidence is None:
        raise ValidationError("patch", "give at least one of content, types, confidence")
    text: str | None = None
    if content is not None:
        text = _text("content", content).strip()
        if not text:
            raise ValidationError("content", "must not be empty")
        if len(text) > config.max_sentence_chars:
            raise ValidationError("content", f"is longer than max_sentence_chars={config.max_sentence_chars}")
    new_types: tuple[str, ...] | None = None
    if types is not None:
        if (
            isinstance(types, str)
            or not isinstance(types, Sequence)
            or not all(isinstance(t, str) for t in types)
        ):
            raise ValidationError("types", "must be a list of type names")
        types = tuple(dict.fromkeys(types))
        known = set(config.type_names)
        unknown = [t for t in types if t not in known]
        if unknown:
            raise ValidationError("types", f"unknown type {unknown[0]!r} (known: {list(config.type_names)})")
        if not types:
            raise ValidationError("types", "must not be empty")
        new_types = tuple(dict.fromkeys(types))
    if confidence is not None and confidence not in CONFIDENCES:
        raise ValidationError("confidence", f"must be one of {list(CONFIDENCES)}, got {confidence!r}")
    return Correction(content=text, types=new_types, confidence=confidence)

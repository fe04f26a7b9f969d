"""``manage()`` duplicate finding and merging (PRD v0.2 ``find_similar_facts``)."""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence

from .._engine.facts import frozen, merge_facts
from .._engine.unit import Changes
from ..errors import ValidationError
from ..extraction import analyze_text, to_first_person
from ..records import Memory, SimilarFacts
from ._base import PanelBase, _limit, _text

__all__ = ["Merging"]

#: Each memory's nearest neighbours looked at for a duplicate pair.
SIMILAR_NEIGHBOURS = 10


class Merging(PanelBase):
    """Candidate duplicates for a panel to offer, and the merge that keeps lineage."""

    def find_similar_facts(self, threshold: float = 0.9, *, limit: int = 100) -> builtins.list[SimilarFacts]:
        """Pairs of active memories at least ``threshold`` similar (cosine), most
        similar first, at most ``limit``.

        Found through the vector index (each memory's ``SIMILAR_NEIGHBOURS``
        nearest: a k-nearest-neighbour self-join, never a Python loop over all
        pairs).  Offer them to the user; :meth:`merge` folds a pair (or more)
        into one memory.
        """
        if isinstance(threshold, bool) or not isinstance(threshold, int | float):
            raise ValidationError("threshold", f"must be a number in [0, 1], got {threshold!r}")
        if not math.isfinite(threshold) or not 0.0 <= threshold <= 1.0:
            raise ValidationError("threshold", f"must be in [0, 1], got {threshold!r}")
        lim = _limit("limit", limit)
        assert lim is not None
        with self._engine.reading():
            pairs = self._engine.index.close_pairs(float(threshold), SIMILAR_NEIGHBOURS)[:lim]
            ids = list(dict.fromkeys(i for p in pairs for i in p[:2]))
            found = {m.id: m for m in self._engine.storage.get_memories(ids)}
        return [
            SimilarFacts(first=found[a], second=found[b], similarity=s)
            for a, b, s in pairs
            if a in found and b in found
        ]

    def merge(self, memory_ids: Sequence[str], *, content: str | None = None) -> Memory:
        """Fold two or more active memories into one (one transaction); returns it.

        ``content`` is the merged fact's text (default: the first memory's).
        The merged memory keeps the union of types, entities and
        conversations, the summed restatements and the strongest confidence;
        the originals become ``superseded`` (``supersession_type="merge"``),
        kept with their lineage (``get_lineage(new).merged_from``).  Events:
        ``memory_added`` for the new one, ``memory_updated`` for each original.
        """
        ids = self._ids("memory_ids", memory_ids)
        if len(ids) < 2:
            raise ValidationError("memory_ids", "merge needs at least two distinct ids")
        cfg = self._engine.config
        first = self.get(ids[0])
        text = first.content if content is None else _text("content", content).strip()
        if not text:
            raise ValidationError("content", "must not be empty")
        if len(text) > cfg.max_message_chars:
            raise ValidationError("content", f"longer than max_message_chars ({cfg.max_message_chars})")
        analysis = analyze_text(to_first_person(text, cfg.user_label), cfg)
        vec = frozen(self._engine.embed([text])[0])

        def plan() -> Changes:
            order = {mid: i for i, mid in enumerate(ids)}
            memories = sorted(self._fresh(ids), key=lambda m: order[m.id])
            for i, m in enumerate(memories):
                if m.status != "active" or m.valid_to is not None:
                    raise ValidationError(f"memory_ids[{i}]", f"{m.id} is {m.status}, not a current fact")
            merged, closed = merge_facts(
                memories, content=text, vec=vec, attribute=analysis.attribute, now=self._now
            )
            return Changes(added=[merged], updated=closed)

        return self._engine.commit(plan).added[0]

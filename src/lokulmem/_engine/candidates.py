"""Stage-1 contradiction candidates (PRD §6): the I/O that ``learn()`` and ``update()``
do before the pure verdict (:func:`lokulmem.contradiction.judge`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..extraction.attributes import Attribute, slot_keys
from ..index.brute import SearchHit
from ..records import Memory

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["nearest_among", "stage1"]

Vector = npt.NDArray[np.float32]


def stage1(
    engine: Engine,
    vec: Vector,
    attribute: Attribute | None,
    hits: Sequence[SearchHit] | None = None,
    names: Sequence[str] = (),
) -> tuple[dict[str, Memory], dict[str, float]]:
    """Contradiction candidates: the nearest stored facts (``hits``, when the caller
    has searched already), the nearest ones in the same slot, and the newest
    that mention one of ``names`` (what the fact says ended: stage 1e), with
    their cosines.  The caller holds the lock."""
    cfg, index = engine.config, engine.index
    if hits is None:
        hits = index.search(vec, cfg.contradiction_candidates)
    sims: dict[str, float] = {h.id: h.similarity for h in hits}
    mems: dict[str, Memory] = {m.id: m for m in engine.fetch_cached(list(sims))}
    keys = slot_keys(attribute)
    if keys:
        # Only the nearest same-attribute facts are read in full: a store may
        # hold hundreds of "sister.residence" facts.
        found = dict.fromkeys(i for k in keys for i in engine.storage.ids_by_attribute(k))
        same_ids = [i for i in found if i not in mems and i in index]
        ranked = nearest_among(engine, vec, same_ids, cfg.contradiction_candidates)
        for m in engine.fetch_cached([i for i, _ in ranked]):
            mems[m.id] = m
        sims.update(ranked)
    for name in names:
        named = engine.storage.entity_mentions(name, limit=cfg.contradiction_candidates)
        named = [i for i in named if i not in mems and i in index]
        sims.update(zip(named, index.similarities(vec, named), strict=True))
        mems.update((m.id, m) for m in engine.fetch_cached(named))
    return mems, sims


def nearest_among(engine: Engine, vec: Vector, ids: Sequence[str], k: int) -> list[tuple[str, float]]:
    """The ``k`` of ``ids`` (searchable ones) nearest ``vec``, with their cosines, nearest first."""
    ranked = sorted(zip(ids, engine.index.similarities(vec, ids), strict=True), key=lambda x: -x[1])
    return ranked[:k]

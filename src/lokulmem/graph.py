"""The knowledge graph (PRD §10.4): which memories are linked, and how strongly.  Pure.

Two memories are linked when their sentences' cosine exceeds
``Config.edge_similarity`` (0.70) or when they name the same entity (a
person, place or organisation).  The weight is the cosine, at least
``Config.edge_entity_weight`` for a shared entity.  :func:`plan_edges` links
a new memory to its nearest neighbours (at most ``max_edges_per_memory``,
strongest first); the clustering pass re-weighs every edge and drops those
whose memories are no longer active (:func:`refresh_edges`); deleting a
memory deletes its edges (storage).  Recall gives the first-degree
neighbours of its best results ``Config.graph_bonus`` (:func:`neighbours`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from .config import Config
from .records import Edge, Memory

__all__ = ["edge_id", "neighbours", "plan_edges", "refresh_edges", "shared_entities"]


def edge_id(a: str, b: str) -> str:
    """One id per pair of memories, whichever way round."""
    lo, hi = sorted((a, b))
    return f"edge:{lo}:{hi}"


def shared_entities(a: Memory, b: Memory) -> tuple[str, ...]:
    """Entities (case-insensitive) both memories name, in ``a``'s order."""
    theirs = {e.lower() for e in b.entities}
    return tuple(e for e in dict.fromkeys(a.entities) if e.lower() in theirs)


def _weight(cosine: float, shared: Sequence[str], config: Config) -> float:
    if shared:
        return max(cosine, config.edge_entity_weight)
    return cosine if cosine > config.edge_similarity else 0.0


def plan_edges(
    memory: Memory, candidates: Iterable[tuple[Memory, float]], now_ms: int, config: Config
) -> list[Edge]:
    """The edges linking ``memory`` to ``candidates`` (other memories with their
    cosine to it), strongest first, at most ``max_edges_per_memory``."""
    found: list[Edge] = []
    for other, cosine in candidates:
        if other.id == memory.id or other.status != "active":
            continue
        shared = shared_entities(memory, other)
        weight = _weight(cosine, shared, config)
        if weight <= 0:
            continue
        found.append(
            Edge(
                id=edge_id(memory.id, other.id),
                from_id=memory.id,
                to_id=other.id,
                weight=round(min(1.0, weight), 6),
                shared_entities=shared,
                created_at=now_ms,
                last_updated=now_ms,
            )
        )
    found.sort(key=lambda e: (-e.weight, e.to_id))
    return found[: config.max_edges_per_memory]


def refresh_edges(
    edges: Iterable[Edge], memories: Mapping[str, Memory], now_ms: int, config: Config
) -> tuple[list[Edge], list[str]]:
    """(edges re-weighed from the current vectors and entities, ids of edges to
    delete): an edge goes when either memory is gone or no longer active, or
    the two no longer qualify."""
    keep: list[Edge] = []
    drop: list[str] = []
    for e in edges:
        a, b = memories.get(e.from_id), memories.get(e.to_id)
        if a is None or b is None or a.status != "active" or b.status != "active":
            drop.append(e.id)
            continue
        va, vb = a.embedding, b.embedding
        cosine = float(va @ vb) if va is not None and vb is not None else 0.0
        shared = shared_entities(a, b)
        weight = round(min(1.0, _weight(cosine, shared, config)), 6)
        if weight <= 0:
            drop.append(e.id)
        elif weight != e.weight or shared != e.shared_entities:
            keep.append(dataclasses.replace(e, weight=weight, shared_entities=shared, last_updated=now_ms))
    return keep, drop


def neighbours(seeds: Sequence[str], edges: Iterable[Edge]) -> dict[str, tuple[str, float]]:
    """neighbour id → (the seed it is linked to, the edge weight), the strongest
    link of each, seeds themselves excluded."""
    seed_set = set(seeds)
    out: dict[str, tuple[str, float]] = {}
    for e in edges:
        for seed, other in ((e.from_id, e.to_id), (e.to_id, e.from_id)):
            stronger = other not in out or e.weight > out[other][1]
            if seed in seed_set and other not in seed_set and stronger:
                out[other] = (seed, e.weight)
    return out

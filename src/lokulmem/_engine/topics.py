"""Which candidates with no attribute speak of the attribute a question asks for
(:mod:`lokulmem.retrieval.topics`): read at recall from the stored content
vectors, against example statements embedded once per model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..retrieval.routing import ROUTES, routed_attributes
from ..retrieval.topics import example_statements
from .examples import example_vectors_of

if TYPE_CHECKING:
    from ..embedding import Embedder
    from ..records import Memory, QueryAnalysis
    from ..retrieval.stages import Pool
    from .engine import Engine

__all__ = ["asked_note", "statement_vectors", "topic_hints", "topic_search"]


def statement_vectors(embedder: Embedder) -> npt.NDArray[np.float32]:
    """The example statements' unit vectors (in
    :func:`~lokulmem.retrieval.topics.example_statements` order), embedded on
    first use and cached while the model lives."""
    return example_vectors_of(embedder, "statements", lambda: example_statements()[0])


def _since(memories: Sequence[Memory], asked: Sequence[str]) -> int | None:
    """When the newest of ``memories`` that sets one of ``asked`` was learned."""
    wanted = set(asked)
    return max((m.created_at for m in memories if m.attribute in wanted), default=None)


def topic_search(engine: Engine, memories: Sequence[Memory], asked: Sequence[str]) -> list[Memory]:
    """The memories not among ``memories``, learned after the newest of them that
    sets one of ``asked``, among the ``asked_topic_pool`` nearest the mean of the
    asked attributes' example statements (one index search): in a store of
    thousands the later word on a slot, told in other words, is often no
    candidate of the question.  Those that are not hinted (:func:`topic_hints`)
    are left out again by the caller."""
    cfg = engine.config
    if cfg.asked_topic_similarity <= 0 or cfg.asked_topic_pool <= 0 or not asked:
        return []
    since = _since(memories, asked)
    if since is None:
        return []
    _, routes = example_statements()
    wanted = {a.removeprefix("user.") for a in asked}
    rows = [n for n, r in enumerate(routes) if not wanted.isdisjoint(ROUTES[r][0])]
    examples = statement_vectors(engine.embedder)
    if not rows or examples.shape[1] != engine.embedder.dimension:
        return []
    centre = examples[rows].mean(axis=0)
    centre /= max(float(np.linalg.norm(centre)), 1e-12)
    have = {m.id for m in memories}
    found = [h.id for h in engine.index.search(centre, cfg.asked_topic_pool) if h.id not in have]
    return [m for m in engine.fetch_cached(found) if m.attribute is None and m.created_at > since]


def topic_hints(engine: Engine, memories: Sequence[Memory], asked: Sequence[str]) -> frozenset[str]:
    """Ids of ``memories`` with no attribute, learned after the newest of them that
    sets one of ``asked``, whose nearest example statement speaks of one of
    ``asked``: the later word on a slot, told in a form no rule types.  None when
    ``asked_topic_similarity`` is 0, nothing is asked, no candidate sets an asked
    attribute (a hint then has nothing to follow: it would only lift remarks), or
    the model's vectors are not the examples' size."""
    cfg = engine.config
    if cfg.asked_topic_similarity <= 0 or not asked:
        return frozenset()
    wanted = set(asked)
    since = _since(memories, asked)
    if since is None:
        return frozenset()
    loose = [m for m in memories if m.attribute is None and m.embedding is not None and m.created_at > since]
    if not loose:
        return frozenset()
    examples = statement_vectors(engine.embedder)
    vectors = np.stack([np.asarray(m.embedding, dtype=np.float32) for m in loose])
    if examples.shape[1] != vectors.shape[1]:
        return frozenset()
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    _, routes = example_statements()
    return frozenset(
        m.id
        for m, v in zip(loose, vectors, strict=True)
        if wanted.intersection(
            routed_attributes(
                v, examples, routes, similarity=cfg.asked_topic_similarity, margin=cfg.asked_topic_margin
            )
        )
    )


def asked_note(parsed: QueryAnalysis, pool: Pool) -> str:
    """The candidates stage's note on the asked attributes: those routing named,
    and how many memories with no attribute were hinted at them."""
    note = ""
    if parsed.routed:
        note += "; asked by the nearest example question: " + ", ".join(parsed.asked_attributes)
    if pool.hinted:
        n = len(pool.hinted)
        which = "memory with no attribute speaks" if n == 1 else "memories with no attribute speak"
        note += f"; {n} {which} of it (nearest example statement)"
    return note

"""The attributes a question asks for by its nearest example question
(:mod:`lokulmem.retrieval.routing`), and the example vectors, embedded once per
embedder and shared by every store that uses it."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..retrieval.routing import about_user, example_questions, named_relations, routed_attributes
from .examples import example_vectors_of
from .pool import TextCandidates, with_asked

if TYPE_CHECKING:
    from ..embedding import Embedder
    from ..records import QueryAnalysis
    from .engine import Engine

__all__ = ["example_vectors", "route_query"]


def example_vectors(embedder: Embedder) -> npt.NDArray[np.float32]:
    """The example questions' unit vectors (one row each, in
    :func:`~lokulmem.retrieval.routing.example_questions` order), embedded on first
    use (about 0.2 s with the default model) and cached while the model lives."""
    return example_vectors_of(embedder, "questions", lambda: example_questions()[0])


def route_query(
    engine: Engine,
    text: str,
    parsed: QueryAnalysis,
    query: npt.NDArray[np.float32],
    found: TextCandidates,
) -> tuple[QueryAnalysis, TextCandidates]:
    """``parsed`` asking for the attributes of ``text``'s nearest example question
    (``routed``), and ``found`` with their facts, when there are some; else both
    as they were."""
    routed = _routed(engine, text, parsed, query)
    if not routed:
        return parsed, found
    return replace(parsed, asked_attributes=routed, routed=True), with_asked(engine, found, routed)


def _routed(
    engine: Engine, text: str, parsed: QueryAnalysis, query: npt.NDArray[np.float32]
) -> tuple[str, ...]:
    """The user's attributes ``text`` asks for by its nearest example question, when
    routing is on, no cue read an attribute or a type and it is a question or a
    request about the user; else ()."""
    cfg = engine.config
    if (
        not cfg.asked_routing
        or parsed.asked_attributes
        or parsed.asked_types
        or parsed.intent == "statement"
        or not about_user(text)
    ):
        return ()
    vectors = example_vectors(engine.embedder)
    if vectors.shape[1] != query.shape[0]:
        return ()
    _, routes = example_questions()
    return routed_attributes(
        query,
        vectors,
        routes,
        similarity=cfg.asked_route_similarity,
        margin=cfg.asked_route_margin,
        named=named_relations(text),
    )

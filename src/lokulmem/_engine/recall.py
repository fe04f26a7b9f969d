"""``augment()`` on the engine: embed, gather the candidate pool (I/O), then the pure
recall stages of :mod:`lokulmem.retrieval.stages`, then reinforce what was injected."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..decay import reinforce
from ..records import AugmentResult, LokulMemDebug, ScoredMemory
from ..retrieval import inject, key_terms, message_text
from ..retrieval import stages as st
from .args import AugmentArgs
from .unit import Changes

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["PIPELINE", "run_augment"]

Vector = npt.NDArray[np.float32]
PIPELINE = ("parse", "mode-selection", "candidates", "scoring", "ranking", "packaging", "audit")


def lexical_scores(engine: Engine, text: str) -> tuple[dict[str, float], dict[str, float]]:
    """BM25 of the message's key terms in [0, 1]: over content, source message and
    reply context (weighted), and over content alone, on the same scale."""
    cfg = engine.config
    if cfg.retrieval_weights.lexical <= 0:
        return {}, {}
    terms = key_terms(text, limit=cfg.max_query_terms)
    found = engine.storage.lexical_search(
        terms,
        limit=cfg.lexical_pool,
        context_weight=cfg.lexical_context_weight,
        reply_weight=cfg.lexical_reply_weight,
    )
    own: list[tuple[str, float]] = []
    if cfg.context_once and (cfg.lexical_context_weight > 0 or cfg.lexical_reply_weight > 0):
        own = engine.storage.lexical_search(terms, limit=cfg.lexical_pool)
    if cfg.lexical_saturation > 0:
        # Absolute: a weak match (only a common name) stays weak.
        c = cfg.lexical_saturation
        return {i: s / (s + c) for i, s in found}, {i: s / (s + c) for i, s in own}
    best = max((s for _, s in found), default=0.0)
    if best <= 0:
        return {}, {}
    return {i: s / best for i, s in found}, {i: min(1.0, s / best) for i, s in own}


def candidate_pool(engine: Engine, query: Vector, text: str) -> st.Pool:
    """Vector hits, pinned memories and lexical matches, read through the record cache."""
    hits = engine.index.search(query, engine.config.candidate_pool)
    ids = [h.id for h in hits]
    lexical, lexical_own = lexical_scores(engine, text)
    extra = st.merge_ids(ids, engine.storage.pinned_ids(), lexical, lambda i: i in engine.index)
    cosines = [h.similarity for h in hits] + engine.index.similarities(query, extra)
    ids += extra
    memories = engine.fetch_cached(ids)
    # The current versions of closed facts join the pool (if searchable), so the
    # ranking can put them first.
    later = [i for i in st.successors(memories, ids) if i in engine.index]
    if later:
        cosines += engine.index.similarities(query, later)
        ids += later
        memories += engine.fetch_cached(later)
    return st.Pool(
        memories=memories,
        similarities=dict(zip(ids, cosines, strict=True)),
        lexical=lexical,
        lexical_own=lexical_own,
    )


def _embed_query(engine: Engine, args: AugmentArgs) -> tuple[Vector, Sequence[Vector]]:
    cfg = engine.config
    turns = [message_text(m) for m in args.history if m.get("role") in ("user", "assistant")]
    turns = [t for t in turns if t.strip()][-cfg.continuity_turns :]
    vecs = engine.embedder.embed([args.text[: cfg.max_message_chars], *turns])
    return vecs[0], list(vecs[1:])


def run_augment(
    engine: Engine,
    message: object,
    history: object = None,
    *,
    max_memories: int | None = None,
    min_relevance: float | None = None,
    types: Sequence[str] | None = None,
    debug: bool = False,
    reinforce_injected: bool = True,
) -> AugmentResult:
    """What to inject for ``message`` (see ``LokulMem.augment``); injected memories are
    reinforced unless ``reinforce_injected`` is false (the injection preview)."""
    cfg, counter = engine.config, engine.token_counter
    args = AugmentArgs.parse(
        cfg, message, history, max_memories=max_memories, min_relevance=min_relevance, types=types
    )
    available = st.available_tokens(args.history, args.text, cfg, counter)
    with engine.lock:
        engine.ensure()
        if not args.text.strip():
            empty = st.Selection(chosen=(), reasons={}, block="", tokens_used=0)
            audit = _audit(engine, empty, (), available, 0.0, 0.0, 0) if debug else None
            return AugmentResult(
                messages=inject(args.history, args.text, "", cfg.injection_mode), debug=audit
            )
        now = engine.clock.now_ms()
        t0 = time.perf_counter()
        query, turn_vectors = _embed_query(engine, args)
        t1 = time.perf_counter()
        engine.sync_index()
        pool = candidate_pool(engine, query, args.text)
        topic = st.topic_of(*engine.topic_clusters(), query)
        scored = st.score(pool, query=query, turn_vectors=turn_vectors, topic=topic, now_ms=now, config=cfg)
        ranked = st.rank(st.context_once(scored, pool.lexical_own, cfg), args.floor)
        chosen, reasons = st.select(
            ranked,
            floor=args.floor,
            limit=args.limit,
            budget=available - st.block_overhead(counter),
            type_filter=args.type_filter,
            config=cfg,
            counter=counter,
        )
        selection = st.fit_block(chosen, reasons, available=available, counter=counter)
        changes = Changes()
        if reinforce_injected and selection.chosen:
            changes = engine.apply(
                Changes(updated=[reinforce(s.memory, now, cfg) for s, _ in selection.chosen])
            )
        t2 = time.perf_counter()
        searched = len(engine.index)
    engine.announce(changes)
    audit = None
    if debug:
        candidates = st.candidate_debug(ranked, selection.reasons, cfg)
        audit = _audit(engine, selection, candidates, available, t1 - t0, t2 - t1, searched)
    return AugmentResult(
        messages=inject(args.history, args.text, selection.block, cfg.injection_mode),
        debug=audit,
        context=selection.block,
    )


def _audit(
    engine: Engine,
    selection: st.Selection,
    candidates: tuple[ScoredMemory, ...],
    available: int,
    embed_s: float,
    retrieve_s: float,
    searched: int,
) -> LokulMemDebug:
    return LokulMemDebug(
        injected=st.injected_debug(selection, engine.config, engine.token_counter),
        candidates=candidates,
        tokens_used=selection.tokens_used,
        tokens_available=available,
        retrieval_strategy="brute-force",
        search_mode=engine.index.search_mode,
        embedding_latency_ms=embed_s * 1000,
        retrieval_latency_ms=retrieve_s * 1000,
        searched=searched,
        pipeline=PIPELINE,
    )

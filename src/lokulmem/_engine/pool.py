"""The candidate stage of recall (I/O): vector hits, pinned memories, lexical
matches, memories learned in the time asked about, the facts of the attribute
asked about and the replacements of closed facts, with the key-term coverage
the relevance test needs."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..graph import neighbours
from ..proactive import MS_PER_DAY, upcoming
from ..records import Memory, QueryAnalysis, UpcomingMemory
from ..retrieval import key_terms
from ..retrieval import relevance as rel
from ..retrieval import stages as st
from ..retrieval.echo import later_neighbours, later_words
from .candidates import nearest_among
from .topics import topic_hints, topic_search

if TYPE_CHECKING:
    from .engine import Engine

__all__ = [
    "TextCandidates",
    "candidate_pool",
    "common_doc_freq",
    "graph_links",
    "lexical_scores",
    "own_lexical_scores",
    "term_coverage",
    "text_candidates",
    "upcoming_events",
]

Vector = npt.NDArray[np.float32]


def common_doc_freq(searchable: int, floor: int, share: float) -> int | None:
    """The document frequency above which a term is too common to rank by (None: a
    store of at most ``floor`` memories, where no term can be)."""
    if searchable <= floor:
        return None
    return max(floor, int(share * searchable))


def lexical_scores(engine: Engine, terms: Sequence[str]) -> tuple[dict[str, float], float]:
    """BM25 of the message's key terms over content, source message and reply
    context (weighted), in [0, 1], and the best raw score (the scale of
    :func:`own_lexical_scores` when ``lexical_saturation`` is 0)."""
    cfg = engine.config
    if cfg.retrieval_weights.lexical <= 0 or not terms:
        return {}, 0.0
    found = engine.storage.lexical_search(
        terms,
        limit=cfg.lexical_pool,
        context_weight=cfg.lexical_context_weight,
        reply_weight=cfg.lexical_reply_weight,
        max_doc_freq=_common(engine),
    )
    best = max((s for _, s in found), default=0.0)
    return _scaled(found, cfg.lexical_saturation, best), best


def own_lexical_scores(engine: Engine, terms: Sequence[str], best: float) -> dict[str, float]:
    """BM25 of the key terms over the content alone, on the scale of
    :func:`lexical_scores` (``best``: its best raw score).  Only context-once
    reads it, and only when two candidates come from one message, so recall asks
    for it then (a second full-text ranking, 4 ms for a common term at 1M)."""
    cfg = engine.config
    if cfg.retrieval_weights.lexical <= 0 or not terms or not cfg.context_once:
        return {}
    if cfg.lexical_context_weight <= 0 and cfg.lexical_reply_weight <= 0:
        return {}
    own = engine.storage.lexical_search(terms, limit=cfg.lexical_pool, max_doc_freq=_common(engine))
    return _scaled(own, cfg.lexical_saturation, best, cap=True)


def later_word_pool(engine: Engine, lender: Memory, query: Vector, pool: st.Pool) -> st.Pool:
    """A pool (``pool``'s settings) of the memories that may be a later word on
    ``lender`` (:func:`later_words`), among the first ``newer_first_echo_search``
    full-text matches of its own key terms (the user's label left out).  A term
    found in more memories than that is left out too: it cannot single out a
    later word among so many, and ranking all who hold it is what costs (a
    name or "lives" in a store of 10,000 memories).  Then (:func:`later_neighbours`)
    among the ``newer_first_echo_neighbours`` nearest to its own vector."""
    cfg = engine.config
    label = cfg.user_label.lower()
    terms = [t for t in key_terms(lender.content, limit=cfg.max_query_terms) if t.lower() != label]
    found: list[Memory] = []
    if cfg.newer_first_echo_search > 0 and terms:
        limit = cfg.newer_first_echo_search
        hits = engine.storage.lexical_search(terms, limit=limit, max_doc_freq=limit)
        ids = [i for i, _ in hits if i != lender.id and i in engine.index]
        found = later_words(lender, engine.fetch_cached(ids), cfg.user_label)
    if cfg.newer_first_echo_neighbours > 0 and lender.embedding is not None:
        have = {lender.id, *(m.id for m in found)}
        near = [
            h
            for h in engine.index.search(lender.embedding, cfg.newer_first_echo_neighbours)
            if h.id not in have
        ]
        cosine = {h.id: h.similarity for h in near}
        fetched = engine.fetch_cached(list(cosine))
        found += later_neighbours(
            lender, [(m, cosine[m.id]) for m in fetched], cfg.newer_first_echo_told_similarity
        )
    ids = [m.id for m in found]
    return dataclasses.replace(
        pool, memories=found, similarities=dict(zip(ids, engine.index.similarities(query, ids), strict=True))
    )


def _common(engine: Engine) -> int | None:
    cfg = engine.config
    return common_doc_freq(len(engine.index), cfg.lexical_common_floor, cfg.lexical_common_share)


def _scaled(
    found: Sequence[tuple[str, float]], saturation: float, best: float, *, cap: bool = False
) -> dict[str, float]:
    """Raw BM25 scores in [0, 1] (``cap``: clipped at 1, for scores on another ranking's scale)."""
    if saturation > 0:
        # Absolute: a weak match (only a common name) stays weak.
        return {i: s / (s + saturation) for i, s in found}
    if best <= 0:
        return {}
    return {i: min(1.0, s / best) if cap else s / best for i, s in found}


def term_coverage(engine: Engine, parsed: QueryAnalysis, ids: Sequence[str]) -> dict[str, float]:
    """Key-term coverage of each memory: the best over the whole message and each
    of its clauses (a compound question covers few of its terms in any one memory)."""
    terms = list(parsed.terms)
    found = engine.storage.term_matches(terms, ids, cap=engine.config.term_frequency_cap)
    parts = [terms]
    if len(parsed.clauses) > 1:
        known = set(terms)
        parts += [[t for t in key_terms(c, limit=len(terms)) if t in known] for c in parsed.clauses]
    best: dict[str, float] = {}
    for part in parts:
        shares = rel.coverage(
            part,
            found.doc_freq,
            {t: found.matched.get(t, frozenset()) for t in part},
            found.total,
            names=frozenset(parsed.names),
            unknown_weight=engine.config.unknown_term_weight,
        )
        for i, v in shares.items():
            best[i] = max(v, best.get(i, 0.0))
    return best


@dataclasses.dataclass(frozen=True)
class TextCandidates:
    """What the candidate stage reads from the message's words alone (no vector):
    :func:`text_candidates` can run beside the embedding."""

    lexical: dict[str, float]
    lexical_best: float
    timed: list[str]
    pinned: list[str]
    #: The active facts of the attributes the message asks about (all of them:
    #: the nearest are kept once the query vector is known).
    asked: list[str] = dataclasses.field(default_factory=list)
    #: The superseded facts of those attributes (their replacements may stand
    #: where they stand: :meth:`History.nearest_of`).
    asked_history: list[str] = dataclasses.field(default_factory=list)


def text_candidates(engine: Engine, parsed: QueryAnalysis) -> TextCandidates:
    """Lexical matches, memories learned in the time asked about and pinned memories:
    storage reads only (no index, no record cache), so another thread may run them
    while the caller holds the engine lock and embeds the query."""
    cfg = engine.config
    lexical, best = lexical_scores(engine, parsed.terms)
    span = parsed.time_range if cfg.time_range_bonus > 0 else None
    timed = engine.storage.created_between(span.start, span.end, cfg.time_range_pool) if span else []
    asked, past = _asked_ids(engine, parsed.asked_attributes)
    return TextCandidates(
        lexical=lexical,
        lexical_best=best,
        timed=timed,
        pinned=engine.storage.pinned_ids(),
        asked=asked,
        asked_history=past,
    )


def _asked_ids(engine: Engine, attributes: Sequence[str]) -> tuple[list[str], list[str]]:
    """The active and the superseded facts of ``attributes`` (none when the asked
    attribute has no bonus)."""
    cfg = engine.config
    asked: list[str] = []
    past: list[str] = []
    if cfg.asked_attribute_bonus > 0:
        for attribute in sorted(attributes):
            asked += engine.storage.ids_by_attribute(attribute)
            if cfg.history_candidates > 0:
                past += engine.storage.ids_by_attribute(attribute, status="superseded")
    return asked, past


def with_asked(engine: Engine, text: TextCandidates, attributes: Sequence[str]) -> TextCandidates:
    """``text`` with the facts of ``attributes`` too (asked by routing, once the
    query vector is known: :mod:`lokulmem._engine.routing`)."""
    asked, past = _asked_ids(engine, attributes)
    return dataclasses.replace(text, asked=[*text.asked, *asked], asked_history=[*text.asked_history, *past])


def _nearest_asked(engine: Engine, query: Vector, asked: Sequence[str]) -> list[str]:
    """The searchable facts of the asked attributes nearest ``query``, at most
    ``asked_attribute_pool`` (a store may hold hundreds of ``sister.residence`` facts)."""
    found = [i for i in dict.fromkeys(asked) if i in engine.index]
    if len(found) <= engine.config.asked_attribute_pool:
        return found
    return [i for i, _ in nearest_among(engine, query, found, engine.config.asked_attribute_pool)]


def candidate_pool(
    engine: Engine, query: Vector, parsed: QueryAnalysis, text: TextCandidates, *, evidence: bool
) -> tuple[st.Pool, dict[str, int]]:
    """The pool read through the record cache (``text``: what :func:`text_candidates`
    read), and how many candidates each source added; with ``evidence``, the
    key-term coverage of each (for the relevance test)."""
    cfg = engine.config
    hits = engine.index.search(query, cfg.candidate_pool)
    ids = [h.id for h in hits]
    span = parsed.time_range if cfg.time_range_bonus > 0 else None
    timed = [i for i in text.timed if i in engine.index]
    pinned = text.pinned
    asked = _nearest_asked(engine, query, text.asked) if text.asked else []
    extra = st.merge_ids(ids, [*pinned, *timed, *asked], text.lexical, lambda i: i in engine.index)
    counts = {
        "vector": len(ids),
        "pinned": len(set(pinned) - set(ids)),
        "time": len(set(timed) - set(ids) - set(pinned)),
        "asked": len(set(asked) - set(ids) - set(pinned) - set(timed)),
        "lexical": len(set(extra) - set(pinned) - set(timed) - set(asked)),
    }
    cosines = [h.similarity for h in hits] + engine.index.similarities(query, extra)
    ids += extra
    memories = engine.fetch_cached(ids)
    # Superseded facts near the question join as history, for their replacements;
    # so do those of the slot it asks about, however far ("Am I in a relationship?"
    # and "User is dating a guy named Marco.", cosine 0.17).
    near = engine.history.nearest(query, cfg.history_candidates, cfg.history_similarity)
    slot = engine.history.nearest_of(query, text.asked_history, cfg.history_candidates)
    past = [i for i in dict.fromkeys([*near, *slot]) if i not in ids]
    counts["history"] = len(past)
    if past:
        old = engine.fetch_cached(past)
        ids += [m.id for m in old]
        cosines += [float(m.embedding @ query) if m.embedding is not None else 0.0 for m in old]
        memories += old
    # Later words on an asked slot, told in other words, found by its example
    # statements; only those hinted at it stay.
    topical = topic_search(engine, memories, parsed.asked_attributes)
    hinted = topic_hints(engine, [*memories, *topical], parsed.asked_attributes) if topical else frozenset()
    kept = [m for m in topical if m.id in hinted]
    counts["topic"] = len(kept)
    if kept:
        ids += [m.id for m in kept]
        cosines += engine.index.similarities(query, [m.id for m in kept])
        memories += kept
    # The current versions of closed and superseded facts join the pool (if
    # searchable), so the ranking can put them first.
    later = [i for i in st.successors(memories, ids) if i in engine.index]
    counts["successors"] = len(later)
    if later:
        cosines += engine.index.similarities(query, later)
        ids += later
        memories += engine.fetch_cached(later)
    pool = st.Pool(
        memories=memories,
        similarities=dict(zip(ids, cosines, strict=True)),
        lexical=text.lexical,
        lexical_best=text.lexical_best,
        coverage=term_coverage(engine, parsed, ids) if evidence else None,
        asked=frozenset(parsed.asked_attributes),
        routed=parsed.routed,
        hinted=topic_hints(engine, memories, parsed.asked_attributes),
        asked_types=frozenset(parsed.asked_types) if evidence else frozenset(),
        time_range=span,
        time_only=span is not None and parsed.time_only,
    )
    return pool, counts


def graph_links(
    engine: Engine, query: Vector, seeds: Sequence[str], pool: st.Pool
) -> tuple[dict[str, tuple[str, float]], st.Pool]:
    """The searchable first-degree neighbours of ``seeds`` (neighbour id → (seed,
    edge weight)), and a pool of those not among the candidates yet."""
    links = neighbours(seeds, engine.storage.edges_touching(seeds)) if seeds else {}
    have = {m.id for m in pool.memories}
    missing = [i for i in links if i not in have and i in engine.index]
    links = {i: v for i, v in links.items() if i in have or i in missing}
    extra = dataclasses.replace(
        pool,
        memories=engine.fetch_cached(missing),
        similarities=dict(zip(missing, engine.index.similarities(query, missing), strict=True)),
    )
    return links, extra


def upcoming_events(engine: Engine, now: int, within_days: float) -> list[UpcomingMemory]:
    """Memories of events that have not ended and start within ``within_days``,
    soonest first, with their push scores.  The caller holds the lock."""
    # event_at is a generous end ("next month": two months), so look a month further.
    ids = engine.storage.events_between(now, now + int((within_days + 62) * MS_PER_DAY), 500)
    found = [u for m in engine.fetch_cached(ids) if (u := upcoming(m, now, engine.config)) is not None]
    found = [u for u in found if u.days_to_event <= within_days]
    return sorted(found, key=lambda u: (u.event_start, u.event_end, u.memory.id))

"""The recall policy as pure stages: score → context-once → rank → select → fit → audit.

``augment()`` reads as a sequence of these calls (``lokulmem._engine``); the
I/O around them (embedding, the vector index, the lexical search, the store)
stays in the engine.  Every stage takes plain records, the config and
already-computed inputs (vectors, similarities, lexical scores, the clock's
time) and returns new values, so each is unit-tested on hand-built records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..records import InjectedMemory, Memory, ScoreBreakdown, ScoredMemory
from .budget import count_tokens, message_text
from .injection import BLOCK_END, BLOCK_START, format_block, format_line
from .scoring import breakdown, explain

__all__ = [
    "Pool",
    "Scored",
    "Selection",
    "available_tokens",
    "block_overhead",
    "candidate_debug",
    "context_once",
    "current_first",
    "fit_block",
    "injected_debug",
    "merge_ids",
    "rank",
    "score",
    "select",
    "successors",
    "topic_of",
]

Vector = npt.NDArray[np.float32]
TokenCounter = Callable[[str], int] | None

#: Exclusion reasons shown in ``ScoredMemory.excluded_reason``.
TYPE_FILTERED = "type filtered"
BELOW_FLOOR = "below relevance threshold"
LIMIT_REACHED = "max memories reached"
BUDGET_EXHAUSTED = "token budget exhausted"


@dataclass(frozen=True, slots=True)
class Scored:
    """One candidate: the memory, its raw index cosine, and its score breakdown."""

    memory: Memory
    similarity: float
    breakdown: ScoreBreakdown


@dataclass(frozen=True)
class Pool:
    """What the candidate stage found: memories with their index cosines and lexical scores."""

    memories: Sequence[Memory]
    similarities: Mapping[str, float]
    #: BM25 over content, source message and reply context, in [0, 1].
    lexical: Mapping[str, float] = field(default_factory=dict)
    #: BM25 over the content alone, on the same scale (for context-once).
    lexical_own: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Selection:
    """The chosen memories, their lines, and why every other candidate was left out."""

    chosen: tuple[tuple[Scored, str], ...]
    #: memory id → exclusion reason, or None when injected.
    reasons: Mapping[str, str | None]
    block: str
    tokens_used: int


def available_tokens(
    history: Sequence[Mapping[str, object]], text: str, config: Config, counter: TokenCounter
) -> int:
    """Tokens left for memories: window − system − history − message − response buffer."""
    system = sum(count_tokens(message_text(m), counter) for m in history if m.get("role") == "system")
    turns = sum(count_tokens(message_text(m), counter) for m in history if m.get("role") != "system")
    turns += count_tokens(text, counter)
    return max(0, config.context_window_size - system - turns - config.response_buffer)


def successors(memories: Iterable[Memory], known: Iterable[str]) -> list[str]:
    """Ids of the facts that replaced closed candidates and are not candidates yet:
    a question that finds an old fact also gets the current one."""
    have = set(known)
    out: list[str] = []
    for m in memories:
        nxt = m.superseded_by
        if m.valid_to is not None and nxt and nxt not in have:
            have.add(nxt)
            out.append(nxt)
    return out


def merge_ids(
    hit_ids: Sequence[str], pinned: Iterable[str], lexical: Iterable[str], indexed: Callable[[str], bool]
) -> list[str]:
    """The ids the index did not return but that join the pool: pinned first, then
    lexical matches that are searchable (active, in the index), each once."""
    seen = set(hit_ids)
    extra = [i for i in pinned if i not in seen]
    extra += [i for i in lexical if i not in seen and i not in set(extra) and indexed(i)]
    return extra


def topic_of(centroids: Vector | None, cluster_ids: Sequence[str], query: Vector) -> str | None:
    """The id of the cluster whose centroid is nearest to the query (None without clusters)."""
    if centroids is None:
        return None
    return cluster_ids[int(np.argmax(centroids @ query))]


def score(
    pool: Pool,
    *,
    query: Vector,
    turn_vectors: Sequence[Vector],
    topic: str | None,
    now_ms: int,
    config: Config,
) -> list[Scored]:
    """The composite R of every active, embedded memory of the pool, best first.

    The semantic term blends the sentence cosine with the cosine of the
    memory's message vector (``context_vector_weight``); continuity is the
    best cosine with the recent turns; the cluster bonus goes to the
    query's nearest cluster.
    """
    out: list[Scored] = []
    w = config.context_vector_weight
    for m in pool.memories:
        if m.embedding is None or m.status != "active":
            continue
        cont = max((float(m.embedding @ tv) for tv in turn_vectors), default=0.0)
        bonus = config.cluster_bonus if topic is not None and m.cluster_id == topic else 0.0
        sim = pool.similarities[m.id]
        if m.context_embedding is not None and w > 0:
            sim = (1 - w) * sim + w * float(m.context_embedding @ query)
        b = breakdown(
            m,
            similarity=sim,
            continuity=cont,
            now_ms=now_ms,
            config=config,
            cluster_bonus=bonus,
            lexical=pool.lexical.get(m.id, 0.0),
        )
        out.append(Scored(m, pool.similarities[m.id], b))
    out.sort(key=lambda s: -s.breakdown.total)
    return out


def context_once(scored: Sequence[Scored], lexical_own: Mapping[str, float], config: Config) -> list[Scored]:
    """A message's context and reply words are the message's evidence: they count
    for its best-scoring memory; its other memories keep only their own words.
    ``scored`` must be best first; the order is kept (scores may drop)."""
    if not config.context_once:
        return list(scored)
    out: list[Scored] = []
    seen: set[tuple[str, str]] = set()
    for s in scored:
        m = s.memory
        if m.source_context:
            key = (m.source_session, m.source_context)
            if key in seen:
                own = lexical_own.get(m.id, 0.0)
                b = dataclasses.replace(s.breakdown, lexical=config.retrieval_weights.lexical * own)
                s = Scored(m, s.similarity, b)
            seen.add(key)
        out.append(s)
    return out


def rank(scored: Sequence[Scored], floor: float) -> list[Scored]:
    """Pinned memories above the floor first, then by score (stable), then
    :func:`current_first`."""
    ordered = sorted(
        scored, key=lambda s: (-(s.memory.pinned and s.breakdown.total > floor), -s.breakdown.total)
    )
    return current_first(ordered)


def current_first(ranked: Sequence[Scored]) -> list[Scored]:
    """A fact closed by a temporal change (``valid_to`` set) never ranks above the fact
    that replaced it: it moves to just after its replacement, as history.  Facts whose
    replacement is not among the candidates keep their place (they are labelled "no
    longer current" when injected)."""
    present = {s.memory.id for s in ranked}
    deferred: dict[str, list[Scored]] = {}
    emitted: set[str] = set()
    out: list[Scored] = []

    def emit(s: Scored) -> None:
        out.append(s)
        emitted.add(s.memory.id)
        for history in deferred.pop(s.memory.id, []):
            emit(history)

    for s in ranked:
        successor = s.memory.superseded_by
        if s.memory.valid_to is not None and successor in present and successor not in emitted:
            deferred.setdefault(successor, []).append(s)
        else:
            emit(s)
    return out


def select(
    ranked: Sequence[Scored],
    *,
    floor: float,
    limit: int,
    budget: int,
    type_filter: frozenset[str] | None,
    config: Config,
    counter: TokenCounter,
) -> tuple[list[tuple[Scored, str]], dict[str, str | None]]:
    """Walk the ranking and keep what passes the type filter, the floor, the
    limit and the token budget (the block's frame is already taken off)."""
    chosen: list[tuple[Scored, str]] = []
    reasons: dict[str, str | None] = {}
    used = 0
    for s in ranked:
        m = s.memory
        if type_filter is not None and not (set(m.types) & type_filter):
            reasons[m.id] = TYPE_FILTERED
            continue
        if s.breakdown.total <= floor:
            reasons[m.id] = BELOW_FLOOR
            continue
        if len(chosen) >= limit:
            reasons[m.id] = LIMIT_REACHED
            continue
        line = format_line(m, config)
        cost = count_tokens(line + "\n", counter)
        if used + cost > budget:
            reasons[m.id] = BUDGET_EXHAUSTED
            continue
        used += cost
        chosen.append((s, line))
        reasons[m.id] = None
    return chosen, reasons


def block_overhead(counter: TokenCounter) -> int:
    """Tokens of the memory block's frame (start and end markers)."""
    return count_tokens(f"{BLOCK_START}\n{BLOCK_END}\n\n", counter)


def fit_block(
    chosen: Sequence[tuple[Scored, str]],
    reasons: Mapping[str, str | None],
    *,
    available: int,
    counter: TokenCounter,
) -> Selection:
    """The block of the chosen lines, dropping the last ones while the whole block
    exceeds ``available`` (per-line estimates can differ from the real count for
    a custom counter)."""
    kept = list(chosen)
    why = dict(reasons)
    block = format_block([line for _, line in kept]) if kept else ""
    while kept and count_tokens(block, counter) > available:
        why[kept.pop()[0].memory.id] = BUDGET_EXHAUSTED
        block = format_block([line for _, line in kept]) if kept else ""
    used = count_tokens(block, counter) if block else 0
    return Selection(chosen=tuple(kept), reasons=why, block=block, tokens_used=used)


def injected_debug(selection: Selection, config: Config, counter: TokenCounter) -> tuple[InjectedMemory, ...]:
    """Each injected memory with its score, breakdown, one-line reason and rank."""
    return tuple(
        InjectedMemory(
            memory=s.memory,
            score=s.breakdown.total,
            score_breakdown=s.breakdown,
            reason=explain(s.memory, s.breakdown, s.similarity, config),
            injection_rank=rank,
            tokens=count_tokens(line + "\n", counter),
        )
        for rank, (s, line) in enumerate(selection.chosen, start=1)
    )


def candidate_debug(
    scored: Sequence[Scored], reasons: Mapping[str, str | None], config: Config
) -> tuple[ScoredMemory, ...]:
    """The top ``debug_candidates`` by score, each marked injected or with its exclusion reason."""
    top = sorted(scored, key=lambda s: -s.breakdown.total)[: config.debug_candidates]
    return tuple(
        ScoredMemory(
            memory=s.memory,
            score=s.breakdown.total,
            breakdown=s.breakdown,
            similarity=s.similarity,
            injected=reasons.get(s.memory.id, "") is None,
            excluded_reason=reasons.get(s.memory.id),
        )
        for s in top
    )

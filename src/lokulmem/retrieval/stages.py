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
from ..records import InjectedMemory, Memory, ScoreBreakdown, ScoredMemory, TimeRange
from .budget import count_tokens, message_text
from .injection import BLOCK_END, BLOCK_START, format_block, format_line
from .relevance import BELOW_MARGIN, NO_EVIDENCE, evidence, inherit
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
    "evidence_of",
    "fit_block",
    "injected_debug",
    "link",
    "merge_ids",
    "rank",
    "score",
    "seeds",
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
    #: The semantic match the score used: the blended cosine, in [0, 1].
    match: float = 0.0


@dataclass(frozen=True)
class Pool:
    """What the candidate stage found: memories with their index cosines and lexical scores."""

    memories: Sequence[Memory]
    similarities: Mapping[str, float]
    #: BM25 over content, source message and reply context, in [0, 1].
    lexical: Mapping[str, float] = field(default_factory=dict)
    #: BM25 over the content alone, on the same scale (for context-once).
    lexical_own: Mapping[str, float] = field(default_factory=dict)
    #: IDF-weighted share of the query's key terms each memory contains
    #: (:func:`.relevance.coverage`); None when it was not computed.
    coverage: Mapping[str, float] | None = None
    #: The attribute keys the query asks about (:func:`.asked.asked_attributes`).
    asked: frozenset[str] = frozenset()
    #: The memory types the query asks about as a whole (:func:`.asked.asked_types`).
    asked_types: frozenset[str] = frozenset()

    def asks_for(self, memory: Memory) -> bool:
        """Whether ``memory`` sets the attribute, or is of a type, the query asks for."""
        if memory.attribute is not None and memory.attribute in self.asked:
            return True
        return bool(self.asked_types) and not self.asked_types.isdisjoint(memory.types)

    #: The time the query asks about, if any (:func:`.timerange.time_range`).
    time_range: TimeRange | None = None
    #: Whether that time is all the query asks about.
    time_only: bool = False

    def in_time(self, memory: Memory) -> bool:
        """Whether ``memory`` was learned in the time the query asks about."""
        return self.time_range is not None and self.time_range.contains(memory.created_at)


@dataclass(frozen=True)
class Selection:
    """The chosen memories, their lines, and why every other candidate was left out."""

    chosen: tuple[tuple[Scored, str], ...]
    #: memory id → exclusion reason, or None when injected.
    reasons: Mapping[str, str | None]
    block: str
    tokens_used: int
    #: Ids of the proactive memories placed first in the block.
    lead: tuple[str, ...] = ()


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
            time_bonus=config.time_range_bonus if pool.in_time(m) else 0.0,
        )
        out.append(Scored(m, pool.similarities[m.id], b, max(0.0, min(1.0, sim))))
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
                s = Scored(m, s.similarity, b, s.match)
            seen.add(key)
        out.append(s)
    return out


def seeds(ranked: Sequence[Scored], proof: Mapping[str, float] | None, config: Config) -> list[str]:
    """The best ``graph_seeds`` results (with evidence, when it is tested): their
    knowledge-graph neighbours get the second-pass bonus."""
    ok = [s for s in ranked if proof is None or proof.get(s.memory.id, 0.0) >= config.relevance_threshold]
    return [s.memory.id for s in ok[: config.graph_seeds]]


def link(
    ranked: Sequence[Scored],
    links: Mapping[str, tuple[str, float]],
    proof: Mapping[str, float] | None,
    config: Config,
) -> tuple[list[Scored], dict[str, float] | None]:
    """The second pass (PRD §10.4): each first-degree neighbour of a seed (``links``:
    neighbour id → (seed id, edge weight)) gets ``graph_bonus``, and its evidence is
    at least its seed's × the edge weight × ``graph_evidence_share`` (0 by default:
    a neighbour needs evidence of its own).  Returns the candidates (order
    unchanged: rank them again) and the evidence."""
    out: list[Scored] = []
    for s in ranked:
        if s.memory.id in links:
            b = dataclasses.replace(s.breakdown, graph=config.graph_bonus)
            s = Scored(s.memory, s.similarity, b, s.match)
        out.append(s)
    if proof is None:
        return out, None
    lifted = dict(proof)
    share = config.graph_evidence_share
    for other, (seed, weight) in links.items():
        if other in lifted and share > 0:
            lifted[other] = max(lifted[other], proof.get(seed, 0.0) * weight * share)
    return out, lifted


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
    proof: Mapping[str, float] | None = None,
    links: Mapping[str, tuple[str, float]] | None = None,
) -> tuple[list[tuple[Scored, str]], dict[str, str | None]]:
    """Walk the ranking and keep what passes the type filter, the floor, the
    evidence test and the margin (when ``proof``, from :func:`evidence_of`, is
    given: see :mod:`.relevance`), the limit and the token budget (the block's
    frame is already taken off).  A closed fact's replacement, and a graph
    neighbour of a seed (``links``), stand at least where the fact or the seed
    (× the edge weight × ``graph_evidence_share``) stands for the floor and the
    margin."""
    chosen: list[tuple[Scored, str]] = []
    reasons: dict[str, str | None] = {}
    used = 0
    bar = _margin_bar(ranked, floor, type_filter, proof, config)
    # The current version of a closed fact stands where the closed fact stands.
    lifted = inherit({s.memory.id: s.breakdown.total for s in ranked}, _replacements(ranked))
    share = config.graph_evidence_share
    for other, (seed, weight) in (links or {}).items():
        if other in lifted and seed in lifted and share > 0:
            lifted[other] = max(lifted[other], lifted[seed] * weight * share)
    for s in ranked:
        m = s.memory
        why = _gate(s, floor, type_filter, proof, bar, config, lifted[m.id])
        if why is None and len(chosen) >= limit:
            why = LIMIT_REACHED
        line = format_line(m, config) if why is None else ""
        cost = count_tokens(line + "\n", counter) if why is None else 0
        if why is None and used + cost > budget:
            why = BUDGET_EXHAUSTED
        reasons[m.id] = why
        if why is None:
            used += cost
            chosen.append((s, line))
    return chosen, reasons


def evidence_of(ranked: Sequence[Scored], pool: Pool, config: Config) -> dict[str, float] | None:
    """memory id → evidence of relevance (successors inherit their predecessors'),
    or None when relevance is not tested (``pool.coverage`` None)."""
    coverage = pool.coverage
    if coverage is None:
        return None
    own = {
        s.memory.id: evidence(
            s.match,
            coverage.get(s.memory.id, 0.0),
            config,
            asked_attribute=pool.asks_for(s.memory),
            in_time_range=pool.in_time(s.memory),
            time_only=pool.time_only,
        )
        for s in ranked
    }
    return inherit(own, _replacements(ranked))


def _replacements(ranked: Sequence[Scored]) -> list[tuple[str, str]]:
    """(closed fact, the fact that replaced it) pairs among the candidates."""
    return [
        (s.memory.id, s.memory.superseded_by)
        for s in ranked
        if s.memory.valid_to is not None and s.memory.superseded_by
    ]


def _gate(
    s: Scored,
    floor: float,
    type_filter: frozenset[str] | None,
    proof: Mapping[str, float] | None,
    bar: float,
    config: Config,
    standing: float | None = None,
) -> str | None:
    """Why ``s`` cannot be injected whatever the limit and budget, or None;
    ``standing`` is the R compared with the floor and the margin's ``bar``
    (default: its own)."""
    score = s.breakdown.total if standing is None else standing
    if type_filter is not None and not (set(s.memory.types) & type_filter):
        return TYPE_FILTERED
    if score <= floor:
        return BELOW_FLOOR
    if proof is not None:
        if proof[s.memory.id] < config.relevance_threshold:
            return NO_EVIDENCE
        if score < bar:
            return BELOW_MARGIN
    return None


def _margin_bar(
    ranked: Sequence[Scored],
    floor: float,
    type_filter: frozenset[str] | None,
    proof: Mapping[str, float] | None,
    config: Config,
) -> float:
    """``relevance_margin`` × the best R among the candidates with evidence."""
    if proof is None or config.relevance_margin <= 0:
        return 0.0
    best = max(
        (s.breakdown.total for s in ranked if _gate(s, floor, type_filter, proof, 0.0, config) is None),
        default=0.0,
    )
    return config.relevance_margin * best


def block_overhead(counter: TokenCounter) -> int:
    """Tokens of the memory block's frame (start and end markers)."""
    return count_tokens(f"{BLOCK_START}\n{BLOCK_END}\n\n", counter)


def fit_block(
    chosen: Sequence[tuple[Scored, str]],
    reasons: Mapping[str, str | None],
    *,
    available: int,
    counter: TokenCounter,
    lead: Sequence[tuple[str, str]] = (),
) -> Selection:
    """The block of the ``lead`` lines ((memory id, line): proactive memories, first)
    and the chosen lines, dropping the last chosen lines, then the last lead lines,
    while the whole block exceeds ``available`` (per-line estimates can differ
    from the real count for a custom counter)."""
    kept = list(chosen)
    first = list(lead)
    why = dict(reasons)

    def render() -> str:
        lines = [line for _, line in first] + [line for _, line in kept]
        return format_block(lines) if lines else ""

    block = render()
    while (kept or first) and count_tokens(block, counter) > available:
        if kept:
            why[kept.pop()[0].memory.id] = BUDGET_EXHAUSTED
        else:
            first.pop()
        block = render()
    used = count_tokens(block, counter) if block else 0
    return Selection(
        chosen=tuple(kept), reasons=why, block=block, tokens_used=used, lead=tuple(i for i, _ in first)
    )


def injected_debug(
    selection: Selection,
    config: Config,
    counter: TokenCounter,
    pool: Pool | None = None,
    proof: Mapping[str, float] | None = None,
) -> tuple[InjectedMemory, ...]:
    """Each injected memory with its score, breakdown, one-line reason, rank and evidence."""
    return tuple(
        InjectedMemory(
            memory=s.memory,
            score=s.breakdown.total,
            score_breakdown=s.breakdown,
            reason=explain(s.memory, s.breakdown, s.similarity, config),
            injection_rank=rank,
            tokens=count_tokens(line + "\n", counter),
            evidence=None if proof is None else proof.get(s.memory.id),
            term_coverage=_coverage(pool, s.memory.id),
        )
        for rank, (s, line) in enumerate(selection.chosen, start=1)
    )


def _coverage(pool: Pool | None, memory_id: str) -> float | None:
    if pool is None or pool.coverage is None:
        return None
    return pool.coverage.get(memory_id, 0.0)


def candidate_debug(
    scored: Sequence[Scored],
    reasons: Mapping[str, str | None],
    config: Config,
    pool: Pool | None = None,
    proof: Mapping[str, float] | None = None,
) -> tuple[ScoredMemory, ...]:
    """The top ``debug_candidates`` by score, each marked injected or with its
    exclusion reason, with its evidence of relevance when it was tested."""
    top = sorted(scored, key=lambda s: -s.breakdown.total)[: config.debug_candidates]
    return tuple(
        ScoredMemory(
            memory=s.memory,
            score=s.breakdown.total,
            breakdown=s.breakdown,
            similarity=s.similarity,
            injected=reasons.get(s.memory.id, "") is None,
            excluded_reason=reasons.get(s.memory.id),
            evidence=None if proof is None else proof.get(s.memory.id),
            term_coverage=_coverage(pool, s.memory.id),
        )
        for s in top
    )

"""The recall policy as pure stages: score → context-once → rank → graph link
(then :mod:`.selection`: evidence → select → fit → debug records).

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
from ..records import Memory, ScoreBreakdown, TimeRange
from .budget import count_tokens, message_payload
from .scoring import breakdown

__all__ = [
    "Pool",
    "Scored",
    "Selection",
    "available_tokens",
    "context_once",
    "current_first",
    "link",
    "merge_ids",
    "message_of",
    "rank",
    "repeats_message",
    "replaced",
    "score",
    "seeds",
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
#: Statuses scored: active memories, and superseded facts found as history.
_SCORED = frozenset({"active", "superseded"})
#: A superseded fact found as history: never injected, its replacement stands in.
SUPERSEDED = "superseded (its replacement stands in)"


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
    #: BM25 over the content alone, on the same scale (for context-once; filled
    #: only when two candidates share a message, see :func:`repeats_message`).
    lexical_own: Mapping[str, float] = field(default_factory=dict)
    #: The best raw weighted BM25 (the scale of ``lexical_own`` without saturation).
    lexical_best: float = 0.0
    #: IDF-weighted share of the query's key terms each memory contains
    #: (:func:`.relevance.coverage`); None when it was not computed.
    coverage: Mapping[str, float] | None = None
    #: The attribute keys the query asks about (:func:`.asked.asked_attributes`).
    asked: frozenset[str] = frozenset()
    #: The memory types the query asks about as a whole (:func:`.asked.asked_types`).
    asked_types: frozenset[str] = frozenset()
    #: Whether routing named ``asked`` (:mod:`.routing`), not a cue.
    routed: bool = False
    #: Ids of memories with no attribute that speak of one of ``asked`` (their
    #: nearest example statement's: :mod:`.topics`).
    hinted: frozenset[str] = frozenset()

    def attribute_bonus(self, config: Config) -> float:
        """Added to R of a fact that sets an asked attribute: ``asked_attribute_bonus``,
        or ``asked_route_bonus`` when routing named the attributes."""
        return config.asked_route_bonus if self.routed else config.asked_attribute_bonus

    def sets_asked(self, memory: Memory) -> bool:
        """Whether ``memory`` sets an attribute the query asks for (not only a type),
        or speaks of one with no attribute of its own (``hinted``)."""
        return (memory.attribute is not None and memory.attribute in self.asked) or memory.id in self.hinted

    def asks_for(self, memory: Memory) -> bool:
        """Whether ``memory`` sets the attribute, or is of a type, the query asks for."""
        if self.sets_asked(memory):
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
    system = sum(count_tokens(message_payload(m), counter) for m in history if m.get("role") == "system")
    turns = sum(count_tokens(message_payload(m), counter) for m in history if m.get("role") != "system")
    turns += count_tokens(text, counter)
    return max(0, config.context_window_size - system - turns - config.response_buffer)


def replaced(m: Memory) -> bool:
    """Whether ``m`` is a fact some other fact replaced: closed (``valid_to``) or
    superseded, naming its successor."""
    return bool(m.superseded_by) and (m.valid_to is not None or m.status == "superseded")


def successors(memories: Iterable[Memory], known: Iterable[str]) -> list[str]:
    """Ids of the facts that replaced closed or superseded candidates and are not
    candidates yet: a question that finds an old fact also gets the current one."""
    have = set(known)
    out: list[str] = []
    for m in memories:
        nxt = m.superseded_by
        if replaced(m) and nxt and nxt not in have:
            have.add(nxt)
            out.append(nxt)
    return out


def merge_ids(
    hit_ids: Sequence[str], first: Iterable[str], lexical: Iterable[str], indexed: Callable[[str], bool]
) -> list[str]:
    """The ids the index did not return but that join the pool: ``first`` (pinned,
    learned in the time asked about, of the attribute asked about), then lexical
    matches that are searchable (active, in the index), each once."""
    seen = set(hit_ids)
    extra: list[str] = []
    for i in first:
        if i not in seen:
            seen.add(i)
            extra.append(i)
    for i in lexical:
        if i not in seen and indexed(i):
            seen.add(i)
            extra.append(i)
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
    """The composite R of every active, embedded memory of the pool (and of the
    superseded ones found as history: selection never injects them), best first.

    The semantic term blends the sentence cosine with the cosine of the
    memory's message vector (``context_vector_weight``); continuity is the
    best cosine with the recent turns; the cluster bonus goes to the
    query's nearest cluster.
    """
    w = config.context_vector_weight
    kept = [m for m in pool.memories if m.embedding is not None and m.status in _SCORED]
    conts = _continuity(kept, turn_vectors)
    contexts = _context_cosines(kept, query) if w > 0 else {}
    out: list[Scored] = []
    for m, cont in zip(kept, conts, strict=True):
        bonus = config.cluster_bonus if topic is not None and m.cluster_id == topic else 0.0
        sim = pool.similarities[m.id]
        if m.id in contexts:
            sim = (1 - w) * sim + w * contexts[m.id]
        b = breakdown(
            m,
            similarity=sim,
            continuity=cont,
            now_ms=now_ms,
            config=config,
            cluster_bonus=bonus,
            lexical=pool.lexical.get(m.id, 0.0),
            time_bonus=config.time_range_bonus if pool.in_time(m) else 0.0,
            attribute_bonus=pool.attribute_bonus(config) if pool.sets_asked(m) else 0.0,
        )
        out.append(Scored(m, pool.similarities[m.id], b, max(0.0, min(1.0, sim))))
    out.sort(key=lambda s: -s.breakdown.total)
    return out


def _continuity(memories: Sequence[Memory], turn_vectors: Sequence[Vector]) -> list[float]:
    """Each memory's best cosine with the recent turns (0 without turns): one
    matrix product for the pool instead of a dot per memory and turn."""
    if not memories or not turn_vectors:
        return [0.0] * len(memories)
    sims = np.stack([m.embedding for m in memories if m.embedding is not None]) @ np.stack(turn_vectors).T
    return [float(v) for v in sims.max(axis=1)]


def _context_cosines(memories: Sequence[Memory], query: Vector) -> dict[str, float]:
    """The cosine of ``query`` with each memory's message vector (memories without one left out)."""
    have = [m for m in memories if m.context_embedding is not None]
    if not have:
        return {}
    sims = np.stack([m.context_embedding for m in have if m.context_embedding is not None]) @ query
    return {m.id: float(v) for m, v in zip(have, sims, strict=True)}


def message_of(m: Memory) -> tuple[str, str] | None:
    """The message a memory was learned from, as context-once tells them apart."""
    return (m.source_session, m.source_context) if m.source_context else None


def repeats_message(scored: Sequence[Scored]) -> bool:
    """Whether two of ``scored`` come from one message (context-once then reads
    the content-only lexical scores)."""
    keys = [k for s in scored if (k := message_of(s.memory)) is not None]
    return len(keys) != len(set(keys))


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
        key = message_of(m)
        if key is not None:
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


def rank(scored: Sequence[Scored], floor: float, *, repeat_penalty: float = 0.0) -> list[Scored]:
    """Pinned memories above the floor first, then by score (stable), then
    :func:`current_first`.  With ``repeat_penalty``, a memory ranks as if its R
    were that much lower for each memory of its message that scores above it
    (:func:`repeats`): one message's second fact yields to other messages'
    facts of nearly the same R.  R itself is unchanged."""
    by_score = sorted(scored, key=lambda s: -s.breakdown.total)
    lowered = repeats(by_score) if repeat_penalty > 0 else {}
    ordered = sorted(
        by_score,
        key=lambda s: (
            -(s.memory.pinned and s.breakdown.total > floor),
            -(s.breakdown.total - repeat_penalty * lowered.get(s.memory.id, 0)),
        ),
    )
    return current_first(ordered)


def repeats(ranked: Sequence[Scored]) -> dict[str, int]:
    """For each memory of ``ranked`` (best first) that follows another memory of its
    message, how many do (memories of no known message are left out)."""
    seen: dict[tuple[str, str], int] = {}
    out: dict[str, int] = {}
    for s in ranked:
        key = message_of(s.memory)
        if key is None:
            continue
        n = seen.get(key, 0)
        seen[key] = n + 1
        if n:
            out[s.memory.id] = n
    return out


def current_first(ranked: Sequence[Scored]) -> list[Scored]:
    """A fact closed by a temporal change (``valid_to`` set) or superseded never ranks
    above the fact that replaced it: the replacement moves up to where the closed
    fact stood, and the closed fact follows it, as history (a chain of changes:
    newest first).  Facts whose replacement is not among the candidates keep their
    place (they are labelled "no longer current" when injected)."""
    by_id = {s.memory.id: s for s in ranked}
    emitted: set[str] = set()
    out: list[Scored] = []

    def emit(s: Scored) -> None:
        if s.memory.id in emitted:
            return
        emitted.add(s.memory.id)  # before the successor: a cycle of replacements ends here
        successor = s.memory.superseded_by
        if replaced(s.memory) and successor in by_id:
            emit(by_id[successor])
        out.append(s)

    for s in ranked:
        emit(s)
    return out

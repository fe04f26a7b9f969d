"""Selection and packaging, the last recall stages: the evidence of relevance,
the gate (type filter, floor, evidence, margin), the limit and token budget,
the block, and the debug records of what was injected and what was not.  Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..config import Config
from ..records import InjectedMemory, ScoredMemory
from .budget import count_tokens
from .carry import CARRY_REASON
from .injection import BLOCK_END, BLOCK_START, format_block, format_line
from .newer import NEWER_REASON
from .relevance import BELOW_MARGIN, NO_EVIDENCE, evidence, inherit
from .scoring import explain
from .stages import (
    BELOW_FLOOR,
    BUDGET_EXHAUSTED,
    LIMIT_REACHED,
    SUPERSEDED,
    TYPE_FILTERED,
    Pool,
    Scored,
    Selection,
    TokenCounter,
    replaced,
)

__all__ = [
    "block_overhead",
    "candidate_debug",
    "evidence_of",
    "fit_block",
    "injected_debug",
    "replacements",
    "select",
]


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
    follows: Sequence[tuple[str, str]] = (),
) -> tuple[list[tuple[Scored, str]], dict[str, str | None]]:
    """Walk the ranking and keep what passes the type filter, the floor, the
    evidence test and the margin (when ``proof``, from :func:`evidence_of`, is
    given: see :mod:`.relevance`), the limit and the token budget (the block's
    frame is already taken off).  A closed fact's replacement, and a graph
    neighbour of a seed (``links``), stand at least where the fact or the seed
    (× the edge weight × ``graph_evidence_share``) stands for the floor and the
    margin; so does a newer memory that tells the change of an older one
    (``follows``: (older, newer) pairs from :func:`.newer.inheriting`)."""
    chosen: list[tuple[Scored, str]] = []
    reasons: dict[str, str | None] = {}
    used = 0
    bar = _margin_bar(ranked, floor, type_filter, proof, config)
    # The current version of a closed fact stands where the closed fact stands.
    lifted = inherit({s.memory.id: s.breakdown.total for s in ranked}, [*replacements(ranked), *follows])
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
    """memory id → evidence of relevance (successors inherit their predecessors';
    newer first's inheritances are applied by the caller, who knows them only after
    reading this), or None when relevance is not tested (``pool.coverage`` None)."""
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
    return inherit(own, replacements(ranked))


def replacements(ranked: Sequence[Scored]) -> list[tuple[str, str]]:
    """(closed or superseded fact, the fact that replaced it) pairs among the candidates."""
    return [
        (s.memory.id, s.memory.superseded_by) for s in ranked if replaced(s.memory) and s.memory.superseded_by
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
    if s.memory.status == "superseded":
        return SUPERSEDED
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
    """``relevance_margin`` × the best R among the candidates with evidence, the
    asked-attribute bonus left out: it lifts the facts of the slot asked about
    over the bar, it does not raise the bar for every other memory."""
    if proof is None or config.relevance_margin <= 0:
        return 0.0
    best = max(
        (s.breakdown.matched for s in ranked if _gate(s, floor, type_filter, proof, 0.0, config) is None),
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
    newer: Collection[str] = (),
    carried: Collection[str] = (),
) -> tuple[InjectedMemory, ...]:
    """Each injected memory with its score, breakdown, one-line reason, rank and
    evidence; ``newer``: the ids newer-first moved up (:mod:`.newer`), ``carried``:
    those carried in with a change's message (:mod:`.carry`), said in the reason."""
    return tuple(
        InjectedMemory(
            memory=s.memory,
            score=s.breakdown.total,
            score_breakdown=s.breakdown,
            reason=explain(s.memory, s.breakdown, s.similarity, config)
            + (NEWER_REASON if s.memory.id in newer else "")
            + (CARRY_REASON if s.memory.id in carried else ""),
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

"""``augment()`` on the engine: the recall pipeline.

Stages, each timed and recorded in ``debug.stages``: **parse** (pure:
:mod:`lokulmem.retrieval.parse`), **embed**, **mode-selection** (the index's
search mode), **candidates** (I/O: :mod:`.pool`), **scoring** and
**ranking** (pure: :mod:`lokulmem.retrieval.stages`), **relevance** (the
evidence test: :mod:`lokulmem.retrieval.relevance`), **packaging** (the
block within the token budget, and an evidence card per injected memory)
and **audit** (what was considered and excluded, and why).  Injected
memories are then reinforced in one unit of work.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..decay import confidence_label, reinforce
from ..episodes import episode_block
from ..records import (
    AugmentResult,
    Episode,
    EvidenceCard,
    InjectedMemory,
    LokulMemDebug,
    QueryAnalysis,
    ScoredMemory,
    StageTrace,
    UpcomingMemory,
)
from ..retrieval import count_tokens, inject, message_text
from ..retrieval import stages as st
from ..retrieval.injection import format_upcoming
from ..retrieval.parse import parse_query
from .args import AugmentArgs
from .pool import candidate_pool, graph_links, upcoming_events
from .unit import Changes

if TYPE_CHECKING:
    from ..config import Config
    from .engine import Engine

__all__ = ["evidence_cards", "run_augment"]

Vector = npt.NDArray[np.float32]


class _Clock:
    """Times the stages of one ``augment()``."""

    def __init__(self) -> None:
        self.stages: list[StageTrace] = []
        self._t = time.perf_counter()

    def done(self, name: str, detail: str = "", **counts: int) -> None:
        now = time.perf_counter()
        self.stages.append(StageTrace(name=name, ms=(now - self._t) * 1000, counts=counts, detail=detail))
        self._t = now

    def ms(self, *names: str) -> float:
        return sum(s.ms for s in self.stages if s.name in names)


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
    require_evidence: bool | None = None,
    include_proactive: bool | None = None,
    include_episodes: bool = True,
) -> AugmentResult:
    """What to inject for ``message`` (see ``LokulMem.augment``); injected memories are
    reinforced unless ``reinforce_injected`` is false (the injection preview)."""
    cfg, counter = engine.config, engine.token_counter
    args = AugmentArgs.parse(
        cfg,
        message,
        history,
        max_memories=max_memories,
        min_relevance=min_relevance,
        types=types,
        require_evidence=require_evidence,
        include_proactive=include_proactive,
        include_episodes=include_episodes,
    )
    available = st.available_tokens(args.history, args.text, cfg, counter)
    clock = _Clock()
    with engine.lock:
        engine.ensure()
        now = engine.clock.now_ms()
        parsed = parse_query(args.text, now, cfg)
        clock.done("parse", f"intent: {parsed.intent}", terms=len(parsed.terms))
        if not args.text.strip():
            empty = st.Selection(chosen=(), reasons={}, block="", tokens_used=0)
            audit = _audit(engine, parsed, clock, empty, (), (), available, 0) if debug else None
            return AugmentResult(
                messages=inject(args.history, args.text, "", cfg.injection_mode), debug=audit
            )
        query, turn_vectors = _embed_query(engine, args)
        clock.done("embed", texts=1 + len(turn_vectors))
        engine.sync_index()
        searched = len(engine.index)
        clock.done("mode-selection", f"{engine.index.search_mode} search over {searched} vectors")
        pool, sources = candidate_pool(engine, query, parsed, evidence=args.evidence)
        clock.done("candidates", "", **sources)
        topic = st.topic_of(*engine.topic_clusters(), query)
        scored = st.score(pool, query=query, turn_vectors=turn_vectors, topic=topic, now_ms=now, config=cfg)
        clock.done("scoring", scored=len(scored))
        ranked = st.rank(st.context_once(scored, pool.lexical_own, cfg), args.floor)
        clock.done("ranking", ranked=len(ranked))
        proof = st.evidence_of(ranked, pool, cfg)
        links: dict[str, tuple[str, float]] = {}
        if cfg.graph_bonus > 0:
            ranked, proof, links = _second_pass(
                engine, ranked, proof, pool, query, turn_vectors, topic, now, args
            )
            clock.done("graph", linked=len(links))
        passed = (
            sum(v >= cfg.relevance_threshold for v in proof.values()) if proof is not None else len(ranked)
        )
        clock.done("relevance", "evidence tested" if proof is not None else "not tested", relevant=passed)
        pushed = _pushed(engine, now) if args.proactive else []
        lead = [(u.memory.id, format_upcoming(u.memory, u.event_start, cfg)) for u in pushed]
        if args.proactive:
            clock.done("proactive", pushed=len(pushed))
        lead_ids = {i for i, _ in lead}
        ranked = [s for s in ranked if s.memory.id not in lead_ids]
        lead_cost = sum(count_tokens(line + "\n", counter) for _, line in lead)
        chosen, reasons = st.select(
            ranked,
            floor=args.floor,
            limit=args.limit,
            budget=available - st.block_overhead(counter) - lead_cost,
            type_filter=args.type_filter,
            config=cfg,
            counter=counter,
            proof=proof,
            links=links,
        )
        selection = st.fit_block(chosen, reasons, available=available, counter=counter, lead=lead)
        episode = _episode(engine, query) if args.episodes else None
        block = selection.block
        if episode is not None:
            text = episode_block(episode, now)
            block = f"{block}\n\n{text}" if block else text
            if count_tokens(block, counter) > available:
                episode, block = None, selection.block
            clock.done("episodes", injected=int(episode is not None))
        clock.done("packaging", injected=len(selection.chosen), tokens=selection.tokens_used)
        if reinforce_injected:  # a real augment (not a preview) remembers what it pushed
            engine.pushed.update(dict.fromkeys(selection.lead, now))
        changes = Changes()
        if reinforce_injected and selection.chosen:
            changes = engine.apply(
                Changes(updated=[reinforce(s.memory, now, cfg) for s, _ in selection.chosen])
            )
            clock.done("reinforce", reinforced=len(selection.chosen))
    engine.announce(changes)
    audit = None
    if debug:
        candidates = st.candidate_debug(ranked, selection.reasons, cfg, pool, proof)
        injected = st.injected_debug(selection, cfg, counter, pool, proof)
        kept = set(selection.lead)
        proactive = tuple(u for u in pushed if u.memory.id in kept)
        audit = _audit(engine, parsed, clock, selection, injected, candidates, available, searched, proactive)
        audit = dataclasses.replace(
            audit, episode_injected=episode, tokens_used=count_tokens(block, counter) if block else 0
        )
    return AugmentResult(
        messages=inject(args.history, args.text, block, cfg.injection_mode),
        debug=audit,
        context=block,
    )


def _episode(engine: Engine, query: Vector) -> Episode | None:
    """The past conversation most similar to the query, if it reaches ``episode_similarity``."""
    episodes, vectors = engine.episode_vectors()
    if vectors is None:
        return None
    sims = vectors @ query
    best = int(np.argmax(sims))
    return episodes[best] if float(sims[best]) >= engine.config.episode_similarity else None


def _pushed(engine: Engine, now: int) -> list[UpcomingMemory]:
    """The proactive memories to push now: above ``proactive_threshold`` and not pushed
    in the last ``proactive_repeat_hours``, most urgent first."""
    cfg = engine.config
    quiet = now - int(cfg.proactive_repeat_hours * 3_600_000)
    engine.pushed = {i: t for i, t in engine.pushed.items() if t > quiet}  # bounded
    found = upcoming_events(engine, now, cfg.proactive_window_days)
    found = [
        u
        for u in found
        if u.score > cfg.proactive_threshold and engine.pushed.get(u.memory.id, quiet) <= quiet
    ]
    found.sort(key=lambda u: (-u.score, u.event_start))
    return found[: cfg.max_proactive]


def _second_pass(
    engine: Engine,
    ranked: list[st.Scored],
    proof: dict[str, float] | None,
    pool: st.Pool,
    query: Vector,
    turn_vectors: Sequence[Vector],
    topic: str | None,
    now: int,
    args: AugmentArgs,
) -> tuple[list[st.Scored], dict[str, float] | None, dict[str, tuple[str, float]]]:
    """Knowledge-graph neighbours of the best results join (if new) and get the bonus."""
    cfg = engine.config
    links, extra = graph_links(engine, query, st.seeds(ranked, proof, cfg), pool)
    if not links:
        return ranked, proof, links
    more = st.score(extra, query=query, turn_vectors=turn_vectors, topic=topic, now_ms=now, config=cfg)
    if proof is not None:
        proof = {**proof, **(st.evidence_of(more, extra, cfg) or {})}
    linked, proof = st.link([*ranked, *more], links, proof, cfg)
    return st.rank(sorted(linked, key=lambda s: -s.breakdown.total), args.floor), proof, links


def evidence_cards(injected: Sequence[InjectedMemory], config: Config) -> tuple[EvidenceCard, ...]:
    """An evidence card for each injected memory (HOM packaging)."""
    return tuple(
        EvidenceCard(
            memory_id=i.memory.id,
            content=i.memory.content,
            types=i.memory.types,
            status=i.memory.status,
            current=i.memory.valid_to is None,
            valid_from=i.memory.valid_from,
            valid_to=i.memory.valid_to,
            source=i.memory.source,
            session=i.memory.source_session,
            turn=i.memory.source_turn,
            confidence=confidence_label(i.memory, config),
            rank=i.injection_rank,
            score=i.score,
            reason=i.reason,
            evidence=i.evidence,
        )
        for i in injected
    )


def _audit(
    engine: Engine,
    parsed: QueryAnalysis,
    clock: _Clock,
    selection: st.Selection,
    injected: tuple[InjectedMemory, ...],
    candidates: tuple[ScoredMemory, ...],
    available: int,
    searched: int,
    proactive: tuple[UpcomingMemory, ...] = (),
) -> LokulMemDebug:
    excluded = Counter(r for r in selection.reasons.values() if r is not None)
    clock.done("audit", considered=len(selection.reasons), excluded=sum(excluded.values()))
    return LokulMemDebug(
        injected=injected,
        candidates=candidates,
        tokens_used=selection.tokens_used,
        tokens_available=available,
        retrieval_strategy="brute-force",
        search_mode=engine.index.search_mode,
        embedding_latency_ms=clock.ms("embed"),
        retrieval_latency_ms=clock.ms("mode-selection", "candidates", "scoring", "ranking", "relevance"),
        searched=searched,
        pipeline=tuple(s.name for s in clock.stages),
        query=parsed,
        stages=tuple(clock.stages),
        evidence=evidence_cards(injected, engine.config),
        excluded=dict(excluded),
        proactive_injected=proactive,
    )

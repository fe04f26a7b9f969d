"""``augment()`` on the engine: the recall pipeline.

Stages, each timed and recorded in ``debug.stages``: **parse** (pure:
:mod:`lokulmem.retrieval.parse`), **embed**, **mode-selection** (the index's
search mode), **candidates** (I/O: :mod:`.pool`), **scoring** and
**ranking** (pure: :mod:`lokulmem.retrieval.stages`), **graph** (the
knowledge-graph second pass), **relevance** (the evidence test:
:mod:`lokulmem.retrieval.relevance`), **proactive** (events coming up, on a
conversation's first turn), **episodes** (the most similar past
conversation), **packaging** (the block within the token budget:
:mod:`lokulmem.retrieval.selection`), **reinforce** (one unit of work) and
**audit** (:mod:`.audit`: what was considered and excluded, and why).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..decay import reinforce
from ..episodes import episode_block
from ..hygiene import clean_text
from ..records import AugmentResult, Episode, UpcomingMemory
from ..retrieval import count_tokens, inject, message_text
from ..retrieval import selection as sel
from ..retrieval import stages as st
from ..retrieval.carry import carry_message
from ..retrieval.injection import format_upcoming
from ..retrieval.nearby import said_nearby
from ..retrieval.newer import inheriting, newer_first
from ..retrieval.parse import parse_query
from ..retrieval.relevance import inherit
from .args import AugmentArgs
from .audit import StageClock, debug_record
from .pool import (
    candidate_pool,
    graph_links,
    later_word_pool,
    own_lexical_scores,
    text_candidates,
    upcoming_events,
)
from .routing import route_query
from .topics import asked_note
from .unit import Changes

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["run_augment"]

Vector = npt.NDArray[np.float32]
Links = dict[str, tuple[str, float]]


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
    args = AugmentArgs.parse(
        engine.config,
        message,
        history,
        max_memories=max_memories,
        min_relevance=min_relevance,
        types=types,
        require_evidence=require_evidence,
        include_proactive=include_proactive,
        include_episodes=include_episodes,
    )
    run = _Recall(engine, args)
    with engine.lock, engine.blas_limit():
        engine.ensure(settle=False)  # the context vectors are settled after the embedding
        run.parse()
        if args.text.strip():
            run.retrieve()
            run.judge()
            run.package()
            changes = run.reinforce(remember=reinforce_injected)
        else:
            changes = Changes()
    engine.announce(changes)
    return run.result(debug=debug)


@dataclass
class _Recall:
    """The working state of one ``augment()``, stage by stage."""

    engine: Engine
    args: AugmentArgs
    clock: StageClock = field(default_factory=StageClock)
    now: int = 0
    selection: st.Selection = field(default_factory=lambda: st.Selection((), {}, "", 0))
    ranked: list[st.Scored] = field(default_factory=list)
    #: Newer-first's moves: newer id → the older memory on the same subject it moved above.
    newer: dict[str, str] = field(default_factory=dict)
    proof: dict[str, float] | None = None
    #: The evidence of each candidate before newer first lends any (None: not tested).
    own_proof: dict[str, float] | None = None
    #: Ids whose own evidence reaches ``relevance_threshold`` (none when not tested).
    relevant: frozenset[str] = frozenset()
    #: (older, newer) moves of newer first whose newer memory inherits the older's standing.
    follows: list[tuple[str, str]] = field(default_factory=list)
    #: Memories carried in with the message of a change (:mod:`lokulmem.retrieval.carry`).
    carried: frozenset[str] = frozenset()
    #: Later words on the best result found by its own words or vector
    #: (``newer_first_echo_search``, ``newer_first_echo_neighbours``).
    later_words: int = 0
    links: Links = field(default_factory=dict)
    pushed: list[UpcomingMemory] = field(default_factory=list)
    episode: Episode | None = None
    block: str = ""
    searched: int = 0

    def __post_init__(self) -> None:
        cfg = self.engine.config
        self.available = st.available_tokens(
            self.args.history, self.args.text, cfg, self.engine.token_counter
        )

    def parse(self) -> None:
        self.now = self.engine.clock.now_ms()
        cfg = self.engine.config
        self.parsed = parse_query(self.args.text[: cfg.max_message_chars], self.now, cfg)
        self.clock.done("parse", f"intent: {self.parsed.intent}", terms=len(self.parsed.terms))

    def retrieve(self) -> None:
        """Embed, search, score and rank."""
        engine, cfg = self.engine, self.engine.config
        # The lexical, time and pinned reads need no vector: they run beside the
        # embedding (on the engine's recall thread) when ``overlap_text_search`` is on.
        text = engine.beside.run(lambda: text_candidates(engine, self.parsed))
        self.query, self.turn_vectors = _embed_query(engine, self.args)
        self.clock.done("embed", texts=1 + len(self.turn_vectors))
        # Context vectors of the last learn(), embedded beside this one, are written
        # before any memory is read.
        engine.settle_contexts()
        engine.sync_index()
        self.searched = len(engine.index)
        mode, why = engine.index.choose()
        self.clock.done("mode-selection", f"{mode} search over {self.searched} vectors: {why}")
        found, beside = text.result()
        self.parsed, found = route_query(engine, self.args.text, self.parsed, self.query, found)
        self.pool, sources = candidate_pool(
            engine, self.query, self.parsed, found, evidence=self.args.evidence
        )
        where = "beside the embedding" if beside else "in this stage"
        routing = asked_note(self.parsed, self.pool)
        self.clock.done("candidates", f"lexical, time and pinned reads ran {where}{routing}", **sources)
        self.topic = st.topic_of(*engine.topic_clusters(), self.query)
        scored = st.score(
            self.pool,
            query=self.query,
            turn_vectors=self.turn_vectors,
            topic=self.topic,
            now_ms=self.now,
            config=cfg,
        )
        self.clock.done("scoring", scored=len(scored))
        if cfg.context_once and st.repeats_message(scored):
            own = own_lexical_scores(engine, self.parsed.terms, self.pool.lexical_best)
            self.pool = replace(self.pool, lexical_own=own)
        ranked = st.rank(st.context_once(scored, self.pool.lexical_own, cfg), self.args.floor)
        if cfg.nearby_bonus > 0 or cfg.message_repeat_penalty > 0:
            # Said nearby reads the first order's best results; a message's repeats
            # yield to other messages in the final one.
            ranked = st.rank(
                said_nearby(ranked, cfg), self.args.floor, repeat_penalty=cfg.message_repeat_penalty
            )
        # The evidence does not depend on the order: newer first reads which are relevant.
        self.own_proof = sel.evidence_of(ranked, self.pool, cfg)
        bar = cfg.relevance_threshold
        self.relevant = frozenset(i for i, v in (self.own_proof or {}).items() if v >= bar)
        self._newer_first(ranked)
        self.clock.done(
            "ranking",
            ranked=len(self.ranked),
            newer_first=len(self.newer),
            later_words=self.later_words,
            message_repeats=len(st.repeats(self.ranked)) if cfg.message_repeat_penalty > 0 else 0,
        )

    def _newer_first(self, ranked: list[st.Scored]) -> None:
        """The final order, newer first's moves and those that lend standing."""
        cfg = self.engine.config
        ranked, later, added = self._with_later_words(ranked)
        self.ranked, self.newer = newer_first(
            ranked,
            cfg,
            asks_now=self.parsed.asks_now,
            head=self.engine.pair_head,
            relevant=self.relevant,
            later=later,
        )
        if added:  # found for the echo alone: those that did not move are no candidates
            self.ranked = [s for s in self.ranked if s.memory.id not in added or s.memory.id in self.newer]
        follows = inheriting(self.ranked, self.newer, cfg, self.relevant, later)
        pairs = [*follows, *sel.replacements(self.ranked)] if self.parsed.asks_now else []
        self.ranked, carried = carry_message(self.ranked, pairs, cfg)
        self.follows = follows + carried
        self.carried = frozenset(n for _, n in carried)

    def _with_later_words(
        self, ranked: list[st.Scored]
    ) -> tuple[list[st.Scored], frozenset[str], frozenset[str]]:
        """``ranked`` with the later words on its best current result that it lacks
        scored after it (``newer_first_echo_search``, ``newer_first_echo_neighbours``;
        for a question about now whose best current result is relevant); the ids
        of all later words found, and of those added."""
        cfg, none = self.engine.config, frozenset[str]()
        search = cfg.newer_first_echo_search or cfg.newer_first_echo_neighbours
        if not (search and cfg.newer_first_echo_similarity and self.parsed.asks_now):
            return ranked, none, none
        lender = next((s.memory for s in ranked[: cfg.newer_first_window] if not st.replaced(s.memory)), None)
        if lender is None or lender.id not in self.relevant:
            return ranked, none, none
        have = {s.memory.id for s in ranked}
        found = later_word_pool(self.engine, lender, self.query, self.pool)
        later = frozenset(m.id for m in found.memories)
        self.later_words = len(later)
        extra = replace(found, memories=[m for m in found.memories if m.id not in have])
        if not extra.memories:
            return ranked, later, none
        more = self._score(extra)
        if self.own_proof is not None:
            self.own_proof = {**self.own_proof, **(sel.evidence_of(more, extra, cfg) or {})}
        added = frozenset(m.id for m in extra.memories)
        return [*ranked, *sorted(more, key=lambda s: -s.breakdown.total)], later, added

    def _score(self, pool: st.Pool) -> list[st.Scored]:
        """``pool`` scored for this query (candidates that join after the first scoring)."""
        return st.score(
            pool,
            query=self.query,
            turn_vectors=self.turn_vectors,
            topic=self.topic,
            now_ms=self.now,
            config=self.engine.config,
        )

    def judge(self) -> None:
        """The evidence of relevance, and the knowledge-graph second pass."""
        cfg = self.engine.config
        self.proof = None if self.own_proof is None else inherit(self.own_proof, self.follows)
        if cfg.graph_bonus > 0:
            self._second_pass()
            self.clock.done("graph", linked=len(self.links))
        tested = self.proof is not None
        passed = sum(v >= cfg.relevance_threshold for v in self.proof.values()) if self.proof else 0
        self.clock.done(
            "relevance",
            "evidence tested" if tested else "not tested",
            relevant=passed if tested else len(self.ranked),
        )

    def _second_pass(self) -> None:
        """Knowledge-graph neighbours of the best results join (if new) and get the bonus."""
        cfg = self.engine.config
        links, extra = graph_links(self.engine, self.query, st.seeds(self.ranked, self.proof, cfg), self.pool)
        self.links = links
        if not links:
            return
        more = self._score(extra)
        if self.proof is not None:
            self.proof = {**self.proof, **(sel.evidence_of(more, extra, cfg) or {})}
        linked, self.proof = st.link([*self.ranked, *more], links, self.proof, cfg)
        ranked = st.rank(linked, self.args.floor, repeat_penalty=cfg.message_repeat_penalty)
        # The final order is this pass's: so are the ids it moved.
        self._newer_first(ranked)
        if self.proof is not None:
            self.proof = inherit(self.proof, self.follows)

    def package(self) -> None:
        """Proactive memories first, then the selection within the budget, then the episode."""
        engine, cfg, counter = self.engine, self.engine.config, self.engine.token_counter
        self.pushed = _pushed(engine, self.now) if self.args.proactive else []
        lead = [(u.memory.id, format_upcoming(u.memory, u.event_start, cfg)) for u in self.pushed]
        if self.args.proactive:
            self.clock.done("proactive", pushed=len(self.pushed))
        lead_ids = {i for i, _ in lead}
        self.ranked = [s for s in self.ranked if s.memory.id not in lead_ids]
        lead_cost = sum(count_tokens(line + "\n", counter) for _, line in lead)
        chosen, reasons = sel.select(
            self.ranked,
            floor=self.args.floor,
            limit=self.args.limit,
            budget=self.available - sel.block_overhead(counter) - lead_cost,
            type_filter=self.args.type_filter,
            config=cfg,
            counter=counter,
            proof=self.proof,
            links=self.links,
            follows=self.follows,
        )
        self.selection = sel.fit_block(chosen, reasons, available=self.available, counter=counter, lead=lead)
        self.block = self.selection.block
        if self.args.episodes:
            self._add_episode()
        self.clock.done("packaging", injected=len(self.selection.chosen), tokens=self.selection.tokens_used)

    def _add_episode(self) -> None:
        self.episode = _episode(self.engine, self.query)
        if self.episode is None:
            return
        text = episode_block(self.episode, self.now)
        block = f"{self.block}\n\n{text}" if self.block else text
        if count_tokens(block, self.engine.token_counter) > self.available:
            self.episode = None
        else:
            self.block = block
        self.clock.done("episodes", injected=int(self.episode is not None))

    def reinforce(self, *, remember: bool) -> Changes:
        """Reinforce the injected memories and remember the pushes (not in a preview)."""
        if not remember:
            return Changes()
        self.engine.pushed.update(dict.fromkeys(self.selection.lead, self.now))
        if not self.selection.chosen:
            return Changes()
        cfg = self.engine.config
        changes = self.engine.apply(
            Changes(touched=[reinforce(s.memory, self.now, cfg) for s, _ in self.selection.chosen])
        )
        self.clock.done("reinforce", reinforced=len(self.selection.chosen))
        return changes

    def result(self, *, debug: bool) -> AugmentResult:
        engine, cfg, counter = self.engine, self.engine.config, self.engine.token_counter
        audit = None
        if debug:
            pool = getattr(self, "pool", None)
            kept = set(self.selection.lead)
            audit = debug_record(
                engine,
                parsed=self.parsed,
                clock=self.clock,
                selection=self.selection,
                injected=sel.injected_debug(
                    self.selection, cfg, counter, pool, self.proof, self.newer, self.carried
                ),
                candidates=sel.candidate_debug(self.ranked, self.selection.reasons, cfg, pool, self.proof),
                available=self.available,
                tokens_used=count_tokens(self.block, counter) if self.block else 0,
                searched=self.searched,
                proactive=tuple(u for u in self.pushed if u.memory.id in kept),
                episode=self.episode,
            )
        return AugmentResult(
            messages=inject(self.args.history, self.args.text, self.block, cfg.injection_mode),
            debug=audit,
            context=self.block,
        )


def _embed_query(engine: Engine, args: AugmentArgs) -> tuple[Vector, Sequence[Vector]]:
    cfg = engine.config
    turns = [message_text(m) for m in args.history if m.get("role") in ("user", "assistant")]
    turns = [t for t in turns if t.strip()][-cfg.continuity_turns :]
    turns = [clean_text(t, cfg.max_message_chars) for t in turns]
    vecs = engine.embedder.embed([args.text[: cfg.max_message_chars], *turns])
    return vecs[0], list(vecs[1:])


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
    found = [
        u
        for u in upcoming_events(engine, now, cfg.proactive_window_days)
        if u.score > cfg.proactive_threshold and engine.pushed.get(u.memory.id, quiet) <= quiet
    ]
    found.sort(key=lambda u: (-u.score, u.event_start))
    return found[: cfg.max_proactive]

"""``learn()`` on the engine: read the message, plan it (pure), commit it (one unit of work)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..endings import ended
from ..extraction import Analysis, analyze_text, split_sentences
from ..graph import plan_edges
from ..index.brute import SearchHit
from ..maintenance import sweep_due
from ..records import Edge, LearnResult, Memory, Source, context_text
from .args import LearnArgs
from .candidates import stage1
from .episodic import due_sessions, end_sessions
from .facts import Provenance, frozen
from .sentence import LearnPlan, MessageFacts, gate, plan_message, with_context_vector
from .unit import Changes

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["run_learn"]

#: Nearest stored memories of each sentence vector, by its bytes (one search per vector).
Nearest = dict[bytes, list[SearchHit]]
#: Stage-1 contradiction candidates of one sentence and their cosines.
Stage1 = tuple[dict[str, Memory], dict[str, float]]


def _analyses(text: str, engine: Engine) -> list[Analysis]:
    cfg = engine.config
    sentences = [s[: cfg.max_sentence_chars] for s in split_sentences(text)]
    return [analyze_text(s, cfg) for s in sentences[: cfg.max_sentences_per_message]]


def _message_facts(
    engine: Engine, args: LearnArgs, analyses: Sequence[Analysis], sid: str, now: int
) -> MessageFacts:
    cfg = engine.config
    state = engine.sessions.get(sid)
    replied = state.last_response if args.in_reply_to is None else args.in_reply_to
    reply = replied[-cfg.max_reply_context_chars :] if cfg.max_reply_context_chars else ""
    needs_types = any(gate(a, args.force, cfg) is None for a in analyses)
    protos = engine.prototype_vectors() if needs_types else {}
    return MessageFacts(
        source=Provenance(
            session_id=sid,
            turn=state.turn,
            now=now,
            message=args.text[: cfg.max_context_chars],
            reply=reply.strip(),
            origin=args.origin,
        ),
        force=args.force,
        skip=args.skip,
        # A sentence without "I" in a message that has one is still the speaker's
        # ("Thanks Dana! It's been years since I took a real holiday."): no impersonal margin.
        personal=any(not a.impersonal for a in analyses),
        session_vectors=tuple(state.vectors),
        # Transient types (fast λ) need an explicit cue; the fallback picks a durable one.
        prototypes={k: v for k, v in protos.items() if k not in cfg.transient_types},
        # The head may be loaded for newer-first alone; stage 3b uses it only when asked.
        head=engine.pair_head if cfg.contradiction_classifier else None,
    )


def _plan(engine: Engine, args: LearnArgs, sid: str, now: int) -> tuple[LearnPlan, Nearest]:
    """The message's plan, and the nearest stored memories of each sentence vector
    (searched once: stage 1 reads the first ``contradiction_candidates`` of them,
    the knowledge-graph edges the first ``edge_candidates``)."""
    cfg = engine.config
    analyses = _analyses(args.text, engine)
    facts = _message_facts(engine, args, analyses, sid, now)
    texts = [a.content for a in analyses]
    # The message (the context vector) is embedded only when a sentence may be
    # stored: beside the rest of the plan on the context thread (defer_context_vector,
    # docs/tuning.md entry 38), or else in the sentences' model call.
    kept = [gate(a, args.force, cfg) is None for a in analyses]
    message = context_text(facts.source.reply, facts.source.message)
    wanted = cfg.context_vector_weight > 0 and any(kept)
    context = wanted and not cfg.defer_context_vector
    if context:
        texts.append(message)
    embedded = list(engine.embedder.embed(texts)) if texts else []
    vectors = embedded[: len(analyses)]
    # Deferred: the context is embedded beside the rest of the plan (queued below).
    job = engine.contexts.start(message) if wanted and cfg.defer_context_vector else None
    k = max(cfg.contradiction_candidates, cfg.edge_candidates if cfg.build_edges else 0)
    near: Nearest = {}
    found: list[Stage1 | None] = []
    for a, vec, keep in zip(analyses, vectors, kept, strict=True):
        if not keep:
            found.append(None)
            continue
        key = vec.tobytes()
        if key not in near:
            near[key] = engine.index.search(vec, k)
        hits = near[key]
        endings = ended(a.content, cfg.ending_phrases, cfg.role_ending_phrases, cfg.user_label)
        names = [e.name for e in endings]
        found.append(stage1(engine, vec, a.attribute, hits[: cfg.contradiction_candidates], names))
    plan = plan_message(analyses, vectors, found, facts, cfg)
    if plan.new and context:
        plan = with_context_vector(plan, frozen(embedded[-1]))
    if plan.new and job is not None:
        engine.contexts.queue(job, [m.id for m in plan.new])
    return plan, near


def _edges(engine: Engine, new: Sequence[Memory], near_hits: Nearest, now: int) -> list[Edge]:
    """Knowledge-graph edges from each new memory to its nearest stored memories, to
    memories naming the same entities, and to the other new memories of the message
    (``near_hits``: the searches :func:`_plan` made, by vector)."""
    cfg = engine.config
    if not cfg.build_edges or not new:
        return []
    out: dict[str, Edge] = {}
    for m in new:
        if m.embedding is None:
            continue
        hits = near_hits.get(m.embedding.tobytes())
        if hits is None:
            hits = engine.index.search(m.embedding, cfg.edge_candidates)
        near = {h.id: h.similarity for h in hits[: cfg.edge_candidates]}
        for entity in m.entities:
            named = engine.storage.entity_mentions(entity, limit=cfg.edge_candidates)
            found = [i for i in named if i not in near and i in engine.index]
            near.update(zip(found, engine.index.similarities(m.embedding, found), strict=True))
        pairs = [(o, near[o.id]) for o in engine.fetch_cached(list(near))]
        for o in new:  # the other new memories of the message
            if o is not m and o.embedding is not None:
                pairs.append((o, float(m.embedding @ o.embedding)))
        for e in plan_edges(m, pairs, now, cfg):
            out.setdefault(e.id, e)
    return list(out.values())


def _advance_session(engine: Engine, sid: str, args: LearnArgs, plan: LearnPlan, now: int) -> None:
    """The session after a message: its turn, what the reply said, its recent vectors."""
    state = engine.sessions.get(sid)
    if args.origin == "direct":  # remember() is not a turn of the conversation
        state.turn += 1
        state.last_response = args.response
        state.vectors.extend(plan.vectors)  # bounded: maxlen = session_sentence_window
    state.last_at, state.ended = now, False


def run_learn(
    engine: Engine,
    user_message: object,
    assistant_response: object = "",
    *,
    session_id: str | None = None,
    force_extract: bool = False,
    skip_types: Sequence[str] = (),
    in_reply_to: str | None = None,
    source: Source = "direct",
) -> LearnResult:
    """Extract, type and store the facts of one user message (see ``LokulMem.learn``);
    ``source="reasoning"`` for ``remember()``."""
    args = LearnArgs.parse(
        engine.config,
        user_message,
        assistant_response,
        session_id=session_id,
        force_extract=force_extract,
        skip_types=skip_types,
        in_reply_to=in_reply_to,
    )
    if source != "direct":
        args = dataclasses.replace(args, origin=source)
    with engine.lock, engine.blas_limit():
        # Pending context vectors are written with this message's memories (apply).
        engine.ensure(settle=False)
        if not args.text.strip():
            return LearnResult(total_memories=engine.storage.count_memories("active"))
        sid = args.session_id or engine.default_session
        now = engine.clock.now_ms()
        end_sessions(engine, due_sessions(engine, sid, now), now)
        new_session = sid not in engine.sessions
        engine.sync_index()
        plan, near = _plan(engine, args, sid, now)
        changes = engine.apply(
            Changes(
                added=plan.new,
                updated=list(plan.updates.values()),
                contradictions=plan.contradictions,
                edges=_edges(engine, plan.new, near, now),
            )
        )
        _advance_session(engine, sid, args, plan, now)
        total = engine.storage.count_memories("active")
    engine.announce(changes)
    # Session start: cluster if enough was added; any learn: sweep if due.
    if new_session or sweep_due(engine, now):
        engine.schedule_maintenance(cluster=None if new_session else False)
    with engine.lock:
        faded, engine.pending_faded = tuple(engine.pending_faded), []
    return LearnResult(
        extracted=tuple(plan.new),
        contradictions=tuple(plan.contradictions),
        faded=faded,
        total_memories=total,
        reinforced=tuple(plan.updates[i] for i in plan.reinforced),
        decisions=tuple(plan.decisions),
        truncated=args.truncated,
    )

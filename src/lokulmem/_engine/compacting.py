"""``compact()`` on the engine: plan (pure, :mod:`lokulmem.compaction`), learn the
compacted user messages, write the track artifacts in one transaction, prove
they are retrievable, then build the compacted history."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..compaction import TRACKS, CompactionPlan, chunk_lines, message_tokens, plan_compaction, summary_message
from ..episodes import central_picks
from ..errors import CompactionError, ValidationError
from ..records import AugmentResult, CompactionResult, Kind, Memory, StageTrace
from .args import check_ident
from .facts import frozen
from .learning import run_learn
from .unit import Changes

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["history_budget", "needs_compaction", "run_compact", "with_compaction"]

_KINDS: Mapping[str, Kind] = {
    "conversation": "episodic",
    "tool_usage": "action_trace",
    "action_taken": "action_trace",
}


def history_budget(engine: Engine, message_tokens_: int = 0) -> int:
    """Tokens the history may take: the window less the reply, the memory block's
    reserve and the new message."""
    cfg = engine.config
    room = cfg.context_window_size - cfg.response_buffer - cfg.compaction_memory_reserve - message_tokens_
    return max(1, room)


def _check_budget(budget: object) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValidationError("budget_tokens", f"must be a positive integer or None, got {budget!r}")
    return budget


def run_compact(
    engine: Engine, history: object, *, session_id: object, budget_tokens: object = None
) -> CompactionResult:
    """See ``LokulMem.compact``."""
    sid = check_ident(engine.config, "session_id", session_id)
    budget = history_budget(engine) if budget_tokens is None else _check_budget(budget_tokens)
    recent = int(budget * engine.config.compaction_recent_share)
    # Raises before anything is written.
    plan = plan_compaction(history, recent_budget=recent, config=engine.config)
    before = sum(message_tokens(m) for m in (*plan.head, *plan.older, *plan.kept))
    if not plan.older:
        messages = [dict(m) for m in (*plan.head, *plan.kept)]
        return CompactionResult(messages=messages, tokens_before=before, tokens_after=before)
    facts = _learn_facts(engine, plan, sid)
    artifacts, counts = _write_artifacts(engine, plan, sid)
    _prove_continuity(engine, facts, artifacts, plan)
    room = budget - sum(message_tokens(m) for m in (*plan.head, *plan.kept))
    room = min(room, int(budget * engine.config.compaction_summary_share))
    summary = summary_message(
        len(plan.older),
        _summary_facts(engine, facts),
        plan.tracks["action_taken"],
        max_chars=max(200, (room - 4) * 4),
    )
    messages = [dict(m) for m in plan.head] + [summary] + [dict(m) for m in plan.kept]
    return CompactionResult(
        messages=messages,
        compacted=len(plan.older),
        artifact_ids=tuple(m.id for m in artifacts),
        track_counts=counts,
        fact_ids=tuple(m.id for m in facts),
        summary=summary["content"],
        tokens_before=before,
        tokens_after=sum(message_tokens(m) for m in messages),
    )


def _learn_facts(engine: Engine, plan: CompactionPlan, sid: str) -> list[Memory]:
    """The normal learn path over each compacted user message (a restated fact is
    reinforced, not duplicated); the facts stored or reinforced."""
    out: dict[str, Memory] = {}
    for text, reply in plan.user_messages:
        result = run_learn(engine, text, session_id=sid, in_reply_to=reply)
        for m in (*result.extracted, *result.reinforced):
            out[m.id] = m
    return list(out.values())


def _write_artifacts(engine: Engine, plan: CompactionPlan, sid: str) -> tuple[list[Memory], dict[str, int]]:
    """Every track in full, chunked and embedded, in one transaction (source ``compaction``)."""
    cfg = engine.config
    event = str(uuid.uuid4())
    pieces = [
        (track, n, chunk)
        for track in TRACKS
        for n, chunk in enumerate(chunk_lines(plan.tracks[track], cfg.compaction_chunk_chars))
    ]
    vectors = engine.embed([chunk for _, _, chunk in pieces]) if pieces else []
    now = engine.clock.now_ms()
    memories = [
        Memory(
            id=str(uuid.uuid4()),
            content=chunk,
            types=(),
            embedding=frozen(vec),
            created_at=now,
            updated_at=now,
            last_accessed_at=now,
            last_reinforced=now,
            valid_from=now,
            source="compaction",
            track=track,
            kind=_KINDS[track],
            source_session=sid,
            source_conversation_ids=(sid,),
            source_text=chunk,
            metadata={"compaction": {"event": event, "track": track, "chunk": n}},
        )
        for (track, n, chunk), vec in zip(pieces, vectors, strict=True)
    ]
    if memories:
        engine.commit(Changes(added=memories))
    counts = {track: sum(1 for t, _, _ in pieces if t == track) for track in TRACKS}
    return memories, counts


def _prove_continuity(
    engine: Engine, facts: Sequence[Memory], artifacts: Sequence[Memory], plan: CompactionPlan
) -> None:
    """Every fact and artifact chunk is found by a targeted query (its own text), and
    every tool call by its name and arguments; otherwise the artifacts are removed
    and :class:`CompactionError` names what was lost."""
    k = engine.config.compaction_check_k
    missing: list[str] = []
    with engine.reading():
        for m in (*facts, *artifacts):
            hits = {h.id for h in engine.index.search(m.embedding, k)} if m.embedding is not None else set()
            if m.id not in hits:
                missing.append(m.content[:60])
        traces = [a for a in artifacts if a.track in ("tool_usage", "action_taken")]
        queries = [f"{c.name}({c.arguments})" for c in plan.calls]
        if queries and traces:
            vecs = engine.embed(queries)
            for q, vec in zip(queries, vecs, strict=True):
                # A call is found by meaning or by its words (name, argument values).
                hits = {h.id for h in engine.index.search(np.asarray(vec, dtype=np.float32), k)}
                hits.update(engine.storage.search_text(q, limit=k, max_terms=engine.config.max_query_terms))
                if not any(a.id in hits and q[:200] in a.content for a in traces):
                    missing.append(q[:60])
    if missing:
        engine.commit(Changes(deleted=[a.id for a in artifacts]))
        raise CompactionError(f"not retrievable after compaction ({len(missing)}): {missing[:3]}")


def _summary_facts(engine: Engine, facts: Sequence[Memory]) -> list[str]:
    with_vec = [m for m in facts if m.embedding is not None]
    if not with_vec:
        return []
    x = np.stack([np.asarray(m.embedding, dtype=np.float32) for m in with_vec])
    picks = central_picks(x, engine.config.compaction_summary_items)
    chosen = sorted((with_vec[i] for i in picks), key=lambda m: m.created_at)
    return [m.content for m in chosen]


def needs_compaction(engine: Engine, message: str, history: Sequence[Mapping[str, object]]) -> int | None:
    """The history budget when ``history`` and ``message`` leave the memory block less
    than its reserve in the window; None when they fit."""
    cfg = engine.config
    asked = message_tokens({"role": "user", "content": message})
    used = sum(message_tokens(m) for m in history) + asked
    if used + cfg.compaction_memory_reserve <= cfg.context_window_size - cfg.response_buffer:
        return None
    return history_budget(engine, asked)


def with_compaction(result: AugmentResult, compaction: CompactionResult, ms: float) -> AugmentResult:
    """``result`` saying that the history was compacted first (and a debug stage)."""
    debug = result.debug
    if debug is not None:
        stage = StageTrace(
            name="compaction",
            ms=ms,
            counts={"compacted": compaction.compacted, "artifacts": len(compaction.artifact_ids)},
            detail=f"history {compaction.tokens_before} → {compaction.tokens_after} tokens",
        )
        debug = dataclasses.replace(
            debug, stages=(stage, *debug.stages), pipeline=("compaction", *debug.pipeline)
        )
    return dataclasses.replace(result, compaction=compaction, debug=debug)

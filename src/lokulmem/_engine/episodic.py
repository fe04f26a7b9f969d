"""Ending sessions into episodes (I/O around the pure :mod:`lokulmem.episodes`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..episodes import plan_episode
from ..records import Episode
from ..storage import MemoryQuery
from .facts import frozen
from .unit import Changes

if TYPE_CHECKING:
    from .engine import Engine

__all__ = ["due_sessions", "end_sessions"]


def due_sessions(engine: Engine, current: str, now: int) -> list[str]:
    """Sessions to end before ``current`` learns: every other open session when
    ``current`` is new, and any idle beyond ``episode_idle_minutes``."""
    cfg = engine.config
    new = current not in engine.sessions
    idle = cfg.episode_idle_minutes * 60_000
    out: list[str] = []
    for sid in engine.sessions.ids():
        state = engine.sessions.peek(sid)
        if state is None or state.ended or state.turn == 0:
            continue
        if (new and sid != current) or (idle > 0 and now - state.last_at >= idle):
            out.append(sid)
    return out


def end_sessions(engine: Engine, session_ids: Iterable[str], now: int) -> list[Episode]:
    """The episodes of ``session_ids`` (one per session that left memories), written
    in one unit of work; the sessions are marked ended.  The caller holds the lock."""
    episodes: list[Episode] = []
    for sid in dict.fromkeys(session_ids):
        memories = engine.storage.list_memories(MemoryQuery(conversation=sid, limit=10_000))
        state = engine.sessions.peek(sid)
        planned = plan_episode(sid, memories, state.turn if state else 0, now, engine.config)
        if state is not None:
            state.ended = True
        if planned is None:
            continue
        episode, text = planned
        episodes.append(dataclasses.replace(episode, embedding=frozen(engine.embedder.embed([text])[0])))
    if episodes:
        engine.apply(Changes(episodes=episodes))
    return episodes

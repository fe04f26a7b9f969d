"""Episodic memory (PRD §10.1): a finished session as one summary.  Pure.

When a session ends (``LokulMem.end_session``, a new session starting, or an
idle gap of ``episode_idle_minutes``), its memories become an
:class:`~lokulmem.records.Episode`: an extractive summary of the
``episode_summary_sentences`` memories that best cover it (the most central,
then maximal marginal relevance) in the order they were said, no LLM; the session's turn count,
mean emotional valence, topic words and memory ids.  The episode's vector is
the summary's embedding (so ``reembed()`` can rebuild it from its text; the
PRD's mean embedding is what the summary is chosen to be closest to).

Recall injects the episode most similar to the message when the cosine
reaches ``episode_similarity``, as the PRD's block with a human relative
time (:func:`episode_block`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .clustering import label_terms
from .config import Config
from .records import Episode, Memory

__all__ = [
    "EPISODE_END",
    "EPISODE_START",
    "central_picks",
    "episode_block",
    "plan_episode",
    "relative_time",
    "summary_of",
]

EPISODE_START = "[Episode Context — relevant past conversation]"
EPISODE_END = "[End Episode Context]"
_DAY = 86_400_000


def summary_of(memories: Sequence[Memory], config: Config) -> list[Memory]:
    """At most ``episode_summary_sentences`` memories that cover the session, in time
    order: the most central first (nearest the mean vector), then by maximal
    marginal relevance (central, and unlike those already chosen), so a session
    of several topics is summarised by all of them."""
    with_vec = [m for m in memories if m.embedding is not None]
    if not with_vec:
        return list(memories)[: config.episode_summary_sentences]
    x = np.stack([m.embedding for m in with_vec if m.embedding is not None])
    picked = [with_vec[i] for i in central_picks(x, config.episode_summary_sentences)]
    return sorted(picked, key=lambda m: (m.created_at, m.source_turn))


def central_picks(x: npt.NDArray[np.float32], k: int) -> list[int]:
    """Rows of ``x`` (unit vectors) that cover it: the most central first (nearest the
    mean), then by maximal marginal relevance (central, unlike those chosen)."""
    if len(x) == 0 or k <= 0:
        return []
    central = x @ x.mean(axis=0)
    chosen = [int(np.argmax(central))]
    while len(chosen) < min(k, len(x)):
        redundancy = (x @ x[chosen].T).max(axis=1)
        gain = 0.5 * central - 0.5 * redundancy
        gain[chosen] = -np.inf
        chosen.append(int(np.argmax(gain)))
    return chosen


def plan_episode(
    session_id: str, memories: Sequence[Memory], turn_count: int, now_ms: int, config: Config
) -> tuple[Episode, str] | None:
    """The episode of a finished session and the text to embed (its summary), or
    None when the session left no memory."""
    if not memories:
        return None
    chosen = summary_of(memories, config)
    summary = " ".join(m.content.strip() for m in chosen)
    topics = label_terms(
        chosen[0].content,
        [m.content for m in memories],
        terms=config.cluster_label_terms,
        user_label=config.user_label,
    )
    episode = Episode(
        id=f"episode:{session_id}",
        summary=summary,
        memories_extracted=tuple(m.id for m in memories),
        started_at=min(m.created_at for m in memories),
        ended_at=now_ms,
        turn_count=max(turn_count, len({m.source_turn for m in memories})),
        emotional_valence=float(np.mean([m.emotional_valence for m in memories])),
        topics=tuple(t for t in topics.split() if t),
    )
    return episode, summary


def relative_time(ago_ms: int) -> str:
    """ "Earlier today", "Yesterday", "About 3 days ago", "About 3 weeks ago",
    "About 2 months ago", "About a year ago"."""
    days = ago_ms / _DAY
    if days < 1:
        return "Earlier today"
    if days < 2:
        return "Yesterday"
    if days < 7:
        return f"About {round(days)} days ago"
    if days < 30:
        weeks = round(days / 7)
        return "About a week ago" if weeks == 1 else f"About {weeks} weeks ago"
    if days < 365:
        months = round(days / 30.4)
        return "About a month ago" if months == 1 else f"About {months} months ago"
    years = round(days / 365)
    return "About a year ago" if years == 1 else f"About {years} years ago"


def episode_block(episode: Episode, now_ms: int) -> str:
    """The PRD's episode block: when, how long, and what was said."""
    turns = f" of {episode.turn_count} turns" if episode.turn_count > 1 else ""
    when = relative_time(max(0, now_ms - episode.ended_at))
    return f"{EPISODE_START}\n{when}, in a conversation{turns}: {episode.summary}\n{EPISODE_END}"

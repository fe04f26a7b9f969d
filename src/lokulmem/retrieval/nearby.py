"""Said nearby: what the user said just before or after a top result (a ranking rule).

People tell one thing over several messages: "I started a new podcast last
week." and, a message later, "It's called Tidewater Notes." The second
message holds the answer to "Which podcast did I start?" but shares almost
nothing with the question; its neighbour in the conversation does.  So after
the first ranking, a memory learned in the same session as one of the best
``nearby_seeds`` results, within ``nearby_seconds`` of it and from another
message (another turn: the seed's own message is already counted once, see
``context_once``), gets ``nearby_bonus`` × that result's R / the best R
(``ScoreBreakdown.nearby``).  Only the order changes: the evidence of
relevance is the memory's own, so a neighbour that says nothing about the
question is still not injected (docs/tuning.md entry 56).  Pure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..config import Config
from .stages import Scored

__all__ = ["said_nearby"]


def said_nearby(ranked: Sequence[Scored], config: Config) -> list[Scored]:
    """``ranked`` (best first) with the nearby bonus added to each memory said
    near one of its best ``nearby_seeds`` results; the order is unchanged (rank
    them again).  Returns the candidates as they were when the rule is off or
    nothing is near."""
    seeds = [s for s in ranked[: config.nearby_seeds] if s.memory.source_session]
    if config.nearby_bonus <= 0 or not seeds:
        return list(ranked)
    # The best R, not the first place's: a pinned memory ranks first whatever its R.
    best = max(max(s.breakdown.total for s in ranked), 1e-9)
    window = config.nearby_seconds * 1000
    # Each seed's lift, by session: a candidate is tested against its session's seeds only.
    by_session: dict[str, list[tuple[Scored, float]]] = {}
    for seed in seeds:
        lift = config.nearby_bonus * max(0.0, seed.breakdown.total) / best
        by_session.setdefault(seed.memory.source_session, []).append((seed, lift))
    out: list[Scored] = []
    for s in ranked:
        m = s.memory
        near = by_session.get(m.source_session) if m.source_session else None
        lift = max(
            (
                lifted
                for seed, lifted in near or ()
                if seed.memory.id != m.id
                and seed.memory.source_turn != m.source_turn
                and abs(seed.memory.created_at - m.created_at) <= window
            ),
            default=0.0,
        )
        if lift > 0:
            s = Scored(m, s.similarity, dataclasses.replace(s.breakdown, nearby=lift), s.match)
        out.append(s)
    return out

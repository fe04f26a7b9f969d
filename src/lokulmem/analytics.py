"""``stats()`` arithmetic.  Pure: light rows and the config in, numbers out.

Strength is the *current* one (decayed to ``now``), over active memories, so
the panel shows what retrieval will see.  Confidence is the label retrieval
prints (``decay.confidence_label``), scored by ``Config.confidence_scores``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .config import Config
from .decay import confidence_label
from .lifecycle import row_strength
from .records import Memory

__all__ = ["Summary", "summarize"]


@dataclass(frozen=True, kw_only=True)
class Summary:
    """Counts and averages; the memory lists of ``MemoryStats`` are read separately."""

    total: int
    by_status: Mapping[str, int]
    pinned: int
    average_strength: float
    average_confidence: float
    confidence_distribution: Mapping[str, int]
    strength_distribution: Mapping[str, int]


def summarize(rows: Sequence[Mapping[str, Any]], config: Config, now_ms: int) -> Summary:
    """Summarise ``Storage.stat_rows()`` at ``now_ms``."""
    by_status = {"active": 0, "faded": 0, "superseded": 0, "archived": 0}
    conf = {"high": 0, "medium": 0, "low": 0}
    bands = {"strong": 0, "medium": 0, "weak": 0}
    strength_sum = 0.0
    conf_sum = 0.0
    pinned = 0
    for row in rows:
        by_status[row["status"]] = by_status.get(row["status"], 0) + 1
        pinned += bool(row["pinned"])
        if row["status"] != "active":
            continue
        s = row_strength(row, now_ms, config)
        strength_sum += s
        bands[
            "strong" if s >= config.strong_strength else "weak" if s < config.weak_strength else "medium"
        ] += 1
        # confidence_label needs only these three fields.
        probe = Memory(
            id=row["id"],
            content="",
            types=(),
            confidence=row["confidence"],
            base_strength=row["base_strength"],
        )
        label = confidence_label(probe, config)
        conf[label] += 1
        conf_sum += config.confidence_scores[label]
    active = by_status["active"]
    return Summary(
        total=len(rows),
        by_status=by_status,
        pinned=pinned,
        average_strength=strength_sum / active if active else 0.0,
        average_confidence=conf_sum / active if active else 0.0,
        confidence_distribution=conf,
        strength_distribution=bands,
    )

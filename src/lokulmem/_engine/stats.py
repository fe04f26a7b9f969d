"""``stats()``: the store's figures from its light rows (PRD §8 ``MemoryStats``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..analytics import summarize
from ..config import Config
from ..records import Memory, MemoryStats
from ..storage import Storage

__all__ = ["build_stats"]

Row = Mapping[str, Any]


def _top(
    storage: Storage, rows: Sequence[Row], n: int, key: Callable[[Row], Any], keep: Callable[[Row], bool]
) -> tuple[Memory, ...]:
    ids = [r["id"] for r in sorted((r for r in rows if keep(r)), key=key)[:n]]
    return tuple(storage.get_memories(ids))


def build_stats(storage: Storage, config: Config, now: int) -> MemoryStats:
    """Counts, distributions and the top memories by mentions, updates and age."""
    rows = storage.stat_rows()
    summary = summarize(rows, config, now)
    n = config.stats_top_n

    def top(key: Callable[[Row], Any], keep: Callable[[Row], bool] = lambda r: True) -> tuple[Memory, ...]:
        return _top(storage, rows, n, key, keep)

    oldest = top(lambda r: (r["created_at"], r["id"]))
    newest = top(lambda r: (-r["created_at"], r["id"]))
    return MemoryStats(
        total=summary.total,
        active=summary.by_status["active"],
        faded=summary.by_status["faded"],
        archived=summary.by_status["archived"],
        superseded=summary.by_status["superseded"],
        pinned=summary.pinned,
        by_type=storage.type_counts(),
        average_strength=summary.average_strength,
        average_confidence=summary.average_confidence,
        confidence_distribution=summary.confidence_distribution,
        strength_distribution=summary.strength_distribution,
        most_mentioned=top(lambda r: (-r["mention_count"], -r["updated_at"], r["id"])),
        recently_updated=top(lambda r: (-r["updated_at"], r["id"])),
        recently_faded=top(lambda r: (-r["updated_at"], r["id"]), lambda r: r["status"] == "faded"),
        oldest_memory=oldest[0] if oldest else None,
        newest_memory=newest[0] if newest else None,
        storage_used_bytes=storage.size_bytes(),
        conversation_count=storage.conversation_count(),
    )

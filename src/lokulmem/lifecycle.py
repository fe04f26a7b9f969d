"""What a maintenance sweep changes (PRD §6 layer 2).  Pure: rows and config in, ids out.

* An active, unpinned memory whose current strength is below
  ``fade_threshold`` fades (``status="faded"``, ``faded_at=now``).
* A memory faded for ``purge_after_days`` or more is deleted for good (its
  edges and cluster membership with it).
* Pinned memories never fade, nor does a memory of an event still ahead
  (``event_at`` plus ``event_hold_days``).  Superseded and archived
  memories are history: the sweep leaves them alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .clock import MS_PER_DAY
from .config import Config
from .decay import hours_between, memory_lambda, strength_at

__all__ = ["SweepPlan", "plan_sweep", "row_strength", "should_fade"]


@dataclass(frozen=True)
class SweepPlan:
    fade: tuple[str, ...]
    purge: tuple[str, ...]


def row_strength(row: Mapping[str, Any], now_ms: int, config: Config) -> float:
    """Current strength of a light row (``Storage.stat_rows``) or a memory's fields."""
    lam = memory_lambda(tuple(row["types"]), config, pinned=bool(row["pinned"]))
    since = row["last_reinforced"] or row["created_at"]
    return strength_at(row["base_strength"], lam, hours_between(since, now_ms), config.decay_model)


def should_fade(row: Mapping[str, Any], now_ms: int, config: Config) -> bool:
    event_at = row.get("event_at")
    if event_at is not None and now_ms < event_at + config.event_hold_days * MS_PER_DAY:
        return False  # the plan is still ahead (or just past)
    return (
        row["status"] == "active"
        and not row["pinned"]
        and row_strength(row, now_ms, config) < config.fade_threshold
    )


def plan_sweep(rows: Sequence[Mapping[str, Any]], config: Config, now_ms: int) -> SweepPlan:
    purge_ms = config.purge_after_days * MS_PER_DAY
    fade: list[str] = []
    purge: list[str] = []
    for row in rows:
        if should_fade(row, now_ms, config):
            fade.append(row["id"])
        elif row["status"] == "faded":
            # A faded memory without faded_at (imported from elsewhere) counts from its last update.
            since = row.get("faded_at") or row["updated_at"]
            if now_ms - since >= purge_ms:
                purge.append(row["id"])
    return SweepPlan(fade=tuple(fade), purge=tuple(purge))

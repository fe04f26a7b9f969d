"""What a maintenance sweep changes (PRD §6 layer 2).  Pure: rows and config in, ids out.

* An active, unpinned memory whose current strength is below
  ``fade_threshold`` fades (``status="faded"``, ``faded_at=now``).
* A memory faded for ``purge_after_days`` or more is deleted for good (its
  edges and cluster membership with it).
* Pinned memories never fade, nor does a memory of an event still ahead
  (``event_at`` plus ``event_hold_days``).  Superseded and archived
  memories are history: the sweep leaves them alone.
* A :class:`~lokulmem.records.RetentionPolicy` retires (archives or deletes)
  active memories beyond its limits (:func:`plan_retention`), with the same
  exemptions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .clock import MS_PER_DAY
from .config import Config
from .decay import hours_between, memory_lambda, strength_at
from .records import RetentionPolicy

__all__ = ["SweepPlan", "plan_retention", "plan_sweep", "retainable", "row_strength", "should_fade"]


@dataclass(frozen=True)
class SweepPlan:
    fade: tuple[str, ...]
    purge: tuple[str, ...]


def row_strength(row: Mapping[str, Any], now_ms: int, config: Config) -> float:
    """Current strength of a light row (``Storage.stat_rows``) or a memory's fields."""
    lam = memory_lambda(tuple(row["types"]), config, pinned=bool(row["pinned"]))
    since = row["last_reinforced"] or row["created_at"]
    return strength_at(row["base_strength"], lam, hours_between(since, now_ms), config.decay_model)


def _ahead(row: Mapping[str, Any], now_ms: int, config: Config) -> bool:
    """A plan still ahead (or just past): never faded nor retired."""
    event_at = row.get("event_at")
    return event_at is not None and now_ms < event_at + config.event_hold_days * MS_PER_DAY


def should_fade(row: Mapping[str, Any], now_ms: int, config: Config) -> bool:
    if _ahead(row, now_ms, config):
        return False
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


def retainable(row: Mapping[str, Any], now_ms: int, config: Config) -> bool:
    """Whether a retention policy may retire this row: active, unpinned, no plan ahead."""
    return row["status"] == "active" and not row["pinned"] and not _ahead(row, now_ms, config)


def plan_retention(
    rows: Sequence[Mapping[str, Any]], policy: RetentionPolicy | None, config: Config, now_ms: int
) -> tuple[str, ...]:
    """Ids a retention policy retires, over light rows (``Storage.stat_rows``).

    ``max_age_days`` and ``min_confidence`` retire each row beyond them;
    ``max_facts`` then retires the weakest remaining rows (current strength,
    then oldest) until at most that many active memories are left, pinned
    ones counted but kept.
    """
    if policy is None or not policy.active:
        return ()
    live = [r for r in rows if retainable(r, now_ms, config)]
    out: dict[str, None] = {}
    if policy.max_age_days is not None:
        oldest = now_ms - policy.max_age_days * MS_PER_DAY
        out.update(dict.fromkeys(r["id"] for r in live if r["created_at"] < oldest))
    if policy.min_confidence is not None:
        scores = config.confidence_scores
        low = policy.min_confidence
        out.update(dict.fromkeys(r["id"] for r in live if scores.get(r["confidence"], 0.0) < low))
    if policy.max_facts is not None:
        active = sum(1 for r in rows if r["status"] == "active") - len(out)
        rest = sorted(
            (r for r in live if r["id"] not in out),
            key=lambda r: (row_strength(r, now_ms, config), r["created_at"]),
        )
        out.update(dict.fromkeys(r["id"] for r in rest[: max(0, active - policy.max_facts)]))
    return tuple(out)

"""The maintenance sweep and clustering, run under a lease shared by every process.

A run (``Engine.maintenance``):

1. takes the ``maintenance`` lease (a ``meta`` row with holder and expiry, in
   a short write transaction).  If another live process holds it, nothing is
   done; if that process crashed, its lease expires after
   ``lease_ttl_seconds`` and the next caller takes over;
2. sweep (when forced, or when the last sweep by any process is older than
   ``sweep_interval_hours``): reads light rows, plans with
   :func:`lokulmem.lifecycle.plan_sweep`, then in **one** transaction
   re-checks each planned memory against its current row (a memory
   reinforced meanwhile is left alone), fades and purges, and records the
   sweep time; the retention policy (``set_retention_policy``), if any, is
   applied in the same transaction.  Killed at any point, the store holds either all of it or
   none of it, and a rerun is idempotent;
3. clustering (when forced, or when more than ``cluster_min_new``
   memories were inserted since the last run, counting from the first
   memory if it never ran):
   k-means over the active vectors outside any transaction, then the
   clusters and every member's ``cluster_id`` replaced in one transaction;
4. releases the lease.

Time for decay is the engine's clock (injectable); lease expiry is wall-clock
time, because it is about whether a process is alive.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt

from ._engine.unit import Changes
from .clock import Clock
from .clustering import choose_k, cluster_all, label_terms
from .config import Config
from .graph import refresh_edges
from .heap import release_free_heap
from .lifecycle import plan_retention, plan_sweep, retainable, should_fade
from .records import Cluster, MaintenanceReport, Memory, RetentionPolicy
from .storage import Storage

__all__ = [
    "LEASE",
    "RETENTION",
    "SWEEP_COUNT",
    "MaintenanceHost",
    "read_retention",
    "run_maintenance",
    "write_retention",
]

logger = logging.getLogger("lokulmem.maintenance")

LEASE = "maintenance"
_LAST_SWEEP = "maintenance:last_sweep_ms"
#: How many sweeps have run on this store, by any process (observability, tests).
SWEEP_COUNT = "maintenance:sweeps"
_CLUSTER_ROWID = "clusters:last_rowid"
#: JSON {"k": clusters, "at": ms, "n": memories clustered} of the last clustering.
_CLUSTER_SUMMARY = "clusters:summary"
#: The store's retention policy (JSON), shared by every process that opens it.
RETENTION = "retention:policy"
#: Members read to pick shared terms for a cluster's label.
_LABEL_SAMPLE = 20
#: Vectors stacked per page while reading the active set for clustering.
_STACK_PAGE = 10_000


class MaintenanceHost(Protocol):
    """What maintenance needs from the engine: the store, config, clock, its lease
    holder id, the clusters it has loaded, and the unit of work to commit through."""

    storage: Storage
    config: Config
    clock: Clock
    holder: str

    def clusters(self) -> list[Cluster]: ...
    def commit(self, plan: Changes | Callable[[], Changes]) -> Changes: ...


def holder_id() -> str:
    """Identifies this engine as a lease holder: host, pid and a random suffix."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def read_retention(storage: Storage) -> RetentionPolicy | None:
    """The retention policy stored in ``storage`` (None: none set)."""
    raw = storage.get_meta(RETENTION)
    if not raw:
        return None
    policy = RetentionPolicy(**json.loads(raw))
    return policy if policy.active else None


def write_retention(storage: Storage, policy: RetentionPolicy) -> None:
    storage.set_meta(RETENTION, json.dumps(dataclasses.asdict(policy)))


def sweep_due(engine: MaintenanceHost, now_ms: int) -> bool:
    last = engine.storage.get_meta(_LAST_SWEEP)
    if last is None:
        return True
    return (now_ms - int(last)) >= engine.config.sweep_interval_hours * 3_600_000 or now_ms < int(last)


def clustering_due(engine: MaintenanceHost) -> bool:
    """More than ``max(cluster_min_new, cluster_renew_share × memories clustered
    last time)`` memories were inserted since the last clustering (or it never ran)."""
    storage, cfg = engine.storage, engine.config
    last = storage.get_meta(_CLUSTER_ROWID)  # never run: every memory is new
    summary = json.loads(storage.get_meta(_CLUSTER_SUMMARY) or "{}")
    clustered = int(summary.get("n", 0)) if isinstance(summary, dict) else 0
    bar = max(cfg.cluster_min_new, int(cfg.cluster_renew_share * clustered))
    return storage.count_rows_after(int(last or 0)) > bar


def run_maintenance(
    engine: MaintenanceHost, *, sweep: bool | None = None, cluster: bool | None = None
) -> MaintenanceReport:
    """One maintenance run.  ``None`` means "if due"; ``True`` forces, ``False`` skips.

    The caller (``Engine``) holds no lock: the lock is taken only around the
    writes and the index/cache updates, so ``learn()`` and ``augment()`` wait
    at most for one short transaction.
    """
    storage, cfg = engine.storage, engine.config
    if not storage.acquire_lease(LEASE, engine.holder, ttl_s=cfg.lease_ttl_seconds, now_s=time.time()):
        return MaintenanceReport(ran=False, skipped_reason="lease held by another process")
    try:
        now = engine.clock.now_ms()
        result = _Swept()
        sweep_ms = cluster_ms = 0.0
        ran_sweep = sweep if sweep is not None else sweep_due(engine, now)
        if ran_sweep:
            t0 = time.perf_counter()
            result = _sweep(engine, now)
            sweep_ms = (time.perf_counter() - t0) * 1000
        ran_cluster = cluster if cluster is not None else clustering_due(engine)
        n_clusters = 0
        if ran_cluster:
            t0 = time.perf_counter()
            n_clusters = _cluster(engine, now)
            if engine.config.release_heap:
                release_free_heap()  # k-means' transient matrices (lokulmem.heap)
            cluster_ms = (time.perf_counter() - t0) * 1000
        else:
            n_clusters = len(engine.clusters())
        if not (ran_sweep or ran_cluster):
            return MaintenanceReport(ran=False, skipped_reason="not due", clusters=n_clusters)
        return MaintenanceReport(
            ran=True,
            faded=result.faded,
            purged=result.purged,
            retired=result.retired,
            retention_action=result.action,
            clustered=bool(ran_cluster),
            clusters=n_clusters,
            sweep_ms=sweep_ms,
            cluster_ms=cluster_ms,
        )
    finally:
        storage.release_lease(LEASE, engine.holder)


@dataclasses.dataclass(frozen=True)
class _Swept:
    faded: tuple[Memory, ...] = ()
    purged: tuple[str, ...] = ()
    retired: tuple[str, ...] = ()
    action: Literal["archive", "delete"] | None = None


def _sweep(engine: MaintenanceHost, now: int) -> _Swept:
    storage, cfg = engine.storage, engine.config
    rows = storage.stat_rows()
    plan = plan_sweep(rows, cfg, now)
    policy = read_retention(storage)
    fading = set(plan.fade)
    retire = plan_retention([r for r in rows if r["id"] not in fading], policy, cfg, now)

    def write() -> Changes:
        # Re-check against the rows as they are now: another call may have
        # reinforced, pinned or deleted a memory since the plan was made.
        faded = [
            m.replace(status="faded", faded_at=now, updated_at=now)
            for m in storage.get_memories(plan.fade)
            if should_fade(_row(m), now, cfg)
        ]
        storage.mark_faded([m.id for m in faded], now)
        present = storage.existing_ids(plan.purge)
        purged = [i for i in plan.purge if i in present]
        storage.delete_memories(purged)
        archived, deleted = _retire(storage, retire, policy, now, cfg)
        storage.set_meta(_LAST_SWEEP, str(now))
        storage.set_meta(SWEEP_COUNT, str(int(storage.get_meta(SWEEP_COUNT) or 0) + 1))
        return Changes(faded=faded, updated=archived, deleted=purged + deleted, written=True)

    changes = engine.commit(write)
    retired = tuple(m.id for m in changes.updated) + tuple(i for i in changes.deleted if i not in plan.purge)
    return _Swept(
        faded=tuple(changes.faded),
        purged=tuple(i for i in changes.deleted if i in set(plan.purge)),
        retired=retired,
        action=policy.action if policy is not None else None,
    )


def _row(m: Memory) -> dict[str, object]:
    """The light-row fields of a memory that the lifecycle rules read."""
    return {
        "id": m.id,
        "status": m.status,
        "pinned": m.pinned,
        "types": m.types,
        "base_strength": m.base_strength,
        "last_reinforced": m.last_reinforced,
        "created_at": m.created_at,
        "event_at": m.event_at,
    }


def _retire(
    storage: Storage, ids: tuple[str, ...], policy: RetentionPolicy | None, now: int, cfg: Config
) -> tuple[list[Memory], list[str]]:
    """Archive (or delete) the planned ids still retainable now; the rows are written here."""
    if policy is None or not ids:
        return [], []
    still = [m for m in storage.get_memories(ids) if retainable(_row(m), now, cfg)]
    if policy.action == "delete":
        gone = [m.id for m in still]
        storage.delete_memories(gone)
        return [], gone
    archived = [
        m.replace(
            status="archived",
            updated_at=now,
            metadata={**m.metadata, "archived_from": m.status, "archived_by": "retention"},
        )
        for m in still
    ]
    for m in archived:
        storage.update_memory(m)
    return archived, []


def _active_matrix(storage: Storage) -> tuple[list[str], npt.NDArray[np.float32]]:
    """Every active memory's id and vector (one float32 row each), stacked a page at
    a time: a million small arrays held at once would cost more than the matrix."""
    ids: list[str] = []
    pages: list[npt.NDArray[np.float32]] = []
    page: list[npt.NDArray[np.float32]] = []
    for memory_id, vec in storage.active_vectors():
        ids.append(memory_id)
        page.append(vec)
        if len(page) == _STACK_PAGE:
            pages.append(np.stack(page).astype(np.float32))
            page = []
    if page:
        pages.append(np.stack(page).astype(np.float32))
    if not pages:
        return ids, np.zeros((0, 0), dtype=np.float32)
    return ids, np.concatenate(pages)


def _cluster(engine: MaintenanceHost, now: int) -> int:
    storage, cfg = engine.storage, engine.config
    mark = storage.max_rowid()
    ids, x = _active_matrix(storage)
    clusters: list[Cluster] = []
    if ids:
        # K is capped by the distinct vectors (counted on a strided sample of a large store).
        fit_rows = x if len(ids) <= cfg.cluster_sample_size else x[:: len(ids) // cfg.cluster_sample_size]
        distinct = len(np.unique(fit_rows.round(6), axis=0))
        k = min(choose_k(len(ids), min_k=cfg.cluster_min_k, divisor=cfg.cluster_k_divisor), distinct)
        result = cluster_all(
            x, k, sample_size=cfg.cluster_sample_size, max_iterations=cfg.cluster_max_iterations,
            seed=cfg.cluster_seed,
        )  # fmt: skip
        by_label = np.argsort(result.labels, kind="stable")
        bounds = np.searchsorted(result.labels[by_label], np.arange(result.centroids.shape[0] + 1))
        for c in range(result.centroids.shape[0]):
            rows = by_label[bounds[c] : bounds[c + 1]]
            members = [ids[r] for r in rows]
            sims = x[rows] @ result.centroids[c]
            order = [members[j] for j in np.argsort(-sims)]
            texts = {m.id: m.content for m in storage.get_memories(order[:_LABEL_SAMPLE])}
            central = texts.get(order[0], "")
            label = label_terms(
                central,
                [texts[i] for i in order[1:_LABEL_SAMPLE] if i in texts],
                terms=cfg.cluster_label_terms,
                user_label=cfg.user_label,
            )
            centroid = result.centroids[c].copy()
            centroid.setflags(write=False)
            clusters.append(
                Cluster(
                    id=f"cluster-{uuid.uuid4()}",
                    centroid=centroid,
                    member_ids=tuple(members),
                    label=label,
                    last_recomputed=now,
                )
            )

    def write() -> Changes:
        # Memories that stopped being active between the read and now keep no cluster.
        still = storage.existing_ids([m for c in clusters for m in c.member_ids])
        kept = [
            dataclasses.replace(c, member_ids=tuple(m for m in c.member_ids if m in still)) for c in clusters
        ]
        kept = [c for c in kept if c.member_ids]
        storage.replace_clusters(kept)
        storage.set_meta(_CLUSTER_ROWID, str(mark))
        storage.set_meta(_CLUSTER_SUMMARY, json.dumps({"k": len(kept), "at": now, "n": len(ids)}))
        clusters[:] = kept
        # The knowledge graph is refreshed in the same pass (PRD §10.4).
        edges = storage.all_edges()
        ends = list(dict.fromkeys(i for e in edges for i in (e.from_id, e.to_id)))
        memories = {m.id: m for m in storage.get_memories(ends)}
        reweighed, dropped = refresh_edges(edges, memories, now, cfg)
        return Changes(written=True, reload_clusters=True, edges=reweighed, dropped_edges=dropped)

    engine.commit(write)
    logger.debug("clustered %d memories into %d clusters", len(ids), len(clusters))
    return len(clusters)

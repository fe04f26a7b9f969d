"""The engine shared by the sync and async clients: lock, caches, index, scheduler.

It orchestrates and does the I/O (embedding, the vector index, the store);
every decision is a pure function it calls: :mod:`._engine.sentence` (what
``learn()`` keeps), :mod:`._engine.facts` (closing a contradicted fact,
building records), :mod:`lokulmem.retrieval.stages` (what ``augment()``
injects).  Every write goes through :meth:`Engine.commit` (one unit of work,
:mod:`._engine.unit`).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..clock import Clock
from ..config import Config
from ..contradiction import Candidate
from ..embedding import Embedder
from ..errors import MemoryNotFoundError, StoreClosedError, ValidationError
from ..events import EventBus
from ..extraction import PROTOTYPES
from ..extraction.attributes import Attribute
from ..index import RoutedIndex
from ..maintenance import holder_id, read_retention, run_maintenance, write_retention
from ..pairhead import PairHead, load_head
from ..records import (
    Cluster,
    CompactionResult,
    Episode,
    MaintenanceReport,
    Memory,
    MemoryStats,
    ProgressEvent,
    ProgressStage,
    RetentionPolicy,
)
from ..retrieval import validate_history
from ..storage import Storage
from .args import check_ident, check_str
from .beside import Beside
from .candidates import stage1
from .compacting import needs_compaction, run_compact
from .context import DeferredContexts
from .episodic import end_sessions
from .facts import frozen
from .history import History
from .indexing import ann_settings, graph_path
from .learning import run_learn
from .recall import run_augment
from .scheduler import Scheduler
from .state import RecordCache, Sessions
from .stats import build_stats
from .threads import BlasLimit
from .unit import Changes

__all__ = ["Changes", "Engine"]

logger = logging.getLogger("lokulmem")

Vector = npt.NDArray[np.float32]


class Engine:
    """One store, one embedder, one index.  Thread-safe (one re-entrant lock).

    Not a public API: ``LokulMem`` and ``Manager`` are its shells.
    """

    def __init__(
        self,
        *,
        config: Config,
        storage: Storage,
        embedder: Embedder,
        clock: Clock,
        events: EventBus,
        token_counter: Callable[[str], int] | None = None,
        default_session: str | None = None,
        executor: Literal["thread", "inline"] = "thread",
    ) -> None:
        self.config = config
        self.storage = storage
        self.embedder = embedder
        self.clock = clock
        self.events = events
        self.token_counter = token_counter
        self.default_session = default_session or f"session-{uuid.uuid4()}"
        self.index = RoutedIndex(
            embedder.dimension,
            ann_settings(config, build_async=executor == "thread"),
            persist=graph_path(storage),
        )
        self.lock = threading.RLock()
        #: ``with engine.blas_limit():`` BLAS threads during learn/augment (``Config.blas_threads``).
        self.blas_limit = BlasLimit(config.blas_threads)
        #: Reads that run beside the query's embedding in ``augment()`` (``Config.overlap_text_search``).
        self.beside = Beside(config.overlap_text_search)
        #: Context vectors embedded beside ``learn()`` and written later (``Config.defer_context_vector``).
        self.contexts = DeferredContexts(
            embed=lambda text: frozen(self.embedder.embed([text])[0]), land=self._land_contexts
        )
        self.sessions = Sessions(capacity=config.session_cache_size, window=config.session_sentence_window)
        # Cleared whenever another process commits (see sync_index); our own commits update it.
        self.records = RecordCache(config.record_cache_size)
        self._data_version: int | None = None
        self._prototypes: dict[str, Vector] | None = None
        self._ready = False
        self._closed = False
        self.executor = executor
        self.holder = holder_id()
        # Background work (maintenance, clustering): one worker thread, or inline.
        self.scheduler = Scheduler(executor)
        # Memories faded by any sweep since the last learn() returned them.
        self.pending_faded: list[Memory] = []
        #: Episodes with vectors and their matrix, loaded on first use (None: stale).
        self.episodes_cache: tuple[list[Episode], Vector | None] | None = None
        #: Superseded facts' vectors, a way from an old fact to its replacement in recall.
        self.history = History(storage, config.history_pool)
        #: memory id → when augment() last pushed it proactively (not repeated within
        #: ``proactive_repeat_hours``; in memory only, like the session state).
        self.pushed: dict[str, int] = {}
        self._clusters: list[Cluster] = []
        self.centroids: Vector | None = None
        #: The learned contradiction head (stage 3b, and newer-first without a marker),
        #: read at init(); None when neither uses it.
        self.pair_head: PairHead | None = None
        if executor == "inline":
            logger.info(
                "lokulmem executor='inline': maintenance sweeps and clustering run on the "
                "caller's thread (init() and some learn() calls wait for them)"
            )

    # -- lifecycle ------------------------------------------------------
    def _load_pair_head(self) -> PairHead | None:
        """The contradiction head the config asks for, sha256-checked (a missing or
        altered file raises :class:`ModelIntegrityError` naming it: no silent fallback)."""
        cfg = self.config
        if not cfg.contradiction_classifier and cfg.newer_first_pair_threshold <= 0:
            return None
        if cfg.contradiction_model_path is not None and cfg.contradiction_model_sha256 is not None:
            return load_head(cfg.contradiction_model_path, cfg.contradiction_model_sha256)
        return load_head()

    def init(self) -> None:
        with self.lock:
            if self._closed:
                raise StoreClosedError("this LokulMem was closed")
            if self._ready:
                return
            self._progress("worker", 1.0)  # work runs on the caller's thread / executor
            load = getattr(self.embedder, "load", None)
            self._progress("model", 0.0)
            if callable(load):
                load()
            self.pair_head = self._load_pair_head()
            self._progress("model", 1.0)
            self._progress("storage", 0.0)
            self.storage.open(embedding_model=self.embedder.model_id, dimension=self.embedder.dimension)
            self._reload_index()
            self._progress("storage", 1.0)
            self._ready = True
            self._progress("maintenance", 0.0)
        # Outside the lock: in "thread" mode the sweep runs beside the caller.
        self.schedule_maintenance(on_done=lambda: self._progress("maintenance", 1.0))
        self._progress("ready", 1.0)

    def close(self) -> None:
        """Wait for background maintenance, write the pending context vectors, then
        close the store."""
        self.scheduler.shutdown()
        self.beside.shutdown()
        self.contexts.close_intake()
        with self.lock:
            if self._ready and not self._closed:
                try:
                    self.settle_contexts()
                except Exception:
                    logger.exception("lokulmem could not write the pending context vectors")
        self.contexts.shutdown()  # outside the lock: its thread takes the lock to write
        with self.lock:
            if not self._closed:
                self.index.save()  # the HNSW graph, when there is one, beside the store
                self.storage.close()
                self._closed = True
                self._ready = False

    def _progress(self, stage: ProgressStage, progress: float) -> None:
        self.events.emit("progress", ProgressEvent(stage=stage, progress=progress))

    def ensure(self, *, settle: bool = True) -> None:
        """Raise if closed; initialise on first use; with ``settle``, write the pending
        context vectors first (see :mod:`._engine.context`).  The caller holds the lock."""
        if self._closed:
            raise StoreClosedError("this LokulMem was closed")
        if not self._ready:
            self.init()
        if settle:
            self.settle_contexts()

    def settle_contexts(self) -> None:
        """Wait for every queued context vector and write them (the caller holds the lock)."""
        if self.contexts.pending:
            self.contexts.ready(wait=True)
            self.apply(Changes())

    def _land_contexts(self) -> None:
        """The context thread, after each embedding: write what is ready, unless an
        operation holds the lock (it writes them: learn() in its transaction, any
        other after settling).  Never waits: the next job queues behind this one."""
        if not self.lock.acquire(blocking=False):
            return
        try:
            if self._ready and not self._closed and self.contexts.pending:
                self.apply(Changes())
        finally:
            self.lock.release()

    # -- maintenance -----------------------------------------------------------
    def maintenance(self, *, sweep: bool | None = True, cluster: bool | None = None) -> MaintenanceReport:
        """Run maintenance now, on this thread (see :mod:`lokulmem.maintenance`)."""
        for name, flag in (("sweep", sweep), ("cluster", cluster)):
            if flag is not None and not isinstance(flag, bool):
                raise ValidationError(name, "must be True, False or None")
        with self.lock:  # ready, and in step with other processes' commits
            self.ensure()
            self.sync_index()
        return run_maintenance(self, sweep=sweep, cluster=cluster)

    def schedule_maintenance(
        self,
        *,
        sweep: bool | None = None,
        cluster: bool | None = None,
        on_done: Callable[[], None] | None = None,
    ) -> None:
        """Run maintenance inline, or queue it on the background thread (errors are logged)."""

        def task() -> MaintenanceReport:
            try:
                if self._closed:
                    return MaintenanceReport(ran=False, skipped_reason="closed")
                return self.maintenance(sweep=sweep, cluster=cluster)
            except Exception:
                logger.exception("lokulmem maintenance failed (the store is unchanged)")
                return MaintenanceReport(ran=False, skipped_reason="failed")
            finally:
                if on_done is not None:
                    on_done()

        self.scheduler.run(task)

    def wait_for_maintenance(self, timeout: float | None = None) -> None:
        """Block until queued background maintenance has finished, then write the
        pending context vectors (the store is then quiet until the next call)."""
        self.scheduler.wait(timeout)
        with self.lock:
            if self._ready and not self._closed:
                self.settle_contexts()

    def clusters(self) -> list[Cluster]:
        return list(self._clusters)

    def episode_vectors(self) -> tuple[list[Episode], Vector | None]:
        """The stored episodes that have a vector of this model's size, and their
        vectors (one row each).  The caller holds the lock."""
        if self.episodes_cache is None:
            dim = self.embedder.dimension
            eps = [
                e
                for e in self.storage.all_episodes()
                if e.embedding is not None and e.embedding.shape == (dim,)
            ]
            mat = np.stack([e.embedding for e in eps if e.embedding is not None]) if eps else None
            self.episodes_cache = (eps, mat)
        return self.episodes_cache

    def topic_clusters(self) -> tuple[Vector | None, list[str]]:
        """The cluster centroids (one row each) and their ids, for the topic bonus."""
        return self.centroids, [c.id for c in self._clusters]

    def _load_clusters(self) -> None:
        dim = self.embedder.dimension
        self._clusters = [
            c for c in self.storage.all_clusters() if c.centroid is not None and c.centroid.shape == (dim,)
        ]
        if self._clusters:
            self.centroids = np.stack([c.centroid for c in self._clusters if c.centroid is not None])
        else:
            self.centroids = None

    # -- index and caches ---------------------------------------------------------
    def _reload_index(self) -> None:
        # The active count sizes the matrix once (store_counts: no scan).
        self.index.reset(self.storage.active_vectors(), self.storage.count_memories("active"))
        self.storage.refresh_search_index()
        self._load_clusters()
        self.records.clear()
        self.episodes_cache = None  # another process (or a restore) may have written episodes
        self.history.clear()
        self._data_version = self.storage.data_version()

    def reload(self) -> None:
        """Re-read everything kept in memory from the store (after a restore)."""
        with self.lock:
            self._reload_index()

    def sync_index(self) -> None:
        """Reload the vectors when another process (connection) has committed."""
        version = self.storage.data_version()
        if version != self._data_version:
            self._reload_index()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the engine lock on a ready engine whose index is in step with the store."""
        with self.lock:
            self.ensure()
            self.sync_index()
            yield

    def fetch_cached(self, ids: Sequence[str]) -> list[Memory]:
        """``storage.get_memories`` through the record cache (same order, missing ids
        dropped).  The caller holds the lock."""
        for m in self.storage.get_memories(self.records.missing(ids)):
            self.records.put(m)
        return self.records.take(ids)

    # -- the unit of work -------------------------------------------------------
    def commit(self, plan: Changes | Callable[[], Changes]) -> Changes:
        """Write ``plan`` in one transaction, then update index and caches, then fire events.

        ``plan`` is a ready :class:`Changes` or a callable that reads what it
        needs (fresh, inside the transaction) and returns one.  If it or a
        write raises, nothing is stored, the index is untouched and no event
        fires.
        """
        with self.reading():
            changes = self.apply(plan)
        self.announce(changes)
        return changes

    def apply(self, plan: Changes | Callable[[], Changes]) -> Changes:
        """The transaction and the index/cache updates of :meth:`commit`, without the
        events (for a caller that holds the lock and announces after releasing it)."""
        with self.lock, self.storage.transaction():
            changes = plan if isinstance(plan, Changes) else plan()
            if not changes.written:
                for m in changes.added:
                    self.storage.insert_memory(m)
                for m in changes.updated:
                    self.storage.update_memory(m)
                if changes.touched:
                    self.storage.touch_memories(changes.touched)
                self.storage.delete_memories(changes.deleted)
            for ep in changes.episodes:
                self.storage.put_episode(ep)
            for e in changes.edges:
                self.storage.put_edge(e)
            self.storage.delete_edges(changes.dropped_edges)
            # Context vectors embedded since the last write ride along (same transaction).
            jobs = self.contexts.ready(wait=False)
            contexts = [p for job in jobs for p in job.pairs()]
            if contexts:
                self.storage.set_context_vectors(contexts)
        with self.lock:
            self.contexts.written(jobs)
            self._publish(changes)
            for mid, vec in contexts:
                self.records.patch(mid, context_embedding=vec)
        return changes

    def _publish(self, changes: Changes) -> None:
        if changes.reload_index:
            self._reload_index()
        else:
            for m in changes.faded:
                self.index.remove(m.id)
                self.records.put(m)
            for mid in changes.deleted:
                self.index.remove(mid)
                self.records.drop(mid)
            for m in (*changes.added, *changes.updated):
                self.records.put(m)
                if m.status == "active" and m.embedding is not None:
                    self.index.add(m.id, m.embedding)
                else:
                    self.index.remove(m.id)
            for m in changes.touched:  # same vector: the index keeps it
                self.records.put(m)
        if changes.episodes or changes.reload_index:
            self.episodes_cache = None
        self.history.written(changes.updated, changes.deleted)
        if changes.reload_clusters:
            self._load_clusters()
            self.records.clear()  # members' cluster_id changed
        self.pending_faded.extend(changes.faded)

    def announce(self, changes: Changes) -> None:
        """The events of a committed :class:`Changes`, in the documented order."""
        for m in changes.added:
            self.events.emit("memory_added", m)
        for m in (*changes.updated, *changes.touched):
            self.events.emit("memory_updated", m)
        for m in changes.faded:
            self.events.emit("memory_faded", m)
        for mid in changes.deleted:
            self.events.emit("memory_deleted", mid)
        for ev in changes.contradictions:
            self.events.emit("contradiction_detected", ev)
        if changes:
            self.emit_stats()

    def emit_stats(self) -> None:
        """Fire ``stats_changed`` with fresh stats, if anyone listens (they cost a scan)."""
        if self.events.has_subscribers("stats_changed"):
            self.events.emit("stats_changed", self.stats())

    # -- reading ----------------------------------------------------------
    def get(self, memory_id: str) -> Memory:
        check_ident(self.config, "memory_id", memory_id)
        with self.lock:
            self.ensure()
            m = self.storage.get_memory(memory_id)
        if m is None:
            raise MemoryNotFoundError(memory_id)
        return m

    def stats(self) -> MemoryStats:
        with self.reading():
            return dataclasses.replace(
                build_stats(self.storage, self.config, self.clock.now_ms()), search_index=self.index.profile()
            )

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """Vectors for ``texts`` in batches of ``embedding_batch_size``."""
        size = self.config.embedding_batch_size
        out: list[Vector] = []
        for start in range(0, len(texts), size):
            out.extend(self.embedder.embed(list(texts[start : start + size])))
        return out

    def nearest(self, vec: Vector, k: int) -> list[tuple[Memory, float]]:
        """The ``k`` active memories nearest to ``vec`` with their cosine, best first."""
        with self.reading():
            hits = self.index.search(vec, k)
            found = {m.id: m for m in self.fetch_cached([h.id for h in hits])}
        return [(found[h.id], h.similarity) for h in hits if h.id in found]

    def contradiction_candidates(self, vec: Vector, attribute: Attribute | None) -> list[Candidate]:
        """Stage-1 contradiction candidates of a vector (nearest, and nearest in its slot)."""
        with self.reading():
            mems, sims = stage1(self, vec, attribute)
        return [Candidate(mems[i], sims[i]) for i in mems]

    def prototype_vectors(self) -> dict[str, Vector]:
        """Embedded type prototypes (for classifying text without rule types)."""
        with self.lock:
            if self._prototypes is None:
                groups: dict[str, tuple[str, ...]] = dict(PROTOTYPES)
                for ct in self.config.custom_types:
                    if ct.examples:
                        groups[ct.name] = tuple(ct.examples)
                names = [n for n, ex in groups.items() for _ in ex]
                texts = [t for ex in groups.values() for t in ex]
                vecs = self.embedder.embed(texts)
                out: dict[str, Vector] = {}
                for name in groups:
                    rows = [v for n, v in zip(names, vecs, strict=True) if n == name]
                    out[name] = np.stack(rows).astype(np.float32)
                self._prototypes = out
            return self._prototypes

    # -- the three verbs' engine side: orchestrations in their own modules ---------------
    learn = run_learn
    compact = run_compact

    def auto_compact(
        self, message: object, history: object, *, session_id: str | None
    ) -> tuple[CompactionResult, float] | None:
        """Compact ``history`` when it and ``message`` would crowd out the memory
        block (``augment(auto_compact=True)``); None when they fit."""
        text = check_str("message", message)
        msgs = validate_history(history, self.config)
        budget = needs_compaction(self, text, msgs)
        if budget is None:
            return None
        t0 = time.perf_counter()
        done = run_compact(self, msgs, session_id=session_id or self.default_session, budget_tokens=budget)
        return done, (time.perf_counter() - t0) * 1000

    augment = run_augment

    def set_retention_policy(self, policy: RetentionPolicy) -> RetentionPolicy:
        """Store ``policy`` (one transaction); the sweep applies it."""
        with self.lock:
            self.ensure()
            with self.storage.transaction():
                write_retention(self.storage, policy)
        return policy

    def get_retention_policy(self) -> RetentionPolicy | None:
        with self.lock:
            self.ensure()
            return read_retention(self.storage)

    def end_session(self, session_id: object) -> Episode | None:
        """Make ``session_id`` an episode now (see ``LokulMem.end_session``)."""
        sid = check_ident(self.config, "session_id", session_id)
        with self.lock:
            self.ensure()
            found = end_sessions(self, [sid], self.clock.now_ms())
        return found[0] if found else None

"""The engine shared by the sync and async clients.

This is where I/O meets the pure algorithms: it embeds, searches, reads and
writes the store, and calls :mod:`lokulmem.extraction`,
:mod:`lokulmem.contradiction`, :mod:`lokulmem.decay` and
:mod:`lokulmem.retrieval` for every decision.  Every change ``learn()`` or
``augment()`` makes is one transaction; the in-memory index, the session
state and the events are updated only after it commits.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .analytics import summarize
from .clock import Clock
from .config import Config
from .contradiction import Candidate, Verdict, judge
from .decay import initial_strength, reinforce
from .embedding import Embedder
from .errors import MemoryNotFoundError, StoreClosedError, ValidationError
from .events import EventBus
from .extraction import (
    PROTOTYPES,
    Analysis,
    analyze_text,
    classify_by_prototype,
    extraction_score,
    quality_walls,
    recurrence,
    split_sentences,
    substance,
)
from .extraction import (
    novelty as novelty_of,
)
from .extraction.attributes import Attribute, slot_keys
from .extraction.dates import event_time
from .index import BruteForceIndex
from .maintenance import holder_id, run_maintenance, sweep_due
from .records import (
    AugmentResult,
    Cluster,
    ContradictionEvent,
    InjectedMemory,
    LearnResult,
    LokulMemDebug,
    MaintenanceReport,
    Memory,
    MemoryStats,
    ProgressEvent,
    ProgressStage,
    Resolution,
    ScoredMemory,
    SentenceDecision,
    context_text,
)
from .retrieval import (
    BLOCK_END,
    BLOCK_START,
    breakdown,
    count_tokens,
    explain,
    format_block,
    format_line,
    inject,
    key_terms,
    message_text,
    validate_history,
)
from .storage import Storage

__all__ = ["Changes", "Engine"]

logger = logging.getLogger("lokulmem")

Vector = npt.NDArray[np.float32]
PIPELINE = ("parse", "mode-selection", "candidates", "scoring", "ranking", "packaging", "audit")


@dataclass
class Changes:
    """What one manage() operation writes (see :meth:`Engine.commit`)."""

    added: list[Memory] = field(default_factory=list)
    updated: list[Memory] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    contradictions: list[ContradictionEvent] = field(default_factory=list)
    #: Rebuild the index and drop the record cache (bulk imports, clear).
    reload_index: bool = False
    #: Something changed besides memories (e.g. a bridge event was stored).
    other: bool = False
    #: The plan wrote the memories itself (commit only updates index and events).
    written: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.updated or self.deleted or self.reload_index or self.other)


@dataclass
class _Session:
    turn: int = 0
    vectors: deque[Vector] = field(default_factory=deque)
    #: The assistant's last response in this session: what the next user message answers.
    last_response: str = ""


@dataclass
class _MessageContext:
    """The message a sentence came from and what it answered; its vector is
    embedded once, and only if one of its sentences is stored."""

    text: str
    reply: str
    embed: Callable[[str], Vector] | None
    _vector: Vector | None = None

    def vector(self) -> Vector | None:
        if self._vector is None and self.embed is not None:
            vec = np.array(self.embed(context_text(self.reply, self.text)), dtype=np.float32)
            vec.setflags(write=False)
            self._vector = vec
        return self._vector


@dataclass
class _Plan:
    """What one learn() call will write, built before the transaction."""

    new: list[Memory] = field(default_factory=list)
    updates: dict[str, Memory] = field(default_factory=dict)
    reinforced: list[str] = field(default_factory=list)
    contradictions: list[ContradictionEvent] = field(default_factory=list)
    decisions: list[SentenceDecision] = field(default_factory=list)
    removed_from_index: set[str] = field(default_factory=set)
    vectors: list[Vector] = field(default_factory=list)


def _check_str(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ValidationError(name, f"must be a string, got {type(value).__name__}")
    return value


class Engine:
    """One store, one embedder, one index.  Thread-safe (one lock)."""

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
        self.index = BruteForceIndex(embedder.dimension)
        self._lock = threading.RLock()
        # Per-session recurrence state, least recently used evicted beyond session_cache_size.
        self._sessions: OrderedDict[str, _Session] = OrderedDict()
        self._data_version: int | None = None
        self._prototypes: dict[str, Vector] | None = None
        # Parsed records of recently used memories.  Cleared whenever another
        # process commits (see _sync_index); our own commits update it.
        self._records: OrderedDict[str, Memory] = OrderedDict()
        self._ready = False
        self._closed = False
        self.executor = executor
        self.holder = holder_id()
        # Background work (maintenance, clustering) in "thread" mode: one worker.
        self._bg: ThreadPoolExecutor | None = None
        self._bg_futures: list[Future[MaintenanceReport]] = []
        # Memories faded by any sweep since the last learn() returned them.
        self._pending_faded: list[Memory] = []
        self._clusters: list[Cluster] = []
        self._centroids: Vector | None = None
        if executor == "inline":
            logger.info(
                "lokulmem executor='inline': maintenance sweeps and clustering run on the "
                "caller's thread (init() and some learn() calls wait for them)"
            )

    # -- lifecycle ------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self._ready

    def init(self) -> None:
        with self._lock:
            if self._closed:
                raise StoreClosedError("this LokulMem was closed")
            if self._ready:
                return
            self._progress("worker", 1.0)  # work runs on the caller's thread / executor
            load = getattr(self.embedder, "load", None)
            self._progress("model", 0.0)
            if callable(load):
                load()
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
        """Wait for background maintenance, then close the store."""
        bg = self._bg
        if bg is not None:
            bg.shutdown(wait=True)
        with self._lock:
            if not self._closed:
                self.storage.close()
                self._closed = True
                self._ready = False

    # -- maintenance -----------------------------------------------------------
    @contextmanager
    def locked(self) -> Iterator[None]:
        """The engine lock on a ready engine (for maintenance writes)."""
        with self._lock:
            self._ensure()
            yield

    def maintenance(self, *, sweep: bool | None = True, cluster: bool | None = None) -> MaintenanceReport:
        """Run maintenance now, on this thread (see :mod:`lokulmem.maintenance`)."""
        with self._lock:
            self._ensure()
            self._sync_index()
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

        if self.executor == "inline":
            task()
            return
        with self._lock:
            if self._bg is None:
                self._bg = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lokulmem-maintenance")
            self._bg_futures = [f for f in self._bg_futures if not f.done()]
            self._bg_futures.append(self._bg.submit(task))

    def wait_for_maintenance(self, timeout: float | None = None) -> None:
        """Block until queued background maintenance has finished."""
        with self._lock:
            pending = list(self._bg_futures)
        for f in pending:
            f.result(timeout=timeout)

    def after_sweep(self, faded: Sequence[Memory], purged: Sequence[str]) -> None:
        """Index, cache and events after a committed sweep (called with the lock held)."""
        for m in faded:
            self.index.remove(m.id)
            self._remember(m)
        for mid in purged:
            self.index.remove(mid)
            self._records.pop(mid, None)
        self._pending_faded.extend(faded)
        for m in faded:
            self.events.emit("memory_faded", m)
        for mid in purged:
            self.events.emit("memory_deleted", mid)
        if faded or purged:
            self.emit_stats()

    def after_clustering(self) -> None:
        self._load_clusters()
        self._records.clear()  # members' cluster_id changed

    def clusters(self) -> list[Cluster]:
        return list(self._clusters)

    def _load_clusters(self) -> None:
        dim = self.embedder.dimension
        self._clusters = [
            c for c in self.storage.all_clusters() if c.centroid is not None and c.centroid.shape == (dim,)
        ]
        if self._clusters:
            self._centroids = np.stack([c.centroid for c in self._clusters if c.centroid is not None])
        else:
            self._centroids = None

    def _progress(self, stage: ProgressStage, progress: float) -> None:
        self.events.emit("progress", ProgressEvent(stage=stage, progress=progress))

    def _ensure(self) -> None:
        if self._closed:
            raise StoreClosedError("this LokulMem was closed")
        if not self._ready:
            self.init()

    def _reload_index(self) -> None:
        self.index.reset(self.storage.active_vectors())
        self._load_clusters()
        self._records.clear()
        self._data_version = self.storage.data_version()

    def _fetch(self, ids: Sequence[str]) -> list[Memory]:
        """``storage.get_memories`` through the record cache (same order, missing ids dropped)."""
        missing = [i for i in ids if i not in self._records]
        for m in self.storage.get_memories(missing):
            self._remember(m)
        out: list[Memory] = []
        for i in ids:
            rec = self._records.get(i)
            if rec is not None:
                self._records.move_to_end(i)
                out.append(rec)
        return out

    def _remember(self, memory: Memory) -> None:
        self._records[memory.id] = memory
        self._records.move_to_end(memory.id)
        while len(self._records) > self.config.record_cache_size:
            self._records.popitem(last=False)

    def _sync_index(self) -> None:
        """Reload the vectors when another process (connection) has committed."""
        version = self.storage.data_version()
        if version != self._data_version:
            self._reload_index()

    def _session(self, session_id: str) -> _Session:
        s = self._sessions.get(session_id)
        if s is None:
            s = self._sessions[session_id] = _Session(
                vectors=deque(maxlen=self.config.session_sentence_window)
            )
            while len(self._sessions) > self.config.session_cache_size:
                self._sessions.popitem(last=False)
        self._sessions.move_to_end(session_id)
        return s

    def prototype_vectors(self) -> dict[str, Vector]:
        """Embedded type prototypes (for classifying text without rule types)."""
        with self._lock:
            return self._prototype_vectors()

    def _prototype_vectors(self) -> dict[str, Vector]:
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

    # -- reading ----------------------------------------------------------
    def get(self, memory_id: str) -> Memory:
        _check_str("memory_id", memory_id)
        with self._lock:
            self._ensure()
            m = self.storage.get_memory(memory_id)
        if m is None:
            raise MemoryNotFoundError(memory_id)
        return m

    def count_active(self) -> int:
        with self._lock:
            self._ensure()
            return self.storage.count_memories("active")

    # -- plumbing for manage() -----------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the engine lock on a ready engine whose index is in step with the store."""
        with self._lock:
            self._ensure()
            self._sync_index()
            yield

    def fetch(self, ids: Sequence[str]) -> list[Memory]:
        """Memories by id through the record cache (order kept, unknown ids dropped)."""
        with self.reading():
            return self._fetch(ids)

    def commit(self, plan: Callable[[], Changes]) -> Changes:
        """Run ``plan`` inside one write transaction, then update index, cache and events.

        ``plan`` reads what it needs (fresh, inside the transaction) and
        returns the :class:`Changes`; the memories in it are written here.
        Anything else it writes joins the same transaction.  If it or a write
        raises, nothing is stored, the index is untouched and no event fires.
        """
        with self.reading():
            with self.storage.transaction():
                changes = plan()
                if not changes.written:
                    for m in changes.added:
                        self.storage.insert_memory(m)
                    for m in changes.updated:
                        self.storage.update_memory(m)
                    self.storage.delete_memories(changes.deleted)
            if changes.reload_index:
                self._reload_index()
            else:
                for mid in changes.deleted:
                    self.index.remove(mid)
                    self._records.pop(mid, None)
                for m in (*changes.added, *changes.updated):
                    self._remember(m)
                    if m.status == "active" and m.embedding is not None:
                        self.index.add(m.id, m.embedding)
                    else:
                        self.index.remove(m.id)
        for m in changes.added:
            self.events.emit("memory_added", m)
        for m in changes.updated:
            self.events.emit("memory_updated", m)
        for mid in changes.deleted:
            self.events.emit("memory_deleted", mid)
        for ev in changes.contradictions:
            self.events.emit("contradiction_detected", ev)
        if changes:
            self.emit_stats()
        return changes

    def emit_stats(self) -> None:
        """Fire ``stats_changed`` with fresh stats, if anyone listens (they cost a scan)."""
        if self.events.has_subscribers("stats_changed"):
            self.events.emit("stats_changed", self.stats())

    def stats(self) -> MemoryStats:
        cfg = self.config
        with self.reading():
            now = self.clock.now_ms()
            rows = self.storage.stat_rows()
            summary = summarize(rows, cfg, now)
            n = cfg.stats_top_n

            def top(
                key: Callable[[Any], Any], keep: Callable[[Any], bool] = lambda r: True
            ) -> tuple[Memory, ...]:
                ids = [r["id"] for r in sorted((r for r in rows if keep(r)), key=key)[:n]]
                return tuple(self.storage.get_memories(ids))

            oldest = top(lambda r: (r["created_at"], r["id"]))
            newest = top(lambda r: (-r["created_at"], r["id"]))
            return MemoryStats(
                total=summary.total,
                active=summary.by_status["active"],
                faded=summary.by_status["faded"],
                archived=summary.by_status["archived"],
                superseded=summary.by_status["superseded"],
                pinned=summary.pinned,
                by_type=self.storage.type_counts(),
                average_strength=summary.average_strength,
                average_confidence=summary.average_confidence,
                confidence_distribution=summary.confidence_distribution,
                strength_distribution=summary.strength_distribution,
                most_mentioned=top(lambda r: (-r["mention_count"], -r["updated_at"], r["id"])),
                recently_updated=top(lambda r: (-r["updated_at"], r["id"])),
                recently_faded=top(lambda r: (-r["updated_at"], r["id"]), lambda r: r["status"] == "faded"),
                oldest_memory=oldest[0] if oldest else None,
                newest_memory=newest[0] if newest else None,
                storage_used_bytes=self.storage.size_bytes(),
                conversation_count=self.storage.conversation_count(),
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
            found = {m.id: m for m in self._fetch([h.id for h in hits])}
        return [(found[h.id], h.similarity) for h in hits if h.id in found]

    def contradiction_candidates(self, vec: Vector, attribute: Attribute | None) -> list[Candidate]:
        with self.reading():
            mems, sims = self._stage1(vec, attribute)
        return [Candidate(mems[i], sims[i]) for i in mems]

    # -- learn ------------------------------------------------------------
    def learn(
        self,
        user_message: object,
        assistant_response: object = "",
        *,
        session_id: str | None = None,
        force_extract: bool = False,
        skip_types: Sequence[str] = (),
        in_reply_to: str | None = None,
    ) -> LearnResult:
        text = _check_str("user_message", user_message)
        response = "" if assistant_response is None else _check_str("assistant_response", assistant_response)
        if in_reply_to is not None:
            _check_str("in_reply_to", in_reply_to)
        if session_id is not None:
            _check_str("session_id", session_id)
            if not session_id.strip():
                raise ValidationError("session_id", "must not be empty")
        if isinstance(skip_types, str) or not all(isinstance(t, str) for t in skip_types):
            raise ValidationError("skip_types", "must be a list of type names")
        skip = frozenset(skip_types)
        cfg = self.config
        truncated = len(text) > cfg.max_message_chars
        text = text[: cfg.max_message_chars]
        with self._lock:
            self._ensure()
            if not text.strip():
                return LearnResult(total_memories=self.storage.count_memories("active"))
            sid = session_id or self.default_session
            new_session = sid not in self._sessions
            state = self._session(sid)
            now = self.clock.now_ms()
            self._sync_index()
            sentences = [s[: cfg.max_sentence_chars] for s in split_sentences(text)]
            sentences = sentences[: cfg.max_sentences_per_message]
            analyses = [analyze_text(s, cfg) for s in sentences]
            vectors = list(self.embedder.embed([a.content for a in analyses])) if analyses else []
            plan = _Plan()
            # A sentence without "I" in a message that has one is still the speaker's
            # ("Thanks Mel! It's been a dream to have a family."): no impersonal margin.
            personal = any(not a.impersonal for a in analyses)
            replied = state.last_response if in_reply_to is None else in_reply_to
            reply = replied[-cfg.max_reply_context_chars :] if cfg.max_reply_context_chars else ""
            message = _MessageContext(
                text=text[: cfg.max_context_chars],
                reply=reply.strip(),
                embed=(lambda t: self.embedder.embed([t])[0]) if cfg.context_vector_weight > 0 else None,
            )
            for a, vec in zip(analyses, vectors, strict=True):
                self._plan_sentence(
                    plan,
                    a,
                    vec,
                    sid,
                    state,
                    now,
                    force_extract,
                    skip,
                    personal,
                    message,
                )
            # One transaction for everything; nothing below runs if it fails.
            with self.storage.transaction():
                for m in plan.new:
                    self.storage.insert_memory(m)
                for m in plan.updates.values():
                    self.storage.update_memory(m)
            for m in (*plan.new, *plan.updates.values()):
                self._remember(m)
            for m in plan.new:
                if m.embedding is not None and m.id not in plan.removed_from_index:
                    self.index.add(m.id, m.embedding)
            for mid in plan.removed_from_index:
                self.index.remove(mid)
            state.turn += 1
            state.last_response = response
            state.vectors.extend(plan.vectors)  # bounded: maxlen = session_sentence_window
            total = self.storage.count_memories("active")
        new_ids = {m.id for m in plan.new}
        for m in plan.new:
            self.events.emit("memory_added", m)
        for m in plan.updates.values():
            if m.id not in new_ids:
                self.events.emit("memory_updated", m)
        for ev in plan.contradictions:
            self.events.emit("contradiction_detected", ev)
        if plan.new or plan.updates:
            self.emit_stats()
        # Session start: cluster if enough was added; any learn: sweep if due.
        if new_session or sweep_due(self, now):
            self.schedule_maintenance(cluster=None if new_session else False)
        with self._lock:
            faded, self._pending_faded = tuple(self._pending_faded), []
        return LearnResult(
            extracted=tuple(plan.new),
            contradictions=tuple(plan.contradictions),
            faded=faded,
            total_memories=total,
            reinforced=tuple(plan.updates[i] for i in plan.reinforced),
            decisions=tuple(plan.decisions),
            truncated=truncated,
        )

    def _stage1(self, vec: Vector, attribute: Attribute | None) -> tuple[dict[str, Memory], dict[str, float]]:
        """Contradiction candidates: the nearest stored facts and the nearest ones in the same slot."""
        cfg = self.config
        hits = self.index.search(vec, cfg.contradiction_candidates)
        sims: dict[str, float] = {h.id: h.similarity for h in hits}
        mems: dict[str, Memory] = {m.id: m for m in self._fetch(list(sims))}
        keys = slot_keys(attribute)
        if keys:
            # Only the nearest same-attribute facts are read in full: a store may
            # hold hundreds of "sister.residence" facts.
            found = dict.fromkeys(i for k in keys for i in self.storage.ids_by_attribute(k))
            same_ids = [i for i in found if i not in mems]
            same_ids = [i for i in same_ids if i in self.index]
            ranked = sorted(
                zip(same_ids, self.index.similarities(vec, same_ids), strict=True), key=lambda x: -x[1]
            )[: cfg.contradiction_candidates]
            for m in self._fetch([i for i, _ in ranked]):
                mems[m.id] = m
            sims.update(ranked)
        return mems, sims

    def _current(self, plan: _Plan, memory: Memory) -> Memory:
        return plan.updates.get(memory.id, memory)

    def _plan_sentence(
        self,
        plan: _Plan,
        a: Analysis,
        vec: Vector,
        sid: str,
        state: _Session,
        now: int,
        force: bool,
        skip: frozenset[str],
        personal_message: bool = False,
        message: _MessageContext | None = None,
    ) -> None:
        cfg = self.config
        plan.vectors.append(vec)

        def decide(
            outcome: str,
            score: float = 0.0,
            novelty: float = 0.0,
            rec: float = 0.0,
            types: Sequence[str] = (),
            memory_id: str | None = None,
        ) -> None:
            plan.decisions.append(
                SentenceDecision(
                    sentence=a.sentence,
                    content=a.content,
                    score=score,
                    novelty=novelty,
                    specificity=a.specificity,
                    recurrence=rec,
                    features=a.features.names,
                    types=tuple(types),
                    outcome=outcome,
                    memory_id=memory_id,
                )
            )

        if not force:
            # Not facts, unless the caller forces extraction: (analysis flag, config switch, outcome).
            for flagged, enabled, outcome in (
                (a.question, cfg.skip_questions, "question"),
                (a.chitchat, cfg.skip_chitchat, "chit-chat"),
                (a.listener, cfg.skip_listener_remarks, "about-listener"),
                (a.request, cfg.skip_questions, "request"),
            ):
                if flagged and enabled:
                    decide(outcome)
                    return
        # Stage-1 candidates: nearest stored facts, same-attribute facts, and facts
        # planned earlier in this same message.
        mems, sims = self._stage1(vec, a.attribute)
        for m in plan.new:
            if m.embedding is not None:
                mems[m.id] = m
                sims[m.id] = float(m.embedding @ vec)
        candidates = [
            Candidate(self._current(plan, mems[i]), sims[i]) for i in mems if i not in plan.removed_from_index
        ]
        top1 = max((c.similarity for c in candidates if c.memory.status == "active"), default=None)
        novelty = novelty_of(top1, cfg)
        occurrences = sum(1 for v in state.vectors if float(v @ vec) > cfg.recurrence_similarity)
        occurrences += sum(1 for v in plan.vectors[:-1] if float(v @ vec) > cfg.recurrence_similarity)
        rec = recurrence(occurrences, cfg)
        score = extraction_score(novelty, a.specificity, rec, cfg)
        types = list(a.rule_types)
        backed = (
            cfg.backing_min_terms > 0
            and bool(types)
            and all(t in cfg.backed_types for t in types)
            and substance(a.sentence, types) >= cfg.backing_min_terms
        )
        if not types or backed:
            # Transient types (fast λ) need an explicit cue; the fallback picks a durable one.
            protos = {k: v for k, v in self._prototype_vectors().items() if k not in cfg.transient_types}
            proto = classify_by_prototype(vec, protos)
            if proto and proto not in types:
                types.append(proto)
        if skip and types:
            kept = [t for t in types if t not in skip]
            if not kept:
                decide("skipped-type", score, novelty, rec, types)
                return
            types = kept
        verdict = judge(
            sentence=a.sentence, content=a.content, attribute=a.attribute, candidates=candidates, config=cfg
        )
        if verdict is not None and verdict.kind == "duplicate":
            existing = self._current(plan, verdict.existing)
            if existing.id in {m.id for m in plan.new}:
                decide("reinforced", score, novelty, rec, types, existing.id)
                return
            updated = reinforce(existing, now, cfg)
            if sid not in updated.source_conversation_ids:
                updated = updated.replace(source_conversation_ids=(*updated.source_conversation_ids, sid))
            plan.updates[updated.id] = updated
            if updated.id not in plan.reinforced:
                plan.reinforced.append(updated.id)
            decide("reinforced", score, novelty, rec, types, updated.id)
            return
        if verdict is not None and verdict.kind == "variant":
            verdict = None
            force = True  # a near-copy carrying a new number or name is new information
        impersonal = a.impersonal and not personal_message
        threshold = cfg.extraction_threshold + (cfg.impersonal_margin if impersonal else 0.0)
        if verdict is None and score < threshold and not force:
            decide("below-threshold", score, novelty, rec, types)
            return
        memory = self._new_memory(a, vec, types, score, sid, state.turn, now, top1, message)
        if verdict is not None:
            memory = self._resolve(plan, verdict, memory, now)
            decide("contradiction", score, novelty, rec, types, memory.id)
        else:
            decide("stored", score, novelty, rec, types, memory.id)
        plan.new.append(memory)

    def _new_memory(
        self,
        a: Analysis,
        vec: Vector,
        types: Sequence[str],
        score: float,
        sid: str,
        turn: int,
        now: int,
        top1: float | None,
        message: _MessageContext | None = None,
    ) -> Memory:
        cfg = self.config
        metadata: dict[str, Any] = {}
        if a.attribute is not None:
            metadata["attribute_negated"] = a.attribute.negated
        vec = np.array(vec, dtype=np.float32)
        vec.setflags(write=False)
        return Memory(
            id=str(uuid.uuid4()),
            content=a.content,
            types=tuple(types),
            embedding=vec,
            base_strength=initial_strength(a.valence, cfg),
            confidence="low" if a.hedged else "medium",
            extraction_score=round(score, 6),
            emotional_valence=round(a.valence, 6),
            valid_from=now,
            created_at=now,
            updated_at=now,
            last_accessed_at=now,
            last_reinforced=now,
            source_session=sid,
            source_turn=turn,
            source_conversation_ids=(sid,),
            entities=a.features.entities,
            source_text=a.sentence,
            source_context=message.text if message else "",
            reply_context=message.reply if message else "",
            context_embedding=message.vector() if message else None,
            event_at=event_time(a.sentence, now) if a.features.date_time else None,
            quality=quality_walls(
                a.sentence,
                specificity=a.specificity,
                top1_similarity=top1 or 0.0,
                duplicate_similarity=cfg.duplicate_similarity,
            ),
            attribute=a.attribute.key if a.attribute else None,
            attribute_value=a.attribute.value if a.attribute else None,
            metadata=metadata,
        )

    def _resolve(self, plan: _Plan, verdict: Verdict, memory: Memory, now: int) -> Memory:
        existing = self._current(plan, verdict.existing)
        if verdict.kind == "temporal-coexistence":
            closed = existing.replace(
                valid_to=now,
                superseded_by=memory.id,
                superseded_at=now,
                supersession_type="temporal",
                updated_at=now,
            )
            memory = memory.replace(temporal_supersedes=existing.id)
            resolution: Resolution = "temporal-coexistence"
        else:
            closed = existing.replace(
                status="superseded",
                valid_to=now,
                superseded_by=memory.id,
                superseded_at=now,
                supersession_type="conflict",
                updated_at=now,
            )
            memory = memory.replace(metadata={**memory.metadata, "supersedes": existing.id})
            plan.removed_from_index.add(existing.id)
            resolution = "conflict"
        if closed.id in {m.id for m in plan.new}:
            plan.new = [closed if m.id == closed.id else m for m in plan.new]
        else:
            plan.updates[closed.id] = closed
        plan.contradictions.append(
            ContradictionEvent(
                existing=closed,
                incoming=memory,
                resolution=resolution,
                temporal_marker_detected=verdict.marker,
                similarity=verdict.similarity,
                attribute=verdict.attribute,
            )
        )
        return memory

    # -- augment ----------------------------------------------------------
    def augment(
        self,
        message: object,
        history: object = None,
        *,
        max_memories: int | None = None,
        min_relevance: float | None = None,
        types: Sequence[str] | None = None,
        debug: bool = False,
        reinforce_injected: bool = True,
    ) -> AugmentResult:
        text = _check_str("message", message)
        hist = validate_history(history)
        cfg = self.config
        if max_memories is not None and (
            not isinstance(max_memories, int) or isinstance(max_memories, bool) or max_memories < 0
        ):
            raise ValidationError("max_memories", "must be an integer >= 0")
        if min_relevance is not None and (
            not isinstance(min_relevance, (int, float)) or not 0.0 <= float(min_relevance) <= 1.0
        ):
            raise ValidationError("min_relevance", "must be a number in [0, 1]")
        if types is not None and (isinstance(types, str) or not all(isinstance(t, str) for t in types)):
            raise ValidationError("types", "must be a list of type names")
        limit = cfg.max_memories if max_memories is None else max_memories
        floor = cfg.min_relevance if min_relevance is None else float(min_relevance)
        type_filter = frozenset(types) if types is not None else None
        counter = self.token_counter

        system_tokens = sum(count_tokens(message_text(m), counter) for m in hist if m.get("role") == "system")
        history_tokens = sum(
            count_tokens(message_text(m), counter) for m in hist if m.get("role") != "system"
        )
        history_tokens += count_tokens(text, counter)
        available = max(0, cfg.context_window_size - system_tokens - history_tokens - cfg.response_buffer)

        with self._lock:
            self._ensure()
            if not text.strip():
                return AugmentResult(
                    messages=inject(hist, text, ""),
                    debug=self._debug((), (), 0, available, 0.0, 0.0) if debug else None,
                )
            now = self.clock.now_ms()
            t0 = time.perf_counter()
            turn_texts = [message_text(m) for m in hist if m.get("role") in ("user", "assistant")]
            turn_texts = [t for t in turn_texts if t.strip()][-cfg.continuity_turns :]
            vecs = self.embedder.embed([text[: cfg.max_message_chars], *turn_texts])
            qvec, turn_vecs = vecs[0], vecs[1:]
            t1 = time.perf_counter()
            self._sync_index()
            hits = self.index.search(qvec, cfg.candidate_pool)
            ids = [h.id for h in hits]
            seen = set(ids)
            lexical, lexical_own = self._lexical(text)
            extra = [i for i in self.storage.pinned_ids() if i not in seen]
            extra += [i for i in lexical if i not in seen and i not in set(extra) and i in self.index]
            ids += extra
            sims = dict(
                zip(ids, [h.similarity for h in hits] + self.index.similarities(qvec, extra), strict=True)
            )
            memories = self._fetch(ids)
            topic: str | None = None
            if self._centroids is not None:
                topic = self._clusters[int(np.argmax(self._centroids @ qvec))].id
            scored: list[tuple[Memory, float, Any]] = []
            for m in memories:
                if m.embedding is None or m.status != "active":
                    continue
                cont = max((float(m.embedding @ tv) for tv in turn_vecs), default=0.0)
                bonus = cfg.cluster_bonus if topic is not None and m.cluster_id == topic else 0.0
                sim = sims[m.id]
                if m.context_embedding is not None and cfg.context_vector_weight > 0:
                    w = cfg.context_vector_weight
                    sim = (1 - w) * sim + w * float(m.context_embedding @ qvec)
                b = breakdown(
                    m,
                    similarity=sim,
                    continuity=cont,
                    now_ms=now,
                    config=cfg,
                    cluster_bonus=bonus,
                    lexical=lexical.get(m.id, 0.0),
                )
                scored.append((m, sims[m.id], b))
            scored.sort(key=lambda x: -x[2].total)
            if cfg.context_once:
                # A message's context and reply words are the message's evidence: they
                # count for its best-scoring memory; its other memories keep their own.
                seen_messages: set[tuple[str, str]] = set()
                for j, (m, sim, b) in enumerate(scored):
                    if not m.source_context:
                        continue
                    key = (m.source_session, m.source_context)
                    if key in seen_messages:
                        own = lexical_own.get(m.id, 0.0)
                        b = dataclasses.replace(b, lexical=cfg.retrieval_weights.lexical * own)
                        scored[j] = (m, sim, b)
                    seen_messages.add(key)
            scored.sort(key=lambda x: (-(x[0].pinned and x[2].total > floor), -x[2].total))

            overhead = count_tokens(f"{BLOCK_START}\n{BLOCK_END}\n\n", counter)
            budget = available - overhead
            chosen: list[tuple[Memory, float, Any, str]] = []
            reasons: dict[str, str | None] = {}
            used = 0
            for m, sim, b in scored:
                if type_filter is not None and not (set(m.types) & type_filter):
                    reasons[m.id] = "type filtered"
                    continue
                if b.total <= floor:
                    reasons[m.id] = "below relevance threshold"
                    continue
                if len(chosen) >= limit:
                    reasons[m.id] = "max memories reached"
                    continue
                line = format_line(m, cfg)
                cost = count_tokens(line + "\n", counter)
                if used + cost > budget:
                    reasons[m.id] = "token budget exhausted"
                    continue
                used += cost
                chosen.append((m, sim, b, line))
                reasons[m.id] = None
            block = format_block([c[3] for c in chosen]) if chosen else ""
            # Per-line estimates can differ from the real count for a custom counter.
            while chosen and count_tokens(block, counter) > available:
                m = chosen.pop()[0]
                reasons[m.id] = "token budget exhausted"
                block = format_block([c[3] for c in chosen]) if chosen else ""
            tokens_used = count_tokens(block, counter) if block else 0
            reinforced: list[Memory] = []
            if reinforce_injected and chosen:
                with self.storage.transaction():
                    for m, _, _, _ in chosen:
                        r = reinforce(m, now, cfg)
                        self.storage.update_memory(r)
                        reinforced.append(r)
                for r in reinforced:
                    self._remember(r)
            t2 = time.perf_counter()
            searched = len(self.index)
        for r in reinforced:
            self.events.emit("memory_updated", r)
        if reinforced:
            self.emit_stats()
        messages = inject(hist, text, block)
        dbg = None
        if debug:
            injected = tuple(
                InjectedMemory(
                    memory=m,
                    score=b.total,
                    score_breakdown=b,
                    reason=explain(m, b, sim, cfg),
                    injection_rank=rank,
                    tokens=count_tokens(line + "\n", counter),
                )
                for rank, (m, sim, b, line) in enumerate(chosen, start=1)
            )
            ranked = sorted(scored, key=lambda x: -x[2].total)[: cfg.debug_candidates]
            candidates = tuple(
                ScoredMemory(
                    memory=m,
                    score=b.total,
                    breakdown=b,
                    similarity=sim,
                    injected=reasons.get(m.id, "") is None,
                    excluded_reason=reasons.get(m.id),
                )
                for m, sim, b in ranked
            )
            dbg = self._debug(
                injected, candidates, tokens_used, available, (t1 - t0) * 1000, (t2 - t1) * 1000, searched
            )
        return AugmentResult(messages=messages, debug=dbg, context=block)

    def _lexical(self, text: str) -> tuple[dict[str, float], dict[str, float]]:
        """BM25 of the message's key terms in [0, 1]: over content, source message and
        reply context (weighted), and over content alone, on the same scale."""
        cfg = self.config
        if cfg.retrieval_weights.lexical <= 0:
            return {}, {}
        terms = key_terms(text)
        found = self.storage.lexical_search(
            terms,
            limit=cfg.lexical_pool,
            context_weight=cfg.lexical_context_weight,
            reply_weight=cfg.lexical_reply_weight,
        )
        own: list[tuple[str, float]] = []
        if cfg.context_once and (cfg.lexical_context_weight > 0 or cfg.lexical_reply_weight > 0):
            own = self.storage.lexical_search(terms, limit=cfg.lexical_pool)
        if cfg.lexical_saturation > 0:
            # Absolute: a weak match (only a common name) stays weak.
            c = cfg.lexical_saturation
            return {i: s / (s + c) for i, s in found}, {i: s / (s + c) for i, s in own}
        best = max((s for _, s in found), default=0.0)
        if best <= 0:
            return {}, {}
        return {i: s / best for i, s in found}, {i: min(1.0, s / best) for i, s in own}

    def _debug(
        self,
        injected: tuple[InjectedMemory, ...],
        candidates: tuple[ScoredMemory, ...],
        used: int,
        available: int,
        emb_ms: float,
        ret_ms: float,
        searched: int = 0,
    ) -> LokulMemDebug:
        return LokulMemDebug(
            injected=injected,
            candidates=candidates,
            tokens_used=used,
            tokens_available=available,
            retrieval_strategy="brute-force",
            search_mode=self.index.search_mode,
            embedding_latency_ms=emb_ms,
            retrieval_latency_ms=ret_ms,
            searched=searched,
            pipeline=PIPELINE,
        )

    def all_memories(self) -> list[Memory]:
        with self._lock:
            self._ensure()
            return self.storage.all_memories()

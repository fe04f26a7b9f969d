"""Context vectors embedded beside ``learn()``, off its critical path.

A memory's context vector (the embedding of "reply context + source message",
``Config.context_vector_weight``) is read only when a later ``augment()``
scores the memory; ``learn()`` itself never reads it (its contradiction and
edge searches use the sentence vectors).  With
``Config.defer_context_vector`` on, ``learn()`` embeds only its sentences, then
hands the message context to :class:`DeferredContexts`: one helper thread
embeds it while ``learn()`` goes on planning (the model releases the GIL).
Once the plan names the new memories the job is queued, and its vector is
written by the first write after it is ready: usually ``learn()``'s own
transaction; else the helper thread, in a short transaction of its own when
the engine is idle, or the next operation's.

Nothing reads a memory without its context vector while one is queued: every
engine operation settles the queue first (:meth:`Engine.settle_contexts`:
wait for the vectors, write them), except ``learn()``, which writes the ready
ones in its own transaction, and ``augment()``, which settles after embedding
its message.  So what later calls see is what embedding the context inside
``learn()`` gave; only the records ``learn()`` returns (and its events) carry
no context vector.  A process that dies before the write keeps the memories
without one: scoring then uses the sentence vector alone, as for any memory
without a context vector.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

__all__ = ["ContextJob", "DeferredContexts"]

logger = logging.getLogger("lokulmem")

Vector = npt.NDArray[np.float32]


@dataclass(eq=False)
class ContextJob:
    """One message's context text, the memories it belongs to (set when they are
    planned), and (once embedded) its vector; ``done`` is set when the vector is
    there or the embedding failed."""

    ids: tuple[str, ...]
    text: str
    vector: Vector | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def pairs(self) -> list[tuple[str, Vector]]:
        """``(memory id, vector)`` for each memory (none if the embedding failed)."""
        vec = self.vector
        return [] if vec is None else [(i, vec) for i in self.ids]


class DeferredContexts:
    """The queue of context vectors not yet written, and the thread that embeds them.

    ``embed`` turns one text into its (read-only) vector; ``land`` is called on
    the helper thread after each embedding, to write what is ready (it takes the
    engine lock itself).  All methods are thread-safe.
    """

    def __init__(self, embed: Callable[[str], Vector], land: Callable[[], None]) -> None:
        self._embed = embed
        self._land = land
        self._lock = threading.Lock()
        self._jobs: list[ContextJob] = []
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False

    def start(self, text: str) -> ContextJob:
        """Start embedding ``text`` on the helper thread; the job is written once
        :meth:`queue` names its memories (a job never queued is dropped).  Once
        intake is closed (the engine is closing) it is embedded here, on the
        caller's thread."""
        job = ContextJob(ids=(), text=text)
        with self._lock:
            if not self._closed:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lokulmem-context")
                self._pool.submit(self._run, job, land=True)
                return job
        self._run(job, land=False)
        return job

    def queue(self, job: ContextJob, ids: Sequence[str]) -> None:
        """The memories ``job``'s vector belongs to: from now on it is written with
        the next write (or by the helper thread, when the engine is idle)."""
        job.ids = tuple(ids)
        with self._lock:
            self._jobs.append(job)

    def _run(self, job: ContextJob, *, land: bool) -> None:
        try:
            job.vector = self._embed(job.text)
        except Exception:
            # The memories keep no context vector (scoring falls back to their own).
            logger.exception("lokulmem could not embed a message context")
        finally:
            job.done.set()
        if not land:
            return
        try:
            self._land()
        except Exception:
            # The next operation writes it (it settles the queue first).
            logger.exception("lokulmem could not write a context vector yet")

    @property
    def pending(self) -> bool:
        """Whether any context is embedded or written later."""
        with self._lock:
            return bool(self._jobs)

    def ready(self, *, wait: bool) -> list[ContextJob]:
        """The queued jobs whose embedding has finished (with ``wait``: all of them,
        after waiting); they stay queued until :meth:`written`."""
        with self._lock:
            jobs = list(self._jobs)
        if wait:
            for job in jobs:
                job.done.wait()
        return [j for j in jobs if j.done.is_set()]

    def written(self, jobs: Sequence[ContextJob]) -> None:
        """Drop ``jobs`` from the queue (their vectors are committed)."""
        gone = {id(j) for j in jobs}
        with self._lock:
            self._jobs = [j for j in self._jobs if id(j) not in gone]

    def close_intake(self) -> None:
        """From now on :meth:`start` embeds on the caller's thread (the queued jobs
        still run on the helper)."""
        with self._lock:
            self._closed = True

    def shutdown(self) -> None:
        """Close intake and wait for the helper thread to finish its jobs."""
        self.close_intake()
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

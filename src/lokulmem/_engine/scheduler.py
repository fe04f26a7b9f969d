"""Where background work runs: on one worker thread (``executor="thread"``) or inline."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Literal, TypeVar

__all__ = ["Scheduler"]

T = TypeVar("T")


class Scheduler:
    """Runs tasks inline (deterministic: tests, scripts) or queues them on one worker
    thread, so maintenance never runs twice at once within a process."""

    def __init__(self, mode: Literal["thread", "inline"]) -> None:
        self.mode = mode
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._futures: list[Future[object]] = []

    def run(self, task: Callable[[], object]) -> None:
        """Run ``task`` now (inline) or queue it (thread); it must handle its own errors."""
        if self.mode == "inline":
            task()
            return
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lokulmem-maintenance")
            self._futures = [f for f in self._futures if not f.done()]
            self._futures.append(self._pool.submit(task))

    def wait(self, timeout: float | None = None) -> None:
        """Block until the tasks queued so far have finished."""
        with self._lock:
            pending = list(self._futures)
        for f in pending:
            f.result(timeout=timeout)

    def shutdown(self) -> None:
        """Finish queued tasks and stop the worker."""
        pool = self._pool
        if pool is not None:
            pool.shutdown(wait=True)

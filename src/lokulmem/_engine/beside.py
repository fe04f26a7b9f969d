"""Storage reads that run beside the embedding of the same call.

``augment()`` spends most of its time embedding the message (the ONNX model
releases the GIL), and its lexical, time and pinned reads do not need the
vector (SQLite and psycopg release the GIL too).  :class:`Beside` runs such a
read on one helper thread while the caller embeds; the caller holds the
engine lock throughout, so no write of this process can come between, and the
read takes the storage's own lock like any other.  Off
(``Config.overlap_text_search = False``) or on a
closed engine, the read runs on the caller's thread when its result is asked
for: same result, no overlap.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, TypeVar

__all__ = ["Beside", "Pending"]

T = TypeVar("T")


class Pending(Generic[T]):
    """A read started by :meth:`Beside.run` (or, with overlap off, one that runs
    when its result is first asked for)."""

    def __init__(self, future: Future[T] | None, fn: Callable[[], T]) -> None:
        self._future = future
        self._fn = fn
        self._value: tuple[T] | None = None  # a 1-tuple once run: T may be None

    def result(self) -> tuple[T, bool]:
        """The read's value and whether it ran beside the caller; re-raises what the
        read raised."""
        if self._future is not None:
            return self._future.result(), True
        if self._value is None:
            self._value = (self._fn(),)
        return self._value[0], False


class Beside:
    """One helper thread for reads that overlap the caller's embedding (module doc)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False

    def run(self, fn: Callable[[], T]) -> Pending[T]:
        """Start ``fn`` on the helper thread, or (overlap off) leave it to run on the
        caller's thread when its result is asked for."""
        with self._lock:
            if self.enabled and not self._closed:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lokulmem-recall")
                return Pending(self._pool.submit(fn), fn)
        return Pending(None, fn)

    def shutdown(self) -> None:
        """Stop the helper thread (later reads run on the caller's thread)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

"""BLAS threads during ``learn()`` and ``augment()``.

numpy's OpenBLAS keeps its worker threads spinning for a while after each
matrix product; the next embedding then shares the cores with them.  On 2
cores, a short sentence took 9.6 ms to embed right after the index's
10,000 × 384 product instead of 3.0 ms with BLAS on one thread (and the product
itself 0.54 → 0.75 ms; ``python bench/bench_threads.py``).
So, for the duration of those calls only, BLAS runs on ``Config.blas_threads``
threads (``threadpoolctl``; the previous setting is restored afterwards, and
0 leaves it alone).  The limit is process-wide while it holds: another
thread's BLAS call made meanwhile runs on as many threads.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["BlasLimit"]

_controller: Any = None
_controller_lock = threading.Lock()


def _shared_controller() -> Any:
    """One ``ThreadpoolController`` per process (it inspects the loaded libraries once);
    False when ``threadpoolctl`` is missing (a dependency, but an install may lack it):
    then BLAS is left as it is."""
    global _controller
    with _controller_lock:
        if _controller is None:
            try:
                from threadpoolctl import ThreadpoolController
            except ImportError:
                _controller = False
            else:
                _controller = ThreadpoolController()
        return _controller


class BlasLimit:
    """``with limit():`` runs its body with BLAS on ``threads`` threads (0: untouched)."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        controller: Any = _shared_controller() if self.threads > 0 else False
        if controller is False:
            yield
            return
        with controller.limit(limits=self.threads, user_api="blas"):
            yield

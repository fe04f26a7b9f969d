"""Background work (``lokulmem._engine.scheduler``): inline runs at once, thread mode queues."""

from __future__ import annotations

import threading

from lokulmem._engine.scheduler import Scheduler


def test_inline_runs_on_the_callers_thread_and_thread_mode_on_one_worker() -> None:
    seen: list[str] = []
    Scheduler("inline").run(lambda: seen.append(threading.current_thread().name))
    assert seen == [threading.current_thread().name]
    worker = Scheduler("thread")
    gate = threading.Event()
    worker.run(gate.wait)
    worker.run(lambda: seen.append(threading.current_thread().name))
    assert len(seen) == 1  # queued behind the first task
    gate.set()
    worker.wait(timeout=5)
    worker.shutdown()
    assert seen[1].startswith("lokulmem-maintenance")

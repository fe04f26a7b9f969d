"""Injectable time.

All of lokulmem reads time through a :class:`Clock` so that tests (and
evaluations that replay dated conversations) can move time by hand: a year of
decay runs in milliseconds.  Times are integer Unix milliseconds, as in the PRD.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol, runtime_checkable

__all__ = ["MS_PER_DAY", "MS_PER_HOUR", "Clock", "ManualClock", "SystemClock"]

MS_PER_HOUR = 3_600_000
MS_PER_DAY = 24 * MS_PER_HOUR


@runtime_checkable
class Clock(Protocol):
    """Anything with a ``now_ms()`` returning Unix time in milliseconds."""

    def now_ms(self) -> int: ...


class SystemClock:
    """The wall clock."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that only moves when told to.  Thread-safe."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:  # 2026-01-01T00:00Z
        self._now = int(start_ms)
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        with self._lock:
            return self._now

    def set(self, now_ms: int) -> None:
        """Jump to ``now_ms`` (may go backwards; callers own the consequences)."""
        with self._lock:
            self._now = int(now_ms)

    def advance(self, *, days: float = 0.0, hours: float = 0.0, seconds: float = 0.0, ms: int = 0) -> int:
        """Move forward and return the new time."""
        if days < 0 or hours < 0 or seconds < 0 or ms < 0:
            raise ValueError("ManualClock.advance only moves forward")
        with self._lock:
            self._now += int(days * MS_PER_DAY + hours * MS_PER_HOUR + seconds * 1000) + int(ms)
            return self._now

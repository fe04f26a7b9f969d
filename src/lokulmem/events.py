"""Event subscriptions.  Every ``subscribe`` returns an unsubscribe callable.

Events fire after the change is committed, never for a rolled-back change.
A callback that raises is logged (logger ``lokulmem.events``) and does not
break the operation or the other subscribers.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any, Literal, get_args

from .errors import ValidationError

__all__ = ["EVENT_KINDS", "EventBus", "EventKind"]

logger = logging.getLogger("lokulmem.events")

EventKind = Literal[
    "memory_added",
    "memory_updated",
    "memory_deleted",
    "memory_faded",
    "contradiction_detected",
    "stats_changed",
    "progress",
]
EVENT_KINDS: tuple[str, ...] = get_args(EventKind)


class EventBus:
    def __init__(self) -> None:
        self._subs: dict[str, list[Callable[[Any], object]]] = {k: [] for k in EVENT_KINDS}
        self._lock = threading.Lock()

    def subscribe(self, kind: str, callback: Callable[[Any], object]) -> Callable[[], None]:
        if kind not in self._subs:
            raise ValidationError("kind", f"unknown event {kind!r}")
        if not callable(callback):
            raise ValidationError("callback", f"must be callable, got {type(callback).__name__}")
        with self._lock:
            self._subs[kind].append(callback)

        def unsubscribe() -> None:
            with self._lock, contextlib.suppress(ValueError):  # already unsubscribed: idempotent
                self._subs[kind].remove(callback)

        return unsubscribe

    def has_subscribers(self, kind: str) -> bool:
        """Whether ``kind`` has a subscriber (lets callers skip costly payloads)."""
        with self._lock:
            return bool(self._subs[kind])

    def emit(self, kind: str, payload: Any) -> None:
        with self._lock:
            subs = list(self._subs[kind])
        for cb in subs:
            try:
                cb(payload)
            except Exception:
                logger.exception("lokulmem %s callback %r raised", kind, cb)

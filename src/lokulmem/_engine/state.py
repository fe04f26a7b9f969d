"""In-memory state the engine keeps between calls: per-session state and the record cache.

Both are bounded (least recently used evicted) and hold nothing that is not
also in the store or derived from calls already made.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..records import Memory

__all__ = ["RecordCache", "SessionState", "Sessions"]

Vector = npt.NDArray[np.float32]


@dataclass
class SessionState:
    """What ``learn()`` remembers of one session."""

    turn: int = 0
    #: The last ``session_sentence_window`` sentence vectors (recurrence).
    vectors: deque[Vector] = field(default_factory=deque)
    #: The assistant's last response in this session: what the next user message answers.
    last_response: str = ""
    #: When the session last learned something (Unix ms), and whether it has
    #: become an episode since (``end_session``).
    last_at: int = 0
    ended: bool = False


class Sessions:
    """Per-session state, the least recently used evicted beyond ``capacity``."""

    def __init__(self, *, capacity: int, window: int) -> None:
        self._capacity = capacity
        self._window = window
        self._states: OrderedDict[str, SessionState] = OrderedDict()

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._states

    def ids(self) -> list[str]:
        """Session ids held, least recently used first."""
        return list(self._states)

    def peek(self, session_id: str) -> SessionState | None:
        """The session's state if held, without creating it or marking it used."""
        return self._states.get(session_id)

    def get(self, session_id: str) -> SessionState:
        """The session's state (created empty on first use), marked most recently used."""
        s = self._states.get(session_id)
        if s is None:
            s = self._states[session_id] = SessionState(vectors=deque(maxlen=self._window))
            while len(self._states) > self._capacity:
                self._states.popitem(last=False)
        self._states.move_to_end(session_id)
        return s


class RecordCache:
    """Parsed records of recently used memories (LRU, ``capacity`` entries)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._records: OrderedDict[str, Memory] = OrderedDict()

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._records

    def missing(self, ids: Sequence[str]) -> list[str]:
        """The ids of ``ids`` not cached (in order)."""
        records = self._records
        return [i for i in ids if i not in records]

    def put(self, memory: Memory) -> None:
        self._records[memory.id] = memory
        self._records.move_to_end(memory.id)
        while len(self._records) > self._capacity:
            self._records.popitem(last=False)

    def drop(self, memory_id: str) -> None:
        self._records.pop(memory_id, None)

    def clear(self) -> None:
        self._records.clear()

    def patch(self, memory_id: str, **fields: Any) -> None:
        """Change ``fields`` of the cached record of ``memory_id``, if it is cached
        (its place in the LRU order is kept)."""
        rec = self._records.get(memory_id)
        if rec is not None:
            self._records[memory_id] = rec.replace(**fields)

    def take(self, ids: Sequence[str]) -> list[Memory]:
        """The cached records of ``ids`` in order (missing ones skipped), marked recently used."""
        out: list[Memory] = []
        for i in ids:
            rec = self._records.get(i)
            if rec is not None:
                self._records.move_to_end(i)
                out.append(rec)
        return out

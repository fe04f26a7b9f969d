"""The storage contract the algorithms and facades rely on.

A backend keeps memories (with their vectors), episodes, edges, clusters and a
key/value ``meta`` table.  Every multi-row change runs inside
``with storage.transaction():`` and is all-or-nothing.  SQLite is the default;
a PostgreSQL backend implements the same protocol and passes the same tests.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..records import Memory

__all__ = ["Storage"]


class Storage(Protocol):
    #: Human-readable location ("/path/to/store.sqlite" or ":memory:").
    location: str

    def open(self, *, embedding_model: str, dimension: int) -> None:
        """Open (creating or migrating) the store; refuse newer schemas and other models."""

    def close(self) -> None: ...

    def transaction(self) -> AbstractContextManager[None]:
        """A write transaction; nested uses join the outer one."""

    def insert_memory(self, memory: Memory) -> None: ...

    def update_memory(self, memory: Memory) -> None:
        """Replace every field of an existing memory (the embedding too, if given)."""

    def get_memory(self, memory_id: str) -> Memory | None: ...

    def get_memories(self, ids: Sequence[str]) -> list[Memory]:
        """The memories that exist among ``ids``, in the order given."""

    def all_memories(self) -> list[Memory]:
        """Every memory, oldest first."""

    def ids_by_attribute(self, attribute: str, *, status: str = "active") -> list[str]: ...

    def active_vectors(self) -> Iterator[tuple[str, npt.NDArray[np.float32]]]:
        """(id, vector) of every active memory, for the search index."""

    def pinned_ids(self) -> list[str]: ...

    def count_memories(self, status: str | None = None) -> int: ...

    def data_version(self) -> int:
        """Changes whenever another connection commits (``PRAGMA data_version``)."""

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def size_bytes(self) -> int: ...

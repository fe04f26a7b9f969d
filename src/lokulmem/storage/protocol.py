"""The storage contract the algorithms and facades rely on.

A backend keeps memories (with their vectors), episodes, edges, clusters and a
key/value ``meta`` table.  Every multi-row change runs inside
``with storage.transaction():`` and is all-or-nothing.  SQLite is the default;
a PostgreSQL backend implements the same protocol and passes the same tests.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from ..records import BridgeEvent, Cluster, Edge, Episode, Memory

__all__ = ["EmbeddingTexts", "EmbeddingVectors", "MemoryQuery", "OrderColumn", "Storage", "TermMatches"]

OrderColumn = Literal["created_at", "last_accessed_at", "mention_count", "updated_at", "base_strength"]


@dataclass(frozen=True, kw_only=True)
class TermMatches:
    """Which memories contain a query's terms (see ``Storage.term_matches``)."""

    #: Memories stored (the IDF's N).
    total: int
    #: term → stored memories whose content or source message contains it.
    doc_freq: Mapping[str, int]
    #: term → the asked-about memories that contain it.
    matched: Mapping[str, frozenset[str]]


@dataclass(frozen=True, kw_only=True)
class EmbeddingTexts:
    """Every text a store keeps a vector of, as ``(id, text)`` (see ``texts_to_embed``)."""

    memories: list[tuple[str, str]]
    #: Reply context + source message of memories that have a message vector.
    contexts: list[tuple[str, str]]
    episodes: list[tuple[str, str]]


@dataclass(frozen=True, kw_only=True)
class EmbeddingVectors:
    """New vectors for a store, as ``(id, vector)`` (see ``replace_vectors``)."""

    memories: list[tuple[str, npt.NDArray[np.float32]]]
    contexts: list[tuple[str, npt.NDArray[np.float32]]]
    episodes: list[tuple[str, npt.NDArray[np.float32]]]


@dataclass(frozen=True, kw_only=True)
class MemoryQuery:
    """A filter over stored memories, evaluated by the backend.

    ``since``/``until`` bound ``created_at`` (both inclusive, Unix ms);
    ``types`` matches a memory having any of them; ``conversation`` matches
    ``source_conversation_ids``.  Rows come ordered by ``order_by`` (ties by
    id) and are sliced by ``offset``/``limit``.
    """

    types: tuple[str, ...] | None = None
    status: str | None = None
    pinned: bool | None = None
    since: int | None = None
    until: int | None = None
    conversation: str | None = None
    order_by: OrderColumn = "created_at"
    descending: bool = False
    limit: int | None = None
    offset: int = 0
    #: Load the vectors too (False for panels and analytics).
    with_embedding: bool = True


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

    def superseded_vectors(self, limit: int) -> list[tuple[str, str, npt.NDArray[np.float32]]]:
        """(id, id of the memory that superseded it, vector) of the superseded memories
        that name their successor, most recently superseded first, at most ``limit``."""

    def pinned_ids(self) -> list[str]: ...

    def events_between(self, start: int, end: int, limit: int) -> list[str]:
        """Ids of active memories whose ``event_at`` lies in [start, end), soonest first."""

    def created_between(self, start: int, end: int, limit: int) -> list[str]:
        """Ids of active memories created in [start, end), newest first, at most ``limit``."""

    def count_memories(self, status: str | None = None) -> int: ...

    def data_version(self) -> int:
        """Changes whenever another connection commits (``PRAGMA data_version``)."""

    def updated_stamp(self, table: str, row_id: str) -> int | None:
        """When the episode, cluster or edge ``row_id`` of ``table`` last changed (None: absent)."""

    def refresh_search_index(self) -> None:
        """Rebuild any search index kept in memory, after another connection wrote
        (an encrypted SQLite store's full-text index); a no-op elsewhere."""

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def size_bytes(self) -> int: ...

    # -- manage() -------------------------------------------------------
    def list_memories(self, query: MemoryQuery) -> list[Memory]: ...

    def search_text(self, query: str, *, limit: int, max_terms: int | None = None) -> list[str]:
        """Ids of memories whose content matches every word of ``query`` (its first
        ``max_terms`` distinct words, when given), best first."""

    def lexical_search(
        self,
        terms: Sequence[str],
        *,
        limit: int,
        context_weight: float = 0.0,
        reply_weight: float = 0.0,
        max_doc_freq: int | None = None,
    ) -> list[tuple[str, float]]:
        """Active memories matching any of ``terms``, best first, with a positive score;
        a term found in more than ``max_doc_freq`` memories is left out."""

    def entity_mentions(self, entity: str, *, limit: int) -> list[str]:
        """Ids of active memories whose content contains the phrase ``entity`` (stemmed,
        case-folded), newest first, at most ``limit`` (the knowledge graph's
        shared-entity links; empty without full-text search)."""

    def term_matches(self, terms: Sequence[str], ids: Sequence[str], *, cap: int = 20_000) -> TermMatches:
        """Per term, how many stored memories contain it (content or source
        message; counted up to ``cap``) and which of ``ids`` do; empty without
        full-text search."""

    def delete_memories(self, ids: Sequence[str]) -> None:
        """Delete memories with their types, edges and cluster membership."""

    def clear(self, *, keep_audit: bool = False) -> None:
        """Delete every memory, episode, edge, cluster and (unless ``keep_audit``)
        bridge event; ``meta`` stays."""

    def existing_ids(self, ids: Sequence[str]) -> set[str]: ...

    def ids_by_key(self, keys: Sequence[str]) -> dict[str, list[str]]: ...

    def referencing(self, memory_id: str) -> list[Memory]:
        """Memories whose ``superseded_by`` or ``temporal_supersedes`` is ``memory_id``."""

    def stat_rows(self) -> list[Mapping[str, Any]]:
        """Light rows (no content, no vector) of every memory, for analytics."""

    def type_counts(self) -> dict[str, int]: ...

    def conversation_count(self) -> int: ...

    def all_episodes(self) -> list[Episode]: ...

    def all_edges(self) -> list[Edge]: ...

    def all_clusters(self) -> list[Cluster]: ...

    def put_episode(self, episode: Episode) -> None: ...

    def put_edge(self, edge: Edge) -> None: ...

    def put_cluster(self, cluster: Cluster) -> None: ...

    def edges_of(self, memory_id: str) -> list[Edge]: ...

    def edges_touching(self, memory_ids: Sequence[str]) -> list[Edge]:
        """Edges with either end in ``memory_ids``, strongest first."""

    def delete_edges(self, edge_ids: Sequence[str]) -> None: ...

    def add_bridge_event(self, event: BridgeEvent) -> None: ...

    # -- lifecycle ------------------------------------------------------
    def acquire_lease(self, name: str, holder: str, *, ttl_s: float, now_s: float) -> bool:
        """Atomically take the named lease unless another holder's is unexpired."""

    def release_lease(self, name: str, holder: str) -> None: ...

    def touch_memories(self, memories: Sequence[Memory]) -> None:
        """Write each memory's strength, mentions, confidence and access times only."""

    def set_context_vectors(self, vectors: Sequence[tuple[str, npt.NDArray[np.float32]]]) -> None:
        """Write each ``(memory id, context vector)``; ids no longer stored are skipped."""

    def mark_faded(self, ids: Sequence[str], now_ms: int) -> None: ...

    def max_rowid(self) -> int: ...

    def count_rows_after(self, rowid: int) -> int: ...

    def replace_clusters(self, clusters: Sequence[Cluster]) -> None: ...

    def bridge_events(self) -> list[BridgeEvent]:
        """Every stored import audit record, newest first."""

"""One unit of work for every writer: plan → one transaction → index and caches → events.

Writers (``learn()``, ``augment()``'s reinforcement, every ``manage()``
mutation, import, the maintenance sweep, clustering) describe what they
change as one :class:`Changes`; :meth:`lokulmem._engine.Engine.commit` writes
it in one transaction, then updates the vector index and the record cache,
and fires the events only after the commit.  No writer touches the index or
the events itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..records import ContradictionEvent, Edge, Episode, Memory

__all__ = ["Changes"]


@dataclass
class Changes:
    """What one write changes.

    Memories in ``added``/``updated`` are inserted/updated by the commit
    unless ``written`` says the plan wrote its rows itself (bulk imports, the
    sweep's targeted update).  Events: ``memory_added``, ``memory_updated``,
    ``memory_faded``, ``memory_deleted``, ``contradiction_detected``, in that
    order, then ``stats_changed`` when anything changed.
    """

    added: list[Memory] = field(default_factory=list)
    updated: list[Memory] = field(default_factory=list)
    #: Memories a retrieval reinforced: only strength, mentions, confidence and access
    #: times changed (a targeted write; the index keeps their vectors).
    touched: list[Memory] = field(default_factory=list)
    #: Memories the sweep faded (written by the plan; out of the index).
    faded: list[Memory] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    contradictions: list[ContradictionEvent] = field(default_factory=list)
    #: Episodes to insert or replace (a session that ended).
    episodes: list[Episode] = field(default_factory=list)
    #: Knowledge-graph edges to insert or replace, and ids of edges to delete.
    edges: list[Edge] = field(default_factory=list)
    dropped_edges: list[str] = field(default_factory=list)
    #: Rebuild the index and drop the record cache (bulk imports, clear).
    reload_index: bool = False
    #: Reload the clusters and drop the record cache (members' cluster_id changed).
    reload_clusters: bool = False
    #: Something changed besides memories (e.g. a bridge event was stored).
    other: bool = False
    #: The plan wrote the rows itself (commit only updates index, caches and events).
    written: bool = False

    def __bool__(self) -> bool:
        # Edges alone change no memory and no statistic: no event.
        return bool(
            self.added
            or self.updated
            or self.touched
            or self.faded
            or self.deleted
            or self.reload_index
            or self.other
            or self.episodes
        )

"""Episodes, edges, clusters and bridge events in SQLite."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..records import (
    BridgeEvent,
    Cluster,
    Edge,
    Episode,
    RejectedItem,
)
from .sqlite_base import SQLiteBase
from .sqlite_rows import (
    CLUSTER_COLUMNS,
    EPISODE_COLUMNS,
    row_to_cluster,
    row_to_edge,
    row_to_episode,
    vec_to_blob,
)

__all__ = ["SQLiteGraph"]

#: The column that says when a row of each graph table last changed (import conflicts).
_STAMPS = {"episodes": "ended_at", "clusters": "last_recomputed", "edges": "last_updated"}


class SQLiteGraph(SQLiteBase):
    """Episodes, edges, clusters and the import audit."""

    def replace_clusters(self, clusters: Sequence[Cluster]) -> None:
        """Store ``clusters`` as the only clusters and set ``cluster_id`` on their members."""
        with self.transaction():
            conn = self._c
            conn.execute("DELETE FROM clusters")
            conn.execute("UPDATE memories SET cluster_id = NULL WHERE cluster_id IS NOT NULL")
            for c in clusters:
                self.put_cluster(c)
                conn.executemany(
                    "UPDATE memories SET cluster_id = ? WHERE id = ?", [(c.id, m) for m in c.member_ids]
                )

    # episodes, edges, clusters ------------------------------------------

    def all_episodes(self) -> list[Episode]:
        with self._lock:
            query = f"SELECT {EPISODE_COLUMNS} FROM episodes ORDER BY started_at, id"
            rows = self._c.execute(query).fetchall()
        return [row_to_episode(r, self._sealer) for r in rows]

    def put_episode(self, episode: Episode) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT OR REPLACE INTO episodes(id, summary, embedding, memories_extracted, started_at, "
                "ended_at, turn_count, emotional_valence, topics) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    episode.id,
                    self._seal(episode.summary, "episodes", "summary", episode.id),
                    vec_to_blob(episode.embedding, self._half),
                    json.dumps(list(episode.memories_extracted)),
                    episode.started_at,
                    episode.ended_at,
                    episode.turn_count,
                    episode.emotional_valence,
                    self._seal(json.dumps(list(episode.topics)), "episodes", "topics", episode.id),
                ),
            )

    def all_edges(self) -> list[Edge]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, from_id, to_id, weight, shared_entities, created_at, last_updated "
                "FROM edges ORDER BY id"
            ).fetchall()
        return [row_to_edge(r, self._sealer) for r in rows]

    def edges_of(self, memory_id: str) -> list[Edge]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, from_id, to_id, weight, shared_entities, created_at, last_updated "
                "FROM edges WHERE from_id = ? OR to_id = ? ORDER BY weight DESC, id",
                (memory_id, memory_id),
            ).fetchall()
        return [row_to_edge(r, self._sealer) for r in rows]

    def edges_touching(self, memory_ids: Sequence[str]) -> list[Edge]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        with self._lock:
            rows = self._c.execute(
                "SELECT id, from_id, to_id, weight, shared_entities, created_at, last_updated FROM edges "
                f"WHERE from_id IN ({marks}) OR to_id IN ({marks}) ORDER BY weight DESC, id",
                (*ids, *ids),
            ).fetchall()
        return [row_to_edge(r, self._sealer) for r in rows]

    def delete_edges(self, edge_ids: Sequence[str]) -> None:
        if not edge_ids:
            return
        with self.transaction():
            self._c.executemany("DELETE FROM edges WHERE id = ?", [(i,) for i in edge_ids])

    def put_edge(self, edge: Edge) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT OR REPLACE INTO edges(id, from_id, to_id, weight, shared_entities, created_at, "
                "last_updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    edge.id,
                    edge.from_id,
                    edge.to_id,
                    edge.weight,
                    self._seal(json.dumps(list(edge.shared_entities)), "edges", "shared_entities", edge.id),
                    edge.created_at,
                    edge.last_updated,
                ),
            )

    def all_clusters(self) -> list[Cluster]:
        with self._lock:
            rows = self._c.execute(f"SELECT {CLUSTER_COLUMNS} FROM clusters ORDER BY id").fetchall()
        return [row_to_cluster(r, self._sealer) for r in rows]

    def put_cluster(self, cluster: Cluster) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT OR REPLACE INTO clusters(id, centroid, member_ids, label, last_recomputed) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    cluster.id,
                    vec_to_blob(cluster.centroid, self._half),
                    json.dumps(list(cluster.member_ids)),
                    self._seal(cluster.label, "clusters", "label", cluster.id),
                    cluster.last_recomputed,
                ),
            )

    def updated_stamp(self, table: str, row_id: str) -> int | None:
        """When the episode (``ended_at``), cluster (``last_recomputed``) or edge
        (``last_updated``) ``row_id`` last changed, or None if there is none."""
        column = _STAMPS[table]  # KeyError for any other table: never user input
        with self._lock:
            row = self._c.execute(f"SELECT {column} FROM {table} WHERE id = ?", (row_id,)).fetchone()
        return None if row is None else int(row[0])

    # bridge events --------------------------------------------------------

    def add_bridge_event(self, event: BridgeEvent) -> None:
        with self.transaction():
            self._c.execute(
                "INSERT INTO bridge_events(id, created_at, format, name, origin, imported, skipped, "
                "conflicts, rejected, memory_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event.id,
                    event.created_at,
                    event.format,
                    self._seal(event.name, "bridge_events", "name", event.id),
                    self._seal(event.origin, "bridge_events", "origin", event.id),
                    event.imported,
                    event.skipped,
                    event.conflicts,
                    self._seal(
                        json.dumps(
                            [{"index": r.index, "key": r.key, "reason": r.reason} for r in event.rejected]
                        ),
                        "bridge_events",
                        "rejected",
                        event.id,
                    ),
                    json.dumps(list(event.memory_ids)),
                ),
            )

    def bridge_events(self) -> list[BridgeEvent]:
        with self._lock:
            rows = self._c.execute(
                "SELECT id, created_at, format, name, origin, imported, skipped, conflicts, rejected, "
                "memory_ids FROM bridge_events ORDER BY created_at DESC, rowid DESC"
            ).fetchall()
        return [
            BridgeEvent(
                id=r[0],
                created_at=r[1],
                format=r[2],
                name=self._unseal(r[3], "bridge_events", "name", r[0]),
                origin=self._unseal(r[4], "bridge_events", "origin", r[0]),
                imported=r[5],
                skipped=r[6],
                conflicts=r[7],
                rejected=tuple(
                    RejectedItem(**x)
                    for x in json.loads(self._sealer.open(r[8], f"bridge_events.rejected:{r[0]}"))
                ),
                memory_ids=tuple(json.loads(r[9])),
            )
            for r in rows
        ]

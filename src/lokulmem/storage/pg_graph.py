"""Episodes, edges, clusters and bridge events in PostgreSQL (the SQLite row layouts,
with the store key in front)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..records import BridgeEvent, Cluster, Edge, Episode, RejectedItem
from .pg_base import PostgresBase
from .sqlite_rows import (
    CLUSTER_COLUMNS,
    EDGE_COLUMNS,
    EPISODE_COLUMNS,
    row_to_cluster,
    row_to_edge,
    row_to_episode,
    vec_to_blob,
)

__all__ = ["PostgresGraph"]

#: The column that says when a row of each graph table last changed (import conflicts).
_STAMPS = {"episodes": "ended_at", "clusters": "last_recomputed", "edges": "last_updated"}
_EVENT_COLUMNS = "id, created_at, format, name, origin, imported, skipped, conflicts, rejected, memory_ids"


def _upsert(table: str, columns: str) -> str:
    """``INSERT … ON CONFLICT DO UPDATE`` of ``columns`` (SQLite's ``INSERT OR REPLACE``)."""
    names = [c.strip() for c in columns.split(",")]
    marks = ", ".join(["%s"] * (len(names) + 1))
    updates = ", ".join(f"{c} = excluded.{c}" for c in names[1:])
    return (
        f"INSERT INTO {table} (store, {columns}) VALUES ({marks}) "
        f"ON CONFLICT (store, id) DO UPDATE SET {updates}"
    )


class PostgresGraph(PostgresBase):
    """Episodes, edges, clusters and the import audit."""

    def replace_clusters(self, clusters: Sequence[Cluster]) -> None:
        """Store ``clusters`` as the only clusters and set ``cluster_id`` on their members."""
        with self.transaction():
            self._run(f"DELETE FROM {self._t('clusters')} WHERE store = %s", (self.store,))
            self._run(
                f"UPDATE {self._t('memories')} SET cluster_id = NULL "
                "WHERE store = %s AND cluster_id IS NOT NULL",
                (self.store,),
            )
            for c in clusters:
                self.put_cluster(c)
                self._run(
                    f"UPDATE {self._t('memories')} SET cluster_id = %s WHERE store = %s AND id = ANY(%s)",
                    (c.id, self.store, list(c.member_ids)),
                )

    def all_episodes(self) -> list[Episode]:
        rows = self._rows(
            f"SELECT {EPISODE_COLUMNS} FROM {self._t('episodes')} WHERE store = %s ORDER BY started_at, id",
            (self.store,),
        )
        return [row_to_episode(r) for r in rows]

    def put_episode(self, episode: Episode) -> None:
        with self.transaction():
            self._run(
                _upsert(self._t("episodes"), EPISODE_COLUMNS),
                (
                    self.store,
                    episode.id,
                    episode.summary,
                    vec_to_blob(episode.embedding, self._half),
                    json.dumps(list(episode.memories_extracted)),
                    episode.started_at,
                    episode.ended_at,
                    episode.turn_count,
                    episode.emotional_valence,
                    json.dumps(list(episode.topics)),
                ),
            )

    def _edges(self, where: str, params: Sequence[object], order: str) -> list[Edge]:
        rows = self._rows(
            f"SELECT {EDGE_COLUMNS} FROM {self._t('edges')} WHERE store = %s {where} ORDER BY {order}",
            (self.store, *params),
        )
        return [row_to_edge(r) for r in rows]

    def all_edges(self) -> list[Edge]:
        return self._edges("", (), "id")

    def edges_of(self, memory_id: str) -> list[Edge]:
        return self._edges("AND (from_id = %s OR to_id = %s)", (memory_id, memory_id), "weight DESC, id")

    def edges_touching(self, memory_ids: Sequence[str]) -> list[Edge]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return []
        return self._edges("AND (from_id = ANY(%s) OR to_id = ANY(%s))", (ids, ids), "weight DESC, id")

    def delete_edges(self, edge_ids: Sequence[str]) -> None:
        if not edge_ids:
            return
        with self.transaction():
            self._run(
                f"DELETE FROM {self._t('edges')} WHERE store = %s AND id = ANY(%s)",
                (self.store, list(edge_ids)),
            )

    def put_edge(self, edge: Edge) -> None:
        with self.transaction():
            self._run(
                _upsert(self._t("edges"), EDGE_COLUMNS),
                (
                    self.store,
                    edge.id,
                    edge.from_id,
                    edge.to_id,
                    edge.weight,
                    json.dumps(list(edge.shared_entities)),
                    edge.created_at,
                    edge.last_updated,
                ),
            )

    def all_clusters(self) -> list[Cluster]:
        rows = self._rows(
            f"SELECT {CLUSTER_COLUMNS} FROM {self._t('clusters')} WHERE store = %s ORDER BY id", (self.store,)
        )
        return [row_to_cluster(r) for r in rows]

    def put_cluster(self, cluster: Cluster) -> None:
        with self.transaction():
            self._run(
                _upsert(self._t("clusters"), CLUSTER_COLUMNS),
                (
                    self.store,
                    cluster.id,
                    vec_to_blob(cluster.centroid, self._half),
                    json.dumps(list(cluster.member_ids)),
                    cluster.label,
                    cluster.last_recomputed,
                ),
            )

    def updated_stamp(self, table: str, row_id: str) -> int | None:
        """When the episode, cluster or edge ``row_id`` last changed, or None if absent."""
        column = _STAMPS[table]  # KeyError for any other table: never user input
        row = self._one(
            f"SELECT {column} FROM {self._t(table)} WHERE store = %s AND id = %s", (self.store, row_id)
        )
        return None if row is None else int(row[0])

    def add_bridge_event(self, event: BridgeEvent) -> None:
        rejected = [{"index": r.index, "key": r.key, "reason": r.reason} for r in event.rejected]
        with self.transaction():
            self._run(
                f"INSERT INTO {self._t('bridge_events')} (store, {_EVENT_COLUMNS}) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    self.store,
                    event.id,
                    event.created_at,
                    event.format,
                    event.name,
                    event.origin,
                    event.imported,
                    event.skipped,
                    event.conflicts,
                    json.dumps(rejected),
                    json.dumps(list(event.memory_ids)),
                ),
            )

    def bridge_events(self) -> list[BridgeEvent]:
        rows = self._rows(
            f"SELECT {_EVENT_COLUMNS} FROM {self._t('bridge_events')} WHERE store = %s "
            "ORDER BY created_at DESC, seq DESC",
            (self.store,),
        )
        return [
            BridgeEvent(
                id=r[0],
                created_at=r[1],
                format=r[2],
                name=r[3],
                origin=r[4],
                imported=r[5],
                skipped=r[6],
                conflicts=r[7],
                rejected=tuple(RejectedItem(**x) for x in json.loads(r[8])),
                memory_ids=tuple(json.loads(r[9])),
            )
            for r in rows
        ]

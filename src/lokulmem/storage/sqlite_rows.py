"""Rows of the ``memories`` table and the other tables as records, and back."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..records import (
    Cluster,
    Edge,
    Episode,
    Memory,
    QualityWalls,
)
from .sealing import PLAIN, SEALED_FIELDS, Sealer

__all__ = [
    "CLUSTER_COLUMNS",
    "EDGE_COLUMNS",
    "EPISODE_COLUMNS",
    "INSERT",
    "MEMORY_COLUMNS",
    "ORDER_COLUMNS",
    "SELECT",
    "SELECT_LIGHT",
    "UPDATE",
    "WORD",
    "blob_to_vec",
    "memory_to_row",
    "row_to_cluster",
    "row_to_edge",
    "row_to_episode",
    "row_to_memory",
    "vec_to_blob",
]


#: The ``memories`` columns, in the order of :func:`memory_to_row` and :func:`row_to_memory`.
MEMORY_COLUMNS = _COLUMNS = (
    "id content types embedding cluster_id base_strength confidence extraction_score "
    "emotional_valence mention_count pinned valid_from valid_to created_at updated_at "
    "last_accessed_at last_reinforced status superseded_by superseded_at supersession_type "
    "temporal_supersedes source_session source_turn source_conversation_ids entities "
    "source_text source project_id track key kind quality_form quality_filter "
    "quality_substance quality_factuality quality_score attribute attribute_value metadata faded_at "
    "source_context reply_context context_embedding event_at"
).split()
SELECT = "SELECT " + ", ".join(_COLUMNS) + " FROM memories"
_VECTOR_COLUMNS = frozenset({"embedding", "context_embedding"})
SELECT_LIGHT = (
    "SELECT " + ", ".join("NULL" if c in _VECTOR_COLUMNS else c for c in _COLUMNS) + " FROM memories"
)
ORDER_COLUMNS = frozenset({"created_at", "last_accessed_at", "mention_count", "updated_at", "base_strength"})
WORD = re.compile(r"\w+", re.UNICODE)
INSERT = f"INSERT INTO memories ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
UPDATE = "UPDATE memories SET " + ", ".join(f"{c} = ?" for c in _COLUMNS[1:]) + " WHERE id = ?"


#: First byte of a float16 vector blob.  A float32 blob's length is a multiple of 4;
#: a tagged float16 blob's is odd, so the two never look alike (old stores read as before).
HALF_TAG = b"\x02"


def vec_to_blob(vec: npt.NDArray[np.float32] | None, half: bool = False) -> bytes | None:
    """A vector as stored: little-endian float32, or ``HALF_TAG`` + float16 (half the bytes)."""
    if vec is None:
        return None
    if half:
        return HALF_TAG + np.asarray(vec, dtype="<f2").tobytes()
    return np.asarray(vec, dtype="<f4").tobytes()


def blob_to_vec(blob: bytes | npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32] | None:
    """A stored vector as float32, whichever way it was written (an array, as a
    PostgreSQL ``vector`` column is read, is taken as it is)."""
    if blob is None:
        return None
    if isinstance(blob, np.ndarray):
        return blob
    if len(blob) % 2 == 1 and blob[:1] == HALF_TAG:
        vec = np.frombuffer(blob, dtype="<f2", offset=1).astype(np.float32)
    else:
        vec = np.frombuffer(blob, dtype="<f4").astype(np.float32)
    vec.setflags(write=False)
    return vec


_SEALED_AT = tuple(_COLUMNS.index(c) for c in SEALED_FIELDS["memories"])
_KEY_AT = _COLUMNS.index("key")


def _seal_row(row: tuple[Any, ...], sealer: Sealer) -> tuple[Any, ...]:
    return tuple(_each_sealed(row, sealer.seal, sealer.seal_lookup)) if sealer.encrypted else row


def _open_row(row: Sequence[Any], sealer: Sealer) -> Sequence[Any]:
    return _each_sealed(row, sealer.open, sealer.open_lookup) if sealer.encrypted else row


def _each_sealed(
    row: Sequence[Any], field: Callable[[str, str], str], lookup: Callable[[str | None], str | None]
) -> list[Any]:
    """``row`` with ``field`` applied to each sealed column and ``lookup`` to the key."""
    out = list(row)
    for i in _SEALED_AT:
        if out[i] is not None:
            out[i] = field(out[i], f"memories.{_COLUMNS[i]}:{row[0]}")
    out[_KEY_AT] = lookup(out[_KEY_AT])
    return out


def memory_to_row(m: Memory, sealer: Sealer = PLAIN, half: bool = False) -> tuple[Any, ...]:
    """The ``memories`` row of ``m``, its text fields sealed by ``sealer``."""
    return _seal_row(_plain_row(m, half), sealer)


def _plain_row(m: Memory, half: bool) -> tuple[Any, ...]:
    q = m.quality
    return (
        m.id,
        m.content,
        json.dumps(list(m.types)),
        vec_to_blob(m.embedding, half),
        m.cluster_id,
        float(m.base_strength),
        m.confidence,
        float(m.extraction_score),
        float(m.emotional_valence),
        int(m.mention_count),
        int(bool(m.pinned)),
        int(m.valid_from),
        m.valid_to,
        int(m.created_at),
        int(m.updated_at),
        int(m.last_accessed_at),
        int(m.last_reinforced),
        m.status,
        m.superseded_by,
        m.superseded_at,
        m.supersession_type,
        m.temporal_supersedes,
        m.source_session,
        int(m.source_turn),
        json.dumps(list(m.source_conversation_ids)),
        json.dumps(list(m.entities)),
        m.source_text,
        m.source,
        m.project_id,
        m.track,
        m.key,
        m.kind,
        float(q.form),
        float(q.filter),
        float(q.substance),
        float(q.factuality),
        float(q.score),
        m.attribute,
        m.attribute_value,
        json.dumps(dict(m.metadata), sort_keys=True),
        m.faded_at,
        m.source_context,
        m.reply_context,
        vec_to_blob(m.context_embedding, half),
        m.event_at,
    )


def row_to_memory(row: Sequence[Any], sealer: Sealer = PLAIN) -> Memory:
    """The memory of a ``memories`` row (``SELECT`` order), opened by ``sealer``."""
    d = dict(zip(_COLUMNS, _open_row(row, sealer), strict=True))
    d["quality"] = QualityWalls(
        form=d.pop("quality_form"),
        filter=d.pop("quality_filter"),
        substance=d.pop("quality_substance"),
        factuality=d.pop("quality_factuality"),
    )
    del d["quality_score"]  # derived from the four walls
    d["types"] = _json_tuple(d["types"])
    d["source_conversation_ids"] = _json_tuple(d["source_conversation_ids"])
    d["entities"] = _json_tuple(d["entities"])
    d["embedding"] = blob_to_vec(d["embedding"])
    d["context_embedding"] = blob_to_vec(d["context_embedding"])
    d["pinned"] = bool(d["pinned"])
    d["metadata"] = {} if d["metadata"] == "{}" else json.loads(d["metadata"])
    return Memory.from_fields(d)


def _json_tuple(text: str) -> tuple[Any, ...]:
    """A stored JSON list as a tuple (the empty list, most columns' value, without the parser)."""
    return () if text == "[]" else tuple(json.loads(text))


def row_to_edge(r: Sequence[Any], sealer: Sealer = PLAIN) -> Edge:
    return Edge(
        id=r[0],
        from_id=r[1],
        to_id=r[2],
        weight=r[3],
        shared_entities=tuple(json.loads(sealer.open(r[4], f"edges.shared_entities:{r[0]}"))),
        created_at=r[5],
        last_updated=r[6],
    )


#: The ``episodes`` columns :func:`row_to_episode` reads, in order.
EPISODE_COLUMNS = (
    "id, summary, embedding, memories_extracted, started_at, ended_at, turn_count, emotional_valence, topics"
)
#: The ``clusters`` columns :func:`row_to_cluster` reads, in order.
CLUSTER_COLUMNS = "id, centroid, member_ids, label, last_recomputed"
#: The ``edges`` columns :func:`row_to_edge` reads, in order.
EDGE_COLUMNS = "id, from_id, to_id, weight, shared_entities, created_at, last_updated"


def row_to_episode(r: Sequence[Any], sealer: Sealer = PLAIN) -> Episode:
    return Episode(
        id=r[0],
        summary=sealer.open(r[1], f"episodes.summary:{r[0]}"),
        embedding=blob_to_vec(r[2]),
        memories_extracted=tuple(json.loads(r[3])),
        started_at=r[4],
        ended_at=r[5],
        turn_count=r[6],
        emotional_valence=r[7],
        topics=tuple(json.loads(sealer.open(r[8], f"episodes.topics:{r[0]}"))),
    )


def row_to_cluster(r: Sequence[Any], sealer: Sealer = PLAIN) -> Cluster:
    return Cluster(
        id=r[0],
        centroid=blob_to_vec(r[1]),
        member_ids=tuple(json.loads(r[2])),
        label=sealer.open(r[3], f"clusters.label:{r[0]}"),
        last_recomputed=r[4],
    )

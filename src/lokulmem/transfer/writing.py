"""Writing export documents (JSON, Markdown).  Pure functions over records."""

from __future__ import annotations

import base64
import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..decay import confidence_label
from ..records import (
    Cluster,
    Edge,
    Episode,
    Memory,
)

__all__ = [
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "SECTION_TITLES",
    "cluster_to_json",
    "edge_to_json",
    "episode_to_json",
    "export_document",
    "memory_to_json",
    "record_to_json",
    "to_markdown",
]

EXPORT_FORMAT = "lokulmem-export"
EXPORT_VERSION = "1"

Vector = npt.NDArray[np.float32]

#: Markdown section titles, in order, for the default types.
SECTION_TITLES: Mapping[str, str] = {
    "identity": "Identity",
    "location": "Location",
    "profession": "Profession",
    "preference": "Preferences",
    "project": "Projects",
    "temporal": "Temporal",
    "relational": "Relational",
    "emotional": "Emotional",
}


def _vec_out(vec: Vector | None, include: bool) -> str | None:
    if vec is None or not include:
        return None
    return base64.b64encode(np.asarray(vec, dtype="<f4").tobytes()).decode("ascii")


def memory_to_json(memory: Memory, *, include_embedding: bool = True) -> dict[str, Any]:
    """Every field of ``memory`` as JSON-ready values."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Memory):
        value = getattr(memory, f.name)
        if f.name in ("embedding", "context_embedding"):
            out[f.name] = _vec_out(value, include_embedding)
        elif f.name == "quality":
            out[f.name] = dataclasses.asdict(value)
        elif f.name == "metadata":
            out[f.name] = dict(value)
        elif isinstance(value, tuple):
            out[f.name] = list(value)
        else:
            out[f.name] = value
    return out


def episode_to_json(episode: Episode, *, include_embedding: bool = True) -> dict[str, Any]:
    d = {f.name: getattr(episode, f.name) for f in dataclasses.fields(Episode)}
    d["embedding"] = _vec_out(episode.embedding, include_embedding)
    d["memories_extracted"] = list(episode.memories_extracted)
    d["topics"] = list(episode.topics)
    return d


def cluster_to_json(cluster: Cluster, *, include_embedding: bool = True) -> dict[str, Any]:
    return {
        "id": cluster.id,
        "centroid": _vec_out(cluster.centroid, include_embedding),
        "member_ids": list(cluster.member_ids),
        "label": cluster.label,
        "last_recomputed": cluster.last_recomputed,
    }


def edge_to_json(edge: Edge) -> dict[str, Any]:
    d = {f.name: getattr(edge, f.name) for f in dataclasses.fields(Edge)}
    d["shared_entities"] = list(edge.shared_entities)
    return d


def export_document(
    *,
    memories: Sequence[Memory],
    episodes: Sequence[Episode],
    clusters: Sequence[Cluster],
    edges: Sequence[Edge],
    store_name: str,
    exported_at: int,
    embedding_model: str | None,
    embedding_dimension: int | None,
    include_embeddings: bool = True,
) -> dict[str, Any]:
    """The versioned export document (see the module docstring)."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": exported_at,
        "store_name": store_name,
        "embedding_model": embedding_model if include_embeddings else None,
        "embedding_dimension": embedding_dimension if include_embeddings else None,
        "memories": [memory_to_json(m, include_embedding=include_embeddings) for m in memories],
        "episodes": [episode_to_json(e, include_embedding=include_embeddings) for e in episodes],
        "clusters": [cluster_to_json(c, include_embedding=include_embeddings) for c in clusters],
        "edges": [edge_to_json(e) for e in edges],
    }


def _md_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_").replace("\n", " ")


def _day(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime("%Y-%m-%d")


def to_markdown(memories: Sequence[Memory], config: Config, *, now_ms: int) -> str:
    """The PRD's one-way Markdown export.

    Active memories under one section per type (a memory is listed under its
    first type; pinned ones marked 📌), then the facts that are no longer
    current (superseded, or closed by a later fact) with their dates, then
    archived ones.  Faded memories are left out.
    """
    lines = [f"# LokulMem Export — {_day(now_ms)}", ""]
    sections: dict[str, list[str]] = {}
    order = [*SECTION_TITLES, *(ct.name for ct in config.custom_types)]
    past: list[str] = []
    archived: list[str] = []
    for m in sorted(memories, key=lambda m: (not m.pinned, m.created_at, m.id)):
        text = _md_escape(m.content.strip())
        if m.status == "archived":
            archived.append(f"- {text}")
        elif m.status == "superseded" or m.valid_to is not None:
            until = f" until {_day(m.valid_to)}" if m.valid_to is not None else ""
            past.append(f"- {text} *(from {_day(m.valid_from)}{until})*")
        elif m.status == "active":
            mark = "📌 " if m.pinned else ""
            label = "pinned" if m.pinned else f"{confidence_label(m, config)} confidence"
            kind = m.types[0] if m.types else "other"
            sections.setdefault(kind, []).append(f"- {mark}{text} *({label})*")
    for kind in [*order, *sorted(k for k in sections if k not in order)]:
        if kind in sections:
            title = SECTION_TITLES.get(kind, kind.replace("_", " ").replace("-", " ").title())
            lines += [f"## {title}", *sections[kind], ""]
    if past:
        lines += ["## No longer current", *past, ""]
    if archived:
        lines += ["## Archived", *archived, ""]
    if len(lines) == 2:
        lines += ["*No memories.*", ""]
    return "\n".join(lines)


def record_to_json(obj: Any) -> Any:
    """A JSON-ready copy of a record: dataclasses as objects (a memory as in an
    export, without its vector), vectors left out."""
    if isinstance(obj, Memory):
        return memory_to_json(obj, include_embedding=False)
    if isinstance(obj, np.ndarray):
        return None
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            f.name: record_to_json(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if not f.name.endswith("embedding")
        }
    if isinstance(obj, Mapping):
        return {str(k): record_to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [record_to_json(v) for v in obj]
    if isinstance(obj, (np.floating, np.integer)):
        return obj.item()
    return obj

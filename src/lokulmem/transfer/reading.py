"""Reading export documents and HOM memory packs: every field checked, errors name its path."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ImportFormatError
from ..hygiene import clean_text
from ..records import (
    CONFIDENCES,
    KINDS,
    MEMORY_STATUSES,
    SOURCES,
    Cluster,
    Edge,
    Episode,
    Memory,
    QualityWalls,
    RejectedItem,
)
from .writing import EXPORT_FORMAT, EXPORT_VERSION

__all__ = [
    "ExportDocument",
    "PackEntry",
    "ParsedPack",
    "cluster_from_json",
    "edge_from_json",
    "episode_from_json",
    "memory_from_json",
    "parse_document",
]

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, kw_only=True)
class ExportDocument:
    """A parsed lokulmem export."""

    memories: tuple[Memory, ...]
    episodes: tuple[Episode, ...]
    clusters: tuple[Cluster, ...]
    edges: tuple[Edge, ...]
    store_name: str | None
    embedding_model: str | None


@dataclass(frozen=True, kw_only=True)
class PackEntry:
    """One valid memory-pack entry."""

    index: int
    value: str
    key: str | None = None
    memory_type: str = "declarative"
    source: str | None = None
    session_id: str | None = None
    project_id: str | None = None
    track: str | None = None
    quality_score: float | None = None
    created_at_ms: int | None = None
    updated_at_ms: int | None = None
    memory_id: str | None = None
    metadata: Mapping[str, Any] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ParsedPack:
    """A parsed memory pack: valid entries, and malformed ones (when not strict)."""

    name: str | None
    origin: str | None
    entries: tuple[PackEntry, ...]
    malformed: tuple[RejectedItem, ...]


class _Reader:
    """Typed field access that names the path of the first bad value."""

    def __init__(self, obj: object, path: str) -> None:
        if not isinstance(obj, Mapping):
            raise ImportFormatError(path, f"must be an object, got {type(obj).__name__}")
        self.obj: Mapping[str, Any] = obj
        self.path = path

    def _get(self, name: str, required: bool) -> Any:
        if name not in self.obj:
            if required:
                raise ImportFormatError(f"{self.path}.{name}", "is missing")
            return _MISSING
        return self.obj[name]

    def _fail(self, name: str, what: str, value: object) -> ImportFormatError:
        return ImportFormatError(f"{self.path}.{name}", f"must be {what}, got {_describe(value)}")

    def str_(self, name: str, default: Any = None, *, required: bool = False, nonempty: bool = False) -> Any:
        v = self._get(name, required)
        if v is _MISSING or v is None:
            if required:
                raise ImportFormatError(f"{self.path}.{name}", "must not be null")
            return default
        if not isinstance(v, str):
            raise self._fail(name, "a string", v)
        v = clean_text(v)  # lone surrogates (a JSON "\\ud800"), NUL and bidi controls
        if nonempty and not v.strip():
            raise ImportFormatError(f"{self.path}.{name}", "must not be empty")
        return v

    def int_(self, name: str, default: Any = 0, *, nullable: bool = False) -> Any:
        v = self._get(name, False)
        if v is _MISSING or (v is None and nullable):
            return default if v is _MISSING else None
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, float) and v.is_integer():
                return int(v)
            raise self._fail(name, "an integer", v)
        return v

    def float_(self, name: str, default: Any = 0.0, *, nullable: bool = False) -> Any:
        v = self._get(name, False)
        if v is _MISSING or (v is None and nullable):
            return default if v is _MISSING else None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self._fail(name, "a finite number", v)
        return float(v)

    def bool_(self, name: str, default: bool = False) -> bool:
        v = self._get(name, False)
        if v is _MISSING:
            return default
        if not isinstance(v, bool):
            raise self._fail(name, "true or false", v)
        return v

    def strs(self, name: str, *, required: bool = False) -> tuple[str, ...]:
        v = self._get(name, required)
        if v is _MISSING or (v is None and not required):
            return ()
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self._fail(name, "a list of strings", v)
        return tuple(clean_text(x) for x in v)

    def choice(self, name: str, options: Sequence[str], default: Any, *, nullable: bool = False) -> Any:
        v = self._get(name, False)
        if v is _MISSING or (v is None and nullable):
            return default if v is _MISSING else None
        if v not in options:
            raise ImportFormatError(
                f"{self.path}.{name}", f"must be one of {list(options)}, got {_describe(v)}"
            )
        return v

    def mapping(self, name: str) -> dict[str, Any]:
        v = self._get(name, False)
        if v is _MISSING or v is None:
            return {}
        if not isinstance(v, Mapping):
            raise self._fail(name, "an object", v)
        if _depth_over(v, _MAX_METADATA_DEPTH):
            raise ImportFormatError(
                f"{self.path}.{name}", f"is nested more than {_MAX_METADATA_DEPTH} levels deep"
            )
        return dict(v)

    def vector(self, name: str, dimension: int | None) -> Vector | None:
        v = self._get(name, False)
        if v is _MISSING or v is None:
            return None
        if not isinstance(v, str):
            raise self._fail(name, "a base64 string or null", v)
        try:
            raw = base64.b64decode(v.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raise ImportFormatError(f"{self.path}.{name}", "is not valid base64") from None
        if len(raw) % 4 or (dimension is not None and len(raw) != 4 * dimension):
            raise ImportFormatError(
                f"{self.path}.{name}", f"has {len(raw)} bytes; expected {dimension} float32 values"
            )
        vec = np.frombuffer(raw, dtype="<f4").astype(np.float32)
        if not np.all(np.isfinite(vec)):
            raise ImportFormatError(f"{self.path}.{name}", "holds non-finite values")
        vec.setflags(write=False)
        return vec


_MISSING = object()


#: Nesting an imported ``metadata`` object may have (what lokulmem writes is 2 deep).
_MAX_METADATA_DEPTH = 16


def _depth_over(value: object, limit: int) -> bool:
    """Whether ``value`` nests lists and objects deeper than ``limit`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, Mapping) else node if isinstance(node, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children)
    return False


def _describe(value: object) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}{'…' if len(text) > 40 else ''}"


def _list(doc: Mapping[str, Any], name: str, *, required: bool = False) -> list[Any]:
    v = doc.get(name)
    if v is None:
        if required:
            raise ImportFormatError(name, "is missing")
        return []
    if not isinstance(v, list):
        raise ImportFormatError(name, f"must be a list, got {_describe(v)}")
    return v


def memory_from_json(obj: object, path: str, dimension: int | None = None) -> Memory:
    r = _Reader(obj, path)
    q = r.mapping("quality")
    qr = _Reader(q, f"{path}.quality")
    types = r.strs("types", required=True)
    return Memory(
        id=r.str_("id", required=True, nonempty=True),
        content=r.str_("content", required=True, nonempty=True),
        types=types,
        embedding=r.vector("embedding", dimension),
        cluster_id=r.str_("cluster_id"),
        base_strength=r.float_("base_strength", 1.0),
        confidence=r.choice("confidence", CONFIDENCES, "medium"),
        extraction_score=r.float_("extraction_score"),
        emotional_valence=r.float_("emotional_valence"),
        mention_count=r.int_("mention_count"),
        pinned=r.bool_("pinned"),
        valid_from=r.int_("valid_from"),
        valid_to=r.int_("valid_to", None, nullable=True),
        created_at=r.int_("created_at"),
        updated_at=r.int_("updated_at"),
        last_accessed_at=r.int_("last_accessed_at"),
        last_reinforced=r.int_("last_reinforced"),
        status=r.choice("status", MEMORY_STATUSES, "active"),
        superseded_by=r.str_("superseded_by"),
        superseded_at=r.int_("superseded_at", None, nullable=True),
        supersession_type=r.choice(
            "supersession_type", ("conflict", "temporal", "merge"), None, nullable=True
        ),
        temporal_supersedes=r.str_("temporal_supersedes"),
        source_session=r.str_("source_session", ""),
        source_turn=r.int_("source_turn"),
        source_conversation_ids=r.strs("source_conversation_ids"),
        entities=r.strs("entities"),
        source_text=r.str_("source_text", ""),
        source=r.choice("source", SOURCES, "direct"),
        project_id=r.str_("project_id"),
        track=r.str_("track"),
        key=r.str_("key"),
        kind=r.choice("kind", KINDS, "declarative"),
        quality=QualityWalls(
            form=qr.float_("form", 1.0),
            filter=qr.float_("filter", 1.0),
            substance=qr.float_("substance", 1.0),
            factuality=qr.float_("factuality", 1.0),
        ),
        attribute=r.str_("attribute"),
        attribute_value=r.str_("attribute_value"),
        metadata=r.mapping("metadata"),
        faded_at=r.int_("faded_at", None, nullable=True),
        source_context=r.str_("source_context", ""),
        reply_context=r.str_("reply_context", ""),
        context_embedding=r.vector("context_embedding", dimension),
        event_at=r.int_("event_at", None, nullable=True),
    )


def episode_from_json(obj: object, path: str, dimension: int | None) -> Episode:
    r = _Reader(obj, path)
    return Episode(
        id=r.str_("id", required=True, nonempty=True),
        summary=r.str_("summary", ""),
        embedding=r.vector("embedding", dimension),
        memories_extracted=r.strs("memories_extracted"),
        started_at=r.int_("started_at"),
        ended_at=r.int_("ended_at"),
        turn_count=r.int_("turn_count"),
        emotional_valence=r.float_("emotional_valence"),
        topics=r.strs("topics"),
    )


def cluster_from_json(obj: object, path: str, dimension: int | None) -> Cluster:
    r = _Reader(obj, path)
    return Cluster(
        id=r.str_("id", required=True, nonempty=True),
        centroid=r.vector("centroid", dimension),
        member_ids=r.strs("member_ids"),
        label=r.str_("label", ""),
        last_recomputed=r.int_("last_recomputed"),
    )


def edge_from_json(obj: object, path: str) -> Edge:
    r = _Reader(obj, path)
    return Edge(
        id=r.str_("id", required=True, nonempty=True),
        from_id=r.str_("from_id", required=True, nonempty=True),
        to_id=r.str_("to_id", required=True, nonempty=True),
        weight=r.float_("weight"),
        shared_entities=r.strs("shared_entities"),
        created_at=r.int_("created_at"),
        last_updated=r.int_("last_updated"),
    )


def _parse_export(doc: Mapping[str, Any]) -> ExportDocument:
    version = doc.get("version")
    if version != EXPORT_VERSION:
        raise ImportFormatError(
            "version", f"unsupported export version {version!r} (this lokulmem reads {EXPORT_VERSION!r})"
        )
    top = _Reader(doc, "document")
    model = top.str_("embedding_model")
    dim = top.int_("embedding_dimension", None, nullable=True)
    memories = tuple(
        memory_from_json(m, f"memories[{i}]", dim)
        for i, m in enumerate(_list(doc, "memories", required=True))
    )
    seen: set[str] = set()
    for i, m in enumerate(memories):
        if m.id in seen:
            raise ImportFormatError(f"memories[{i}].id", f"duplicate id {m.id!r}")
        seen.add(m.id)
    return ExportDocument(
        memories=memories,
        episodes=tuple(
            episode_from_json(e, f"episodes[{i}]", dim) for i, e in enumerate(_list(doc, "episodes"))
        ),
        clusters=tuple(
            cluster_from_json(c, f"clusters[{i}]", dim) for i, c in enumerate(_list(doc, "clusters"))
        ),
        edges=tuple(edge_from_json(e, f"edges[{i}]") for i, e in enumerate(_list(doc, "edges"))),
        store_name=top.str_("store_name"),
        embedding_model=model,
    )


def _pack_entry(obj: object, index: int) -> PackEntry:
    path = f"memories[{index}]"
    r = _Reader(obj, path)
    created = r.float_("created_at_s", None, nullable=True)
    updated = r.float_("updated_at_s", None, nullable=True)
    quality = r.float_("quality_score", None, nullable=True)
    if quality is not None and not 0.0 <= quality <= 1.0:
        raise ImportFormatError(f"{path}.quality_score", f"must be in [0, 1], got {quality!r}")
    return PackEntry(
        index=index,
        value=r.str_("value", required=True, nonempty=True).strip(),
        key=r.str_("key"),
        memory_type=r.choice("memory_type", KINDS, "declarative"),
        source=r.str_("source"),
        session_id=r.str_("session_id"),
        project_id=r.str_("project_id"),
        track=r.str_("track"),
        quality_score=quality,
        created_at_ms=None if created is None else int(created * 1000),
        updated_at_ms=None if updated is None else int(updated * 1000),
        memory_id=r.str_("memory_id", nonempty=True),
        metadata=r.mapping("metadata"),
    )


def _parse_pack(doc: Mapping[str, Any], strict: bool) -> ParsedPack:
    top = _Reader(doc, "document")
    entries: list[PackEntry] = []
    malformed: list[RejectedItem] = []
    for i, obj in enumerate(_list(doc, "memories", required=True)):
        try:
            entries.append(_pack_entry(obj, i))
        except ImportFormatError as exc:
            if strict:
                raise
            key = obj.get("key") if isinstance(obj, Mapping) else None
            malformed.append(
                RejectedItem(index=i, key=key if isinstance(key, str) else None, reason=f"malformed: {exc}")
            )
    return ParsedPack(
        name=top.str_("name"),
        origin=top.str_("origin"),
        entries=tuple(entries),
        malformed=tuple(malformed),
    )


def parse_document(doc: object, *, strict: bool = True) -> ExportDocument | ParsedPack:
    """Validate ``doc`` (already decoded JSON) as an export or a memory pack.

    Raises :class:`ImportFormatError` naming the first problem.  With
    ``strict=False`` a malformed pack *entry* is reported in
    ``ParsedPack.malformed`` instead (the document itself must still be valid).
    """
    if not isinstance(doc, Mapping):
        raise ImportFormatError("document", f"must be a JSON object, got {type(doc).__name__}")
    fmt = doc.get("format")
    if fmt is None:
        return _parse_pack(doc, strict)
    if fmt != EXPORT_FORMAT:
        raise ImportFormatError(
            "format", f"unknown format {fmt!r} (expected {EXPORT_FORMAT!r} or a memory pack)"
        )
    return _parse_export(doc)

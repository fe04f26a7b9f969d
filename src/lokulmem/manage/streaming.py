"""Streamed export and import: a store of any size moved in bounded memory."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._engine.unit import Changes
from ..errors import ImportFormatError, StorageError, ValidationError
from ..hygiene import check_path
from ..records import ImportResult, Memory
from ..storage.sqlite_stream import StoreSnapshot
from ..transfer import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    ExportDocument,
    cluster_to_json,
    edge_to_json,
    episode_to_json,
    memory_from_json,
    memory_to_json,
)
from ..transfer.reading import cluster_from_json, edge_from_json, episode_from_json
from ..transfer.streaming import LineReader, is_line_layout, write_lines
from ._base import PanelBase
from .import_export import Audit, Tally, embed_export, wins

__all__ = ["Streaming", "starts_line_layout"]

#: Memories read, embedded (when needed) and written per step of a streamed import or
#: export: the memory a stream needs is about this many records, whatever the store's size.
STREAM_BATCH = 256


def starts_line_layout(path: Path) -> bool:
    """Whether the file at ``path`` is an export written line by line (``export_to``)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            return is_line_layout(f.readline(65_536))
    except (OSError, ValueError):
        return False


class Streaming(PanelBase):
    """``export_to()`` and the line-by-line path of ``import_data()``."""

    def export_to(self, path: str | os.PathLike[str], *, include_embeddings: bool = True) -> int:
        """Write the export document (the same as :meth:`export`) to the file ``path``,
        one record per line, from one consistent snapshot of the store, in pages of
        ``STREAM_BATCH`` records: memory stays bounded whatever the store's size,
        and this client's writers are not blocked meanwhile.  Written beside
        ``path`` and renamed into place.  :meth:`import_data` reads it back a
        line at a time.  Returns the number of memories written.
        """
        dest = check_path("path", path)
        if not isinstance(include_embeddings, bool):
            raise ValidationError("include_embeddings", "must be True or False")
        snapshot = getattr(self._engine.storage, "snapshot", None)
        if snapshot is None:
            raise StorageError("this storage backend cannot stream an export")
        self._engine.ensure()
        tmp = dest.with_name(f".{dest.name}.{uuid.uuid4().hex}.partial")
        try:
            with snapshot() as snap, tmp.open("w", encoding="utf-8") as out:
                counted: list[int] = []
                write_lines(
                    out,
                    _export_header(snap, self, include_embeddings),
                    _sections(snap, include_embeddings, counted),
                )
                count = sum(counted)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, dest)
        except (OSError, ValueError) as exc:  # ValueError: a name the OS refuses outright
            raise StorageError(f"cannot write the export to {dest}: {exc}") from exc
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        return count

    def _import_lines(self, path: Path, *, replace: bool, strategy: str, origin: str | None) -> ImportResult:
        """Import an ``export_to`` file a batch at a time, all in one transaction."""
        engine = self._engine
        limit = 16 * engine.config.max_message_chars + 65_536  # one record: text, contexts, vectors
        tally = Tally()
        audit_box: list[Audit] = []

        def plan() -> Changes:
            with path.open(encoding="utf-8") as f:
                reader = LineReader(f, max_line=limit)
                audit = _check_header(reader.header, self._now, origin)
                audit_box.append(audit)
                _Writer(self, reader.header, tally, replace=replace, strategy=strategy).run(reader)
            engine.storage.add_bridge_event(audit.event(tally))
            return Changes(reload_index=True, other=True, written=True)

        try:
            engine.commit(plan)
        except UnicodeDecodeError as exc:
            raise ImportFormatError("data", f"not UTF-8: {exc}") from None
        self._announce_written(tally.written)
        return ImportResult(
            imported=len(tally.written),
            skipped=tally.skipped,
            conflicts=tally.conflicts,
            bridge_event_id=audit_box[0].event_id,
        )

    def _announce_written(self, ids: list[str]) -> None:
        """``memory_added`` for what a streamed import wrote, read back in pages (only
        when someone listens: the events carry whole records)."""
        engine = self._engine
        if engine.events.has_subscribers("memory_added"):
            for start in range(0, len(ids), STREAM_BATCH):
                with engine.reading():
                    page = engine.storage.get_memories(ids[start : start + STREAM_BATCH])
                for m in page:
                    engine.events.emit("memory_added", m)
        engine.emit_stats()


def _export_header(snap: StoreSnapshot, panel: PanelBase, include: bool) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": panel._now,
        "store_name": panel._store_name,
        "embedding_model": snap.meta("embedding_model") if include else None,
        "embedding_dimension": panel._engine.embedder.dimension if include else None,
    }


def _sections(
    snap: StoreSnapshot, include: bool, counted: list[int]
) -> list[tuple[str, Iterator[dict[str, Any]]]]:
    """The four record lists, read page by page as they are written; ``counted``
    gets each memory page's size."""

    def memories() -> Iterator[dict[str, Any]]:
        for page in snap.memory_pages(STREAM_BATCH):
            counted.append(len(page))
            yield from (memory_to_json(m, include_embedding=include) for m in page)

    return [
        ("memories", memories()),
        ("episodes", (episode_to_json(e, include_embedding=include) for e in snap.episodes())),
        ("clusters", (cluster_to_json(c, include_embedding=include) for c in snap.clusters())),
        ("edges", (edge_to_json(e) for page in snap.edge_pages(STREAM_BATCH) for e in page)),
    ]


def _check_header(header: dict[str, Any], now: int, origin: str | None) -> Audit:
    if header.get("format") != EXPORT_FORMAT:
        raise ImportFormatError("format", f"a line-by-line document must be a {EXPORT_FORMAT!r}")
    if header.get("version") != EXPORT_VERSION:
        raise ImportFormatError("version", f"unsupported export version {header.get('version')!r}")
    store = header.get("store_name")
    return Audit(str(uuid.uuid4()), now, EXPORT_FORMAT, store if isinstance(store, str) else None, origin)


class _Writer:
    """Writes the records of a streamed import inside the caller's transaction."""

    def __init__(
        self, panel: Streaming, header: dict[str, Any], tally: Tally, *, replace: bool, strategy: str
    ):
        self.engine = panel._engine
        self.storage = panel._engine.storage
        dim = header.get("embedding_dimension")
        self.dim = dim if isinstance(dim, int) and not isinstance(dim, bool) else None
        model = header.get("embedding_model")
        self.model = model if isinstance(model, str) else None
        self.tally, self.replace, self.strategy = tally, replace, strategy
        self.limit = panel._engine.config.max_message_chars
        self.seen: set[str] = set()
        self.buffer: list[Memory] = []

    def run(self, reader: LineReader) -> None:
        if self.replace:
            self.storage.clear(keep_audit=True)
        for section, index, record in reader.records():
            if section == "memories":
                self._memory(record, index)
                continue
            self._flush()
            if section == "episodes":
                item: Any = episode_from_json(record, f"episodes[{index}]", self.dim)
                self._put(item, item.ended_at, self.storage.put_episode, "episodes")
            elif section == "clusters":
                item = cluster_from_json(record, f"clusters[{index}]", self.dim)
                self._put(item, item.last_recomputed, self.storage.put_cluster, "clusters")
            else:
                item = edge_from_json(record, f"edges[{index}]")
                self._put(item, item.last_updated, self.storage.put_edge, "edges")
        self._flush()

    def _memory(self, record: Any, index: int) -> None:
        m = memory_from_json(record, f"memories[{index}]", self.dim)
        if m.id in self.seen:
            raise ImportFormatError(f"memories[{index}].id", f"duplicate id {m.id!r}")
        if len(m.content) > self.limit:
            raise ImportFormatError(
                f"memories[{index}].content", f"is longer than max_message_chars ({self.limit:,})"
            )
        self.seen.add(m.id)
        self.buffer.append(m)
        if len(self.buffer) >= STREAM_BATCH:
            self._flush()

    def _flush(self) -> None:
        if not self.buffer:
            return
        doc = ExportDocument(
            memories=tuple(self.buffer),
            episodes=(),
            clusters=(),
            edges=(),
            store_name=None,
            embedding_model=self.model,
        )
        incoming = embed_export(self.engine, doc)
        existing = {m.id: m for m in self.storage.get_memories([m.id for m in incoming])}
        for m in incoming:
            old = existing.get(m.id)
            if old is None:
                self.storage.insert_memory(m)
            else:
                self.tally.conflicts += 1
                if not wins(self.strategy, old.updated_at, m.updated_at):
                    self.tally.skipped += 1
                    continue
                self.storage.update_memory(m)
            self.tally.written.append(m.id)
        self.buffer = []

    def _put(self, item: Any, stamp: int, put: Any, table: str) -> None:
        old = None if self.replace else self.storage.updated_stamp(table, item.id)
        if old is None or wins(self.strategy, old, stamp):
            put(item)

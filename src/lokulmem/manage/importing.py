"""``manage().import_data()``: lokulmem exports and HOM memory packs."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._engine.unit import Changes
from ..errors import ImportFormatError, ValidationError
from ..records import (
    ImportResult,
)
from ..transfer import ExportDocument, ParsedPack, parse_document
from ._base import (
    _STRATEGIES,
    ConflictStrategy,
)
from .import_export import Audit, Tally, embed_export, write_export
from .import_pack import PackGate, dedup_keys, pack_memories, write_pack
from .streaming import Streaming, starts_line_layout

__all__ = ["Importing"]


class Importing(Streaming):
    """Import of lokulmem exports and HOM memory packs, in one transaction."""

    def _load(self, data: object) -> tuple[object, str | None]:
        limit = self._engine.config.max_import_bytes
        origin: str | None = None
        raw: str | bytes
        if isinstance(data, os.PathLike):
            path = Path(data)
            origin = str(path)
            try:
                size = path.stat().st_size
            except (OSError, ValueError) as exc:  # ValueError: a NUL or a lone surrogate in the path
                raise ImportFormatError("data", f"cannot read {path!r}: {exc}") from None
            if size > limit:
                raise ImportFormatError("data", f"{path} is {size} bytes; max_import_bytes is {limit}")
            raw = path.read_bytes()
        elif isinstance(data, (str, bytes, bytearray)):
            raw = bytes(data) if isinstance(data, bytearray) else data
        elif isinstance(data, Mapping):
            return data, None
        else:
            raise ImportFormatError("data", f"must be a dict, JSON text or a path, got {type(data).__name__}")
        size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
        if size > limit:
            raise ImportFormatError("data", f"document is {size} bytes; max_import_bytes is {limit}")
        try:
            return json.loads(raw), origin
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ImportFormatError("data", f"not valid JSON: {exc}") from None
        except RecursionError:
            raise ImportFormatError("data", "JSON nested too deeply") from None

    def import_data(
        self,
        data: Mapping[str, Any] | str | bytes | os.PathLike[str],
        *,
        merge: bool | None = None,
        conflict_strategy: ConflictStrategy = "keep-existing",
        strict: bool = True,
        origin: str | None = None,
        quality_threshold: float | None = None,
        trust_sources: bool = False,
    ) -> ImportResult:
        """Import a lokulmem export or a HOM memory pack, in one transaction.

        ``data``: the decoded document, its JSON text, or a path to a JSON file
        (at most ``max_import_bytes``).  ``merge``: ``False`` replaces the
        store's memories, episodes, clusters and edges; ``True`` adds to them;
        default (``None``) replaces for an export (PRD) and adds for a pack.
        When an incoming memory has the id (export) or key (pack) of a stored
        one, ``conflict_strategy`` decides: ``keep-existing`` (default),
        ``use-imported``, or ``keep-newer`` (by ``updated_at``).

        Packs are validated: entries are de-duplicated by key (first wins),
        gated on quality (``quality_threshold``, default
        ``Config.import_quality_threshold``, against the product of the
        quality walls computed from the text, or the entry's own
        ``quality_score`` if lower), stored with ``source="import"`` (or,
        with ``trust_sources=True``, the entry's own HOM source when it names
        one: ``direct``, ``reasoning``, ``compaction``, ``nightly``) and
        their provenance in ``metadata["import"]``.  Every import stores a
        :class:`BridgeEvent` (see :meth:`get_bridge_events`).

        A malformed document raises :class:`ImportFormatError` naming the
        first problem and changes nothing; with ``strict=False`` malformed
        pack entries are reported in ``rejected`` instead.
        """
        threshold = _check_import_args(
            self._engine.config.import_quality_threshold,
            merge,
            conflict_strategy,
            origin,
            trust_sources,
            quality_threshold,
        )
        if isinstance(data, os.PathLike) and starts_line_layout(Path(data)):
            return self._import_lines(
                Path(data),
                replace=not merge if merge is not None else True,
                strategy=conflict_strategy,
                origin=origin or str(data),
            )
        doc, file_origin = self._load(data)
        parsed = parse_document(doc, strict=strict)
        _check_lengths(parsed, self._engine.config.max_message_chars)
        if isinstance(parsed, ExportDocument):
            return self._import_export(
                parsed,
                replace=not merge if merge is not None else True,
                strategy=conflict_strategy,
                origin=origin or file_origin,
            )
        return self._import_pack(
            parsed,
            replace=not merge if merge is not None else False,
            strategy=conflict_strategy,
            origin=origin or parsed.origin or file_origin,
            gate=PackGate(threshold, not merge if merge is not None else False, trust_sources),
        )

    def _import_export(
        self, doc: ExportDocument, *, replace: bool, strategy: str, origin: str | None
    ) -> ImportResult:
        incoming = embed_export(self._engine, doc)
        audit = Audit(str(uuid.uuid4()), self._now, "lokulmem-export", doc.store_name, origin)
        tally = Tally()

        def plan() -> Changes:
            storage = self._engine.storage
            return write_export(
                storage, doc, incoming, tally, replace=replace, strategy=strategy, audit=audit
            )

        self._engine.commit(plan)
        return ImportResult(
            imported=len(tally.written),
            skipped=tally.skipped,
            conflicts=tally.conflicts,
            bridge_event_id=audit.event_id,
        )

    def _import_pack(
        self, pack: ParsedPack, *, replace: bool, strategy: str, origin: str | None, gate: PackGate
    ) -> ImportResult:
        entries, duplicates = dedup_keys(pack.entries)
        audit = Audit(str(uuid.uuid4()), self._now, "memory-pack", pack.name, origin)
        memories, low = pack_memories(self._engine, pack, entries, gate, audit)
        tally = Tally(rejected=[*pack.malformed, *duplicates, *low])

        def plan() -> Changes:
            storage = self._engine.storage
            return write_pack(storage, memories, tally, replace=replace, strategy=strategy, audit=audit)

        self._engine.commit(plan)
        return ImportResult(
            imported=len(tally.written),
            skipped=tally.skipped,
            conflicts=tally.conflicts,
            rejected=tuple(sorted(tally.rejected, key=lambda r: r.index)),
            bridge_event_id=audit.event_id,
        )


def _check_lengths(parsed: ExportDocument | ParsedPack, limit: int) -> None:
    """No imported memory is longer than ``max_message_chars`` (what ``learn()``
    reads of a message): ``ImportFormatError`` naming the first, nothing written."""
    if isinstance(parsed, ExportDocument):
        texts = [(f"memories[{i}].content", m.content) for i, m in enumerate(parsed.memories)]
    else:
        texts = [(f"memories[{e.index}].value", e.value) for e in parsed.entries]
    for item, text in texts:
        if len(text) > limit:
            raise ImportFormatError(item, f"is {len(text):,} characters; max_message_chars is {limit:,}")


def _check_import_args(
    default_threshold: float,
    merge: object,
    strategy: object,
    origin: object,
    trust_sources: object,
    quality_threshold: object,
) -> float:
    """The options of ``import_data()`` checked (typed errors naming them); the quality threshold."""
    if merge is not None and not isinstance(merge, bool):
        raise ValidationError("merge", "must be true, false or None")
    if strategy not in _STRATEGIES:
        raise ValidationError("conflict_strategy", f"must be one of {list(_STRATEGIES)}")
    if origin is not None and not isinstance(origin, str):
        raise ValidationError("origin", "must be a string")
    if not isinstance(trust_sources, bool):
        raise ValidationError("trust_sources", "must be true or false")
    if quality_threshold is None:
        return default_threshold
    if (
        not isinstance(quality_threshold, (int, float))
        or isinstance(quality_threshold, bool)
        or not 0 <= quality_threshold <= 1
    ):
        raise ValidationError("quality_threshold", "must be a number in [0, 1]")
    return float(quality_threshold)

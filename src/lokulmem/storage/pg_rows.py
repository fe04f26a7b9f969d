"""Rows of the PostgreSQL tables as records, and back: the SQLite row layout
(:mod:`lokulmem.storage.sqlite_rows`) with the memory vector as a pgvector
``vector`` instead of a blob."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..records import Memory
from .sealing import PLAIN
from .sqlite_rows import MEMORY_COLUMNS, memory_to_row, row_to_memory

__all__ = ["INSERT", "SELECT", "SELECT_LIGHT", "UPDATE", "memory_params", "pg_row_to_memory"]

_EMBEDDING_AT = MEMORY_COLUMNS.index("embedding")
#: ``SELECT`` of every memory column; ``{t}`` is the qualified table.
SELECT = "SELECT " + ", ".join(MEMORY_COLUMNS) + " FROM {t}"
#: The same without the two vectors (lists for panels and analytics).
SELECT_LIGHT = (
    "SELECT "
    + ", ".join("NULL" if c in ("embedding", "context_embedding") else c for c in MEMORY_COLUMNS)
    + " FROM {t}"
)
INSERT = (
    "INSERT INTO {t} (store, "
    + ", ".join(MEMORY_COLUMNS)
    + ") VALUES (%s, "
    + ", ".join(["%s"] * len(MEMORY_COLUMNS))
    + ")"
)
UPDATE = (
    "UPDATE {t} SET " + ", ".join(f"{c} = %s" for c in MEMORY_COLUMNS[1:]) + " WHERE store = %s AND id = %s"
)


def memory_params(m: Memory, half: bool) -> list[Any]:
    """The column values of ``m`` in ``MEMORY_COLUMNS`` order (the vector as an array)."""
    row = list(memory_to_row(m, PLAIN, half))
    row[_EMBEDDING_AT] = m.embedding
    return row


def pg_row_to_memory(row: Sequence[Any]) -> Memory:
    """The memory of a row read with ``SELECT`` (the vector comes as an array)."""
    return row_to_memory(row, PLAIN)

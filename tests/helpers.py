"""Plain helpers shared by several test modules (fixtures live in conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lokulmem import LokulMem


def same_store(mem: LokulMem) -> dict[str, Any]:
    """The options that open ``mem``'s store again, on either backend (a PostgreSQL
    store's ``location`` is a description, not a path: opening it as one made a
    SQLite file of that name in the working directory)."""
    dsn, store = getattr(mem.storage, "dsn", None), getattr(mem.storage, "store", None)
    if isinstance(dsn, str) and isinstance(store, str):  # PostgresStorage (psycopg may be absent)
        return {"storage": "postgres", "dsn": dsn, "store_name": store}
    return {"path": mem.location}


def store_files(mem: LokulMem) -> dict[str, bytes]:
    """The bytes of the store file and its WAL, to prove nothing was written
    (background work of earlier calls, such as a context vector, lands first).
    The ``-shm`` wal-index is left out: readers move their marks in it, and it is
    rebuilt from the WAL, so it is not the store's content."""
    mem.wait_for_maintenance()
    base = Path(mem.location)
    return {p.name: p.read_bytes() for p in base.parent.glob(base.name + "*") if not p.name.endswith("-shm")}


def searchable_ids(mem: LokulMem) -> set[str]:
    """Ids semantic search can return: what the vector index holds, seen through the public API."""
    return {m.id for m, _ in mem.manage().semantic_search_scored("anything at all", 1_000_000)}

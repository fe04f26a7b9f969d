"""Plain helpers shared by several test modules (fixtures live in conftest.py)."""

from __future__ import annotations

from pathlib import Path

from lokulmem import LokulMem


def store_files(mem: LokulMem) -> dict[str, bytes]:
    """The bytes of the store file and its WAL/SHM siblings, to prove nothing was written."""
    base = Path(mem.location)
    return {p.name: p.read_bytes() for p in base.parent.glob(base.name + "*")}


def searchable_ids(mem: LokulMem) -> set[str]:
    """Ids semantic search can return: what the vector index holds, seen through the public API."""
    return {m.id for m, _ in mem.manage().semantic_search_scored("anything at all", 1_000_000)}

"""Plain helpers shared by several test modules (fixtures live in conftest.py)."""

from __future__ import annotations

from pathlib import Path

from lokulmem import LokulMem


def store_files(mem: LokulMem) -> dict[str, bytes]:
    """The bytes of the store file and its WAL/SHM siblings, to prove nothing was written."""
    base = Path(mem.location)
    return {p.name: p.read_bytes() for p in base.parent.glob(base.name + "*")}

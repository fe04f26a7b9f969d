"""Shared parts of the panel API: argument checks and the base every part extends."""

from __future__ import annotations

import builtins
import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Literal, TypeVar

from .._engine.engine import Engine
from ..errors import MemoryNotFoundError, ValidationError
from ..hygiene import check_finite, check_id, check_text
from ..records import (
    Memory,
)
from ..storage import MemoryQuery

__all__ = ["ConflictStrategy", "OrderBy", "PanelBase"]

T = TypeVar("T")
OrderBy = Literal["created_at", "last_accessed_at", "strength", "mention_count", "updated_at"]
ConflictStrategy = Literal["keep-existing", "use-imported", "keep-newer"]
_ORDER_BY = ("created_at", "last_accessed_at", "strength", "mention_count", "updated_at")
_STRATEGIES = ("keep-existing", "use-imported", "keep-newer")
#: Group names of ``get_grouped()`` for the default types.
_GROUP_FIELDS = {
    "identity": "identity",
    "location": "location",
    "profession": "profession",
    "preference": "preferences",
    "project": "projects",
    "temporal": "temporal",
    "relational": "relational",
    "emotional": "emotional",
}


# -- argument checks --------------------------------------------------------------
#: Unix milliseconds of the year 9999 (what a datetime can hold; SQLite's integers hold more).
_MAX_MS = 253_402_300_799_000
_MAX_SQL_INT = 2**63 - 1


def _limit(name: str, value: object, *, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValidationError(name, f"must be an integer >= 0, got {value!r}")
    return min(value, _MAX_SQL_INT)  # more than the store holds means all; SQLite's integers are 64-bit


def _time(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            raise ValidationError(name, "a datetime must be timezone-aware")
        return int(value.timestamp() * 1000)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ValidationError(name, f"must be Unix milliseconds or an aware datetime, got {value!r}")
    if not -_MAX_MS <= check_finite(name, value) <= _MAX_MS:
        raise ValidationError(name, "must be Unix milliseconds between the years 1 and 9999")
    return int(value)


def _text(name: str, value: object, limit: int | None = None) -> str:
    """Free text, cleaned and cut at ``limit`` (``lokulmem.hygiene.check_text``)."""
    return check_text(name, value, limit)


class PanelBase:
    """What every part of the panel API shares: the engine, the store name, reads."""

    def __init__(self, engine: Engine, *, store_name: str = "lokulmem_default") -> None:
        self._engine = engine
        self._store_name = store_name

    def _id(self, name: str, value: object) -> str:
        """An identifier argument (``lokulmem.hygiene.check_id``)."""
        return check_id(name, value, self._engine.config.max_id_chars)

    def _ids(self, name: str, values: object) -> list[str]:
        """A list of identifiers, duplicates dropped (first kept)."""
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise ValidationError(name, "must be a list of ids")
        out = [self._id(f"{name}[{i}]", v) for i, v in enumerate(values)]
        return list(dict.fromkeys(out))

    @property
    def _now(self) -> int:
        return self._engine.clock.now_ms()

    def _query(self, query: MemoryQuery) -> builtins.list[Memory]:
        with self._engine.reading():
            return self._engine.storage.list_memories(query)

    def _fresh(self, ids: Sequence[str]) -> builtins.list[Memory]:
        """Read ``ids`` from the store (inside a transaction: the truth), all or error."""
        found = self._engine.storage.get_memories(ids)
        if len(found) != len(ids):
            have = {m.id for m in found}
            missing = [i for i in ids if i not in have]
            raise MemoryNotFoundError(*missing)
        return found

    def get(self, memory_id: str) -> Memory:
        """The memory with ``memory_id``; :class:`MemoryNotFoundError` if none."""
        return self._engine.get(self._id("memory_id", memory_id))

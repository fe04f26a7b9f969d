"""``memory.manage()``: the memory-panel API (PRD §8), sync and async.

Every query reads the store as it is now (including other processes'
commits).  Every mutation is one transaction: all of it is stored or none of
it, and the events (``memory_added``, ``memory_updated``, ``memory_deleted``,
``contradiction_detected``, then one ``stats_changed``) fire after the commit,
never for a change that rolled back.  Unknown ids raise
:class:`~lokulmem.MemoryNotFoundError` naming them; bulk operations change
nothing when any id is unknown (``MemoryNotFoundError.memory_ids`` lists them
all).
"""

from __future__ import annotations

from ._base import ConflictStrategy, OrderBy
from .manager import AsyncManager, Manager

__all__ = ["AsyncManager", "ConflictStrategy", "Manager", "OrderBy"]

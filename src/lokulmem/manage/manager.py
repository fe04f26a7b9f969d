"""``Manager`` (the panel API) and its async twin ``AsyncManager``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .._async import async_twin, same_thread
from ..records import (
    ContradictionEvent,
    Memory,
    MemoryStats,
)
from ._base import (
    T,
)
from .importing import Importing
from .merging import Merging
from .mutations import Mutations
from .queries import Queries

__all__ = ["AsyncManager", "Manager"]


class Manager(Queries, Mutations, Merging, Importing):
    """The memory-panel API: queries, mutations, analytics, export/import, events.

    Obtained from :meth:`LokulMem.manage`.  Method names are the PRD's in
    snake_case; see ``docs/api.md`` for every contract.
    """

    # -- events -------------------------------------------------------------------
    def on_memory_added(self, callback: Callable[[Memory], object]) -> Callable[[], None]:
        """Subscribe; returns the unsubscribe callable."""
        return self._engine.events.subscribe("memory_added", callback)

    def on_memory_updated(self, callback: Callable[[Memory], object]) -> Callable[[], None]:
        return self._engine.events.subscribe("memory_updated", callback)

    def on_memory_deleted(self, callback: Callable[[str], object]) -> Callable[[], None]:
        return self._engine.events.subscribe("memory_deleted", callback)

    def on_memory_faded(self, callback: Callable[[Memory], object]) -> Callable[[], None]:
        return self._engine.events.subscribe("memory_faded", callback)

    def on_contradiction_detected(
        self, callback: Callable[[ContradictionEvent], object]
    ) -> Callable[[], None]:
        return self._engine.events.subscribe("contradiction_detected", callback)

    def on_stats_changed(self, callback: Callable[[MemoryStats], object]) -> Callable[[], None]:
        """Fresh :class:`MemoryStats` after every committed change (computed only while subscribed)."""
        return self._engine.events.subscribe("stats_changed", callback)


class AsyncManager:
    """Async twin of :class:`Manager`: the same methods, awaitable.

    Each call runs on the client's worker thread, so the event loop never
    waits on SQLite or the model.  Subscriptions (``on_*``) are synchronous:
    they only register a callback.
    """

    def __init__(self, manager: Manager, run: Callable[..., Awaitable[Any]]) -> None:
        self._sync = manager
        self._runner = run

    def _run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Awaitable[T]:
        return self._runner(fn, *args, **kwargs)

    get = async_twin(Manager.get)
    list = async_twin(Manager.list)
    get_by_conversation = async_twin(Manager.get_by_conversation)
    get_recent = async_twin(Manager.get_recent)
    get_top = async_twin(Manager.get_top)
    get_pinned = async_twin(Manager.get_pinned)
    search = async_twin(Manager.search)
    semantic_search = async_twin(Manager.semantic_search)
    semantic_search_scored = async_twin(Manager.semantic_search_scored)
    get_related = async_twin(Manager.get_related)
    get_timeline = async_twin(Manager.get_timeline)
    get_upcoming = async_twin(Manager.get_upcoming)
    get_grouped = async_twin(Manager.get_grouped)
    get_lineage = async_twin(Manager.get_lineage)
    get_injection_preview = async_twin(Manager.get_injection_preview)
    update = async_twin(Manager.update)
    pin = async_twin(Manager.pin)
    unpin = async_twin(Manager.unpin)
    archive = async_twin(Manager.archive)
    unarchive = async_twin(Manager.unarchive)
    delete = async_twin(Manager.delete)
    delete_many = async_twin(Manager.delete_many)
    archive_many = async_twin(Manager.archive_many)
    unarchive_many = async_twin(Manager.unarchive_many)
    pin_many = async_twin(Manager.pin_many)
    unpin_many = async_twin(Manager.unpin_many)
    clear = async_twin(Manager.clear)
    find_similar_facts = async_twin(Manager.find_similar_facts)
    merge = async_twin(Manager.merge)
    stats = async_twin(Manager.stats)
    export = async_twin(Manager.export)
    export_to = async_twin(Manager.export_to)
    export_to_markdown = async_twin(Manager.export_to_markdown)
    get_bridge_events = async_twin(Manager.get_bridge_events)
    import_data = async_twin(Manager.import_data)
    on_memory_added = same_thread(Manager.on_memory_added)
    on_memory_updated = same_thread(Manager.on_memory_updated)
    on_memory_deleted = same_thread(Manager.on_memory_deleted)
    on_memory_faded = same_thread(Manager.on_memory_faded)
    on_contradiction_detected = same_thread(Manager.on_contradiction_detected)
    on_stats_changed = same_thread(Manager.on_stats_changed)

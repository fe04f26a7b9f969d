"""Session state and the record cache (``lokulmem._engine.state``): bounded, least recently used out."""

from __future__ import annotations

from lokulmem import Memory
from lokulmem._engine.state import RecordCache, Sessions


def test_sessions_keep_the_most_recently_used() -> None:
    sessions = Sessions(capacity=2, window=3)
    sessions.get("a").turn = 5
    sessions.get("b")
    sessions.get("a")  # a is now the most recent
    sessions.get("c")
    assert sessions.ids() == ["a", "c"] and "b" not in sessions and sessions.get("a").turn == 5
    state = sessions.get("c")
    state.vectors.extend(range(10))  # type: ignore[arg-type]  # any items: the window is what is tested
    assert list(state.vectors) == [7, 8, 9]


def test_record_cache_evicts_and_keeps_order() -> None:
    cache = RecordCache(2)
    for i in range(3):
        cache.put(Memory(id=f"m{i}", content="x", types=()))
    assert "m0" not in cache and [m.id for m in cache.take(["m2", "m0", "m1"])] == ["m2", "m1"]
    cache.drop("m1")
    cache.put(Memory(id="m3", content="x", types=()))
    assert [m.id for m in cache.take(["m1", "m2", "m3"])] == ["m2", "m3"]
    cache.clear()
    assert cache.take(["m2"]) == []

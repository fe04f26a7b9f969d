"""Superseded facts as a way to their replacements (``lokulmem._engine.history``), on a real store."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lokulmem import Memory, SQLiteStorage
from lokulmem._engine.history import History


def vec(*xs: float) -> np.ndarray:
    v = np.zeros(384, dtype=np.float32)
    v[: len(xs)] = xs
    return v / np.linalg.norm(v)


def fact(mid: str, v: np.ndarray, **kw: object) -> Memory:
    return Memory(id=mid, content=f"User fact {mid}.", types=("preference",), embedding=v, **kw)  # type: ignore[arg-type]


def _store(tmp_path: Path) -> SQLiteStorage:
    """A store with one current fact and two it superseded: "old" near ``vec(1, 0)``, "far" not."""
    store = SQLiteStorage(tmp_path / "s.sqlite")
    store.open(embedding_model="m", dimension=384)
    store.insert_memory(fact("new", vec(0, 1)))
    store.insert_memory(fact("old", vec(1, 0.1), status="superseded", superseded_by="new", superseded_at=5))
    store.insert_memory(fact("far", vec(0, 0, 1), status="superseded", superseded_by="new", superseded_at=6))
    return store


def test_nearest_superseded_facts_and_when_the_matrix_is_dropped(tmp_path: Path) -> None:
    store = _store(tmp_path)
    history = History(store, pool=10)
    query = vec(1, 0)
    assert history.nearest(query, k=3, floor=0.3) == ["old"]  # "far" is under the floor
    assert history.nearest(query, k=0, floor=0.0) == []
    assert History(store, pool=0).nearest(query, 3, 0.0) == []
    # A reinforced active memory keeps the matrix; a new superseded fact drops it.
    store.insert_memory(fact("next", vec(1, 0), status="superseded", superseded_by="new", superseded_at=7))
    history.written([fact("new", vec(0, 1))], [])
    assert history.nearest(query, k=3, floor=0.3) == ["old"]
    history.written([fact("next", vec(1, 0), status="superseded")], [])
    assert history.nearest(query, k=3, floor=0.3) == ["next", "old"]
    # Deleting one it holds drops it too.
    store.delete_memories(["old"])
    history.written([], ["old"])
    assert history.nearest(query, k=3, floor=0.3) == ["next"]
    store.close()


def test_the_superseded_facts_of_a_slot_nearest_first_whatever_their_cosine(tmp_path: Path) -> None:
    store = _store(tmp_path)
    history = History(store, pool=10)
    query = vec(1, 0)
    assert history.nearest_of(query, ["far", "old", "unknown"], k=3) == ["old", "far"]
    assert history.nearest_of(query, ["far"], k=3) == ["far"]  # no floor: the slot is the link
    assert history.nearest_of(query, ["far", "old"], k=1) == ["old"]
    assert history.nearest_of(query, [], k=3) == [] and history.nearest_of(query, ["old"], k=0) == []
    store.close()

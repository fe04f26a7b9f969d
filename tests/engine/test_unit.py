"""The unit of work's record (``lokulmem._engine.unit.Changes``)."""

from __future__ import annotations

from lokulmem import Memory
from lokulmem._engine.unit import Changes


def test_changes_are_true_only_when_something_changed() -> None:
    assert not Changes() and not Changes(written=True, reload_clusters=True)
    assert (
        Changes(added=[Memory(id="m", content="x", types=())])
        and Changes(deleted=["m"])
        and Changes(other=True)
    )

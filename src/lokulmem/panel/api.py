"""The panel's JSON endpoints: actions on memories, bulk actions, export, import,
and live updates as server-sent events.

Every write answers ``{"ok": true, ...}`` or, for a library error, status 400
(404 for an unknown id) with ``{"error": "ImportFormatError: ..."}``; the store
is then unchanged (each library call is one transaction).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from ..client import LokulMem
from ..errors import LokulMemError, MemoryNotFoundError
from ..transfer.writing import record_to_json

__all__ = ["Api"]

#: Largest import body accepted through the panel (bytes).
MAX_UPLOAD_BYTES = 64 * 1024 * 1024
#: How often the event stream checks for changes made by other processes (seconds).
POLL_SECONDS = 1.0
#: A comment line keeps idle event streams open through proxies (seconds).
KEEPALIVE_SECONDS = 15.0
ACTIONS = ("pin", "unpin", "archive", "unarchive", "delete")


def _error(exc: LokulMemError) -> JSONResponse:
    status = 404 if isinstance(exc, MemoryNotFoundError) else 400
    return JSONResponse({"error": f"{type(exc).__name__}: {exc}"}, status_code=status)


class Api:
    """Endpoint handlers over one open store."""

    def __init__(self, memory: LokulMem) -> None:
        self.memory = memory

    async def _run(self, call: Callable[[], Any]) -> JSONResponse:
        try:
            result = await run_in_threadpool(call)
        except LokulMemError as exc:
            return _error(exc)
        return JSONResponse({"ok": True, "result": record_to_json(result)})

    async def act(self, request: Request) -> Response:
        action, memory_id = request.path_params["action"], request.path_params["memory_id"]
        if action not in ACTIONS:
            return JSONResponse({"error": f"unknown action {action!r}"}, status_code=404)
        manage = self.memory.manage()
        return await self._run(lambda: getattr(manage, action)(memory_id))

    async def edit(self, request: Request) -> Response:
        body = await _json(request)
        if not isinstance(body, dict) or not isinstance(body.get("content"), str):
            return JSONResponse({"error": 'expected {"content": "..."}'}, status_code=400)
        memory_id, content = request.path_params["memory_id"], body["content"]
        return await self._run(lambda: self.memory.manage().update(memory_id, content=content))

    async def bulk(self, request: Request) -> Response:
        body = await _json(request)
        if (
            not isinstance(body, dict)
            or body.get("action") not in ACTIONS
            or not isinstance(body.get("ids"), list)
        ):
            return JSONResponse(
                {"error": f'expected {{"action": one of {list(ACTIONS)}, "ids": [...]}}'}, status_code=400
            )
        manage, ids = self.memory.manage(), body["ids"]
        return await self._run(lambda: getattr(manage, f"{body['action']}_many")(ids))

    async def export(self, request: Request) -> Response:
        doc = await run_in_threadpool(self.memory.manage().export)
        return Response(
            json.dumps(doc, ensure_ascii=False),
            media_type="application/json",
            headers={"content-disposition": 'attachment; filename="lokulmem-export.json"'},
        )

    async def import_(self, request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_UPLOAD_BYTES:
            return JSONResponse({"error": f"larger than {MAX_UPLOAD_BYTES} bytes"}, status_code=413)
        merge = {"merge": True, "replace": False}.get(request.query_params.get("mode", ""))
        return await self._run(lambda: self.memory.manage().import_data(body, merge=merge))

    async def events(self, request: Request) -> Response:
        return StreamingResponse(self._stream(request), media_type="text/event-stream")

    async def _stream(self, request: Request) -> AsyncIterator[str]:
        """``change`` events: this process's writes as they commit, and other
        processes' commits found by polling the store's data version."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def push(kind: str) -> Callable[[Any], None]:
            def on(item: Any) -> None:
                detail = item if isinstance(item, str) else getattr(item, "content", "")
                loop.call_soon_threadsafe(queue.put_nowait, {"kind": kind, "detail": detail})

            return on

        manage = self.memory.manage()
        unsubscribe = [
            manage.on_memory_added(push("added")),
            manage.on_memory_updated(push("updated")),
            manage.on_memory_deleted(push("deleted")),
        ]
        version = await run_in_threadpool(self.memory.storage.data_version)
        idle = 0.0
        try:
            yield "retry: 2000\n\n"
            while not await request.is_disconnected():
                event: dict[str, Any] | None
                try:
                    event = await asyncio.wait_for(queue.get(), timeout=POLL_SECONDS)
                except TimeoutError:
                    now = await run_in_threadpool(self.memory.storage.data_version)
                    event = {"kind": "external", "detail": ""} if now != version else None
                    version = now
                if event is not None:
                    idle = 0.0
                    yield f"event: change\ndata: {json.dumps(event, ensure_ascii=False)}\n\n"
                else:
                    idle += POLL_SECONDS
                    if idle >= KEEPALIVE_SECONDS:
                        idle = 0.0
                        yield ": keep-alive\n\n"
        finally:
            for stop in unsubscribe:
                stop()


async def _json(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None

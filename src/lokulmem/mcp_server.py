"""An MCP server over a store: desktop assistants and IDE agents remember the user.

    lokulmem mcp --path me.sqlite          # stdio (what MCP hosts launch)

Tools (names and arguments are the interface hosts rely on):

* ``remember(text, as_conclusion=False)``: ``learn(text)``: the text read as
  the user's own words (extraction gate, rewrite, types, contradictions); with
  ``as_conclusion=True`` it is what the assistant concluded about the user
  (``LokulMem.remember``: every sentence stored, ``source="reasoning"``).
  Returns what was stored, reinforced or skipped.
* ``recall(message, limit=None)``: what ``augment(message)`` would inject now,
  as evidence cards (content, status, current or history, validity, source,
  confidence, score, reason) and the memory block text; nothing is written.
  An empty list means nothing relevant is stored.
* ``search(query, semantic=False, limit=10)``: by words (full text) or meaning.
* ``forget(memory_id)``: delete one memory for good.
* ``pin(memory_id)``: pin one memory (never fades, always a candidate).
* ``list(limit=20)``: the most recent active memories.

Resource ``memory://stats``: the store's :class:`~lokulmem.MemoryStats` as JSON.

A library error (an unknown id, bad input) comes back as a tool error with the
library's message; nothing was changed.  Needs the ``mcp`` extra
(``pip install 'lokulmem[mcp]'``).
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from typing import Any, TypeVar

from .client import LokulMem
from .errors import LokulMemError, ValidationError
from .records import LearnResult, Memory
from .transfer.writing import memory_to_json, record_to_json

__all__ = ["build_server"]

#: What a host shows and the model reads about this server.
INSTRUCTIONS = (
    "Long-term memory of the user, kept on this machine. Call `recall` with the user's "
    "message before answering to get what is known about them (an empty list means nothing "
    "relevant is stored); call `remember` with what the user said about themselves."
)
T = TypeVar("T")

#: Largest ``limit`` a tool accepts.
MAX_LIMIT = 200


def _memory(m: Memory) -> dict[str, Any]:
    """A memory as a tool returns it (no vectors, no internal bookkeeping)."""
    data = memory_to_json(m, include_embedding=False)
    keep = ("id", "content", "types", "status", "pinned", "confidence", "source", "valid_from", "valid_to")
    return {k: data[k] for k in keep if k in data}


def _learned(result: LearnResult) -> dict[str, Any]:
    return {
        "decisions": [
            {
                "outcome": d.outcome,
                "content": d.content,
                "types": builtins.list(d.types),
                "memory_id": d.memory_id,
            }
            for d in result.decisions
        ],
        "contradictions": [
            {"resolution": e.resolution, "old": e.existing.content, "new": e.incoming.content}
            for e in result.contradictions
        ],
    }


def _limit(value: int | None, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LIMIT:
        raise ValidationError("limit", f"must be an integer from 1 to {MAX_LIMIT}, got {value!r}")
    return value


def build_server(memory: LokulMem) -> Any:
    """An ``mcp.server.MCPServer`` whose tools work on ``memory`` (the caller opens
    and closes it).  Raises :class:`ImportError` without the ``mcp`` extra."""
    from mcp.server import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("lokulmem", instructions=INSTRUCTIONS)

    def guarded(call: Callable[[], T]) -> T:
        try:
            return call()
        except LokulMemError as exc:  # the model reads the message; nothing was changed
            raise ToolError(f"{type(exc).__name__}: {exc}") from exc

    @server.tool()
    def remember(text: str, as_conclusion: bool = False) -> dict[str, Any]:
        """Store what the user said about themselves (or, with as_conclusion, what you concluded)."""
        if as_conclusion:
            return guarded(lambda: _learned(memory.remember(text)))
        return guarded(lambda: _learned(memory.learn(text)))

    @server.tool()
    def recall(message: str, limit: int | None = None) -> dict[str, Any]:
        """What is known about the user that is relevant to `message` (evidence cards)."""

        def run() -> dict[str, Any]:
            cap = None if limit is None else _limit(limit, 0)
            preview = memory.manage().get_injection_preview(message, max_memories=cap)
            cards = [
                {
                    "memory_id": c.memory_id,
                    "content": c.content,
                    "types": builtins.list(c.types),
                    "status": c.status,
                    "current": c.current,
                    "valid_from": c.valid_from,
                    "valid_to": c.valid_to,
                    "source": c.source,
                    "confidence": c.confidence,
                    "score": round(c.score, 4),
                    "reason": c.reason,
                }
                for c in preview.evidence
            ]
            return {"memories": cards, "context": preview.context, "tokens": preview.estimated_tokens}

        return guarded(run)

    @server.tool()
    def search(query: str, semantic: bool = False, limit: int = 10) -> builtins.list[dict[str, Any]]:
        """Find memories by words, or by meaning with semantic=true."""

        def run() -> builtins.list[dict[str, Any]]:
            cap = _limit(limit, 10)
            manage = memory.manage()
            if semantic:
                return [
                    {**_memory(m), "similarity": round(s, 4)}
                    for m, s in manage.semantic_search_scored(query, cap)
                ]
            return [_memory(m) for m in manage.search(query, limit=cap)]

        return guarded(run)

    @server.tool()
    def forget(memory_id: str) -> dict[str, Any]:
        """Delete one memory for good."""
        guarded(lambda: memory.manage().delete(memory_id))
        return {"deleted": memory_id}

    @server.tool()
    def pin(memory_id: str) -> dict[str, Any]:
        """Pin one memory: it never fades and is always considered."""
        return guarded(lambda: _memory(memory.manage().pin(memory_id)))

    @server.tool(name="list")
    def list_memories(limit: int = 20) -> builtins.list[dict[str, Any]]:
        """The most recent active memories, newest first."""
        return guarded(
            lambda: [
                _memory(m)
                for m in memory.manage().list(status="active", limit=_limit(limit, 20), direction="desc")
            ]
        )

    @server.resource("memory://stats", mime_type="application/json")
    def stats() -> str:
        """Counts by status and type, strength, confidence and size of the store."""
        return json.dumps(record_to_json(memory.manage().stats()), ensure_ascii=False)

    return server

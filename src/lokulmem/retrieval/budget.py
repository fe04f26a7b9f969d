"""Token counting and message validation for ``augment()``."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import ValidationError

__all__ = ["count_tokens", "default_token_counter", "message_payload", "message_text", "validate_history"]

TokenCounter = Callable[[str], int]


def default_token_counter(text: str) -> int:
    """PRD fallback: ``ceil(len(text) / 4)`` (fine for Latin scripts; low for code/CJK)."""
    return math.ceil(len(text) / 4)


def count_tokens(text: str, counter: TokenCounter | None) -> int:
    if counter is None:
        return default_token_counter(text)
    n = counter(text)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValidationError("token_counter", f"must return a non-negative int, got {n!r}")
    return n


def message_text(message: Mapping[str, Any]) -> str:
    """The text of a message: a string, or Anthropic/OpenAI-style content blocks."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts: list[str] = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "\n".join(parts)
    return ""


def validate_history(history: object) -> list[Mapping[str, Any]]:
    """Check ``history`` is a sequence of ``{role, content}`` mappings; name the bad item."""
    if history is None:
        return []
    if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
        raise ValidationError("history", f"must be a list of messages, got {type(history).__name__}")
    out: list[Mapping[str, Any]] = []
    for i, item in enumerate(history):
        if not isinstance(item, Mapping):
            raise ValidationError(f"history[{i}]", f"must be a mapping, got {type(item).__name__}")
        if "role" not in item or "content" not in item:
            raise ValidationError(f"history[{i}]", "needs 'role' and 'content'")
        if not isinstance(item["role"], str):
            raise ValidationError(f"history[{i}].role", "must be a string")
        content = item["content"]
        if content is not None and not isinstance(content, (str, list, tuple)):
            raise ValidationError(
                f"history[{i}].content", f"must be a string or content blocks, got {type(content).__name__}"
            )
        out.append(item)
    return out


def message_payload(message: Mapping[str, Any]) -> str:
    """What of a message the model reads: its text plus its tool calls (OpenAI
    ``tool_calls``) and tool blocks (Anthropic ``tool_use``/``tool_result``) as JSON,
    so an agent's history is not counted as empty."""
    parts = [message_text(message)]
    for call in message.get("tool_calls") or ():
        if isinstance(call, Mapping):
            parts.append(json.dumps(call.get("function", call), sort_keys=True, default=str))
    content = message.get("content")
    if isinstance(content, Sequence) and not isinstance(content, str):
        for block in content:
            if isinstance(block, Mapping) and block.get("type") in ("tool_use", "tool_result"):
                parts.append(json.dumps(block, sort_keys=True, default=str))
    return "\n".join(p for p in parts if p)

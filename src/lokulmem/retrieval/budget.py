"""Token counting and message validation for ``augment()``."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..config import Config
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


@functools.cache
def _default_config() -> Config:
    return Config()


def validate_history(history: object, config: Config | None = None) -> list[Mapping[str, Any]]:
    """Check ``history`` is a sequence of ``{role, content}`` mappings; name the bad item.

    Bounded by ``config`` (default: the defaults): at most ``max_history_items``
    messages, each with content blocks nested at most ``max_content_depth`` deep
    and ``max_content_blocks`` items in all, and no block list that contains itself.
    The caller's messages are not changed.
    """
    cfg = config or _default_config()
    max_items, max_depth, max_blocks = cfg.max_history_items, cfg.max_content_depth, cfg.max_content_blocks
    if history is None:
        return []
    if isinstance(history, (str, bytes)) or not isinstance(history, Sequence):
        raise ValidationError("history", f"must be a list of messages, got {type(history).__name__}")
    if len(history) > max_items:
        raise ValidationError("history", f"has {len(history):,} messages; at most {max_items:,} are read")
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
        for key in ("content", "tool_calls"):
            _check_nesting(f"history[{i}].{key}", item.get(key), max_depth, max_blocks)
        out.append(item)
    return out


def _check_nesting(name: str, value: object, max_depth: int, max_blocks: int) -> None:
    """Walk the lists and mappings under ``value`` without recursion: bounded depth and
    size, no cycle (a deep copy of the history, made by injection, then cannot fail)."""
    if value is None or isinstance(value, str):
        return
    stack: list[tuple[object, int, frozenset[int]]] = [(value, 1, frozenset())]
    seen = 0
    while stack:
        node, depth, above = stack.pop()
        if isinstance(node, Mapping):
            children: Iterable[object] = node.values()
        elif isinstance(node, (list, tuple)):
            children = node
        else:
            continue
        if id(node) in above:
            raise ValidationError(name, "contains itself")
        if depth > max_depth:
            raise ValidationError(name, f"is nested more than {max_depth} levels deep")
        seen += len(node)
        if seen > max_blocks:
            raise ValidationError(name, f"has more than {max_blocks:,} blocks and items")
        inner = above | {id(node)}
        stack.extend((child, depth + 1, inner) for child in children)


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

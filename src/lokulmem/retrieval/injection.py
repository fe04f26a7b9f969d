"""The ``prepend-system`` injection format (PRD §6 layer 3).

    [Memory Context — what you know about this user]
    • 📌 User is a product manager in Berlin. (pinned)
    • User prefers concise answers. (confidence: high)
    [End Memory Context]

The caller's list and its dicts are never mutated: messages are copied.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from ..config import Config
from ..decay import confidence_label
from ..records import Memory

__all__ = ["BLOCK_END", "BLOCK_START", "format_block", "format_line", "inject"]

BLOCK_START = "[Memory Context — what you know about this user]"
BLOCK_END = "[End Memory Context]"


def _date(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime("%Y-%m-%d")


def format_line(memory: Memory, config: Config) -> str:
    """One bullet line for ``memory``."""
    text = memory.content.strip()
    if memory.pinned:
        return f"• 📌 {text} (pinned)"
    label = confidence_label(memory, config)
    suffix = f"confidence: {label}" + (" — inferred" if label == "low" else "")
    if memory.valid_to is not None:
        suffix = f"no longer current, until {_date(memory.valid_to)}; " + suffix
    return f"• {text} ({suffix})"


def format_block(lines: Sequence[str]) -> str:
    return "\n".join([BLOCK_START, *lines, BLOCK_END])


def inject(history: Sequence[Mapping[str, Any]], user_message: str, block: str) -> list[dict[str, Any]]:
    """``history`` + the user message, with ``block`` prepended to the system prompt.

    The first system message (if any) keeps its place and gets the block in
    front of its content; otherwise a system message is inserted first.
    """
    messages: list[dict[str, Any]] = [copy.deepcopy(dict(m)) for m in history]
    messages.append({"role": "user", "content": user_message})
    if not block:
        return messages
    for m in messages:
        if m.get("role") == "system":
            content = m.get("content")
            if isinstance(content, list):
                m["content"] = [{"type": "text", "text": block}, *content]
            elif content:
                m["content"] = f"{block}\n\n{content}"
            else:
                m["content"] = block
            return messages
    return [{"role": "system", "content": block}, *messages]

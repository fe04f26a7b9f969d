"""The memory block and where it goes in the messages (PRD §6 layer 3, §10.5).

    [Memory Context — what you know about this user]
    • 📌 User is a product manager in Berlin. (pinned)
    • User prefers concise answers. (confidence: high)
    [End Memory Context]

Injection modes (``Config.injection_mode``):

* ``prepend-system`` (default, PRD v0.1): in front of the first system
  message's content, or as a new first system message when there is none;
* ``new-system-message``: a system message of its own, after the app's
  system messages and before the conversation;
* ``developer-message``: the same as a ``developer`` message (OpenAI's role
  for instructions to reasoning models; other APIs reject it);
* ``user-turn-prefix``: in front of the user's new message (every API
  accepts it, including Anthropic's, which has no system role in messages).

:func:`split_system` turns any of them into Anthropic's shape: the system
text for ``system=`` and the remaining messages.  The caller's list and its
dicts are never mutated: messages are copied.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from ..config import Config
from ..config.parts import INJECTION_MODES, InjectionMode
from ..decay import confidence_label
from ..records import Memory
from .budget import message_text

__all__ = [
    "BLOCK_END",
    "BLOCK_START",
    "INJECTION_MODES",
    "InjectionMode",
    "format_block",
    "format_line",
    "format_upcoming",
    "inject",
    "split_system",
]

#: Roles that carry instructions rather than conversation.
_INSTRUCTION_ROLES = ("system", "developer")

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


def format_upcoming(memory: Memory, event_start: int, config: Config) -> str:
    """The bullet line of a proactive memory: its line, with the day of the event."""
    line = format_line(memory, config)
    return f"{line[:-1]}; upcoming: {_date(event_start)})" if line.endswith(")") else line


def format_block(lines: Sequence[str]) -> str:
    return "\n".join([BLOCK_START, *lines, BLOCK_END])


def inject(
    history: Sequence[Mapping[str, Any]],
    user_message: str,
    block: str,
    mode: InjectionMode = "prepend-system",
) -> list[dict[str, Any]]:
    """``history`` + the user message, with ``block`` placed as ``mode`` says (see the
    module docstring).  An empty ``block`` leaves the messages as they are."""
    messages: list[dict[str, Any]] = [copy.deepcopy(dict(m)) for m in history]
    messages.append({"role": "user", "content": user_message})
    if not block:
        return messages
    if mode == "user-turn-prefix":
        messages[-1]["content"] = f"{block}\n\n{user_message}"
        return messages
    if mode in ("new-system-message", "developer-message"):
        role = "system" if mode == "new-system-message" else "developer"
        at = next((i for i, m in enumerate(messages) if m.get("role") not in _INSTRUCTION_ROLES), 0)
        return [*messages[:at], {"role": role, "content": block}, *messages[at:]]
    return _prepend_to_system(messages, block)


def _prepend_to_system(messages: list[dict[str, Any]], block: str) -> list[dict[str, Any]]:
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


def split_system(messages: Sequence[Mapping[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Anthropic's shape: the text of every system and developer message (joined by
    blank lines, in order) for the ``system=`` parameter, and the other messages
    (copied).  ``client.messages.create(system=system, messages=rest, ...)``."""
    system = [message_text(m) for m in messages if m.get("role") in _INSTRUCTION_ROLES]
    rest = [copy.deepcopy(dict(m)) for m in messages if m.get("role") not in _INSTRUCTION_ROLES]
    return "\n\n".join(t for t in system if t), rest

"""Session compaction (HOM): the pure part.  Messages in, plans out.

A long agent session outgrows the context window.  :func:`plan_compaction`
splits the history into a *kept* tail (the recent turns, verbatim) and an
*older* part that is replaced by one summary message.  The older part is
first read into three **tracks**, each saved in full as artifact memories by
the shell (``LokulMem.compact``):

* ``conversation``: what the user and the assistant said;
* ``tool_usage``: every tool call (name and arguments) and every result;
* ``action_taken``: one line per call, ``name(arguments) → result``.

Tool calls come in the OpenAI format (an assistant message with
``tool_calls`` and ``role: "tool"`` results with ``tool_call_id``) or the
Anthropic one (``tool_use`` and ``tool_result`` content blocks).  A result
whose call is unknown, or a malformed call, is a :class:`ValidationError`
naming the message index.  The cut never separates a call from its result.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .config import Config
from .errors import ValidationError
from .retrieval.budget import message_payload, message_text, validate_history

__all__ = ["TRACKS", "CompactionPlan", "ToolCall", "chunk_lines", "message_tokens", "plan_compaction"]

#: The artifact tracks, in the order they are written.
TRACKS = ("conversation", "tool_usage", "action_taken")
#: How a summary message begins (a later compaction folds it in again).
SUMMARY_MARK = "[Compacted history:"
#: Characters of a tool result kept on its ``action_taken`` line.
ACTION_RESULT_CHARS = 160


@dataclass(frozen=True)
class ToolCall:
    """One tool call and its result (``result`` None until the result is seen)."""

    id: str
    name: str
    arguments: str
    index: int
    result: str | None = None


@dataclass
class CompactionPlan:
    """What :func:`plan_compaction` decided: ``older`` messages are compacted, ``kept``
    ones stay verbatim (``head`` system messages first)."""

    head: list[Mapping[str, Any]]
    older: list[Mapping[str, Any]]
    kept: list[Mapping[str, Any]]
    tracks: dict[str, list[str]] = field(default_factory=dict)
    calls: list[ToolCall] = field(default_factory=list)

    @property
    def user_messages(self) -> list[tuple[str, str]]:
        """``(text, what it answered)`` for each user message of the older part."""
        out: list[tuple[str, str]] = []
        last_reply = ""
        for m in self.older:
            text = message_text(m)
            if m.get("role") == "assistant" and text:
                last_reply = text
            elif m.get("role") == "user" and text.strip() and not _tool_results(m):
                out.append((text, last_reply))
                last_reply = ""
        return out


def is_summary(message: Mapping[str, Any]) -> bool:
    """Whether ``message`` is the summary an earlier compaction left."""
    return message.get("role") == "system" and message_text(message).startswith(SUMMARY_MARK)


def message_tokens(message: Mapping[str, Any]) -> int:
    """Tokens of a message as the model sees it (text, tool calls and tool blocks:
    :func:`~lokulmem.retrieval.budget.message_payload`; the PRD's ``ceil(chars / 4)``),
    plus 4 for the message framing."""
    return math.ceil(len(message_payload(message)) / 4) + 4


def _block_text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        return "\n".join(_block_text(v) for v in value)
    if isinstance(value, Mapping):
        return str(value.get("text", "")) if "text" in value else json.dumps(value, sort_keys=True)
    return "" if value is None else str(value)


def _tool_results(m: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    content = m.get("content")
    if isinstance(content, Sequence) and not isinstance(content, str):
        return [b for b in content if isinstance(b, Mapping) and b.get("type") == "tool_result"]
    return []


def _calls_of(m: Mapping[str, Any], i: int) -> list[ToolCall]:
    """The tool calls an assistant message makes (OpenAI ``tool_calls`` or Anthropic ``tool_use``)."""
    out: list[ToolCall] = []
    raw = m.get("tool_calls")
    if raw is not None:
        if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
            raise ValidationError(f"history[{i}].tool_calls", "must be a list of calls")
        for j, call in enumerate(raw):
            fn = call.get("function") if isinstance(call, Mapping) else None
            if (
                not isinstance(call, Mapping)
                or not isinstance(call.get("id"), str)
                or not isinstance(fn, Mapping)
            ):
                raise ValidationError(f"history[{i}].tool_calls[{j}]", "needs an 'id' and a 'function'")
            if not isinstance(fn.get("name"), str):
                raise ValidationError(f"history[{i}].tool_calls[{j}].function.name", "must be a string")
            out.append(ToolCall(call["id"], fn["name"], _block_text(fn.get("arguments", "")), i))
    content = m.get("content")
    if isinstance(content, Sequence) and not isinstance(content, str):
        for j, block in enumerate(content):
            if isinstance(block, Mapping) and block.get("type") == "tool_use":
                if not isinstance(block.get("id"), str) or not isinstance(block.get("name"), str):
                    raise ValidationError(
                        f"history[{i}].content[{j}]", "a tool_use needs an 'id' and a 'name'"
                    )
                args = json.dumps(block.get("input", {}), sort_keys=True, default=str)
                out.append(ToolCall(block["id"], block["name"], args, i))
    return out


def _results_of(m: Mapping[str, Any], i: int) -> list[tuple[str, str, str]]:
    """``(call id, result text, path)`` for each tool result a message carries."""
    if m.get("role") == "tool":
        cid = m.get("tool_call_id")
        if not isinstance(cid, str):
            raise ValidationError(f"history[{i}].tool_call_id", "a tool message needs its call's id")
        return [(cid, _block_text(m.get("content")), f"history[{i}]")]
    out: list[tuple[str, str, str]] = []
    for j, block in enumerate(_tool_results(m)):
        cid = block.get("tool_use_id")
        if not isinstance(cid, str):
            raise ValidationError(
                f"history[{i}].content[{j}].tool_use_id", "a tool_result needs its call's id"
            )
        out.append((cid, _block_text(block.get("content")), f"history[{i}].content[{j}]"))
    return out


def read_calls(history: Sequence[Mapping[str, Any]]) -> tuple[list[ToolCall], dict[int, int]]:
    """Every tool call with its result, and for each message index that carries a
    result, the index of the message that made the call (so a cut keeps them together)."""
    calls: dict[str, ToolCall] = {}
    origin: dict[int, int] = {}
    for i, m in enumerate(history):
        for call in _calls_of(m, i):
            calls[call.id] = call
        for cid, text, path in _results_of(m, i):
            if cid not in calls:
                raise ValidationError(path, f"a tool result for an unknown call id {cid!r}")
            c = calls[cid]
            calls[cid] = ToolCall(c.id, c.name, c.arguments, c.index, text)
            origin[i] = min(origin.get(i, c.index), c.index)
    return list(calls.values()), origin


def _cut(history: Sequence[Mapping[str, Any]], start: int, recent_budget: int, origin: dict[int, int]) -> int:
    """The index where the kept tail begins: as many recent messages as fit in
    ``recent_budget`` (at least the last one), never between a call and its result."""
    cut, used = len(history), 0
    while cut > start:
        cost = message_tokens(history[cut - 1])
        if used + cost > recent_budget and cut < len(history):
            break
        used += cost
        cut -= 1
    # Move the cut back until no kept result's call lies before it.
    moved = True
    while moved:
        moved = False
        for i in range(cut, len(history)):
            if i in origin and origin[i] < cut:
                cut, moved = max(start, origin[i]), True
                break
    return cut


def plan_compaction(history: object, *, recent_budget: int, config: Config | None = None) -> CompactionPlan:
    """Validate ``history`` and split it: leading system messages (kept), the older
    part (compacted, read into tracks) and the recent tail within ``recent_budget``."""
    msgs = validate_history(history, config)
    calls, origin = read_calls(msgs)
    start = 0
    while (
        start < len(msgs)
        and msgs[start].get("role") in ("system", "developer")
        and not is_summary(msgs[start])
    ):
        start += 1
    cut = _cut(msgs, start, recent_budget, origin)
    older = list(msgs[start:cut])
    plan = CompactionPlan(head=list(msgs[:start]), older=older, kept=list(msgs[cut:]))
    plan.calls = [c for c in calls if start <= c.index < cut]
    plan.tracks = _tracks(older, plan.calls)
    return plan


def _tracks(older: Sequence[Mapping[str, Any]], calls: Sequence[ToolCall]) -> dict[str, list[str]]:
    conversation = [
        f"{m.get('role')}: {message_text(m).strip()}"
        for m in older
        if m.get("role") in ("user", "assistant") and message_text(m).strip() and not _tool_results(m)
    ]
    tool_usage: list[str] = []
    action_taken: list[str] = []
    for c in calls:
        tool_usage.append(f"call {c.name}({c.arguments})")
        tool_usage.append(f"result {c.name}: {c.result if c.result is not None else '(no result)'}")
        result = (c.result or "(no result)").replace("\n", " ")
        action_taken.append(f"{c.name}({c.arguments}) → {result[:ACTION_RESULT_CHARS]}")
    return {"conversation": conversation, "tool_usage": tool_usage, "action_taken": action_taken}


def chunk_lines(lines: Sequence[str], max_chars: int) -> list[str]:
    """Lines grouped into chunks of at most ``max_chars`` (a longer line is split)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        pieces = [line[i : i + max_chars] for i in range(0, max(len(line), 1), max_chars)]
        for piece in pieces:
            if current and len(current) + 1 + len(piece) > max_chars:
                chunks.append(current)
                current = ""
            current = f"{current}\n{piece}" if current else piece
    if current:
        chunks.append(current)
    return chunks


def summary_message(
    older_count: int, facts: Sequence[str], actions: Sequence[str], *, max_chars: int
) -> dict[str, str]:
    """The one message that stands for the compacted part: the chosen facts and the
    most recent actions, within ``max_chars``."""
    lines = [f"{SUMMARY_MARK} {older_count} earlier messages, saved in full to memory]"]
    if facts:
        lines.append("What the user said:")
        lines.extend(f"• {f}" for f in facts)
    if actions:
        lines.append(f"Actions taken ({len(actions)}; the latest):")
        lines.extend(f"• {a}" for a in actions[-5:])
    text = ""
    for line in lines:
        if len(text) + len(line) + 1 > max_chars:
            break
        text = f"{text}\n{line}" if text else line
    return {"role": "system", "content": text}

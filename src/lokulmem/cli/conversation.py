"""Feeding and asking a store from the command line: learn, recall, preview."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from ..records import SCORE_PARTS, InjectionPreview, LearnResult
from .common import Target, emit, open_store, store_options

__all__ = ["COMMANDS", "read_transcript"]

#: Roles a transcript may hold; only user turns are learned, each with the
#: assistant reply before it as the context it answers.
ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
#: Largest transcript file read (bytes).
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024


class TranscriptError(click.BadParameter):
    """A transcript that is not OpenAI-format messages (exit code 2, names the item)."""


def _text(content: object, where: str) -> str:
    """A message's text: a string, or the text blocks of a content list."""
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if isinstance(content, list):
        parts = []
        for i, block in enumerate(content):
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, Mapping) and isinstance(block.get("text"), str):
                parts.append(block["text"])
            elif not isinstance(block, Mapping):
                raise TranscriptError(f"{where}.content[{i}]: not a text block")
        return "\n".join(parts)
    raise TranscriptError(f"{where}.content: expected text or a list of blocks")


def _messages(text: str) -> list[Any]:
    """The messages of a JSON document, else of JSON Lines."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        if len(text.strip().splitlines()) < 2:
            raise TranscriptError(f"not JSON: {exc}") from None
        return _json_lines(text)
    if isinstance(doc, Mapping):
        doc = doc.get("messages")
    if not isinstance(doc, list):
        raise TranscriptError('expected a list of messages or {"messages": [...]}')
    return doc


def _json_lines(text: str) -> list[Any]:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise TranscriptError(f"line {n}: not JSON: {exc}") from None
    return out


def read_transcript(text: str) -> list[tuple[str, str]]:
    """(user message, the assistant reply it answers) for each user turn of an
    OpenAI-format transcript: a JSON list of messages, ``{"messages": [...]}``,
    or JSON Lines (one message per line)."""
    turns: list[tuple[str, str]] = []
    previous_reply = ""
    for i, msg in enumerate(_messages(text)):
        where = f"messages[{i}]"
        if not isinstance(msg, Mapping) or msg.get("role") not in ROLES:
            raise TranscriptError(f"{where}: expected an object with a role in {sorted(ROLES)}")
        body = _text(msg.get("content"), where)
        if msg["role"] == "user":
            turns.append((body, previous_reply))
        elif msg["role"] == "assistant":
            previous_reply = body
    return turns


def _load(source: str) -> str:
    if source == "-":
        return sys.stdin.read(MAX_TRANSCRIPT_BYTES + 1)[:MAX_TRANSCRIPT_BYTES]
    path = Path(source)
    try:
        if path.stat().st_size > MAX_TRANSCRIPT_BYTES:
            raise TranscriptError(f"{source}: larger than {MAX_TRANSCRIPT_BYTES} bytes")
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TranscriptError(f"{source}: {exc}") from None


def _learned_row(user: str, result: LearnResult) -> dict[str, Any]:
    return {
        "user": user,
        "decisions": [
            {"outcome": d.outcome, "content": d.content, "types": list(d.types), "memory_id": d.memory_id}
            for d in result.decisions
        ],
        "contradictions": [
            {"resolution": e.resolution, "old": e.existing.content, "new": e.incoming.content}
            for e in result.contradictions
        ],
    }


def _render_learned(console: Console, rows: Sequence[Mapping[str, Any]]) -> None:
    table = Table(title=f"{len(rows)} user turns")
    for name in ("outcome", "content", "types"):
        table.add_column(name, overflow="fold")
    for row in rows:
        for d in row["decisions"]:
            if d["outcome"] in ("stored", "contradiction", "reinforced"):
                table.add_row(d["outcome"], d["content"], ", ".join(d["types"]))
        for e in row["contradictions"]:
            table.add_row(f"↳ {e['resolution']}", f"{e['old']} → {e['new']}", "")
    console.print(table)
    stored = sum(d["outcome"] in ("stored", "contradiction") for r in rows for d in r["decisions"])
    console.print(f"{stored} memories stored")


@click.command("learn")
@click.argument("transcript", metavar="FILE")
@click.option(
    "--session", "session_id", help="Session id of the conversation (ended afterwards: an episode)."
)
@click.option("--force", is_flag=True, help="Store every sentence, skipping the extraction gate.")
@store_options
def learn_command(target: Target, transcript: str, session_id: str | None, force: bool) -> None:
    """Learn from a transcript: OpenAI-format JSON or JSON Lines messages, or - for stdin.

    Creates the store if it does not exist."""
    turns = read_transcript(_load(transcript))
    rows = []
    with open_store(target, create=True) as memory, Progress(console=target.progress_console()) as bar:
        task = bar.add_task("learning", total=len(turns))
        for user, reply in turns:
            result = memory.learn(user, session_id=session_id, force_extract=force, in_reply_to=reply)
            rows.append(_learned_row(user, result))
            bar.advance(task)
        if session_id is not None:
            memory.end_session(session_id)
    emit(target, rows, lambda c: _render_learned(c, rows))


def _preview(target: Target, message: str, limit: int | None) -> InjectionPreview:
    with open_store(target) as memory:
        return memory.manage().get_injection_preview(message, max_memories=limit)


def _render_cards(console: Console, preview: InjectionPreview) -> None:
    if not preview.evidence:
        console.print("nothing relevant: nothing would be injected")
        return
    table = Table(title=f"{len(preview.evidence)} memories, {preview.estimated_tokens} tokens")
    table.add_column("#", justify="right")
    table.add_column("score")
    table.add_column("content", overflow="fold", ratio=2, min_width=20)
    for name in ("status", "confidence", "source"):
        table.add_column(name, no_wrap=True)
    table.add_column("reason", overflow="fold", ratio=1)
    for card in preview.evidence:
        state = card.status if card.current else f"{card.status} (history)"
        table.add_row(
            str(card.rank),
            f"{card.score:.3f}",
            card.content,
            state,
            card.confidence,
            card.source,
            card.reason,
        )
    console.print(table)


_LIMIT = click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="At most this many memories (default: config)."
)


@click.command("recall")
@click.argument("message")
@_LIMIT
@store_options
def recall_command(target: Target, message: str, limit: int | None) -> None:
    """What augment() would inject for MESSAGE, as evidence cards (changes nothing)."""
    preview = _preview(target, message, limit)
    emit(target, preview.evidence, lambda c: _render_cards(c, preview))


#: Width of a score bar at a component of 0.5 (components rarely pass it).
BAR_WIDTH = 20


def _render_breakdown(console: Console, preview: InjectionPreview) -> None:
    if not preview.would_inject:
        console.print("nothing relevant: nothing would be injected")
        return
    for inj in preview.would_inject:
        console.print(f"[bold]#{inj.injection_rank}[/bold] score {inj.score:.3f}  {inj.memory.content}")
        b = inj.score_breakdown
        for part in SCORE_PARTS:
            value = float(getattr(b, part))
            if value:
                bar = "█" * max(1, round(BAR_WIDTH * min(value, 1.0) / 0.5))
                console.print(f"    {part:<10} {value:6.3f} [cyan]{bar}[/cyan]")
        console.print(f"    [dim]evidence {inj.evidence or 0:.2f}; {inj.reason}[/dim]")
    console.print(f"\n[bold]memory block ({preview.estimated_tokens} tokens)[/bold]")
    console.print(preview.context, markup=False)


@click.command("preview")
@click.argument("message")
@_LIMIT
@store_options
def preview_command(target: Target, message: str, limit: int | None) -> None:
    """The memory block augment() would build for MESSAGE, with each score's parts (changes nothing)."""
    preview = _preview(target, message, limit)
    emit(target, preview, lambda c: _render_breakdown(c, preview))


COMMANDS: tuple[click.Command, ...] = (learn_command, recall_command, preview_command)

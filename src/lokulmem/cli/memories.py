"""Looking into a store and correcting it: list, show, search, pin, unpin,
archive, unarchive, delete, edit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

import click
from rich.console import Console
from rich.table import Table

from ..manage import Manager
from ..records import Lineage, Memory
from .common import Target, emit, open_store, store_options

__all__ = ["COMMANDS", "memory_table", "when"]

STATUSES = ("active", "faded", "superseded", "archived")
ORDERS = ("created_at", "updated_at", "last_accessed_at", "strength", "mention_count")


def when(ms: int | None) -> str:
    """A Unix-ms time as a short UTC date and time ("" for none)."""
    if ms is None:
        return ""
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime("%Y-%m-%d %H:%M")


def memory_table(memories: Sequence[Memory], *, title: str | None = None) -> Table:
    """Memories as a table: id, status, types, created, content."""
    table = Table(title=title, show_lines=False)
    table.add_column("id", style="dim", no_wrap=True)  # whole, to be copied
    table.add_column("status", no_wrap=True)
    table.add_column("types", style="cyan", no_wrap=True)
    table.add_column("created", no_wrap=True)
    table.add_column("content", overflow="fold", min_width=24, ratio=1)
    for m in memories:
        status = m.status + (", pinned" if m.pinned else "")
        if m.status == "active" and m.valid_to is not None:
            status += ", closed"  # no longer current: valid_to set
        table.add_row(m.id, status, ", ".join(m.types), when(m.created_at)[:10], m.content)
    return table


@click.command("list")
@click.option("--type", "types", multiple=True, help="Only memories of this type (repeatable).")
@click.option("--status", type=click.Choice(STATUSES), help="Only memories in this status (default: all).")
@click.option("--pinned/--unpinned", default=None, help="Only pinned, or only unpinned, memories.")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True, help="At most this many.")
@click.option("--order", type=click.Choice(ORDERS), default="created_at", show_default=True)
@click.option("--desc", is_flag=True, help="Newest (largest) first.")
@store_options
def list_command(
    target: Target,
    types: tuple[str, ...],
    status: str | None,
    pinned: bool | None,
    limit: int,
    order: str,
    desc: bool,
) -> None:
    """List the memories of a store."""
    with open_store(target) as memory:
        found = memory.manage().list(
            types=list(types) or None,
            status=status,
            pinned=pinned,
            limit=limit,
            order_by=order,  # type: ignore[arg-type]  # click.Choice checked it against ORDERS
            direction="desc" if desc else "asc",
        )
    emit(target, found, lambda c: c.print(memory_table(found, title=f"{len(found)} memories")))


def _render_lineage(console: Console, lineage: Lineage) -> None:
    m = lineage.memory
    console.print(f"[bold]{m.content}[/bold]")
    rows = [
        ("id", m.id),
        ("types", ", ".join(m.types)),
        ("status", m.status + (", pinned" if m.pinned else "")),
        ("valid", f"{when(m.valid_from)} → {when(m.valid_to) or 'now'}"),
        ("confidence", f"{m.confidence} (extraction score {m.extraction_score:.2f})"),
        ("source", f"{m.source}, session {m.source_session or '-'} turn {m.source_turn}"),
        ("said", m.source_text),
        ("mentions", str(lineage.reinforcement_count)),
        ("created / updated", f"{when(m.created_at)} / {when(m.updated_at)}"),
    ]
    if lineage.supersedes is not None:
        rows.append(("replaces", f"{lineage.supersedes.content} ({lineage.supersedes.id})"))
    if lineage.superseded_by is not None:
        rows.append(("replaced by", f"{lineage.superseded_by.content} ({lineage.superseded_by.id})"))
    rows += [("correction", c) for c in lineage.corrections]
    rows += [("merged from", f"{x.content} ({x.id})") for x in lineage.merged_from]
    table = Table(show_header=False, box=None)
    table.add_column(style="dim")
    table.add_column(overflow="fold")
    for key, value in rows:
        table.add_row(key, value)
    console.print(table)
    if len(lineage.temporal_history) > 1:
        console.print(memory_table(lineage.temporal_history, title="history, oldest first"))


@click.command("show")
@click.argument("memory_id")
@store_options
def show_command(target: Target, memory_id: str) -> None:
    """Show one memory with its lineage (what it replaced, what replaced it, corrections)."""
    with open_store(target) as memory:
        lineage = memory.manage().get_lineage(memory_id)
    emit(target, lineage, lambda c: _render_lineage(c, lineage))


@click.command("search")
@click.argument("query")
@click.option("--semantic", is_flag=True, help="By meaning (the embedding) instead of by words.")
@click.option("--status", type=click.Choice(STATUSES), help="Word search only: this status (default: all).")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True, help="At most this many.")
@store_options
def search_command(target: Target, query: str, semantic: bool, status: str | None, limit: int) -> None:
    """Search memories by words (full text), or by meaning with --semantic."""
    with open_store(target) as memory:
        if semantic:
            scored = memory.manage().semantic_search_scored(query, limit)
            found = [m for m, _ in scored]
            data: object = [{"similarity": s, "memory": m} for m, s in scored]
        else:
            found = memory.manage().search(query, limit=limit, status=status)
            data = found
    emit(target, data, lambda c: c.print(memory_table(found, title=f"{len(found)} found")))


def _bulk(name: str, verb: str, act: Callable[[Manager, list[str]], int]) -> click.Command:
    @click.command(name)
    @click.argument("memory_ids", nargs=-1, required=True)
    @store_options
    def command(target: Target, memory_ids: tuple[str, ...]) -> None:
        with open_store(target) as memory:
            count = act(memory.manage(), list(memory_ids))
        emit(target, {"changed": count}, lambda c: c.print(f"{verb} {count} of {len(memory_ids)}"))

    command.help = f"{verb.capitalize()} memories by id (all or none: an unknown id changes nothing)."
    return command


@click.command("delete")
@click.argument("memory_ids", nargs=-1, required=True)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@store_options
def delete_command(target: Target, memory_ids: tuple[str, ...], yes: bool) -> None:
    """Delete memories by id for good (all or none). Archive keeps them instead."""
    if not yes:
        click.confirm(f"Delete {len(memory_ids)} memories for good?", abort=True, err=True)
    with open_store(target) as memory:
        count = memory.manage().delete_many(list(memory_ids))
    emit(target, {"deleted": count}, lambda c: c.print(f"deleted {count}"))


@click.command("edit")
@click.argument("memory_id")
@click.argument("content", required=False)
@click.option("--type", "types", multiple=True, help="Replace the memory's types (repeatable).")
@click.option("--confidence", type=click.Choice(("high", "medium", "low")))
@store_options
def edit_command(
    target: Target, memory_id: str, content: str | None, types: tuple[str, ...], confidence: str | None
) -> None:
    """Correct a memory's content, types or confidence (the old text is kept in its lineage)."""
    if content is None and not types and confidence is None:
        raise click.UsageError("give new CONTENT, --type or --confidence")
    with open_store(target) as memory:
        updated = memory.manage().update(
            memory_id, content=content, types=list(types) or None, confidence=confidence
        )
    emit(target, updated, lambda c: c.print(memory_table([updated], title="updated")))


COMMANDS: tuple[click.Command, ...] = (
    list_command,
    show_command,
    search_command,
    _bulk("pin", "pinned", lambda m, ids: m.pin_many(ids)),
    _bulk("unpin", "unpinned", lambda m, ids: m.unpin_many(ids)),
    _bulk("archive", "archived", lambda m, ids: m.archive_many(ids)),
    _bulk("unarchive", "unarchived", lambda m, ids: m.unarchive_many(ids)),
    delete_command,
    edit_command,
)

"""The store as a whole: stats, export, import, backup, restore, maintenance."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from ..records import MemoryStats
from .common import Target, emit, open_store, store_options
from .memories import memory_table

__all__ = ["COMMANDS"]


def _bar(count: int, total: int, width: int = 30) -> str:
    filled = 0 if total == 0 else round(width * count / total)
    return "█" * filled + "·" * (width - filled)


def _render_stats(console: Console, stats: MemoryStats) -> None:
    table = Table(title="memories", show_header=False)
    table.add_column()
    table.add_column(justify="right")
    table.add_column()
    for name in ("active", "faded", "superseded", "archived", "pinned"):
        count = getattr(stats, name)
        table.add_row(name, str(count), _bar(count, stats.total))
    table.add_row("total", str(stats.total), "")
    console.print(table)
    by_type = Table(title="active memories by type", show_header=False)
    by_type.add_column()
    by_type.add_column(justify="right")
    by_type.add_column()
    top = max(stats.by_type.values(), default=0)
    for name, count in sorted(stats.by_type.items(), key=lambda kv: -kv[1]):
        by_type.add_row(name, str(count), _bar(count, top))
    console.print(by_type)
    console.print(
        f"average strength {stats.average_strength:.2f}, average confidence {stats.average_confidence:.2f}, "
        f"{stats.conversation_count} conversations, {stats.storage_used_bytes / 1e6:.1f} MB on disk"
    )
    index = stats.search_index
    if index:
        cal = index.get("calibration")
        measured = f", calibrated recall@{cal['k']} {cal['recall']:.3f}" if cal else ""
        console.print(
            f"search: {index['mode']} over {index['vectors']} vectors ({index['reason']}{measured})",
            markup=False,  # a reason may say "lokulmem[ann]"
        )
    mentioned = [m for m in stats.most_mentioned if m.mention_count > 0]
    if mentioned:
        console.print(memory_table(mentioned, title="most mentioned"))


@click.command("stats")
@store_options
def stats_command(target: Target) -> None:
    """Counts by status and type, strength and confidence, size on disk."""
    with open_store(target) as memory:
        stats = memory.manage().stats()
    emit(target, stats, lambda c: _render_stats(c, stats))


@click.command("export")
@click.argument("file", required=False, default="-", metavar="[FILE]")
@click.option("--no-embeddings", is_flag=True, help="Leave the vectors out (re-embedded on import).")
@click.option("--markdown", is_flag=True, help="A readable Markdown summary instead (not importable).")
@store_options
def export_command(target: Target, file: str, no_embeddings: bool, markdown: bool) -> None:
    """Export the store as JSON (streamed to FILE, or to stdout with -)."""
    with open_store(target) as memory:
        manage = memory.manage()
        if markdown:
            text = manage.export_to_markdown()
        elif file == "-":
            text = json.dumps(manage.export(include_embeddings=not no_embeddings), ensure_ascii=False)
        else:
            count = manage.export_to(Path(file), include_embeddings=not no_embeddings)
            emit(target, {"exported": count, "file": file}, lambda c: c.print(f"exported {count} memories"))
            return
    if file == "-":
        sys.stdout.write(text + "\n")
    else:
        Path(file).write_text(text, encoding="utf-8")


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--merge/--replace",
    default=None,
    help="Add to the store, or replace its memories (default: replace for an export, add for a pack).",
)
@click.option(
    "--conflict",
    type=click.Choice(("keep-existing", "use-imported", "keep-newer")),
    default="keep-existing",
    show_default=True,
    help="When an incoming memory has a stored one's id (or key).",
)
@store_options
def import_command(target: Target, file: Path, merge: bool | None, conflict: str) -> None:
    """Import a lokulmem export or a memory pack (one transaction: all or nothing).

    Creates the store if it does not exist."""
    with open_store(target, create=True) as memory, target.progress_console().status("importing"):
        result = memory.manage().import_data(
            file,
            merge=merge,
            conflict_strategy=conflict,  # type: ignore[arg-type]  # click.Choice checked it
        )
    emit(
        target,
        result,
        lambda c: c.print(
            f"imported {result.imported}, skipped {result.skipped}, conflicts {result.conflicts},"
            f" rejected {len(result.rejected)}"
        ),
    )


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--overwrite", is_flag=True, help="Replace FILE if it exists.")
@store_options
def backup_command(target: Target, file: Path, overwrite: bool) -> None:
    """Copy the store to FILE while it stays in use (SQLite's online backup, checked)."""
    with open_store(target) as memory:
        written = memory.backup(file, overwrite=overwrite)
    emit(target, {"backup": str(written)}, lambda c: c.print(f"backed up to {written}"))


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@store_options
def restore_command(target: Target, file: Path) -> None:
    """Replace the store's content with a backup FILE (vetted first; creates the store).

    An encrypted backup opens with the store's passphrase."""
    with open_store(target, create=True) as memory:
        memory.restore(file)
    emit(target, {"restored": str(file)}, lambda c: c.print(f"restored from {file}"))


@click.command("maintenance")
@click.option("--cluster", is_flag=True, help="Also recluster now (otherwise only when due).")
@store_options
def maintenance_command(target: Target, cluster: bool) -> None:
    """Run the sweep now: fade decayed memories, purge old faded ones, apply retention."""
    with open_store(target) as memory:
        report = memory.maintenance(sweep=True, cluster=True if cluster else None)
    emit(
        target,
        report,
        lambda c: c.print(
            f"faded {len(report.faded)}, purged {len(report.purged)}, retired {len(report.retired)}"
            + (f", {report.clusters} clusters" if report.clustered else "")
            + (f" (skipped: {report.skipped_reason})" if report.skipped_reason else "")
        ),
    )


@click.command("reembed")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@store_options
def reembed_command(target: Target, yes: bool) -> None:
    """Recompute every vector with the built-in model (a store made with another embedder).

    Opens the store without the model check, so it works where other commands
    refuse with EmbeddingModelMismatchError.  One transaction: interrupted, the
    old vectors stay."""
    from ..client import shared_minilm
    from ..reembed import reembed_store
    from ..storage import SQLiteStorage
    from ..storage.keys import Unlock
    from .common import StoreMissingError, passphrase

    location = target.location
    if not location.exists():
        raise StoreMissingError(f"no store at {location}")
    if not yes:
        click.confirm(f"Recompute every vector of {location}?", abort=True, err=True)
    storage = SQLiteStorage(location, encryption=Unlock(passphrase(target)), vector_storage="float16")
    try:
        with Progress(console=target.progress_console()) as bar:
            task = bar.add_task("re-embedding", total=None)
            count = reembed_store(
                storage,
                shared_minilm(),
                on_progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    finally:
        storage.close()
    emit(target, {"reembedded": count}, lambda c: c.print(f"re-embedded {count} memories"))


COMMANDS: tuple[click.Command, ...] = (
    stats_command,
    export_command,
    import_command,
    backup_command,
    restore_command,
    maintenance_command,
    reembed_command,
)

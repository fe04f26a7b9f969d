"""``lokulmem doctor``: is everything a store needs there and sound?

Checks, each ``ok``, ``warn`` or ``fail`` with a detail line:

* the embedding model and its tokenizer (sha256 against the pinned digests),
  and the shipped contradiction head;
* the store file: schema version (known, current, or newer than this
  lokulmem), ``PRAGMA integrity_check``, the full-text index (FTS5
  ``integrity-check``, plain stores), encryption;
* the store opened through :class:`~lokulmem.LokulMem`: the in-memory vector
  index holds exactly the active memories with vectors, and a stored vector
  finds its own memory first.

Exit status 1 when any check fails (a warning does not), 2 when the store
does not exist.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import click
import numpy as np
from rich.console import Console
from rich.table import Table

from ..embedding.minilm import (
    MODEL_SHA256,
    TOKENIZER_SHA256,
    default_model_path,
    default_tokenizer_path,
    verify_sha256,
)
from ..errors import LokulMemError
from ..pairhead import DEFAULT_HEAD_PATH, DEFAULT_HEAD_SHA256, load_head
from ..storage.migrations import LATEST_VERSION
from .common import EXIT_ERROR, EXIT_MISSING, Target, emit, open_store, store_options

__all__ = ["Check", "doctor_command"]


@dataclass(frozen=True)
class Check:
    """One finding of ``doctor``."""

    name: str
    state: Literal["ok", "warn", "fail"]
    detail: str


def _guard(name: str, probe: Callable[[], str]) -> Check:
    """Run ``probe``; its text is the detail of an ``ok``, an error a ``fail``."""
    try:
        return Check(name, "ok", probe())
    except (LokulMemError, OSError, sqlite3.Error, ValueError) as exc:
        return Check(name, "fail", f"{type(exc).__name__}: {exc}")


def _model_checks() -> list[Check]:
    def file(path: Path, digest: str) -> Callable[[], str]:
        def probe() -> str:
            verify_sha256(path, digest)
            return f"{path} (sha256 {digest[:12]}…)"

        return probe

    return [
        _guard("embedding model", file(default_model_path(), MODEL_SHA256)),
        _guard("tokenizer", file(default_tokenizer_path(), TOKENIZER_SHA256)),
        _guard(
            "contradiction head",
            lambda: (
                f"{load_head(DEFAULT_HEAD_PATH, DEFAULT_HEAD_SHA256).sha256[:12]}… (off unless configured)"
            ),
        ),
    ]


def _file_checks(location: Path) -> list[Check]:
    """What can be read from the file without opening it as a store (read-only)."""
    uri = f"{location.resolve().as_uri()}?mode=ro"
    conn = sqlite3.connect(uri, uri=True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > LATEST_VERSION:
            schema = Check(
                "schema", "fail", f"version {version}, newer than this lokulmem ({LATEST_VERSION})"
            )
        elif version < LATEST_VERSION:
            schema = Check("schema", "warn", f"version {version}; upgraded to {LATEST_VERSION} when opened")
        else:
            schema = Check("schema", "ok", f"version {version} (current)")
        integrity = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        checks = [schema, Check("integrity", "ok" if integrity == "ok" else "fail", integrity)]
        encrypted = (
            conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
            and conn.execute("SELECT 1 FROM meta WHERE key = 'encryption'").fetchone()
        )
        checks.append(Check("encryption", "ok", "encrypted at rest" if encrypted else "not encrypted"))
    finally:
        conn.close()
    return checks


def _fts_check(location: Path) -> str:
    conn = sqlite3.connect(location)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memories_fts'").fetchone():
            return "kept in memory (encrypted store) or not built"
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')")
        return "consistent with its table"
    finally:
        conn.close()


def _index_checks(target: Target) -> list[Check]:
    with open_store(target) as memory:
        memory.init()
        engine, storage = memory.engine, memory.storage
        with engine.lock:
            engine.ensure()
            engine.sync_index()
            # Counted as they are read (in pages): never every vector in memory at once.
            first: tuple[str, np.ndarray] | None = None
            count = 0
            for item in storage.active_vectors():
                first, count = first or item, count + 1
            held = len(engine.index)
            checks = [
                Check(
                    "vector index",
                    "ok" if held == count else "fail",
                    f"{held} vectors for {count} active memories with vectors",
                )
            ]
            if first is not None:
                some_id, vec = first
                hits = engine.index.search(np.asarray(vec, dtype=np.float32), 1)
                found = bool(hits) and hits[0].id == some_id
                checks.append(
                    Check("self-search", "ok" if found else "fail", "a stored vector finds its memory first")
                )
    return checks


def run_checks(target: Target) -> list[Check]:
    """Every check for the store ``target`` names (model checks first)."""
    checks = _model_checks()
    location = target.location
    if not location.exists():
        return [*checks, Check("store", "fail", f"no store at {location}")]
    checks.append(Check("store", "ok", str(location)))
    try:
        checks += _file_checks(location)
    except sqlite3.Error as exc:
        return [*checks, Check("store file", "fail", f"not a readable SQLite file: {exc}")]
    if any(c.state == "fail" for c in checks):
        return checks  # opening it would fail or change it (a newer schema is refused)
    checks.append(_guard("full-text index", lambda: _fts_check(location)))
    if any(c.name == "schema" and c.state == "warn" for c in checks):
        # Opening would upgrade the file; doctor only looks.
        return [*checks, Check("vector index", "warn", "not checked: opening the store upgrades its schema")]
    try:
        checks += _index_checks(target)
    except LokulMemError as exc:
        checks.append(Check("open", "fail", f"{type(exc).__name__}: {exc}"))
    return checks


def _render(console: Console, checks: list[Check]) -> None:
    table = Table(show_header=False, box=None)
    table.add_column()
    table.add_column()
    table.add_column(overflow="fold")
    style = {"ok": "[green]ok[/green]", "warn": "[yellow]warn[/yellow]", "fail": "[red]FAIL[/red]"}
    for c in checks:
        table.add_row(style[c.state], c.name, c.detail)
    console.print(table)


@click.command("doctor")
@store_options
def doctor_command(target: Target) -> None:
    """Check the model files, the store's schema and integrity, and its vector index."""
    checks = run_checks(target)
    emit(target, checks, lambda c: _render(c, checks))
    if not target.location.exists():
        raise SystemExit(EXIT_MISSING)
    if any(c.state == "fail" for c in checks):
        raise SystemExit(EXIT_ERROR)
